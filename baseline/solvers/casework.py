"""The first steps every family solver takes (:func:`triage`), and a single-turn family's whole
decision as a plan (:class:`Casework`: the ``complaint``, ``outage``, ``plan_change`` and
``security_report`` solvers decide one and play its :meth:`~Casework.plan`).

In a :class:`Casework` plan a triage step counts as done once the ticket shows its value or the
history shows it tried; an account action once the history shows it (the same values), refused or
not, so a refused action is never retried in a loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from baseline.plan import Plan, Step
from baseline.reader import Reader


def triage(policy: str, priority: str, queue: str, tags: list[str]) -> list[dict[str, Any]]:
    """The first actions on a ticket: look the policy up (it decides), then priority, queue and
    tags."""
    return ([{"action_type": "lookup_policy", "policy_id": policy},
             {"action_type": "classify_priority", "priority": priority},
             {"action_type": "assign_queue", "queue": queue}]
            + [{"action_type": "add_tag", "tag": t} for t in tags])


@dataclass(frozen=True)
class Casework:
    """What a solver decided to do on the ticket, in the order it does it."""

    policy: str
    priority: str
    queue: str
    tags: tuple[str, ...]
    reply: str
    finish: Mapping[str, Any]
    back_office: tuple[Mapping[str, Any], ...] = field(default_factory=tuple)

    def plan(self, reader: Reader) -> Plan:
        """The decision as steps, each marked done as the observation in ``reader`` shows it."""
        obs = reader.observation
        priority = {"action_type": "classify_priority", "priority": self.priority}
        queue = {"action_type": "assign_queue", "queue": self.queue}
        tags = [{"action_type": "add_tag", "tag": tag} for tag in self.tags]
        return Plan((
            Step({"action_type": "lookup_policy", "policy_id": self.policy},
                 self.policy in obs.policies),
            Step(priority, obs.current_priority == self.priority or reader.took(priority)),
            Step(queue, obs.current_queue == self.queue or reader.took(queue)),
            *[Step(tag, tag["tag"] in obs.tags or reader.took(tag)) for tag in tags],
            *[Step(action, reader.took(action)) for action in self.back_office],
            Step({"action_type": "draft_reply", "reply_text": self.reply}, bool(obs.reply_draft)),
        ), self.finish)
