"""Command-line manners of ``ticketledger``, run as the real command in a subprocess: a wrong
``DATABASE_URL`` is one line on stderr and exit 2 in every command that opens the log (``serve``
included), and a reader that goes away (``| head``) ends the command quietly."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from cli.main import build_parser
from tests.baseline.inference_helpers import CLEARED, INFERENCE
from tests.databases import PG_URL, pg_admin, pg_unavailable, sqlite_pass_only
from tests.servers import ROOT, free_port

pytestmark = sqlite_pass_only("picks its databases itself (wrong ones, and an SQLite file)")

SCRIPT = Path(sys.executable).with_name("ticketledger")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "cli.main"]

ARGS = {  # every command that opens the log, with the arguments it needs to get that far
    "db": ["upgrade"], "episodes": [], "show": ["ep_x"], "replay": ["ep_x"], "verify": [],
    "heads": [], "diff": ["ep_a", "ep_b"], "regrade": ["--dry-run"], "export": [],
    "fork": ["ep_x", "--at", "1"], "runs": [], "serve": ["--port", "0"],
    "compare": ["run_a", "run_b"], "noise": ["run_a"], "bundle": ["run_a", "-o", "/dev/null"],
}
NO_DATABASE = {"tasks", "grader-audit", "grader-eval",  # they never open the log
               "verify-bundle", "regrade-bundle"}  # a bundle is checked offline

UNKNOWN_SCHEME = "mysqlx://user:hunter2@db.example/x"
UNKNOWN_HOST = "postgresql+psycopg://postgres:hunter2@no-such-host.invalid:5432/x"


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in CLEARED and k != "DATABASE_URL"}
    return {**env, **extra}


def _start(args: Sequence[str], database_url: str) -> subprocess.Popen[str]:
    return subprocess.Popen([*COMMAND, *args], cwd=ROOT, env=_env(DATABASE_URL=database_url),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _one_line_exit_2(proc: subprocess.Popen[str], what: str) -> str:
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, (what, proc.returncode, err)
    assert out == "", (what, out)
    lines = err.splitlines()
    assert len(lines) == 1, (what, err)
    assert lines[0].startswith("error: cannot open the database "), (what, err)
    assert "hunter2" not in err and "Traceback" not in err
    return lines[0]


def test_every_command_that_opens_the_log_says_in_one_line_that_the_url_is_wrong() -> None:
    parser = build_parser()
    commands = set(next(a for a in parser._actions if a.dest == "command").choices)  # type: ignore[union-attr]
    assert commands - NO_DATABASE == set(ARGS), "a new command: add it to ARGS (or NO_DATABASE)"
    started = {name: _start([name, *args], UNKNOWN_SCHEME) for name, args in ARGS.items()}
    for name, proc in started.items():
        line = _one_line_exit_2(proc, name)
        assert line == ("error: cannot open the database mysqlx://user:***@db.example/x "
                        "(DATABASE_URL or --database-url): Can't load plugin: sqlalchemy.dialects:mysqlx; "
                        "write sqlite:///path/to/file.db or "
                        "postgresql+psycopg://USER:PASSWORD@HOST:5432/DBNAME"), (name, line)


@pytest.mark.parametrize("command", [["runs"], ["serve", "--port", "0"], ["db", "upgrade"]])
def test_an_unknown_host_and_a_missing_database_say_what_to_fix(command: list[str]) -> None:
    try:
        with pg_admin():
            pass
    except Exception as exc:
        pg_unavailable(exc)
    missing = make_url(PG_URL).set(database=f"tl_missing_{secrets.token_hex(4)}", password="hunter2")
    host = _one_line_exit_2(_start(command, UNKNOWN_HOST), "unknown host")
    assert "no-such-host.invalid" in host and host.endswith("check the host name in the URL")
    gone = _one_line_exit_2(_start(command, missing.render_as_string(hide_password=False)), "missing")
    assert f'"{missing.database}" does not exist' in gone
    assert gone.endswith("create the database (createdb NAME) or name an existing one in the URL")


def test_a_url_that_is_not_a_url_and_a_closed_port_say_so(tmp_path: Path) -> None:
    port = free_port()
    checks = {
        "data/events.db": "write sqlite:///path/to/file.db or postgresql+psycopg://",
        f"postgresql+psycopg://postgres:hunter2@127.0.0.1:{port}/x":
            "check that the database server is running at the URL's host and port",
    }
    started = {url: _start(["episodes"], url) for url in checks}
    for url, fix in checks.items():
        assert fix in _one_line_exit_2(started[url], url)


def test_the_server_script_says_it_in_one_line_too() -> None:
    """``server`` (the OpenEnv entry point, ``server.app:main``) opens the log as ``serve`` does."""
    script = Path(sys.executable).with_name("server")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "server.app"]
    proc = subprocess.Popen([*command, "--port", "0"], cwd=ROOT, env=_env(DATABASE_URL=UNKNOWN_SCHEME),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert "Can't load plugin: sqlalchemy.dialects:mysqlx" in _one_line_exit_2(proc, "server")


# ---------------------------------------------------------------------------------- | head
def _read_one_line_then_close(proc: subprocess.Popen[str]) -> tuple[str, str]:
    """What ``| head -1`` does: read a line, then go away while the command still writes."""
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    return first, err


@pytest.fixture(scope="module")
def filled_database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A log with enough episodes that what the commands below print overflows a pipe (64 KiB):
    the command is still writing when its reader goes away, so the test cannot pass by a race."""
    url = f"sqlite:///{tmp_path_factory.mktemp('manners') / 'events.db'}"
    done = subprocess.run([sys.executable, str(INFERENCE), "--variants", "4"], cwd=ROOT,
                          env=_env(DATABASE_URL=url), capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return url


@pytest.mark.parametrize("args", [["export"], ["runs", "show", "--json", "LATEST"]])
def test_a_reader_that_goes_away_ends_the_command_quietly(filled_database: str,
                                                          args: list[str]) -> None:
    if "LATEST" in args:
        listed = subprocess.run([*COMMAND, "runs"], cwd=ROOT, env=_env(DATABASE_URL=filled_database),
                                capture_output=True, text=True, timeout=60)
        args = [a if a != "LATEST" else listed.stdout.splitlines()[1].split()[0] for a in args]
    proc = subprocess.Popen([*COMMAND, *args], cwd=ROOT, env=_env(DATABASE_URL=filled_database),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    first, err = _read_one_line_then_close(proc)
    assert first.strip()
    assert err == "", err
    assert proc.returncode == 141  # as a process ended by SIGPIPE: 128 + 13


def test_inference_ends_quietly_when_its_reader_goes_away(tmp_path: Path) -> None:
    """``python inference.py | head``: no traceback, exit 141, the run recorded as interrupted
    with the episodes that finished (far fewer than planned)."""
    from store import open_database
    from store.runs import RunStore

    url = f"sqlite:///{tmp_path / 'events.db'}"
    for concurrency in ("1", "3"):
        proc = subprocess.Popen([sys.executable, str(INFERENCE), "--variants", "20",
                                 "--concurrency", concurrency], cwd=tmp_path,
                                env=_env(DATABASE_URL=url), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, bufsize=1)
        first, err = _read_one_line_then_close(proc)
        assert first.startswith("[START] task=task_easy_password ")
        assert proc.returncode == 141, err
        assert "Traceback" not in err and "BrokenPipeError" not in err and "Exception ignored" not in err
        assert "stdout was closed by its reader; stopped, recording what finished" in err
    db = open_database(url)
    try:
        runs = RunStore(db).list()
    finally:
        db.dispose()
    assert [r.status for r in runs] == ["interrupted", "interrupted"]
    for run in runs:
        assert run.summary is not None and 0 < len(run.summary["episodes"]) < 240
