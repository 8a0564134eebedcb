"""What the family solvers of fam-data-2 share: reading a ticket from an observation, and turning a
plan (the policy's decision for the ticket) into the next action.

A solver is stateless like the built-in policy (:mod:`baseline.policy`): it reads only the
observation, decides the whole plan again on every call, and sends the first part of the plan the
observation does not show done yet. A back-office action counts as done once it appears in the
action history, refused or not, so a refused action is never retried in a loop.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Ticket:
    """The parts of the observation a solver reads: the customer's words and the ticket's facts."""

    first_name: str
    subject: str
    message: str
    tier: str
    facts: Mapping[str, str]

    @classmethod
    def of(cls, obs: Mapping[str, Any]) -> Ticket:
        ticket = obs.get("ticket") or {}
        name = str(ticket.get("customer_name") or "there").split()
        return cls(first_name=name[0] if name else "there",
                   subject=str(ticket.get("subject") or ""),
                   message=str(ticket.get("message") or obs.get("customer_message") or ""),
                   tier=str(ticket.get("customer_tier") or "free").lower(),
                   facts={str(k): str(v) for k, v in (ticket.get("facts") or {}).items()})

    def fact(self, name: str) -> str:
        """A fact's value in lower case ('' when the ticket does not have it)."""
        return self.facts.get(name, "").strip().lower()

    def says(self, *cues: str) -> bool:
        """Whether the customer's message contains any of ``cues`` (whole words, any case)."""
        text = self.message.lower()
        return any(re.search(rf"(?<![a-z]){re.escape(c)}(?![a-z])", text) for c in cues)


def iso_date(text: str) -> dt.date | None:
    """The first ISO date (2026-11-27) in ``text``."""
    found = re.search(r"\d{4}-\d{2}-\d{2}", text)
    if not found:
        return None
    try:
        return dt.date.fromisoformat(found.group())
    except ValueError:
        return None


def business_days(start: dt.date, end: dt.date) -> int:
    """Weekdays after ``start`` up to and including ``end`` (0 when ``end`` is not later)."""
    days, day = 0, start
    while day < end:
        day += dt.timedelta(days=1)
        days += day.weekday() < 5
    return days


def long_date(day: dt.date) -> str:
    """'26 November 2026': how a person writes a date to a customer."""
    return f"{day.day} {day:%B %Y}"


@dataclass(frozen=True)
class Plan:
    """Everything the solver means to do on the ticket, in order: look up the policy, triage, tag,
    act on the account, reply, finish."""

    policy: str
    priority: str
    queue: str
    tags: tuple[str, ...]
    reply: str
    finish: Mapping[str, Any]
    back_office: tuple[Mapping[str, Any], ...] = field(default_factory=tuple)


def _taken(obs: Mapping[str, Any], action: Mapping[str, Any]) -> bool:
    """Whether the action history already has ``action`` (same type and fields), done or refused."""
    history = obs.get("action_history") or []
    return any(isinstance(h, Mapping) and h.get("action_type") == action["action_type"]
               and all(_same(h.get(k), v) for k, v in action.items() if k not in ("action_type", "reason"))
               for h in history)


def _same(seen: Any, wanted: Any) -> bool:
    if isinstance(wanted, float):
        try:
            return round(float(seen) * 100) == round(wanted * 100)
        except (TypeError, ValueError):
            return False
    return str(seen).lower() == str(wanted).lower()


def next_action(obs: Mapping[str, Any], plan: Plan) -> dict[str, Any]:
    """The first step of ``plan`` that the observation does not show done, else the finish."""
    if plan.policy not in (obs.get("policies") or {}):
        return {"action_type": "lookup_policy", "policy_id": plan.policy}
    if obs.get("current_priority") != plan.priority and not _taken(
            obs, {"action_type": "classify_priority", "priority": plan.priority}):
        return {"action_type": "classify_priority", "priority": plan.priority}
    if obs.get("current_queue") != plan.queue and not _taken(
            obs, {"action_type": "assign_queue", "queue": plan.queue}):
        return {"action_type": "assign_queue", "queue": plan.queue}
    tags = obs.get("tags") or []
    for tag in plan.tags:
        if tag not in tags and not _taken(obs, {"action_type": "add_tag", "tag": tag}):
            return {"action_type": "add_tag", "tag": tag}
    for action in plan.back_office:
        if not _taken(obs, action):
            return dict(action)
    if not obs.get("reply_draft"):
        return {"action_type": "draft_reply", "reply_text": plan.reply}
    return dict(plan.finish)
