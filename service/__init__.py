"""The environment service: ties the pure domain and graders to the event store.

Used in-process (``inference.py``, tests, benchmarks) and by the HTTP API alike.
"""

from service.environment import EnvironmentService, ResetRequest, StepResult
from service.errors import EpisodeBusy, EpisodeEnded, EpisodeNotFound, ServiceError

__all__ = ["EnvironmentService", "EpisodeBusy", "EpisodeEnded", "EpisodeNotFound", "ResetRequest",
           "ServiceError", "StepResult"]
