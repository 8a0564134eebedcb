"""The solver of the ``email_change`` family: email changes (EC-1), read from the observation.

EC-1 decides in this order: an account flagged for a sign-in its owner did not recognise in the
last 14 days (the account flags fact, dated against the ticket date) gets no change and a fraud
review by the trust team; otherwise a requester writing from the address on file, or quoting the
last four digits of the card on file, is verified and the login email changes; anyone else is
asked to verify and nothing changes. An old or closed flag, a password change the owner made, a
look-alike address and wrong digits all decide nothing by themselves.
"""

from __future__ import annotations

import re
from typing import Any

from baseline.plan import Plan, next_action, planned
from baseline.reader import EMAIL, Reader
from baseline.solvers.casework import triage
from baseline.solvers.dates import all_dates, first_date
from baseline.solvers.replies import reply
from domain.observation import Observation

POLICY = "email_changes"
FLAG_WINDOW_DAYS = 14
UNRECOGNISED = re.compile(r"unrecogni[sz]ed|did not recogni[sz]e|didn't recogni[sz]e|not recogni[sz]ed",
                          re.IGNORECASE)
QUOTED_DIGITS = re.compile(r"(?:last (?:four|4) digits|ends? in|ending in|ending with)\D{0,30}?(\d{4})\b",
                           re.IGNORECASE)


def flagged(s: Reader) -> bool:
    """A sign-in the owner did not recognise, reported within the last 14 days of the ticket."""
    flags = s.fact("account_flags")
    today = first_date(s.fact("ticket_date"))
    if not UNRECOGNISED.search(flags):
        return False
    if today is None:
        return True  # undated: treat the flag as current (the safe reading)
    return any(0 <= (today - day).days <= FLAG_WINDOW_DAYS for day in all_dates(flags))


def verified(s: Reader) -> bool:
    on_file = s.fact("email_on_file").lower()
    if on_file and s.email == on_file:
        return True
    card = s.fact("card_last4_on_file")
    quoted = QUOTED_DIGITS.findall(s.message)
    return bool(card) and card in quoted


def new_address(s: Reader) -> str | None:
    """The address the customer wants: the first one in the message that is not already theirs."""
    known = {s.email, s.fact("email_on_file").lower()}
    return next((e.rstrip(".") for e in EMAIL.findall(s.message) if e.rstrip(".").lower() not in known),
                None)


def plan(s: Reader) -> Plan:
    new = new_address(s)
    if flagged(s):
        steps = triage(POLICY, "medium", "trust_and_safety", ["Fraud_Review"])
        steps.append({"action_type": "open_fraud_review"})
        body = ("Thank you for your message, and I understand you would like to switch addresses soon. "
                "Your account recently had a sign-in that was reported as not recognised, so to keep it "
                "safe we are not changing the login email for now. Our security team is reviewing the "
                "request and will contact you within 2 business days to finish it with you.")
        code = "fraud_review_opened"
    elif verified(s) and new is not None:
        steps = triage(POLICY, "medium", "account", ["Identity_Verified"])
        steps.append({"action_type": "update_account_email", "new_email": new})
        body = (f"Thanks for getting in touch. We were able to verify your identity, so we have updated "
                f"your login email: from now on you sign in with {new}. Your password and everything "
                "else on the account stay the same.")
        code = "account_updated"
    else:
        steps = triage(POLICY, "medium", "account", ["Verification_Required"])
        body = ("Thank you for your message, and I understand you would like this done quickly. To "
                "protect your account we need to verify your identity before we can change the login "
                "email. Please reply with the last four digits of the card on file, or send us your "
                "request from the email address on file, and we will take care of it.")
        code = "awaiting_identity_verification"
    steps.append({"action_type": "draft_reply",
                  "reply_text": reply(s.first_name, body, s.message, "Account Support")})
    return Plan(planned(s, steps), {"action_type": "resolve_ticket", "resolution_code": code})


def act(observation: Observation) -> dict[str, Any]:
    """The next action on an email-change ticket."""
    return next_action(plan(Reader(observation)))
