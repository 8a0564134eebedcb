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

from domain import events as ev
from domain.actions import Action
from domain.jsontext import JsonText
from domain.rewards import mode_reward
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
    # reward: what the agent was handed (its episode's reward mode); score: the task score
    error: str | None = None
    reward: float | None = None
    score: float | None = None


@dataclass(frozen=True, slots=True)
class Turn:
    """One message of the conversation with the customer: the step, who wrote it (``agent`` or
    ``customer``), the text, and for a customer reply its kind (``domain.events.REPLY_KINDS``)."""

    step: int
    speaker: str
    text: str
    kind: str | None = None


class TakenAction(BaseModel):
    """One back-office action that changed the account: the step, the action type, the event it
    recorded, and its value where it has one (``amount`` of a refund; the new email or the severity
    in ``value``). Kept in order and never removed, so what was once done stays on the record."""

    model_config = ConfigDict(frozen=True)

    step: int
    action: str
    event: str
    amount: float | None = None
    value: str | None = None

    def describe(self) -> str:
        """``issue_refund $240.00``: the action as the audit names it."""
        if self.amount is not None:
            return f"{self.action} ${self.amount:,.2f}"
        return f"{self.action} {self.value}" if self.value is not None else self.action


class AccountState(BaseModel):
    """The customer's simulated account, as the back-office actions left it.

    Starts from the task (the email address on file and the amount charged, if the ticket names
    one); only back-office events change it. ``taken`` lists those events in order, for graders
    and the audit; the other fields are what the account looks like now."""

    model_config = ConfigDict(frozen=True)

    email: str = ""
    charged: float | None = None
    refunds: tuple[float, ...] = ()
    refund_denied: bool = False
    reset_links_sent: tuple[str, ...] = ()
    deletion_scheduled: bool = False
    legal_hold: bool = False
    fraud_review_open: bool = False
    incident_severity: str | None = None
    taken: tuple[TakenAction, ...] = ()

    @property
    def refunded(self) -> float:
        """Dollars refunded so far (summed in cents, so no float noise)."""
        return sum(round(a * 100) for a in self.refunds) / 100

    @property
    def refundable(self) -> float | None:
        """Dollars of the charge not yet refunded (``None``: the ticket names no charge)."""
        if self.charged is None:
            return None
        return max(0, round(self.charged * 100) - sum(round(a * 100) for a in self.refunds)) / 100


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
    forked_from: ev.ForkOrigin | None = None
    grader_version: str = ""
    """The grader the episode is graded with: its ``EpisodeStarted``'s, else (older logs) its first
    ``StepGraded``'s; empty until one of them says (``graders.versions.version_of`` reads it)."""
    reward_mode: str = "dense"
    """How rewards are handed to the agent (``domain.rewards``); ``rewards`` holds them so."""
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
    account: AccountState = AccountState()
    judge: str = "deterministic"
    reply_verdict: ev.ReplyJudged | None = None
    customer: str = "scripted"
    """Who answers ``message_customer`` (``EpisodeStarted.customer``): ``scripted`` or ``llm``."""
    conversation: tuple[Turn, ...] = ()
    """The messages exchanged with the customer, in order."""
    revealed: tuple[tuple[str, int], ...] = ()
    """Hidden facts the customer revealed: (name, step), in the order revealed."""
    reply_verdict_step: int | None = None
    """The latest LLM judge verdict (or fallback) recorded; the grader uses it only while the
    draft is the text it judged (``graders.llm_verdict``)."""

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

    @property
    def terminated(self) -> bool:
        """Gymnasium's ``terminated``: the ticket reached an end state (resolved or closed)."""
        return self.end_reason in ev.END_STATES

    @property
    def truncated(self) -> bool:
        """Gymnasium's ``truncated``: a limit (the step budget, or a closing from outside a step:
        ``domain.events.CLOSINGS``) cut the episode short."""
        return self.end_reason in ev.LIMITS

    def viewed(self, policy_id: str) -> bool:
        return any(p == policy_id for p, _ in self.policies_viewed)

    def revealed_at(self, fact: str) -> int | None:
        """The step at which the customer revealed hidden fact ``fact`` (None: not yet)."""
        return next((step for name, step in self.revealed if name == fact), None)


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


def _opening_account(variant: TaskVariant) -> AccountState:
    """The account as the task starts it (a task recorded before accounts existed: the ticket's
    customer email, no charge on record)."""
    task = variant.task
    if task.account is None:
        return AccountState(email=task.ticket.customer_email)
    return AccountState(email=task.account.email, charged=task.account.charged)


def _account_changed(state: EpisodeState, change: str, taken: TakenAction,
                     **fields: object) -> EpisodeState:
    """``state`` after a back-office event: the account's ``fields`` changed, the action added to
    its record, ``change`` noted on the step. Notes name the action in its own words (the agent's
    history must not hand it phrases a rubric credits)."""
    account = state.account.model_copy(update={**fields, "taken": (*state.account.taken, taken)})
    return _with(state, account=account, steps=_last_noted(state, change))


