"""Host and Origin checks, before any route runs: against DNS rebinding and cross-site requests.

* **Host**: the ``Host`` header (without its port) must be one of ``TICKETLEDGER_ALLOWED_HOSTS``
  (default: ``localhost``, ``127.0.0.1``, ``::1`` and ``*.hf.space``, a Hugging Face Space's own
  address); otherwise 400. A page on another site that rebinds its own name to this machine sends
  its own name as ``Host``, so it is refused here. An IP address as ``Host`` is always served: a
  rebound name never is one, and a container's or a LAN address reached directly (a platform's
  health check, ``docker run -p``) needs no list.
* **Origin**: a request that carries ``Origin`` and changes state (any method but ``GET``,
  ``HEAD`` and ``OPTIONS``) or opens ``/ws`` must come from the server's own origin (the Origin's
  host and port are the ``Host`` header) or one of ``TICKETLEDGER_ALLOWED_ORIGINS``; otherwise
  403 (a WebSocket handshake is refused with 403 before it is accepted). Requests without
  ``Origin`` pass: curl, the OpenEnv and OpenAI clients and other programs send none, while a
  browser sends one on every cross-site ``POST`` (a ``text/plain`` one too, which needs no CORS
  preflight) and every WebSocket handshake, which is what this stops.

A plain ASGI middleware (not ``BaseHTTPMiddleware``), so streamed bodies and WebSocket sessions
pass through untouched.
"""

from __future__ import annotations

import ipaddress
import json
from urllib.parse import urlsplit

from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send

from api.errors import HTTP_CODES, error_body
from service.settings import Settings

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def host_name(host: str) -> str:
    """``Host`` header -> the name without its port (``[::1]:7860`` -> ``::1``), lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else host[1:]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def host_allowed(name: str, allowed: tuple[str, ...]) -> bool:
    """Whether ``name`` (:func:`host_name`) is listed in ``allowed`` or is an IP address. The list
    is tried first: it holds the names clients use (``localhost``, ``127.0.0.1``), which then
    need no address parsing."""
    for pattern in allowed:
        pattern = pattern.strip("[]")
        if pattern == "*" or name == pattern:
            return True
        if pattern.startswith("*.") and name.endswith(pattern[1:]):
            return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True  # an address, not a name: nothing to rebind (module docstring)


def origin_allowed(origin: str, host: str, allowed: tuple[str, ...]) -> bool:
    """Same origin (the Origin's ``host[:port]`` is the Host header; the scheme is not compared,
    because behind a TLS-terminating proxy such as a Space's the server sees ``http``), or listed."""
    origin = origin.strip().lower().rstrip("/")
    if "*" in allowed or origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(parts.netloc) and parts.netloc == host.lower()


class Guard:
    """The checks of the module docstring, around the whole app."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...],
                 allowed_origins: tuple[str, ...]) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts
        self.allowed_origins = tuple(o.rstrip("/") for o in allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]
                   if k in (b"host", b"origin")}
        host = headers.get("host", "")
        if not host_allowed(host_name(host), self.allowed_hosts):
            await _refuse(scope, send, 400, f"Host {host!r} is not served here; allowed hosts: "
                          f"{', '.join(self.allowed_hosts)} (TICKETLEDGER_ALLOWED_HOSTS)")
            return
        origin = headers.get("origin")
        changes_state = scope["type"] == "websocket" or scope["method"] not in SAFE_METHODS
        if origin is not None and changes_state and not origin_allowed(origin, host,
                                                                       self.allowed_origins):
            await _refuse(scope, send, 403, f"requests from origin {origin!r} are refused: only "
                          "this server's own origin and TICKETLEDGER_ALLOWED_ORIGINS may change "
                          "state or open /ws (programs that send no Origin header are not "
                          "affected)")
            return
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, send: Send, status: int, detail: str) -> None:
    if scope["type"] == "websocket":
        # Closing before accepting: the server answers the handshake with HTTP 403.
        await send({"type": "websocket.close", "code": 1008, "reason": detail[:120]})
        return
    body = json.dumps(error_body(status, detail, HTTP_CODES[status])).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def install(app: FastAPI, settings: Settings) -> None:
    app.add_middleware(Guard, allowed_hosts=settings.allowed_hosts,
                       allowed_origins=settings.allowed_origins)
