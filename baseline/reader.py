"""The one reader of the observation for rule-following agents: the built-in policy and the family
solvers read the ticket, the account, the conversation and what was already done through it.

It reads the typed :class:`domain.observation.Observation` only, so it sees what every agent sees
and never the answer key. What it answers is what a careful person would look for: the customer's
first name and words, the ticket's facts, the policies already looked up, the customer's replies,
and whether an action was already taken, refused or not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # read, never built, here: the runner loads the domain model with its first reset
    from domain.observation import Observation, PublicAccount

EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
"""An email address, as a customer writes one into a message."""
DEFAULT_NAME = "there"
"""How a reply greets a customer whose name the ticket does not give ("Hi there")."""


@dataclass(frozen=True)
class Reader:
    """What an agent reads off one observation."""

    observation: Observation

    @property
    def first_name(self) -> str:
        parts = self.observation.ticket.customer_name.split()
        return parts[0] if parts else DEFAULT_NAME

    @property
    def subject(self) -> str:
        return self.observation.ticket.subject

    @property
    def message(self) -> str:
        """The customer's message (the ticket's, else the observation's copy of it)."""
        return self.observation.ticket.message or self.observation.customer_message

    @property
    def tier(self) -> str:
        """The customer's plan in lower case ("enterprise", "pro", "free")."""
        return self.observation.ticket.customer_tier.lower()

    @property
    def email(self) -> str:
        """The address the ticket came from, in lower case (addresses compare that way)."""
        return self.observation.ticket.customer_email.strip().lower()

    @property
    def facts(self) -> Mapping[str, str]:
        return self.observation.ticket.facts

    @property
    def account(self) -> PublicAccount:
        return self.observation.account

    @property
    def charged(self) -> float | None:
        """What the account shows was charged, in dollars (None: no charge on record)."""
        return self.observation.account.charged

    @property
    def policies(self) -> Mapping[str, str]:
        """The texts of the policies looked up so far, by id."""
        return self.observation.policies

    def fact(self, name: str, default: str = "") -> str:
        """A fact's value without surrounding spaces (``default`` when the ticket lacks it)."""
        return self.facts.get(name, default).strip()

    def fact_lower(self, name: str) -> str:
        """A fact's value in lower case, how a rule compares it ('' when the ticket lacks it)."""
        return self.fact(name).lower()

    def fact_like(self, *names: str) -> str | None:
        """The first fact whose name contains one of ``names`` (in that order of preference), as
        written: tickets name the same fact differently ("order_date", "purchase_date")."""
        for name in names:
            for key, value in self.facts.items():
                if name in key.lower():
                    return value
        return None

    def says(self, *cues: str) -> bool:
        """Whether the customer's message contains any of ``cues`` as whole words, in any case."""
        text = self.message.lower()
        return any(re.search(rf"(?<![a-z]){re.escape(c)}(?![a-z])", text) for c in cues)

    def mentions(self, *cues: str) -> bool:
        """Whether the customer's message contains any of ``cues``, in any case, anywhere (a cue
        that starts with a space also matches at the start of the message)."""
        text = " " + self.message.lower()
        return any(cue in text for cue in cues)

    def customer_replies(self) -> list[str]:
        """The customer's replies so far, in order (none until the agent messaged the customer)."""
        return [m.text for m in self.observation.conversation if m.speaker == "customer"]

    def questions_asked(self) -> int:
        """How many messages the agent has sent the customer."""
        return sum(1 for m in self.observation.conversation if m.speaker == "agent")

    def took_kind(self, action_type: str) -> bool:
        """Whether the episode already took an action of ``action_type``, accepted or refused."""
        return any(a.get("action_type") == action_type for a in self.observation.action_history)

    def took(self, action: Mapping[str, Any]) -> bool:
        """Whether the action history already has ``action``: its type with the same values (any
        case; amounts to the cent; a denial's reason aside), accepted or refused."""
        return any(h.get("action_type") == action["action_type"]
                   and all(_same(h.get(k), v) for k, v in action.items()
                           if k not in ("action_type", "reason"))
                   for h in self.observation.action_history)

    def shows(self, action: Mapping[str, Any]) -> bool:
        """Whether the observation shows ``action`` done: the ticket's own fields for the ticket
        actions (the policy read, the priority and queue set, the tag on, a note or a reply
        there), the action history for the rest (a refused account action counts as done, so it
        is never retried in a loop)."""
        obs = self.observation
        match action["action_type"]:
            case "lookup_policy":
                return action["policy_id"] in obs.policies
            case "classify_priority":
                return bool(obs.current_priority == action["priority"])
            case "assign_queue":
                return bool(obs.current_queue == action["queue"])
            case "add_tag":
                return action["tag"] in obs.tags
            case "add_internal_note":
                return bool(obs.internal_notes)
            case "draft_reply":
                return bool(obs.reply_draft)
        return self.took_kind(action["action_type"])

    def account_shows(self, action: Mapping[str, Any]) -> bool:
        """Whether the account shows the back-office ``action`` carried out (a refund issued, the
        email changed to its address, the incident at its severity, ...)."""
        account = self.observation.account
        match action["action_type"]:
            case "issue_refund":
                return bool(account.refunds)
            case "deny_refund":
                return account.refund_request_declined
            case "update_account_email":
                return account.email.lower() == str(action["new_email"]).lower()
            case "send_password_reset_link":
                return bool(account.password_reset_links_sent)
            case "schedule_data_deletion":
                return account.data_deletion_queued
            case "place_legal_hold":
                return account.legal_hold
            case "open_fraud_review":
                return account.fraud_review_open
            case "escalate_incident":
                return bool(account.incident_severity == action["severity"])
        return False

    def just_refused(self, action: Mapping[str, Any]) -> bool:
        """Whether ``action`` is the last one taken and the environment refused it."""
        return bool(self.observation.last_action_error) and self.observation.last_action == action


def none_said(value: str) -> bool:
    """Whether a fact's value says there is nothing ('none', 'no', empty)."""
    return value.strip().lower() in ("", "none", "no", "n/a", "-")


def _same(seen: Any, wanted: Any) -> bool:
    if isinstance(wanted, float):
        try:
            return round(float(seen) * 100) == round(wanted * 100)
        except (TypeError, ValueError):
            return False
    return str(seen).lower() == str(wanted).lower()