def evolve(state: EpisodeState, event: ev.Event) -> EpisodeState:
    """The state after one event. Pure: the same state and event always give the same result."""
    step = state.step_count
    match event:
        case ev.EpisodeStarted():
            return _with(state, episode_id=event.episode_id, variant=event.task,
                         run_id=event.run_id, forked_from=event.forked_from,
                         account=_opening_account(event.task),
                         grader_version=event.grader_version, judge=event.judge,
                         reward_mode=event.reward_mode, customer=event.customer)
        case ev.RefundIssued(amount=amount):
            return _account_changed(state, f"issue_refund: ${amount:,.2f} refunded",
                                    TakenAction(step=step, action="issue_refund", event=event.type,
                                                amount=amount),
                                    refunds=(*state.account.refunds, amount))
        case ev.RefundDenied():
            return _account_changed(state, "deny_refund: request declined",
                                    TakenAction(step=step, action="deny_refund", event=event.type),
                                    refund_denied=True)
        case ev.AccountEmailUpdated(new_email=new):
            return _account_changed(state, f"update_account_email: now {new}",
                                    TakenAction(step=step, action="update_account_email",
                                                event=event.type, value=new),
                                    email=new)
        case ev.PasswordResetLinkSent(email=email):
            return _account_changed(state, f"send_password_reset_link: sent to {email}",
                                    TakenAction(step=step, action="send_password_reset_link",
                                                event=event.type, value=email),
                                    reset_links_sent=(*state.account.reset_links_sent, email))
        case ev.DataDeletionScheduled():
            return _account_changed(state, "schedule_data_deletion: deletion queued",
                                    TakenAction(step=step, action="schedule_data_deletion",
                                                event=event.type),
                                    deletion_scheduled=True)
        case ev.LegalHoldPlaced():
            return _account_changed(state, "place_legal_hold: hold placed",
                                    TakenAction(step=step, action="place_legal_hold", event=event.type),
                                    legal_hold=True)
        case ev.FraudReviewOpened():
            return _account_changed(state, "open_fraud_review: opened",
                                    TakenAction(step=step, action="open_fraud_review",
                                                event=event.type),
                                    fraud_review_open=True)
        case ev.IncidentEscalated(severity=severity):
            return _account_changed(state, f"escalate_incident: {severity.value}",
                                    TakenAction(step=step, action="escalate_incident",
                                                event=event.type, value=severity.value),
                                    incident_severity=severity.value)
        case ev.ActionReceived():
            record = StepRecord(step=event.step, actions=event.actions, raw=event.raw)
            return _with(state, step_count=event.step, steps=(*state.steps, record))
        case ev.PriorityClassified():
            value = event.priority.value
            return _with(state, priority=value, steps=_last_noted(state, f"priority set to {value}"))
        case ev.QueueAssigned():
            value = event.queue.value
            return _with(state, queue=value, steps=_last_noted(state, f"queue set to {value}"))
        case ev.TagAdded():
            tag = event.tag.value
            first = state.first_tag_step if state.first_tag_step is not None else state.step_count
            return _with(state, tags=(*state.tags, tag), first_tag_step=first,
                         steps=_last_noted(state, f"tag {tag} added"))
        case ev.TagRemoved():
            tag = event.tag.value
            return _with(state, tags=tuple(t for t in state.tags if t != tag),
                         steps=_last_noted(state, f"tag {tag} removed"))
        case ev.ReplyDrafted():
            first = state.first_reply_step if state.first_reply_step is not None else state.step_count
            return _with(state, reply_draft=event.text, first_reply_step=first,
                         steps=_last_noted(state, "reply drafted"))
        case ev.InternalNoteAdded():
            return _with(state, notes=(*state.notes, event.note),
                         steps=_last_noted(state, "internal note added"))
        case ev.PolicyLookedUp():
            policy = event.policy_id.value
            return _with(state, policies_viewed=(*state.policies_viewed, (policy, state.step_count)),
                         steps=_last_noted(state, f"policy {policy} looked up"))
        case ev.TicketResolved():
            code = event.resolution_code.value
            return _with(state, status="resolved", resolution_code=code,
                         steps=_last_noted(state, f"ticket resolved ({code})"))
        case ev.TicketClosed():
            closed = event.resolution_code.value if event.resolution_code is not None else None
            return _with(state, status="closed", resolution_code=closed,
                         steps=_last_noted(state, "ticket closed" + (f" ({closed})" if closed else "")))
        case ev.ActionRejected():  # a refusal replaces any earlier error of the step
            last = state.steps[-1]
            return _with(state, steps=_last_replaced(state, replace(last, error=event.reason)))
        case ev.ActionHadNoEffect():
            last = state.steps[-1]
            error = event.reason if last.error is None else f"{last.error}; {event.reason}"
            return _with(state, steps=_last_replaced(state, replace(last, error=error)))
        case ev.EpisodeEnded():
            return _with(state, done=True, end_reason=event.reason)
        case ev.StepGraded():
            threshold = state.variant.task.success_threshold if state.variant is not None else 1.0
            reward = mode_reward(state.reward_mode, event.reward, event.score, event.done, threshold)
            graded = replace(state.steps[-1], reward=reward, score=event.score)
            return _with(state, score=event.score, raw_units=event.raw_units,
                         penalty_units=event.penalty_units, rewards=(*state.rewards, reward),
                         steps=_last_replaced(state, graded),
                         grader_version=state.grader_version or event.grader_version)
        case ev.CustomerMessaged(text=text):
            return _with(state, conversation=(*state.conversation, Turn(step, "agent", text)),
                         steps=_last_noted(state, "message sent to the customer"))
        case ev.CustomerReplied(text=text, revealed=names, kind=kind):
            known = {name for name, _ in state.revealed}
            fresh = tuple((name, step) for name in names if name not in known)
            return _with(state, conversation=(*state.conversation, Turn(step, "customer", text, kind)),
                         revealed=(*state.revealed, *fresh),
                         steps=_last_noted(state, "the customer replied"))
        case ev.ReplyJudged():  # audit only: not a change the agent made, so no step note
            return _with(state, reply_verdict=event, reply_verdict_step=state.step_count)
        case _:
            assert_never(event)


def fold(events: Iterable[ev.Event], state: EpisodeState = EMPTY) -> EpisodeState:
    """Fold events onto ``state`` (an empty episode by default): :func:`evolve`, one by one."""
    return reduce(evolve, events, state)
