"""The server's log: TicketLedger's own lines beside uvicorn's, and no secret in any of them.

uvicorn logs each request's path with its query string (the access log, ``--access-log``, and on
by default under plain ``uvicorn server.app:app``) and each WebSocket handshake's (its error log,
at INFO). A query string may carry a secret: the viewer takes the audit token as ``/ui?token=...``.
:class:`RedactSecrets`, put on those loggers by :func:`install` when the app is created (so every
way of starting it gets it, worker processes too), replaces the value of every query parameter
whose name says it is a secret with ``***`` before the line is written.

:func:`log_config` is uvicorn's logging set-up plus the ``ticketledger`` loggers (``ticketledger.api``:
client disconnects, unexpected errors) on uvicorn's handler and level, for ``ticketledger serve``.
"""

from __future__ import annotations

import copy
import logging
import re
from typing import Any

SECRET_PARAMETER = re.compile(
    r"(?P<name>[?&][^=&#\s\"]*(?:token|secret|password|passwd|api[_-]?key)[^=&#\s\"]*=)"
    r"[^&#\s\"]*", re.IGNORECASE)
"""A query parameter whose name holds token, secret, password or api key, up to its value's end."""

REDACTED = "***"

LOGGERS = ("uvicorn.access", "uvicorn.error")
"""uvicorn's loggers that write request paths (a filter on a logger sees what is logged through
that very logger, which is how uvicorn logs)."""


def redact(text: str) -> str:
    """``text`` with the value of every secret-named query parameter replaced by ``***``."""
    return SECRET_PARAMETER.sub(lambda m: m["name"] + REDACTED, text)


class RedactSecrets(logging.Filter):
    """Redacts secret query parameters in a record's message and its string arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        return True


def install() -> None:
    """Put :class:`RedactSecrets` on uvicorn's loggers, once per process."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's default logging configuration with the ``ticketledger`` loggers added at ``level``
    (uvicorn's level names: ``info``, ``trace``, ...)."""
    from uvicorn.config import LOG_LEVELS, LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["loggers"]["ticketledger"] = {"handlers": ["default"], "level": LOG_LEVELS[level],
                                         "propagate": False}
    return config
