"""Episodes played offline in the tests, the way the product plays them: through
:class:`service.EnvironmentService` on a log kept in memory (``EnvironmentService.in_memory``).

:class:`Offline` is one such episode, stepped forward; the tests that examine the grader or the
customer on a state read ``.state`` between steps.
"""

from __future__ import annotations

from typing import Any

from domain.state import EpisodeState
from domain.tasks.catalog import Catalog
from graders.versions import StepGradeView
from service import EnvironmentService, StepResult


class Offline:
    """An episode of ``task_id`` at ``seed`` on its own in-memory log."""

    def __init__(self, catalog: Catalog, task_id: str, seed: int | None):
        self.service = EnvironmentService.in_memory(catalog)
        self.result: StepResult = self.service.reset(task_id, seed)

    @property
    def state(self) -> EpisodeState:
        return self.result.state

    def step(self, action: Any) -> tuple[EpisodeState, StepGradeView]:
        """One step through the service: the state after it and its grade."""
        self.result = self.service.step(self.result.episode_id, action)
        assert self.result.grade is not None
        return self.result.state, self.result.grade


def opening(catalog: Catalog, task_id: str, seed: int | None) -> EpisodeState:
    """The state a reset of ``task_id`` at ``seed`` opens."""
    return Offline(catalog, task_id, seed).state
