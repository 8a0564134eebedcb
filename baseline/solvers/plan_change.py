"""The solver of the ``plan_change`` family: plan changes (PC-1), from the observation alone.

PC-1 decides on what the customer asks (a downgrade, or a cancellation) and, for a cancellation, on
how long after the annual renewal it comes: the ticket's ``last_annual_renewal`` and
``ticket_date`` facts. A downgrade refunds nothing and starts at the next renewal. A cancellation
within 14 days of the renewal is refunded in full (``renewal_amount``); a later one is declined and
the plan stays active until the end of the paid year. The subject line ("Cancel subscription" on a
downgrade, "Downgrade" on a cancellation) decides nothing.
"""

from __future__ import annotations

import re
from typing import Any

from baseline.plan import next_action
from baseline.reader import Reader
from baseline.solvers.casework import Casework
from baseline.solvers.dates import day_month_year, first_date
from domain.observation import Observation

POLICY = "plan_changes"
WINDOW_DAYS = 14


def case_of(t: Reader) -> str:
    """``downgrade``, ``cancel_refund`` or ``cancel_late``."""
    if not t.says("cancel", "cancelled", "cancellation"):
        return "downgrade"
    renewal, today = first_date(t.fact_lower("last_annual_renewal")), first_date(t.fact_lower("ticket_date"))
    if renewal is not None and today is not None and (today - renewal).days <= WINDOW_DAYS:
        return "cancel_refund"
    return "cancel_late"


def _amount(t: Reader) -> float | None:
    found = re.search(r"(\d+(?:\.\d{1,2})?)", t.fact_lower("renewal_amount"))
    if found:
        return float(found.group(1))
    return t.charged


def _money(amount: float | None) -> str:
    if amount is None:
        return "the renewal amount"
    return f"${amount:,.0f}" if amount == int(amount) else f"${amount:,.2f}"


def _plan_names(t: Reader) -> tuple[str, str]:
    current = t.facts.get("current_plan", "").split(",")[0].strip() or "current"
    lower = re.search(r"\bto (?:the cheaper )?([A-Z]\w*(?: [A-Z]\w*)*)", t.message)
    return current, lower.group(1) if lower else "the smaller plan"


def _second(t: Reader) -> str:
    if t.says("invoice") and t.says("copy"):
        return "You can download a copy of any of your invoices under Settings > Billing > Invoices."
    if t.says("billing address", "address"):
        return ("You can update the billing address printed on your future bills yourself under Settings > "
                "Billing > Company details.")
    return ""


def reply_for(t: Reader, case: str, amount: float | None) -> str:
    current, lower = _plan_names(t)
    renewal = first_date(t.fact_lower("last_annual_renewal"))
    renewed = day_month_year(renewal) if renewal else "your last renewal"
    if case == "downgrade":
        body = (f"Thanks for getting in touch. You can make this change yourself: open Settings > "
                f"Billing, choose Change plan and select {lower}. Your {current} plan stays in place "
                f"until your next renewal date, and {lower} starts from that renewal, so nothing on "
                "your bill changes before then.")
    elif case == "cancel_refund":
        body = (f"I have cancelled your {current} subscription. Because you asked within 14 days of "
                f"the annual renewal on {renewed}, I have also issued a full refund of "
                f"{_money(amount)} to your original payment method.")
    else:
        body = (f"I have cancelled your {current} subscription, so it will not renew again. Your "
                f"annual renewal was on {renewed}, which is more than 14 days ago, so I am unable to "
                "refund the renewal under our plan change policy. Your plan stays active until the "
                "end of the paid year, and your team can keep using it until then.")
    parts = [f"Hi {t.first_name},", "", body]
    second = _second(t)
    if second:
        parts += ["", second]
    parts += ["", "Best regards,", "Billing Support"]
    return "\n".join(parts)


def casework(t: Reader) -> Casework:
    case = case_of(t)
    amount = _amount(t)
    reply = reply_for(t, case, amount)
    tags = ("Plan_Change",)
    if case == "downgrade":
        return Casework(POLICY, "low", "billing", tags, reply,
                    {"action_type": "resolve_ticket", "resolution_code": "resolved_with_documentation"})
    if case == "cancel_refund":
        refund = ({"action_type": "issue_refund", "amount": amount},) if amount is not None else ()
        return Casework(POLICY, "low", "billing", tags, reply,
                    {"action_type": "resolve_ticket", "resolution_code": "refund_issued"}, refund)
    return Casework(POLICY, "low", "billing", tags, reply,
                {"action_type": "close_ticket", "resolution_code": "refund_denied"},
                ({"action_type": "deny_refund",
                  "reason": "cancelled more than 14 days after the annual renewal (PC-1)"},))


def act(observation: Observation) -> dict[str, Any]:
    """The next action on a ``plan_change`` ticket."""
    t = Reader(observation)
    return next_action(casework(t).plan(t))
