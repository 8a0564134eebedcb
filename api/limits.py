"""Request body limit, enforced in ASGI before any route reads the body.

A declared ``Content-Length`` over the limit is refused at once, unread. A chunked body (no
length) is counted as it streams in; the moment it passes the limit the read fails with 413, so a
huge body is never held in memory whole. The limit is ``Settings.max_body_bytes``
(``TICKETLEDGER_MAX_BODY_BYTES``, 64 KiB by default).
"""

from __future__ import annotations

import json

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from domain.actions import MAX_REPLY_CHARS


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a streamed body passes the limit (an HTTPException, so FastAPI's
    body reading passes it through unchanged and the JSON error handler answers it)."""

    code = "body_too_large"

    def __init__(self, limit: int, size: int | None = None):
        seen = f"is {size} bytes, over" if size is not None else "passed"
        super().__init__(413, f"request body {seen} the limit of {limit} bytes "
                              f"(TICKETLEDGER_MAX_BODY_BYTES); send less. A reply draft holds at "
                              f"most {MAX_REPLY_CHARS} characters")


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await _send_error(send, BodyTooLarge(self.max_bytes, declared))
            return
        limit = self.max_bytes
        seen = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(limit)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except BodyTooLarge as exc:  # raised where no handler caught it (e.g. in a middleware)
            if started:
                raise
            await _send_error(send, exc)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _send_error(send: Send, exc: BodyTooLarge) -> None:
    body = json.dumps({"detail": exc.detail, "code": exc.code, "status": 413}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
