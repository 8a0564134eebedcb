"""Back-office actions over every agent-facing protocol of a real server: MCP tools derived from
the action union, OpenEnv's wrapped ``/step``, the seed's bare ``/step``, ``/ws``; and the audit
route naming the violation's step and event."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import websockets

from domain.vocabulary import BACK_OFFICE_ACTIONS
from tests.api.test_api_mcp import rpc
from tests.api.test_api_ws import exchange, ws_url
from tests.servers import LiveServer, episode_events


def test_mcp_lists_one_tool_per_back_office_action_with_its_typed_fields(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url) as http:
        tools = {t["name"]: t for t in rpc(http, "tools/list")["result"]["tools"]}
    assert set(BACK_OFFICE_ACTIONS) <= set(tools)
    refund = tools["issue_refund"]["inputSchema"]
    assert refund["required"] == ["amount"]
    assert refund["properties"]["amount"]["type"] == "number"
    assert refund["properties"]["amount"]["exclusiveMinimum"] == 0
    assert tools["escalate_incident"]["inputSchema"]["properties"]["severity"]["enum"] == [
        "sev1", "sev2", "sev3"]
    assert tools["update_account_email"]["inputSchema"]["required"] == ["new_email"]
    assert tools["place_legal_hold"]["inputSchema"]["required"] == []
    assert "refund" in tools["issue_refund"]["description"].lower()


def test_mcp_tool_calls_act_on_the_account(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url) as http:
        reset = rpc(http, "tools/call", {"name": "reset", "arguments": {
            "task_id": "task_hard_refund_fraud_trap"}})["result"]["structuredContent"]
        episode = reset["episode_id"]
        assert reset["observation"]["account"]["charged"] == 129.0
        review = rpc(http, "tools/call", {"name": "open_fraud_review",
                                          "arguments": {"episode_id": episode}})["result"]
        over = rpc(http, "tools/call", {"name": "issue_refund",
                                        "arguments": {"episode_id": episode, "amount": 500}})["result"]
        malformed = rpc(http, "tools/call", {"name": "issue_refund", "arguments": {
            "episode_id": episode, "amount": 1.234}})["result"]
        state = rpc(http, "tools/call", {"name": "state", "arguments": {"episode_id": episode}})
    assert review["isError"] is False
    assert review["structuredContent"]["observation"]["account"]["fraud_review_open"] is True
    assert over["isError"] is False  # a refused refund is a recorded, penalised step
    assert "more than the $129.00 left" in over["structuredContent"]["observation"]["last_action_error"]
    assert over["structuredContent"]["reward"] < 0
    assert malformed["isError"] is True and "two decimals" in malformed["content"][0]["text"]
    account = state["result"]["structuredContent"]["account"]
    assert account["fraud_review_open"] is True and account["refunds"] == []
    types = [e.type for e in episode_events(live_server.database_url, episode)]
    assert types.count("ActionReceived") == 2 and "FraudReviewOpened" in types
    assert "RefundIssued" not in types


def test_http_step_in_both_dialects_and_the_audit_names_the_violation(live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url) as http:
        episode = http.post("/reset", json={"task_id": "task_hard_refund_policy_denial"}).json()[
            "episode_id"]
        wrapped = http.post("/step", json={"episode_id": episode, "action": {
            "action_type": "issue_refund", "amount": 240}})
        bare = http.post("/step", json={"episode_id": episode, "action_type": "add_tag",
                                        "tag": "Policy_Denied", "priority": None, "queue": None,
                                        "reply_text": None, "amount": None})
        state = http.get("/state", params={"episode_id": episode},
                         headers={"X-Episode-Id": episode}).json()
        shown = http.get(f"/episodes/{episode}/steps").json()
    assert wrapped.status_code == 200, wrapped.text
    assert wrapped.json()["observation"]["account"]["refunds"] == [240.0]
    assert bare.status_code == 200 and "info" in bare.json()  # the seed's answer shape, as before
    assert bare.json()["info"]["task_score"] <= 0.2
    assert state["account"]["refunds"] == [240.0] and state["score"] <= 0.2
    violations = shown["violations"]
    assert [(v["rule"], v["step"]) for v in violations] == [("forbidden_action", 1)]
    assert violations[0]["reason"].startswith("step 1: issue_refund $240.00 (RefundIssued) - refund policy")
    assert shown["steps"][0]["violations"] == violations and shown["steps"][1]["violations"] == []


def test_ws_steps_take_back_office_actions(live_server: LiveServer) -> None:
    async def scenario() -> list[dict[str, Any]]:
        async with websockets.connect(ws_url(live_server)) as ws:
            await exchange(ws, {"type": "reset", "data": {"task_id": "task_hard_enterprise_outage"}})
            first = await exchange(ws, {"type": "step", "data": {
                "action_type": "escalate_incident", "severity": "SEV1"}})
            again = await exchange(ws, {"type": "step", "data": {"action": {
                "action_type": "escalate_incident", "severity": "sev1"}}})
            return [first, again]

    first, again = asyncio.run(scenario())
    observation = first["data"]["observation"]
    assert observation["account"]["incident_severity"] == "sev1", json.dumps(first)
    assert observation["history"][-1] == "step 1: escalate_incident -> escalate_incident: sev1"
    assert "already escalated at sev1" in again["data"]["observation"]["last_action_error"]
