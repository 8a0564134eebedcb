"""The HTTP and ``/ws`` figures with TicketLedger's log on PostgreSQL, one and four server workers.

For each configuration, a throwaway database on the local server (``TICKETLEDGER_PG_URL``, default
user postgres at 127.0.0.1:5432), dropped afterwards: the sequential HTTP comparison with the
yardstick (``bench.http``), then the concurrent ``/ws`` sessions back to back (``bench.ws``; the
thinking phase is the SQLite section's). Skipped with a note if PostgreSQL is unreachable.
"""

from __future__ import annotations

from pathlib import Path

from bench import http, servers, ws
from bench.common import Figure, log


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    del workdir  # the databases are PostgreSQL's
    figures: list[Figure] = []
    for workers in (1, 4):
        found = servers.postgres_database()
        if found is None:
            return figures
        url, drop = found
        key, name = f"postgres{workers}", f"PostgreSQL, {workers} worker{'s' if workers > 1 else ''}"
        try:
            figures += http.measure(url, key, name, quick=quick, workers=workers)
            log(f"ws: TicketLedger on {name}")
            with servers.ticketledger(url, workers) as server:
                figures += ws.measure({"ticketledger": server.url}, key, name, quick=quick,
                                      think=False)
        finally:
            drop()
    return figures
