"""The load test's quick variant (``bench/load.py``) in the suite, and its audit proven not blind.

64 concurrent sessions over ``/ws`` and 64 over stateful HTTP against a real server: one worker on
SQLite, three workers on PostgreSQL (the run's backend decides). No timing assertions here; the
figures belong to ``python -m bench.load``. The audit must then find zero lost, duplicated or
cross-wired steps, and it must find them when they are there.
"""

from __future__ import annotations

import os

import pytest

from bench.load import EpisodeLog, audit, marker, run_config
from service import EnvironmentService
from service.gold import gold
from store import open_database

BACKEND = os.environ.get("TICKETLEDGER_TEST_BACKEND", "sqlite")


@pytest.mark.slow
def test_quick_load_of_64_sessions_per_transport_keeps_every_step_in_its_place(database_url: str) -> None:
    workers = 3 if BACKEND == "postgres" else 1
    config = run_config(f"{BACKEND}-{workers}", database_url, workers, sessions=64, episodes=1,
                        budget_s=120)
    assert config.integrity.ok, config.integrity.problems
    for result in config.results:
        assert len(result.sessions) == 64 and not result.errors, result.errors
        assert len(result.episodes) == 64 and result.steps > 64 * 3
    assert config.integrity.acked_steps == config.integrity.recorded_steps


def _played(database_url: str) -> list[EpisodeLog]:
    """Two short episodes played in process, recorded as a load client would have seen them."""
    db = open_database(database_url)
    svc = EnvironmentService(db)
    logs = []
    for session, task_id in enumerate(("task_easy_password", "task_medium_double_charge")):
        eid = svc.reset(task_id).episode_id
        actions = [marker("t", session, 0), *gold(svc.state(eid).task)[:2]]
        for action in actions:
            svc.step(eid, action)
        logs.append(EpisodeLog(eid, session, list(actions)))
    db.dispose()
    return logs


def test_audit_passes_a_faithful_log_and_flags_every_kind_of_damage(database_url: str) -> None:
    logs = _played(database_url)
    assert audit(database_url, logs).ok

    lost = [EpisodeLog(logs[0].episode_id, 0, logs[0].acked + [{"action_type": "noop"}]), logs[1]]
    assert any("differ" in p for p in audit(database_url, lost).problems)

    crossed = [EpisodeLog(logs[0].episode_id, 0, logs[1].acked), EpisodeLog(logs[1].episode_id, 1,
                                                                            logs[0].acked)]
    assert len(audit(database_url, crossed).problems) >= 2

    phantom = [EpisodeLog(logs[0].episode_id, 0, logs[0].acked[:-1]), logs[1]]
    assert any("no client sent" in p for p in audit(database_url, phantom).problems)
    in_flight = [EpisodeLog(logs[0].episode_id, 0, logs[0].acked[:-1], pending=logs[0].acked[-1]),
                 logs[1]]
    assert audit(database_url, in_flight, crashed=True).ok  # recorded whole: allowed after a crash

    elsewhere = [logs[0]]
    assert any("landed elsewhere" in p for p in audit(database_url, elsewhere).problems)
    assert audit(database_url, elsewhere, whole_log=False).ok

    missing = [EpisodeLog("ep_never_recorded", 0, [{"action_type": "noop"}])]
    assert any("absent" in p for p in audit(database_url, missing, whole_log=False).problems)
