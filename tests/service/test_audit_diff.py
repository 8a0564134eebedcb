"""Diff of two episodes of the same task: one by a simple policy of ours, one by the scripted
solution. The first divergence is the first step whose actions differ, and it says what differs."""

from __future__ import annotations

import pytest

from service import EnvironmentService
from service.audit_views import Auditor
from service.gold import gold
from tests.audit_helpers import play_weak
from tests.play import play

pytestmark = pytest.mark.fresh_database  # reads the whole log: a database per test


@pytest.mark.parametrize("task_id", ["task_easy_password", "task_hard_refund_policy_denial"])
def test_diff_names_the_first_divergence(service: EnvironmentService, task_id: str) -> None:
    expert = play(service, task_id)
    weak = play_weak(service, task_id)
    expert_actions = gold(service.state(expert[0].episode_id).task)  # type: ignore[arg-type]
    weak_actions = [r.state.steps[-1].raw.value() for r in weak[1:]]
    pairs = zip(expert_actions, weak_actions, strict=False)
    expected = next(i for i, (x, y) in enumerate(pairs, start=1) if x != y)

    data = Auditor(service.db).diff(expert[0].episode_id, weak[0].episode_id)
    first = data["first_divergence"]
    assert data["same_task"] and first["step"] == expected
    assert not first["same_action"]
    assert first["action_a"] == [expert_actions[expected - 1]]
    assert first["action_b"] == [weak_actions[expected - 1]]
    assert first["reward_a"] == expert[expected].reward
    assert first["reward_b"] == weak[expected].reward
    before = data["steps"][: expected - 1]
    assert all(row["same_action"] and not row["state_differences"] for row in before)
    a_state, b_state = expert[expected].state, weak[expected].state
    changed = {k for k, v in first["state_differences"].items() if v["a"] != v["b"]}
    assert ("queue" in changed) == (a_state.queue != b_state.queue)
    assert ("reply_draft" in changed) == (a_state.reply_draft != b_state.reply_draft)
    assert ("policies_viewed" in changed) == (a_state.policies_viewed != b_state.policies_viewed)
    assert data["score_a"] == expert[-1].state.score and data["score_b"] == weak[-1].state.score


def test_two_runs_of_the_same_actions_are_identical(service: EnvironmentService) -> None:
    a = play(service, "task_medium_api_rate_limit")[0].episode_id
    b = play(service, "task_medium_api_rate_limit")[0].episode_id
    data = Auditor(service.db).diff(a, b)
    assert data["identical"] and data["first_divergence"] is None
