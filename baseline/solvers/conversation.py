"""What the multi-turn solvers (``missing_order``, ``verify_identity``, ``late_refund``) share: reading the
conversation with the customer, and taking the first step of a plan the observation does not show
yet (stateless, like ``baseline.policy``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

Action = dict[str, Any]


def customer_replies(observation: Mapping[str, Any]) -> list[str]:
    """The customer's replies so far, in order (none until the agent messaged the customer)."""
    return [m["text"] for m in observation.get("conversation", []) if m["speaker"] == "customer"]


def questions_asked(observation: Mapping[str, Any]) -> int:
    return sum(1 for m in observation.get("conversation", []) if m["speaker"] == "agent")


def first_name(observation: Mapping[str, Any]) -> str:
    return str(observation["ticket"]["customer_name"]).split()[0]


def second_request(observation: Mapping[str, Any]) -> bool:
    """Whether the ticket carries a second, unrelated request ("Also, ...") to acknowledge."""
    return " also," in " " + str(observation["ticket"]["message"]).lower()


ACKNOWLEDGE = ("As for your other question, I have passed it on to the right colleague, who will "
               "answer it separately. ")


def triage(observation: Mapping[str, Any], *, policy: str, priority: str, queue: str,
           tags: Sequence[str]) -> Action | None:
    """The next triage step (policy, priority, queue, tags) the observation does not show yet."""
    if policy not in observation["policies"]:
        return {"action_type": "lookup_policy", "policy_id": policy}
    if observation["current_priority"] != priority:
        return {"action_type": "classify_priority", "priority": priority}
    if observation["current_queue"] != queue:
        return {"action_type": "assign_queue", "queue": queue}
    for tag in tags:
        if tag not in observation["tags"]:
            return {"action_type": "add_tag", "tag": tag}
    return None


def taken(observation: Mapping[str, Any], action_type: str) -> bool:
    """Whether the episode already took ``action_type`` (from the action history)."""
    return any(a.get("action_type") == action_type for a in observation["action_history"])
