"""``WS /ws``: OpenEnv's session protocol, one episode stream per connection.

Client: ``{"type": "reset", "data": {task_id?, seed?, episode_id?, run_id?}}``, ``{"type": "step",
"data": {<action>}}`` (the action may carry ``episode_id`` to go on with a recorded episode, e.g. a
fork, or one this session's key opened; the session follows it from then on; ids a session chooses
are scoped to its ``X-Episode-Key`` handshake header or cookie, else to the session itself:
``api.episode_routing``), ``{"type": "state"}``, ``{"type": "close"}``. Server: ``{"type":
"observation", "data": {"observation", "reward", "done", "episode_id", ...}}``, ``{"type": "state",
"data": {...}}``, or ``{"type": "error", "data": {"message", "code"}}`` with OpenEnv's codes. A bad
message gets an error and the session carries on; only the idle timeout, ``close`` or a disconnect
end it. OpenEnv's ``MCPToolClient`` connects to ``/ws?session_id=<id>`` (an id from
``openenv/session/create`` over ``/mcp``: ``api.sessions``) to share that session's episode with its
HTTP tool calls, and sends tools as steps: ``{"type": "step", "data": {"type": "call_tool",
"tool_name", "arguments"}}`` (answered with an observation holding ``tool_name``, ``result``, the
MCP tool result, and ``error``) or ``{"type": "list_tools"}``. Sessions are capped per server
process (``TICKETLEDGER_MAX_SESSIONS``); past the cap a connection gets ``CAPACITY_REACHED`` and is
closed (1013) after the client's first message, so a client that sends before it reads still reads
why."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from pydantic import BaseModel
from pydantic_core import to_json
from starlette.requests import HTTPConnection

from api.deps import Env, Environment
from api.episode_routing import Target, client_key, new_key
from api.episode_routing import target as target_of
from api.errors import describe
from api.mcp import TOOL_NAMES, TOOLS, session_tool, tool_failure, tool_result
from api.models import PublicState
from api.protocol import openenv_answer, read_json, reset_answer, reset_body, step_body
from api.sessions import Registry, Shared
from domain.actions import InvalidAction
from domain.tasks import UnknownTask
from service.errors import BadRequest, EpisodeEnded, ServiceError

log = logging.getLogger("ticketledger.ws")

TRY_AGAIN_LATER = 1013  # WebSocket close code: server overloaded
POLICY_VIOLATION = 1008  # WebSocket close code: a session id that is not the caller's to use
REFUSAL_GRACE_S = 2.0
"""How long a refused connection waits for the client's first message before the close."""
MESSAGE_TYPES = ("reset", "step", "state", "close")


class SessionError(Exception):
    """A message the session cannot act on; ``code`` is one of OpenEnv's error codes."""

    def __init__(self, code: str, message: str, **extra: Any):
        super().__init__(message)
        self.code = code
        self.extra = extra


@dataclass
class Sessions:
    """Open WebSocket sessions of this process (the event loop is single-threaded: no lock)."""

    limit: int
    active: int = 0

    def acquire(self) -> bool:
        if self.active >= self.limit:
            return False
        self.active += 1
        return True

    def release(self) -> None:
        self.active -= 1


def frame(kind: str, data: BaseModel) -> str:
    """A ``{"type", "data"}`` message, ``data`` serialised by pydantic with the rest."""
    return to_json({"type": kind, "data": data}).decode()


def error_frame(code: str, message: str, **extra: Any) -> str:
    return json.dumps({"type": "error", "data": {"message": message, "code": code, **extra}})


