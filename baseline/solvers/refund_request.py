"""Solver of the ``refund_request`` family (policy refund_requests, RR-1).

Reads the order date, the ticket date and the refund count from the ticket facts: three or more
refunds in 90 days go to a fraud review (trust team), else a request within 30 days of the order is
refunded in full (billing), else it is denied with store credit offered (billing, closed).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from typing import Any

from baseline.plan import Plan, Step, next_action, on_account
from baseline.reader import Reader
from baseline.solvers.replies import SECOND_REQUEST_REPLY, second_request
from domain.observation import Observation

POLICY = "refund_requests"
WINDOW_DAYS = 30
FRAUD_LIMIT = 3


def _date(value: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value.strip()) if value else None
    except ValueError:
        return None


def _amount(text: str | None) -> float | None:
    found = re.search(r"(\d+(?:\.\d{1,2})?)", text or "")
    return float(found.group(1)) if found else None


def decision(t: Reader) -> str:
    """fraud_review, refund or deny: RR-1 applied to the facts."""
    f = t.facts
    refunds = int(re.sub(r"\D", "", f.get("refunds_last_90_days", "")) or 0)
    if refunds >= FRAUD_LIMIT:
        return "fraud_review"
    order, ticket = _date(f.get("order_date")), _date(f.get("ticket_date"))
    if order is not None and ticket is not None and (ticket - order).days > WINDOW_DAYS:
        return "deny"
    return "refund"


def dollars(value: float) -> str:
    """'$49' for whole dollars, else '$49.50': how RR-1 replies state an amount."""
    return f"${value:g}" if value == int(value) else f"${value:.2f}"


def act(observation: Observation) -> dict[str, Any]:
    """The next action on a ``refund_request`` ticket."""
    t = Reader(observation)
    f = t.facts
    name = t.first_name
    order_id, order_date = f.get("order_id", "your order"), f.get("order_date", "the order date")
    refunds = re.sub(r"\D", "", f.get("refunds_last_90_days", "")) or "0"
    amount = t.charged if t.charged is not None else _amount(f.get("amount_paid"))
    aside = f" {SECOND_REQUEST_REPLY}" if second_request(t) else ""
    choice = decision(t)
    if choice == "fraud_review":
        queue, tag, code, verb = "trust_and_safety", "Fraud_Review", "fraud_review_opened", "resolve_ticket"
        back = on_account(t, {"action_type": "open_fraud_review"})
        note = (f"Order {order_id} placed on {order_date}. The customer has {refunds} refunds in the "
                "last 90 days, so per RR-1 support neither refunds nor denies: I opened a fraud "
                "review and moved the ticket to the trust team.")
        reply = (f"Hi {name},\n\nThank you for getting in touch about order {order_id}. A specialist "
                 "team will review your request and get back to you within 2 business days with "
                 f"the outcome.{aside}\n\nBest regards,\nSupport")
    elif choice == "refund":
        queue, tag, code, verb = "billing", "Refund_Approved", "refund_issued", "resolve_ticket"
        back = on_account(t, {"action_type": "issue_refund", "amount": amount or 0.0})
        note = (f"Order {order_id} placed on {order_date}, within the 30-day window. The customer "
                f"has {refunds} refunds in the last 90 days. Refund approved and issued in full.")
        shown = dollars(amount) if amount is not None else "the amount you paid"
        reply = (f"Hi {name},\n\nThank you for reaching out. Your order {order_id} from {order_date} "
                 f"is within our 30-day refund window, so I have approved a full refund of {shown}. "
                 "The money will return to your original payment method within 5-7 business days."
                 f"{aside}\n\nBest regards,\nSupport")
    else:
        queue, tag, code, verb = "billing", "Policy_Denied", "refund_denied", "close_ticket"
        back = on_account(t, {"action_type": "deny_refund",
                              "reason": "requested more than 30 days after the order"})
        note = (f"Order {order_id} placed on {order_date}, more than 30 days before the request. The "
                f"customer has {refunds} refunds in the last 90 days. Refund denied per RR-1; store "
                "credit offered.")
        reply = (f"Hi {name},\n\nThank you for getting in touch, and I am sorry it did not work out. "
                 "Our refund policy covers requests made within 30 days of the order date, and your "
                 f"order {order_id} was placed on {order_date}, so we are unable to offer a refund "
                 "for it. I would be glad to offer you store credit instead."
                 f"{aside}\n\nBest regards,\nSupport")
    obs = t.observation
    triaged = (bool(obs.current_priority), bool(obs.current_queue))
    return next_action(rr1_plan(t, triaged, queue, tag, back, note, reply,
                                {"action_type": verb, "resolution_code": code}))


def rr1_plan(t: Reader, triaged: tuple[bool, bool], queue: str, tag: str, back: Step, note: str,
             reply: str, finish: Mapping[str, Any]) -> Plan:
    """An RR-1 decision as steps (the ``refund_request`` and ``late_refund`` solvers): the policy,
    medium priority and ``queue`` (``triaged``: whether the observation shows each done), ``tag``,
    the decision on the account, a note and the reply."""
    obs = t.observation
    priority_set, queue_set = triaged
    return Plan((
        Step({"action_type": "lookup_policy", "policy_id": POLICY}, POLICY in obs.policies),
        Step({"action_type": "classify_priority", "priority": "medium"}, priority_set),
        Step({"action_type": "assign_queue", "queue": queue}, queue_set),
        Step({"action_type": "add_tag", "tag": tag}, tag in obs.tags),
        back,
        Step({"action_type": "add_internal_note", "note": note}, bool(obs.internal_notes)),
        Step({"action_type": "draft_reply", "reply_text": reply}, bool(obs.reply_draft)),
    ), finish)
