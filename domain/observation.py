"""What an agent sees: a public view of the state, free of the answer key.

This is the only function that turns state into something agent-facing, so the rule "never show
targets" is enforced in one place: of the task it reads only the public view
(:class:`domain.tasks.variant.PublicView`), which holds no part of the answer key.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from domain.actions import action_json
from domain.events import Component, StepGraded, Violation
from domain.state import AccountState, EpisodeState, StepRecord
from domain.tasks.catalog import Catalog
from domain.vocabulary import (
    BACK_OFFICE_ACTIONS,
    ActionType,
    PolicyId,
    Priority,
    Queue,
    ResolutionCode,
    Severity,
    Tag,
)


class PublicTicket(BaseModel):
    ticket_id: str
    customer_name: str
    customer_email: str
    customer_tier: str
    subject: str
    message: str
    product_area: str
    facts: dict[str, str] = Field(default_factory=dict)


class PublicAccount(BaseModel):
    """The customer's account as the back-office actions left it: all of it public (the email on
    file and the charge come from the ticket; the rest is what the agent did)."""

    model_config = ConfigDict(extra="forbid")

    email: str = Field(description="Email address on file (the login email)")
    charged: float | None = Field(description="Dollars the ticket says were charged; null: no "
                                  "charge on record")
    refunds: list[float] = Field(description="Refunds issued, in dollars, in order")
    refund_request_declined: bool
    password_reset_links_sent: int
    data_deletion_queued: bool
    legal_hold: bool
    fraud_review_open: bool
    incident_severity: str | None = Field(description="Severity of the escalated incident, if any")

    @classmethod
    def of(cls, account: AccountState) -> PublicAccount:
        return cls(email=account.email, charged=account.charged, refunds=list(account.refunds),
                   refund_request_declined=account.refund_denied,
                   password_reset_links_sent=len(account.reset_links_sent),
                   data_deletion_queued=account.deletion_scheduled, legal_hold=account.legal_hold,
                   fraud_review_open=account.fraud_review_open,
                   incident_severity=account.incident_severity)


class Message(BaseModel):
    """One message of the conversation with the customer (``message_customer`` and its reply)."""

    model_config = ConfigDict(extra="forbid")

    step: int
    speaker: Literal["agent", "customer"]
    text: str


class AllowedValues(BaseModel):
    """The values each enumerated action field accepts, keyed by the field's name, so an agent
    (or a model prompted with the observation) need not learn them from refusals. Frozen tuples:
    one instance is shared by every observation."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action_type: tuple[str, ...] = Field(description="Every action type")
    back_office_actions: tuple[str, ...] = Field(description="The action types that act on the "
                                                 "customer's account rather than on the ticket")
    priority: tuple[str, ...]
    queue: tuple[str, ...]
    tag: tuple[str, ...]
    resolution_code: tuple[str, ...]
    policy_id: tuple[str, ...]
    severity: tuple[str, ...] = Field(description="Of escalate_incident")


ALLOWED = AllowedValues(
    action_type=tuple(ActionType.allowed()), back_office_actions=BACK_OFFICE_ACTIONS,
    priority=tuple(Priority.allowed()), queue=tuple(Queue.allowed()), tag=tuple(Tag.allowed()),
    resolution_code=tuple(ResolutionCode.allowed()), policy_id=tuple(PolicyId.allowed()),
    severity=tuple(Severity.allowed()))


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
    available_actions: list[str] = Field(description="Every action type, the back-office ones "
                                         "(refunds, account changes, deletion, incidents) included")
    allowed: AllowedValues = Field(description="The values each enumerated action field "
                                   "accepts, keyed by the field's name")
    account: PublicAccount
    policies: dict[str, str] = Field(description="Texts of the policies looked up so far")
    history: list[str]
    action_history: list[dict[str, Any]]
    last_action: dict[str, Any] | None
    last_action_error: str | None
    step_count: int
    max_steps: int
    done: bool
    reward: float | None = None
    conversation: list[Message] = Field(
        default_factory=list, exclude_if=lambda messages: not messages,
        description="The messages exchanged with the customer (message_customer and the "
                    "customer's replies), in order; absent until the first (an episode that "
                    "never messages the customer, every seed client's, shows exactly the members "
                    "it showed before the customer could be messaged)")


UNITS = 10_000
"""Grade units per 1.0 of score (``graders.components.UNITS``; the domain does not import the
graders)."""
SAFETY_BROKEN = "breaks a safety rule"
"""How a text component's public reason ends when a safety rule voids it (``graders.components``)."""


class GradedComponent(BaseModel):
    """One score component of a step's grade as the agent may see it."""

    model_config = ConfigDict(extra="forbid")

    name: str
    weight: float = Field(description="Its share of the score")
    earned: float = Field(description="What it earns now, 0 to weight")
    reason: str = Field(description="The grader's public reason; a component a safety rule voids "
                        "names the rule and why, in parentheses")


class GradedPenalty(BaseModel):
    """A penalty the step incurred."""

    model_config = ConfigDict(extra="forbid")

    rule: str
    cost: float
    reason: str


