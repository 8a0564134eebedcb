"""Solver of the ``missing_order`` family (policy shipping_claims, SC-1).

The ticket says a parcel never arrived but not which order; the order number and its tracking are
known only to the customer. So the first move is to ask for them (``message_customer``), then to
decide from the reply and the ticket facts, as SC-1 says: three or more refunds in the last 90 days
go to fraud review; otherwise a parcel still in transit is not lost (tell the customer the estimated
delivery date), and one with no tracking update for 7 days past its estimated delivery is lost
(refund in full). Reads only the observation.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any

from baseline.plan import Plan, Step, next_action, on_account, planned
from baseline.reader import Reader
from baseline.solvers.casework import triage
from baseline.solvers.replies import ACKNOWLEDGE, aside
from domain.observation import Observation

POLICY = "shipping_claims"
ORDER = re.compile(r"\b([A-Z]{2,}-\d+)\b")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Tracking:
    """What the customer's reply says about the order."""

    order: str
    status: str  # "in transit" or "no update"
    eta: str
    last_update: str | None


def read_tracking(replies: list[str]) -> Tracking | None:
    """The order and tracking the customer gave, from the first reply that names an order."""
    for text in replies:
        order = ORDER.search(text)
        if order is None:
            continue
        dates = DATE.findall(text)
        lowered = text.lower()
        if "in transit" in lowered and dates:
            return Tracking(order.group(1), "in transit", dates[-1], None)
        if "no tracking update" in lowered and len(dates) >= 2:
            return Tracking(order.group(1), "no update", dates[1], dates[0])
    return None


def _lost(tracking: Tracking, ticket_date: str) -> bool:
    """SC-1: no tracking update for 7 days past the estimated delivery date."""
    if tracking.status != "no update":
        return False
    eta = dt.date.fromisoformat(tracking.eta)
    return dt.date.fromisoformat(ticket_date) >= eta + dt.timedelta(days=7)


def _refunds(count: int) -> str:
    return f"{count} refund" if count == 1 else f"{count} refunds"


def act(observation: Observation) -> dict[str, Any]:
    """The next action for a missing-order ticket."""
    t = Reader(observation)
    first = t.first_name
    tracking = read_tracking(t.customer_replies())
    if tracking is None:
        if t.questions_asked() == 0:
            return {"action_type": "message_customer", "message": (
                f"Hi {first}, I'm sorry your parcel hasn't arrived. Could you send me the order "
                "number so I can check its tracking?")}
        return {"action_type": "message_customer", "message": (
            "Could you tell me the order number and what its tracking page says?")}
    facts = t.facts
    refunds = int(facts.get("refunds_last_90_days", "0"))
    charged = t.charged
    amount = f"{charged:.2f}" if charged is not None else None
    ack = ACKNOWLEDGE if aside(t) else ""
    if refunds >= 3:
        case = "fraud_review"
    elif _lost(tracking, facts["ticket_date"]):
        case = "lost"
    else:
        case = "in_transit"
    queue = "trust_and_safety" if case == "fraud_review" else "billing"
    tags = {"fraud_review": ["Fraud_Review"], "in_transit": ["Shipping"],
            "lost": ["Refund_Approved"]}[case]
    obs = t.observation
    status = (f"the parcel is still in transit, estimated delivery {tracking.eta}"
              if tracking.status == "in transit" else
              f"the parcel is lost, its tracking shows nothing since {tracking.last_update}, "
              f"more than seven days past the estimated delivery of {tracking.eta}")
    back: list[Step] = []
    if case == "fraud_review":
        back.append(on_account(t, {"action_type": "open_fraud_review"}))
    if case == "lost" and amount is not None:
        back.append(on_account(t, {"action_type": "issue_refund", "amount": float(amount)}))
    code = {"fraud_review": "fraud_review_opened", "in_transit": "awaiting_customer_confirmation",
            "lost": "refund_issued"}[case]
    return next_action(Plan((
        *planned(t, triage(POLICY, "medium", queue, tags)),
        Step({"action_type": "add_internal_note", "note": (
            f"Checked order {tracking.order}: {status}. The customer has {_refunds(refunds)} in "
            "the last 90 days.")}, bool(obs.internal_notes)),
        *back,
        Step({"action_type": "draft_reply", "reply_text": _reply(case, first, tracking, amount, ack)},
             obs.reply_draft is not None),
        Step({"action_type": "resolve_ticket", "resolution_code": code}, t.took_kind("resolve_ticket")),
    ), {"action_type": "noop"}))


def _reply(case: str, first: str, tracking: Tracking, amount: str | None, ack: str) -> str:
    if case == "fraud_review":
        return (f"Hi {first}, thank you for letting us know about order {tracking.order}. I have "
                "passed your claim to a specialist team, who will review it and get back to you "
                f"within 2 business days. {ack}Best regards, Support")
    if case == "in_transit":
        return (f"Hi {first}, I understand how frustrating it is to wait for a parcel. I checked "
                f"order {tracking.order}: it is still in transit, and its estimated delivery date "
                f"is {tracking.eta}. If it has not arrived two days after that date, please write "
                f"back and we will sort it out. {ack}Best regards, Support")
    return (f"Hi {first}, I am sorry your parcel never arrived. I checked order {tracking.order}: "
            "there has been no tracking update for more than a week past its estimated delivery "
            f"date, so we treat it as lost and have issued a full refund of ${amount} to your "
            f"original payment method. {ack}Best regards, Support")
