"""``evolve`` builds each state with pydantic's unvalidated ``model_copy``: every state it makes,
over every task's episodes (detours, refusals and the expert's actions), equals the same state
validated field by field in strict mode."""

from __future__ import annotations

from typing import Any

import pytest

from domain.actions import InvalidAction, parse_action
from domain.decide import decide, start
from domain.state import EMPTY, EpisodeState, evolve
from domain.tasks import default_catalog
from graders.grader import GRADER_VERSION, grade_step
from service.gold import gold

CATALOG = default_catalog()
DETOURS: list[Any] = [
    {"action_type": "issue_refund", "amount": 5},  # back-office: the account's fields and record
    {"action_type": "escalate_incident", "severity": "sev2"},
    {"action_type": "add_tag", "tag": "billing"},
    {"action_type": "add_tag", "tag": "billing"},  # repeated: no effect
    {"action_type": "remove_tag", "tag": "billing"},
    {"action_type": "classify_priority", "priority": "low"},
    {"action_type": "classify_priority", "priority": "urgent"},  # churn
    {"action_type": "lookup_policy", "policy_id": "refund_policy"},
    {"action_type": "resolve_ticket", "resolution_code": "refund_issued"},  # may be premature
    {"action_type": "assign_queue"},  # missing field: a penalised step
    {"reassign_queue": "billing", "add_tag": "refund", "reply": "Hi, we are on it."},
    {"action_type": "noop"},
    {"action_type": "add_internal_note", "note": "checked the account history"},
]


def _states(task_id: str, seed: int | None) -> list[EpisodeState]:
    """Every state of one episode, after each event, through the pure pipeline a step runs."""
    variant = CATALOG.variant(task_id, seed)
    state = evolve(EMPTY, start("ep_state", variant, grader_version=GRADER_VERSION))
    states = [state]
    for body in [*DETOURS, *gold(variant.task)]:
        if state.done:
            break
        try:
            plan = parse_action(body)
        except InvalidAction:
            continue
        before = state
        events = decide(state, plan)
        for event in events:
            state = evolve(state, event)
            states.append(state)
        state = evolve(state, grade_step(before, events, state).to_event())
        states.append(state)
    assert state.done
    return states


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_every_state_equals_its_validated_form(task_id: str) -> None:
    for seed in (None, 0, 1, 2):
        for state in _states(task_id, seed):
            fields = {name: getattr(state, name) for name in EpisodeState.model_fields}
            assert EpisodeState.model_validate(fields, strict=True) == state
