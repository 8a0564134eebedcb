"""Family solvers: per task family, an agent that reaches the family's decision from the observation.

A solver (``baseline/solvers/<family>.py``, ``act(observation) -> action``) is stateless like the
built-in policy: it reads only the observation (through :class:`baseline.reader.Reader`: the
ticket, its facts, the account, the policies looked up, what was already done) and its knowledge
of the family's policy, never the spec, the variables or the answer key, and plays the first step
of its plan not yet done (:mod:`baseline.plan`). ``ticketledger tasks verify`` plays each instance
with its family's solver to prove the instance is solvable and its case recoverable from what an
agent sees.
"""

from __future__ import annotations

import importlib

from baseline.agent import Agent, Rule, RuleAgent

FAMILY_TASK_PREFIX = "task_family_"


class NoSolver(LookupError):
    """A family without a ``baseline/solvers/<family>.py``."""


def solver_for(family: str) -> Agent:
    """The solver of ``family`` (its name or its task id), as an agent named ``<family>-solver``."""
    name = family.removeprefix(FAMILY_TASK_PREFIX)
    try:
        module = importlib.import_module(f"baseline.solvers.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"baseline.solvers.{name}":
            raise
        raise NoSolver(f"family {name!r} has no solver (baseline/solvers/{name}.py)") from None
    act: Rule = module.act
    return RuleAgent(f"{name}-solver", act)
