"""``ENV_BASE_URL`` mode: the same loop over stateful HTTP against a real server (``live_server``)
gives exactly what the in-process run gives: same actions, same rewards, same exact scores."""

from __future__ import annotations

import contextlib
import io

import pytest

from cli.main import main
from domain.tasks import default_catalog
from service.replay import replay
from store import open_database
from store.eventstore import EventStore
from store.runs import RunStore
from tests.baseline.inference_helpers import Run, run_inference
from tests.servers import LiveServer, episode_events

CATALOG = default_catalog()


@pytest.fixture(scope="module")
def local_run(default_database_env: str, tmp_path_factory: pytest.TempPathFactory) -> Run:
    return run_inference({"DATABASE_URL": default_database_env, "VARIANTS": "2"},
                         cwd=tmp_path_factory.mktemp("local"))


@pytest.fixture(scope="module")
def remote_run(live_server: LiveServer, tmp_path_factory: pytest.TempPathFactory) -> Run:
    """Against the server, several episodes at once, the run stored in the server's database."""
    return run_inference({"DATABASE_URL": live_server.database_url, "VARIANTS": "2", "CONCURRENCY": "3",
                          "ENV_BASE_URL": live_server.url}, cwd=tmp_path_factory.mktemp("remote"))


def _by_variant(run: Run) -> dict[tuple[str, int], list[tuple[str, float]]]:
    """(task, trial) -> the block's actions and rewards; trials of a task come in seed order."""
    seen: dict[str, int] = {}
    out = {}
    for block in run.blocks:
        trial = seen.get(block.task, 0)
        seen[block.task] = trial + 1
        out[(block.task, trial)] = [(str(s.action), s.reward) for s in block.steps]
    return out


def _scores(database_url: str, run: Run) -> dict[tuple[str, int | None], float]:
    db = open_database(database_url)
    try:
        summary = RunStore(db).get(run.run_id).summary
    finally:
        db.dispose()
    return {(e["task_id"], e["seed"]): e["score"] for e in summary["episodes"]}


def test_remote_mode_plays_exactly_like_in_process(local_run: Run, remote_run: Run, live_server: LiveServer,
                                                   default_database_env: str) -> None:
    assert remote_run.returncode == 0, remote_run.stderr + live_server.log()
    assert local_run.returncode == 0, local_run.stderr
    assert sorted(b.task for b in remote_run.blocks) == sorted(CATALOG.task_ids * 2)
    # with CONCURRENCY the blocks' order may differ; each variant's actions and rewards may not
    remote, local = _by_variant(remote_run), _by_variant(local_run)
    for task_id in CATALOG.task_ids:
        for trial in (0, 1):
            assert len(remote[(task_id, trial)]) == len(local[(task_id, trial)])
    assert sorted(remote.values()) == sorted(local.values())
    assert _scores(live_server.database_url, remote_run) == _scores(default_database_env, local_run)


def test_remote_episodes_are_in_the_servers_log_and_replay(remote_run: Run, live_server: LiveServer) -> None:
    heads = remote_run.heads()
    assert len(heads) == 2 * len(CATALOG.task_ids)
    db = open_database(live_server.database_url)
    try:
        store = EventStore(db)
        for episode_id, head in heads.items():
            row = store.episode(episode_id)
            assert row.head_hash == head and row.status == "ended"
            assert row.run_id == remote_run.run_id  # the server filed it under the run
            report = replay(episode_events(live_server.database_url, episode_id), CATALOG)
            assert report.consistent and report.head_hash == head
    finally:
        db.dispose()


def test_runs_show_lists_a_remote_runs_episodes(remote_run: Run, live_server: LiveServer) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["--database-url", live_server.database_url, "runs", "show", remote_run.run_id]) == 0
    for episode_id in remote_run.heads():
        assert episode_id in out.getvalue()
