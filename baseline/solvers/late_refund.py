"""Solver of the ``late_refund`` family (policy refund_requests, RR-1).

The customer asks for a refund but does not give the purchase date, and RR-1's 30-day window is
counted from it: only the customer knows it. So the first move is to ask for it
(``message_customer``), then RR-1 decides from the reply and the ticket facts: three or more refunds
in the last 90 days go to a fraud review whatever the date (trust team); otherwise a request within
30 days of the order date is refunded in full, and a later one is denied with store credit offered.
Reads only the observation.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from baseline.plan import next_action, on_account
from baseline.reader import Reader
from baseline.solvers.refund_request import FRAUD_LIMIT, WINDOW_DAYS, dollars, rr1_plan
from baseline.solvers.replies import ACKNOWLEDGE, second_request
from domain.observation import Observation

DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")


def purchase_date(replies: list[str]) -> str | None:
    """The purchase date the customer gave, from the latest reply that has one."""
    for text in reversed(replies):
        found = DATE.findall(text)
        if found:
            return str(found[-1])
    return None


def _refunds(count: int) -> str:
    return f"{count} refund" if count == 1 else f"{count} refunds"


def act(observation: Observation) -> dict[str, Any]:
    """The next action for a refund request that does not say when the item was bought."""
    t = Reader(observation)
    first = t.first_name
    facts = t.facts
    refunds = int(re.sub(r"\D", "", facts.get("refunds_last_90_days", "")) or 0)
    bought = purchase_date(t.customer_replies())
    if bought is None and t.questions_asked() < 2:
        if t.questions_asked() == 0:
            return {"action_type": "message_customer", "message": (
                f"Hi {first}, thanks for getting in touch. Could you tell me the date you bought "
                "it (the order date)? Your bank statement should show it.")}
        return {"action_type": "message_customer", "message": (
            "Could you tell me the purchase date of the order?")}
    order_id = facts.get("order_id", "your order")
    amount = t.charged if t.charged is not None else 0.0
    ticket_day = dt.date.fromisoformat(facts["ticket_date"])
    if refunds >= FRAUD_LIMIT:
        case = "fraud_review"
    elif bought is not None and (ticket_day - dt.date.fromisoformat(bought)).days <= WINDOW_DAYS:
        case = "refund"
    else:
        case = "deny"
    ack = f" {ACKNOWLEDGE.strip()}" if second_request(t) else ""
    when = f"placed on {bought}" if bought is not None else "placed on a date the customer did not give"
    if case == "fraud_review":
        queue, tag, code, verb = "trust_and_safety", "Fraud_Review", "fraud_review_opened", "resolve_ticket"
        back = on_account(t, {"action_type": "open_fraud_review"})
        note = (f"Order {order_id} {when}. The customer has {_refunds(refunds)} in the last 90 "
                "days, so per RR-1 support neither refunds nor denies: I opened a fraud review and "
                "moved the ticket to the trust team.")
        reply = (f"Hi {first},\n\nThank you for getting back to me about order {order_id}. A "
                 "specialist team will review your request and get back to you within 2 business "
                 f"days with the outcome.{ack}\n\nBest regards,\nSupport")
    elif case == "refund":
        queue, tag, code, verb = "billing", "Refund_Approved", "refund_issued", "resolve_ticket"
        back = on_account(t, {"action_type": "issue_refund", "amount": amount})
        note = (f"Order {order_id} {when}, within the 30-day window. The customer has "
                f"{_refunds(refunds)} in the last 90 days. Refund approved and issued in full.")
        reply = (f"Hi {first},\n\nThank you for checking the date for me. Your order {order_id} from "
                 f"{bought} is within our 30-day refund window, so I have approved a full refund of "
                 f"{dollars(amount)}. The money will return to your original payment method within "
                 f"5-7 business days.{ack}\n\nBest regards,\nSupport")
    else:
        queue, tag, code, verb = "billing", "Policy_Denied", "refund_denied", "close_ticket"
        back = on_account(t, {"action_type": "deny_refund",
                              "reason": "requested more than 30 days after the order"})
        note = (f"Order {order_id} {when}, more than 30 days before the request. The customer has "
                f"{_refunds(refunds)} in the last 90 days. Refund denied per RR-1; store credit "
                "offered.")
        reply = (f"Hi {first},\n\nThank you for checking the date for me, and I am sorry it did not "
                 "work out. Our refund policy covers requests made within 30 days of the order "
                 f"date, and your order {order_id} was placed on {bought}, so we are unable to offer "
                 "a refund for it. I would be glad to offer you store credit instead."
                 f"{ack}\n\nBest regards,\nSupport")
    obs = t.observation
    triaged = (obs.current_priority == "medium", obs.current_queue == queue)
    return next_action(rr1_plan(t, triaged, queue, tag, back, note, reply,
                                {"action_type": verb, "resolution_code": code}))
