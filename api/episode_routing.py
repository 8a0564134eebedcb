"""Which episode a stateful HTTP request (or an MCP tool call) acts on.

In order: an ``episode_id`` in the body (or query, for GET), the ``X-Episode-Id`` header, the
cookie ``POST /reset`` sets, and finally the episode of the most recent ``POST /reset`` in this
server process. The last is a single-user convenience for ``curl`` and the SupportOps seed's
scripts, which keep no cookies; clients that keep cookies (httpx, requests sessions, browsers) are
isolated from each other without doing anything. With several workers, send the id or keep
cookies: "most recent" is per process.
"""

from __future__ import annotations

from fastapi import Request, Response

from service.errors import EpisodeNotFound

COOKIE = "ticketledger_episode"
HEADER = "x-episode-id"


class EpisodeRouter:
    def __init__(self) -> None:
        self.latest: str | None = None

    def resolve(self, request: Request, explicit: str | None = None) -> str:
        episode_id = (explicit or request.headers.get(HEADER) or request.cookies.get(COOKIE)
                      or self.latest)
        if not episode_id:
            raise EpisodeNotFound(
                "no episode to act on: call POST /reset first (its cookie routes later requests), "
                "or name one with episode_id in the body or the X-Episode-Id header")
        return episode_id

    def started(self, response: Response, episode_id: str) -> None:
        """Remember a fresh reset: the cookie for this client, ``latest`` for cookie-less ones."""
        self.latest = episode_id
        response.set_cookie(COOKIE, episode_id, httponly=True, samesite="lax", path="/")
