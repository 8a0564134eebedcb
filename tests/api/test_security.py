"""Episode isolation over a real server: a request reaches only an episode it names; client-chosen ids are
scoped to their client; Origin and Host are checked. (The audit surface's gating and the answer
key are in ``test_leaks_http.py``.)

Each test that depends on the anonymous slot (the episode of the latest bare reset) has a server of
its own, so no other test's reset can take the slot in between.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect as ws_connect

from api.episode_routing import KEY_HEADER, NO_EPISODE
from tests.servers import LiveServer, episode_events, log_size, module_database, start_server

ALLOWED_ORIGIN = "https://allowed.example"
NOOP = {"action_type": "noop"}


@pytest.fixture
def own_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server of this test's own (an empty anonymous slot)."""
    with start_server(module_database(tmp_path_factory, "security"),
                      env={"TICKETLEDGER_ALLOWED_ORIGINS": ALLOWED_ORIGIN}) as server:
        yield server


def _post_bare(server: LiveServer, path: str, body: Any, **kwargs: Any) -> httpx.Response:
    return httpx.post(server.url + path, json=body, timeout=30, **kwargs)


def _get_bare(server: LiveServer, path: str, **kwargs: Any) -> httpx.Response:
    return httpx.get(server.url + path, timeout=30, **kwargs)


def _rpc(http: httpx.Client | None, server: LiveServer, name: str, arguments: dict[str, Any],
         **kwargs: Any) -> dict[str, Any]:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}
    reply = (http.post("/mcp", json=body, **kwargs) if http is not None
             else _post_bare(server, "/mcp", body, **kwargs))
    assert reply.status_code == 200, reply.text
    result: dict[str, Any] = reply.json()["result"]
    return result


# ------------------------------------------------------------------------ episode routing
def test_a_bare_request_reaches_only_the_episode_of_the_latest_bare_reset(own_server: LiveServer
                                                                           ) -> None:
    nothing = _post_bare(own_server, "/step", NOOP)
    assert nothing.status_code == 400 and nothing.json()["code"] == "no_episode_named"
    assert nothing.json()["detail"] == NO_EPISODE and "X-Episode-Id" in NO_EPISODE
    assert _get_bare(own_server, "/state").json()["episode_id"] is None  # OpenEnv's empty state

    with httpx.Client(base_url=own_server.url, timeout=30) as owner:  # keeps cookies
        named = owner.post("/reset", json={"episode_id": "mine-" + secrets.token_hex(4)}).json()
        owner.post("/reset", json={}).raise_for_status()  # carries the cookie of the first reset
        owned = owner.get("/state").json()["episode_id"]
        assert owned not in (None, named["episode_id"])
        before = log_size(own_server.database_url)
        refused = _post_bare(own_server, "/step", {"action_type": "close_ticket"})
        assert refused.status_code == 400 and refused.json()["code"] == "no_episode_named"
        assert _get_bare(own_server, "/state").json()["episode_id"] is None
        mcp = _rpc(None, own_server, "state", {})
        assert mcp["isError"] and mcp["structuredContent"]["status"] == 400
        assert log_size(own_server.database_url) == before
        assert owner.get("/state").json()["step_count"] == 0

    first = _post_bare(own_server, "/reset", {}).json()["episode_id"]  # curl: no cookie, no id
    stepped = _post_bare(own_server, "/step", NOOP)
    assert stepped.status_code == 200 and stepped.json()["info"]["episode_id"] == first
    second = _post_bare(own_server, "/reset", {}).json()["episode_id"]  # takes the slot over
    assert _post_bare(own_server, "/step", NOOP).json()["info"]["episode_id"] == second
    assert _rpc(None, own_server, "state", {})["structuredContent"]["episode_id"] == second
    assert _get_bare(own_server, "/state", params={"episode_id": first}).json()["step_count"] == 1
    assert _get_bare(own_server, "/state").json()["step_count"] == 1


def test_an_mcp_reset_with_a_cookie_never_fills_the_anonymous_slot(own_server: LiveServer) -> None:
    with httpx.Client(base_url=own_server.url, timeout=30) as agent:
        agent.cookies.set("ticketledger_episode", "something-else")
        opened = _rpc(agent, own_server, "reset", {})["structuredContent"]["episode_id"]
        assert _rpc(agent, own_server, "state", {"episode_id": opened})["isError"] is False
    assert _post_bare(own_server, "/step", NOOP).status_code == 400
    bare = _rpc(None, own_server, "reset", {})["structuredContent"]["episode_id"]  # no cookie
    assert _rpc(None, own_server, "state", {})["structuredContent"]["episode_id"] == bare


# ---------------------------------------------------------------------- client-chosen ids
def _alike(foreign: httpx.Response, unknown: httpx.Response, chosen: str, other: str) -> None:
    assert foreign.status_code == unknown.status_code == 404
    assert foreign.text == unknown.text.replace(other, chosen)


