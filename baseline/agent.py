"""The one agent protocol: the typed observation in, a :class:`Decision` (the action and who chose
it) out.

Every player of an episode is an :class:`Agent`: the built-in policy (:mod:`baseline.policy`), each
family solver (:mod:`baseline.solvers`), the LLM agent (:mod:`baseline.llm`). The runner of
``inference.py``, the in-memory play of task verification (:mod:`evaluation.play`) and the grader
audit all call ``act`` and nothing else, so any agent plays anywhere. The input is
:class:`domain.observation.Observation`, the model the environment builds, so an agent reads typed
fields rather than guessing at JSON. The action it returns stays JSON (what is sent to the
environment and printed on the step line): a model's answer may be one the environment refuses,
and that refusal is the environment's to make, not the agent's.

A rule-following agent, one that maps an observation to an action with no model behind it, is a
:class:`RuleAgent` around its choosing function.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the runner prints its first line before the domain model is loaded
    from domain.observation import Observation


@dataclass(frozen=True)
class LLMCall:
    """One request to a model: how long it took, what it used, and how it failed (if it did)."""

    model: str
    latency_s: float
    ok: bool
    failure: str | None = None  # timeout | http_error | connection | not_json | invalid_action | ...
    detail: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


NO_ACTOR = "none"
"""Who acted in a failed step: nobody. Every model failed and no fallback was allowed, so the
runner sends :data:`FAILED_STEP_ACTION` (the step counts against ``max_steps``, the log records a
no-op and its penalty) and the run record counts the step as nobody's."""

FAILED_STEP_ACTION: dict[str, Any] = {"action_type": "noop"}


@dataclass(frozen=True)
class Decision:
    """What an agent hands its driver for one step: the action, who chose it, and what it cost."""

    action: dict[str, Any]
    chosen_by: str  # a model name, a rule agent's name, or NO_ACTOR (a failed step)
    error: str | None = None  # why the preferred agent was not used, one line
    calls: tuple[LLMCall, ...] = field(default_factory=tuple)


class Agent(Protocol):
    """Anything that plays an episode, one observation at a time."""

    @property
    def name(self) -> str:
        """Who the agent is, as run records and step lines name it."""
        ...

    def models_for(self, task_id: str, difficulty: str) -> tuple[str, ...]:
        """The models it would ask on a task, in order (a rule agent: its own name)."""
        ...

    def act(self, observation: Observation) -> Decision:
        """The next action for ``observation``."""
        ...


Rule = Callable[["Observation"], dict[str, Any]]
"""A rule-following agent's choice: the observation in, the next action (JSON) out."""


@dataclass(frozen=True)
class RuleAgent:
    """An agent with no model behind it: ``choose`` decides every step, and the agent's name is the
    only "model" it names."""

    name: str
    choose: Rule

    def models_for(self, task_id: str, difficulty: str) -> tuple[str, ...]:
        return (self.name,)

    def act(self, observation: Observation) -> Decision:
        return Decision(self.choose(observation), self.name)
