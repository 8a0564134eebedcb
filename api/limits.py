"""Request body limits, enforced in ASGI before any route reads the body: size, time, disconnects.

A declared ``Content-Length`` over the limit is refused at once, unread. A chunked body (no
length) is counted as it streams in; the moment it passes the limit the read fails with 413, so a
huge body is never held in memory whole. The limit is ``Settings.max_body_bytes``
(``TICKETLEDGER_MAX_BODY_BYTES``, 64 KiB by default).

A body must arrive whole within ``Settings.body_timeout_s`` (``TICKETLEDGER_BODY_TIMEOUT``) of the
request's headers; a slower one is answered 408 and its connection closed, so a client trickling
its body holds a connection (and a slot of ``TICKETLEDGER_MAX_CONNECTIONS``) for that long at most.
uvicorn has no such timeout of its own (nor one for headers: docs/operations.md says what a public
deployment puts in front of it).

A client that closes its connection before its body is in is routine on a network, not a server
error: it is one INFO line on the ``ticketledger.api`` logger, never a traceback (the routes read
bodies with ``Request.body()``, which raises ``ClientDisconnect`` for it).
"""

from __future__ import annotations

import asyncio
import json
import logging

from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from domain.actions import MAX_REPLY_CHARS

log = logging.getLogger("ticketledger.api")


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a streamed body passes the limit (an HTTPException, so FastAPI's
    body reading passes it through unchanged and the JSON error handler answers it)."""

    code = "body_too_large"

    def __init__(self, limit: int, size: int | None = None):
        seen = f"is {size} bytes, over" if size is not None else "passed"
        super().__init__(413, f"request body {seen} the limit of {limit} bytes "
                              f"(TICKETLEDGER_MAX_BODY_BYTES); send less. A reply draft holds at "
                              f"most {MAX_REPLY_CHARS} characters")


class BodyTimeout(HTTPException):
    """Raised from ``receive`` when the body has not arrived whole in time (answered like
    :class:`BodyTooLarge`; the connection is closed after the answer)."""

    code = "body_timeout"

    def __init__(self, timeout_s: float, seen: int):
        super().__init__(408, f"request body not complete {timeout_s:g} s after its headers "
                              f"({seen} bytes arrived; TICKETLEDGER_BODY_TIMEOUT); send the whole "
                              "body at once", headers={"connection": "close"})


LARGER_BODIES: dict[str, int] = {}
"""Paths whose bodies may be larger than ``max_body_bytes``, with their own limit: a route module
that takes a whole file (``POST /bundles/verify``) registers its path here. Such a route reads its
body itself, after its token check, so nobody without the token makes the server read one."""


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int, timeout_s: float):
        self.app = app
        self.max_bytes = max_bytes
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        limit, timeout_s = max(self.max_bytes, LARGER_BODIES.get(scope["path"], 0)), self.timeout_s
        if declared is not None and declared > limit:
            await _send_error(send, BodyTooLarge(limit, declared))
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout_s
        seen = 0
        complete = False  # the whole body is in: later reads (waiting for a disconnect) pass through
        gone = False  # the client closed its connection before its body was in
        started = False

        async def guarded_receive() -> Message:
            nonlocal seen, complete, gone
            if complete:
                return await receive()
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                raise BodyTimeout(timeout_s, seen) from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
                complete = not message.get("more_body", False)
            elif message["type"] == "http.disconnect":
                gone = True
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, guarded_receive, tracking_send)
        except (BodyTooLarge, BodyTimeout) as exc:  # raised where no handler caught it
            if started:
                raise
            await _send_error(send, exc)
        except ClientDisconnect:
            if not gone:
                raise
        if gone:  # whatever the route made of it, one line (the answer went nowhere)
            log.info("%s closed the connection after %d of %s body bytes: %s %s",
                     _client(scope), seen, declared if declared is not None else "?",
                     scope["method"], _path(scope))


def _client(scope: Scope) -> str:
    client = scope.get("client")
    return f"client {client[0]}:{client[1]}" if client else "a client"


def _path(scope: Scope) -> str:
    """The path as the client sent it, without the query string (which may hold a secret), and
    with anything unprintable escaped: a decoded ``%0a`` must not start a line of its own."""
    raw = scope.get("raw_path") or scope["path"].encode()
    return str(raw.decode("latin-1").encode("unicode_escape").decode("ascii"))


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _send_error(send: Send, exc: BodyTooLarge | BodyTimeout) -> None:
    body = json.dumps({"detail": exc.detail, "code": exc.code, "status": exc.status_code}).encode()
    await send({"type": "http.response.start", "status": exc.status_code,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
