"""What the family solvers of ``fam-data-1`` (double_charge, email_change, data_deletion,
shipping_loss) share: reading the observation, and walking a fixed plan statelessly.

A solver reads only the observation (the ticket, its facts, the account, what it already did),
never the task's variables or answer key. Each one turns the observation into a :class:`Plan`
(the actions a careful agent takes, in order) and :func:`next_action` returns the first planned
action the observation does not show as done yet, so a solver can take over mid-episode and always
ends: every action is tried once, then the finish.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Action = dict[str, Any]

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
ISO_DATE = re.compile(r"\b(\d{4}-\d{2}-\d{2})\b")


@dataclass(frozen=True)
class Seen:
    """The parts of an observation a solver reads (plain values, defaults for missing ones)."""

    first_name: str
    email: str
    subject: str
    message: str
    tier: str
    facts: Mapping[str, str]
    account: Mapping[str, Any]

    @classmethod
    def of(cls, obs: Mapping[str, Any]) -> Seen:
        ticket = obs.get("ticket") or {}
        name = str(ticket.get("customer_name") or "there").split()
        return cls(first_name=name[0] if name else "there",
                   email=str(ticket.get("customer_email") or "").strip().lower(),
                   subject=str(ticket.get("subject") or ""),
                   message=str(ticket.get("message") or obs.get("customer_message") or ""),
                   tier=str(ticket.get("customer_tier") or "free"),
                   facts={str(k): str(v) for k, v in (ticket.get("facts") or {}).items()},
                   account=dict(obs.get("account") or {}))

    def fact(self, name: str, default: str = "") -> str:
        return self.facts.get(name, default).strip()

    def date(self, name: str) -> dt.date | None:
        return first_date(self.fact(name))

    @property
    def charged(self) -> float | None:
        value = self.account.get("charged")
        return float(value) if isinstance(value, (int, float)) else None


def first_date(text: str) -> dt.date | None:
    """The first ISO date in ``text``, if any."""
    found = ISO_DATE.search(text)
    return dt.date.fromisoformat(found.group(1)) if found else None


def all_dates(text: str) -> list[dt.date]:
    return [dt.date.fromisoformat(d) for d in ISO_DATE.findall(text)]


def long_date(day: dt.date) -> str:
    """'November 24, 2026': how a person writes a date to a customer."""
    return f"{day.strftime('%B')} {day.day}, {day.year}"


def money(amount: float) -> str:
    return f"${amount:,.2f}"


def none_said(value: str) -> bool:
    """Whether a fact's value says there is nothing ('none', 'no', empty)."""
    return value.strip().lower() in ("", "none", "no", "n/a", "-")


@dataclass
class Plan:
    """The actions a solver means to take, in order, and the finish that ends the ticket."""

    steps: list[Action] = field(default_factory=list)
    finish: Action = field(default_factory=lambda: {"action_type": "resolve_ticket"})


def _done(action: Action, obs: Mapping[str, Any]) -> bool:
    """Whether the observation shows ``action`` as done (or as already tried, for account
    actions: a refused one is not retried, which keeps the solver from looping)."""
    kind = action["action_type"]
    match kind:
        case "lookup_policy":
            return action["policy_id"] in (obs.get("policies") or {})
        case "classify_priority":
            return bool(obs.get("current_priority") == action["priority"])
        case "assign_queue":
            return bool(obs.get("current_queue") == action["queue"])
        case "add_tag":
            return action["tag"] in (obs.get("tags") or [])
        case "add_internal_note":
            return bool(obs.get("internal_notes"))
        case "draft_reply":
            return bool(obs.get("reply_draft"))
    return any(a.get("action_type") == kind for a in obs.get("action_history") or [])


def next_action(obs: Mapping[str, Any], plan: Plan) -> Action:
    """The first step of ``plan`` not done yet, else the finish."""
    for action in plan.steps:
        if not _done(action, obs):
            return dict(action)
    return dict(plan.finish)


def triage(policy: str, priority: str, queue: str, tags: list[str]) -> list[Action]:
    """Look the policy up first (it decides), then priority, queue and tags."""
    return ([{"action_type": "lookup_policy", "policy_id": policy},
             {"action_type": "classify_priority", "priority": priority},
             {"action_type": "assign_queue", "queue": queue}]
            + [{"action_type": "add_tag", "tag": t} for t in tags])


SIDE_QUESTIONS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("invoice",), "You also asked for your latest invoice: you can download it at any time "
                   "under Settings > Billing > Invoices."),
    (("dark mode",), "On your other question, dark mode can be switched on under Settings > "
                     "Appearance."),
    (("second user", "add a user", "another user"),
     "And yes, you can invite another user to your workspace under Settings > Members."),
)
"""Second requests customers add to a ticket, and the answer a reply gives them in passing."""


def side_answer(message: str) -> str:
    """A sentence answering the customer's second request, if the message makes one."""
    lowered = message.lower()
    for cues, answer in SIDE_QUESTIONS:
        if any(c in lowered for c in cues):
            return " " + answer
    return ""


def reply(first_name: str, body: str, message: str, team: str) -> str:
    """A reply in one frame: greeting by first name, the body, the answer to a second request,
    a closing with the team's name."""
    return f"Hi {first_name},\n\n{body}{side_answer(message)}\n\nBest regards,\n{team}"
