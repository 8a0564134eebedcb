"""OpenEnv's ``MCPToolClient`` against a real server, over ``/ws`` and in production mode.

The client is the real one (``openenv-core`` 0.3, the runtime dependency). Its default mode sends
tools as ``/ws`` steps (``{"type": "list_tools"}``, ``{"type": "call_tool", "tool_name",
"arguments"}``). Production mode, as ``openenv`` 0.10 runs it, creates a session with the
JSON-RPC method ``openenv/session/create`` over ``POST /mcp``, opens ``/ws?session_id=<id>`` for
reset and state, and calls tools over HTTP with ``session_id`` in the params: all on one episode.
0.3's client has the HTTP half of production mode but connects its ``/ws`` without the session id;
:func:`production_client` adds it as 0.10's ``MCPClientBase._connect_async`` does (the e2e tier
runs 0.10 itself: ``tests/e2e/test_openenv_010.py``).

A session id is a capability: unguessable, usable by one ``/ws`` connection at a time,
and the episodes it opens are scoped to it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from domain.tasks import default_catalog
from service.gold import gold
from tests.servers import LiveServer

if TYPE_CHECKING:  # imported where a test runs: openenv.core loads gradio (seconds per worker)
    from openenv.core.mcp_client import MCPToolClient

CATALOG = default_catalog()
TASK, SEED = "task_easy_password", 7


def rpc(server: LiveServer, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    reply = httpx.post(server.url + "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": method,
                                                  "params": params or {}}, timeout=30)
    assert reply.status_code == 200
    return reply.json()  # type: ignore[no-any-return]


@asynccontextmanager
async def production_client(server: LiveServer) -> AsyncIterator[tuple[MCPToolClient, str]]:
    from openenv.core.mcp_client import MCPToolClient

    env = MCPToolClient(base_url=server.url)
    env.use_production_mode = True
    session_id = await env._ensure_production_session()
    plain = env._ws_url
    env._ws_url = f"{plain}?session_id={session_id}"  # as openenv 0.10 connects, then restores
    try:
        await env.connect()
        env._ws_url = plain
        yield env, session_id
    finally:
        await env.close()


def test_mcp_tool_client_plays_over_ws_with_call_tool_steps(live_server: LiveServer) -> None:
    plan = gold(CATALOG.instance(TASK, SEED))

    async def play() -> tuple[list[str], list[dict[str, Any]], Any]:
        from openenv.core.mcp_client import MCPToolClient

        async with MCPToolClient(base_url=live_server.url) as env:
            await env.reset(task_id=TASK, seed=SEED)
            tools = [t.name for t in await env.list_tools()]
            results = [await env.call_tool(a["action_type"], **{k: v for k, v in a.items()
                                                                if k != "action_type"})
                       for a in plan]
            with pytest.raises(RuntimeError, match="ended"):  # a tool that fails says why
                await env.call_tool("noop")
            return tools, results, await env.state()

    tools, results, state = asyncio.run(play())
    assert {"reset", "state", "classify_priority", "issue_refund"} <= set(tools)
    answers = [r["structuredContent"] for r in results]
    assert all(not r["isError"] and json.loads(r["content"][0]["text"]) == a
               for r, a in zip(results, answers, strict=True))
    assert [a["done"] for a in answers] == [False] * (len(plan) - 1) + [True]
    assert answers[-1]["terminated"] and answers[-1]["end_reason"] == "resolved"
    assert len({a["episode_id"] for a in answers}) == 1
    assert state.step_count == len(plan) and state.episode_id == answers[0]["episode_id"]


def test_production_mode_shares_one_episode_between_ws_and_http_tool_calls(
        live_server: LiveServer) -> None:
    async def play() -> tuple[Any, dict[str, Any], Any, list[str], str]:
        async with production_client(live_server) as (env, session_id):
            first = await env.reset(task_id=TASK, seed=SEED)  # over /ws?session_id=
            tools = [t.name for t in await env.list_tools()]  # over HTTP
            result = await env.call_tool("classify_priority", priority="high")  # over HTTP
            return first, result, await env.state(), tools, session_id

    first, result, state, tools, session_id = asyncio.run(play())
    assert len(session_id) >= 43  # 256 random bits
    assert first.done is False
    assert not result["isError"] and result["structuredContent"]["episode_id"] == state.episode_id
    assert state.step_count == 1  # the HTTP tool call acted on the episode /ws reset
    assert "classify_priority" in tools
    closed = rpc(live_server, "tools/call", {"name": "noop", "arguments": {},
                                             "session_id": session_id})
    assert "unknown session_id" in closed["error"]["message"]  # the client closed it


def test_a_session_id_is_a_capability(live_server: LiveServer) -> None:
    session_id = rpc(live_server, "openenv/session/create")["result"]["session_id"]
    other = rpc(live_server, "openenv/session/create")["result"]["session_id"]
    assert session_id != other
    ws_url = live_server.url.replace("http", "ws", 1) + "/ws"
    with ws_connect(f"{ws_url}?session_id={session_id}") as mine:
        mine.send(json.dumps({"type": "reset", "data": {"task_id": TASK, "seed": SEED,
                                                        "episode_id": "mine"}}))
        assert json.loads(mine.recv(timeout=30))["type"] == "observation"
        for joining in (session_id, "not-a-session-" + "x" * 40):  # in use / unknown
            with ws_connect(f"{ws_url}?session_id={joining}") as second:
                refused = json.loads(second.recv(timeout=30))
                assert refused["data"]["code"] == "SESSION_ERROR"
                with pytest.raises(ConnectionClosed) as closed:
                    second.recv(timeout=30)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        # the episode chosen as "mine" is this session's alone: another session naming it fails
        theirs = rpc(live_server, "tools/call", {"name": "noop", "session_id": other,
                                                 "arguments": {"episode_id": "mine"}})["result"]
        assert theirs["isError"] and theirs["structuredContent"]["status"] == 404
        ours = rpc(live_server, "tools/call", {"name": "noop", "session_id": session_id,
                                               "arguments": {}})["result"]
        assert not ours["isError"] and ours["structuredContent"]["episode_id"] == "mine"
        mine.send(json.dumps({"type": "state"}))
        assert json.loads(mine.recv(timeout=30))["data"]["step_count"] == 1
    unknown = rpc(live_server, "tools/call", {"name": "noop", "session_id": "guess"})
    assert unknown["error"]["message"].startswith("Invalid params: unknown session_id")
    assert rpc(live_server, "openenv/session/close", {"session_id": other})["result"]["closed"]
    no_episode = rpc(live_server, "openenv/session/create")["result"]["session_id"]
    empty = rpc(live_server, "tools/call", {"name": "noop", "session_id": no_episode})["result"]
    assert empty["isError"] and "no episode yet" in empty["content"][0]["text"]


def test_a_call_tool_step_with_a_bad_tool_or_arguments_is_a_validation_error(
        live_server: LiveServer) -> None:
    with ws_connect(live_server.url.replace("http", "ws", 1) + "/ws") as ws:
        for data, said in (({"type": "call_tool", "tool_name": "fly"}, "unknown tool 'fly'"),
                           ({"type": "call_tool", "tool_name": "noop", "arguments": [1]},
                            "'arguments' of call_tool must be a JSON object"),
                           ({"type": "call_tool", "tool_name": "noop", "extra": 1},
                            "unknown field 'extra'")):
            ws.send(json.dumps({"type": "step", "data": data}))
            reply = json.loads(ws.recv(timeout=30))
            assert reply["data"]["code"] == "VALIDATION_ERROR" and said in reply["data"]["message"]
