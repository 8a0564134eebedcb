"""The solver of the ``double_charge`` family: charge disputes (CD-1), read from the observation.

CD-1 decides from the ticket facts, in this order: a chargeback already filed with the bank means
support refunds nothing (the bank decides within 10 business days: billing_investigation_opened);
a second charge still pending is an authorisation hold (nothing refunded, it drops off within 3-5
business days: no_action_needed); two captured charges for the same order and amount are a
duplicate (one refunded in full, back within 5-7 business days: refund_issued). The charges fact
may list unrelated charges too: only a pair with the same order and amount counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from baseline.plan import Plan, next_action, planned
from baseline.reader import Reader, none_said
from baseline.solvers.casework import triage
from baseline.solvers.replies import money, reply
from domain.observation import Observation

POLICY = "charge_disputes"
CHARGE = re.compile(r"\$(\d+(?:\.\d{1,2})?) for order (\S+?) on (\d{4}-\d{2}-\d{2}), ([a-z ()]+)",
                    re.IGNORECASE)


@dataclass(frozen=True)
class Charge:
    amount: float
    order: str
    status: str


def charges(text: str) -> list[Charge]:
    """The charges a facts line lists ('CH-1: $49.00 for order A-1 on 2026-11-03, captured; ...')."""
    out = []
    for part in text.split(";"):
        found = CHARGE.search(part)
        if found:
            out.append(Charge(float(found.group(1)), found.group(2), found.group(4).strip().lower()))
    return out


def duplicate_pair(found: list[Charge]) -> tuple[Charge, Charge] | None:
    """The first two charges for the same order and amount."""
    for i, a in enumerate(found):
        for b in found[i + 1:]:
            if a.order == b.order and a.amount == b.amount:
                return a, b
    return None


def chargeback_filed(dispute: str) -> bool:
    lowered = dispute.lower()
    return not none_said(dispute) and ("chargeback" in lowered or "bank" in lowered)


def decide(s: Reader) -> tuple[str, Charge | None]:
    """The case CD-1 gives this ticket, and the duplicated charge if there is one."""
    pair = duplicate_pair(charges(s.fact("charges")))
    if chargeback_filed(s.fact("bank_dispute")):
        return "chargeback", pair[0] if pair else None
    if pair is not None and any(c.status.startswith("pending") for c in pair):
        return "hold", pair[0]
    return "duplicate", pair[0] if pair else None


def plan(s: Reader) -> Plan:
    case, charge = decide(s)
    order = f" for order {charge.order}" if charge else ""
    steps = triage(POLICY, "high", "billing", ["Duplicate_Charge"])
    if case == "chargeback":
        body = (f"I am sorry about the double payment{order}. I can see that a chargeback has already "
                "been filed with your bank for it, so the bank's dispute process now decides the "
                "outcome, and it returns the money to you if it finds in your favour. Banks decide "
                "these within 10 business days, and we have opened a billing investigation on our side "
                "so that the bank gets everything it needs from us.")
        code = "billing_investigation_opened"
    elif case == "hold":
        held = f" of {money(charge.amount)}" if charge else ""
        body = (f"I understand why seeing the payment twice is worrying. I have checked the payments"
                f"{order}: one charge{held} went through, and the second one is only a pending "
                "authorisation hold from your bank, not a real charge. It will drop off your statement "
                "by itself within 3-5 business days, so there is nothing you need to do.")
        code = "no_action_needed"
    else:
        refund = charge.amount if charge else s.charged
        if refund is not None:
            steps.append({"action_type": "issue_refund", "amount": refund})
        shown = f" of {money(refund)}" if refund is not None else ""
        body = (f"I am sorry you were charged twice{order}. Both payments went through, so the second "
                f"one is a duplicate and I have refunded it in full: the refund{shown} goes back to "
                "your original payment method and should show within 5-7 business days.")
        code = "refund_issued"
    steps.append({"action_type": "draft_reply",
                  "reply_text": reply(s.first_name, body, s.message, "Billing Support")})
    return Plan(planned(s, steps), {"action_type": "resolve_ticket", "resolution_code": code})


def act(observation: Observation) -> dict[str, Any]:
    """The next action on a double-charge ticket."""
    return next_action(plan(Reader(observation)))
