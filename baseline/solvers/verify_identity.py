"""Solver of the ``verify_identity`` family (policy email_changes, EC-1).

The requester asks to change the login email but writes from an address that is not the one on
file, so EC-1 verifies them only by the last four digits of the card on file, which the ticket
does not give. The first move is to ask for them (``message_customer``); then EC-1 decides: an
account flagged for sign-ins its owner did not recognise in the last 14 days goes to fraud review
whatever the digits; digits that match the card on file make the change; wrong digits change
nothing. Reads only the observation.
"""

from __future__ import annotations

import re
from typing import Any

from baseline.plan import Plan, Step, next_action, on_account, planned
from baseline.reader import EMAIL, Reader
from baseline.solvers.casework import triage
from baseline.solvers.replies import ACKNOWLEDGE, aside
from domain.observation import Observation

POLICY = "email_changes"
DIGITS = re.compile(r"\b(\d{4})\b")
DAYS_AGO = re.compile(r"(\d+) days? ago")


def quoted_digits(replies: list[str]) -> str | None:
    """The four digits the customer quoted, from the latest reply that has them."""
    for text in reversed(replies):
        found = DIGITS.findall(text)
        if found:
            return str(found[-1])
    return None


def flagged(flags: str) -> bool:
    """EC-1: a sign-in the owner did not recognise, in the last 14 days."""
    text = flags.lower()
    if "unrecognised" not in text and "unrecognized" not in text:
        return False
    if "confirmed it was them" in text:
        return False
    days = DAYS_AGO.search(text)
    return days is None or int(days.group(1)) <= 14


def new_address(message: str, requester: str) -> str | None:
    """The address the customer wants as login email (the one in the message that is not theirs)."""
    found = [e.rstrip(".") for e in EMAIL.findall(message) if e.rstrip(".") != requester]
    return found[0] if found else None


def act(observation: Observation) -> dict[str, Any]:
    """The next action for an email change requested from another address."""
    t = Reader(observation)
    first = t.first_name
    ticket = observation.ticket
    digits = quoted_digits(t.customer_replies())
    if digits is None and t.questions_asked() < 2:
        return {"action_type": "message_customer", "message": (
            f"Hi {first}, to verify that you own the account, could you send me the last four "
            "digits of the card on file?")}
    facts = ticket.facts
    new = new_address(ticket.message, ticket.customer_email)
    if flagged(facts.get("account_flags", "")):
        case = "flagged"
    elif digits is not None and digits == facts.get("card_last4_on_file") and new is not None:
        case = "verified"
    else:
        case = "not_verified"
    queue = "trust_and_safety" if case == "flagged" else "account"
    tags = {"flagged": ["Fraud_Review"], "verified": ["Identity_Verified"],
            "not_verified": ["Verification_Required"]}[case]
    obs, account = t.observation, t.account
    back: list[Step] = []
    if case == "flagged":
        back.append(on_account(t, {"action_type": "open_fraud_review"}))
    if case == "verified" and new is not None:
        back.append(Step({"action_type": "update_account_email", "new_email": new}, account.email == new))
    ack = ACKNOWLEDGE if aside(t) else ""
    code = {"flagged": "fraud_review_opened", "verified": "account_updated",
            "not_verified": "awaiting_identity_verification"}[case]
    return next_action(Plan((
        *planned(t, triage(POLICY, "medium", queue, tags)),
        *back,
        Step({"action_type": "draft_reply", "reply_text": _reply(case, first, new, ack)},
             obs.reply_draft is not None),
        Step({"action_type": "resolve_ticket", "resolution_code": code}, t.took_kind("resolve_ticket")),
    ), {"action_type": "noop"}))


def _reply(case: str, first: str, new: str | None, ack: str) -> str:
    if case == "flagged":
        return (f"Hi {first}, thank you for your message. To protect your account, our security "
                "team will review this request and contact you within 2 business days. "
                f"{ack}Best regards, Account Support")
    if case == "verified":
        return (f"Hi {first}, thanks for confirming your identity. I have updated your login "
                f"email, so your login email is now {new}. You can sign in with it right away. "
                f"{ack}Best regards, Account Support")
    return (f"Hi {first}, thank you for your reply. I'm sorry, but the digits you gave do not match "
            "our records, so I could not verify your identity and nothing on the account has "
            "changed. To complete the verification, please send the last four digits of the card "
            f"on file, or write to us from the email address on file. {ack}Best regards, Account "
            "Support")