def test_a_chosen_id_is_reached_only_by_its_own_client(live_server: LiveServer) -> None:
    chosen = "shared-name-" + secrets.token_hex(4)
    unknown = "nobody-has-" + secrets.token_hex(4)
    with httpx.Client(base_url=live_server.url, timeout=30) as owner, \
            httpx.Client(base_url=live_server.url, timeout=30) as other:
        opened = owner.post("/reset", json={"task_id": "task_easy_password", "episode_id": chosen})
        assert opened.status_code == 200 and opened.json()["episode_id"] == chosen
        owner.post("/step", json={"action_type": "draft_reply", "reply_text": "private draft"})
        other.post("/reset", json={}).raise_for_status()  # other has cookies (and a key) of its own
        other.post("/reset", json={"episode_id": "others-" + secrets.token_hex(4)})
        before = log_size(live_server.database_url)
        for client in (other, None):  # another cookie-keeping client, and a bare one
            def get(params: dict[str, str], c: httpx.Client | None = client) -> httpx.Response:
                return c.get("/state", params=params) if c else _get_bare(live_server, "/state",
                                                                         params=params)

            def step(body: dict[str, Any], headers: dict[str, str] | None = None,
                     c: httpx.Client | None = client) -> httpx.Response:
                return (c.post("/step", json=body, headers=headers) if c
                        else _post_bare(live_server, "/step", body, headers=headers))

            _alike(get({"episode_id": chosen}), get({"episode_id": unknown}), chosen, unknown)
            _alike(step({**NOOP, "episode_id": chosen}), step({**NOOP, "episode_id": unknown}),
                   chosen, unknown)
            _alike(step({"action": {"action_type": "close_ticket"}}, {"X-Episode-Id": chosen}),
                   step({"action": {"action_type": "close_ticket"}}, {"X-Episode-Id": unknown}),
                   chosen, unknown)
            foreign = _rpc(client, live_server, "close_ticket", {"episode_id": chosen})
            missing = _rpc(client, live_server, "close_ticket", {"episode_id": unknown})
            assert foreign["isError"] and json.dumps(foreign) == json.dumps(missing).replace(
                unknown, chosen)
        with ws_connect(live_server.url.replace("http", "ws", 1) + "/ws") as ws:
            ws.send(json.dumps({"type": "step", "data": {**NOOP, "episode_id": chosen}}))
            foreign_ws = ws.recv(timeout=30)
            ws.send(json.dumps({"type": "step", "data": {**NOOP, "episode_id": unknown}}))
            assert foreign_ws == ws.recv(timeout=30).replace(unknown, chosen)
        assert json.loads(foreign_ws)["data"]["status"] == 404
        assert log_size(live_server.database_url) == before, "nothing reached the owner's episode"
        state = owner.get("/state").json()
    assert state["episode_id"] == chosen and state["step_count"] == 1
    assert state["reply_draft"] == "private draft" and not state["done"]


def test_reusing_someone_elses_chosen_id_opens_an_episode_of_ones_own(live_server: LiveServer
                                                                      ) -> None:
    chosen = "popular-" + secrets.token_hex(4)
    with httpx.Client(base_url=live_server.url, timeout=30) as first, \
            httpx.Client(base_url=live_server.url, timeout=30) as second:
        a = first.post("/reset", json={"task_id": "task_easy_password", "episode_id": chosen})
        b = second.post("/reset", json={"task_id": "task_easy_refund_tag", "episode_id": chosen})
        assert a.status_code == b.status_code == 200, b.text  # no 409: no squatting, no oracle
        assert a.json()["episode_id"] == b.json()["episode_id"] == chosen
        second.post("/step", json=NOOP).raise_for_status()
        assert first.get("/state").json()["task_id"] == "task_easy_password"
        assert first.get("/state").json()["step_count"] == 0
        assert second.get("/state").json()["task_id"] == "task_easy_refund_tag"
        again = first.post("/reset", json={"episode_id": chosen})  # its own id: still taken
        assert again.status_code == 409 and again.json()["code"] == "conflict"
        assert repr(chosen) in again.json()["detail"]


def test_a_cookieless_client_reaches_its_chosen_id_with_the_key_it_was_given(
        live_server: LiveServer) -> None:
    chosen = "curl-named-" + secrets.token_hex(4)
    opened = _post_bare(live_server, "/reset", {"episode_id": chosen})
    key = opened.headers[KEY_HEADER]
    assert len(key) >= 22 and "ticketledger_key" in opened.headers["set-cookie"]
    assert _post_bare(live_server, "/step", {**NOOP, "episode_id": chosen}).status_code == 404
    stepped = _post_bare(live_server, "/step", {**NOOP, "episode_id": chosen},
                         headers={KEY_HEADER: key})
    assert stepped.status_code == 200 and stepped.json()["info"]["episode_id"] == chosen
    own_key = secrets.token_urlsafe(20)  # or a key of its own from the start
    mine = _post_bare(live_server, "/reset", {"episode_id": chosen}, headers={KEY_HEADER: own_key})
    assert mine.status_code == 200 and mine.headers[KEY_HEADER] == own_key
    state = _get_bare(live_server, "/state", params={"episode_id": chosen},
                      headers={KEY_HEADER: own_key}).json()
    assert state["episode_id"] == chosen and state["step_count"] == 0
    short = _post_bare(live_server, "/reset", {"episode_id": chosen}, headers={KEY_HEADER: "short"})
    assert short.status_code == 422 and "X-Episode-Key" in short.json()["detail"]


