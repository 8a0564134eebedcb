"""A flood of ``openenv/session/create`` cannot take another client's session away (``api.sessions``).

Against a real server with the default limits (256 ``/ws`` sessions, so 1,024 MCP sessions per
process and 64 pending per client): victims create sessions and have not opened their ``/ws`` yet;
then a client with no credentials sends batches of 32 creates, and clients that send a fresh
``X-Episode-Key`` with every batch fill the process. The flooders are refused with 429 and a
message saying which bound they hit; every victim then attaches its session and plays.

The victims are told apart from the flooders the way a server tells clients apart: one by its
address (its requests come from 127.0.0.2), one by its ``X-Episode-Key``.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from api.sessions import Registry
from tests.servers import LiveServer, module_database, start_server

BATCH = 32


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(module_database(tmp_path_factory, "session_flood")) as live:
        yield live


def _creates(count: int) -> list[dict[str, Any]]:
    return [{"jsonrpc": "2.0", "id": i, "method": "openenv/session/create"} for i in range(count)]


def _create_one(http: httpx.Client) -> str:
    reply = http.post("/mcp", json=_creates(1)[0])
    assert reply.status_code == 200, reply.text
    session_id: str = reply.json()["result"]["session_id"]
    return session_id


def _plays(server: LiveServer, session_id: str) -> bool:
    with ws_connect(f"ws://127.0.0.1:{server.port}/ws?session_id={session_id}",
                    open_timeout=10) as ws:
        ws.send(json.dumps({"type": "reset", "data": {"task_id": "task_easy_password"}}))
        answer = json.loads(ws.recv(timeout=30))
    return bool(answer["type"] == "observation" and answer["data"]["episode_id"])


def test_a_flood_of_session_creates_is_refused_and_evicts_no_ones_pending_session(
        server: LiveServer) -> None:
    by_address = httpx.Client(base_url=server.url, timeout=30,
                              transport=httpx.HTTPTransport(local_address="127.0.0.2"))
    by_key = httpx.Client(base_url=server.url, timeout=30,
                          headers={"X-Episode-Key": "victim-key-" + secrets.token_hex(8)})
    with by_address, by_key, httpx.Client(base_url=server.url, timeout=30) as flooder:
        victims = [_create_one(by_address), _create_one(by_key)]

        # one client, no credentials: 64 pending sessions, then refused whole, batch after batch
        answers = [flooder.post("/mcp", json=_creates(BATCH)) for _ in range(40)]
        assert [a.status_code for a in answers] == [200, 200] + [429] * 38
        assert all("result" in r for a in answers[:2] for r in a.json())
        refusal = answers[-1].json()
        assert refusal["error"]["code"] == -32001 and refusal["id"] is None
        assert "may hold at most 64" in refusal["error"]["message"]
        assert "none of this request was run" in refusal["error"]["message"]
        assert answers[-1].headers["retry-after"]

        # a fresh key with every batch buys no more: the address has a bound of its own
        statuses, last = [], None
        for _ in range(12):
            fresh = {"X-Episode-Key": "flood-" + secrets.token_hex(12)}
            last = flooder.post("/mcp", json=_creates(BATCH), headers=fresh)
            statuses.append(last.status_code)
        # 64 + 1 (the victim by key) of 256 held by this address: five batches fit, then refusals
        assert statuses == [200] * 5 + [429] * 7, statuses
        assert last is not None and "this address holds" in last.json()["error"]["message"]
        assert "may hold at most 256" in last.json()["error"]["message"]

        # many addresses with fresh keys: the process fills to its limit, then refuses
        for n in range(3, 9):
            other = httpx.Client(base_url=server.url, timeout=30,
                                 transport=httpx.HTTPTransport(local_address=f"127.0.0.{n}"))
            with other:
                for _ in range(8):
                    other.post("/mcp", json=_creates(BATCH),
                               headers={"X-Episode-Key": "flood-" + secrets.token_hex(12)})
                for _ in range(BATCH):  # the last slots, one by one, until refused
                    full = other.post("/mcp", json=_creates(1)[0],
                                      headers={"X-Episode-Key": "flood-" + secrets.token_hex(12)})
                    if full.status_code != 200:
                        break
            if "limit is 1024" in full.text:
                break
        assert full.status_code == 429
        assert "limit is 1024" in full.json()["error"]["message"], full.text
        assert full.json()["id"] == 0  # a single request's refusal answers its id

    for session_id in victims:
        assert _plays(server, session_id), "a flood took a pending session away"


def test_a_pending_session_left_unused_frees_its_slot_after_the_idle_timeout() -> None:
    now = [0.0]
    registry = Registry(16, idle_s=300.0, per_client=2, clock=lambda: now[0])
    kept = registry.create("address:a")
    registry.create("address:a")
    assert registry.refusal("address:a") is not None and registry.refusal("address:b") is None
    now[0] = 200.0
    assert registry.get(kept) is not None  # used: its idle time starts again
    now[0] = 400.0
    assert registry.refusal("address:a") is None  # the other one, unused for 400 s, is gone
    assert registry.get(kept) is not None
    registry.create("address:a")
    assert registry.refusal("address:a") is not None


def test_an_address_sending_a_fresh_key_each_time_is_bounded_as_one() -> None:
    registry = Registry(16, per_client=2)
    assert registry.per_address == 4
    for n in range(4):
        registry.create(f"key:k{n}", "address:a")
    refused = registry.refusal("key:new", "address:a")
    assert refused is not None and "this address holds 4" in refused
    assert registry.refusal("key:new", "address:b") is None
