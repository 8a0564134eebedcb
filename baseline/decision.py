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


@dataclass(frozen=True)
class Decision:
    action: dict[str, Any]
    chosen_by: str  # a model name, or the built-in policy's name
    error: str | None = None  # why the preferred agent was not used, one line
    calls: tuple[LLMCall, ...] = field(default_factory=tuple)


class Agent(Protocol):
    name: str

    def models_for(self, task_id: str, difficulty: str) -> tuple[str, ...]: ...

    def act(self, observation: dict[str, Any]) -> Decision: ...
