"""What an agent hands the runner for one step: the action, who chose it, and what it cost."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol


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
    action: dict[str, Any]
    chosen_by: str  # a model name, the built-in policy's name, or NO_ACTOR (a failed step)
    error: str | None = None  # why the preferred agent was not used, one line
    calls: tuple[LLMCall, ...] = field(default_factory=tuple)


class Agent(Protocol):
    name: str

    def models_for(self, task_id: str, difficulty: str) -> tuple[str, ...]: ...

    def act(self, observation: dict[str, Any]) -> Decision: ...
