"""Solver of the ``account_access`` family (policy account_access, AA-1).

Sign-ins or changes the customer says they did not make are a security incident (urgent, trust
team, sev2, a reset link to the address on file); otherwise a request from the address on file gets
a reset link, and one from any other address gets none: the customer is asked to write from the
address on file.
"""

from __future__ import annotations

import re
from typing import Any

from baseline.plan import Plan, Step, next_action, on_account
from baseline.reader import Reader
from baseline.solvers.replies import SECOND_REQUEST_REPLY, second_request
from domain.observation import Observation

POLICY = "account_access"
NOT_ME = re.compile(r"\b(?:not me|wasn't me|was not me|did not make|didn't make|did not do|"
                    r"didn't do|do not own|don't own|never been to|not mine)\b", re.IGNORECASE)


def decision(t: Reader) -> str:
    """incident, reset or verify: AA-1 applied to the message and the two addresses."""
    if NOT_ME.search(t.message):
        return "incident"
    on_file = t.account.email or t.facts.get("email_on_file") or ""
    return "reset" if on_file.strip().lower() == t.email else "verify"


def act(observation: Observation) -> dict[str, Any]:
    """The next action on an ``account_access`` ticket."""
    t = Reader(observation)
    name = t.first_name
    aside = f" {SECOND_REQUEST_REPLY}" if second_request(t) else ""
    link = on_account(t, {"action_type": "send_password_reset_link"})
    choice = decision(t)
    back: list[Step] = []
    if choice == "incident":
        priority, queue, code = "urgent", "trust_and_safety", "security_incident_opened"
        tags = ["Password", "Security"]
        back = [on_account(t, {"action_type": "escalate_incident", "severity": "sev2"}), link]
        reply = (f"Hi {name},\n\nThank you for telling us, and I am sorry this happened. We have "
                 "opened a security incident, and our security specialists are investigating the "
                 "activity you did not make. I have also sent a password reset link to the email "
                 "address on file, so you can choose a new password and shut out anyone else."
                 f"{aside}\n\nBest regards,\nTrust and Safety")
    elif choice == "reset":
        priority, queue, tags, code = "medium", "account", ["Password"], "awaiting_customer_confirmation"
        back = [link]
        reply = (f"Hi {name},\n\nSorry for the trouble signing in. I have sent a password reset link "
                 "to the email address on your account. It expires in 60 minutes, so please use it "
                 f"soon to choose a new password.{aside}\n\nBest regards,\nAccount Support")
    else:
        priority, queue, tags, code = ("medium", "account", ["Password", "Verification_Required"],
                                       "awaiting_identity_verification")
        reply = (f"Hi {name},\n\nThank you for reaching out, and sorry you are locked out. To keep "
                 "your account safe, we can only act on a login request that comes from the email "
                 "address on file, and this message came from a different address. Please write to "
                 "us from the address on file and we will help you right away."
                 f"{aside}\n\nBest regards,\nAccount Support")
    obs = t.observation
    plan = Plan((
        Step({"action_type": "lookup_policy", "policy_id": POLICY}, POLICY in obs.policies),
        Step({"action_type": "classify_priority", "priority": priority}, bool(obs.current_priority)),
        Step({"action_type": "assign_queue", "queue": queue}, bool(obs.current_queue)),
        *[Step({"action_type": "add_tag", "tag": tag}, tag in obs.tags) for tag in tags],
        *back,
        Step({"action_type": "draft_reply", "reply_text": reply}, bool(obs.reply_draft)),
    ), {"action_type": "resolve_ticket", "resolution_code": code})
    return next_action(plan)
