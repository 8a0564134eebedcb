"""``scripts/validate-submission.sh``: the hackathon's three checks, run against a local server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.servers import ROOT, LiveServer, free_port

SCRIPT = ROOT / "scripts" / "validate-submission.sh"


def run_script(*args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    path = path or f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    env = {**os.environ, "PATH": path,
           # Should a Docker engine run here, point the client at nothing: the build is reported
           # SKIPPED instead of building the image inside the test suite.
           "DOCKER_HOST": f"tcp://127.0.0.1:{free_port()}"}
    return subprocess.run(["bash", str(SCRIPT), *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.slow
def test_passes_against_a_running_server_with_docker_reported_skipped(live_server: LiveServer) -> None:
    result = run_script(live_server.url)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert f"PASS     POST {live_server.url}/reset {{}} -> 200" in lines
    assert any(line.startswith("SKIPPED  docker build") for line in lines)
    assert f"PASS     openenv validate in {ROOT}" in lines
    assert lines[-1] == "passed=2 skipped=1 failed=0"


def test_fails_when_the_space_is_down_and_openenv_is_missing(tmp_path: Path) -> None:
    """Only the system's tools on PATH: no openenv command (nor an importable openenv)."""
    dead = f"http://127.0.0.1:{free_port()}"
    result = run_script(dead, str(tmp_path), path="/usr/bin:/bin")
    assert result.returncode == 1
    assert f"FAIL     POST {dead}/reset {{}} -> 000 (expected 200)" in result.stdout
    assert "FAIL     openenv validate: openenv is not installed" in result.stdout
    assert result.stdout.splitlines()[-1] == "passed=0 skipped=1 failed=2"


def test_usage_without_arguments() -> None:
    result = run_script()
    assert result.returncode == 2 and "usage:" in result.stderr
