"""The Dockerfile, without Docker (no engine runs here): its install and start commands, run in a
fresh virtual environment on a copy of the build context that honours ``.dockerignore``.

The virtual environment sees this interpreter's packages (a ``.pth`` line), so ``pip install``
only builds and installs TicketLedger itself; the start command then runs from that installed
copy, serves ``/health``, passes the HEALTHCHECK command and writes the log to the volume path.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import site
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

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


def ignored(relative: str, patterns: list[str]) -> bool:
    """Docker's rule: the last matching pattern wins; a match on a directory covers its contents."""
    parts = relative.split("/")
    result = False
    for raw in patterns:
        negate = raw.startswith("!")
        pattern = raw[1:] if negate else raw
        regex = re.escape(pattern.strip("/")).replace(r"\*\*/", "(.*/)?").replace(r"\*\*", ".*")
        regex = regex.replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
        if any(re.fullmatch(regex, "/".join(parts[:n])) for n in range(1, len(parts) + 1)):
            result = not negate
    return result


def copy_context(target: Path) -> None:
    patterns = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")]
    for folder, dirs, files in os.walk(ROOT):
        base = Path(folder).relative_to(ROOT).as_posix()
        prefix = "" if base == "." else base + "/"
        dirs[:] = [d for d in dirs if not ignored(prefix + d, patterns)]  # never walk .venv-ci etc.
        for name in files:
            if not ignored(prefix + name, patterns):
                (target / prefix).mkdir(parents=True, exist_ok=True)
                shutil.copy2(Path(folder) / name, target / prefix / name)


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


def test_dockerfile_install_and_start_commands_serve_health(tmp_path: Path) -> None:
    steps = instructions()
    app_dir, venv, volume = tmp_path / "app", tmp_path / "venv", tmp_path / "data"
    app_dir.mkdir()
    volume.mkdir()
    copy_context(app_dir)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages",
                    str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    venv_site = Path(subprocess.run([str(python), "-c", "import sysconfig; "
                                     "print(sysconfig.get_paths()['purelib'])"],
                                    capture_output=True, text=True, check=True).stdout.strip())
    (venv_site / "_outer_site.pth").write_text("\n".join(site.getsitepackages()) + "\n")

    env = {**os.environ, **env_of(steps), "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}"}
    env.pop("PYTHONPATH", None)
    env.pop("TICKETLEDGER_AUDIT_TOKEN", None)
    env["DATABASE_URL"] = env["DATABASE_URL"].replace("/data/", f"{volume}/")
    env["PORT"] = str(free_port())
    installs = [rest for k, rest in steps if k == "RUN" and "pip install" in rest]
    assert installs, "the Dockerfile installs the project with pip"
    for command in installs:
        command = command.replace("pip install", f"{shlex.quote(str(python))} -m pip install", 1)
        done = subprocess.run(command, shell=True, cwd=app_dir, env=env, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr
    assert (venv_site / "server" / "app.py").is_file()  # installed, not served from the checkout

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
