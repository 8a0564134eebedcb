"""``decide``: the rules that turn a received action into events. Pure; no I/O, no clock.

Every rule about what an action *does* lives here; every rule about what it is *worth* lives in
``graders``. A step always starts with ``ActionReceived`` (the action exactly as received, so the
log can be audited), then the effects of each part of the action in order, then ``EpisodeEnded``
when the ticket was resolved or closed or the step budget ran out. An episode that something outside
it stops (a trainer cutting a rollout off, a client gone) is ended by :func:`end`, not by a step.
"""

from __future__ import annotations

from typing import assert_never

from domain import actions as act
from domain import events as ev
from domain.customer import scripted_reply
from domain.state import EpisodeState, fold
from domain.tasks.variant import TaskVariant
from domain.vocabulary import Priority, Queue, Severity

MAX_TAGS = 8
MAX_NOTES = 20


class EpisodeFinished(Exception):
    """The episode already ended; the step is refused and nothing is recorded."""


class EpisodeNotStarted(Exception):
    """Stepping an episode that has no ``EpisodeStarted`` event."""


def start(episode_id: str, variant: TaskVariant, *, run_id: str | None = None,
          forked_from: ev.ForkOrigin | None = None, grader_version: str = "",
          judge: str = "deterministic", reward_mode: str = "dense",
          customer: str = "scripted") -> ev.EpisodeStarted:
    """The first event of every episode: which task and seed, the materialised task itself, the
    grader, the reply judge, the reward mode (``domain.rewards``; checked by the caller) and who
    answers the customer's side of the conversation (``scripted`` or ``llm``)."""
    return ev.EpisodeStarted(
        episode_id=episode_id,
        task_id=variant.task.task_id,
        seed=variant.task.seed,
        task_digest=variant.digest,
        task=variant,
        run_id=run_id,
        forked_from=forked_from,
        grader_version=grader_version,
        judge=judge,
        reward_mode=reward_mode,
        customer=customer,
    )


def scripted_answer(state: EpisodeState, message: str) -> ev.CustomerReplied:
    """The scripted customer's reply (``domain.customer``) to ``message``, sent in ``state`` (the
    state before the message)."""
    assert state.task is not None
    said = scripted_reply(state.task, state.conversation, [name for name, _ in state.revealed],
                          message)
    return ev.CustomerReplied(said.text, said.revealed, said.kind)


def _message(state: EpisodeState, text: str) -> list[ev.Event]:
    """The message, then the scripted customer's reply; an episode whose customer is an LLM gets
    the reply from the service (``service.customer``), recorded in the same step."""
    sent = ev.CustomerMessaged(text)
    if state.customer != "scripted":
        return [sent]
    return [sent, scripted_answer(state, text)]


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


def _finish(state: EpisodeState, action: act.ResolveTicket | act.CloseTicket) -> list[ev.Event]:
    missing = _missing_work(state)
    verb = "resolve" if isinstance(action, act.ResolveTicket) else "close"
    if missing:
        return [ev.ActionRejected("premature_resolution",
                               f"cannot {verb} yet: first " + ", ".join(missing))]
    if isinstance(action, act.ResolveTicket):
        return [ev.TicketResolved(action.resolution_code), ev.EpisodeEnded("resolved")]
    return [ev.TicketClosed(action.resolution_code), ev.EpisodeEnded("closed")]


def _refund(state: EpisodeState, amount: float) -> list[ev.Event]:
    """A refund returns at most what the account shows was charged and not yet refunded; the same
    refund twice is one refund (an agent retrying must not pay out twice); a declined request stays
    declined."""
    account = state.account
    if account.refund_denied:
        return [ev.ActionRejected("conflicting_decision",
                               "the refund request was already declined; it cannot also be refunded")]
    if amount in account.refunds:
        return [ev.ActionHadNoEffect(f"a refund of ${amount:,.2f} was already issued")]
    left = account.refundable
    if left is not None and amount > left:
        charged = account.charged
        assert charged is not None
        already = f" (${account.refunded:,.2f} already refunded)" if account.refunds else ""
        return [ev.ActionRejected("refund_over_charge",
                               f"a refund of ${amount:,.2f} is more than the ${left:,.2f} left of "
                               f"the ${charged:,.2f} charged{already}")]
    return [ev.RefundIssued(amount)]


