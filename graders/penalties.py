"""Penalty rules: what a step costs, judged from the step's events and the states around it.

The SupportOps seed's penalties (repeats, missing fields, no-op stalling, resolving before triage
or a reply) plus the ones an adversarial agent would otherwise exploit (actions that change
nothing, flip-flopping triage, questions the customer already answered or cannot
answer). Amounts are in units (1 unit = 0.0001).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.actions import Noop
from domain.events import (
    ActionHadNoEffect,
    ActionReceived,
    ActionRejected,
    CustomerReplied,
    Event,
    Penalty,
    PriorityClassified,
    QueueAssigned,
    TagRemoved,
)
from domain.state import EpisodeState

__all__ = ["Penalty", "step_penalties"]

REJECTED = {"missing_field": 500, "premature_resolution": 1000, "limit_reached": 500}
REPEAT = 500
NOOP = 200
NO_EFFECT = 200
CHURN = 100
STALLING = {"repeat": 300, "impatient": 200, "refuse": 200}
"""A question the customer already answered, another it cannot answer once impatient, or a
message it refuses (one that fishes for many details or tries to instruct it; ``domain.customer``):
stalling, like a no-op, but dearer for a repeat. No reply recorded before the customer could
refuse has that kind, so regrading an old episode charges what it charged."""
WHY_STALLING = {
    "repeat": "asked the customer again for what it already answered",
    "impatient": "another question the customer cannot answer",
    "refuse": "fished for many details at once, or tried to instruct the customer",
}


def step_penalties(before: EpisodeState, step_events: Sequence[Event]) -> list[Penalty]:
    """Penalties for one step. ``step_events`` are the step's events without its grade, starting
    with its ``ActionReceived``."""
    received = step_events[0]
    assert isinstance(received, ActionReceived), "a step starts with ActionReceived"
    actions = received.actions
    previous = before.last_step
    repeated = bool(actions) and previous is not None and previous.actions == actions
    out: list[Penalty] = []
    if repeated:
        out.append(Penalty("repeat", REPEAT, "repeated the previous action"))
    for event in step_events[1:]:
        match event:
            case ActionRejected(code=code, reason=reason):
                out.append(Penalty(code, REJECTED.get(code, 500), reason))
            case ActionHadNoEffect(reason=reason) if not repeated:
                out.append(Penalty("no_effect", NO_EFFECT, reason))
            case PriorityClassified(previous=earlier) if earlier is not None:
                out.append(Penalty("churn", CHURN, "changed the priority after setting it"))
            case QueueAssigned(previous=earlier) if earlier is not None:
                out.append(Penalty("churn", CHURN, "changed the queue after setting it"))
            case TagRemoved(tag=tag):
                out.append(Penalty("churn", CHURN, f"removed tag {tag.value}"))
            case CustomerReplied(kind=kind) if kind in STALLING and not repeated:
                out.append(Penalty("stalling", STALLING[kind], WHY_STALLING[kind]))
    if any(isinstance(a, Noop) for a in actions) and not repeated:
        out.append(Penalty("noop", NOOP, "no-op: stalling"))
    return out
