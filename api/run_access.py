"""Who may file an episode under a run: the run's own secret, or the audit token.

A reset that names a ``run_id`` is filed under that run, and the run's results (``GET /runs/{id}``,
``ticketledger runs``) are folds of its episodes, so an episode filed by anyone else would change
them. Every agent-facing transport resets through :meth:`api.deps.Environment.reset`, which calls
:func:`check_filing` with the request (or the WebSocket handshake) that asked; so the rule is here
once, for ``POST /reset``, ``/ws`` and MCP's ``reset`` tool alike.

The secret travels in the ``X-Run-Secret`` header (on ``POST /reset``, on ``POST /mcp``, on the
``/ws`` handshake), never in a body: a body field would show in the reset schema that every client
reads (``tools/list``, the error that lists reset's fields) and would end up wherever bodies are
logged. The audit token is the bearer token of the audit routes (``TICKETLEDGER_AUDIT_TOKEN``); it
counts only when one is configured. An unknown run, a run recorded before secrets existed, an ended
run and a wrong secret all get the same 403.
"""

from __future__ import annotations

import secrets

from starlette.requests import HTTPConnection

from domain.ids import id_rule, is_id
from service.errors import BadRequest, RunForbidden
from service.settings import Settings
from store.runs import RunStore

RUN_SECRET_HEADER = "x-run-secret"


def is_audit_token(given: str, settings: Settings) -> bool:
    """Whether ``given`` is ``TICKETLEDGER_AUDIT_TOKEN`` (compared in constant time); never true
    when no token is configured. The one comparison of the audit token, for the audit routes and
    for filing under a run."""
    expected = settings.audit_token
    if not expected:
        return False
    return secrets.compare_digest(given.encode(), expected.encode())


def audit_token_presented(connection: HTTPConnection, settings: Settings) -> bool:
    """Whether the request carries ``Authorization: Bearer <TICKETLEDGER_AUDIT_TOKEN>``."""
    scheme, _, given = connection.headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and is_audit_token(given.strip(), settings)


def check_filing(runs: RunStore, settings: Settings, connection: HTTPConnection | None,
                 run_id: str | None) -> None:
    """Raise :class:`RunForbidden` (403) unless the caller may file a new episode under ``run_id``.

    ``connection`` None is a caller inside this process (there is no request to hold a secret), and
    is refused like a stranger."""
    if run_id is None:
        return
    if not is_id(run_id):  # before any query: PostgreSQL cannot even compare some (NUL)
        raise BadRequest(id_rule("run_id", run_id))
    if connection is not None and audit_token_presented(connection, settings):
        return
    secret = connection.headers.get(RUN_SECRET_HEADER) if connection is not None else None
    if runs.may_file(run_id, secret):
        return
    raise RunForbidden(
        f"cannot file episodes under run {run_id!r}: send the run's secret (the run_secret "
        "POST /runs returned) in the X-Run-Secret header while the run is running, or the audit "
        "token as 'Authorization: Bearer <TICKETLEDGER_AUDIT_TOKEN>'; omit run_id to play "
        "without a run")
