"""The server's log: TicketLedger's own lines beside uvicorn's, and no secret in any of them.

uvicorn logs each request's path with its query string (the access log, ``--access-log``, and on
by default under plain ``uvicorn server.app:app``) and each WebSocket handshake's (its error log,
at INFO). A query string may carry a secret or a capability: the viewer takes the audit token as
``/ui?token=...``, OpenEnv's production client opens ``/ws?session_id=<id>`` (the id is all it takes
to use the session), and a careless client may put a run secret, an episode key or an episode id
there. :class:`RedactSecrets` masks the value of every query parameter whose name (percent-decoded,
any case) says it is one of those, and anything named or shaped as a secret (an ``Authorization``
value, an API key), before a line is written: ``domain.redaction``, the one place that knows what a
secret looks like.

It is configured the way Python's logging documents: :func:`log_config`, the configuration
``ticketledger serve`` hands uvicorn (``dictConfig``), names it as a filter of every handler, so a
line from any logger those handlers write is redacted. For servers started otherwise (``uvicorn
server.app:app``, worker processes), :func:`install`, called when the app is created, adds it to
uvicorn's loggers and to their handlers, once per process.

:func:`log_config` also adds the ``ticketledger`` loggers (``ticketledger.api``: client disconnects,
unexpected errors, the audit surface's state) on uvicorn's handler and level.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

from domain import redaction

LOGGERS = ("uvicorn", "uvicorn.access", "uvicorn.error")
"""uvicorn's loggers: a filter on a logger sees what is logged through that very logger (how
uvicorn logs requests); the same filter on their handlers sees what reaches them from elsewhere."""

FILTER_NAME = "redact_secrets"


def redact(text: str) -> str:
    """A log line as it may be written (``domain.redaction.redact_log_line``)."""
    return redaction.redact_log_line(text)


class RedactSecrets(logging.Filter):
    """Redacts secret query parameters in a record's message and its string arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: redact(v) if isinstance(v, str) else v
                           for k, v in record.args.items()}
        return True


def install() -> None:
    """Put :class:`RedactSecrets` on uvicorn's loggers and on their handlers, once each."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        for owner in (logger, *logger.handlers):
            if not any(isinstance(f, RedactSecrets) for f in owner.filters):
                owner.addFilter(RedactSecrets())


def log_config(level: str) -> dict[str, Any]:
    """uvicorn's default logging configuration with :class:`RedactSecrets` on every handler and
    the ``ticketledger`` loggers added at ``level`` (uvicorn's level names: ``info``, ``trace``,
    ...)."""
    from uvicorn.config import LOG_LEVELS, LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})[FILTER_NAME] = {"()": f"{__name__}.RedactSecrets"}
    for handler in config["handlers"].values():
        handler["filters"] = [*handler.get("filters", []), FILTER_NAME]
    config["loggers"]["ticketledger"] = {"handlers": ["default"], "level": LOG_LEVELS[level],
                                         "propagate": False}
    return config
