"""The solver of the ``shipping_loss`` family: shipping claims (SC-1), read from the observation.

SC-1 decides in this order: a customer with three or more refunds in the last 90 days is not
refunded by support (a fraud review by the trust team, a kind reply, no accusation); a parcel still
in transit before its estimated delivery date is not lost (refund nothing, give the date, ask the
customer to write back two days after it); a parcel with no tracking update for 7 days past its
estimated delivery date is lost (refunded in full). Every case gets an internal note with the
tracking status and the number of recent refunds. What the customer calls the parcel ("lost",
"never arrived") decides nothing: the dates do.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from baseline.plan import Plan, next_action, planned
from baseline.reader import Reader
from baseline.solvers.casework import triage
from baseline.solvers.dates import all_dates, first_date, month_day_year
from baseline.solvers.replies import money, reply
from domain.observation import Observation

POLICY = "shipping_claims"
REFUND_LIMIT = 3
LOST_AFTER_DAYS = 7


def recent_refunds(s: Reader) -> int:
    found = re.search(r"\d+", s.fact("refunds_last_90_days"))
    return int(found.group()) if found else 0


def in_transit(s: Reader) -> bool:
    """Before its estimated delivery date (or undated and still moving): not lost yet."""
    today, eta = first_date(s.fact("ticket_date")), first_date(s.fact("estimated_delivery"))
    if today is None or eta is None:
        return "no tracking update" not in s.fact("tracking").lower()
    return today < eta


def last_scan(s: Reader) -> dt.date | None:
    dates = all_dates(s.fact("tracking"))
    return max(dates) if dates else None


def plan(s: Reader) -> Plan:
    count = recent_refunds(s)
    order = s.fact("order_id") or "your order"
    tracking = s.fact("tracking") or "no tracking information"
    eta = first_date(s.fact("estimated_delivery"))
    eta_text = month_day_year(eta) if eta else "the estimated delivery date"
    refunds = f"Customer has {count} refund{'s' if count != 1 else ''} in the last 90 days"
    if count >= REFUND_LIMIT:
        steps = triage(POLICY, "medium", "trust_and_safety", ["Fraud_Review"])
        steps.append({"action_type": "open_fraud_review"})
        status = ("the parcel is still in transit" if in_transit(s)
                  else "there has been no tracking update since the last scan")
        note = (f"Tracking for {order}: {tracking}; {status}. {refunds}, at or over the SC-1 limit of "
                f"{REFUND_LIMIT}: opened a fraud review; no refund by support.")
        body = (f"I am sorry your order {order} has not reached you yet. A specialist team will review "
                "your claim and get back to you within 2 business days with the outcome. Thank you for "
                "your patience while they take a look.")
        code = "fraud_review_opened"
    elif in_transit(s):
        steps = triage(POLICY, "medium", "billing", ["Shipping"])
        note = (f"Tracking for {order}: {tracking}. The parcel is still in transit before its estimated "
                f"delivery date of {eta_text}. {refunds}. Nothing refunded per SC-1; the customer "
                "writes back if it is late.")
        after = f" ({month_day_year(eta + dt.timedelta(days=2))})" if eta else ""
        body = (f"I understand waiting for a parcel is frustrating. I checked the tracking for order "
                f"{order}: it is still in transit and on schedule, with an estimated delivery date of "
                f"{eta_text}. If it has not arrived two days after that date{after}, please write back "
                "to us and we will sort it out.")
        code = "awaiting_customer_confirmation"
    else:
        steps = triage(POLICY, "medium", "billing", ["Refund_Approved"])
        amount = s.charged
        if amount is not None:
            steps.append({"action_type": "issue_refund", "amount": amount})
        scan = last_scan(s)
        since = f" since {scan.isoformat()}" if scan else ""
        note = (f"Tracking for {order}: no tracking update{since}, more than {LOST_AFTER_DAYS} days past "
                f"the estimated delivery date ({eta_text}), so the parcel is lost. {refunds}. Refunded "
                f"in full per SC-1.")
        shown = f" of {money(amount)}" if amount is not None else ""
        body = (f"I am sorry your order {order} never arrived. Its tracking has not moved for well over "
                f"a week past the estimated delivery date, so we treat the parcel as lost and have "
                f"issued a full refund{shown} to your original payment method.")
        code = "refund_issued"
    steps.append({"action_type": "add_internal_note", "note": note})
    steps.append({"action_type": "draft_reply",
                  "reply_text": reply(s.first_name, body, s.message, "Support")})
    return Plan(planned(s, steps), {"action_type": "resolve_ticket", "resolution_code": code})


def act(observation: Observation) -> dict[str, Any]:
    """The next action on a missing-parcel ticket."""
    return next_action(plan(Reader(observation)))
