"""``POST /mcp`` against a real server: JSON-RPC 2.0, the action tools, a whole episode."""

from __future__ import annotations

from typing import Any

import httpx

from domain.actions import ACTION_FIELDS
from domain.tasks import default_catalog
from service.gold import gold
from tests.servers import LiveServer, log_size

CATALOG = default_catalog()


def rpc(http: httpx.Client, method: str, params: dict[str, Any] | None = None,
        request_id: int = 1) -> dict[str, Any]:
    response = http.post("/mcp", json={"jsonrpc": "2.0", "id": request_id, "method": method,
                                       "params": params or {}})
    assert response.status_code == 200
    return response.json()


def test_empty_object_answers_a_json_rpc_error_with_status_200(live_server: LiveServer) -> None:
    response = httpx.post(live_server.url + "/mcp", json={})
    assert response.status_code == 200
    body = response.json()
    assert body["jsonrpc"] == "2.0" and body["id"] is None and body["error"]["code"] == -32600


def test_protocol_mistakes_get_json_rpc_errors(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url) as http:
        parse = http.post("/mcp", content=b"{oops").json()
        unknown = rpc(http, "resources/list")
        bad_params = http.post("/mcp", json={"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                                             "params": [1]}).json()
        no_tool = rpc(http, "tools/call", {"name": "teleport", "arguments": {}})
        note = http.post("/mcp", json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        batch = http.post("/mcp", json=[{"jsonrpc": "2.0", "id": 7, "method": "ping"},
                                        {"jsonrpc": "2.0", "method": "notifications/initialized"}])
    assert parse["error"]["code"] == -32700
    assert unknown["error"]["code"] == -32601 and "tools/list" in unknown["error"]["message"]
    assert bad_params["error"]["code"] == -32602 and bad_params["id"] == 3
    assert no_tool["error"]["code"] == -32602 and "tools/list" in no_tool["error"]["message"]
    assert note.status_code == 202 and note.content == b""
    assert batch.json() == [{"jsonrpc": "2.0", "id": 7, "result": {}}]


def test_initialize_and_tools_list_expose_every_action(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url) as http:
        init = rpc(http, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                        "clientInfo": {"name": "test", "version": "0"}})
        tools = rpc(http, "tools/list")["result"]["tools"]
    assert init["result"]["protocolVersion"] == "2025-06-18"
    assert "tools" in init["result"]["capabilities"]
    by_name = {t["name"]: t for t in tools}
    assert set(by_name) == set(ACTION_FIELDS) | {"reset", "state"}
    assert by_name["classify_priority"]["inputSchema"]["required"] == ["priority"]
    assert by_name["classify_priority"]["inputSchema"]["properties"]["priority"]["enum"] == [
        "low", "medium", "high", "urgent"]
    assert "episode_id" in by_name["draft_reply"]["inputSchema"]["properties"]


def test_tool_calls_play_a_whole_episode(live_server: LiveServer) -> None:
    task = CATALOG.instance("task_hard_gdpr_deletion", 4)
    with httpx.Client(base_url=live_server.url) as http:
        reset = rpc(http, "tools/call", {"name": "reset", "arguments": {"task_id": task.task_id,
                                                                        "seed": 4}})["result"]
        episode = reset["structuredContent"]["episode_id"]
        for number, action in enumerate(gold(task), start=2):
            arguments = {k: v for k, v in action.items() if k != "action_type"}
            result = rpc(http, "tools/call", {"name": action["action_type"],
                                              "arguments": {**arguments, "episode_id": episode}},
                         request_id=number)["result"]
            assert result["isError"] is False, result
        state = rpc(http, "tools/call", {"name": "state", "arguments": {}})["result"]
        before = log_size(live_server.database_url)
        late = rpc(http, "tools/call", {"name": "noop", "arguments": {}})["result"]
        invalid = rpc(http, "tools/call", {"name": "assign_queue", "arguments": {"queue": "mars"}})
    assert result["structuredContent"]["done"] is True
    assert state["structuredContent"]["episode_id"] == episode
    assert state["structuredContent"]["score"] == 1.0
    assert late["isError"] is True and late["structuredContent"]["code"] == "episode_ended"
    assert invalid["result"]["isError"] is True
    assert invalid["result"]["structuredContent"]["field"] == "queue"
    assert log_size(live_server.database_url) == before
