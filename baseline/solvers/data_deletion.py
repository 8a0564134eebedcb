"""The solver of the ``data_deletion`` family: data requests (DR-1), read from the observation.

DR-1 decides in this order: a request from any address but the one on file is not acted on (nothing
deleted, nothing held: ask for the request from the address on file); an account with an open
billing dispute or chargeback is placed under legal hold and nothing is deleted until the dispute
is closed; otherwise the deletion is scheduled and completes within 30 days. A dispute that was
closed long ago holds nothing back, and a look-alike address is another address.
"""

from __future__ import annotations

import re
from typing import Any

from baseline.plan import Plan, next_action, planned
from baseline.reader import Reader, none_said
from baseline.solvers.casework import triage
from baseline.solvers.replies import reply
from domain.observation import Observation

POLICY = "data_requests"
SETTLED = re.compile(r"\b(closed|resolved|settled|withdrawn)\b", re.IGNORECASE)


def open_dispute(s: Reader) -> bool:
    """Whether the billing disputes fact shows a dispute or chargeback still open."""
    items = [i for i in re.split(r"[;\n]", s.fact("billing_disputes")) if not none_said(i)]
    return any(not SETTLED.search(item) for item in items)


def from_address_on_file(s: Reader) -> bool:
    on_file = s.fact("email_on_file").lower()
    return bool(on_file) and s.email == on_file


def plan(s: Reader) -> Plan:
    if not from_address_on_file(s):
        steps = triage(POLICY, "high", "trust_and_safety", ["GDPR", "Verification_Required"])
        body = ("Thank you for your request. To protect your account, we can only act on a deletion "
                "request that comes from the email address on file, and your message reached us from a "
                "different address, so nothing has been touched yet. Please send the request again from "
                "the address on file and we will pick it up right away.")
        code = "awaiting_identity_verification"
    elif open_dispute(s):
        steps = triage(POLICY, "high", "trust_and_safety", ["GDPR", "Legal_Hold"])
        steps.append({"action_type": "place_legal_hold"})
        body = ("Thank you for your request. Your account still has an open billing dispute, which "
                "places it under a legal hold, so we cannot start the deletion yet. The deletion will "
                "start once the dispute is closed, and it completes within 30 days from then; we will "
                "let you know when it begins.")
        code = "deletion_on_hold"
    else:
        steps = triage(POLICY, "high", "trust_and_safety", ["GDPR"])
        steps.append({"action_type": "schedule_data_deletion"})
        body = ("Thank you for your request. We have scheduled the deletion of your account and the "
                "personal data we hold about you, and it will be completed within 30 days. We will "
                "confirm by email once it is finished.")
        code = "deletion_scheduled"
    steps.append({"action_type": "draft_reply",
                  "reply_text": reply(s.first_name, body, s.message, "Privacy Team")})
    return Plan(planned(s, steps), {"action_type": "resolve_ticket", "resolution_code": code})


def act(observation: Observation) -> dict[str, Any]:
    """The next action on a data deletion ticket."""
    return next_action(plan(Reader(observation)))