def test_the_log_stores_a_chosen_id_scoped_and_its_opening_event_names_it(
        live_server: LiveServer) -> None:
    chosen = "audited-" + secrets.token_hex(4)
    opened = _post_bare(live_server, "/reset", {"episode_id": chosen})
    from api.episode_routing import scoped_id

    stored = scoped_id(opened.headers[KEY_HEADER], chosen)
    assert episode_events(live_server.database_url, chosen) == episode_events(
        live_server.database_url, stored)
    started = episode_events(live_server.database_url, stored)[0]
    assert started.type == "EpisodeStarted" and started.data["episode_id"] == chosen
    summary = httpx.get(f"{live_server.url}/episodes/{stored}", timeout=30)  # loopback: open
    assert summary.status_code == 200 and summary.json()["episode_id"] == stored
    replay = httpx.get(f"{live_server.url}/episodes/{stored}/replay", timeout=30).json()
    assert replay["episode_id"] == chosen and replay["chain_ok"] is True
    assert httpx.get(f"{live_server.url}/episodes/{chosen}", timeout=30).status_code == 404


# --------------------------------------------------------------------------- Origin and Host
def test_a_foreign_origin_cannot_change_state_and_no_origin_can(own_server: LiveServer) -> None:
    same = own_server.url  # the page this server serves itself
    evil = {"Origin": "http://evil.example"}
    before = log_size(own_server.database_url)
    for path, body in (("/reset", {}), ("/step", NOOP),
                       ("/mcp", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
                       ("/regrade", {"dry_run": True})):
        refused = _post_bare(own_server, path, body, headers=evil)
        assert refused.status_code == 403, (path, refused.text)
        assert "evil.example" in refused.json()["detail"] and refused.json()["code"] == "forbidden"
        null = _post_bare(own_server, path, body, headers={"Origin": "null"})
        assert null.status_code == 403, path
    # the classic CSRF shape: a form post of text/plain, which needs no CORS preflight
    csrf = httpx.post(own_server.url + "/step", content=json.dumps(NOOP), timeout=30,
                      headers={**evil, "Content-Type": "text/plain"})
    assert csrf.status_code == 403
    assert log_size(own_server.database_url) == before
    assert _get_bare(own_server, "/tasks", headers=evil).status_code == 200  # reads are not refused
    for headers in ({}, {"Origin": same}, {"Origin": ALLOWED_ORIGIN}):
        assert _post_bare(own_server, "/reset", {}, headers=headers).status_code == 200, headers


def test_the_websocket_handshake_checks_the_origin(own_server: LiveServer) -> None:
    url = own_server.url.replace("http", "ws", 1) + "/ws"
    with pytest.raises(InvalidStatus) as refused, \
            ws_connect(url, origin="http://evil.example"):  # type: ignore[arg-type]
        pass
    assert refused.value.response.status_code == 403
    for origin in (None, own_server.url, ALLOWED_ORIGIN):
        with ws_connect(url, origin=origin) as ws:  # type: ignore[arg-type]
            ws.send(json.dumps({"type": "reset", "data": {}}))
            assert json.loads(ws.recv(timeout=30))["type"] == "observation"


def test_only_allowed_host_headers_are_served(live_server: LiveServer) -> None:
    port = live_server.port
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.nip.io", "hf.space.evil.example"):
        refused = _get_bare(live_server, "/health", headers={"Host": host})
        assert refused.status_code == 400 and "TICKETLEDGER_ALLOWED_HOSTS" in refused.json()["detail"]
    with pytest.raises(InvalidStatus), ws_connect(live_server.url.replace("http", "ws", 1) + "/ws",
                                                  additional_headers={"Host": "evil.example"}):
        pass
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", "localhost", f"[::1]:{port}",
                 "someone-tickets.hf.space", f"10.1.2.3:{port}", "[fd00::1]"):
        assert _get_bare(live_server, "/health", headers={"Host": host}).status_code == 200, host


def test_a_cookie_keeping_clients_first_episode_leaves_the_anonymous_slot_once_it_names_it(
        own_server: LiveServer) -> None:
    """A fresh httpx client's first reset carries no cookie, so it is the anonymous episode; its
    next request sends the cookie back and claims it: a bare request no longer reaches it."""
    with httpx.Client(base_url=own_server.url, timeout=30) as owner:
        mine = owner.post("/reset", json={}).json()["observation"]["episode_id"]
        assert httpx.get(own_server.url + "/state", timeout=30).json()["episode_id"] == mine
        assert owner.get("/state").json()["episode_id"] == mine  # the cookie names it: claimed
        bare = _post_bare(own_server, "/step", {"action_type": "close_ticket"})
        assert bare.status_code == 400 and bare.json()["code"] == "no_episode_named", bare.text
        assert httpx.get(own_server.url + "/state", timeout=30).json().get("episode_id") != mine
        assert owner.get("/state").json()["step_count"] == 0  # nothing was done to it
