"""Bad input of every kind: its status, a message that says what to fix, and an unchanged log."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from domain.actions import MAX_REPLY_CHARS
from domain.tasks import default_catalog
from service.gold import gold
from tests.servers import LiveServer, log_size

CATALOG = default_catalog()


@pytest.fixture
def http(live_server: LiveServer) -> Iterator[httpx.Client]:
    """A cookie-keeping client with a fresh episode of its own."""
    with httpx.Client(base_url=live_server.url, timeout=30) as client:
        client.post("/reset", json={"task_id": "task_easy_password"}).raise_for_status()
        yield client


def chunks(total: int) -> Iterator[bytes]:
    yield b'{"action_type": "draft_reply", "reply_text": "'
    for _ in range(total // 1024):
        yield b"x" * 1024
    yield b'"}'


BAD_REQUESTS: list[tuple[str, str, str, dict[str, Any], int, str, str, str | None]] = [
    # (id, method, path, request kwargs, status, code, words in detail, field)
    ("bad-json", "POST", "/step", {"content": b'{"action_type": '}, 422, "invalid_request",
     "not valid JSON", None),
    ("empty-step", "POST", "/step", {"content": b""}, 422, "invalid_request", "empty", None),
    ("array", "POST", "/step", {"json": [1, 2]}, 422, "invalid_request", "JSON object", None),
    ("action-not-object", "POST", "/step", {"json": {"action": "noop"}}, 422, "invalid_request",
     "'action' must be a JSON object", None),
    ("extra-beside-action", "POST", "/step", {"json": {"action": {"action_type": "noop"}, "foo": 1}},
     422, "invalid_request", "unknown field 'foo'", None),
    ("unknown-action-type", "POST", "/step", {"json": {"action_type": "fly"}}, 422, "invalid_action",
     "choose one of", "action_type"),
    ("bad-priority", "POST", "/step", {"json": {"action_type": "classify_priority", "priority": "asap"}},
     422, "invalid_action", "low, medium, high, urgent", "priority"),
    ("unknown-field", "POST", "/step", {"json": {"action_type": "noop", "colour": "red"}}, 422,
     "invalid_action", "unknown field 'colour'", "colour"),
    ("stray-field", "POST", "/step", {"json": {"action": {"action_type": "noop", "priority": "high"}}},
     422, "invalid_action", "does not belong", "priority"),
    ("reply-too-long", "POST", "/step",
     {"json": {"action_type": "draft_reply", "reply_text": "x" * (MAX_REPLY_CHARS + 1)}}, 422,
     "invalid_action", f"limit is {MAX_REPLY_CHARS}", "reply_text"),
    ("body-too-large", "POST", "/step",
     {"json": {"action_type": "draft_reply", "reply_text": "x" * 70_000}}, 413, "body_too_large",
     "65536 bytes", None),
    ("chunked-too-large", "POST", "/step", {"content": chunks(200_000)}, 413, "body_too_large",
     "65536 bytes", None),
    ("unknown-episode", "POST", "/step", {"json": {"action_type": "noop", "episode_id": "ep_nope"}},
     404, "episode_not_found", "call reset", None),
    ("malformed-episode", "POST", "/step", {"json": {"action": {"action_type": "noop"},
                                                     "episode_id": "../etc"}},
     404, "episode_not_found", "malformed", None),
    ("unknown-episode-header", "POST", "/step", {"json": {"action_type": "noop"},
                                                 "headers": {"X-Episode-Id": "ep_missing"}},
     404, "episode_not_found", "call reset", None),
    ("unknown-task", "POST", "/reset", {"json": {"task_id": "task_nope"}}, 404, "unknown_task",
     "task_easy_password", None),
    ("seed-not-int", "POST", "/reset", {"json": {"seed": "seven"}}, 422, "invalid_request",
     "seed must be an integer", None),
    ("seed-bool", "POST", "/reset", {"json": {"seed": True}}, 422, "invalid_request",
     "seed must be an integer", None),
    ("reset-unknown-field", "POST", "/reset", {"json": {"taskid": "task_easy_password"}}, 422,
     "invalid_request", "reset takes: task_id, seed, episode_id, run_id", None),
    ("reset-bad-run-id", "POST", "/reset", {"json": {"run_id": "a/b"}}, 422, "invalid_request",
     "run_id must be", None),
    ("reset-bad-episode-id", "POST", "/reset", {"json": {"episode_id": "no spaces allowed"}}, 422,
     "invalid_request", "episode_id must be", None),
    ("reset-not-object", "POST", "/reset", {"json": ["task_easy_password"]}, 422, "invalid_request",
     "JSON object", None),
    ("reset-first-mistake", "POST", "/reset", {"json": {"zz": 1, "seed": "x", "aa": 2}}, 422,
     "invalid_request", "unknown field 'aa'; reset takes", None),
    ("step-first-mistake", "POST", "/step",
     {"json": {"action": {}, "zz": 1, "bb": 2, "episode_id": 5}}, 422, "invalid_request",
     "unknown field 'bb' next to 'action'", None),
    ("step-timeout-not-number", "POST", "/step",
     {"json": {"action": {"action_type": "noop"}, "timeout_s": "soon"}}, 422, "invalid_request",
     "timeout_s: Input should be a valid number", None),
    ("step-form-content-type", "POST", "/step",
     {"content": b'{"action_type": "noop", "episode_id": "ep_nope"}',
      "headers": {"Content-Type": "application/x-www-form-urlencoded"}},
     404, "episode_not_found", "call reset", None),  # read as JSON, as curl -d sends it
    ("state-unknown-episode", "GET", "/state", {"params": {"episode_id": "ep_unknown"}}, 404,
     "episode_not_found", "call reset", None),
    ("no-route", "GET", "/nowhere", {}, 404, "not_found", "/docs", None),
    ("wrong-method", "DELETE", "/step", {}, 405, "method_not_allowed", "/docs", None),
]


@pytest.mark.parametrize(("method", "path", "kwargs", "status", "code", "words", "field"),
                         [case[1:] for case in BAD_REQUESTS], ids=[case[0] for case in BAD_REQUESTS])
def test_bad_input_gets_its_status_and_message_and_appends_nothing(
        live_server: LiveServer, http: httpx.Client, method: str, path: str, kwargs: dict[str, Any],
        status: int, code: str, words: str, field: str | None) -> None:
    before = log_size(live_server.database_url)
    response = http.request(method, path, **kwargs)
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code and body["status"] == status
    assert words in body["detail"]
    assert body.get("field") == field
    assert log_size(live_server.database_url) == before


def test_a_step_on_a_finished_episode_is_409(live_server: LiveServer, http: httpx.Client) -> None:
    for action in gold(CATALOG.instance("task_easy_password", None)):
        http.post("/step", json=action).raise_for_status()
    before = log_size(live_server.database_url)
    response = http.post("/step", json={"action_type": "noop"})
    assert response.status_code == 409
    assert response.json()["code"] == "episode_ended" and "reset" in response.json()["detail"]
    assert log_size(live_server.database_url) == before


def test_reusing_an_episode_id_is_a_409_conflict(live_server: LiveServer, http: httpx.Client) -> None:
    episode = "dup_" + secrets.token_hex(6)
    http.post("/reset", json={"episode_id": episode}).raise_for_status()
    before = log_size(live_server.database_url)
    response = http.post("/reset", json={"episode_id": episode})
    assert response.status_code == 409 and response.json()["code"] == "conflict"
    assert "omit episode_id" in response.json()["detail"]
    assert log_size(live_server.database_url) == before


def test_the_server_survives_every_bad_request(live_server: LiveServer) -> None:
    assert httpx.get(live_server.url + "/health").json() == {"status": "healthy"}
    assert "Traceback" not in live_server.log()
