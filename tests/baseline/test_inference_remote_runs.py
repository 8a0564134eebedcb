"""``inference.py`` over ``ENV_BASE_URL`` keeps its run on the server, next to its episodes (issue
16): it creates the run there (``POST /runs``), files every episode with the run's secret, reads
each final score on an agent route (the audit routes are closed to it: the server has a token), and
ends the run with its summary. An older server without ``POST /runs`` gets the run recorded locally,
as before, with one line on stderr. The stdout contract is the same in every case."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from baseline.remote import RemoteEnv, RemoteError
from store import open_database
from store.eventstore import EventStore
from store.runs import RunStore
from tests.audit_helpers import live_server, scratch_database
from tests.baseline.inference_helpers import REPO, run_inference
from tests.servers import free_port, wait_healthy

TOKEN = "remote-runs-audit-token"
TASKS = "task_easy_password,task_medium_double_charge"


@pytest.fixture(scope="module")
def server_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with scratch_database(tmp_path_factory.mktemp("remote-runs")) as url:
        yield url


@pytest.fixture(scope="module")
def server(server_db: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose audit routes need a token the client does not have."""
    log = tmp_path_factory.mktemp("remote-runs-log") / "server.log"
    with live_server(server_db, log, TICKETLEDGER_AUDIT_TOKEN=TOKEN) as base:
        yield base


def _printed(score: float) -> str:
    return f"{min(0.99, max(0.01, score)):.2f}"


def test_the_run_lives_on_the_server_with_its_episodes(server: str, server_db: str,
                                                       tmp_path: Path) -> None:
    local = tmp_path / "local.db"
    run = run_inference({"ENV_BASE_URL": server, "DATABASE_URL": f"sqlite:///{local}",
                         "TASKS": TASKS, "REWARD_MODE": "binary"}, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert not local.exists()  # nothing recorded away from the episodes
    assert "rs_" not in run.stderr + run.stdout  # the run's secret is never printed
    db = open_database(server_db)
    try:
        record = RunStore(db).get(run.run_id)
        assert record.status == "finished" and record.summary is not None
        rows = {e.episode_id: e for e in RunStore(db).episodes(run.run_id)}
        assert set(rows) == set(run.heads()) and len(rows) == 2
        store = EventStore(db)
        for block, summary in zip(run.blocks, record.summary["episodes"], strict=True):
            row = store.episode(summary["episode_id"])
            assert row.run_id == run.run_id and row.status == "ended"
            # binary rewards add up to 0 or 1: the exact score came from GET /state
            assert summary["score"] == row.score and block.score == _printed(row.score)
    finally:
        db.dispose()


def test_final_reads_the_agent_route_and_reports_a_failure(server: str) -> None:
    env = RemoteEnv(server)
    try:
        first = env.reset("task_easy_password", None, None)
        step = env.step(first.episode_id, {"action_type": "classify_priority", "priority": "low"})
        final = env.final(first.episode_id)
        assert final == {"score": final["score"], "head_hash": step.head_hash, "step_count": 1,
                         "done": False}
        with pytest.raises(RemoteError) as failed:
            env.final("ep_nobody_has_this_one")
        assert failed.value.status == 404
    finally:
        env.close()


def test_a_server_without_post_runs_gets_the_run_recorded_locally(tmp_path: Path) -> None:
    old_db, local = f"sqlite:///{tmp_path / 'old.db'}", tmp_path / "local.db"
    port = free_port()
    log_path = tmp_path / "old.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "tests.baseline.old_server", str(port)],
                                   cwd=REPO, env={**_env(), "DATABASE_URL": old_db},
                                   stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log_path)
        run = run_inference({"ENV_BASE_URL": f"http://127.0.0.1:{port}", "TASKS": TASKS,
                             "DATABASE_URL": f"sqlite:///{local}"}, cwd=tmp_path)
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert run.returncode == 0, run.stderr + log_path.read_text()
    assert len(run.blocks) == 2
    notes = [line for line in run.stderr.splitlines() if "POST /runs" in line]
    assert len(notes) == 1 and "recorded in DATABASE_URL" in notes[0]
    db = open_database(f"sqlite:///{local}")
    try:
        assert RunStore(db).get(run.run_id).status == "finished"
    finally:
        db.dispose()
    db = open_database(old_db)
    try:  # the old server filed the episodes under the run id alone, as it always did
        assert {e.run_id for e in RunStore(db).episodes(run.run_id)} == {run.run_id}
    finally:
        db.dispose()


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k != "TICKETLEDGER_AUDIT_TOKEN"}
