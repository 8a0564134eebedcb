"""OpenEnv packaging: ``openenv validate`` (local and against a running server), the manifest in
step with the task catalog, ``server/app.py``'s required form, ``uv.lock`` in step with pyproject,
and a server import path free of openenv and gradio."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from domain.tasks import default_catalog
from tests.databases import sqlite_pass_only
from tests.servers import ROOT, LiveServer

OPENENV = Path(sys.executable).with_name("openenv")


def run_openenv(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(OPENENV), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


@sqlite_pass_only("it reads the repository's files, not a database")
def test_openenv_validate_passes_in_the_repository_root() -> None:
    result = run_openenv("validate", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["passed"] is True and report["issues"] == []


@sqlite_pass_only("validate --url checks the routes and their shapes, the same over either backend")
def test_openenv_validate_url_passes_against_a_running_server(live_server: LiveServer) -> None:
    result = run_openenv("validate", "--url", live_server.url)
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["passed"] is True
    assert report["summary"]["failed_criteria"] == []
    assert report["mode"] == "simulation"


def test_manifest_declares_the_space_and_every_task_of_the_catalog() -> None:
    manifest = yaml.safe_load((ROOT / "openenv.yaml").read_text())
    assert (manifest["spec_version"], manifest["name"], manifest["type"], manifest["runtime"],
            manifest["app"], manifest["port"]) == (1, "ticketledger", "space", "fastapi",
                                                   "server.app:app", 7860)
    assert manifest["validation"]["reward"]["range"] == [-1.0, 1.0]
    declared = {t["id"]: t for t in manifest["tasks"]}
    catalog = default_catalog()
    assert list(declared) == catalog.task_ids
    for spec in catalog.specs():
        task = declared[spec.task_id]
        assert task["difficulty"] == spec.difficulty.value
        assert task["title"] == spec.title and task["objective"] == spec.objective
        assert task["max_steps"] == spec.max_steps and task["weights"] == spec.weights
        assert task["grader"] == "graders.grader:grade_episode"
    module, name = declared[catalog.task_ids[0]]["grader"].split(":")
    assert callable(getattr(__import__(module, fromlist=[name]), name))


def test_server_app_has_main_and_ends_with_the_bare_main_guard() -> None:
    text = (ROOT / "server" / "app.py").read_text()
    assert "def main(" in text
    assert text.endswith('if __name__ == "__main__":\n    main()\n')
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["server"] == "server.app:main"


def _spec(text: str) -> tuple[str, ...]:
    return tuple(sorted(str(s) for s in SpecifierSet(text)))


def test_uv_lock_matches_pyproject() -> None:
    """``uv lock`` must be re-run when pyproject's dependencies change."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = set()
    for extra, requirements in [(None, project["dependencies"]),
                                *project.get("optional-dependencies", {}).items()]:
        for text in requirements:
            req = Requirement(text)
            wanted.add((req.name.lower(), _spec(str(req.specifier)), tuple(sorted(req.extras)), extra))
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    ours = next(p for p in lock["package"] if p["name"] == project["name"])
    locked = set()
    for entry in ours["metadata"]["requires-dist"]:
        marker = entry.get("marker", "")
        extra = marker.split("'")[1] if marker.startswith("extra ==") else None
        locked.add((entry["name"], _spec(entry.get("specifier", "")),
                    tuple(sorted(entry.get("extras", []))), extra))
    assert locked == wanted, "uv.lock is stale: run `uv lock` (pip install uv)"


@sqlite_pass_only("it checks imports, not a database")
def test_the_server_import_path_imports_neither_openenv_nor_gradio(tmp_path: Path) -> None:
    probe = (
        "import sys, server.app, cli.main\n"
        "from api.app import create_app\n"
        "from service.settings import Settings\n"
        f"create_app(Settings(database_url='sqlite:///{tmp_path / 'probe.db'}'))\n"
        "cli.main.build_parser()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('openenv', 'gradio')))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
