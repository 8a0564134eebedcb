"""The suite's second run really runs on PostgreSQL, and one PostgreSQL serves several processes.

CI runs every test twice: on SQLite files, then with ``TICKETLEDGER_TEST_BACKEND=postgres``. These
tests fail if the second run silently fell back to SQLite, and check the property several server
workers rely on: a service in one process sees (and can continue) what another process wrote,
because every step re-reads the episode's stored head instead of trusting its own cache.
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

import pytest
from sqlalchemy import text

from domain.tasks import default_catalog
from service import EnvironmentService
from service.errors import EpisodeBusy
from service.gold import gold
from service.replay import replay
from service.settings import read
from store import open_database

CATALOG = default_catalog()
BACKEND = os.environ.get("TICKETLEDGER_TEST_BACKEND", "sqlite")
EXPECTED_DIALECT = {"sqlite": "sqlite", "postgres": "postgresql"}[BACKEND]


def test_database_fixture_uses_the_requested_backend(database) -> None:  # type: ignore[no-untyped-def]
    assert database.dialect == EXPECTED_DIALECT
    with database.read() as conn:
        if BACKEND == "postgres":
            name = conn.execute(text("SELECT current_database()")).scalar_one()
            assert name.startswith("tl_test_"), "each test gets its own PostgreSQL database"
            assert conn.execute(text("SELECT count(*) FROM events")).scalar_one() == 0
        else:
            assert database.engine.url.database.endswith("events.db")


def test_default_database_url_follows_the_backend() -> None:
    """Code that opens the configured database (servers, scripts) lands on the run's backend too."""
    url = read().database_url
    assert url == os.environ["DATABASE_URL"]
    assert url.startswith(EXPECTED_DIALECT)
    assert "data/ticketledger.db" not in url


@pytest.mark.postgres
def test_postgres_url_with_psycopg_driver_runs_an_episode(pg_url: str) -> None:
    assert pg_url.startswith("postgresql+psycopg://")
    db = open_database(pg_url)
    try:
        svc = EnvironmentService(db, CATALOG)
        result = svc.reset("task_medium_double_charge", seed=5)
        for action in gold(svc.state(result.episode_id).task):
            result = svc.step(result.episode_id, action)
        assert result.done and result.state.score == 1.0
        assert replay(svc.store.load(result.episode_id), CATALOG).consistent
        with db.read() as conn:
            version = conn.execute(text("SHOW server_version")).scalar_one()
        assert version
    finally:
        db.dispose()


def test_two_engines_share_one_episode(database_url: str) -> None:
    """Two services on separate engines (as two workers): open on one, step on either, no stale cache."""
    first = EnvironmentService(open_database(database_url), CATALOG)
    second = EnvironmentService(open_database(database_url), CATALOG)
    try:
        eid = first.reset("task_easy_password").episode_id
        actions = gold(first.state(eid).task)
        services = [second, first]
        result = None
        for index, action in enumerate(actions):
            result = services[index % 2].step(eid, action)
            assert result.state.step_count == index + 1
        assert result is not None and result.done
        assert first.state(eid).score == second.state(eid).score == 1.0
        assert replay(first.store.load(eid), CATALOG).consistent
    finally:
        first.db.dispose()
        second.db.dispose()


def _step_race(url: str, episode_id: str, action: dict[str, Any], start: Any, out: Any) -> None:
    svc = EnvironmentService(open_database(url), CATALOG)
    svc.state(episode_id)  # warm the cache like a worker that served this episode before
    start.wait(timeout=60)  # a barrier: every process is ready, then all step at once
    try:
        out.put(("ok", svc.step(episode_id, action).state.step_count))
    except EpisodeBusy as exc:
        out.put(("busy", str(exc)))
    except Exception as exc:
        out.put(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        svc.db.dispose()


@pytest.mark.slow
def test_processes_racing_on_one_episode_get_one_winner_per_step(database_url: str) -> None:
    """Separate processes step one episode at once: every recorded step has one writer, no gaps."""
    svc = EnvironmentService(open_database(database_url), CATALOG)
    eid = svc.reset("task_hard_gdpr_deletion", seed=1).episode_id  # 10 steps allowed
    ctx = multiprocessing.get_context("spawn")
    outcomes: list[tuple[str, Any]] = []
    racers = 3
    for _ in range(2):
        start, out = ctx.Barrier(racers), ctx.Queue()
        action = {"action_type": "noop"}
        procs = [ctx.Process(target=_step_race, args=(database_url, eid, action, start, out))
                 for _ in range(racers)]
        for p in procs:
            p.start()
        outcomes += [out.get(timeout=60) for _ in procs]
        for p in procs:
            p.join(timeout=30)
    assert not [o for o in outcomes if o[0] == "error"], outcomes
    wins = sorted(o[1] for o in outcomes if o[0] == "ok")
    assert wins, outcomes
    assert wins == list(range(1, len(wins) + 1)), "each step count is won by exactly one process"
    recorded = svc.store.load(eid)
    assert [r.seq for r in recorded] == list(range(1, len(recorded) + 1))
    received = [r.data["step"] for r in recorded if r.type == "ActionReceived"]
    assert received == wins
    assert replay(recorded, CATALOG).consistent
    svc.db.dispose()
