"""Back-office actions: typed input, the rules ``decide`` applies to the simulated account, what the
state and the observation show of it."""

from __future__ import annotations

from typing import Any

import pytest

from domain import events as ev
from domain.actions import (
    InvalidAction,
    IssueRefund,
    UpdateAccountEmail,
    parse_action,
)
from domain.decide import EpisodeFinished, decide, start
from domain.state import EpisodeState, evolve, fold
from domain.tasks import default_catalog
from domain.vocabulary import BACK_OFFICE_ACTIONS, ActionType, Severity
from service import EnvironmentService
from tests.play import play

CATALOG = default_catalog()


def _state(task_id: str, seed: int | None = None) -> EpisodeState:
    return fold([start("ep_bo", CATALOG.variant(task_id, seed))])


def _effects(state: EpisodeState, body: dict[str, Any]) -> list[ev.Event]:
    """The step's events after ``ActionReceived`` (and before any ``EpisodeEnded``)."""
    return [e for e in decide(state, parse_action(body))[1:] if not isinstance(e, ev.EpisodeEnded)]


def _after(state: EpisodeState, *bodies: dict[str, Any]) -> EpisodeState:
    for body in bodies:
        state = fold(decide(state, parse_action(body)), state)
    return state


# ------------------------------------------------------------------------------------ input
def test_every_back_office_action_is_an_action_type() -> None:
    assert set(BACK_OFFICE_ACTIONS) <= set(ActionType.allowed())
    for kind in BACK_OFFICE_ACTIONS:
        assert f"{kind}" in ActionType.allowed()


@pytest.mark.parametrize(("body", "expected"), [
    ({"action_type": "issue_refund", "amount": 240}, IssueRefund(amount=240.0)),
    ({"action_type": "issue_refund", "amount": "129.50"}, IssueRefund(amount=129.5)),
    ({"action_type": "issue_refund", "amount": 0.1 + 0.2}, IssueRefund(amount=0.3)),
    ({"action_type": "update_account_email", "new_email": "me@new.example"},
     UpdateAccountEmail(new_email="me@new.example")),
])
def test_typed_fields_are_read_into_their_models(body: dict[str, Any], expected: Any) -> None:
    assert parse_action(body).actions == (expected,)


def test_severity_is_read_ignoring_case_and_stored_canonically() -> None:
    (action,) = parse_action({"action_type": "escalate_incident", "severity": "SEV1"}).actions
    assert action.model_dump() == {"action_type": "escalate_incident", "severity": Severity.SEV1}


@pytest.mark.parametrize(("body", "field"), [
    ({"action_type": "issue_refund", "amount": 0}, "amount"),
    ({"action_type": "issue_refund", "amount": -5}, "amount"),
    ({"action_type": "issue_refund", "amount": 10.005}, "amount"),
    ({"action_type": "issue_refund", "amount": 5e-324}, "amount"),  # rounds to no cents at all
    ({"action_type": "issue_refund", "amount": 10_000_000}, "amount"),
    ({"action_type": "issue_refund", "amount": "lots"}, "amount"),
    ({"action_type": "issue_refund", "amount": True}, "amount"),
    ({"action_type": "update_account_email", "new_email": "not an email"}, "new_email"),
    ({"action_type": "escalate_incident", "severity": "sev9"}, "severity"),
    ({"action_type": "deny_refund", "reason": "x" * 501}, "reason"),
    ({"action_type": "place_legal_hold", "amount": 5}, "amount"),
])
def test_malformed_back_office_input_is_refused_naming_the_field(body: dict[str, Any],
                                                                 field: str) -> None:
    with pytest.raises(InvalidAction) as info:
        parse_action(body)
    assert info.value.field == field


@pytest.mark.parametrize("kind", ["issue_refund", "update_account_email", "escalate_incident"])
def test_a_missing_required_field_is_a_penalised_step_not_an_error(kind: str) -> None:
    plan = parse_action({"action_type": kind})
    assert plan.actions == () and plan.rejection is not None and plan.rejection[0] == "missing_field"


def test_the_seeds_flat_body_with_nulls_still_parses_as_before() -> None:
    body = {"action_type": "assign_queue", "queue": "Billing", "priority": None, "tag": None,
            "reply_text": None, "note": None, "resolution_code": None, "policy_id": None}
    assert [a.model_dump(mode="json") for a in parse_action(body).actions] == [
        {"action_type": "assign_queue", "queue": "billing"}]
    assert parse_action({"reassign_queue": "billing", "add_tag": "refund"}).dialect == "customersupportenv"


