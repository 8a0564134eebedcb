"""No capability or secret in any log line of a real server: ``/ws?session_id=``, the audit token,
run secrets, episode keys and episode ids in a query string are written as ``***`` by uvicorn's
access log and by its WebSocket handshake lines (``api.logs``), under ``python -m server.app``
(the configuration ``ticketledger serve`` hands uvicorn) and under plain ``uvicorn server.app:app``
(uvicorn's own configuration, with the filter the app adds)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
import websockets

from tests.databases import sqlite_pass_only
from tests.servers import ROOT, free_port, module_database, start_server, wait_healthy

TOKEN = "log-audit-token-7f3a9c1e5b"
RUN_SECRET = "log-run-secret-2d8e4b6a0c"
EPISODE_KEY = "log-episode-key-9b1d3f5e7a"


def _create_session(base: str) -> str:
    reply = httpx.post(base + "/mcp", json={"jsonrpc": "2.0", "id": 1,
                                            "method": "openenv/session/create"}, timeout=30)
    assert reply.status_code == 200, reply.text
    session_id: str = reply.json()["result"]["session_id"]
    return session_id


def _play_over_ws(ws_url: str) -> str:
    """Open ``ws_url``, reset, read the observation; the episode id it answered."""
    async def scenario() -> str:
        async with websockets.connect(ws_url, open_timeout=10) as ws:
            await ws.send(json.dumps({"type": "reset", "data": {"task_id": "task_easy_password"}}))
            answer = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
            assert answer["type"] == "observation", answer
            episode_id: str = answer["data"]["episode_id"]
            return episode_id

    return asyncio.run(scenario())


def _requests_carrying_secrets(base: str, ws_base: str) -> list[str]:
    """Every way a secret can reach a query string; the secrets sent."""
    session_id = _create_session(base)
    episode_id = _play_over_ws(f"{ws_base}/ws?session_id={session_id}")
    spelled = _create_session(base)  # the server reads session%5Fid as session_id too
    _play_over_ws(f"{ws_base}/ws?session%5Fid={spelled}")
    with httpx.Client(base_url=base, timeout=30) as http:
        assert http.get("/state", params={"episode_id": episode_id}).status_code == 200
        assert http.get("/ui", params={"token": TOKEN}).status_code < 500
        assert http.post("/reset", params={"run_secret": RUN_SECRET}, json={}).status_code == 200
        assert http.get("/health", params={"X-Episode-Key": EPISODE_KEY}).status_code == 200
    return [session_id, spelled, episode_id, TOKEN, RUN_SECRET, EPISODE_KEY]


def _settled_log(read: Callable[[], str], needle: str, count: int) -> str:
    deadline = time.monotonic() + 15
    while read().count(needle) < count and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    return read()


def _assert_redacted(log: str, secrets: list[str]) -> None:
    for secret in secrets:
        assert secret not in log, [line for line in log.splitlines() if secret in line]
    assert log.count('"WebSocket /ws?session_id=***"') == 1, log[-3000:]
    assert log.count('"WebSocket /ws?session%5Fid=***"') == 1, log[-3000:]
    for redacted in ("GET /state?episode_id=***", "GET /ui?token=***",
                     "POST /reset?run_secret=***", "GET /health?X-Episode-Key=***"):
        assert redacted in log, (redacted, log[-3000:])


@sqlite_pass_only("the log is what is checked, not the database")
def test_the_servers_own_log_configuration_redacts_every_capability(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    with start_server(module_database(tmp_path_factory, "log_secrets"),
                      env={"TICKETLEDGER_AUDIT_TOKEN": TOKEN},
                      args=["--log-level", "info", "--access-log"]) as server:
        ws_base = f"ws://127.0.0.1:{server.port}"
        secrets = _requests_carrying_secrets(server.url, ws_base)
        log = _settled_log(server.log, "X-Episode-Key=", 1)
    _assert_redacted(log, secrets)


@sqlite_pass_only("the log is what is checked, not the database")
def test_plain_uvicorn_redacts_every_capability_in_its_own_log(tmp_path: Path) -> None:
    """``uvicorn server.app:app`` configures logging itself (access log on, INFO)."""
    port = free_port()
    log_path = tmp_path / "uvicorn.log"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'plain.db'}",
           "TICKETLEDGER_AUDIT_TOKEN": TOKEN}
    with log_path.open("wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "uvicorn", "server.app:app", "--host",
                                    "127.0.0.1", "--port", str(port)], cwd=ROOT, env=env,
                                   stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log_path)
        secrets = _requests_carrying_secrets(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}")
        text = _settled_log(log_path.read_text, "X-Episode-Key=", 1)
    finally:
        process.terminate()
        process.wait(timeout=10)
    _assert_redacted(text, secrets)
