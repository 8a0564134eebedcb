"""Which episode an agent-facing request (stateful HTTP, an MCP tool call, a ``/ws`` step) acts on.

A request reaches only an episode it names (docs/security.md):

1. an ``episode_id`` in the body (or the query, for ``GET /state``), else the ``X-Episode-Id``
   header, else the ``ticketledger_episode`` cookie its own ``POST /reset`` set;
2. naming none, the *anonymous* episode: the one opened by the latest reset that itself named no
   episode and carried no cookie and no key (``curl -X POST /reset -d '{}'``, the SupportOps
   seed's scripts, which keep no cookies). A later such reset takes the slot over; an episode
   opened with a cookie, a key or an id is never reached this way, and neither is one whose
   client has since named it (sent back its cookie or its id): that client keeps cookies or ids,
   so the episode is claimed and leaves the slot;
3. otherwise a 400 saying how to name one (``GET /state`` answers OpenEnv's empty state instead).

Server-made ids (``ep_`` + 32 hex digits, 128 random bits) are stored as they are: unguessable;
a client may not choose an id of that form.
An id the client chose (``reset`` with ``episode_id``) is *scoped*: it is stored as
:func:`scoped_id` of the chosen id and the client's key, a secret the client sends as the
``X-Episode-Key`` header or that the server made and set as the ``ticketledger_key`` cookie (and
returned in the ``X-Episode-Key`` response header, for clients that keep no cookies). Only a
request with the same key reaches that episode by its name; another client choosing the same id
gets an episode of its own, and an unknown id and someone else's answer alike. Every answer, and
the episode's opening event, show the id the client chose; the episodes index (and so the audit
surface) holds the stored id. A named id that is not the caller's scoped one is looked up as it
is, which reaches server-made ids and the forks an auditor made.

The anonymous slot is per process: with several workers, name the episode or keep cookies.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

from fastapi import Response
from starlette.requests import HTTPConnection

from service.environment import check_episode_id
from service.errors import BadRequest

COOKIE = "ticketledger_episode"
KEY_COOKIE = "ticketledger_key"
HEADER = "x-episode-id"
KEY_HEADER = "x-episode-key"
KEY = re.compile(r"[A-Za-z0-9_-]{16,128}")
SERVER_MADE = re.compile(r"ep_[0-9a-f]{32}")

NO_EPISODE = ("this request names no episode: send episode_id in the body (or the query of GET "
              "/state), the X-Episode-Id header, or keep the cookie POST /reset sets (a bare "
              "request reaches only the episode of the latest reset that named none and carried "
              "no cookie)")


class NoEpisodeNamed(BadRequest):
    """A request that names no episode, and no anonymous episode to fall back on."""

    status = 400
    code = "no_episode_named"


def scoped_id(key: str, chosen: str) -> str:
    """The stored id of the episode id ``chosen`` under the client key ``key``."""
    return "c_" + hmac.new(key.encode(), chosen.encode(), hashlib.sha256).hexdigest()[:48]


def new_key() -> str:
    return secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Target:
    """An episode as a request named it: ``public`` is the name the client uses (and sees in
    answers); ``stored`` the ids to try, in order (its scoped id first, then the id as it is)."""

    public: str
    stored: tuple[str, ...]


@dataclass(frozen=True)
class Opening:
    """How a reset opens its episode: ``stored`` None lets the service make an id."""

    stored: str | None
    public: str | None
    key: str | None
    minted: bool
    anonymous: bool


def client_key(connection: HTTPConnection) -> str | None:
    """The caller's key: the ``X-Episode-Key`` header (422 if malformed), else the cookie."""
    given = connection.headers.get(KEY_HEADER)
    if given is not None:
        if not KEY.fullmatch(given):
            raise BadRequest("X-Episode-Key must be 16-128 characters of letters, digits, '_' and "
                             "'-' (a secret of your own, or the one a reset returned)")
        return given
    cookie = connection.cookies.get(KEY_COOKIE)
    return cookie if cookie and KEY.fullmatch(cookie) else None


def target(name: str, key: str | None) -> Target:
    """Where a request that names ``name`` goes, for the caller holding ``key``: a server-made id
    as it is; another name to the caller's own scoped episode first, else as it is."""
    if key is None or SERVER_MADE.fullmatch(name):
        return Target(name, (name,))
    return Target(name, (scoped_id(key, name), name))


class EpisodeRouter:
    def __init__(self) -> None:
        self.anonymous: str | None = None

    def resolve(self, connection: HTTPConnection, explicit: str | None = None) -> Target:
        """The episode this request acts on (module docstring); :class:`NoEpisodeNamed` if none."""
        name = explicit or connection.headers.get(HEADER) or connection.cookies.get(COOKIE)
        if name:
            if name == self.anonymous:
                # Its client names it (kept the cookie, or sends the id): it is that client's from
                # now on, and bare requests no longer reach it.
                self.anonymous = None
            return target(name, client_key(connection))
        if self.anonymous is None:
            raise NoEpisodeNamed(NO_EPISODE)
        return Target(self.anonymous, (self.anonymous,))

    def opening(self, connection: HTTPConnection, chosen: str | None,
                key: str | None = None) -> Opening:
        """How a reset from ``connection`` opens its episode (``chosen``: the id it asked for;
        ``key``: one this request already made, for a batch of MCP calls)."""
        key = key or client_key(connection)
        if chosen is None:
            bare = key is None and COOKIE not in connection.cookies and \
                KEY_COOKIE not in connection.cookies and HEADER not in connection.headers
            return Opening(None, None, key, False, bare)
        check_episode_id(chosen)
        if SERVER_MADE.fullmatch(chosen):
            raise BadRequest("episode ids of the form ep_<32 hex digits> are made by the server; "
                             "choose another, or omit episode_id to get a fresh one")
        minted = key is None
        key = key or new_key()
        return Opening(scoped_id(key, chosen), chosen, key, minted, False)

    def started(self, response: Response, opening: Opening, stored: str, public: str) -> None:
        """After a reset: the cookie that routes this client's next requests, its key (header,
        and a cookie when the server made it), and the anonymous slot for a bare reset."""
        response.set_cookie(COOKIE, public, httponly=True, samesite="lax", path="/")
        if opening.public is not None and opening.key is not None:
            response.headers[KEY_HEADER] = opening.key
            if opening.minted:
                response.set_cookie(KEY_COOKIE, opening.key, httponly=True, samesite="lax", path="/")
        if opening.anonymous:
            self.anonymous = stored
