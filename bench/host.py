"""The machine itself, measured with the reference's SQLite loops, so figures travel.

The issue's bars were set "on this kind of machine", and the reference notes (``event-store.md``)
measured SQLite on it: ~30,000 one-event WAL transactions/s (``synchronous=NORMAL``), ~43,000
events/s in transactions of 100, and ~210,000 events/s read in (stream, seq) order, decoded with
``json.loads`` and folded. This section runs those three loops here, with the standard library
only (no project code), on the bench's work directory.

``host: speed against the reference machine`` is, run by run, the mean of measured / reference over
the one-event loop and the read loop. The batched loop is shown but left out: here it runs 2-3x
the reference's figure while the other two run below theirs, so the reference's batched loop did
more per event than this one (its code is not published).

Machines of the same kind differ: sessions here ran the same code up to 3.5x apart, not always with
CPU steal to show for it. A bar's figure means little without this one: 0.5 says this machine runs
the reference's loops at half the reference's speed.
"""

from __future__ import annotations

import json
import sqlite3
import statistics
import time
from pathlib import Path

from bench.common import Figure, log

REFERENCE = {"append_one": 30_000.0, "append_batch": 43_000.0, "read_fold": 210_000.0}
"""events/s of each loop on the reference machine (``event-store.md``)."""
SPEED_FROM = ("append_one", "read_fold")
"""The loops the speed figure is built from (see the module docstring for the batched one)."""
BATCH = 100
STREAM_EVENTS = 10  # the reference read 100k events of 10k streams
PAYLOAD = json.dumps({"action_type": "draft_reply", "step": 3, "text": "x" * 247})
"""About 300 bytes of JSON, the reference's event size."""


def _connect(path: Path, *, indexed: bool) -> sqlite3.Connection:
    """A fresh database with one plain table; ``indexed`` adds the (stream, seq) index a read in
    that order needs (the reference's loops are not published: these are the plainest forms)."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("CREATE TABLE events (position INTEGER PRIMARY KEY, stream TEXT NOT NULL, "
                 "seq INTEGER NOT NULL, data TEXT NOT NULL)")
    if indexed:
        conn.execute("CREATE UNIQUE INDEX events_stream_seq ON events (stream, seq)")
    return conn


def _drop(conn: sqlite3.Connection, path: Path) -> None:
    conn.close()
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def append_rate(path: Path, seconds: float, batch: int = 1) -> float:
    """Events/s appended for ``seconds``, ``batch`` events per transaction (one stream per
    transaction, as one episode's step)."""
    conn = _connect(path, indexed=False)
    try:
        sql = "INSERT INTO events (stream, seq, data) VALUES (?, ?, ?)"
        written = txs = 0
        started = time.perf_counter()
        deadline = started + seconds
        while time.perf_counter() < deadline:
            stream = f"s{txs % 1000}"
            seq = txs // 1000 * batch
            conn.execute("BEGIN")
            conn.executemany(sql, [(stream, seq + k, PAYLOAD) for k in range(batch)])
            conn.execute("COMMIT")
            written += batch
            txs += 1
        rate = written / (time.perf_counter() - started)
        (count,) = conn.execute("SELECT count(*) FROM events").fetchone()
        if count != written:
            raise AssertionError(f"wrote {written} events but the table holds {count}")
        return rate
    finally:
        _drop(conn, path)


def read_fold_rate(path: Path, events: int) -> float:
    """Events/s read back in (stream, seq) order, decoded and folded (a count and the last
    step per stream), over ``events`` events of ``events / 10`` streams."""
    conn = _connect(path, indexed=True)
    try:
        rows = [(f"s{n // STREAM_EVENTS:07d}", n % STREAM_EVENTS, PAYLOAD) for n in range(events)]
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO events (stream, seq, data) VALUES (?, ?, ?)", rows)
        conn.execute("COMMIT")
        started = time.perf_counter()
        state: dict[str, tuple[int, int]] = {}
        for stream, _seq, data in conn.execute(
                "SELECT stream, seq, data FROM events ORDER BY stream, seq"):
            count, _last = state.get(stream, (0, 0))
            state[stream] = (count + 1, json.loads(data)["step"])
        rate = events / (time.perf_counter() - started)
        folded = sum(count for count, _ in state.values())
        if folded != events or len(state) != -(-events // STREAM_EVENTS):
            raise AssertionError(f"folded {folded} events of {len(state)} streams, wrote {events}")
        return rate
    finally:
        _drop(conn, path)


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    runs, seconds, events = (1, 0.3, 10_000) if quick else (3, 1.5, 100_000)
    path = workdir / "host.db"
    measured: dict[str, list[float]] = {name: [] for name in REFERENCE}
    speed: list[float] = []
    for n in range(runs):
        measured["append_one"].append(append_rate(path, seconds))
        measured["append_batch"].append(append_rate(path, seconds, BATCH))
        measured["read_fold"].append(read_fold_rate(path, events))
        speed.append(statistics.mean(measured[k][-1] / REFERENCE[k] for k in SPEED_FROM))
        log(f"host run {n + 1}: sqlite3 one event per transaction {measured['append_one'][-1]:,.0f}, "
            f"{BATCH} per transaction {measured['append_batch'][-1]:,.0f}, read + json.loads + fold "
            f"{measured['read_fold'][-1]:,.0f} events/s: {speed[-1]:.2f}x the reference machine")
    labels = {
        "append_one": "raw sqlite3, one event per transaction, WAL + synchronous=NORMAL",
        "append_batch": f"raw sqlite3, {BATCH} events per transaction, WAL + synchronous=NORMAL",
        "read_fold": f"raw sqlite3, read {events:,} events of {events // STREAM_EVENTS:,} streams "
                     "in (stream, seq) order, json.loads and fold",
    }
    figures = [Figure(f"host.sqlite.{key}", f"host: {labels[key]}", "events/s", measured[key],
                      detail=f"reference machine: ~{REFERENCE[key]:,.0f}") for key in REFERENCE]
    figures.append(Figure("host.speed", "host: speed against the reference machine (mean of "
                          "measured / reference, one-event and read loops)", "x", speed,
                          detail="1.00 = the machine the bars were set on"))
    return figures
