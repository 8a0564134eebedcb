"""What an agent sees: a public view of the state, free of the answer key.

This is the only function that turns state into something agent-facing, so the rule "never show
targets" is enforced in one place: it copies public fields by name and nothing else.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from domain.state import EpisodeState, StepRecord
from domain.tasks.catalog import Catalog
from domain.tasks.spec import TaskInstance
from domain.vocabulary import PolicyId


class PublicTicket(BaseModel):
    ticket_id: str
    customer_name: str
    customer_email: str
    customer_tier: str
    subject: str
    message: str
    product_area: str
    facts: dict[str, str] = Field(default_factory=dict)


class Observation(BaseModel):
    """The agent's view after reset or a step (fields of both seeds, plus a few of ours)."""

    model_config = ConfigDict(extra="forbid")

    episode_id: str
    task_id: str
    title: str
    difficulty: str
    objective: str
    ticket_id: str
    customer_message: str
    ticket: PublicTicket
    current_priority: str | None
    current_queue: str | None
    tags: list[str]
    reply_draft: str | None
    internal_notes: list[str]
    status: str
    resolution_code: str | None
    available_policies: list[str]
    policies: dict[str, str] = Field(description="Texts of the policies looked up so far")
    history: list[str]
    action_history: list[dict[str, Any]]
    last_action: dict[str, Any] | None
    last_action_error: str | None
    step_count: int
    max_steps: int
    done: bool
    reward: float | None = None


def _history_line(step: int, actions: tuple[Any, ...], changes: tuple[str, ...],
                  error: str | None) -> str:
    kinds = "+".join(a.get("action_type", "?") for a in actions) or "invalid action"
    outcome = "; ".join(changes) if changes else "no change"
    return f"step {step}: {kinds} -> {outcome}" + (f" (error: {error})" if error else "")


# Memos keyed by object identity, each entry keeping its object alive so the id is not reused.
# Both hold pure functions of immutable objects: a step record never changes once the step is
# over (later states share it), and a task instance is frozen.
_LINES: dict[int, tuple[StepRecord, str]] = {}
_STATIC: dict[int, tuple[TaskInstance, dict[str, Any]]] = {}
_MEMO_LIMIT = 16384
_POLICY_IDS = tuple(PolicyId.allowed())


def _line(record: StepRecord) -> str:
    hit = _LINES.get(id(record))
    if hit is not None and hit[0] is record:
        return hit[1]
    line = _history_line(record.step, record.actions, record.changes, record.error)
    if len(_LINES) >= _MEMO_LIMIT:
        _LINES.clear()
    _LINES[id(record)] = (record, line)
    return line


def _trusted(model: type[_M], values: dict[str, Any]) -> _M:
    """An instance of ``model`` holding ``values``, which already have the declared types.

    Validating an observation was a fifth of a step's CPU (every field, every step), and every
    value here is built from the folded state by the code below, never from outside input. This is
    what ``model_construct`` does, without its per-field Python loop (five times faster).
    ``tests/test_observation_fast.py`` checks, for every step of every task, that the result equals
    the validated model, so a pydantic change that broke this would fail there.
    """
    obj = model.__new__(model)
    _set(obj, "__dict__", values)
    _set(obj, "__pydantic_fields_set__", set(values))
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj


_M = TypeVar("_M", bound=BaseModel)
_set = object.__setattr__


def _static(task: TaskInstance) -> dict[str, Any]:
    """The fields of an observation that only depend on the task (all immutable values; the
    ticket as plain data, turned into a fresh model per observation)."""
    hit = _STATIC.get(id(task))
    if hit is not None and hit[0] is task:
        return hit[1]
    ticket = PublicTicket.model_validate({name: value for name, value
                                         in task.ticket.model_dump(mode="json").items()
                                         if name in PublicTicket.model_fields})
    fields = {
        "task_id": task.task_id,
        "title": task.title,
        "difficulty": task.difficulty.value,
        "objective": task.objective,
        "ticket_id": task.ticket.ticket_id,
        "customer_message": task.ticket.message,
        "ticket": ticket.__dict__,
        "max_steps": task.max_steps,
    }
    if len(_STATIC) >= _MEMO_LIMIT:
        _STATIC.clear()
    _STATIC[id(task)] = (task, fields)
    return fields


def observe(state: EpisodeState, catalog: Catalog, reward: float | None = None) -> Observation:
    """Build the observation for ``state``. ``reward`` is the last step's (None after reset).

    Every list and dict is fresh (the actions are copied too), so an observation shares nothing
    mutable with the state or with other observations; the rest is strings and numbers.
    """
    task = state.task
    assert task is not None, "observe() needs a started episode"
    static = _static(task)
    last = state.last_step
    action_history = [dict(a) for record in state.steps for a in record.actions or _INVALID]
    ticket = dict(static["ticket"])
    ticket["facts"] = dict(ticket["facts"])
    return _trusted(Observation, {
        "episode_id": state.episode_id,
        "task_id": static["task_id"],
        "title": static["title"],
        "difficulty": static["difficulty"],
        "objective": static["objective"],
        "ticket_id": static["ticket_id"],
        "customer_message": static["customer_message"],
        "ticket": _trusted(PublicTicket, ticket),
        "current_priority": state.priority,
        "current_queue": state.queue,
        "tags": list(state.tags),
        "reply_draft": state.reply_draft,
        "internal_notes": list(state.notes),
        "status": state.status,
        "resolution_code": state.resolution_code,
        "available_policies": list(_POLICY_IDS),
        "policies": {p: catalog.policy_text(PolicyId(p)) for p, _ in state.policies_viewed},
        "history": [_line(r) for r in state.steps],
        "action_history": action_history,
        "last_action": dict(last.actions[-1]) if last and last.actions else None,
        "last_action_error": last.error if last else None,
        "step_count": state.step_count,
        "max_steps": static["max_steps"],
        "done": state.done,
        "reward": reward,
    })


_INVALID = ({"action_type": "invalid"},)
