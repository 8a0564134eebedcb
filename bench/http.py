"""HTTP and ``/ws`` figures against a real server (``python -m server.app``) on 127.0.0.1.

For each configuration (durable SQLite file with one worker; PostgreSQL with one and with four
workers) and each transport: steps/s and p50/p99 step latency with one sequential keep-alive
client, then 16 and 64 concurrent clients. Every client plays whole scripted episodes (reset,
then steps); steps/s counts steps over the wall time including the resets, latency is per step.
Client and server share the machine's cores, as they would on a single training box.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from bench.clients import load
from bench.common import Figure, log, percentile, summary
from bench.workload import plans

T = TypeVar("T")
CLIENT_COUNTS = (1, 16, 64)
TRANSPORTS = ("http", "ws")
TARGETS = {("sqlite", "http", 1): 1_200.0, ("sqlite", "ws", 1): 3_000.0}
"""Issue 6's bars: stateful HTTP, one worker, durable SQLite, sequential; and ``/ws`` sequential."""


def _steps(clients: int, quick: bool) -> int:
    if quick:
        return 60 if clients == 1 else 4 * clients
    return {1: 2_000, 16: 4_000, 64: 6_400}[clients]


def measure_server(base: str, name: str, *, quick: bool, transports: tuple[str, ...] = TRANSPORTS,
                   runs: int | None = None) -> list[Figure]:
    """Every (transport, client count) against the server at ``base``; runs interleaved."""
    work = plans()
    runs = runs or (1 if quick else 3)
    results: dict[tuple[str, int], list] = {}
    asyncio.run(load(base, "http", 1, 20, work))  # warm the server (imports, caches, page cache)
    for n in range(runs):
        for transport in transports:
            for clients in CLIENT_COUNTS:
                run = asyncio.run(load(base, transport, clients, _steps(clients, quick), work))
                results.setdefault((transport, clients), []).append(run)
                log(f"  {name} run {n + 1}: {transport} x{clients}: {run.rate:,.0f} steps/s, "
                    f"p50 {percentile(run.latencies, 50) * 1000:.2f} ms, "
                    f"p99 {percentile(run.latencies, 99) * 1000:.2f} ms")
    figures = []
    for (transport, clients), found in results.items():
        what = "sequential client" if clients == 1 else f"{clients} concurrent clients"
        key = f"http.{name}.{transport}.c{clients}"
        label = f"{'HTTP' if transport == 'http' else '/ws'}, {name}, {what}"
        base_key = name.split("-")[0]
        p50 = Figure(f"{key}.p50", f"{label}, p50 step latency", "ms",
                     [percentile(r.latencies, 50) * 1000 for r in found], higher=False, show=False)
        p99 = Figure(f"{key}.p99", f"{label}, p99 step latency", "ms",
                     [percentile(r.latencies, 99) * 1000 for r in found], higher=False, show=False)
        figures.append(Figure(f"{key}.rate", label, "steps/s", [r.rate for r in found],
                              target=TARGETS.get((base_key, transport, clients)) if
                              name == "sqlite-1-worker" else None,
                              detail=f"p50 {summary(p50)}, p99 {summary(p99)}"))
        figures += [p50, p99]
    return figures


def with_server(database_url: str, workers: int, fn: Callable[[str], T]) -> T:
    """Run ``fn(base_url)`` against a fresh ``python -m server.app`` on ``database_url``."""
    from tests.servers import launch

    server = launch(database_url, args=["--workers", str(workers)] if workers > 1 else [])
    try:
        return fn(server.url)
    finally:
        server.stop()


def sqlite_path(workdir: Path, stem: str) -> tuple[str, Callable[[], None]]:
    path = workdir / f"{stem}-{secrets.token_hex(4)}.db"

    def drop() -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)

    return f"sqlite:///{path}", drop


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    log("http: SQLite file, 1 worker")
    url, drop = sqlite_path(workdir, "http")
    try:
        return with_server(url, 1, lambda base: measure_server(base, "sqlite-1-worker", quick=quick))
    finally:
        drop()


def run_postgres(workdir: Path, quick: bool = False) -> list[Figure]:
    """The same figures on PostgreSQL with 1 and 4 server workers (skipped if unreachable)."""
    from bench.load import _pg_database

    figures: list[Figure] = []
    for workers in (1, 4):
        found = _pg_database()
        if found is None:
            return figures
        url, drop = found
        name = f"postgres-{workers}-worker{'s' if workers > 1 else ''}"
        log(f"http: PostgreSQL, {workers} worker(s)")
        try:
            figures += with_server(url, workers, lambda base, n=name: measure_server(
                base, n, quick=quick))
        finally:
            drop()
    return figures
