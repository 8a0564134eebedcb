"""Service errors. Each carries the HTTP status the API answers with and a message saying what to do."""

from __future__ import annotations


class ServiceError(Exception):
    status = 400
    code = "bad_request"


class EpisodeNotFound(ServiceError):
    status = 404
    code = "episode_not_found"


class EpisodeEnded(ServiceError):
    status = 409
    code = "episode_ended"


class EpisodeBusy(ServiceError):
    """Another step on the same episode is in flight, or was recorded first."""

    status = 409
    code = "conflict"


class BadRequest(ServiceError):
    status = 422
    code = "invalid_request"


class RunForbidden(ServiceError):
    """Filing an episode under a run without that run's secret or the audit token."""

    status = 403
    code = "run_forbidden"


class RunEnded(ServiceError):
    status = 409
    code = "run_ended"
