"""Service errors. Each carries the HTTP status the API answers with and a message saying what to do."""

from __future__ import annotations

from domain.ids import id_rule, is_id


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


class GraderRetiredError(ServiceError):
    """The episode was recorded under a retired grader (``graders.retired``): it can be replayed,
    verified and re-graded, but no new step of it can be graded, so it is neither continued nor
    forked."""

    status = 409
    code = "grader_retired"


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


class RunNotFound(ServiceError):
    status = 404
    code = "run_not_found"


def check_run_id(run_id: str) -> str:
    """A run id as a route or command names it: the id rule (``domain.ids``)."""
    if not is_id(run_id):
        raise BadRequest(id_rule("run_id", run_id))
    return run_id
