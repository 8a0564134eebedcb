"""The solver of the ``complaint`` family: complaints (CM-1), from the observation alone.

CM-1 decides on the refund the ticket's facts record (``refund_on_record``) and the
``ticket_date``. A refund approved but never paid is issued now, for the approved amount. A refund
paid less than 7 business days before the ticket is not paid again: the customer is told the date
it was paid and that banks take up to 7 business days. Anything else (no refund on record, a refund
paid longer ago, a complaint about service) goes to the escalations team with a holding reply.
Every reply apologises. Business days, not calendar days: a refund paid 8 days ago over a weekend
is still on its way.
"""

from __future__ import annotations

import re
from typing import Any

from baseline.plan import next_action
from baseline.reader import Reader
from baseline.solvers.casework import Casework
from baseline.solvers.dates import business_days, day_month_year, first_date
from domain.observation import Observation

POLICY = "complaints"
BANK_DAYS = 7


def case_of(t: Reader) -> str:
    """``refund_unpaid``, ``refund_in_transit`` or ``other``."""
    record = t.fact_lower("refund_on_record")
    if "approved" in record and "not paid" in record:
        return "refund_unpaid"
    paid = re.search(r"paid on (\d{4}-\d{2}-\d{2})", record)
    today = first_date(t.fact_lower("ticket_date"))
    if paid and today is not None:
        day = first_date(paid.group(1))
        if day is not None and business_days(day, today) < BANK_DAYS:
            return "refund_in_transit"
    return "other"


def _amount(t: Reader) -> float | None:
    found = re.search(r"\$(\d+(?:\.\d{1,2})?)", t.fact_lower("refund_on_record"))
    return float(found.group(1)) if found else None


def _money(amount: float | None) -> str:
    if amount is None:
        return "the approved amount"
    return f"${amount:,.0f}" if amount == int(amount) else f"${amount:,.2f}"


def _second(t: Reader) -> str:
    if t.says("account manager"):
        return "I have also asked our team to send you the name of your account manager."
    if t.says("export"):
        return ("As for exporting your data: open any project, choose Export data from its menu, and "
                "you can download everything as a CSV file.")
    return ""


def reply_for(t: Reader, case: str) -> str:
    record = t.fact_lower("refund_on_record")
    day = first_date(record)
    when = day_month_year(day) if day else "the date on our records"
    amount = _money(_amount(t))
    if case == "refund_unpaid":
        body = (f"I am truly sorry. You were promised this money and it should have reached you long "
                f"ago. I have now issued the refund of {amount} that was approved on {when}; it goes "
                "back to your original payment method, and you should see it within 5-7 business "
                "days.")
    elif case == "refund_in_transit":
        body = (f"I am sorry for the worry this has caused. Our records show that the payment of "
                f"{amount} left us on {when} and went to the card on file. Banks can take up to 7 "
                "business days to show it on your statement, so it should appear very soon. Could "
                "you let us know once you can see it?")
    else:
        body = ("I am very sorry about your experience, and I understand why you are upset. I have "
                "passed your complaint to our escalations team, and a specialist will follow up with "
                "you personally within 24 hours.")
    parts = [f"Hi {t.first_name},", "", body]
    second = _second(t)
    if second:
        parts += ["", second]
    parts += ["", "Kind regards,", "Customer Care"]
    return "\n".join(parts)


def casework(t: Reader) -> Casework:
    case = case_of(t)
    reply = reply_for(t, case)
    if case == "refund_unpaid":
        amount = _amount(t)
        refund = ({"action_type": "issue_refund", "amount": amount},) if amount is not None else ()
        return Casework(POLICY, "high", "billing", ("Angry_Customer",), reply,
                    {"action_type": "resolve_ticket", "resolution_code": "refund_issued"}, refund)
    if case == "refund_in_transit":
        return Casework(POLICY, "high", "billing", ("Angry_Customer",), reply,
                    {"action_type": "resolve_ticket", "resolution_code": "awaiting_customer_confirmation"})
    return Casework(POLICY, "high", "escalations", ("Angry_Customer", "Escalated"), reply,
                {"action_type": "resolve_ticket", "resolution_code": "escalated_to_specialist"})


def act(observation: Observation) -> dict[str, Any]:
    """The next action on a ``complaint`` ticket."""
    t = Reader(observation)
    return next_action(casework(t).plan(t))
