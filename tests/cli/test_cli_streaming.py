"""Whole-log audits on the command line hold no list of every episode: ``verify`` and ``regrade``
write the episodes their report names to a temporary file as the service finds them, and
``--json`` streams them back, byte for byte the JSON the service (and so the REST route) answers.
Both draw a progress bar on a terminal's stderr."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys
from typing import Any

import pytest
from sqlalchemy import text

from cli.main import main
from cli.spool import Spool, dump
from graders import components, grader, versions
from graders.components import Component
from service import EnvironmentService
from service.audit_views import Auditor
from service.regrade import regrade
from service.verify import verify
from store.queries import EpisodeFilter
from tests.audit_helpers import play, play_weak
from tests.servers import ROOT

pytestmark = pytest.mark.fresh_database  # reads the whole log: a database per test


def _json(report: dict[str, Any]) -> str:
    """What the command line printed before it streamed: the whole report, dumped at once."""
    return json.dumps(report, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("report", [
    {},
    {"a": 1, "items": [], "z": None},
    {"items": [{"é": "naïve ✓", "nested": {"x": [1, 2.5, {"y": []}]}, "empty": {}}, {"b": True}],
     "after": {"k": [None, "v"]}},
])
def test_a_spooled_report_prints_exactly_as_the_whole_report(report: dict[str, Any]) -> None:
    out = io.StringIO()
    with Spool() as spool:
        for item in report.get("items", []):
            spool.append(item)
        dump({k: spool if k == "items" else v for k, v in report.items()}, out)
        assert len(spool) == len(report.get("items", []))
        assert list(spool) == report.get("items", [])  # read back twice, in order
    assert out.getvalue() == _json(report)


@pytest.fixture
def cli(database_url: str, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    def run(*args: str) -> tuple[int, str]:
        code = main(["--database-url", database_url, *args])
        return code, capsys.readouterr().out

    return run


def test_regrade_json_streams_every_changed_episode_as_the_service_reports_them(
        cli: Any, service: EnvironmentService, monkeypatch: pytest.MonkeyPatch) -> None:
    """A grader that no longer counts the queue moves every episode that earned it: the command
    line's answer lists them all, the same bytes as the service's report built in memory."""
    played = [play(service, "task_easy_password", seed=s, run_id="r1")[0].episode_id for s in range(3)]
    played.append(play_weak(service, "task_easy_password", run_id="r1")[0].episode_id)

    def stingy_queue(state: Any, task: Any, weight: int) -> Component:
        return Component("queue", 0, weight, "queue: not counted", "queue: never counted")

    monkeypatch.setitem(components.SCORERS, "queue", stingy_queue)
    monkeypatch.setitem(versions.GRADERS, "test-grader/3.0",
                        versions.Grader("test-grader/3.0", grader.grade_step, grader.grade_episode))
    expected = regrade(Auditor(service.db), EpisodeFilter(run_id="r1"), dry_run=True,
                       grader_version="test-grader/3.0")
    assert expected["changed"] >= 3 and len(expected["changes"]) == expected["changed"]
    code, out = cli("regrade", "--run", "r1", "--dry-run", "--grader", "test-grader/3.0", "--json")
    assert code == 0 and out == _json(expected)
    code, out = cli("regrade", "--run", "r1", "--dry-run", "--grader", "test-grader/3.0")
    assert code == 0 and f"{expected['changed']} changed" in out
    assert all(f"  {c['episode_id']} task_easy_password: " in out for c in expected["changes"])
    code, out = cli("regrade", "--run", "r1", "--grader", "test-grader/3.0", "--json")
    appended = json.loads(out)
    assert appended["records_appended"] == len(played) and appended["changes"] == expected["changes"]


def test_verify_json_streams_every_failure_as_the_service_reports_them(
        cli: Any, service: EnvironmentService) -> None:
    ids = [play(service, "task_easy_password", seed=s)[0].episode_id for s in range(4)]
    with service.db.write() as conn:  # two index rows edited: two failures, in the log's order
        conn.execute(text("UPDATE episodes SET score = 0.25 WHERE episode_id IN (:a, :b)"),
                     {"a": ids[0], "b": ids[2]})
    expected = verify(Auditor(service.db), EpisodeFilter())
    assert expected["inconsistent"] == 2
    code, out = cli("verify", "--jobs", "1", "--json")
    assert code == 1 and out == _json({**expected, "heads": None})
    code, out = cli("verify", "--jobs", "1")
    assert code == 1 and out.count("FAIL ") == 2 and "index score: 0.25" in out
    assert "verified 4 episodes: 2 consistent, 2 inconsistent" in out


def _stderr_on_a_terminal(database_url: str, *args: str) -> str:
    """Run ``ticketledger ARGS`` with stderr on a pseudo-terminal; what it drew there."""
    leader, follower = pty.openpty()
    try:
        child = subprocess.Popen([sys.executable, "-m", "cli.main", "--database-url", database_url,
                                  *args], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=follower)
        os.close(follower)
        drawn = b""
        while True:
            ready, _, _ = select.select([leader], [], [], 120)
            if not ready:
                child.kill()
                raise AssertionError(f"no output for 120 s; so far: {drawn!r}")
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            drawn += chunk
        assert child.wait(timeout=60) == 0, drawn
        return drawn.decode()
    finally:
        os.close(leader)


@pytest.mark.parametrize("command", [["verify", "--jobs", "1"], ["regrade", "--dry-run"], ["regrade"]])
def test_verify_and_regrade_draw_a_progress_bar_on_a_terminal(
        database_url: str, service: EnvironmentService, command: list[str]) -> None:
    for seed in range(3):
        play(service, "task_easy_password", seed=seed)
    drawn = _stderr_on_a_terminal(database_url, *command)
    label = command[0]
    assert f"\r{label} [" in drawn and drawn.rstrip().endswith("] 3/3"), drawn