# ------------------------------------------------------------------------------ the account
def test_the_account_starts_from_the_task() -> None:
    refund = _state("task_hard_refund_policy_denial")  # published: $240, 45 days ago
    assert (refund.account.email, refund.account.charged) == ("priya@example.com", 240.0)
    email = _state("task_hard_account_email_change")  # the requester writes from another address
    assert email.account.email == email.task.ticket.facts["email_on_file"] != email.task.ticket.customer_email
    password = _state("task_easy_password")
    assert (password.account.email, password.account.charged) == ("ava@example.com", None)


def test_a_refund_returns_at_most_what_is_left_of_the_charge() -> None:
    state = _state("task_hard_refund_fraud_trap")  # published: $129
    (over,) = _effects(state, {"action_type": "issue_refund", "amount": 129.01})
    assert isinstance(over, ev.ActionRejected) and over.code == "refund_over_charge"
    assert "$129.01" in over.reason and "$129.00" in over.reason
    partial = _after(state, {"action_type": "issue_refund", "amount": 100})
    assert partial.account.refunds == (100.0,) and partial.account.refundable == 29.0
    (rest_over,) = _effects(partial, {"action_type": "issue_refund", "amount": 30})
    assert isinstance(rest_over, ev.ActionRejected) and "$100.00 already refunded" in rest_over.reason
    full = _after(partial, {"action_type": "issue_refund", "amount": 29})
    assert full.account.refunded == 129.0 and full.account.refundable == 0.0


def test_the_same_refund_twice_pays_out_once() -> None:
    state = _after(_state("task_hard_refund_fraud_trap"), {"action_type": "issue_refund", "amount": 50})
    (again,) = _effects(state, {"action_type": "issue_refund", "amount": 50})
    assert isinstance(again, ev.ActionHadNoEffect) and "already issued" in again.reason


def test_a_refund_and_a_denial_exclude_each_other() -> None:
    base = _state("task_hard_refund_policy_denial")
    denied = _after(base, {"action_type": "deny_refund", "reason": "outside the window"})
    assert denied.account.refund_denied
    (refund,) = _effects(denied, {"action_type": "issue_refund", "amount": 10})
    assert isinstance(refund, ev.ActionRejected) and refund.code == "conflicting_decision"
    (again,) = _effects(denied, {"action_type": "deny_refund"})
    assert isinstance(again, ev.ActionHadNoEffect)
    refunded = _after(base, {"action_type": "issue_refund", "amount": 10})
    (deny,) = _effects(refunded, {"action_type": "deny_refund"})
    assert isinstance(deny, ev.ActionRejected) and deny.code == "conflicting_decision"


def test_no_charge_on_record_sets_no_ceiling_from_the_ticket() -> None:
    """A ticket that names no amount (the broken blender) can still be refunded; the answer key,
    not ``decide``, says whether a refund belongs on a ticket."""
    (issued,) = _effects(_state("task_easy_refund_tag"), {"action_type": "issue_refund", "amount": 35})
    assert issued == ev.RefundIssued(35.0)


