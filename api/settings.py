"""Server settings, read from the environment once at start-up. Every limit is explicit here."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        raise SystemExit(f"{name} must be an integer, not {raw!r}") from None


def _choice(name: str, allowed: tuple[str, ...]) -> str:
    raw = (os.environ.get(name) or allowed[0]).strip().lower()
    if raw not in allowed:
        raise SystemExit(f"{name} must be one of {', '.join(allowed)}, not {raw!r}")
    return raw


@dataclass(frozen=True)
class Settings:
    database_url: str | None = field(default_factory=lambda: os.environ.get("DATABASE_URL"))
    audit_token: str | None = field(
        default_factory=lambda: os.environ.get("TICKETLEDGER_AUDIT_TOKEN") or None)
    max_body_bytes: int = field(default_factory=lambda: _int("TICKETLEDGER_MAX_BODY_BYTES", 65_536))
    max_sessions: int = field(default_factory=lambda: _int("TICKETLEDGER_MAX_SESSIONS", 256))
    session_idle_timeout_s: int = field(
        default_factory=lambda: _int("TICKETLEDGER_SESSION_IDLE_TIMEOUT", 300))
    page_size_max: int = 500
    blocking_calls: str = field(
        default_factory=lambda: _choice("TICKETLEDGER_BLOCKING_CALLS", ("auto", "inline", "thread")))
    """Where agent-facing routes run the (blocking) service: ``inline`` on the event loop, or in
    the ``thread`` pool. ``auto``: inline for SQLite, whose calls are short and local and take one
    writer at a time anyway (a thread hand-off per call halved throughput in measurements);
    threads for PostgreSQL, where a call waits on the network and sessions should overlap."""
