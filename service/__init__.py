"""The environment service: ties the pure domain and graders to the event store.

Used in-process (``inference.py``, tests, benchmarks) and by the HTTP API alike.

:class:`EnvironmentService` and its request and result types are loaded when first asked for,
not with the package: every entry point reads ``service.settings`` before anything else, and
loading the environment (the domain model and every grader) with it would make commands that play
no episode (``ticketledger tasks``, ``ticketledger runs``, ``--help``) pay for all of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from service.errors import EpisodeBusy, EpisodeEnded, EpisodeNotFound, ServiceError

if TYPE_CHECKING:
    from service.environment import EnvironmentService, ResetRequest, StepResult

__all__ = ["EnvironmentService", "EpisodeBusy", "EpisodeEnded", "EpisodeNotFound", "ResetRequest",
           "ServiceError", "StepResult"]

_FROM_ENVIRONMENT = frozenset({"EnvironmentService", "ResetRequest", "StepResult"})


def __getattr__(name: str) -> Any:
    if name in _FROM_ENVIRONMENT:
        from service import environment  # deferred: see the module docstring

        return getattr(environment, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
