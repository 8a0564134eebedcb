"""``POST /mcp``: JSON-RPC 2.0 with the MCP methods an agent needs to play over tool calls.

``initialize``, ``ping``, ``tools/list`` and ``tools/call``. The tools are ``reset``, ``state`` and
one tool per action type (``classify_priority``, ``assign_queue``, ...; declared once in
``service.tools``), whose arguments are the action's fields plus an optional ``episode_id``;
episodes are routed like stateful HTTP (``api.episode_routing``). OpenEnv's production-mode
sessions: ``openenv/session/create`` answers a ``session_id``, which ``tools/call`` params and
``/ws?session_id=`` name to share one episode stream (``api.sessions``);
``openenv/session/close`` ends it. Every answer is HTTP 200 with a JSON-RPC body
(``POST /mcp {}`` gets an ``Invalid Request`` error object), except notifications, which get 202 and
no body, and a request whose session creates pass a bound of ``api.sessions``, which gets 429 (whole,
before any of it runs). A tool that fails on its input (an invalid action, an ended episode)
answers a result with ``isError: true`` and the message, as MCP asks; protocol mistakes answer
JSON-RPC errors. A body is read by the parser of every other transport
(``api.protocol.read_json``); a batch holds at most :data:`MAX_BATCH` requests, and a longer one
is refused whole, before any of it runs.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace
from typing import Any

from fastapi import FastAPI, Request, Response
from starlette.requests import HTTPConnection

from api.deps import Env, Environment
from api.episode_routing import NoEpisodeNamed, Opening, Target, client_key
from api.episode_routing import target as target_of
from api.errors import describe
from api.models import ResetBody
from api.protocol import openenv_answer, read_json, reset_answer, reset_body
from api.sessions import Registry, SessionsRefused, Shared
from service.errors import BadRequest
from service.tools import TOOLS as TOOLS_DECLARED
from service.tools import TOOLS_BY_NAME
from support.schemas import inline_refs

PROTOCOL_VERSIONS = ("2025-06-18", "2025-03-26", "2024-11-05")
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = (
    -32700, -32600, -32601, -32602, -32603)
JSON = "application/json"
MAX_BATCH = 32
"""Requests in one JSON-RPC batch. A batch runs in one HTTP request, one call after another: an
agent needs one call per step, and a 64 KiB batch of resets would otherwise open hundreds of
episodes while holding up every other client of the worker."""
SESSIONS_REFUSED = -32001
"""JSON-RPC error (the server-defined range) of an ``openenv/session/create`` past a bound of
``api.sessions``; the HTTP answer is 429."""
ID_MIN, ID_MAX = -(2**63), 2**63 - 1
"""A numeric request id is a 64-bit integer, like every other number the API takes."""
log = logging.getLogger("ticketledger.mcp")

EPISODE_ARG = {"type": "string", "description": "Episode to act on (default: the X-Episode-Id "
               "header, the cookie from reset, else the latest reset)"}
"""As recorded in the golden wire exchanges; "the latest reset" is the latest that named no
episode and carried no cookie (``api.episode_routing``)."""


class RpcError(Exception):
    def __init__(self, code: int, message: str):
        super().__init__(message)
        self.code = code


ADDED_LAST = ("message_customer",)
"""Action types added after the tool list was first published, listed after the others (which
are in alphabetical order) in the order they were added, so the earlier tools keep their
positions."""


def action_tools() -> list[dict[str, Any]]:
    """One tool per action type, from the tools' declaration (``service.tools``): its arguments
    the action's parameters, each with the schema its model gives it, plus ``episode_id``. The
    description is the model's docstring as ``/schema`` shows it (the recorded wire exchanges
    hold this list), where the chat schema and the TRL adapter show it as one paragraph."""
    names = sorted(t.name for t in TOOLS_DECLARED if t.name not in ADDED_LAST)
    names += [name for name in ADDED_LAST if name in TOOLS_BY_NAME]
    tools = []
    for tool in (TOOLS_BY_NAME[name] for name in names):
        props = {p.name: p.schema for p in tool.parameters}
        props["episode_id"] = EPISODE_ARG
        tools.append({
            "name": tool.name,
            "description": tool.schema.get("description") or f"Apply the {tool.name} action to the ticket.",
            "inputSchema": {"type": "object", "properties": props, "required": tool.required,
                            "additionalProperties": False},
        })
    return tools


def all_tools() -> list[dict[str, Any]]:
    reset_schema = inline_refs(ResetBody.model_json_schema())
    reset_schema.pop("title", None)
    return [
        {"name": "reset", "description": "Start a new episode (a ticket to work on); returns the "
         "first observation and the episode id.", "inputSchema": reset_schema},
        {"name": "state", "description": "The public state of an episode (no answer key).",
         "inputSchema": {"type": "object", "properties": {"episode_id": EPISODE_ARG},
                         "additionalProperties": False}},
        *action_tools(),
    ]


TOOLS = all_tools()
TOOL_NAMES = frozenset(tool["name"] for tool in TOOLS)


NO_SESSION_EPISODE = ("this session has no episode yet: call the reset tool first (or name one "
                      "with episode_id)")


def tool_result(payload: dict[str, Any]) -> dict[str, Any]:
    """A successful ``tools/call`` result: the payload as text and as structured content."""
    return {"content": [{"type": "text", "text": json.dumps(payload)}],
            "structuredContent": payload, "isError": False}


def tool_failure(exc: Exception) -> dict[str, Any]:
    """A ``tools/call`` result for a tool that failed on its input (MCP's ``isError``); a fault
    of ours (500) is raised again for the caller to answer as one."""
    status, body = describe(exc)
    if status == 500:
        raise exc
    return {"content": [{"type": "text", "text": body["detail"]}], "structuredContent": body,
            "isError": True}


async def session_tool(env: Environment, connection: HTTPConnection, shared: Shared, name: str,
                       args: dict[str, Any]) -> dict[str, Any]:
    """Run tool ``name`` in a shared session (``api.sessions``), over ``/mcp`` or ``/ws``: a reset
    opens the session's episode under its key, the other tools act on it (or on an
    ``episode_id`` they name, routed under the same key)."""
    if name == "reset":
        body = reset_body(args)
        result = await env.reset(body, env.episodes.opening(connection, body.episode_id, shared.key),
                                 connection)
        shared.target = Target(result.state.episode_id, (result.episode_id,))
        return reset_answer(result).model_dump(mode="json")
    explicit = args.pop("episode_id", None)
    if explicit is not None and not isinstance(explicit, str):
        raise BadRequest("episode_id must be a string")
    target = target_of(explicit, shared.key) if explicit else shared.target
    if target is None:
        raise NoEpisodeNamed(NO_SESSION_EPISODE)
    if name == "state":
        if args:
            raise BadRequest(f"unknown argument {sorted(args)[0]!r}; state takes: episode_id")
        return (await env.state(target)).model_dump(mode="json")
    result = await env.step(target, {"action_type": name, **args})
    shared.target = Target(result.state.episode_id, (result.episode_id,))
    return openenv_answer(result).model_dump(mode="json")


class McpCall:
    """One HTTP request's worth of JSON-RPC calls (remembers a reset, to set the cookie)."""

    def __init__(self, request: Request, env: Environment):
        self.request = request
        self.env = env
        self.started: tuple[Opening, str, str] | None = None
        self.key: str | None = None  # a key made for this request's resets, shared by a batch
        self.minted = False
        self.sessions: Registry = request.app.state.mcp_sessions
        self.refused = False  # a session create was refused: the answer is HTTP 429

    async def answer(self, message: Any) -> dict[str, Any] | None:
        """The response object, or ``None`` for a notification."""
        if not isinstance(message, dict):
            return _error(None, INVALID_REQUEST, "Invalid Request: a JSON-RPC request is an object "
                          'such as {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}')
        request_id = message.get("id")
        if not _valid_id(request_id):
            return _error(None, INVALID_REQUEST, "Invalid Request: \"id\" must be a string, an "
                          f"integer from {ID_MIN} to {ID_MAX}, or null")
        if message.get("jsonrpc") != "2.0" or not isinstance(message.get("method"), str):
            return _error(request_id, INVALID_REQUEST, "Invalid Request: needs \"jsonrpc\": \"2.0\" "
                          "and a \"method\" (initialize, tools/list, tools/call, ping)")
        notification = "id" not in message
        try:
            params = message.get("params", {})
            if params is None:
                params = {}
            if not isinstance(params, dict):
                raise RpcError(INVALID_PARAMS, "Invalid params: params must be an object")
            result = await self._method(message["method"], params)
        except RpcError as exc:
            return None if notification else _error(request_id, exc.code, str(exc))
        except Exception as exc:  # a bug: log it, answer JSON-RPC's internal error
            log.exception("unhandled error in MCP method %s", message.get("method"), exc_info=exc)
            return None if notification else _error(request_id, INTERNAL_ERROR, describe(exc)[1]["detail"])
        return None if notification else {"jsonrpc": "2.0", "id": request_id, "result": result}

    async def _method(self, method: str, params: dict[str, Any]) -> Any:
        if method == "initialize":
            asked = params.get("protocolVersion")
            return {"protocolVersion": asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0],
                    "capabilities": {"tools": {"listChanged": False}},
                    "serverInfo": {"name": "ticketledger", "version": self.request.app.version},
                    "instructions": "Call reset, then one action tool per step until done; "
                                    "tools/list gives each action's arguments."}
        if method == "ping" or method.startswith("notifications/"):
            return {}
        if method == "tools/list":
            return {"tools": TOOLS}
        if method == "tools/call":
            return await self._call(params)
        if method == "openenv/session/create":
            try:
                return {"session_id": self.sessions.create(*client_of(self.request))}
            except SessionsRefused as exc:
                self.refused = True
                raise RpcError(SESSIONS_REFUSED, str(exc)) from None
        if method == "openenv/session/close":
            return {"session_id": params.get("session_id"),
                    "closed": self.sessions.close(params.get("session_id"))}
        raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method[:80]!r}; supported: initialize, "
                       "ping, tools/list, tools/call")

    async def _call(self, params: dict[str, Any]) -> dict[str, Any]:
        name = params.get("name")
        args = params.get("arguments") or {}
        if not isinstance(args, dict):
            raise RpcError(INVALID_PARAMS, "Invalid params: arguments must be an object")
        if not isinstance(name, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: name must be a string, the name of a "
                           "tool; tools/list names the tools")
        if name not in TOOL_NAMES:
            raise RpcError(INVALID_PARAMS, f"Unknown tool {name[:80]!r}; tools/list names the tools")
        shared = None
        if "session_id" in params:
            shared = self.sessions.get(params["session_id"])
            if shared is None:
                raise RpcError(INVALID_PARAMS, "Invalid params: unknown session_id; "
                               "openenv/session/create makes one")
        try:
            if shared is not None:
                payload = await session_tool(self.env, self.request, shared, name, dict(args))
            else:
                payload = await self._run(name, dict(args))
        except Exception as exc:
            return tool_failure(exc)
        return tool_result(payload)

    async def _run(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        if name == "reset":
            body = reset_body(args)
            opening = self.env.episodes.opening(self.request, body.episode_id, self.key)
            self.key, self.minted = opening.key, self.minted or opening.minted
            result = await self.env.reset(body, opening, self.request)
            self.started = (replace(opening, minted=self.minted), result.episode_id,
                            result.state.episode_id)
            return reset_answer(result).model_dump(mode="json")
        explicit = args.pop("episode_id", None)
        if explicit is not None and not isinstance(explicit, str):
            raise BadRequest("episode_id must be a string")
        target = self.env.episodes.resolve(self.request, explicit)
        if name == "state":
            if args:
                raise BadRequest(f"unknown argument {sorted(args)[0]!r}; state takes: episode_id")
            return (await self.env.state(target)).model_dump(mode="json")
        result = await self.env.step(target, {"action_type": name, **args})
        return openenv_answer(result).model_dump(mode="json")


def _valid_id(request_id: Any) -> bool:
    """JSON-RPC's id: a string, a number (here an integer in 64 bits) or null."""
    if isinstance(request_id, bool):
        return False
    return (request_id is None or isinstance(request_id, str)
            or (isinstance(request_id, int) and ID_MIN <= request_id <= ID_MAX))


def _error(request_id: Any, code: int, message: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id if _valid_id(request_id) else None,
            "error": {"code": code, "message": message}}


async def mcp_endpoint(request: Request, env: Env) -> Response:
    raw = await request.body()
    try:
        body = read_json(raw, "JSON-RPC request") if raw.strip() else None
    except BadRequest as exc:
        return _json(_error(None, PARSE_ERROR, f"Parse error: {exc}"))
    call = McpCall(request, env)
    creates = _session_creates(body)
    refused = call.sessions.refusal(*client_of(request), wanted=creates) if creates else None
    if refused is not None:  # the whole request, before any of it runs
        single = body[0] if isinstance(body, list) and len(body) == 1 else body
        request_id = single.get("id") if isinstance(single, dict) else None
        return _json(_error(request_id, SESSIONS_REFUSED, f"openenv/session/create refused, "
                            f"none of this request was run: {refused}"), status=429)
    if isinstance(body, list):
        if not body:
            reply: Any = _error(None, INVALID_REQUEST, "Invalid Request: empty batch")
        elif len(body) > MAX_BATCH:
            reply = _error(None, INVALID_REQUEST, f"Invalid Request: a batch holds at most "
                           f"{MAX_BATCH} requests, this one {len(body)}; none was run. Send "
                           "the rest in further batches")
        else:
            answers = [await call.answer(m) for m in body]
            reply = [a for a in answers if a is not None] or None
    else:
        reply = await call.answer(body if body is not None else {})
    status = 429 if call.refused else 200
    response = Response(status_code=202) if reply is None else _json(reply, status)
    if call.started:
        env.episodes.started(response, *call.started)
    return response


def _json(value: Any, status: int = 200) -> Response:
    headers = {"Retry-After": "5"} if status == 429 else None
    return Response(json.dumps(value), status_code=status, media_type=JSON, headers=headers)


def _session_creates(body: Any) -> int:
    """How many ``openenv/session/create`` calls a request body holds (a batch past
    :data:`MAX_BATCH` holds none: it is refused whole for its length)."""
    messages = body if isinstance(body, list) and len(body) <= MAX_BATCH else [body]
    return sum(1 for m in messages
               if isinstance(m, dict) and m.get("method") == "openenv/session/create")


def client_of(connection: HTTPConnection) -> tuple[str, str]:
    """Whose sessions these are, for ``api.sessions``' bounds: the client (the ``X-Episode-Key``
    the request sends, a key of the client's own, else its address) and the address it comes from
    (one address may hold many keys, so it has a bound of its own)."""
    address = "address:" + (connection.client.host if connection.client else "-")
    try:
        key = client_key(connection)
    except BadRequest:
        key = None
    return ("key:" + key if key is not None else address), address


def install(app: FastAPI) -> None:
    app.add_api_route("/mcp", mcp_endpoint, methods=["POST"], tags=["OpenEnv"],
                      summary="MCP (JSON-RPC 2.0): initialize, tools/list, tools/call")
