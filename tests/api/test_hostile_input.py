"""Hostile input on every transport, against a real server: ids checked whole, deep
nesting, numbers longer than Python reads or the log stores, forged cursors, oversized MCP
batches. Each answer is a 4xx (or the protocol's own error) whose message says what to fix; none
is a 5xx, none appends an event, and the server log holds no traceback.

These are the fuzzer's probes (``test_fuzz_http.py``, slow tier) written out, so the fast tier
catches a regression on each of them by name.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from api.mcp import MAX_BATCH
from cli.main import main as cli_main
from tests.databases import fresh_database
from tests.servers import LiveServer, log_size, module_database, start_server

TOKEN = "hostile-input-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
DEEP = "[" * 30_000 + "]" * 30_000  # 60 KB of balanced brackets, under the 64 KiB body limit
HUGE = "9" * 5_000  # past Python's 4,300-digit limit on integer strings
DIGITS = "more than 4300 digits"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(module_database(tmp_path_factory, "hostile"),
                      env={"TICKETLEDGER_AUDIT_TOKEN": TOKEN}) as live:
        yield live


@pytest.fixture(scope="module")
def eid(server: LiveServer) -> str:
    """An episode of this module's own, one step in, that the probes aim at."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        episode_id: str = http.post("/reset", json={}).json()["episode_id"]
        http.post("/step", json={"action": {"action_type": "noop"},
                                 "episode_id": episode_id}).raise_for_status()
    return episode_id


def _with(template: str, value: str) -> str:
    """``template`` with ``value`` where it says VALUE (JSON text too long to write out)."""
    return template.replace("VALUE", value)


def _cursor(value: Any) -> str:
    """A listing cursor as the server encodes them, around ``value`` (a forgery)."""
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