class GradedViolation(BaseModel):
    """A safety rule the episode has broken (any caps the score)."""

    model_config = ConfigDict(extra="forbid")

    rule: str
    reason: str
    step: int | None = Field(description="The step that broke it, if one did")


class PublicGrade(BaseModel):
    """Why a step earned its reward: the grader's public reason and the breakdown behind it, the
    same on every transport. Built from the grade's public parts only: component ``public``
    strings, penalties and violations (rule and reason, which the grader words without the
    answer key); never a component's audit ``detail``, which names expected values."""

    model_config = ConfigDict(extra="forbid")

    reason: str = Field(description="The grader's public reason for the grade after this step "
                        "(the SupportOps dialect's reward.reason)")
    components: list[GradedComponent] = Field(description="Every weighted component, in report "
                                              "order")
    penalties: list[GradedPenalty] = Field(description="The penalties of this step")
    violations: list[GradedViolation] = Field(description="The safety rules the episode has broken "
                                              "so far")
    capped_at: float | None = Field(description="The score's cap while a safety rule is broken; "
                                    "null without one")
    grader_version: str

    @classmethod
    def of(cls, graded: StepGraded, reason: str, cap: float) -> PublicGrade:
        """The public view of ``graded`` (a step's ``StepGraded``), whose public reason is
        ``reason``; ``cap`` is the score cap under a violation."""
        return cls(reason=reason,
                   components=[_graded_component(c, graded.violations) for c in graded.components],
                   penalties=[GradedPenalty(rule=p.rule, cost=p.units / UNITS, reason=p.reason)
                              for p in graded.penalties],
                   violations=[GradedViolation(rule=v.rule, reason=v.reason, step=v.step)
                               for v in graded.violations],
                   capped_at=cap if graded.violations else None,
                   grader_version=graded.grader_version)


def _graded_component(component: Component, violations: tuple[Violation, ...]) -> GradedComponent:
    """A component's public view. A text component that a safety rule voids reads "reply: breaks
    a safety rule"; which rule, and why, is public (the grade's violations), so it is said here:
    the violations the component's audit detail lists ("rule: reason" each, read for membership
    only; the detail itself is never shown)."""
    reason = component.public
    if reason == f"{component.name}: {SAFETY_BROKEN}":
        own = [f"{v.rule}: {v.reason}" for v in violations if f"{v.rule}: {v.reason}" in component.detail]
        if own:
            reason += f" ({'; '.join(own)})"
    return GradedComponent(name=component.name, weight=component.weight / UNITS,
                           earned=component.earned / UNITS, reason=reason)


_POLICY_IDS = tuple(PolicyId.allowed())
_ACTION_TYPES = tuple(ActionType.allowed())


def _history_line(record: StepRecord) -> str:
    kinds = "+".join(a.action_type for a in record.actions) or "invalid action"
    outcome = "; ".join(record.changes) if record.changes else "no change"
    error = f" (error: {record.error})" if record.error else ""
    return f"step {record.step}: {kinds} -> {outcome}{error}"


def _action_history(steps: tuple[StepRecord, ...]) -> list[dict[str, Any]]:
    """Every step's actions as JSON, in order; a step whose body normalised to no action (a
    rejected one) shows as one ``invalid`` action."""
    history: list[dict[str, Any]] = []
    for record in steps:
        if record.actions:
            history += [action_json(a) for a in record.actions]
        else:
            history.append({"action_type": "invalid"})
    return history


def observe(state: EpisodeState, catalog: Catalog, reward: float | None = None) -> Observation:
    """Build the observation for ``state``. ``reward`` is the last step's (None after reset).

    Reads the task's public view only (never the answer key). Every list and dict is new, so an
    observation shares nothing mutable with the state or with other observations.
    """
    variant = state.variant
    assert variant is not None, "observe() needs a started episode"
    public = variant.public
    last = state.last_step
    return Observation(
        episode_id=state.episode_id,
        task_id=public.task_id,
        title=public.title,
        difficulty=public.difficulty,
        objective=public.objective,
        ticket_id=public.ticket.ticket_id,
        customer_message=public.ticket.message,
        ticket=public.ticket.model_dump(mode="json"),  # validated into a PublicTicket once, below
        current_priority=state.priority,
        current_queue=state.queue,
        tags=list(state.tags),
        reply_draft=state.reply_draft,
        internal_notes=list(state.notes),
        status=state.status,
        resolution_code=state.resolution_code,
        available_policies=list(_POLICY_IDS),
        available_actions=list(_ACTION_TYPES),
        allowed=ALLOWED,
        account=PublicAccount.of(state.account),
        policies={p: catalog.policy_text(PolicyId(p)) for p, _ in state.policies_viewed},
        history=[_history_line(r) for r in state.steps],
        action_history=_action_history(state.steps),
        last_action=action_json(last.actions[-1]) if last and last.actions else None,
        last_action_error=last.error if last else None,
        step_count=state.step_count,
        max_steps=public.max_steps,
        done=state.done,
        reward=reward,
        conversation=[Message(step=t.step, speaker="agent" if t.speaker == "agent" else "customer",
                              text=t.text) for t in state.conversation],
    )
