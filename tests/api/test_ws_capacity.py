"""A refused ``/ws`` client reads why before the close.

Past ``TICKETLEDGER_MAX_SESSIONS`` the server sends ``CAPACITY_REACHED`` and closes with 1013. A
client does what every client does: connect, send its reset, read the answer. When the server
closed at once, the close often arrived before the client's send, which then failed with the
close (1013) and the client never read the message waiting for it (43 of 44 refused clients of
the bench). Now the server waits for the client's first message (or a short grace) before it
closes. Many real clients at once against a real server: every one of them sends, reads
``CAPACITY_REACHED``, then the 1013 close.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from tests.databases import sqlite_pass_only
from tests.servers import LiveServer, module_database, start_server

pytestmark = sqlite_pass_only("the session cap is counted before any database work")

CAP = 2
REFUSED = 20


@pytest.fixture(scope="module")
def capped_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(module_database(tmp_path_factory, "capacity"),
                      env={"TICKETLEDGER_MAX_SESSIONS": str(CAP)}) as server:
        yield server


def _refused(url: str) -> tuple[str | None, int | None]:
    """Connect, send a reset at once, read until the close: the code of the first message read
    (None: none arrived) and the close code received."""
    first: str | None = None
    with ws_connect(url, open_timeout=30) as ws:
        ws.send(json.dumps({"type": "reset", "data": {}}))  # raised ConnectionClosed before
        try:
            while True:
                message = json.loads(ws.recv(timeout=30))
                if first is None:
                    first = message["data"].get("code", message["type"])
        except ConnectionClosed as closed:
            return first, closed.rcvd.code if closed.rcvd is not None else None


def test_every_refused_client_reads_capacity_reached_before_the_1013_close(
        capped_server: LiveServer) -> None:
    url = capped_server.url.replace("http", "ws", 1) + "/ws"
    with ws_connect(url) as a, ws_connect(url) as b:
        for ws in (a, b):
            ws.send(json.dumps({"type": "reset", "data": {}}))
            assert json.loads(ws.recv(timeout=30))["type"] == "observation"
        for _ in range(3):  # rounds: the race showed up in some of them before the fix
            with ThreadPoolExecutor(max_workers=REFUSED) as pool:
                outcomes = list(pool.map(_refused, [url] * REFUSED))
            assert outcomes == [("CAPACITY_REACHED", 1013)] * REFUSED, outcomes
        for ws in (a, b):  # the held sessions were never disturbed
            ws.send(json.dumps({"type": "state"}))
            assert json.loads(ws.recv(timeout=30))["type"] == "state"
