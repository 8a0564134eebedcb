"""Lean load clients: HTTP/1.1 keep-alive over asyncio streams, and OpenEnv's ``/ws`` protocol.

Client and server share the machine's cores, so every microsecond the client spends is taken
from the server: a general-purpose client (httpx) costs several times what the server does per
request. This one writes a fixed request and reads ``Content-Length`` bytes back, nothing else.
Every request has a timeout; only 127.0.0.1 is ever contacted.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from bench.workload import Plan

REQUEST_TIMEOUT_S = 30.0


class HttpConnection:
    """One keep-alive HTTP/1.1 connection to ``base`` (``http://127.0.0.1:PORT``)."""

    def __init__(self, base: str):
        parts = urlsplit(base)
        if parts.hostname not in ("127.0.0.1", "localhost"):
            raise ValueError("the bench only talks to 127.0.0.1")
        self.host, self.port = parts.hostname, parts.port or 80
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def open(self) -> HttpConnection:
        self._reader, self._writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port), REQUEST_TIMEOUT_S)
        return self

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(OSError):
                await self._writer.wait_closed()

    async def request(self, method: str, path: str, body: bytes | None = None) -> tuple[int, bytes]:
        return await asyncio.wait_for(self._request(method, path, body), REQUEST_TIMEOUT_S)

    async def _request(self, method: str, path: str, body: bytes | None) -> tuple[int, bytes]:
        assert self._reader is not None and self._writer is not None, "call open() first"
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        self._writer.write(head.encode() + b"\r\n" + (body or b""))
        raw = await self._reader.readuntil(b"\r\n\r\n")
        lines = raw.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "transfer-encoding":
                raise RuntimeError("chunked responses are not expected on these routes")
        payload = await self._reader.readexactly(length) if length else b""
        return status, payload

    async def post_json(self, path: str, data: Any) -> dict[str, Any]:
        status, payload = await self.request("POST", path, json.dumps(data).encode())
        if status != 200:
            raise RuntimeError(f"POST {path} answered {status}: {payload[:300]!r}")
        return json.loads(payload)


@dataclass
class Tally:
    """What one client saw: step latencies (seconds) and episodes finished."""

    latencies: list[float] = field(default_factory=list)
    episodes: int = 0


async def http_client(base: str, work: Sequence[Plan], steps: int, tally: Tally) -> None:
    """Play whole episodes over stateful HTTP until ``steps`` steps are done (the episode in
    progress is finished first, so the log holds whole episodes)."""
    conn = await HttpConnection(base).open()
    try:
        n = 0
        while len(tally.latencies) < steps:
            plan = work[n % len(work)]
            n += 1
            reset = await conn.post_json("/reset", {"task_id": plan.task_id, "seed": plan.seed})
            episode_id = reset["episode_id"]
            for action in plan.actions:
                started = time.perf_counter()
                reply = await conn.post_json("/step", {"action": action, "episode_id": episode_id})
                tally.latencies.append(time.perf_counter() - started)
            if not reply["done"]:
                raise RuntimeError(f"{plan.task_id}: episode did not end")
            tally.episodes += 1
    finally:
        await conn.close()


