"""Request/response conversations with a real server, normalised so two runs compare equal.

A conversation is a list of exchanges over one transport:

* ``http``: ``{"request": {"method", "path", "json"? | "content"?, "headers"?, "params"?},
  "response": {"status", "type", "body"}}``; ``body`` is the parsed JSON (``None`` when empty, the
  text when not JSON), ``type`` the media type without parameters. A conversation either keeps
  cookies (httpx, requests sessions, browsers) or drops them after every request (the SupportOps
  seed's scripts, ``curl``). ``POST /mcp`` is a ``http`` conversation too.
* ``ws``: one connection to ``/ws``; ``{"send": <message> | {"raw": text} | {"bytes": text},
  "receive": <message> | {"closed": <close code>}}``.

Normalised away, in responses and in what later requests quote from them: random episode ids
(``ep_`` + 24 hex digits) become ``<episode-N>``, numbered by first appearance in the
conversation; in conversations whose episodes have random ids, hash-chain hashes (64 hex digits,
which cover the episode id through the opening event) become ``<hash-N>`` the same way; values of
``*_at`` members (timestamps) become ``<timestamp>``. Conversations that name their episodes
keep the real hashes, so those are compared exactly. A request string ``<<repeat:C:N>>`` stands
for ``N`` copies of ``C`` (large bodies without large files).

Ids a client chooses are scoped to its key (the routing release, ``api.episode_routing``): the conversations
that name their own episodes (``random_ids`` false, HTTP and ``/ws``) are one client, which sends
its key (:data:`CLIENT_KEY`, the ``X-Episode-Key`` header) with every request, as a client that
keeps no cookies must to reach its ids again, and addresses the audit routes, which take stored ids,
by the stored id of each id it chose (:class:`Scopes`); stored ids in answers are shown as the ids
chosen.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from api.episode_routing import KEY_HEADER, scoped_id

EPISODE = re.compile(r"\bep_[0-9a-f]{32}\b")
HASH = re.compile(r"\b[0-9a-f]{64}\b")
PLACEHOLDER = re.compile(r"<(episode|hash)-\d+>")
REPEAT = re.compile(r"<<repeat:(.):(\d+)>>")
TIMEOUT_S = 30.0


class Names:
    """Placeholders for one conversation's random values, both ways."""

    def __init__(self, hashes: bool):
        self.hashes = hashes
        self.to_name: dict[str, str] = {}
        self.to_value: dict[str, str] = {}
        self.counts = {"episode": 0, "hash": 0}

    def _name(self, kind: str, value: str) -> str:
        if value not in self.to_name:
            self.counts[kind] += 1
            name = f"<{kind}-{self.counts[kind]}>"
            self.to_name[value], self.to_value[name] = name, value
        return self.to_name[value]

    def text(self, value: str) -> str:
        value = EPISODE.sub(lambda m: self._name("episode", m.group()), value)
        if self.hashes:
            value = HASH.sub(lambda m: self._name("hash", m.group()), value)
        return value

    def normalise(self, value: Any, key: str = "") -> Any:
        """``value`` with random parts named; dict members are visited in sorted order, so the
        numbering does not depend on the order a server writes members in."""
        if isinstance(value, dict):
            return {k: self.normalise(value[k], k) for k in sorted(value)}
        if isinstance(value, list):
            return [self.normalise(v) for v in value]
        if isinstance(value, str):
            if key.endswith("_at"):
                return "<timestamp>"
            return self.text(value)
        return value

    def fill(self, value: Any) -> Any:
        """A recorded request with the placeholders replaced by this run's values."""
        if isinstance(value, dict):
            return {k: self.fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.fill(v) for v in value]
        if isinstance(value, str):
            value = REPEAT.sub(lambda m: m.group(1) * int(m.group(2)), value)
            return PLACEHOLDER.sub(lambda m: self.to_value.get(m.group(), m.group()), value)
        return value