class Session:
    """One connection's episode."""

    def __init__(self, env: Environment, connection: HTTPConnection, shared: Shared):
        self.env = env
        self.connection = connection  # the handshake: its headers may carry a run secret
        self.max_bytes = env.settings.max_body_bytes
        self.shared = shared  # the episode stream; its key scopes the ids this session chooses
        self.opened: str | None = None
        """The stored id of the episode this session's latest reset opened (``end_opened``)."""

    @property
    def key(self) -> str:
        return self.shared.key

    @property
    def target(self) -> Target | None:
        return self.shared.target

    @target.setter
    def target(self, value: Target) -> None:
        self.shared.target = value

    async def handle(self, text: str) -> tuple[str, bool]:
        """The reply to one message, and whether the session ends."""
        try:
            return await self._dispatch(text)
        except SessionError as exc:
            return error_frame(exc.code, str(exc), **exc.extra), False
        except (InvalidAction, UnknownTask, BadRequest) as exc:
            _, body = describe(exc)
            return error_frame("VALIDATION_ERROR", body["detail"], **_details(body)), False
        except Exception as exc:
            status, body = describe(exc)
            if status == 500:
                log.exception("unhandled error in a WebSocket session", exc_info=exc)
            return error_frame("EXECUTION_ERROR", body["detail"], **_details(body)), False

    async def _dispatch(self, text: str) -> tuple[str, bool]:
        if len(text) > self.max_bytes:
            raise SessionError("VALIDATION_ERROR", f"message is {len(text)} characters; the limit is "
                               f"{self.max_bytes} (TICKETLEDGER_MAX_BODY_BYTES)")
        try:
            message = read_json(text, "message")
        except BadRequest as exc:
            raise SessionError("INVALID_JSON", _decode_error(text) or f"Invalid JSON: {exc}") from None
        if not isinstance(message, dict):
            raise SessionError("VALIDATION_ERROR", 'a message must be a JSON object such as '
                               '{"type": "reset", "data": {}}')
        kind = message.get("type")
        if kind not in MESSAGE_TYPES:
            raise SessionError("UNKNOWN_TYPE", f"Unknown message type: {_short(kind)}; use one of "
                               f"{', '.join(MESSAGE_TYPES)}")
        if kind == "close":
            return "", True
        if kind == "state":
            state = PublicState() if self.target is None else await self.env.state(self.target)
            return frame("state", state), False
        data = message.get("data", {})
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise SessionError("VALIDATION_ERROR", f"'data' of a {kind} message must be a JSON object")
        if kind == "reset":
            body = reset_body(data)
            result = await self.env.reset(body, self.env.episodes.opening(self.connection,
                                                                          body.episode_id, self.key),
                                          self.connection)
            self.target = Target(result.state.episode_id, (result.episode_id,))
            self.opened = result.episode_id
            return frame("observation", reset_answer(result)), False
        if data.get("type") in ("call_tool", "list_tools"):
            return frame_data("observation", await self._tool(data)), False
        step = step_body(data)
        # named: go on with an episode of this key, or a recorded one (a fork)
        target = target_of(step.episode_id, self.key) if step.episode_id else self.target
        if target is None:
            raise SessionError("EXECUTION_ERROR", 'no episode in this session yet: send '
                               '{"type": "reset"} first (or name one: "episode_id" in the step '
                               'data)', status=409)
        result = await self.env.step(target, step.action)
        self.target = Target(result.state.episode_id, (result.episode_id,))  # the one that exists
        return frame("observation", openenv_answer(result)), False

    async def end_opened(self) -> None:
        """When the session ends (``close``, a disconnect, the idle timeout): end the episode its
        latest reset opened as ``disconnected`` if it is still open, so the log says why it
        stopped (``EnvironmentService.end``: not graded, nothing paid, ``truncated``). An episode
        the session only went on with by naming it is left as it is: another client may hold it."""
        if self.opened is None:
            return
        opened, self.opened = self.opened, None
        with contextlib.suppress(EpisodeEnded):  # it ended in a step: nothing to end
            await self.env.run(self.env.service.end, opened, "disconnected")


    async def _tool(self, data: dict[str, Any]) -> dict[str, Any]:
        """OpenEnv's MCP actions as a step: ``list_tools``, or ``call_tool`` of one of ``/mcp``'s
        tools on this session's episode, answered as OpenEnv's ``CallToolObservation``."""
        if data["type"] == "list_tools":
            return {"observation": {"tools": TOOLS}, "reward": None, "done": False}
        unknown = sorted(set(data) - {"type", "tool_name", "arguments"})
        if unknown:
            raise BadRequest(f"unknown field {unknown[0]!r}; call_tool takes: tool_name, arguments")
        name, args = data.get("tool_name"), data.get("arguments") or {}
        if not isinstance(name, str) or name not in TOOL_NAMES:
            raise BadRequest(f"unknown tool {name!r}; list_tools names the tools")
        if not isinstance(args, dict):
            raise BadRequest("'arguments' of call_tool must be a JSON object")
        try:
            payload = await session_tool(self.env, self.connection, self.shared, name, dict(args))
        except Exception as exc:
            result = tool_failure(exc)
            return {"observation": {"tool_name": name, "result": result, "error": {
                "error_type": "execution_error", "message": result["content"][0]["text"]}},
                "reward": None, "done": False}
        answer: dict[str, Any] = {k: payload[k] for k in ("reward", "done", "terminated", "truncated",
                                           "end_reason", "episode_id", "head_hash", "grade")
                  if k in payload}
        return {"observation": {"tool_name": name, "result": tool_result(payload), "error": None},
                "reward": None, "done": False, **answer}


def frame_data(kind: str, data: dict[str, Any]) -> str:
    return json.dumps({"type": kind, "data": data})


