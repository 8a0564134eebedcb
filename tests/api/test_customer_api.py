"""``message_customer`` over every agent-facing protocol of a real server: ``/schema`` and the
observation's allowed values list it last, MCP lists it as a tool and runs it, ``/step`` takes it
in both the wrapped and the bare (SupportOps flat) body, ``/ws`` steps take it; the customer's
reply comes back in ``conversation``, and the audit diff shows it."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import websockets

from domain.vocabulary import ActionType
from tests.api.test_api_mcp import rpc
from tests.api.test_api_ws import exchange, ws_url
from tests.servers import LiveServer, episode_events

ASK = {"action_type": "message_customer", "message": "Could you send me the order number?"}


def test_schema_allowed_values_and_mcp_tools_list_it_last(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url) as http:
        schema = http.get("/schema").json()
        observation = http.post("/reset", json={"task_id": "task_easy_password"}).json()["observation"]
        tools = rpc(http, "tools/list")["result"]["tools"]
    assert "message_customer" in {v["properties"]["action_type"]["const"]
                                  for v in schema["action"]["$defs"].values()
                                  if "action_type" in v.get("properties", {})}
    assert observation["allowed"]["action_type"][-1] == "message_customer"
    assert observation["allowed"]["action_type"] == ActionType.allowed()
    assert "conversation" not in observation  # nothing asked yet: the observation as before
    tool = next(t for t in tools if t["name"] == "message_customer")
    assert tool["inputSchema"]["required"] == ["message"]


def test_http_step_in_both_dialects_and_mcp(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url) as http:
        episode = http.post("/reset", json={"task_id": "task_easy_password"}).json()["episode_id"]
        wrapped = http.post("/step", json={"episode_id": episode, "action": ASK})
        bare = http.post("/step", json={"episode_id": episode, "action_type": "message_customer",
                                        "message": "What is your account email?", "priority": None,
                                        "queue": None, "reply_text": None})
        missing = http.post("/step", json={"episode_id": episode, "action": {
            "action_type": "message_customer"}})
        mcp = rpc(http, "tools/call", {"name": "message_customer", "arguments": {
            "episode_id": episode, "message": "Anything else?"}})["result"]
    assert wrapped.status_code == 200, wrapped.text
    conversation = wrapped.json()["observation"]["conversation"]
    assert [m["speaker"] for m in conversation] == ["agent", "customer"]
    assert conversation[0]["text"] == ASK["message"]
    assert bare.status_code == 200 and "info" in bare.json()
    assert "needs a non-empty 'message'" in missing.json()["observation"]["last_action_error"]
    assert mcp["isError"] is False
    assert len(mcp["structuredContent"]["observation"]["conversation"]) == 6
    types = [e.type for e in episode_events(live_server.database_url, episode)]
    assert types.count("CustomerMessaged") == types.count("CustomerReplied") == 3


def test_ws_steps_take_it(live_server: LiveServer) -> None:
    async def scenario() -> dict[str, Any]:
        async with websockets.connect(ws_url(live_server)) as ws:
            await exchange(ws, {"type": "reset", "data": {"task_id": "task_easy_password"}})
            return await exchange(ws, {"type": "step", "data": ASK})

    answer = asyncio.run(scenario())
    conversation = answer["data"]["observation"]["conversation"]
    assert conversation[-1]["speaker"] == "customer" and conversation[-1]["text"]


def test_rest_fork_chooses_the_customer_and_says_which(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url) as http:
        episode = http.post("/reset", json={"task_id": "task_easy_password"}).json()["episode_id"]
        http.post("/step", json={"episode_id": episode, "action": ASK})
        plain = http.post(f"/episodes/{episode}/fork", json={"at": 1})
        llm = http.post(f"/episodes/{episode}/fork", json={"at": 1, "customer": "llm"})
        wrong = http.post(f"/episodes/{episode}/fork", json={"at": 1, "customer": "robot"})
    assert plain.status_code == 201 and "customer" not in plain.json()
    assert llm.status_code == 201, llm.text
    assert llm.json()["customer"] == {"fork": "llm", "original": "scripted"}
    assert [m["speaker"] for m in llm.json()["observation"]["conversation"]] == ["agent", "customer"]
    assert wrong.status_code == 422 and "customer" in wrong.text
