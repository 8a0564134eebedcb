"""A rule-following agent's plan, and its next action: the first planned step not yet done.

The built-in policy and the family solvers are stateless. On every observation they decide the
whole plan again (the steps a careful agent takes, in order, each with whether the observation
already shows it done) and send the first step not done, else the finish. So one can take over an
episode midway, and every episode ends: each step is taken once, then the finish.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from baseline.reader import Reader


@dataclass(frozen=True)
class Step:
    """One planned action and whether the observation shows it done. ``part`` names what the step
    is for, where an agent may drop parts to fit its step budget (the built-in policy)."""

    action: Mapping[str, Any]
    done: bool
    part: str = ""


@dataclass(frozen=True)
class Plan:
    """The steps in order, and the action that ends the ticket once they are done."""

    steps: tuple[Step, ...]
    finish: Mapping[str, Any]

    def pending(self) -> list[Step]:
        """The steps not done yet, in order."""
        return [step for step in self.steps if not step.done]


def next_action(plan: Plan) -> dict[str, Any]:
    """The first step of ``plan`` not done yet, else its finish."""
    pending = plan.pending()
    return dict(pending[0].action if pending else plan.finish)


def planned(reader: Reader, actions: Iterable[Mapping[str, Any]]) -> tuple[Step, ...]:
    """``actions`` as steps, each done once the observation shows it (:meth:`Reader.shows`)."""
    return tuple(Step(action, reader.shows(action)) for action in actions)


def on_account(reader: Reader, action: Mapping[str, Any]) -> Step:
    """The back-office ``action`` as a step, done once the account shows it carried out
    (:meth:`Reader.account_shows`)."""
    return Step(action, reader.account_shows(action))
