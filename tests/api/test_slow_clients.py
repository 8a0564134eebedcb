"""Clients that go away, dawdle or pile up, and secrets in the server's log, on a real uvicorn.

A client that closes its connection mid-body is one log line (no traceback); a body that does not
arrive whole within ``TICKETLEDGER_BODY_TIMEOUT`` is answered 408 and its connection closed; open
connections are bounded by ``TICKETLEDGER_MAX_CONNECTIONS`` (uvicorn's ``limit_concurrency``: past
it a request gets 503 at once, it does not hang); and the audit token given to ``/ui?token=`` never
reaches the log, whether the server runs as ``python -m server.app --access-log`` or as plain
``uvicorn server.app:app`` (access log on by default). The server's own log is read from its
process's output.
"""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from api.logs import redact
from tests.databases import sqlite_pass_only
from tests.servers import LiveServer, module_database, start_server

pytestmark = sqlite_pass_only("sockets, timeouts and log lines, before any database work")

BODY_TIMEOUT_S = 2.0
MAX_CONNECTIONS = 6
TOKEN = "s3cret-audit-token-0123456789"
"""The audit token: looked for verbatim in the log (and its URL-encoded form is the same)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {"TICKETLEDGER_BODY_TIMEOUT": str(BODY_TIMEOUT_S),
           "TICKETLEDGER_MAX_CONNECTIONS": str(MAX_CONNECTIONS), "TICKETLEDGER_AUDIT_TOKEN": TOKEN}
    with start_server(module_database(tmp_path_factory, "slow_clients"), env=env,
                      args=["--log-level", "info", "--access-log"]) as live:
        yield live


def _connect(server: LiveServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def _head(path: str, length: int) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n\r\n").encode()


def _log_since(server: LiveServer, offset: int) -> str:
    return server.log()[offset:]


def _wait_for(server: LiveServer, offset: int, needle: str, timeout: float = 10.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if needle in _log_since(server, offset):
            time.sleep(0.3)  # anything the same event logs after it (a traceback) is in too
            return _log_since(server, offset)
        time.sleep(0.05)
    raise AssertionError(f"{needle!r} not logged within {timeout} s:\n{_log_since(server, offset)}")


# -------------------------------------------------------------------------------- disconnects
@pytest.mark.parametrize("path", ["/step", "/reset", "/mcp"])
def test_a_client_gone_mid_body_is_one_log_line(server: LiveServer, path: str) -> None:
    offset = len(server.log())
    sock = _connect(server)
    port = sock.getsockname()[1]
    sock.sendall(_head(path, 1000) + b'{"action": ' + b" " * 400)
    time.sleep(0.2)  # the route is reading the body
    sock.close()
    logged = _wait_for(server, offset, f"127.0.0.1:{port} closed the connection")
    lines = [line for line in logged.splitlines() if line.strip()]
    assert len(lines) == 1, logged
    assert f"after 411 of 1000 body bytes: POST {path}" in lines[0]
    assert httpx.get(server.url + "/health").status_code == 200


# ------------------------------------------------------------------------------- slow bodies
def _answer(sock: socket.socket, timeout: float, trickle_for: float = 0.0) -> tuple[bytes, float]:
    """What the server answers (read until it closes) and how long it took, sending one more body
    byte every 0.2 s for the first ``trickle_for`` seconds. (Not up to the answer: a byte that
    reaches the server after it closed makes it reset the connection, which may discard the
    answer before it is read.)"""
    started = time.monotonic()
    received = b""
    while time.monotonic() - started < timeout:
        readable, _, _ = select.select([sock], [], [], 0.2)
        if readable:
            chunk = sock.recv(65536)
            if not chunk:
                break
            received += chunk
        elif time.monotonic() - started < trickle_for and not received:
            sock.sendall(b" ")
    return received, time.monotonic() - started


def test_a_body_that_trickles_in_is_cut_off_with_408(server: LiveServer) -> None:
    """The timeout is for the whole body, not for each read: a byte every 0.2 s for 70 % of it
    does not push it back (a per-read timeout would answer only at 1.7 times the timeout)."""
    offset = len(server.log())
    with _connect(server) as sock:
        sock.sendall(_head("/step", 10_000) + b'{"action": ')
        answer, took = _answer(sock, BODY_TIMEOUT_S + 15, trickle_for=BODY_TIMEOUT_S * 0.7)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 "), answer[:500]
    assert b"connection: close" in head.lower()
    assert b'"code":"body_timeout"' in body.replace(b" ", b"") and b"TICKETLEDGER_BODY_TIMEOUT" in body
    assert BODY_TIMEOUT_S - 0.1 <= took < BODY_TIMEOUT_S * 1.5, took
    assert "Traceback" not in _log_since(server, offset)


@pytest.mark.slow
def test_a_body_sent_in_parts_within_the_timeout_is_read(server: LiveServer) -> None:
    body = b'{"task_id": "task_easy_password"}'
    with _connect(server) as sock:
        sock.sendall(_head("/reset", len(body)) + body[:10])
        time.sleep(BODY_TIMEOUT_S / 3)
        sock.sendall(body[10:])
        answer, _ = _answer(sock, 5)
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:500]
    assert b'"episode_id"' in answer


def test_a_client_sending_nothing_after_its_headers_is_cut_off_too(server: LiveServer) -> None:
    with _connect(server) as sock:
        sock.sendall(_head("/mcp", 50))
        answer, took = _answer(sock, BODY_TIMEOUT_S + 15)
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:500]
    assert took < BODY_TIMEOUT_S + 10


# ------------------------------------------------------------------------------- connections
def test_open_connections_are_bounded_and_past_the_bound_a_request_gets_503_at_once(
        server: LiveServer) -> None:
    """uvicorn counts the new connection too: with the bound's worth minus one held open (here by
    clients that never finish their headers, which uvicorn waits for without end), the next
    request is refused at once; once they are gone, requests are served again."""
    held = [_connect(server) for _ in range(MAX_CONNECTIONS - 1)]
    try:
        for sock in held:
            sock.sendall(b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        time.sleep(0.3)
        started = time.monotonic()
        refused = httpx.get(server.url + "/health", timeout=10)
        assert refused.status_code == 503, refused.text
        assert time.monotonic() - started < 5
    finally:
        for sock in held:
            sock.close()
    deadline = time.monotonic() + 10
    while httpx.get(server.url + "/health", timeout=10).status_code != 200:
        assert time.monotonic() < deadline, "still refusing after the held connections closed"
        time.sleep(0.1)


# ------------------------------------------------------------------------------------ secrets
def _assert_token_redacted(log: str) -> None:
    assert TOKEN not in log, [line for line in log.splitlines() if TOKEN in line]
    assert "token=***" in log, log[-2000:]


def test_the_audit_token_never_reaches_the_log(server: LiveServer) -> None:
    offset = len(server.log())
    with httpx.Client(base_url=server.url, timeout=10) as http:
        for params in ({"token": TOKEN}, {"token": TOKEN + "-wrong", "episode": "x"},
                       {"view": "runs", "token": TOKEN}):
            assert http.get("/ui", params=params).status_code < 500
    with ws_connect(f"ws://127.0.0.1:{server.port}/ws?token={TOKEN}", open_timeout=10):
        pass
    logged = _wait_for(server, offset, '"WebSocket /ws?token=***"')
    _assert_token_redacted(logged)
    assert logged.count("GET /ui?") >= 3, logged  # the requests were logged, token and all else


# ``uvicorn server.app:app`` (plain uvicorn's own logging) is covered with every other capability
# in tests/api/test_log_secrets.py.


@pytest.mark.parametrize(("logged", "expected"), [
    ("/ui?token=abc", "/ui?token=***"),
    ("/ui?episode=e1&token=abc&view=x", "/ui?episode=e1&token=***&view=x"),
    ('127.0.0.1:5 - "GET /ui?TOKEN=abc HTTP/1.1" 303', '127.0.0.1:5 - "GET /ui?TOKEN=*** HTTP/1.1" 303'),
    ("/x?audit_token=a&run_secret=b&api_key=c&password=d",
     "/x?audit_token=***&run_secret=***&api_key=***&password=***"),
    ("/runs?cursor=10&limit=5", "/runs?cursor=10&limit=5"),
    ("/ui?tokens_used=1", "/ui?tokens_used=***"),  # on the safe side: the name holds "token"
    ('"WebSocket /ws?session_id=abc" [accepted]', '"WebSocket /ws?session_id=***" [accepted]'),
    ("/ws?session%5Fid=abc&x=1", "/ws?session%5Fid=***&x=1"),  # the name as the server reads it
    ("/state?episode_id=ep_1&key=k", "/state?episode_id=***&key=***"),
    # anything named or shaped as a secret, wherever the line holds it
    ("upstream said: Authorization: Bearer abc.def", "upstream said: Authorization: Bearer ***"),
    ("retrying with sk-proj0123456789abcdef", "retrying with ***"),
])
def test_redact_replaces_secret_query_values_only(logged: str, expected: str) -> None:
    assert redact(logged) == expected