# (id, method, path, body text or None, status, code, words in detail); EID stands for the
# module's episode id.
HTTP_PROBES: list[tuple[str, str, str, str | None, int, str, str]] = [
    # nesting: 60 KB of brackets where a value goes, in both step dialects, reset and audit bodies
    ("step-bare-nested", "POST", "/step", _with('{"action_type": "noop", "x": VALUE}', DEEP), 422,
     "invalid_request", "nested too deeply"),
    ("step-wrapped-nested", "POST", "/step", _with('{"action": {"action_type": "noop", "x": VALUE}}', DEEP),
     422, "invalid_request", "nested too deeply"),
    ("step-nested-top", "POST", "/step", DEEP, 422, "invalid_request", "nested too deeply"),
    ("reset-nested", "POST", "/reset", _with('{"task_id": VALUE}', DEEP), 422, "invalid_request",
     "nested too deeply"),
    ("fork-nested", "POST", "/episodes/EID/fork", _with('{"at": 0, "episode_id": VALUE}', DEEP), 422,
     "invalid_request", "nested too deeply"),
    ("regrade-nested", "POST", "/regrade", DEEP, 422, "invalid_request", "nested too deeply"),
    # numbers longer than Python converts
    ("reset-huge-seed", "POST", "/reset", _with('{"seed": VALUE}', HUGE), 422, "invalid_request", DIGITS),
    ("step-bare-huge-value", "POST", "/step",
     _with('{"action_type": "classify_priority", "priority": VALUE, "episode_id": "EID"}', HUGE), 422,
     "invalid_request", DIGITS),
    ("step-wrapped-huge-value", "POST", "/step",
     _with('{"action": {"action_type": "issue_refund", "amount": VALUE}, "episode_id": "EID"}', HUGE),
     422, "invalid_request", DIGITS),
    ("step-huge-timeout", "POST", "/step",
     _with('{"action": {"action_type": "noop"}, "timeout_s": VALUE, "episode_id": "EID"}', HUGE), 422,
     "invalid_request", DIGITS),
    ("fork-huge-at", "POST", "/episodes/EID/fork", _with('{"at": VALUE}', HUGE), 422, "invalid_request",
     DIGITS),
    ("reset-seed-past-64-bits", "POST", "/reset", f'{{"seed": {2**63}}}', 422, "invalid_request",
     "seed must be a 64-bit integer"),
    # ids: checked whole (a trailing newline is not part of an id), never '.' or '..'
    ("reset-id-newline", "POST", "/reset", '{"episode_id": "ep_newline\\n"}', 422,
     "invalid_request", "episode_id must be 1-64 characters"),
    ("reset-id-dot", "POST", "/reset", '{"episode_id": "."}', 422, "invalid_request",
     "episode_id cannot be '.'"),
    ("reset-id-dotdot", "POST", "/reset", '{"episode_id": ".."}', 422, "invalid_request",
     "episode_id cannot be '..'"),
    ("reset-run-id-newline", "POST", "/reset", '{"run_id": "run_newline\\n"}', 422,
     "invalid_request", "run_id must be 1-64 characters"),
    ("step-id-newline", "POST", "/step", '{"action": {"action_type": "noop"}, "episode_id": "EID\\n"}',
     404, "episode_not_found", "malformed episode id"),
    ("step-bare-id-newline", "POST", "/step", '{"action_type": "noop", "episode_id": "EID\\n"}',
     404, "episode_not_found", "malformed episode id"),
    ("state-id-newline", "GET", "/state?episode_id=EID%0A", None, 404, "episode_not_found",
     "malformed episode id"),
    ("audit-episode-newline", "GET", "/episodes/EID%0A", None, 422, "invalid_request",
     "episode_id must be 1-64 characters"),
    ("audit-steps-dotdot", "GET", "/episodes/%2E%2E/steps", None, 422, "invalid_request",
     "episode_id cannot be '..'"),
    ("audit-diff-newline", "GET", "/episodes/EID/diff/EID%0A", None, 422, "invalid_request",
     "episode_id must be 1-64 characters"),
    ("fork-id-newline", "POST", "/episodes/EID/fork", '{"at": 0, "episode_id": "ep_fork\\n"}', 422,
     "invalid_request", "episode_id must be 1-64 characters"),
    ("run-id-nul", "GET", "/runs/run%00", None, 422, "invalid_request", "run_id must be"),
    ("new-run-agent-nul", "POST", "/runs", '{"agent": "gpt\\u0000"}', 422, "invalid_request",
     "agent must be text without NUL"),
    ("finish-run-id-nul", "POST", "/runs/run%00/finish", "{}", 422, "invalid_request",
     "run_id must be"),
    ("finish-run-id-newline", "POST", "/runs/run%0A/finish", "{}", 422, "invalid_request",
     "run_id must be"),
    ("episodes-run-nul", "GET", "/episodes?run=run%00", None, 422, "invalid_request", "run must be"),
    ("episodes-task-newline", "GET", "/episodes?task=task_easy_password%0A", None, 422,
     "invalid_request", "task must be"),
    ("episodes-model-nul", "GET", "/episodes?model=gpt%00", None, 422, "invalid_request",
     "without NUL"),
    ("heads-run-empty", "GET", "/heads?run=", None, 422, "invalid_request", "run must be"),
    ("export-task-nul", "GET", "/export?task=task%00", None, 422, "invalid_request", "task must be"),
    ("verify-run-newline", "GET", "/verify?run=run%0A", None, 422, "invalid_request", "run must be"),
    ("regrade-run-nul", "POST", "/regrade", '{"run_id": "run\\u0000", "dry_run": true}', 422,
     "invalid_request", "run must be"),
    # cursors: a sequence number the log can hold, or a listing cursor this server wrote
    ("events-cursor-past-2^63", "GET", f"/episodes/EID/events?cursor={2**63}", None, 422,
     "invalid_request", "a sequence number from 0 to 2147483647"),
    ("events-cursor-past-int", "GET", f"/episodes/EID/events?cursor={2**31}", None, 422,
     "invalid_request", "a sequence number from 0 to 2147483647"),
    ("events-cursor-underscore", "GET", "/episodes/EID/events?cursor=1_0", None, 422,
     "invalid_request", "a sequence number"),
    ("events-cursor-arabic-digit", "GET", "/episodes/EID/events?cursor=%D9%A1", None, 422,
     "invalid_request", "a sequence number"),
    ("episodes-cursor-nul", "GET", "/episodes?cursor=" + _cursor(["2026-01-01T00:00:00", "ep\x00"]),
     None, 422, "invalid_request", "pass back the next_cursor"),
    ("episodes-cursor-number", "GET", "/episodes?cursor=" + _cursor(["2026-01-01T00:00:00", 7]),
     None, 422, "invalid_request", "pass back the next_cursor"),
    ("runs-cursor-nul", "GET", "/runs?cursor=" + _cursor(["2026-01-01T00:00:00", "run\x00"]),
     None, 422, "invalid_request", "pass back the next_cursor"),
]


