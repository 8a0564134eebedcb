"""Family solvers: per task family, an agent that reaches the family's decision from the observation.

A solver (``baseline/solvers/<family>.py``, ``act(observation) -> action``) is stateless like the
built-in policy: it reads only the observation (the ticket, its facts, the account, the policies
looked up, what was already done) and its knowledge of the family's policy, never the spec, the
variables or the answer key. ``ticketledger tasks verify`` plays each instance with its family's
solver to prove the instance is solvable and its case recoverable from what an agent sees.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

Solver = Callable[[Mapping[str, Any]], dict[str, Any]]
FAMILY_TASK_PREFIX = "task_family_"


class NoSolver(LookupError):
    """A family without a ``baseline/solvers/<family>.py``."""


def solver_for(family: str) -> Solver:
    """The ``act`` function of ``family`` (its name or its task id)."""
    name = family.removeprefix(FAMILY_TASK_PREFIX)
    try:
        module = importlib.import_module(f"baseline.solvers.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"baseline.solvers.{name}":
            raise
        raise NoSolver(f"family {name!r} has no solver (baseline/solvers/{name}.py)") from None
    act: Solver = module.act
    return act


def next_step(observation: Mapping[str, Any],
              plan: list[tuple[bool, dict[str, Any]]], finish: dict[str, Any]) -> dict[str, Any]:
    """The first planned action not yet done (``(done, action)`` pairs, in order), else ``finish``:
    how a stateless solver picks its next action from a plan it rebuilds every step."""
    for done, action in plan:
        if not done:
            return action
    return finish


def first_name(observation: Mapping[str, Any]) -> str:
    ticket = observation.get("ticket") or {}
    parts = str(ticket.get("customer_name") or "there").split()
    return parts[0] if parts else "there"


def facts(observation: Mapping[str, Any]) -> dict[str, str]:
    ticket = observation.get("ticket") or {}
    return {str(k): str(v) for k, v in (ticket.get("facts") or {}).items()}


SECOND_REQUEST_CUES = ("also,", "by the way", "unrelated,", "unrelated but", "one more thing")


def second_request(observation: Mapping[str, Any]) -> bool:
    """Whether the message carries a second, unrelated request the reply should acknowledge."""
    ticket = observation.get("ticket") or {}
    text = str(ticket.get("message") or "").lower()
    return any(cue in text for cue in SECOND_REQUEST_CUES)


SECOND_REQUEST_REPLY = ("As for your other question, I have passed it to the right team and they "
                        "will answer it separately.")