class WsConnection:
    """One WebSocket connection (RFC 6455) to ``base`` + ``/ws``: text frames only, no extensions.

    As lean as :class:`HttpConnection`: a handshake, masked text frames out, unmasked frames in
    (pings answered, fragmented messages joined). The ``websockets`` client costs the bench
    ~90 us of CPU per step on a 2-core machine, nearly a third of what the server spends.
    """

    GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    def __init__(self, base: str):
        self._http = HttpConnection(base)

    async def open(self) -> WsConnection:
        await asyncio.wait_for(self._handshake(), REQUEST_TIMEOUT_S)
        return self

    async def _handshake(self) -> None:
        http = await self._http.open()
        assert http._reader is not None and http._writer is not None
        self._reader, self._writer = http._reader, http._writer
        key = base64.b64encode(os.urandom(16))
        self._writer.write(b"GET /ws HTTP/1.1\r\nHost: " + http.host.encode()
                           + b"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           b"Sec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
        head = (await self._reader.readuntil(b"\r\n\r\n")).decode("latin-1")
        accept = base64.b64encode(hashlib.sha1(key + self.GUID).digest()).decode()
        if not head.startswith("HTTP/1.1 101") or accept not in head:
            raise RuntimeError(f"WebSocket handshake refused: {head[:300]!r}")

    def _frame(self, opcode: int, payload: bytes) -> bytes:
        n = len(payload)
        if n < 126:
            head = bytes((0x80 | opcode, 0x80 | n))
        elif n < 1 << 16:
            head = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
        else:
            head = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
        mask = os.urandom(4)
        stream = (mask * (n // 4 + 1))[:n]
        masked = (int.from_bytes(payload, "little") ^ int.from_bytes(stream, "little")).to_bytes(
            n, "little")
        return head + mask + masked

    async def send(self, text: str) -> None:
        self._writer.write(self._frame(0x1, text.encode()))

    async def recv(self) -> str:
        return await asyncio.wait_for(self._recv(), REQUEST_TIMEOUT_S)

    async def _recv(self) -> str:
        parts: list[bytes] = []
        while True:
            first, second = await self._reader.readexactly(2)
            opcode, n = first & 0x0F, second & 0x7F
            if n == 126:
                n = int.from_bytes(await self._reader.readexactly(2), "big")
            elif n == 127:
                n = int.from_bytes(await self._reader.readexactly(8), "big")
            if second & 0x80:  # servers do not mask, but unmask if one did
                mask = await self._reader.readexactly(4)
                data = await self._reader.readexactly(n)
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            else:
                data = await self._reader.readexactly(n) if n else b""
            if opcode == 0x9:  # ping
                self._writer.write(self._frame(0xA, data))
            elif opcode == 0x8:
                raise RuntimeError(f"the server closed the session: {data[2:]!r}")
            elif opcode in (0x0, 0x1, 0x2):
                parts.append(data)
                if first & 0x80:
                    return b"".join(parts).decode()

    async def close(self) -> None:
        with contextlib.suppress(OSError):
            self._writer.write(self._frame(0x8, (1000).to_bytes(2, "big")))
        await self._http.close()


async def ws_client(base: str, work: Sequence[Plan], steps: int, tally: Tally) -> None:
    """The same over one ``/ws`` session (OpenEnv's reset/step messages)."""
    ws = await WsConnection(base).open()

    async def ask(message: dict[str, Any]) -> dict[str, Any]:
        await ws.send(json.dumps(message))
        reply = json.loads(await ws.recv())
        if reply.get("type") != "observation":
            raise RuntimeError(f"{message['type']} answered {str(reply)[:300]}")
        return reply["data"]

    try:
        n = 0
        while len(tally.latencies) < steps:
            plan = work[n % len(work)]
            n += 1
            await ask({"type": "reset", "data": {"task_id": plan.task_id, "seed": plan.seed}})
            for action in plan.actions:
                started = time.perf_counter()
                data = await ask({"type": "step", "data": action})
                tally.latencies.append(time.perf_counter() - started)
            if not data["done"]:
                raise RuntimeError(f"{plan.task_id}: episode did not end")
            tally.episodes += 1
        await ws.send(json.dumps({"type": "close"}))
    finally:
        await ws.close()


CLIENTS = {"http": http_client, "ws": ws_client}


@dataclass
class LoadRun:
    steps: int
    seconds: float
    latencies: list[float]

    @property
    def rate(self) -> float:
        return self.steps / self.seconds


async def load(base: str, transport: str, clients: int, steps: int, work: Sequence[Plan]) -> LoadRun:
    """``clients`` concurrent clients over ``transport`` sharing ``steps`` steps between them.

    Clients start at different plans so they do not all reset the same task at once.
    """
    per_client = max(1, steps // clients)
    tallies = [Tally() for _ in range(clients)]
    runner = CLIENTS[transport]
    started = time.perf_counter()
    await asyncio.gather(*(runner(base, list(work[i % len(work):]) + list(work[:i % len(work)]),
                                  per_client, tallies[i]) for i in range(clients)))
    seconds = time.perf_counter() - started
    latencies = sorted(x for t in tallies for x in t.latencies)
    return LoadRun(len(latencies), seconds, latencies)
