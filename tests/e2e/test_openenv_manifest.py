"""OpenEnv packaging: ``openenv validate`` (local and against a running server), the manifest in
step with the task catalog, ``server/app.py``'s required form, ``uv.lock`` in step with pyproject
(``uv lock --check``), the distribution named for OpenEnv's discovery, and a server import path
free of openenv and gradio."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tomllib
from importlib import metadata, resources
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement

from domain.tasks import default_catalog
from tests.databases import sqlite_pass_only
from tests.servers import ROOT, LiveServer

OPENENV = Path(sys.executable).with_name("openenv")


def run_openenv(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(OPENENV), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


@pytest.mark.slow
@sqlite_pass_only("it reads the repository's files, not a database")
def test_openenv_validate_passes_in_the_repository_root() -> None:
    result = run_openenv("validate", "--json")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["passed"] is True and report["issues"] == []


@pytest.mark.slow
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


UV = Path(sys.executable).with_name("uv")


def uv_lock_check(project: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    """``uv lock --check``: does ``uv.lock`` still satisfy pyproject.toml? Offline and with an empty
    cache, as on a fresh machine: a lock that is up to date needs nothing else to say so; a stale
    one makes uv resolve again, which it may not do here."""
    return subprocess.run([str(UV), "lock", "--check", "--offline", "--directory", str(project)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "UV_CACHE_DIR": str(cache)})


@sqlite_pass_only("it reads the repository's files, not a database")
def test_uv_lock_is_up_to_date_with_pyproject(tmp_path: Path) -> None:
    result = uv_lock_check(ROOT, tmp_path)
    assert result.returncode == 0, "uv.lock is stale, run `uv lock`: " + result.stderr


@sqlite_pass_only("it reads copies of the repository's files, not a database")
def test_uv_lock_check_fails_when_pyproject_changes(tmp_path: Path) -> None:
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert pyproject.count('"snowballstemmer>=2.2,<4",') == 1
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "uv.lock").write_text((ROOT / "uv.lock").read_text())
    (tmp_path / "project" / "pyproject.toml").write_text(
        pyproject.replace('"snowballstemmer>=2.2,<4",', '"snowballstemmer>=2.2,<3",'))
    result = uv_lock_check(tmp_path / "project", tmp_path / "cache")
    assert result.returncode != 0
    assert "needs to be updated" in result.stderr or "network was disabled" in result.stderr


def test_the_distribution_is_named_for_openenv_discovery_and_ships_the_manifest() -> None:
    """``AutoEnv.from_env("ticketledger")`` looks for ``openenv-ticketledger`` and reads the
    manifest from the ``ticketledger`` package: the link there is the repository's manifest."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["name"] == "openenv-ticketledger"
    assert project["tool"]["setuptools"]["package-data"]["ticketledger"] == ["openenv.yaml"]
    packaged = ROOT / "ticketledger" / "openenv.yaml"
    assert packaged.is_symlink() and packaged.resolve() == (ROOT / "openenv.yaml").resolve()
    installed = metadata.distribution("openenv-ticketledger")
    assert installed.version == project["project"]["version"]
    manifest = yaml.safe_load(resources.files("ticketledger").joinpath("openenv.yaml").read_text())
    assert manifest["name"] == "ticketledger"


def test_training_doc_installs_the_runtime_dependencies_but_openenv_core_next_to_openenv_010() -> None:
    text = (ROOT / "docs" / "training.md").read_text()
    command = text.split("pip install openenv==0.10.0", 1)[1].split("\n  pip install --no-deps .")[0]
    listed = [Requirement(r) for r in shlex.split(command.replace("\\\n", " "))]
    wanted = [Requirement(r) for r in tomllib.loads((ROOT / "pyproject.toml").read_text())
              ["project"]["dependencies"]]
    assert sorted(map(str, listed)) == sorted(str(r) for r in wanted if r.name != "openenv-core")


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