CLIENT_KEY = "golden-wire-client-key"
"""The key the conversations that name their own episodes send (module docstring)."""


class Scopes:
    """The ids a conversation that names its own episodes chose, and their stored ids."""

    def __init__(self, conversation: dict[str, Any]) -> None:
        self.key = None if conversation["random_ids"] else CLIENT_KEY
        self.stored: dict[str, str] = {}  # stored id -> id chosen

    def sent(self, request: dict[str, Any]) -> dict[str, Any]:
        """``request`` with the key header and audit paths on stored ids."""
        if self.key is None:
            return request
        body = request.get("json")
        chosen = body.get("episode_id") if isinstance(body, dict) else None
        if request["path"] == "/reset" and isinstance(chosen, str):
            self.stored[scoped_id(self.key, chosen)] = chosen
        path = request["path"]
        if path.startswith("/episodes/"):
            for stored, name in self.stored.items():
                path = re.sub(rf"/{re.escape(name)}(?=/|$)", f"/{stored}", path)
        return {**request, "path": path,
                "headers": {**request.get("headers", {}), KEY_HEADER: self.key}}

    def shown(self, value: Any) -> Any:
        """``value`` with stored ids shown as the ids chosen."""
        if isinstance(value, dict):
            return {k: self.shown(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.shown(v) for v in value]
        if isinstance(value, str):
            for stored, name in self.stored.items():
                value = value.replace(stored, name)
        return value


def _body(response: httpx.Response) -> Any:
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError:
        return response.text


def http_conversation(base_url: str, conversation: dict[str, Any]) -> list[dict[str, Any]]:
    """Send the conversation's requests in order; the normalised exchanges."""
    names = Names(hashes=conversation["random_ids"])
    scopes = Scopes(conversation)
    out = []
    with httpx.Client(base_url=base_url, timeout=TIMEOUT_S) as client:
        for exchange in conversation["exchanges"]:
            request = exchange["request"]
            sent = names.fill(request)
            sent = scopes.sent(sent)
            kwargs: dict[str, Any] = {k: sent[k] for k in ("json", "headers", "params") if k in sent}
            if "content" in sent:
                kwargs["content"] = sent["content"].encode()
            response = client.request(sent["method"], sent["path"], **kwargs)
            if not conversation["cookies"]:
                client.cookies.clear()
            media = response.headers.get("content-type", "").split(";")[0].strip() or None
            out.append({"request": request, "response": names.normalise(scopes.shown(
                {"status": response.status_code, "type": media, "body": _body(response)}))})
    return out


def ws_conversation(base_url: str, conversation: dict[str, Any]) -> list[dict[str, Any]]:
    """One ``/ws`` connection: send each message, read one reply (or the close)."""
    names = Names(hashes=conversation["random_ids"])
    out = []
    url = base_url.replace("http://", "ws://") + "/ws"
    key = Scopes(conversation).key
    headers = {KEY_HEADER: key} if key else None
    with connect(url, open_timeout=TIMEOUT_S, max_size=None, additional_headers=headers) as ws:
        for exchange in conversation["exchanges"]:
            message = exchange["send"]
            sent = names.fill(message)
            if isinstance(sent, dict) and set(sent) == {"raw"}:
                ws.send(sent["raw"])
            elif isinstance(sent, dict) and set(sent) == {"bytes"}:
                ws.send(sent["bytes"].encode("latin-1"))
            else:
                ws.send(json.dumps(sent))
            try:
                received: Any = json.loads(ws.recv(timeout=TIMEOUT_S))
            except ConnectionClosed as closed:
                received = {"closed": closed.rcvd.code if closed.rcvd else None}
            out.append({"send": message, "receive": names.normalise(received)})
    return out


def play(base_url: str, conversation: dict[str, Any]) -> list[dict[str, Any]]:
    run = http_conversation if conversation["transport"] == "http" else ws_conversation
    return run(base_url, conversation)