def test_email_reset_deletion_hold_review_and_incident_rules() -> None:
    state = _state("task_hard_account_email_change")
    on_file = state.account.email
    assert isinstance(_effects(state, {"action_type": "update_account_email",
                                       "new_email": on_file.upper()})[0], ev.ActionHadNoEffect)
    changed = _after(state, {"action_type": "update_account_email", "new_email": "me@new.example"})
    assert changed.account.email == "me@new.example"
    assert changed.account.taken[0].describe() == "update_account_email me@new.example"
    (link,) = _effects(changed, {"action_type": "send_password_reset_link"})
    assert link == ev.PasswordResetLinkSent("me@new.example")  # always to the address on file
    sent = _after(changed, {"action_type": "send_password_reset_link"})
    assert isinstance(_effects(sent, {"action_type": "send_password_reset_link"})[0], ev.ActionHadNoEffect)

    gdpr = _state("task_hard_gdpr_deletion")
    held = _after(gdpr, {"action_type": "place_legal_hold"})
    (deletion,) = _effects(held, {"action_type": "schedule_data_deletion"})
    assert isinstance(deletion, ev.ActionRejected) and deletion.code == "legal_hold"
    assert isinstance(_effects(held, {"action_type": "place_legal_hold"})[0], ev.ActionHadNoEffect)
    queued = _after(gdpr, {"action_type": "schedule_data_deletion"})
    assert queued.account.deletion_scheduled
    assert isinstance(_effects(queued, {"action_type": "schedule_data_deletion"})[0], ev.ActionHadNoEffect)
    (email,) = _effects(queued, {"action_type": "update_account_email", "new_email": "x@y.example"})
    assert isinstance(email, ev.ActionRejected) and email.code == "account_closing"

    fraud = _after(_state("task_hard_refund_fraud_trap"), {"action_type": "open_fraud_review"})
    assert fraud.account.fraud_review_open
    assert isinstance(_effects(fraud, {"action_type": "open_fraud_review"})[0], ev.ActionHadNoEffect)

    outage = _after(_state("task_hard_enterprise_outage"),
                    {"action_type": "escalate_incident", "severity": "sev2"})
    assert isinstance(_effects(outage, {"action_type": "escalate_incident", "severity": "sev2"})[0],
                      ev.ActionHadNoEffect)
    (raised,) = _effects(outage, {"action_type": "escalate_incident", "severity": "sev1"})
    assert raised == ev.IncidentEscalated(Severity.SEV1, Severity.SEV2)


def test_the_account_keeps_a_record_of_each_action_with_its_step() -> None:
    state = _after(_state("task_hard_refund_fraud_trap"), {"action_type": "noop"},
                   {"action_type": "issue_refund", "amount": 20}, {"action_type": "open_fraud_review"})
    assert [(t.step, t.action, t.event, t.amount) for t in state.account.taken] == [
        (2, "issue_refund", "RefundIssued", 20.0), (3, "open_fraud_review", "FraudReviewOpened", None)]
    assert state.steps[1].changes == ("issue_refund: $20.00 refunded",)


def test_back_office_actions_after_the_end_are_refused_as_every_action_is() -> None:
    state = _state("task_easy_refund_tag")
    state = _after(state, {"action_type": "add_tag", "tag": "Refund"})
    state = _after(state, {"reply": "Hi Lena, we are sorry the blender broke. A refund is on its way.",
                           "close_ticket": True})
    assert state.done
    with pytest.raises(EpisodeFinished):
        decide(state, parse_action({"action_type": "issue_refund", "amount": 5}))


def test_an_old_task_without_an_account_starts_from_the_ticket_email() -> None:
    variant = CATALOG.variant("task_hard_refund_policy_denial")
    data = variant.json_form()
    del data["account"]
    for case_key in ("required_actions", "forbidden_actions"):
        del data["expected"][case_key]
    old = ev.upcast(ev.EpisodeStarted.type, ev.EpisodeStarted.version,
                    {**start("ep_old", variant).data, "task": data})
    state = evolve(EpisodeState(), old)
    assert state.account.email == variant.task.ticket.customer_email and state.account.charged is None
    assert state.task is not None and state.task.expected.forbidden_actions == ()


# ----------------------------------------------------------------------------- observation
def test_the_observation_shows_the_account_and_every_action_type(service: EnvironmentService) -> None:
    results = play(service, "task_hard_refund_policy_denial", [
        {"action_type": "issue_refund", "amount": 40},
        {"action_type": "escalate_incident", "severity": "sev3"},
        {"action_type": "issue_refund", "amount": 500},
    ])
    first, _, second, third = (r.observation for r in results)  # reset, then the three steps
    assert first.available_actions == ActionType.allowed()
    assert first.account.model_dump() == {
        "email": "priya@example.com", "charged": 240.0, "refunds": [],
        "refund_request_declined": False, "password_reset_links_sent": 0,
        "data_deletion_queued": False, "legal_hold": False, "fraud_review_open": False,
        "incident_severity": None}
    assert second.account.incident_severity == "sev3" and second.account.refunds == [40.0]
    assert third.account.refunds == [40.0]
    assert third.last_action_error is not None and "$200.00 left" in third.last_action_error
    assert third.history[0] == "step 1: issue_refund -> issue_refund: $40.00 refunded"
