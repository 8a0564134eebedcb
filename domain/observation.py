"""What an agent sees: a public view of the state, free of the answer key.

This is the only function that turns state into something agent-facing, so the rule "never show
targets" is enforced in one place: it copies public fields by name and nothing else.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from domain.state import EpisodeState
from domain.tasks.catalog import Catalog
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


def observe(state: EpisodeState, catalog: Catalog, reward: float | None = None) -> Observation:
    """Build the observation for ``state``. ``reward`` is the last step's (None after reset)."""
    task = state.task
    assert task is not None, "observe() needs a started episode"
    last = state.last_step
    action_history: list[dict[str, Any]] = []
    for record in state.steps:
        action_history.extend(record.actions or ({"action_type": "invalid"},))
    return Observation(
        episode_id=state.episode_id,
        task_id=task.task_id,
        title=task.title,
        difficulty=task.difficulty.value,
        objective=task.objective,
        ticket_id=task.ticket.ticket_id,
        customer_message=task.ticket.message,
        ticket=PublicTicket.model_validate(task.ticket.model_dump(mode="json")),
        current_priority=state.priority,
        current_queue=state.queue,
        tags=list(state.tags),
        reply_draft=state.reply_draft,
        internal_notes=list(state.notes),
        status=state.status,
        resolution_code=state.resolution_code,
        available_policies=PolicyId.allowed(),
        policies={p: catalog.policy_text(PolicyId(p)) for p, _ in state.policies_viewed},
        history=[_history_line(r.step, r.actions, r.changes, r.error) for r in state.steps],
        action_history=action_history,
        last_action=(last.actions[-1] if last and last.actions else None),
        last_action_error=last.error if last else None,
        step_count=state.step_count,
        max_steps=task.max_steps,
        done=state.done,
        reward=reward,
    )
