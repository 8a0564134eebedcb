"""The environment as the runner sees it: reset and step returning plain JSON observations.

In-process (the default) wraps :class:`service.EnvironmentService`; with ``ENV_BASE_URL`` the same
interface speaks stateful HTTP to a server (:mod:`baseline.remote`). Both answer the observation
as JSON, which the runner types (:class:`domain.observation.Observation`) before an agent reads
it, so an agent behaves identically in-process and over the wire.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from service import EnvironmentService


@dataclass(frozen=True)
class EnvStep:
    episode_id: str
    observation: dict[str, Any]
    reward: float | None
    done: bool
    score: float | None = None  # exact score when the environment reports it
    head_hash: str | None = None  # hash-chain head after this step, when known
    grade: dict[str, Any] | None = None
    """Why the step earned its reward, as JSON (``domain.observation.PublicGrade``: the step
    answer's ``grade``); None after a reset, or from a server that does not say."""


class ActionRefused(Exception):
    """The environment refused an action without recording a step (HTTP 422 or InvalidAction)."""


class Env(Protocol):
    where: str

    def reset(self, task_id: str, seed: int | None, run_id: str | None) -> EnvStep: ...

    def step(self, episode_id: str, action: dict[str, Any]) -> EnvStep: ...

    def final(self, episode_id: str) -> dict[str, Any]:
        """What the environment's record says at the end (score, head hash); raises when it
        cannot be read (the caller reports that and falls back on the rewards)."""
        ...

    def end(self, episode_id: str) -> bool:
        """End the open episode from outside a step as ``cut_off`` (the driver stopped it);
        False when it had already ended (nothing to end)."""
        ...

    def close(self) -> None: ...


class LocalEnv:
    """The environment service in this process, on the run's database.

    The service is made by the first call that needs it: importing it loads the domain model and
    every grader, which the run does not need before its first episode starts (``inference.py``
    prints the episode's ``[START]`` line first)."""

    def __init__(self, db: Any, *, reward_mode: str = "dense"):
        self.db = db
        self.reward_mode = reward_mode
        self.where = f"in-process ({db.url})"
        self._service: EnvironmentService | None = None
        self._making = threading.Lock()  # concurrent episodes' first resets make one service

    @property
    def service(self) -> EnvironmentService:
        if self._service is None:
            with self._making:
                if self._service is None:
                    from service import EnvironmentService  # deferred: see the class docstring

                    self._service = EnvironmentService(self.db)
        return self._service

    @staticmethod
    def _out(result: Any) -> EnvStep:
        grade = result.public_grade
        return EnvStep(result.episode_id, result.observation.model_dump(mode="json"), result.reward,
                       result.done, result.state.score, result.head_hash,
                       None if grade is None else grade.model_dump(mode="json"))

    def reset(self, task_id: str, seed: int | None, run_id: str | None) -> EnvStep:
        return self._out(self.service.reset(task_id, seed, run_id=run_id, reward_mode=self.reward_mode))

    def step(self, episode_id: str, action: dict[str, Any]) -> EnvStep:
        from domain.actions import InvalidAction

        try:
            return self._out(self.service.step(episode_id, action))
        except InvalidAction as exc:
            raise ActionRefused(str(exc)) from None

    def end(self, episode_id: str) -> bool:
        from service.errors import EpisodeEnded

        try:
            self.service.end(episode_id, "cut_off")
        except EpisodeEnded:
            return False
        return True

    def final(self, episode_id: str) -> dict[str, Any]:
        state = self.service.state(episode_id)
        _, head = self.service.head(episode_id)
        return {"score": state.score, "head_hash": head, "steps": state.step_count}

    def close(self) -> None:
        """The database belongs to the runner, which disposes of it."""