def _back_office(state: EpisodeState, action: act.BackOfficeAction) -> list[ev.Event]:
    """Events for a back-office action: each changes the account once; repeating it changes
    nothing; one that contradicts a decision already recorded on the account is refused."""
    account = state.account
    match action:
        case act.IssueRefund(amount=amount):
            return _refund(state, amount)
        case act.DenyRefund(reason=reason):
            if account.refunds:
                return [ev.ActionRejected("conflicting_decision",
                                       f"${account.refunded:,.2f} was already refunded; the request "
                                       "cannot also be declined")]
            if account.refund_denied:
                return [ev.ActionHadNoEffect("the refund request is already declined")]
            return [ev.RefundDenied(reason)]
        case act.UpdateAccountEmail(new_email=new):
            if new.lower() == account.email.lower():
                return [ev.ActionHadNoEffect(f"the account email is already {account.email}")]
            if account.deletion_scheduled:
                return [ev.ActionRejected("account_closing",
                                       "the account is scheduled for deletion; its email cannot change")]
            return [ev.AccountEmailUpdated(account.email, new)]
        case act.SendPasswordResetLink():
            if account.email in account.reset_links_sent:
                return [ev.ActionHadNoEffect(f"a reset link was already sent to {account.email}")]
            return [ev.PasswordResetLinkSent(account.email)]
        case act.ScheduleDataDeletion():
            if account.deletion_scheduled:
                return [ev.ActionHadNoEffect("the account's deletion is already queued")]
            if account.legal_hold:
                return [ev.ActionRejected("legal_hold",
                                       "the account is under legal hold; its data cannot be deleted")]
            return [ev.DataDeletionScheduled()]
        case act.PlaceLegalHold():
            if account.legal_hold:
                return [ev.ActionHadNoEffect("the account is already under legal hold")]
            return [ev.LegalHoldPlaced()]
        case act.OpenFraudReview():
            if account.fraud_review_open:
                return [ev.ActionHadNoEffect("a fraud review is already open")]
            return [ev.FraudReviewOpened()]
        case act.EscalateIncident(severity=severity):
            if account.incident_severity == severity.value:
                return [ev.ActionHadNoEffect(f"the incident is already escalated at {severity.value}")]
            previous = account.incident_severity
            return [ev.IncidentEscalated(severity, Severity(previous) if previous is not None else None)]
        case _:
            assert_never(action)


def _effects(state: EpisodeState, action: act.Action) -> list[ev.Event]:
    """Events for one normalised action against the current state."""
    match action:
        case act.ClassifyPriority(priority=priority):
            if state.priority == priority.value:
                return [ev.ActionHadNoEffect(f"priority is already {priority.value}")]
            previous = Priority(state.priority) if state.priority is not None else None
            return [ev.PriorityClassified(priority, previous)]
        case act.AssignQueue(queue=queue):
            if state.queue == queue.value:
                return [ev.ActionHadNoEffect(f"queue is already {queue.value}")]
            return [ev.QueueAssigned(queue, Queue(state.queue) if state.queue is not None else None)]
        case act.AddTag(tag=tag):
            if tag.value in state.tags:
                return [ev.ActionHadNoEffect(f"tag {tag.value} is already on the ticket")]
            if len(state.tags) >= MAX_TAGS:
                return [ev.ActionRejected("limit_reached", f"a ticket holds at most {MAX_TAGS} tags")]
            return [ev.TagAdded(tag)]
        case act.RemoveTag(tag=tag):
            if tag.value not in state.tags:
                return [ev.ActionHadNoEffect(f"tag {tag.value} is not on the ticket")]
            return [ev.TagRemoved(tag)]
        case act.DraftReply(reply_text=text):
            if state.reply_draft == text:
                return [ev.ActionHadNoEffect("the reply draft already has this text")]
            return [ev.ReplyDrafted(text)]
        case act.AddInternalNote(note=note):
            if note in state.notes:
                return [ev.ActionHadNoEffect("this internal note was already added")]
            if len(state.notes) >= MAX_NOTES:
                return [ev.ActionRejected("limit_reached", f"a ticket holds at most {MAX_NOTES} notes")]
            return [ev.InternalNoteAdded(note)]
        case act.LookupPolicy(policy_id=policy):
            if state.viewed(policy.value):
                return [ev.ActionHadNoEffect(f"policy {policy.value} is already shown in the observation")]
            return [ev.PolicyLookedUp(policy)]
        case act.ResolveTicket() | act.CloseTicket():
            return _finish(state, action)
        case act.Noop():
            return []
        case act.MessageCustomer(message=text):
            return _message(state, text)
        case (act.IssueRefund() | act.DenyRefund() | act.UpdateAccountEmail()
              | act.SendPasswordResetLink() | act.ScheduleDataDeletion() | act.PlaceLegalHold()
              | act.OpenFraudReview() | act.EscalateIncident()):
            return _back_office(state, action)
        case _:
            assert_never(action)


