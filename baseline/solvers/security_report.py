"""The solver of the ``security_report`` family: security reports (SR-1), from the observation alone.

SR-1 decides on what happened to the account, which the ticket's facts record: the ``reporter``
(the account owner, or an outside security researcher), ``recent_sign_ins`` (a sign-in from a new
device, or only the usual devices) and ``account_changes``. Someone else signed in or changed the
account: a sev1 incident, a reset link to the address on file, urgent. A look-alike email with no
sign-in and no change: no incident and no link, high. A researcher's vulnerability report: sev3,
high. The customer's fear ("have I been hacked?") and the subject line decide nothing.
"""

from __future__ import annotations

from typing import Any

from baseline.plan import next_action
from baseline.reader import Reader
from baseline.solvers.casework import Casework
from domain.observation import Observation

POLICY = "security_reports"


def case_of(t: Reader) -> str:
    """``researcher``, ``account_takeover`` or ``phishing``, from the facts SR-1 names."""
    if "researcher" in t.fact_lower("reporter"):
        return "researcher"
    sign_ins, changes = t.fact_lower("recent_sign_ins"), t.fact_lower("account_changes")
    strange_sign_in = bool(sign_ins) and not sign_ins.startswith(("only", "none", "no ", "not applicable"))
    changed = bool(changes) and not changes.startswith(("none", "no ", "not applicable"))
    return "account_takeover" if strange_sign_in or changed else "phishing"


def _second(t: Reader) -> str:
    if t.says("two-factor", "two factor", "2fa"):
        return ("You also asked about two-factor authentication: you can turn it on under Settings > "
                "Security, and I would recommend doing so.")
    if t.says("second admin", "admin"):
        return ("As for adding a second admin, any current admin can invite one under Settings > "
                "Members and choose the Admin role.")
    return ""


def reply_for(t: Reader, case: str) -> str:
    if case == "account_takeover":
        body = ("Thank you for telling us so quickly. Our records show activity on your account that "
                "did not come from you, so our security team is treating this as an urgent security "
                "incident. I have sent a password reset link to the email address on file; please use "
                "it to choose a new password you have not used anywhere else. If you would like, we "
                "can also send you a record of all access to your account, so you can check "
                "what was done and when.")
    elif case == "phishing":
        body = ("Thank you for checking with us before doing anything. That email did not come from "
                "us, and I have checked your account: there are no sign-ins from new devices and no "
                "changes to it. Please keep in mind that we will never ask for your password by email. "
                "The safest thing now is to delete the message without clicking any of its links.")
    else:
        body = ("Thank you for reporting this to us responsibly. I have passed your findings to our "
                "security team, who will assess the issue, and they will respond to you within 5 "
                "business days. Please keep the details private until they have been in touch.")
    parts = [f"Hi {t.first_name},", "", body]
    second = _second(t)
    if second:
        parts += ["", second]
    parts += ["", "Best regards,", "Trust and Safety"]
    return "\n".join(parts)


def casework(t: Reader) -> Casework:
    case = case_of(t)
    reply = reply_for(t, case)
    if case == "account_takeover":
        return Casework(POLICY, "urgent", "trust_and_safety", ("Security",), reply,
                    {"action_type": "resolve_ticket", "resolution_code": "security_incident_opened"},
                    ({"action_type": "escalate_incident", "severity": "sev1"},
                     {"action_type": "send_password_reset_link"}))
    if case == "researcher":
        return Casework(POLICY, "high", "trust_and_safety", ("Security",), reply,
                    {"action_type": "resolve_ticket", "resolution_code": "security_incident_opened"},
                    ({"action_type": "escalate_incident", "severity": "sev3"},))
    return Casework(POLICY, "high", "trust_and_safety", ("Security",), reply,
                {"action_type": "resolve_ticket", "resolution_code": "no_action_needed"})


def act(observation: Observation) -> dict[str, Any]:
    """The next action on a ``security_report`` ticket."""
    t = Reader(observation)
    return next_action(casework(t).plan(t))