@pytest.mark.parametrize(("method", "path", "body", "status", "code", "words"),
                         [probe[1:] for probe in HTTP_PROBES], ids=[p[0] for p in HTTP_PROBES])
def test_hostile_http_input_gets_a_4xx_that_says_what_to_fix(
        server: LiveServer, eid: str, method: str, path: str, body: str | None, status: int,
        code: str, words: str) -> None:
    before = log_size(server.database_url)
    content = None if body is None else body.replace("EID", eid).encode()
    response = httpx.request(method, server.url + path.replace("EID", eid), content=content,
                             headers={**AUTH, "Content-Type": "application/json"}, timeout=30)
    assert response.status_code == status, response.text[:500]
    answer = response.json()
    assert answer["code"] == code and answer["status"] == status, answer
    assert words in answer["detail"], answer["detail"]
    assert len(answer["detail"]) < 400, "a message never echoes the whole input"
    assert log_size(server.database_url) == before


def _rpc(message: dict[str, Any], **fields: Any) -> str:
    return json.dumps({"jsonrpc": "2.0", **message, **fields})


# (id, body text, JSON-RPC error code, words in the message)
MCP_PROBES: list[tuple[str, str, int, str]] = [
    ("nested", DEEP, -32700, "nested too deeply"),
    ("nested-arguments", _with('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": '
                         '{"name": "noop", "arguments": {"x": VALUE}}}', DEEP), -32700,
     "nested too deeply"),
    ("huge-id", _with('{"jsonrpc": "2.0", "id": VALUE, "method": "ping"}', HUGE), -32700, DIGITS),
    ("huge-seed", _with('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": '
                  '{"name": "reset", "arguments": {"seed": VALUE}}}', HUGE), -32700, DIGITS),
    ("id-past-64-bits", _rpc({"id": 2**63, "method": "ping"}), -32600, '"id" must be a string'),
    ("id-infinite", '{"jsonrpc": "2.0", "id": 1e400, "method": "ping"}', -32600,
     '"id" must be a string'),
    ("id-object", _rpc({"id": {"a": 1}, "method": "ping"}), -32600, '"id" must be a string'),
    ("tool-name-object", _rpc({"id": 1, "method": "tools/call",
                               "params": {"name": {"a": 1}, "arguments": {}}}), -32602,
     "name must be a string"),
    ("not-utf8", '{"jsonrpc": "2.0", "id": "\udcff", "method": "ping"}', -32700, "UTF-8"),
    ("batch-over-the-limit", json.dumps([{"jsonrpc": "2.0", "id": n, "method": "tools/call",
                                          "params": {"name": "reset", "arguments": {}}}
                                         for n in range(MAX_BATCH + 1)]), -32600,
     f"a batch holds at most {MAX_BATCH} requests, this one {MAX_BATCH + 1}; none was run"),
]


@pytest.mark.parametrize(("body", "code", "words"), [p[1:] for p in MCP_PROBES],
                         ids=[p[0] for p in MCP_PROBES])
def test_hostile_mcp_input_gets_a_json_rpc_error(server: LiveServer, body: str, code: int,
                                                 words: str) -> None:
    before = log_size(server.database_url)
    raw = body.encode("utf-8", "surrogateescape")
    response = httpx.post(server.url + "/mcp", content=raw, timeout=30,
                          headers={"Content-Type": "application/json"})
    assert response.status_code == 200, response.text[:500]
    answer = response.json()
    assert answer["jsonrpc"] == "2.0", answer
    assert answer["id"] == (1 if code == -32602 else None), "an id is echoed only when valid"
    assert answer["error"]["code"] == code and words in answer["error"]["message"], answer
    assert log_size(server.database_url) == before


