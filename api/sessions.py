"""OpenEnv's production MCP sessions: one episode stream shared by HTTP ``/mcp`` and ``/ws``.

OpenEnv's ``MCPToolClient`` (production mode) first asks ``POST /mcp`` for
``openenv/session/create``, then opens ``/ws?session_id=<id>`` for reset, step and state, and
sends ``tools/list`` and ``tools/call`` over HTTP with ``"session_id"`` in the params; all of them
must act on the same episode. A :class:`Shared` session holds that episode and the key its chosen
ids are scoped to (``api.episode_routing``); a plain ``/ws`` connection has a private one.

A session id is a capability: 256 random bits, made by the server, never listed; it
reaches the session's episodes and nothing else. One ``/ws`` connection at a time may use a
session (a second is refused while the first is open), and ``openenv/session/close`` ends it.
Sessions live in the worker process that made them, as ``/ws`` sessions do: with several workers
a client must reach the same worker (the anonymous slot has the same rule). There are at most
:attr:`Registry.limit` of them; making one more forgets the one idle longest (no ``/ws`` open).
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, field

from api.episode_routing import Target, new_key

SESSION_ID_BYTES = 32


@dataclass
class Shared:
    """One session's episode stream: ``key`` scopes the ids it chooses; ``target`` is the episode
    its steps act on (None before a reset); ``attached`` while a ``/ws`` connection uses it."""

    key: str = field(default_factory=new_key)
    target: Target | None = None
    attached: bool = False


class SessionsFull(Exception):
    """Every session slot is held by an open ``/ws`` connection."""


class Registry:
    """The process's production MCP sessions, oldest use first (the event loop is
    single-threaded: no lock)."""

    def __init__(self, limit: int):
        self.limit = max(1, limit)
        self.sessions: OrderedDict[str, Shared] = OrderedDict()

    def create(self) -> str:
        if len(self.sessions) >= self.limit:
            idle = next((sid for sid, s in self.sessions.items() if not s.attached), None)
            if idle is None:
                raise SessionsFull(f"all {self.limit} MCP sessions are in use; retry later")
            del self.sessions[idle]
        session_id = secrets.token_urlsafe(SESSION_ID_BYTES)
        self.sessions[session_id] = Shared()
        return session_id

    def get(self, session_id: object) -> Shared | None:
        """The session, marked as just used; None for an unknown (or closed, or forgotten) id."""
        if not isinstance(session_id, str):
            return None
        shared = self.sessions.get(session_id)
        if shared is not None:
            self.sessions.move_to_end(session_id)
        return shared

    def close(self, session_id: object) -> bool:
        return isinstance(session_id, str) and self.sessions.pop(session_id, None) is not None
