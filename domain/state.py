"""Episode state and ``evolve``: the fold of an episode's events.

State is never stored; it is rebuilt by folding the log with :func:`evolve` (or :func:`fold`).
It holds the materialised task (answer key included, since graders read it), so anything shown to
an agent goes through :mod:`domain.observation`, which reads the task's public view only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import reduce
from typing import assert_never

from pydantic import BaseModel, ConfigDict

from domain.actions import Action
from domain.events import (
    ActionHadNoEffect,
    ActionReceived,
    ActionRejected,
    EpisodeEnded,
    EpisodeStarted,
    Event,
    ForkOrigin,
    InternalNoteAdded,
    PolicyLookedUp,
    PriorityClassified,
    QueueAssigned,
    ReplyDrafted,
    StepGraded,
    TagAdded,
    TagRemoved,
    TicketClosed,
    TicketResolved,
)
from domain.jsontext import JsonText
from domain.tasks.spec import TaskInstance
from domain.tasks.variant import TaskVariant


@dataclass(frozen=True, slots=True)
class StepRecord:
    """What the log says about one step, for observations and reports: the body as received,
    its normalised actions, what they changed (in the domain's words), the error if any part was
    refused or changed nothing, and the grade recorded with it."""

    step: int
    actions: tuple[Action, ...]
    raw: JsonText
    changes: tuple[str, ...] = ()
    error: str | None = None
    reward: float | None = None
    score: float | None = None


class EpisodeState(BaseModel):
    """An episode's state: immutable, built by folding its events (never stored).

    A frozen pydantic model rather than a dataclass because :func:`evolve` makes a new state for
    every event: pydantic's ``model_copy(update=...)`` copies the field dict and changes a few,
    where ``dataclasses.replace`` runs the constructor over every field again.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    episode_id: str = ""
    variant: TaskVariant | None = None
    run_id: str | None = None
    forked_from: ForkOrigin | None = None
    grader_version: str = ""
    """The grader the episode is graded with: its ``EpisodeStarted``'s, else (older logs) its first
    ``StepGraded``'s; empty until one of them says (``graders.versions.version_of`` reads it)."""
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
    def task(self) -> TaskInstance | None:
        """The materialised task (None before ``EpisodeStarted``)."""
        return self.variant.task if self.variant is not None else None

    @property
    def started(self) -> bool:
        return self.variant is not None

    @property
    def last_step(self) -> StepRecord | None:
        return self.steps[-1] if self.steps else None

    def viewed(self, policy_id: str) -> bool:
        return any(p == policy_id for p, _ in self.policies_viewed)


EMPTY = EpisodeState()


def _with(state: EpisodeState, **changes: object) -> EpisodeState:
    """``state`` with ``changes``: pydantic's ``model_copy``, which (as documented) does not
    validate the changed values. That is safe here because every value :func:`evolve` passes is
    read from a typed event or from the state itself, so it already has the field's type;
    ``tests/domain/test_state.py`` checks that every state of every task's episodes equals the
    same state validated field by field."""
    return state.model_copy(update=changes)


def _last_noted(state: EpisodeState, change: str) -> tuple[StepRecord, ...]:
    """The state's step records, the last one with ``change`` noted (what the step did)."""
    last = state.steps[-1]
    return (*state.steps[:-1], replace(last, changes=(*last.changes, change)))


def _last_replaced(state: EpisodeState, record: StepRecord) -> tuple[StepRecord, ...]:
    """The state's step records, ``record`` in place of the last one."""
    return (*state.steps[:-1], record)


def evolve(state: EpisodeState, event: Event) -> EpisodeState:
    """The state after one event. Pure: the same state and event always give the same result."""
    match event:
        case EpisodeStarted():
            return _with(state, episode_id=event.episode_id, variant=event.task,
                         run_id=event.run_id, forked_from=event.forked_from,
                         grader_version=event.grader_version)
        case ActionReceived():
            record = StepRecord(step=event.step, actions=event.actions, raw=event.raw)
            return _with(state, step_count=event.step, steps=(*state.steps, record))
        case PriorityClassified():
            value = event.priority.value
            return _with(state, priority=value, steps=_last_noted(state, f"priority set to {value}"))
        case QueueAssigned():
            value = event.queue.value
            return _with(state, queue=value, steps=_last_noted(state, f"queue set to {value}"))
        case TagAdded():
            tag = event.tag.value
            first = state.first_tag_step if state.first_tag_step is not None else state.step_count
            return _with(state, tags=(*state.tags, tag), first_tag_step=first,
                         steps=_last_noted(state, f"tag {tag} added"))
        case TagRemoved():
            tag = event.tag.value
            return _with(state, tags=tuple(t for t in state.tags if t != tag),
                         steps=_last_noted(state, f"tag {tag} removed"))
        case ReplyDrafted():
            first = state.first_reply_step if state.first_reply_step is not None else state.step_count
            return _with(state, reply_draft=event.text, first_reply_step=first,
                         steps=_last_noted(state, "reply drafted"))
        case InternalNoteAdded():
            return _with(state, notes=(*state.notes, event.note),
                         steps=_last_noted(state, "internal note added"))
        case PolicyLookedUp():
            policy = event.policy_id.value
            return _with(state, policies_viewed=(*state.policies_viewed, (policy, state.step_count)),
                         steps=_last_noted(state, f"policy {policy} looked up"))
        case TicketResolved():
            code = event.resolution_code.value
            return _with(state, status="resolved", resolution_code=code,
                         steps=_last_noted(state, f"ticket resolved ({code})"))
        case TicketClosed():
            closed = event.resolution_code.value if event.resolution_code is not None else None
            return _with(state, status="closed", resolution_code=closed,
                         steps=_last_noted(state, "ticket closed" + (f" ({closed})" if closed else "")))
        case ActionRejected():  # a refusal replaces any earlier error of the step
            last = state.steps[-1]
            return _with(state, steps=_last_replaced(state, replace(last, error=event.reason)))
        case ActionHadNoEffect():
            last = state.steps[-1]
            error = event.reason if last.error is None else f"{last.error}; {event.reason}"
            return _with(state, steps=_last_replaced(state, replace(last, error=error)))
        case EpisodeEnded():
            return _with(state, done=True, end_reason=event.reason)
        case StepGraded():
            graded = replace(state.steps[-1], reward=event.reward, score=event.score)
            return _with(state, score=event.score, raw_units=event.raw_units,
                         penalty_units=event.penalty_units, rewards=(*state.rewards, event.reward),
                         steps=_last_replaced(state, graded),
                         grader_version=state.grader_version or event.grader_version)
        case _:
            assert_never(event)


def fold(events: Iterable[Event], state: EpisodeState = EMPTY) -> EpisodeState:
    """Fold events onto ``state`` (an empty episode by default): :func:`evolve`, one by one."""
    return reduce(evolve, events, state)
