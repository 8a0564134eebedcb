"""Replay catches a tampered event (one changed byte, immutability trigger dropped as an attacker
would) and a grader change, and names the step; a clean episode replays consistently."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from graders import components
from graders.components import Component
from service import EnvironmentService
from service.audit_views import Auditor
from service.replay import replay
from tests.play import play

pytestmark = pytest.mark.fresh_database  # reads the whole log: a database per test


def _drop_immutability(db) -> None:  # type: ignore[no-untyped-def]
    with db.write() as conn:
        if db.dialect == "sqlite":
            conn.execute(text("DROP TRIGGER events_no_update"))
        else:
            conn.execute(text("DROP TRIGGER events_no_update_delete ON events"))


def _flip_one_byte(db, episode_id: str, seq: int, old: str, new: str) -> None:  # type: ignore[no-untyped-def]
    assert len(old) == len(new) and sum(a != b for a, b in zip(old, new, strict=True)) == 1
    with db.write() as conn:
        data = conn.execute(text("SELECT data FROM events WHERE episode_id = :e AND seq = :s"),
                            {"e": episode_id, "s": seq}).scalar_one()
        assert old in data
        conn.execute(text("UPDATE events SET data = :d WHERE episode_id = :e AND seq = :s"),
                     {"d": data.replace(old, new, 1), "e": episode_id, "s": seq})


def test_clean_episode_replays_consistently(service: EnvironmentService) -> None:
    results = play(service, "task_medium_double_charge")
    report = Auditor(service.db).replay(results[0].episode_id)
    assert report["consistent"] and report["chain_ok"] and report["first_divergence"] is None
    assert [s["reward"] for s in report["steps"]] == [r.reward for r in results[1:]]
    assert [s["recorded_reward"] for s in report["steps"]] == [r.reward for r in results[1:]]


def test_the_log_refuses_updates_until_the_trigger_is_dropped(service: EnvironmentService) -> None:
    episode_id = play(service, "task_easy_password")[0].episode_id
    with pytest.raises(Exception, match="immutable"):
        _flip_one_byte(service.db, episode_id, 1, '"task_easy_password"', '"task_easy_passwore"')


def test_replay_names_the_step_of_a_tampered_event(service: EnvironmentService) -> None:
    results = play(service, "task_easy_password")
    episode_id = results[0].episode_id
    recorded = service.store.load(episode_id)
    target = next(r for r in recorded if r.type == "QueueAssigned")
    step = next(r.data["step"] for r in reversed(recorded)
                if r.type == "ActionReceived" and r.seq < target.seq)
    queue = target.data["queue"]
    _drop_immutability(service.db)
    _flip_one_byte(service.db, episode_id, target.seq, f'"{queue}"', f'"{queue[:-1]}X"')

    report = replay(service.store.load(episode_id), service.catalog)
    assert not report.consistent and not report.chain_ok
    first = report.first_divergence
    assert first is not None
    assert (first.kind, first.seq, first.step) == ("chain", target.seq, step)
    assert "altered" in first.message


def test_replay_names_the_first_step_a_changed_grader_scores_differently(
        service: EnvironmentService, monkeypatch: pytest.MonkeyPatch) -> None:
    results = play(service, "task_easy_password")
    episode_id = results[0].episode_id
    assert Auditor(service.db).replay(episode_id)["consistent"]
    recorded_steps = [r.grade for r in results[1:]]
    expected_step = next(g.step for g in recorded_steps
                         if any(c.name == "queue" and c.earned for c in g.components))

    def stingy_queue(state, task, weight):  # type: ignore[no-untyped-def]
        return Component("queue", 0, weight, "queue: not counted", "queue: never counted")

    monkeypatch.setitem(components.SCORERS, "queue", stingy_queue)
    report = Auditor(service.db).replay(episode_id)
    assert not report["consistent"] and report["chain_ok"]
    first = report["first_divergence"]
    assert first["step"] == expected_step and first["kind"] == "reward"
    assert f"step {expected_step}" in first["message"]
    assert report["recomputed_score"] < report["recorded_score"]


def test_replay_without_step_rows_finds_the_same_divergences(
        service: EnvironmentService, monkeypatch: pytest.MonkeyPatch) -> None:
    """``steps=False`` (what ``verify`` uses) drops the per-step rows, never a divergence."""
    episode_id = play(service, "task_easy_password")[0].episode_id
    clean = replay(service.store.load(episode_id), service.catalog, steps=False)
    assert clean.consistent and clean.steps == []
    assert replay(service.store.load(episode_id), service.catalog).steps

    def stingy_queue(state, task, weight):  # type: ignore[no-untyped-def]
        return Component("queue", 0, weight, "queue: not counted", "queue: never counted")

    monkeypatch.setitem(components.SCORERS, "queue", stingy_queue)
    full = replay(service.store.load(episode_id), service.catalog)
    lean = replay(service.store.load(episode_id), service.catalog, steps=False)
    assert not lean.consistent and lean.steps == []
    assert [d.to_json() for d in lean.divergences] == [d.to_json() for d in full.divergences]
    assert (lean.recomputed_score, lean.recorded_score) == (full.recomputed_score, full.recorded_score)


def test_an_unreadable_first_event_is_reported_not_raised(service: EnvironmentService) -> None:
    """The opening event (the task) parsed once in replay: when it is no longer JSON, the chain
    and the log divergences name it, and the replay still returns."""
    episode_id = play(service, "task_easy_password")[0].episode_id
    _drop_immutability(service.db)
    _flip_one_byte(service.db, episode_id, 1, '{"episode_id"', 'x"episode_id"')

    report = replay(service.store.load(episode_id), service.catalog)
    assert not report.consistent and not report.chain_ok
    assert [(d.kind, d.seq) for d in report.divergences][:1] == [("chain", 1)]
    assert any(d.kind == "upcast" and "cannot read the log" in d.message for d in report.divergences)
    assert report.task_id == ""  # nothing is taken from a payload that does not parse
