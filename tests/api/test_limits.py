"""Every documented limit, tested at its edge: exactly at the limit works, one past it is refused.

Body size (declared and chunked), WebSocket message size, reply and note length, steps per
episode, WebSocket sessions per worker and the idle timeout; plus episode ids: unknown, finished
and malformed ids get a clear 4xx, and the ids ``/reset`` hands out are random. A refused request
appends nothing to the log.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from domain.actions import EXPANSION, MAX_MESSAGE_CHARS, MAX_NOTE_CHARS, MAX_REPLY_CHARS
from domain.tasks import default_catalog
from tests.servers import LiveServer, log_size, module_database, start_server

MAX_BODY = 65_536  # TICKETLEDGER_MAX_BODY_BYTES default
CATALOG = default_catalog()


def _padded(body: dict[str, Any], size: int) -> bytes:
    """``body`` as JSON, padded with trailing spaces to exactly ``size`` bytes."""
    raw = json.dumps(body).encode()
    assert len(raw) <= size
    return raw + b" " * (size - len(raw))


@pytest.fixture
def http(live_server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=live_server.url, timeout=30) as client:
        yield client


def _episode(http: httpx.Client, task_id: str = "task_hard_gdpr_deletion") -> str:
    reply = http.post("/reset", json={"task_id": task_id})
    assert reply.status_code == 200
    return reply.json()["episode_id"]


def _step(http: httpx.Client, eid: str, action: dict[str, Any]) -> httpx.Response:
    return http.post("/step", json={"action": action, "episode_id": eid})


# ---------------------------------------------------------------------------------- body size
def test_body_exactly_at_the_limit_is_read_and_one_byte_more_is_413(http, live_server) -> None:  # type: ignore[no-untyped-def]
    eid = _episode(http)
    body = {"action": {"action_type": "noop"}, "episode_id": eid}
    at = http.post("/step", content=_padded(body, MAX_BODY), headers={"Content-Type": "application/json"})
    assert at.status_code == 200, at.text
    before = log_size(live_server.database_url)
    over = http.post("/step", content=_padded(body, MAX_BODY + 1),
                     headers={"Content-Type": "application/json"})
    assert over.status_code == 413, over.text
    assert over.json()["code"] == "body_too_large" and str(MAX_BODY) in over.json()["detail"]
    assert log_size(live_server.database_url) == before


def test_chunked_body_at_and_past_the_limit(http, live_server) -> None:  # type: ignore[no-untyped-def]
    """No Content-Length: the body is counted as it streams in."""
    eid = _episode(http)
    body = {"action": {"action_type": "noop"}, "episode_id": eid}

    def chunks(raw: bytes) -> Iterator[bytes]:
        for start in range(0, len(raw), 8192):
            yield raw[start:start + 8192]

    headers = {"Content-Type": "application/json"}
    at = http.post("/step", content=chunks(_padded(body, MAX_BODY)), headers=headers)
    assert at.status_code == 200, at.text
    before = log_size(live_server.database_url)
    over = http.post("/step", content=chunks(_padded(body, MAX_BODY + 1)), headers=headers)
    assert over.status_code == 413, over.text
    assert log_size(live_server.database_url) == before


def test_websocket_message_at_and_past_the_limit(live_server: LiveServer) -> None:
    with ws_connect(live_server.url.replace("http", "ws", 1) + "/ws", max_size=None) as ws:
        ws.send(json.dumps({"type": "reset", "data": {}}))
        assert json.loads(ws.recv(timeout=30))["type"] == "observation"
        message = {"type": "step", "data": {"action_type": "noop"}}
        ws.send(_padded(message, MAX_BODY).decode())
        at = json.loads(ws.recv(timeout=30))
        assert at["type"] == "observation", at
        ws.send(_padded(message, MAX_BODY + 1).decode())
        over = json.loads(ws.recv(timeout=30))
        assert over["type"] == "error" and over["data"]["code"] == "VALIDATION_ERROR"
        assert str(MAX_BODY) in over["data"]["message"]
        ws.send(json.dumps({"type": "state"}))
        assert json.loads(ws.recv(timeout=30))["data"]["step_count"] == 1


def test_json_nested_deeper_than_the_parser_reads_is_a_4xx_not_a_crash(http, live_server) -> None:  # type: ignore[no-untyped-def]
    """Under the body limit, ``[[[[...`` can still be deeper than a recursive parser's stack."""
    eid = _episode(http)
    before = log_size(live_server.database_url)
    deep = b"[" * (MAX_BODY - 1)
    for path, status in (("/step", 422), ("/reset", 422), ("/mcp", 200)):
        reply = http.post(path, content=deep, headers={"X-Episode-Id": eid})
        assert reply.status_code == status, (path, reply.text)
        assert "nested too deeply" in reply.text, reply.text
    with ws_connect(live_server.url.replace("http://", "ws://") + "/ws") as ws:
        ws.send('{"type": "step", "data": ' + "[" * (MAX_BODY - 30))
        error = json.loads(ws.recv(timeout=30))["data"]
        assert error["code"] == "INVALID_JSON" and "nested too deeply" in error["message"]
        ws.send(json.dumps({"type": "state"}))
        assert json.loads(ws.recv(timeout=30))["type"] == "state"  # the session carries on
    assert log_size(live_server.database_url) == before
    assert "Traceback" not in live_server.log()


# ------------------------------------------------------------------------------ text lengths
@pytest.mark.parametrize(("action_type", "field", "limit"), [
    ("draft_reply", "reply_text", MAX_REPLY_CHARS), ("add_internal_note", "note", MAX_NOTE_CHARS)])
def test_text_exactly_at_its_limit_is_a_step_and_one_more_character_is_422(
        http, live_server, action_type: str, field: str, limit: int) -> None:  # type: ignore[no-untyped-def]
    eid = _episode(http)
    text = ("Thank you é " * limit)[:limit]  # non-ASCII: the limit counts characters, not bytes
    at = _step(http, eid, {"action_type": action_type, field: text})
    assert at.status_code == 200, at.text
    before = log_size(live_server.database_url)
    over = _step(http, eid, {"action_type": action_type, field: text + "x"})
    assert over.status_code == 422
    assert over.json()["field"] == field and str(limit) in over.json()["detail"]
    assert log_size(live_server.database_url) == before


@pytest.mark.parametrize(("action_type", "field", "limit"), [
    ("draft_reply", "reply_text", MAX_REPLY_CHARS), ("add_internal_note", "note", MAX_NOTE_CHARS),
    ("message_customer", "message", MAX_MESSAGE_CHARS)])
def test_text_that_expands_to_twice_its_limit_is_a_step_and_one_more_is_422(
        http, live_server, action_type: str, field: str, limit: int) -> None:  # type: ignore[no-untyped-def]
    """U+33C2 reads as "a.m." in the compatibility form the grader judges: a text of them within
    its limit may read at most twice the limit; past that it is refused, saying why."""
    eid = _episode(http)
    units = EXPANSION * limit // 4
    at = _step(http, eid, {"action_type": action_type, field: "\u33c2" * units})
    assert at.status_code == 200, at.text
    before = log_size(live_server.database_url)
    over = _step(http, eid, {"action_type": action_type, field: "\u33c2" * units + "\u33c2"})
    assert over.status_code == 422, over.text
    body = over.json()
    assert body["field"] == field and "NFKC" in body["detail"], body
    assert f"reads as {EXPANSION * limit + 4} characters" in body["detail"], body
    assert log_size(live_server.database_url) == before
    assert "Traceback" not in live_server.log()


def test_combined_action_reply_limit(http) -> None:  # type: ignore[no-untyped-def]
    """The CustomerSupportEnv combined action's ``reply`` has the same limit."""
    eid = _episode(http)
    assert _step(http, eid, {"reply": "r" * MAX_REPLY_CHARS}).status_code == 200
    over = _step(http, eid, {"reply": "r" * (MAX_REPLY_CHARS + 1)})
    assert over.status_code == 422 and over.json()["field"] == "reply"


# ------------------------------------------------------------------------------------- steps
def test_the_last_allowed_step_ends_the_episode_and_the_next_is_409(http, live_server) -> None:  # type: ignore[no-untyped-def]
    task_id = "task_easy_password"
    max_steps = CATALOG.spec(task_id).max_steps
    eid = _episode(http, task_id)
    for n in range(1, max_steps + 1):
        reply = _step(http, eid, {"action_type": "noop"})
        assert reply.status_code == 200
        assert reply.json()["done"] is (n == max_steps)
    state = http.get("/state", params={"episode_id": eid}).json()
    assert state["end_reason"] == "max_steps" and state["step_count"] == max_steps
    before = log_size(live_server.database_url)
    after = _step(http, eid, {"action_type": "noop"})
    assert after.status_code == 409 and after.json()["code"] == "episode_ended"
    assert "reset" in after.json()["detail"]
    assert log_size(live_server.database_url) == before


# ------------------------------------------------------------------------------- episode ids
def test_unknown_finished_and_malformed_episode_ids_get_clear_4xx(http, live_server) -> None:  # type: ignore[no-untyped-def]
    before = log_size(live_server.database_url)
    unknown = _step(http, "ep_000000000000000000000000", {"action_type": "noop"})
    assert unknown.status_code == 404 and unknown.json()["code"] == "episode_not_found"
    assert "reset" in unknown.json()["detail"]
    assert http.get("/state", params={"episode_id": "ep_nope"}).status_code == 404
    via_header = http.post("/step", json={"action_type": "noop"}, headers={"X-Episode-Id": "ep_nope"})
    assert via_header.status_code == 404
    for bad in ("../../etc/passwd", "a" * 65, "ep nope", "ép_1", "ep_1;DROP TABLE events", "\u0000"):
        reply = _step(http, bad, {"action_type": "noop"})
        assert 400 <= reply.status_code < 500 and reply.json()["detail"], (bad, reply.text)
        assert http.get("/state", params={"episode_id": bad}).status_code in (404, 422)
        reset = http.post("/reset", json={"episode_id": bad})
        assert reset.status_code == 422 and "episode_id" in reset.json()["detail"], reset.text
    assert log_size(live_server.database_url) == before
    eid = _episode(http, "task_easy_refund_tag")
    for _ in range(CATALOG.spec("task_easy_refund_tag").max_steps):
        _step(http, eid, {"action_type": "noop"})
    finished = _step(http, eid, {"action_type": "noop"})
    assert finished.status_code == 409 and finished.json()["code"] == "episode_ended"
    assert http.get("/state", params={"episode_id": eid}).json()["done"] is True  # still readable
    taken = http.post("/reset", json={"episode_id": eid})
    assert taken.status_code == 422, "a client cannot choose an id of the server's own form"
    assert "made by the server" in taken.json()["detail"]
    assert http.get("/state", params={"episode_id": eid}).json()["done"] is True  # untouched


def test_episode_ids_are_random(live_server: LiveServer) -> None:
    ids = []
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        for _ in range(40):
            ids.append(http.post("/reset", json={}).json()["episode_id"])
    with ws_connect(live_server.url.replace("http", "ws", 1) + "/ws") as ws:
        for _ in range(10):
            ws.send(json.dumps({"type": "reset", "data": {}}))
            ids.append(json.loads(ws.recv(timeout=30))["data"]["episode_id"])
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"ep_[0-9a-f]{32}", i) for i in ids), ids[:3]  # 128 random bits
    for position in range(3, 35):  # every hex digit varies: no counter, no timestamp prefix
        assert len({i[position] for i in ids}) >= 4, (position, ids[:5])


# ------------------------------------------------------------------- sessions and idle timeout
@pytest.fixture(scope="module")
def small_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(module_database(tmp_path_factory, "limits"),
                      env={"TICKETLEDGER_MAX_SESSIONS": "3",
                           "TICKETLEDGER_SESSION_IDLE_TIMEOUT": "2"}) as server:
        yield server


def _ws(server: LiveServer):  # type: ignore[no-untyped-def]
    return ws_connect(server.url.replace("http", "ws", 1) + "/ws")


def test_sessions_up_to_the_cap_and_one_more_is_refused(small_server: LiveServer) -> None:
    with _ws(small_server) as a, _ws(small_server) as b, _ws(small_server) as c:
        for ws in (a, b, c):
            ws.send(json.dumps({"type": "reset", "data": {}}))
            assert json.loads(ws.recv(timeout=30))["type"] == "observation"
        with _ws(small_server) as d:
            d.send(json.dumps({"type": "reset", "data": {}}))  # the close follows it at once
            refused = json.loads(d.recv(timeout=30))
            assert refused["data"]["code"] == "CAPACITY_REACHED"
            assert refused["data"]["max_sessions"] == 3
            with pytest.raises(ConnectionClosed) as closed:
                d.recv(timeout=30)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        a.send(json.dumps({"type": "close"}))
        assert _wait_for_a_slot(small_server), "a closed session's slot is never freed"


def _wait_for_a_slot(server: LiveServer) -> bool:
    """Whether a new session is accepted within a few seconds (the server frees slots on close)."""
    for _ in range(100):
        with _ws(server) as ws, contextlib.suppress(ConnectionClosed):  # refused: closed on us
            ws.send(json.dumps({"type": "reset", "data": {}}))
            if json.loads(ws.recv(timeout=30))["type"] == "observation":
                return True
        time.sleep(0.05)
    return False


def test_idle_timeout_closes_a_silent_session_but_not_a_talking_one(small_server: LiveServer) -> None:
    with _ws(small_server) as talking, _ws(small_server) as silent:
        talking.send(json.dumps({"type": "reset", "data": {}}))
        talking.recv(timeout=30)
        for _ in range(6):  # 3 s of traffic with gaps well under the 2 s timeout
            time.sleep(0.5)
            talking.send(json.dumps({"type": "state"}))
            assert json.loads(talking.recv(timeout=30))["type"] == "state"
        notice = json.loads(silent.recv(timeout=30))  # the silent one was told, then closed
        assert notice["data"]["code"] == "SESSION_ERROR" and "idle" in notice["data"]["message"]
        with pytest.raises(ConnectionClosed):
            silent.recv(timeout=30)
