"""Reset by split and index in every transport of a real server: ``/reset`` (both seeds' bodies
are the same optional fields), ``/ws``, ``/mcp``; a bad split or index is a 4xx naming the range."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from domain.tasks import default_catalog
from tests.servers import LiveServer, episode_events, log_size

CATALOG = default_catalog()


def _played(server: LiveServer, episode_id: str) -> tuple[str, int]:
    started = episode_events(server.database_url, episode_id)[0].data
    return started["task_id"], started["seed"]


def test_http_reset_by_split_plays_the_manifest_instance(live_server: LiveServer) -> None:
    ref = CATALOG.split_instance("test", 5)
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        body = http.post("/reset", json={"split": "test", "index": 5}).json()
        plain = http.post("/reset", json={}).json()
    assert body["observation"]["task_id"] == ref.task_id
    assert _played(live_server, body["episode_id"]) == (ref.task_id, ref.seed)
    assert plain["observation"]["task_id"] in CATALOG.task_ids  # no split: the classic tasks


@pytest.mark.parametrize(("body", "words"), [
    ({"split": "test", "index": 100000}, "index must be an integer from 0 to"),
    ({"split": "holdout", "index": 0}, "train, dev, test"),
    ({"split": "test"}, "split and index go together"),
    ({"split": "dev", "index": 0, "seed": 3}, "not both"),
    ({"split": "dev", "index": "one"}, "index"),
])
def test_http_reset_with_a_bad_split_or_index_is_a_4xx_that_names_the_range(
        live_server: LiveServer, body: dict[str, Any], words: str) -> None:
    before = log_size(live_server.database_url)
    response = httpx.post(live_server.url + "/reset", json=body, timeout=30)
    assert response.status_code == 422, response.text
    assert words in response.json()["detail"]
    if "from 0 to" in words:
        assert f"from 0 to {len(CATALOG.split('test')) - 1}" in response.json()["detail"]
    assert log_size(live_server.database_url) == before


def test_ws_and_mcp_reset_by_split(live_server: LiveServer) -> None:
    ref = CATALOG.split_instance("train", 7)

    async def over_ws() -> tuple[dict[str, Any], dict[str, Any]]:
        url = live_server.url.replace("http://", "ws://") + "/ws"
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "reset", "data": {"split": "train", "index": 7}}))
            good = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
            await ws.send(json.dumps({"type": "reset", "data": {"split": "train", "index": -1}}))
            bad = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
        return good, bad

    good, bad = asyncio.run(over_ws())
    assert good["type"] == "observation"
    assert _played(live_server, good["data"]["episode_id"]) == (ref.task_id, ref.seed)
    assert bad["type"] == "error" and "from 0 to" in bad["data"]["message"]
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        tools = http.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}).json()
        reset_tool = next(t for t in tools["result"]["tools"] if t["name"] == "reset")
        assert {"split", "index"} <= set(reset_tool["inputSchema"]["properties"])
        answer = http.post("/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "reset", "arguments": {"split": "train", "index": 7}}}).json()
    content = answer["result"]["structuredContent"] if "structuredContent" in answer["result"] else \
        json.loads(answer["result"]["content"][0]["text"])
    assert _played(live_server, content["episode_id"]) == (ref.task_id, ref.seed)


def test_the_task_list_is_the_classic_tasks_unless_a_split_or_family_is_asked_for(
        live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        classic = http.get("/tasks").json()
        test = http.get("/tasks", params={"split": "test"}).json()
        dev_refunds = http.get("/tasks", params={"split": "dev", "family": "refund_request"}).json()
        family = http.get("/tasks", params={"family": "task_family_account_access"}).json()
        bad = http.get("/tasks", params={"split": "holdout"})
    assert [t["task_id"] for t in classic["tasks"]] == CATALOG.task_ids
    assert [(i["index"], i["instance_id"]) for i in test["instances"]] == \
        [(k, r.id) for k, r in enumerate(CATALOG.split("test"))]
    manifest = CATALOG.manifest
    assert manifest is not None and test["digest"] == manifest.split_digests["test"]
    assert dev_refunds["instances"] and all(i["task_id"] == "task_family_refund_request"
                                            and CATALOG.split("dev")[i["index"]].id == i["instance_id"]
                                            for i in dev_refunds["instances"])
    assert len(family["instances"]) == manifest.instances_per_family
    assert "case" not in family["instances"][0]  # the case is the answer: not on an agent route
    assert bad.status_code == 422 and "train, dev, test" in bad.json()["detail"]
