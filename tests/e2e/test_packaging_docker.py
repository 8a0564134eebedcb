"""The Dockerfile, without Docker (no engine runs here): its install and start commands, run in a
fresh virtual environment on a copy of the build context that honours ``.dockerignore``.

The install command runs as written, with the virtual environment's ``pip`` first on ``PATH``: it
installs exactly what ``uv.lock`` pins (hash-checked, nothing resolved) and then the project; every
installed distribution must be at its locked version. The start command then runs from that
installed copy, serves ``/health``, passes the HEALTHCHECK command and writes the log to the volume
path. The only ``ENV`` setting not applied is ``PIP_NO_CACHE_DIR`` (image size), so reruns reuse
pip's download cache.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import httpx
import pytest

from tests.build_context import copy_context
from tests.databases import sqlite_pass_only
from tests.servers import ROOT, free_port, wait_healthy

pytestmark = [pytest.mark.slow,
              sqlite_pass_only("the Dockerfile sets its own DATABASE_URL, an SQLite file")]


def instructions() -> list[tuple[str, str]]:
    """``(KEYWORD, arguments)`` for each Dockerfile instruction, continuations joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, rest = line.partition(" ")
            out.append((keyword.upper(), rest.strip()))
    return out


def env_of(steps: list[tuple[str, str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for keyword, rest in steps:
        if keyword == "ENV":
            for item in shlex.split(rest):
                name, _, value = item.partition("=")
                env[name] = value
    return env


def test_dockerfile_shape() -> None:
    steps = instructions()
    keywords = [k for k, _ in steps]
    assert steps[0] == ("FROM", "python:3.11-slim")
    users = [rest for k, rest in steps if k == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert keywords.index("USER") < keywords.index("CMD")
    env = env_of(steps)
    assert env["PORT"] == "7860" and env["DATABASE_URL"].startswith("sqlite:////data/")
    assert ("VOLUME", '["/data"]') in steps and ("EXPOSE", "7860") in steps
    health = next(rest for k, rest in steps if k == "HEALTHCHECK")
    assert "/health" in health and "PORT" in health


def test_dockerignore_keeps_what_the_image_needs_and_drops_the_rest(tmp_path: Path) -> None:
    copy_context(tmp_path)
    assert (tmp_path / "pyproject.toml").is_file() and (tmp_path / "server" / "app.py").is_file()
    assert list((tmp_path / "domain" / "tasks" / "data").glob("*.json"))
    assert list((tmp_path / "migrations" / "versions").glob("*.py"))
    assert not (tmp_path / ".git").exists() and not (tmp_path / "data").exists()
    assert not list(tmp_path.rglob("__pycache__"))


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def locked_versions() -> dict[str, set[str]]:
    """Each locked distribution's versions: more than one where the lock forks on the Python
    version (numpy for 3.11 and for 3.12 and later)."""
    versions: dict[str, set[str]] = {}
    for package in tomllib.loads((ROOT / "uv.lock").read_text())["package"]:
        versions.setdefault(canonical(package["name"]), set()).add(package["version"])
    return versions


def test_dockerfile_installs_uv_at_its_locked_version() -> None:
    install = next(rest for k, rest in instructions() if k == "RUN" and "uv export" in rest)
    pinned = re.search(r"pip install uv==(\S+)", install)
    assert pinned and {pinned.group(1)} == locked_versions()["uv"]
    assert "--frozen" in install and "--require-hashes" in install and "--no-deps ." in install


@pytest.mark.timeout(1800)  # a fresh virtual environment downloads every locked wheel pip has not cached
def test_dockerfile_install_and_start_commands_serve_health(tmp_path: Path) -> None:
    steps = instructions()
    app_dir, venv, volume = tmp_path / "app", tmp_path / "venv", tmp_path / "data"
    app_dir.mkdir()
    volume.mkdir()
    copy_context(app_dir)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    venv_site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                     "print(sysconfig.get_paths()['purelib'])"],
                                    capture_output=True, text=True, check=True).stdout.strip())

    env = {**os.environ, **env_of(steps), "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    for name in ("PYTHONPATH", "TICKETLEDGER_AUDIT_TOKEN", "PIP_NO_CACHE_DIR", "VIRTUAL_ENV"):
        env.pop(name, None)
    env["DATABASE_URL"] = env["DATABASE_URL"].replace("/data/", f"{volume}/")
    env["PORT"] = str(free_port())
    installs = [rest for k, rest in steps if k == "RUN" and "pip install" in rest]
    assert installs, "the Dockerfile installs the project with pip"
    for command in installs:
        done = subprocess.run(command, shell=True, cwd=app_dir, env=env, capture_output=True,
                              text=True, timeout=1500)
        assert done.returncode == 0, done.stdout + done.stderr
    assert (venv_site / "server" / "app.py").is_file()  # installed, not served from the checkout
    assert not (venv_site / "ticketledger" / "openenv.yaml").is_symlink()
    assert (venv_site / "ticketledger" / "openenv.yaml").read_text() == (
        ROOT / "openenv.yaml").read_text()

    listed = subprocess.run([str(python), "-m", "pip", "list", "--format", "json"], env=env,
                            capture_output=True, text=True, check=True).stdout
    installed = {canonical(d["name"]): d["version"] for d in json.loads(listed)}
    locked = locked_versions()
    assert {installed.pop("openenv-ticketledger")} == locked["openenv-ticketledger"]
    assert "uv" not in installed and "pytest" not in installed  # the dev extra stays out
    assert {"openenv-core", "psycopg", "fastapi", "sqlalchemy"} <= set(installed)
    off_lock = {n: v for n, v in installed.items() if n not in ("pip", "setuptools", "wheel")
                and v not in locked.get(n, set())}
    assert off_lock == {}, "installed at versions uv.lock does not pin"

    start = json.loads(next(rest for k, rest in steps if k == "CMD"))
    log_path = tmp_path / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(start, cwd=app_dir, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{env['PORT']}"
        wait_healthy(url, process, log_path)
        health = json.loads(next(rest for k, rest in steps if k == "HEALTHCHECK").split("CMD", 1)[1])
        assert subprocess.run(health, env=env, timeout=30).returncode == 0
        assert httpx.post(url + "/reset", json={}).status_code == 200
        assert list(volume.glob("*.db")), "the event log lives in the volume path"
        # on 0.0.0.0 without a token the audit surface is off, and the log says so once
        assert httpx.get(url + "/runs").status_code == 403
        assert log_path.read_text().count("audit surface is off") == 1
    finally:
        process.terminate()
        process.wait(timeout=10)
