"""An agent plays one episode in memory, through the service's own step.

What the offline task verification (:mod:`evaluation.task_families`) judges each instance by, and
what the grader audit (:mod:`evaluation.grader_audit`) takes as a task family's correct work: the
episode is reset and stepped by :class:`service.EnvironmentService` on a log kept in memory
(:meth:`~service.EnvironmentService.in_memory`), exactly as any client's, with nothing written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from baseline.agent import Agent
from domain.actions import InvalidAction
from domain.tasks.catalog import Catalog
from service.environment import EnvironmentService


@dataclass(frozen=True, slots=True)
class Played:
    """One episode played in memory by an agent."""

    score: float
    steps: int
    components: dict[str, tuple[int, int]]
    """Each component's (earned, weight) at the last step."""
    actions: tuple[dict[str, Any], ...]
    error: str | None
    """Why the environment refused to parse an action (the episode stopped there)."""
    truncated: bool
    """The step budget ended the episode, not the agent's resolve or close."""


def play(catalog: Catalog, task_id: str, seed: int | None, agent: Agent) -> Played:
    """One episode of ``task_id`` at ``seed`` (None: its published variant) in memory, ``agent``
    choosing every action from the observation. Each episode gets a log of its own, so nothing
    outlives it."""
    service = EnvironmentService.in_memory(catalog)
    result = service.reset(task_id, seed)
    actions: list[dict[str, Any]] = []
    components: dict[str, tuple[int, int]] = {}
    while not result.done:
        action = agent.act(result.observation).action
        actions.append(action)
        try:
            result = service.step(result.episode_id, action)
        except InvalidAction as exc:  # the episode is not done, so it cannot have ended
            state = result.state
            return Played(state.score, state.step_count, components, tuple(actions), str(exc), False)
        if result.grade is not None:
            components = {c.name: (c.earned, c.weight) for c in result.grade.components}
    state = result.state
    return Played(state.score, state.step_count, components, tuple(actions), None, state.truncated)
