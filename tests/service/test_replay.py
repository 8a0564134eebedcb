"""Replay, state-at-step and diff: everything is answered from the log alone."""

from __future__ import annotations

from typing import Any

import pytest

from domain.tasks import default_catalog
from domain.tasks.variant import TaskVariant
from graders import UNITS, components, penalties
from service.audit_views import Auditor
from service.gold import gold
from service.replay import diff, replay, state_at
from service.verify import verify_episode
from tests.play import play

CATALOG = default_catalog()
NOOP = {"action_type": "noop"}



def _noisy(task_id: str, seed: int | None = None) -> list[dict[str, Any]]:
    """The expert's actions with a stall, a rejected step and a correction mixed in."""
    sol = gold(CATALOG.instance(task_id, seed))
    return [NOOP, {"action_type": "add_tag", "tag": "VIP"}, {"action_type": "add_tag"},
            {"action_type": "remove_tag", "tag": "VIP"}, *sol]


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_state_at_every_step_equals_the_live_state(service, task_id: str) -> None:  # type: ignore[no-untyped-def]
    results = play(service, task_id, _noisy(task_id, 3), seed=3)
    recorded = service.load_events(results[0].episode_id)
    for step, live in enumerate(results):
        assert state_at(recorded, step) == live.state, f"step {step}"
    with pytest.raises(ValueError, match="between 0 and"):
        state_at(recorded, len(results))


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_replay_of_an_honest_log_is_consistent(service, task_id: str) -> None:  # type: ignore[no-untyped-def]
    results = play(service, task_id, _noisy(task_id))
    last = results[-1]
    report = replay(service.load_events(last.episode_id), service.catalog)
    assert report.consistent and report.chain_ok, report.to_json()["divergences"]
    assert report.first_divergence is None
    assert report.recomputed_score == report.recorded_score == last.state.score
    assert [s["reward"] for s in report.steps] == [r.reward for r in results[1:]]
    assert [s["recorded_reward"] for s in report.steps] == [r.reward for r in results[1:]]
    assert report.head_hash == service.store.head(last.episode_id)[1]
    assert (report.task_id, report.episode_id) == (task_id, last.episode_id)
    assert report.log_state == last.state  # the grader's fold is the log's: verify reads it


def test_a_changed_penalty_is_reported_at_the_first_step_it_affects(service, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance("task_medium_api_rate_limit")
    sol = gold(task)
    actions = sol[:2] + [NOOP] + sol[2:]  # the stall is step 3
    results = play(service, task.task_id, actions)
    recorded = service.load_events(results[0].episode_id)
    monkeypatch.setattr(penalties, "NOOP", penalties.NOOP + 100)
    report = replay(recorded, service.catalog)
    first = report.first_divergence
    assert first is not None and not report.consistent and report.chain_ok
    assert (first.step, first.kind) == (3, "reward")
    assert first.recorded == results[3].grade.reward_units
    assert first.recomputed == results[3].grade.reward_units - 100
    assert report.log_state is None  # the grader's fold is not the log's any more
    row = service.store.episode(results[0].episode_id)
    checked = verify_episode(row, recorded, Auditor(service.db))
    assert checked["problems"] and checked["index"] == []  # the index agrees with the log's fold
    monkeypatch.undo()
    assert replay(recorded, service.catalog).consistent


def test_a_changed_component_weighting_is_reported_at_the_first_step_it_affects(service, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance("task_hard_refund_fraud_trap")
    results = play(service, task.task_id, gold(task))
    recorded = service.load_events(results[0].episode_id)
    queue_step = next(i for i, a in enumerate(gold(task), 1) if a["action_type"] == "assign_queue")
    real = components.SCORERS["queue"]

    def half_queue(state, task, weight):  # type: ignore[no-untyped-def]
        return real(state, task, weight // 2)

    monkeypatch.setitem(components.SCORERS, "queue", half_queue)
    report = replay(recorded, service.catalog)
    first = report.first_divergence
    assert first is not None and first.step == queue_step and first.kind == "reward"
    assert report.recomputed_score < report.recorded_score == 1.0


def test_a_changed_task_variant_is_reported_before_any_step(service, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    results = play(service, "task_easy_password", gold(CATALOG.instance("task_easy_password")))
    recorded = service.load_events(results[0].episode_id)
    changed = TaskVariant.of(CATALOG.instance("task_easy_password").model_copy(update={"max_steps": 9}))
    monkeypatch.setattr(service.catalog, "variant", lambda task_id, seed=None: changed)
    report = replay(recorded, service.catalog)
    first = report.first_divergence
    assert first is not None and (first.kind, first.step, first.seq) == ("catalog", 0, 1)
    assert report.recomputed_score == 1.0  # grading uses the variant recorded in the log


def test_diff_names_the_first_step_where_two_episodes_part(service) -> None:  # type: ignore[no-untyped-def]
    task = CATALOG.instance("task_hard_gdpr_deletion", 11)
    sol = gold(task)
    wrong = [dict(a, priority="low") if a["action_type"] == "classify_priority" else a for a in sol]
    priority_step = next(i for i, a in enumerate(sol, 1) if a["action_type"] == "classify_priority")
    a = play(service, task.task_id, sol, seed=11)
    b = play(service, task.task_id, wrong, seed=11)
    report = diff(service.load_events(a[0].episode_id), service.load_events(b[0].episode_id))
    assert report["same_task"] and not report["identical"]
    first = report["first_divergence"]
    assert first["step"] == priority_step and not first["same_action"]
    assert first["state_differences"]["priority"] == {"a": "high", "b": "low"}
    assert first["reward_a"] > first["reward_b"]
    assert all(row["same_action"] for row in report["steps"][:priority_step - 1])
    assert report["score_a"] == 1.0 and report["score_b"] < 1.0
    assert report["score_b"] == b[-1].state.score


def test_diff_of_two_runs_of_the_same_actions_is_identical(service) -> None:  # type: ignore[no-untyped-def]
    actions = _noisy("task_hard_account_email_change", 4)
    a = play(service, "task_hard_account_email_change", actions, seed=4)
    b = play(service, "task_hard_account_email_change", actions, seed=4)
    report = diff(service.load_events(a[0].episode_id), service.load_events(b[0].episode_id))
    assert report["identical"] and report["first_divergence"] is None
    assert report["steps_a"] == report["steps_b"] == len(a) - 1


def test_diff_of_episodes_of_different_length_names_the_missing_step(service) -> None:  # type: ignore[no-untyped-def]
    sol = gold(CATALOG.instance("task_easy_refund_tag"))
    a = play(service, "task_easy_refund_tag", sol)
    b = play(service, "task_easy_refund_tag", sol[:-1])
    report = diff(service.load_events(a[0].episode_id), service.load_events(b[0].episode_id))
    assert report["first_divergence"]["step"] == len(sol)
    assert report["first_divergence"]["action_b"] is None
    assert report["score_a"] == 1.0 and report["score_b"] == b[-1].state.score < 1.0
    assert sum(round(r["reward_a"] * UNITS) for r in report["steps"]) == UNITS
