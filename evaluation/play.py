"""An agent plays one episode in memory, through the service's own step.

What the offline task verification (:mod:`evaluation.task_families`) judges each instance by, and
what the grader audit (:mod:`evaluation.grader_audit`) takes as a task family's correct work: the
episode is decided, folded and graded by :func:`service.environment.step_in_memory`, exactly as
over the service, without a store.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from domain.observation import observe
from domain.tasks.catalog import Catalog
from service.environment import open_in_memory, step_in_memory

Agent = Callable[[Mapping[str, Any]], dict[str, Any]]
"""An agent: the observation (as JSON) in, the next action out."""


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
    choosing every action from the observation."""
    state = open_in_memory(catalog, task_id, seed)
    actions: list[dict[str, Any]] = []
    components: dict[str, tuple[int, int]] = {}
    while not state.done:
        action = agent(observe(state, catalog).model_dump(mode="json"))
        actions.append(action)
        try:
            state, grade = step_in_memory(state, action)
        except ValueError as exc:  # InvalidAction; EpisodeFinished cannot happen (not done)
            return Played(state.score, state.step_count, components, tuple(actions), str(exc), False)
        components = {c.name: (c.earned, c.weight) for c in grade.components}
    return Played(state.score, state.step_count, components, tuple(actions), None, state.truncated)
