"""Episode state and ``evolve``: the fold of an episode's events.

State is never stored; it is rebuilt by folding the log with :func:`evolve` (or :func:`fold`).
It holds the materialised task (answer key included, since graders read it), so anything shown to
an agent goes through :mod:`domain.observation`, which picks public fields only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from operator import attrgetter
from typing import Any, NamedTuple

from domain import events as ev
from domain.tasks.catalog import task_json
from domain.tasks.spec import TaskInstance


class StepRecord(NamedTuple):
    """What the log says about one step, for observations and reports."""

    step: int
    actions: tuple[Mapping[str, Any], ...]
    raw: Any
    changes: tuple[str, ...] = ()
    error: str | None = None
    reward: float | None = None
    score: float | None = None


class EpisodeState(NamedTuple):
    """An episode's state: immutable, built by folding its events (never stored).

    A named tuple rather than a frozen dataclass: a state is built at least once per step and per
    replayed step, and a frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field, 22
    fields) cost five times as much as building the tuple.
    """

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


# --------------------------------------------------------------------------- applying events
# Events are applied to a mutable working copy (a draft) and the immutable state is built once per
# ``fold``: copying the 22-field state once or twice per event was the largest cost of a step and
# of replay. The draft has the state's attribute names, so rules
# that read state (``domain.decide``) can read a draft too.

FIELDS: tuple[str, ...] = EpisodeState._fields
STEP_FIELDS: tuple[str, ...] = StepRecord._fields
_tuple_new = tuple.__new__
_all_fields = attrgetter(*FIELDS)


class Draft:
    """A mutable copy of an :class:`EpisodeState` while events are applied to it.

    ``pending`` holds the last step's record while it is being amended (as a dict of
    :class:`StepRecord` fields); ``steps`` then excludes it. :meth:`freeze` returns the state.
    """

    __slots__ = (*FIELDS, "pending")

    @property
    def started(self) -> bool:
        return self.task is not None

    def viewed(self, policy_id: str) -> bool:
        return any(p == policy_id for p, _ in self.policies_viewed)

    def freeze(self) -> EpisodeState:
        if self.pending is not None:
            self.steps = (*self.steps, StepRecord(**self.pending))
            self.pending = None
        return _tuple_new(EpisodeState, _all_fields(self))


def _thaw_source() -> str:
    """Source of ``thaw``: one plain attribute copy per field (generated so it cannot drift from
    the state's fields; a loop of ``setattr`` costs eight times as much)."""
    body = "".join(f"    d.{name} = s.{name}\n" for name in FIELDS)
    return f"def thaw(s):\n    d = _new(Draft)\n{body}    d.pending = None\n    return d\n"


_namespace: dict[str, Any] = {"_new": object.__new__, "Draft": Draft}
exec(_thaw_source(), _namespace)  # generated from the state's own field names
thaw: Callable[[EpisodeState], Draft] = _namespace["thaw"]
thaw.__doc__ = "A :class:`Draft` holding the same values as ``state``."


def _last(s: Draft) -> dict[str, Any]:
    """The last step's record as an editable dict (moved out of ``steps`` on first use)."""
    if s.pending is None:
        last = s.steps[-1]
        s.steps = s.steps[:-1]
        s.pending = dict(zip(STEP_FIELDS, _step_fields(last), strict=True))
    return s.pending


_step_fields = attrgetter(*STEP_FIELDS)


def _note_change(s: Draft, text: str) -> None:
    last = _last(s)
    last["changes"] = (*last["changes"], text)


_TASKS: dict[tuple[Any, Any, Any], tuple[TaskInstance, Mapping[str, Any] | None]] = {}


def _task(payload: Mapping[str, Any]) -> TaskInstance:
    """The task recorded at reset, as a model; equal tasks come back as one shared object.

    Every fold of an episode reads its recorded task anew. Handing back an equal task seen before
    lets the memos keyed by task object (grader answer keys, rubric keys, observation fields) serve
    every episode of a variant, and skips validating the same payload again: a payload equal to
    the JSON form of a task seen before validates to that task (checked once, when it is first
    seen); anything else is validated and compared, never assumed. The memo compares with its own
    copy (``task_json``), never with a caller's dict, which the caller could change afterwards.
    """
    key = (payload.get("task_id"), payload.get("seed"), payload.get("case"))
    seen = _TASKS.get(key)
    if seen is not None and seen[1] is not None and seen[1] == payload:
        return seen[0]
    task = TaskInstance.model_validate(payload)
    if seen is not None and seen[0] == task:
        return seen[0]
    dump = task_json(task)
    if len(_TASKS) >= 4096:
        _TASKS.clear()
    _TASKS[key] = (task, dump if TaskInstance.model_validate(dump) == task else None)
    return task


def _started(s: Draft, d: Mapping[str, Any]) -> None:
    s.episode_id = d["episode_id"]
    s.task = _task(d["task"])
    s.run_id = d.get("run_id")
    s.forked_from = d.get("forked_from")


def _received(s: Draft, d: Mapping[str, Any]) -> None:
    if s.pending is not None:
        s.steps = (*s.steps, StepRecord(**s.pending))
    s.step_count = d["step"]
    s.pending = {"step": d["step"], "actions": tuple(d["actions"]), "raw": d["raw"], "changes": (),
                 "error": None, "reward": None, "score": None}


def _priority(s: Draft, d: Mapping[str, Any]) -> None:
    s.priority = d["priority"]
    _note_change(s, f"priority set to {d['priority']}")


def _queue(s: Draft, d: Mapping[str, Any]) -> None:
    s.queue = d["queue"]
    _note_change(s, f"queue set to {d['queue']}")


def _tag_added(s: Draft, d: Mapping[str, Any]) -> None:
    if s.first_tag_step is None:
        s.first_tag_step = s.step_count
    s.tags = (*s.tags, d["tag"])
    _note_change(s, f"tag {d['tag']} added")


def _tag_removed(s: Draft, d: Mapping[str, Any]) -> None:
    s.tags = tuple(t for t in s.tags if t != d["tag"])
    _note_change(s, f"tag {d['tag']} removed")


def _reply(s: Draft, d: Mapping[str, Any]) -> None:
    if s.first_reply_step is None:
        s.first_reply_step = s.step_count
    s.reply_draft = d["text"]
    _note_change(s, "reply drafted")


def _note(s: Draft, d: Mapping[str, Any]) -> None:
    s.notes = (*s.notes, d["note"])
    _note_change(s, "internal note added")


def _policy(s: Draft, d: Mapping[str, Any]) -> None:
    s.policies_viewed = (*s.policies_viewed, (d["policy_id"], s.step_count))
    _note_change(s, f"policy {d['policy_id']} looked up")


def _resolved(s: Draft, d: Mapping[str, Any]) -> None:
    s.status = "resolved"
    s.resolution_code = d["resolution_code"]
    _note_change(s, f"ticket resolved ({d['resolution_code']})")


def _closed(s: Draft, d: Mapping[str, Any]) -> None:
    code = d.get("resolution_code")
    s.status = "closed"
    s.resolution_code = code
    _note_change(s, "ticket closed" + (f" ({code})" if code else ""))


def _rejected(s: Draft, d: Mapping[str, Any]) -> None:
    _last(s)["error"] = d["reason"]


def _no_effect(s: Draft, d: Mapping[str, Any]) -> None:
    last = _last(s)
    previous = last["error"]
    last["error"] = d["reason"] if previous is None else f"{previous}; {d['reason']}"


def _ended(s: Draft, d: Mapping[str, Any]) -> None:
    s.done = True
    s.end_reason = d["reason"]


def _graded(s: Draft, d: Mapping[str, Any]) -> None:
    s.score = d["score"]
    s.raw_units = d["raw_units"]
    s.penalty_units = d["penalty_units"]
    s.rewards = (*s.rewards, d["reward"])
    last = _last(s)
    last["reward"] = d["reward"]
    last["score"] = d["score"]


_HANDLERS: dict[str, Callable[[Draft, Mapping[str, Any]], None]] = {
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


def apply(draft: Draft, event: ev.Event) -> None:
    """Apply one event to a draft in place (the building block of :func:`evolve` and :func:`fold`)."""
    _HANDLERS[event.type](draft, event.data)


def evolve(state: EpisodeState, event: ev.Event) -> EpisodeState:
    """Apply one event. Pure: the same state and event always give the same result."""
    draft = thaw(state)
    _HANDLERS[event.type](draft, event.data)
    return draft.freeze()


def fold(events: Iterable[ev.Event], state: EpisodeState | None = None) -> EpisodeState:
    """Fold events onto ``state`` (an empty episode by default); the same as evolving one by one."""
    draft = thaw(state if state is not None else EMPTY)
    handlers = _HANDLERS
    for event in events:
        handlers[event.type](draft, event.data)
    return draft.freeze()


EMPTY = EpisodeState()
