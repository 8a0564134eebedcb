"""What an agent sees: a public view of the state, free of the answer key.

This is the only function that turns state into something agent-facing, so the rule "never show
targets" is enforced in one place: it copies public fields by name and nothing else.
"""

from __future__ import annotations

from typing import Any

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


def _static(task: TaskInstance) -> dict[str, Any]:
    """The fields of an observation that only depend on the task (the ticket as plain data)."""
    hit = _STATIC.get(id(task))
    if hit is not None and hit[0] is task:
        return hit[1]
    fields = {
        "task_id": task.task_id,
        "title": task.title,
        "difficulty": task.difficulty.value,
        "objective": task.objective,
        "ticket_id": task.ticket.ticket_id,
        "customer_message": task.ticket.message,
        "ticket": {name: value for name, value in task.ticket.model_dump(mode="json").items()
                   if name in PublicTicket.model_fields},
        "available_policies": _POLICY_IDS,
        "max_steps": task.max_steps,
    }
    if len(_STATIC) >= _MEMO_LIMIT:
        _STATIC.clear()
    _STATIC[id(task)] = (task, fields)
    return fields


def observe(state: EpisodeState, catalog: Catalog, reward: float | None = None) -> Observation:
    """Build the observation for ``state``. ``reward`` is the last step's (None after reset).

    Validation copies every value into the model (lists, dicts, the ticket), so an observation
    shares nothing mutable with the state or with other observations.
    """
    task = state.task
    assert task is not None, "observe() needs a started episode"
    last = state.last_step
    action_history: list[dict[str, Any]] = []
    for record in state.steps:
        action_history.extend(record.actions or ({"action_type": "invalid"},))
    return Observation(
        **_static(task),
        episode_id=state.episode_id,
        current_priority=state.priority,
        current_queue=state.queue,
        tags=state.tags,
        reply_draft=state.reply_draft,
        internal_notes=state.notes,
        status=state.status,
        resolution_code=state.resolution_code,
        policies={p: catalog.policy_text(PolicyId(p)) for p, _ in state.policies_viewed},
        history=[_line(r) for r in state.steps],
        action_history=action_history,
        last_action=(last.actions[-1] if last and last.actions else None),
        last_action_error=last.error if last else None,
        step_count=state.step_count,
        done=state.done,
        reward=reward,
    )
