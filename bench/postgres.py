"""The HTTP and ``/ws`` figures on PostgreSQL, with one and with four server workers.

A throwaway database on the local server (``TICKETLEDGER_PG_URL``, default user postgres at
127.0.0.1:5432), dropped afterwards; the section is skipped with a note if it is unreachable.
"""

from __future__ import annotations

from pathlib import Path

from bench.common import Figure
from bench.http import run_postgres


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    return run_postgres(workdir, quick=quick)