def _decode_error(text: str) -> str | None:
    """The standard library's words for a syntax error (the protocol's wording since v1), or
    ``None`` when the mistake is another (too deep, a number too long: ``read_json`` says it)."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return f"Invalid JSON: {exc}"
    except (ValueError, RecursionError):
        return None
    return None


def _short(value: Any) -> str:
    """``repr(value)`` cut to a readable length (a message must not echo a whole frame)."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _details(body: dict[str, Any]) -> dict[str, Any]:
    return {k: body[k] for k in ("status", "field", "allowed") if k in body}


async def _receive_text(websocket: WebSocket, idle_s: float) -> str | None:
    """The next text message; ``None`` when the peer left. Binary frames are read as UTF-8."""
    async with asyncio.timeout(idle_s):  # cheaper than wait_for: no task per message
        message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    text: str | None = message.get("text")
    if text is not None:
        return text
    try:
        return (message.get("bytes") or b"").decode()
    except UnicodeDecodeError:
        return "\x00invalid utf-8"  # fails json.loads -> INVALID_JSON, the session carries on


async def _refuse(websocket: WebSocket, sessions: Sessions) -> None:
    """Say ``CAPACITY_REACHED``, then close with 1013 once the client has sent its first message
    (or after :data:`REFUSAL_GRACE_S`). A client connects, sends its reset, then reads: closing at
    once made that send fail on the close, and the client never read why."""
    await websocket.send_text(error_frame(
        "CAPACITY_REACHED", f"server at capacity: {sessions.active} of {sessions.limit} sessions "
        "in use (TICKETLEDGER_MAX_SESSIONS); retry later",
        active_sessions=sessions.active, max_sessions=sessions.limit))
    with contextlib.suppress(Exception):  # timeout, disconnect: close (or find closed) below
        async with asyncio.timeout(REFUSAL_GRACE_S):
            await websocket.receive()
    with contextlib.suppress(Exception):
        await websocket.close(code=TRY_AGAIN_LATER)


async def session_endpoint(websocket: WebSocket, env: Env) -> None:
    sessions: Sessions = websocket.app.state.ws_sessions
    await websocket.accept()
    if not sessions.acquire():
        await _refuse(websocket, sessions)
        return
    shared = _shared(websocket)
    if shared is None:
        sessions.release()
        await websocket.send_text(error_frame(
            "SESSION_ERROR", "unknown session_id, or a connection already uses it: "
            "openenv/session/create over POST /mcp makes one"))
        await websocket.close(code=POLICY_VIOLATION)
        return
    shared.attached = True
    registry: Registry = websocket.app.state.mcp_sessions
    session = Session(env, websocket, shared)
    idle = float(env.settings.session_idle_timeout_s)
    try:
        while True:
            try:
                text = await _receive_text(websocket, idle)
            except TimeoutError:
                await websocket.send_text(error_frame(
                    "SESSION_ERROR", f"session idle for {idle:g} s "
                    "(TICKETLEDGER_SESSION_IDLE_TIMEOUT); closed. Reconnect and reset to go on; "
                    "the episode stays in the log"))
                break
            if text is None:
                return
            reply, done = await session.handle(text)
            if done:
                break
            await websocket.send_text(reply)
    except WebSocketDisconnect:
        return
    except Exception:  # a broken connection must never take the server down
        log.exception("WebSocket session failed")
    finally:
        sessions.release()
        registry.detach(shared)
        if websocket.query_params.get("session_id") is None:
            # A private session's episode ends with it; an MCP session (session_id) lives on,
            # its episode reachable by its HTTP tool calls, until the session is closed.
            try:
                await session.end_opened()
            except ServiceError as exc:  # another client's step on it in flight, say
                log.warning("did not end the episode of a closed WebSocket session: %s", exc)
            except Exception:  # the server shutting down, the database gone: log, never raise
                log.exception("could not end the episode of a closed WebSocket session")
    with contextlib.suppress(Exception):
        await websocket.close()


def _shared(websocket: WebSocket) -> Shared | None:
    """The connection's episode stream: the production MCP session its ``session_id`` names
    (None if unknown or already in use), else a private one under the handshake's key."""
    session_id = websocket.query_params.get("session_id")
    if session_id is not None:
        registry: Registry = websocket.app.state.mcp_sessions
        named = registry.get(session_id)
        return named if named is not None and not named.attached else None
    try:
        key = client_key(websocket) or new_key()
    except BadRequest:
        key = new_key()  # a malformed X-Episode-Key: this session's ids are its own
    return Shared(key)


def install(app: FastAPI) -> None:
    limit = app.state.environment.settings.max_sessions
    app.state.ws_sessions = Sessions(limit)
    app.state.mcp_sessions = Registry(  # a session waits for its /ws a while
        4 * limit, idle_s=float(app.state.environment.settings.session_idle_timeout_s))
    app.add_api_websocket_route("/ws", session_endpoint)
