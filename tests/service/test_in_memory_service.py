"""The environment service on the in-memory log (``EnvironmentService.in_memory``), what offline
play runs on: the same answers and the same log as on SQL, and the same errors.
"""

from __future__ import annotations

import pytest

from domain.actions import InvalidAction
from service import EnvironmentService, EpisodeBusy, EpisodeEnded, EpisodeNotFound, StepResult
from service.environment import ResetRequest
from service.gold import gold
from service.replay import replay
from store import open_database
from store.memory import MemoryEventStore
from tests.databases import sqlite_pass_only
from tests.play import log_facts, play

pytestmark = sqlite_pass_only("in memory, or on an SQLite file it opens itself")

TASK = "task_hard_refund_policy_denial"


def test_the_same_plays_give_the_same_log_in_memory_and_on_sqlite(sqlite_url: str) -> None:
    """One episode stepped alone and a batch stepped together: event for event, hash for hash
    (timestamps and positions aside) what the SQL store records."""
    memory = EnvironmentService.in_memory()
    db = open_database(sqlite_url)
    try:
        stored = EnvironmentService(db, memory.catalog)
        actions = gold(memory.catalog.instance(TASK, 3))
        kept = play(memory, TASK, actions, seed=3, episode_id="ep_same")
        written = play(stored, TASK, actions, seed=3, episode_id="ep_same")
        assert [(r.seq, r.head_hash, r.reward, r.done) for r in kept] == \
            [(r.seq, r.head_hash, r.reward, r.done) for r in written]
        assert log_facts(memory.load_events("ep_same")) == log_facts(stored.load_events("ep_same"))
        assert replay(memory.load_events("ep_same"), memory.catalog).consistent

        step = {"action_type": "classify_priority", "priority": "low"}
        for service in (memory, stored):
            opened = service.reset_many([ResetRequest("task_easy_password", 0, "ep_b1"),
                                         ResetRequest("task_easy_password", 1, "ep_b2"),
                                         ResetRequest("task_easy_password", 2, "ep_same")])
            assert [type(o) for o in opened[:2]] == [StepResult] * 2
            assert isinstance(opened[2], EpisodeBusy)
            results = service.step_many([("ep_b1", step), ("ep_b2", {"action_type": "fly"})])
            assert isinstance(results[0], StepResult) and isinstance(results[1], InvalidAction)
        for eid in ("ep_b1", "ep_b2"):
            assert log_facts(memory.load_events(eid)) == log_facts(stored.load_events(eid))
        assert memory.store.count_events() == stored.store.count_events()
    finally:
        db.dispose()


def test_an_in_memory_service_refuses_as_the_service_on_sql_does() -> None:
    service = EnvironmentService.in_memory()
    first = service.reset(TASK, 0, episode_id="ep_taken")
    with pytest.raises(EpisodeBusy, match="already in use"):
        service.reset(TASK, 0, episode_id="ep_taken")
    with pytest.raises(EpisodeNotFound):
        service.step("ep_nobody", {"action_type": "noop"})
    with pytest.raises(EpisodeNotFound):
        service.load_events("ep_nobody")
    with pytest.raises(InvalidAction):
        service.step(first.episode_id, {"action_type": "fly"})
    result = first
    for action in gold(service.catalog.instance(TASK, 0)):
        result = service.step(first.episode_id, action)
    assert result.done
    with pytest.raises(EpisodeEnded):
        service.step(first.episode_id, {"action_type": "noop"})
    assert service.head(first.episode_id) == (result.seq, result.head_hash)


def test_a_stale_cache_is_caught_by_the_in_memory_append_too() -> None:
    """Two services on one in-memory log (as two processes on one database): a step decided on a
    state the other moved past is decided again from the log, not written twice."""
    log = MemoryEventStore()
    one, two = EnvironmentService(store=log), EnvironmentService(store=log)
    opened = one.reset(TASK, 0)
    two.step(opened.episode_id, {"action_type": "classify_priority", "priority": "high"})
    after = one.step(opened.episode_id, {"action_type": "noop"})  # its cache is one step behind
    assert after.state.step_count == 2
    assert [r.seq for r in log.load(opened.episode_id)] == list(range(1, after.seq + 1))
    assert replay(log.load(opened.episode_id), one.catalog).consistent


def test_a_service_has_one_log_and_one_without_a_database_says_so() -> None:
    db = open_database("sqlite://")
    try:
        with pytest.raises(ValueError, match="not both"):
            EnvironmentService(db, store=MemoryEventStore())
    finally:
        db.dispose()
    with pytest.raises(TypeError, match="without a database"):
        EnvironmentService.in_memory().db  # noqa: B018 - the property raises
