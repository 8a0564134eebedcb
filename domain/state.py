"""Episode state and ``evolve``: the fold of an episode's events.

State is never stored; it is rebuilt by folding the log with :func:`evolve` (or :func:`fold`).
It holds the materialised task (answer key included, since graders read it), so anything shown to
an agent goes through :mod:`domain.observation`, which picks public fields only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from domain import events as ev
from domain.tasks.spec import TaskInstance


@dataclass(frozen=True, slots=True)
class StepRecord:
    """What the log says about one step, for observations and reports."""

    step: int
    actions: tuple[Mapping[str, Any], ...]
    raw: Any
    changes: tuple[str, ...] = ()
    error: str | None = None
    reward: float | None = None
    score: float | None = None


@dataclass(frozen=True, slots=True)
class EpisodeState:
    episode_id: str = ""
    task: TaskInstance | None = None
    run_id: str | None = None
    forked_from: Mapping[str, Any] | None = None
    step_count: int = 0
    priority: str | None = None
    queue: str | None = None
    tags: tuple[str, ...] = ()
    reply_draft: str | None = None
    first_reply_step: int | None = None
    first_tag_step: int | None = None
    notes: tuple[str, ...] = ()
    policies_viewed: tuple[tuple[str, int], ...] = ()  # (policy_id, step) in lookup order
    status: str = "open"
    resolution_code: str | None = None
    done: bool = False
    end_reason: str | None = None
    steps: tuple[StepRecord, ...] = ()
    score: float = 0.0
    raw_units: int = 0
    penalty_units: int = 0
    rewards: tuple[float, ...] = ()

    @property
    def started(self) -> bool:
        return self.task is not None

    @property
    def last_step(self) -> StepRecord | None:
        return self.steps[-1] if self.steps else None

    def viewed(self, policy_id: str) -> bool:
        return any(p == policy_id for p, _ in self.policies_viewed)


def _started(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    return replace(
        s,
        episode_id=d["episode_id"],
        task=TaskInstance.model_validate(d["task"]),
        run_id=d.get("run_id"),
        forked_from=d.get("forked_from"),
    )


def _received(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    record = StepRecord(step=d["step"], actions=tuple(d["actions"]), raw=d["raw"])
    return replace(s, step_count=d["step"], steps=s.steps + (record,))


def _amend_step(s: EpisodeState, **changes: Any) -> EpisodeState:
    last = s.steps[-1]
    return replace(s, steps=s.steps[:-1] + (replace(last, **changes),))


def _note_change(s: EpisodeState, text: str) -> EpisodeState:
    return _amend_step(s, changes=s.steps[-1].changes + (text,))


def _priority(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    return _note_change(replace(s, priority=d["priority"]), f"priority set to {d['priority']}")


def _queue(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    return _note_change(replace(s, queue=d["queue"]), f"queue set to {d['queue']}")


def _tag_added(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    first = s.first_tag_step if s.first_tag_step is not None else s.step_count
    s = replace(s, tags=s.tags + (d["tag"],), first_tag_step=first)
    return _note_change(s, f"tag {d['tag']} added")


def _tag_removed(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    s = replace(s, tags=tuple(t for t in s.tags if t != d["tag"]))
    return _note_change(s, f"tag {d['tag']} removed")


def _reply(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    first = s.first_reply_step if s.first_reply_step is not None else s.step_count
    s = replace(s, reply_draft=d["text"], first_reply_step=first)
    return _note_change(s, "reply drafted")


def _note(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    return _note_change(replace(s, notes=s.notes + (d["note"],)), "internal note added")


def _policy(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    s = replace(s, policies_viewed=s.policies_viewed + ((d["policy_id"], s.step_count),))
    return _note_change(s, f"policy {d['policy_id']} looked up")


def _resolved(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    s = replace(s, status="resolved", resolution_code=d["resolution_code"])
    return _note_change(s, f"ticket resolved ({d['resolution_code']})")


def _closed(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    s = replace(s, status="closed", resolution_code=d.get("resolution_code"))
    code = d.get("resolution_code")
    return _note_change(s, "ticket closed" + (f" ({code})" if code else ""))


def _rejected(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    return _amend_step(s, error=d["reason"])


def _no_effect(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    previous = s.steps[-1].error
    reason = d["reason"] if previous is None else f"{previous}; {d['reason']}"
    return _amend_step(s, error=reason)


def _ended(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    return replace(s, done=True, end_reason=d["reason"])


def _graded(s: EpisodeState, d: Mapping[str, Any]) -> EpisodeState:
    s = replace(
        s,
        score=d["score"],
        raw_units=d["raw_units"],
        penalty_units=d["penalty_units"],
        rewards=s.rewards + (d["reward"],),
    )
    return _amend_step(s, reward=d["reward"], score=d["score"])


_HANDLERS = {
    ev.EPISODE_STARTED: _started,
    ev.ACTION_RECEIVED: _received,
    ev.PRIORITY_CLASSIFIED: _priority,
    ev.QUEUE_ASSIGNED: _queue,
    ev.TAG_ADDED: _tag_added,
    ev.TAG_REMOVED: _tag_removed,
    ev.REPLY_DRAFTED: _reply,
    ev.NOTE_ADDED: _note,
    ev.POLICY_LOOKED_UP: _policy,
    ev.TICKET_RESOLVED: _resolved,
    ev.TICKET_CLOSED: _closed,
    ev.ACTION_REJECTED: _rejected,
    ev.NO_EFFECT: _no_effect,
    ev.EPISODE_ENDED: _ended,
    ev.STEP_GRADED: _graded,
}


def evolve(state: EpisodeState, event: ev.Event) -> EpisodeState:
    """Apply one event. Pure: the same state and event always give the same result."""
    return _HANDLERS[event.type](state, event.data)


def fold(events: Iterable[ev.Event], state: EpisodeState | None = None) -> EpisodeState:
    """Fold events onto ``state`` (an empty episode by default)."""
    current = state if state is not None else EpisodeState()
    for event in events:
        current = _HANDLERS[event.type](current, event.data)
    return current