def decide(state: EpisodeState, action: act.ActionPlan) -> list[ev.Event]:
    """The events one step produces: ``ActionReceived``, the effects of each part of the action,
    and ``EpisodeEnded`` when the ticket was resolved or closed or the step budget ran out.

    Each part of a combined action acts on the ticket as the earlier parts left it; the first
    acts on ``state`` (``ActionReceived`` changes nothing the rules read). Raises
    :class:`EpisodeNotStarted` before a reset and :class:`EpisodeFinished` after the end.
    """
    if not state.started:
        raise EpisodeNotStarted("the episode has not been reset")
    if state.done:
        raise EpisodeFinished(
            f"episode {state.episode_id} has ended ({state.end_reason}); call reset for a new one"
        )
    assert state.task is not None
    step = state.step_count + 1
    out: list[ev.Event] = [ev.ActionReceived(step, action.raw, action.actions, action.dialect)]
    if action.rejection is not None:
        code, reason = action.rejection
        out.append(ev.ActionRejected(code, reason))
    else:
        for index, part in enumerate(action.actions):
            current = fold(out, state) if index else state
            effects = _effects(current, part)
            out += effects
            if _ends(effects):
                break
    if not _ends(out) and step >= state.task.max_steps:
        out.append(ev.EpisodeEnded("max_steps"))
    return out


class UnknownClosing(ValueError):
    """An episode ended from outside a step with a reason that is not a closing's."""


def end(state: EpisodeState, reason: str) -> list[ev.Event]:
    """The events that end an open episode from outside a step (a *closing*): ``EpisodeEnded``
    with ``reason``, one of :data:`domain.events.CLOSINGS`, each a limit.

    Why a record of its own and not a step: nothing was done to the ticket, so there is no action
    to receive, nothing to grade and nothing to pay; the episode keeps the score its steps earned,
    as one that ran out of steps does, and the log says why it stopped. Raises
    :class:`UnknownClosing` for another reason, :class:`EpisodeNotStarted` before a reset and
    :class:`EpisodeFinished` once the episode has ended (a second closing changes nothing, so it
    is refused rather than recorded)."""
    if reason not in ev.CLOSINGS:
        raise UnknownClosing(f"an episode is ended from outside a step as one of "
                             f"{', '.join(sorted(ev.CLOSINGS))}, not {reason!r}")
    if not state.started:
        raise EpisodeNotStarted("the episode has not been reset")
    if state.done:
        raise EpisodeFinished(f"episode {state.episode_id} has already ended ({state.end_reason}); "
                              "there is nothing to end")
    return [ev.EpisodeEnded(reason)]


def _ends(events: list[ev.Event]) -> bool:
    return any(isinstance(e, ev.EpisodeEnded) for e in events)
