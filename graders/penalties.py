"""Penalty rules: what a step costs, judged from the step's events and the states around it.

The SupportOps seed's penalties (repeats, missing fields, no-op stalling, resolving before triage
or a reply) plus the ones an adversarial agent would otherwise exploit (actions that change
nothing, flip-flopping triage). Amounts are in units (1 unit = 0.0001).
"""

from __future__ import annotations

from typing import NamedTuple

from domain import events as ev
from domain.state import EpisodeState

REJECTED = {"missing_field": 500, "premature_resolution": 1000, "limit_reached": 500}
REPEAT = 500
NOOP = 200
NO_EFFECT = 200
CHURN = 100


class Penalty(NamedTuple):
    rule: str
    units: int
    reason: str


def step_penalties(before: EpisodeState, step_events: list[ev.Event], after: EpisodeState) -> list[Penalty]:
    """Penalties for one step. ``step_events`` are the step's events without its grade."""
    out: list[Penalty] = []
    received = step_events[0]
    actions = received.data["actions"]
    previous = before.last_step
    repeated = bool(actions) and previous is not None and list(previous.actions) == list(actions)
    if repeated:
        out.append(Penalty("repeat", REPEAT, "repeated the previous action"))
    for event in step_events[1:]:
        if event.type == ev.ACTION_REJECTED:
            code = event.data["code"]
            out.append(Penalty(code, REJECTED.get(code, 500), event.data["reason"]))
        elif event.type == ev.NO_EFFECT and not repeated:
            out.append(Penalty("no_effect", NO_EFFECT, event.data["reason"]))
        elif event.type in (ev.PRIORITY_CLASSIFIED, ev.QUEUE_ASSIGNED) and event.data.get("previous"):
            field = "priority" if event.type == ev.PRIORITY_CLASSIFIED else "queue"
            out.append(Penalty("churn", CHURN, f"changed the {field} after setting it"))
        elif event.type == ev.TAG_REMOVED:
            out.append(Penalty("churn", CHURN, f"removed tag {event.data['tag']}"))
    if any(a.get("action_type") == "noop" for a in actions) and not repeated:
        out.append(Penalty("noop", NOOP, "no-op: stalling"))
    return out
