"""The solver of the ``outage`` family: incident response (IR-1), from the observation alone.

IR-1 decides on three facts of the ticket: how many of the account's users are affected
(``affected_users``: "all 12 of 12 users", "5 of 15 users", "1 of 6 users (only the reporter)"),
what fails (``what_fails``: everything, or one feature while "every other feature works") and the
``status_page``. Down for every user: a sev1 incident, urgent. A feature degraded (slow, or failing
for some users): sev2, high. Only one user, with every system operational: no incident, medium,
tag Bug, troubleshooting steps. The subject line and the customer's tone decide nothing.
"""

from __future__ import annotations

import re
from typing import Any

from baseline.plan import next_action
from baseline.reader import Reader
from baseline.solvers.casework import Casework
from domain.observation import Observation

POLICY = "incident_response"


def case_of(t: Reader) -> str:
    """``all_down``, ``degraded`` or ``single_user``, from the facts IR-1 names."""
    users, fails = t.fact_lower("affected_users"), t.fact_lower("what_fails")
    status = t.fact_lower("status_page")
    counted = re.search(r"(\d+)\s+of\s+(\d+)", users)
    affected, total = (int(counted.group(1)), int(counted.group(2))) if counted else (0, 0)
    one_user = affected == 1 or "only the reporter" in users
    if one_user and "operational" in status and "degraded" not in status and "outage" not in status:
        return "single_user"
    everyone = (counted is not None and affected == total) or users.startswith("all")
    one_feature = "every other feature works" in fails or "other features" in fails
    if everyone and not one_feature:
        return "all_down"
    return "degraded"


def _second(t: Reader) -> str:
    """A sentence answering the customer's unrelated second question, if they asked one."""
    if t.says("invoice"):
        return ("As for your other question, past invoices can be downloaded any time under "
                "Settings > Billing.")
    if t.says("dark mode"):
        return ("On dark mode: it is not available yet, and I have passed your interest on to our "
                "product team.")
    return ""


def reply_for(t: Reader, case: str) -> str:
    hello = f"Hi {t.first_name},"
    second = _second(t)
    if case == "all_down":
        body = ("Thank you for letting us know, and I am sorry your whole team is blocked. We have "
                "escalated this as a major incident and our on-call engineers are working on it "
                "right now. We will send you a status update every 15 minutes until the service is "
                "available again for all of your users.")
    elif case == "degraded":
        what = t.fact_lower("what_fails").split(";")[0].strip() or "the affected feature"
        body = (f"Thank you for reporting this. We can see that {what}, while the rest of the "
                "product keeps working, so we have escalated it as an incident to our engineers. "
                "We will keep you posted with a status update every hour until it works as it "
                "should again.")
    else:
        body = ("Thank you for the details. Our status page shows every system operational, and "
                "the other people on your account are working normally, so this looks specific to "
                "your own session. Please clear your browser cache, then sign out and sign back in. "
                "If the problem is still there after that, reply to this message and our engineering "
                "team will investigate it with you.")
    parts = [hello, "", body]
    if second:
        parts += ["", second]
    parts += ["", "Best regards,", "Support"]
    return "\n".join(parts)


def casework(t: Reader) -> Casework:
    case = case_of(t)
    reply = reply_for(t, case)
    if case == "all_down":
        return Casework(POLICY, "urgent", "technical", ("Outage",), reply,
                    {"action_type": "resolve_ticket", "resolution_code": "incident_escalated"},
                    ({"action_type": "escalate_incident", "severity": "sev1"},))
    if case == "degraded":
        return Casework(POLICY, "high", "technical", ("Outage",), reply,
                    {"action_type": "resolve_ticket", "resolution_code": "incident_escalated"},
                    ({"action_type": "escalate_incident", "severity": "sev2"},))
    return Casework(POLICY, "medium", "technical", ("Bug",), reply,
                {"action_type": "resolve_ticket", "resolution_code": "engineering_investigation"})


def act(observation: Observation) -> dict[str, Any]:
    """The next action on an ``outage`` ticket."""
    t = Reader(observation)
    return next_action(casework(t).plan(t))
