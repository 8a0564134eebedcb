"""Observations written by hand, for the tests of what an agent reads from one: every field the
environment always sends, empty or neutral, with the ticket fields and the rest a test names."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.observation import ALLOWED, Observation
from domain.vocabulary import ActionType, PolicyId

NEUTRAL_TICKET: dict[str, Any] = {
    "ticket_id": "T-1", "customer_name": "", "customer_email": "", "customer_tier": "free",
    "subject": "", "message": "", "product_area": "general", "facts": {}}
NEUTRAL_ACCOUNT: dict[str, Any] = {
    "email": "", "charged": None, "refunds": [], "refund_request_declined": False,
    "password_reset_links_sent": 0, "data_deletion_queued": False, "legal_hold": False,
    "fraud_review_open": False, "incident_severity": None}


def observation(ticket: Mapping[str, Any] | None = None, account: Mapping[str, Any] | None = None,
                **fields: Any) -> Observation:
    """An observation at the start of an episode with ``ticket``'s and ``account``'s fields over
    the neutral ones, and any other top-level ``fields``."""
    shown = {**NEUTRAL_TICKET, **(ticket or {})}
    return Observation.model_validate({
        "episode_id": "ep_test", "task_id": "task_test", "title": "", "difficulty": "easy",
        "objective": "", "ticket_id": shown["ticket_id"], "customer_message": shown["message"],
        "ticket": shown, "current_priority": None, "current_queue": None, "tags": [],
        "reply_draft": None, "internal_notes": [], "status": "open", "resolution_code": None,
        "available_policies": list(PolicyId.allowed()), "available_actions": list(ActionType.allowed()),
        "allowed": ALLOWED, "account": {**NEUTRAL_ACCOUNT, **(account or {})}, "policies": {},
        "history": [], "action_history": [], "last_action": None, "last_action_error": None,
        "step_count": 0, "max_steps": 20, "done": False, **fields})
