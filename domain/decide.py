"""``decide``: the rules that turn a received action into events. Pure; no I/O, no clock.

Every rule about what an action *does* lives here; every rule about what it is *worth* lives in
``graders``. A step always starts with ``ActionReceived`` (the action exactly as received, so the
log can be audited), then the effects of each part of the action in order, then ``EpisodeEnded``
when the ticket was resolved or closed or the step budget ran out.
"""

from __future__ import annotations

from typing import Any

from domain import actions as act
from domain import events as ev
from domain.state import EpisodeState, apply, thaw
from domain.tasks.catalog import task_json
from domain.tasks.spec import TaskInstance

MAX_TAGS = 8
MAX_NOTES = 20


class EpisodeFinished(Exception):
    """The episode already ended; the step is refused and nothing is recorded."""


class EpisodeNotStarted(Exception):
    """Stepping an episode that has no ``EpisodeStarted`` event."""


def start(episode_id: str, task: TaskInstance, digest: str, *, run_id: str | None = None,
          forked_from: dict[str, Any] | None = None, grader_version: str = "") -> ev.Event:
    """The first event of every episode: which task and seed, and the materialised task itself."""
    return ev.Event(ev.EPISODE_STARTED, {
        "episode_id": episode_id,
        "task_id": task.task_id,
        "seed": task.seed,
        "task_digest": digest,
        "task": task_json(task),
        "run_id": run_id,
        "forked_from": forked_from,
        "grader_version": grader_version,
    })


_MISSING_TEXT = {
    "priority": "set a priority",
    "queue": "assign a queue",
    "tags": "tag the ticket",
    "policy": "look up the relevant policy",
    "reply": "draft a reply",
    "note": "add an internal note",
}


def _missing_work(state: EpisodeState) -> list[str]:
    assert state.task is not None
    present = {
        "priority": state.priority is not None,
        "queue": state.queue is not None,
        "tags": bool(state.tags),
        "policy": bool(state.policies_viewed),
        "reply": state.reply_draft is not None,
        "note": bool(state.notes),
    }
    return [_MISSING_TEXT[n] for n in state.task.required_before_closing() if not present[n]]


def _no_effect(reason: str) -> list[ev.Event]:
    return [ev.Event(ev.NO_EFFECT, {"reason": reason})]


def _finish(state: EpisodeState, action: Any) -> list[ev.Event]:
    missing = _missing_work(state)
    verb = "resolve" if isinstance(action, act.ResolveTicket) else "close"
    if missing:
        return [ev.Event(ev.ACTION_REJECTED, {
            "code": "premature_resolution",
            "reason": f"cannot {verb} yet: first " + ", ".join(missing),
        })]
    code = action.resolution_code.value if action.resolution_code is not None else None
    if isinstance(action, act.ResolveTicket):
        return [ev.Event(ev.TICKET_RESOLVED, {"resolution_code": code}),
                ev.Event(ev.EPISODE_ENDED, {"reason": "resolved"})]
    return [ev.Event(ev.TICKET_CLOSED, {"resolution_code": code}),
            ev.Event(ev.EPISODE_ENDED, {"reason": "closed"})]


def _effects(state: EpisodeState, action: Any) -> list[ev.Event]:
    """Events for one normalised action against the current state."""
    if isinstance(action, act.ClassifyPriority):
        value = action.priority.value
        if state.priority == value:
            return _no_effect(f"priority is already {value}")
        return [ev.Event(ev.PRIORITY_CLASSIFIED, {"priority": value, "previous": state.priority})]
    if isinstance(action, act.AssignQueue):
        value = action.queue.value
        if state.queue == value:
            return _no_effect(f"queue is already {value}")
        return [ev.Event(ev.QUEUE_ASSIGNED, {"queue": value, "previous": state.queue})]
    if isinstance(action, act.AddTag):
        tag = action.tag.value
        if tag in state.tags:
            return _no_effect(f"tag {tag} is already on the ticket")
        if len(state.tags) >= MAX_TAGS:
            return [ev.Event(ev.ACTION_REJECTED, {
                "code": "limit_reached", "reason": f"a ticket holds at most {MAX_TAGS} tags"})]
        return [ev.Event(ev.TAG_ADDED, {"tag": tag})]
    if isinstance(action, act.RemoveTag):
        tag = action.tag.value
        if tag not in state.tags:
            return _no_effect(f"tag {tag} is not on the ticket")
        return [ev.Event(ev.TAG_REMOVED, {"tag": tag})]
    if isinstance(action, act.DraftReply):
        if state.reply_draft == action.reply_text:
            return _no_effect("the reply draft already has this text")
        return [ev.Event(ev.REPLY_DRAFTED, {"text": action.reply_text})]
    if isinstance(action, act.AddInternalNote):
        if action.note in state.notes:
            return _no_effect("this internal note was already added")
        if len(state.notes) >= MAX_NOTES:
            return [ev.Event(ev.ACTION_REJECTED, {
                "code": "limit_reached", "reason": f"a ticket holds at most {MAX_NOTES} notes"})]
        return [ev.Event(ev.NOTE_ADDED, {"note": action.note})]
    if isinstance(action, act.LookupPolicy):
        policy = action.policy_id.value
        if state.viewed(policy):
            return _no_effect(f"policy {policy} is already shown in the observation")
        return [ev.Event(ev.POLICY_LOOKED_UP, {"policy_id": policy})]
    if isinstance(action, (act.ResolveTicket, act.CloseTicket)):
        return _finish(state, action)
    if isinstance(action, act.Noop):
        return []
    raise TypeError(f"no rule for {type(action).__name__}")


def decide(state: EpisodeState, plan: act.ActionPlan, raw: Any) -> list[ev.Event]:
    """The events one step produces. Raises :class:`EpisodeFinished` after the episode ended."""
    return decide_step(state, plan, raw)[0]


def decide_step(state: EpisodeState, plan: act.ActionPlan,
                raw: Any) -> tuple[list[ev.Event], EpisodeState]:
    """:func:`decide`, plus the state after those events (``fold(events, state)``), which the rules
    build anyway; the environment uses it instead of folding the same events a second time."""
    if not state.started:
        raise EpisodeNotStarted("the episode has not been reset")
    if state.done:
        raise EpisodeFinished(
            f"episode {state.episode_id} has ended ({state.end_reason}); call reset for a new one"
        )
    assert state.task is not None
    step = state.step_count + 1
    out = [ev.Event(ev.ACTION_RECEIVED, {
        "step": step, "raw": raw, "actions": plan.to_json(), "dialect": plan.dialect,
    })]
    current = thaw(state)  # read by the rules like a state, changed in place as events are decided
    apply(current, out[0])
    if plan.rejection is not None:
        code, reason = plan.rejection
        out.append(ev.Event(ev.ACTION_REJECTED, {"code": code, "reason": reason}))
        apply(current, out[-1])
    else:
        for action in plan.actions:
            for event in _effects(current, action):  # type: ignore[arg-type]
                out.append(event)
                apply(current, event)
            if current.done:
                break
    if not current.done and step >= state.task.max_steps:
        out.append(ev.Event(ev.EPISODE_ENDED, {"reason": "max_steps"}))
        apply(current, out[-1])
    return out, current.freeze()
