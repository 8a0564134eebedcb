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
a client must reach the same worker (the anonymous slot has the same rule).

No client can take another's session away. A session that no ``/ws`` uses is *pending*; each client
(its ``X-Episode-Key`` when it sends one, else its address) may hold at most
:attr:`Registry.per_client` pending sessions, each address at most :attr:`Registry.per_address`
whatever keys it sends (a fresh key per request buys no more), and the process at most
:attr:`Registry.limit` sessions in all. A create past any bound is refused
(:class:`SessionsRefused`, HTTP 429 on ``/mcp``) with a message saying which bound and how to free a
slot; it never evicts a session. A pending session is forgotten once it has gone unused for the idle
timeout (a ``/ws`` session's ``TICKETLEDGER_SESSION_IDLE_TIMEOUT``), so an abandoned one frees its
slot by itself.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from api.episode_routing import Target, new_key

SESSION_ID_BYTES = 32
PER_CLIENT_MOST = 64
"""Pending sessions one client may hold, at most (fewer when the process's limit is small): a
client opens its ``/ws`` right after it creates a session, so even a harness starting many
environments at once holds few pending at a time."""
ADDRESS_SHARE = 4
"""One address may hold at most a quarter of the process's sessions pending, however many keys it
sends: a client that sends a fresh ``X-Episode-Key`` with every create cannot fill the process."""


@dataclass
class Shared:
    """One session's episode stream: ``key`` scopes the ids it chooses; ``target`` is the episode
    its steps act on (None before a reset); ``attached`` while a ``/ws`` connection uses it;
    ``owner`` the client that made it and ``address`` where it came from (:func:`api.mcp.client_of`);
    ``used`` when it was last used
    (the registry's clock)."""

    key: str = field(default_factory=new_key)
    target: Target | None = None
    attached: bool = False
    owner: str = ""
    address: str = ""
    used: float = 0.0


class SessionsRefused(Exception):
    """A create past the client's bound or the process's; the message says which, and what to do."""


class Registry:
    """The process's production MCP sessions, oldest use first (the event loop is
    single-threaded: no lock)."""

    def __init__(self, limit: int, idle_s: float = 300.0, per_client: int | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.limit = max(1, limit)
        self.per_client = max(1, per_client if per_client is not None
                              else min(PER_CLIENT_MOST, self.limit // 4))
        self.per_address = max(self.per_client, self.limit // ADDRESS_SHARE)
        self.idle_s = idle_s
        self.clock = clock
        self.sessions: OrderedDict[str, Shared] = OrderedDict()

    def pending(self, owner: str) -> int:
        """How many sessions ``owner`` made that no ``/ws`` uses now."""
        return sum(1 for s in self.sessions.values() if s.owner == owner and not s.attached)

    def pending_from(self, address: str) -> int:
        """How many sessions made from ``address`` (under any key) no ``/ws`` uses now."""
        return sum(1 for s in self.sessions.values() if s.address == address and not s.attached)

    def refusal(self, owner: str, address: str = "", wanted: int = 1) -> str | None:
        """Why ``wanted`` more sessions for ``owner`` (from ``address``) would be refused now,
        or None."""
        self._forget_idle()
        free = ("Attach one (/ws?session_id=<id>) or end one (openenv/session/close) first; an "
                f"unused one is forgotten after {self.idle_s:g} s")
        held = self.pending(owner)
        if held + wanted > self.per_client:
            return (f"this client holds {held} MCP sessions with no /ws attached and may hold at "
                    f"most {self.per_client}; asked for {wanted} more. {free}")
        from_address = self.pending_from(address) if address else 0
        if address and from_address + wanted > self.per_address:
            return (f"this address holds {from_address} MCP sessions with no /ws attached, under "
                    f"any X-Episode-Key, and may hold at most {self.per_address}; asked for "
                    f"{wanted} more. {free}")
        if len(self.sessions) + wanted > self.limit:
            return (f"this server process holds {len(self.sessions)} MCP sessions, its limit is "
                    f"{self.limit} (4 x TICKETLEDGER_MAX_SESSIONS), and none is taken from another "
                    "client; retry later")
        return None

    def create(self, owner: str, address: str = "") -> str:
        refused = self.refusal(owner, address)
        if refused is not None:
            raise SessionsRefused(refused)
        session_id = secrets.token_urlsafe(SESSION_ID_BYTES)
        self.sessions[session_id] = Shared(owner=owner, address=address, used=self.clock())
        return session_id

    def get(self, session_id: object) -> Shared | None:
        """The session, marked as just used; None for an unknown (or closed, or forgotten) id."""
        if not isinstance(session_id, str):
            return None
        shared = self.sessions.get(session_id)
        if shared is not None and not shared.attached and self._idle(shared):
            del self.sessions[session_id]
            return None
        if shared is not None:
            shared.used = self.clock()
            self.sessions.move_to_end(session_id)
        return shared

    def close(self, session_id: object) -> bool:
        return isinstance(session_id, str) and self.sessions.pop(session_id, None) is not None

    def _idle(self, shared: Shared) -> bool:
        return self.clock() - shared.used > self.idle_s

    def detach(self, shared: Shared) -> None:
        """A ``/ws`` connection stopped using ``shared``: pending again, its idle time from now."""
        shared.attached = False
        shared.used = self.clock()

    def _forget_idle(self) -> None:
        """Drop pending sessions unused for the idle timeout; attached ones stay, whatever their
        age."""
        for session_id, shared in list(self.sessions.items()):
            if not shared.attached and self._idle(shared):
                del self.sessions[session_id]