@pytest.mark.parametrize(("tool", "arguments", "words"), [
    ("reset", {"episode_id": "ep_newline\n"}, "episode_id must be 1-64 characters"),
    ("reset", {"episode_id": ".."}, "episode_id cannot be '..'"),
    ("reset", {"run_id": "run\n"}, "run_id must be 1-64 characters"),
    ("state", {"episode_id": "EID\n"}, "malformed episode id"),
    ("noop", {"episode_id": "EID\n"}, "malformed episode id"),
], ids=["reset-id-newline", "reset-id-dotdot", "reset-run-id-newline", "state-id-newline",
        "step-id-newline"])
def test_mcp_tools_check_ids_whole(server: LiveServer, eid: str, tool: str,
                                   arguments: dict[str, str], words: str) -> None:
    before = log_size(server.database_url)
    args = {k: v.replace("EID", eid) for k, v in arguments.items()}
    answer = httpx.post(server.url + "/mcp", timeout=30, json={
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": tool, "arguments": args}}).json()
    assert answer["result"]["isError"] is True, answer
    assert words in answer["result"]["content"][0]["text"], answer
    assert log_size(server.database_url) == before


def test_an_mcp_batch_at_the_limit_runs_and_one_more_runs_nothing(server: LiveServer) -> None:
    """A 64 KiB batch of resets once opened hundreds of episodes in one request."""
    pings = [{"jsonrpc": "2.0", "id": n, "method": "ping"} for n in range(MAX_BATCH)]
    at = httpx.post(server.url + "/mcp", json=pings, timeout=30).json()
    assert [a["id"] for a in at] == list(range(MAX_BATCH))
    before = log_size(server.database_url)
    resets = [{"jsonrpc": "2.0", "id": n, "method": "tools/call",
               "params": {"name": "reset", "arguments": {}}} for n in range(MAX_BATCH + 1)]
    over = httpx.post(server.url + "/mcp", json=resets, timeout=30)
    assert over.status_code == 200 and over.json()["error"]["code"] == -32600
    assert log_size(server.database_url) == before, "no request of a refused batch ran"
    assert "ticketledger_episode" not in over.cookies


# (id, message text, error code, words in the message)
WS_PROBES: list[tuple[str, str, str, str]] = [
    ("nested", _with('{"type": "step", "data": {"action_type": "noop", "x": VALUE}}', DEEP),
     "INVALID_JSON", "nested too deeply"),
    ("huge-seed", _with('{"type": "reset", "data": {"seed": VALUE}}', HUGE), "INVALID_JSON", DIGITS),
    ("huge-value", _with('{"type": "step", "data": {"action_type": "classify_priority", '
                         '"priority": VALUE}}', HUGE), "INVALID_JSON", DIGITS),
    ("huge-type", _with('{"type": VALUE}', HUGE), "INVALID_JSON", DIGITS),
    ("reset-id-newline", '{"type": "reset", "data": {"episode_id": "ep_newline\\n"}}',
     "VALIDATION_ERROR", "episode_id must be 1-64 characters"),
    ("reset-id-dot", '{"type": "reset", "data": {"episode_id": "."}}', "VALIDATION_ERROR",
     "episode_id cannot be '.'"),
    ("reset-run-id-newline", '{"type": "reset", "data": {"run_id": "run\\n"}}', "VALIDATION_ERROR",
     "run_id must be 1-64 characters"),
    ("step-id-newline", '{"type": "step", "data": {"action_type": "noop", "episode_id": "EID\\n"}}',
     "EXECUTION_ERROR", "malformed episode id"),
]


@pytest.mark.parametrize(("message", "code", "words"), [p[1:] for p in WS_PROBES],
                         ids=[p[0] for p in WS_PROBES])
def test_hostile_ws_messages_get_an_error_and_the_session_carries_on(
        server: LiveServer, eid: str, message: str, code: str, words: str) -> None:
    before = log_size(server.database_url)
    with ws_connect(server.url.replace("http://", "ws://") + "/ws", max_size=None) as ws:
        ws.send(message.replace("EID", eid))
        reply = json.loads(ws.recv(timeout=30))
        assert reply["type"] == "error", reply
        assert reply["data"]["code"] == code and words in reply["data"]["message"], reply
        ws.send(json.dumps({"type": "state"}))
        assert json.loads(ws.recv(timeout=30))["type"] == "state"
    assert log_size(server.database_url) == before


def test_a_refused_id_leaves_the_heads_file_whole(tmp_path: Path) -> None:
    """An id with a trailing newline once went into the log, then split its line of the heads file,
    so ``verify --heads`` failed (exit 2) on every episode."""
    with fresh_database(tmp_path, "tl_heads_ids") as url, \
            start_server(url, env={"TICKETLEDGER_AUDIT_TOKEN": TOKEN}) as live:
        with httpx.Client(base_url=live.url, timeout=30, headers=AUTH) as http:
            for bad in ("ep_newline\n", ".", ".."):
                assert http.post("/reset", json={"episode_id": bad}).status_code == 422, bad
            http.post("/reset", json={"episode_id": "ep_fine"}).raise_for_status()
            heads = http.get("/heads")
        assert heads.status_code == 200, heads.text
        lines = [line for line in heads.text.splitlines() if line and not line.startswith("#")]
        assert len(lines) == 1 and len(lines[0].split()) == 3, heads.text  # id, seq, head
        (tmp_path / "heads.txt").write_text(heads.text, encoding="utf-8")
        assert cli_main(["--database-url", url, "verify", "--heads",
                         str(tmp_path / "heads.txt")]) == 0


def test_each_input_limit_at_its_edge(server: LiveServer, eid: str) -> None:
    """Just inside a limit the input is read (and judged on what it says); just past it, refused
    for the limit. Nothing is written either way."""
    before = log_size(server.database_url)

    def step(raw: str) -> dict[str, Any]:
        reply = httpx.post(server.url + "/step", content=raw.encode(), timeout=30,
                           headers={"X-Episode-Id": eid, "Content-Type": "application/json"})
        assert reply.status_code == 422, reply.text[:300]
        return dict(reply.json())

    read = step('{"action_type": "noop", "x": ' + "[" * 190 + "]" * 190 + "}")
    assert read["code"] == "invalid_action" and "unknown field 'x'" in read["detail"]
    refused = step('{"action_type": "noop", "x": ' + "[" * 210 + "]" * 210 + "}")
    assert refused["detail"] == "the step body is nested too deeply to read"

    def seed(digits: int) -> str:
        reply = httpx.post(server.url + "/reset", content=b'{"seed": ' + b"9" * digits + b"}",
                           timeout=30)
        assert reply.status_code == 422, reply.text[:300]
        return str(reply.json()["detail"])

    assert seed(4300).startswith("seed must be a 64-bit integer")
    assert seed(4301).startswith("the reset body holds a number of more than 4300 digits")

    events = f"{server.url}/episodes/{eid}/events"
    last = httpx.get(events, params={"cursor": str(2**31 - 1)}, headers=AUTH, timeout=30)
    assert last.status_code == 200 and last.json()["events"] == []
    past = httpx.get(events, params={"cursor": str(2**31)}, headers=AUTH, timeout=30)
    assert past.status_code == 422
    assert log_size(server.database_url) == before


@pytest.mark.parametrize("text", ["Hi Nan, the reset link is on its way.", "NaN", "inf",
                                  "Infinity and beyond: -inf, 1e999 and $nan"])
def test_words_python_reads_as_special_floats_are_words_in_a_reply_and_a_note(
        server: LiveServer, text: str) -> None:
    """``float`` reads "nan", "inf" and "infinity" (and 1e999 as infinity): a reply or note
    holding one is graded like any other text, not a failed step."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        episode = http.post("/reset", json={"task_id": "task_easy_password"}).json()["episode_id"]
        for action in ({"action_type": "draft_reply", "reply_text": text},
                       {"action_type": "add_internal_note", "note": text}):
            answer = http.post("/step", json={"action": action, "episode_id": episode})
            assert answer.status_code == 200, answer.text[:500]
            assert answer.json()["observation"]["last_action_error"] is None


def test_no_probe_left_a_traceback(server: LiveServer) -> None:
    """Runs after the probes above (file order): not one of them was a bug in the server."""
    assert httpx.get(server.url + "/health", timeout=30).json() == {"status": "healthy"}
    assert "Traceback" not in server.log(), server.log()[-3000:]
