"""The servers the bench measures, each a real uvicorn process on 127.0.0.1.

* :func:`ticketledger`: ``python -m server.app``, started as users start it, on a given database;
* :func:`yardstick`: ``python -m bench.seed_server``, the in-memory stand-in for the SupportOps
  seed's server (``bench/seed_server.py``).

Both listen on a free port of 127.0.0.1 only, log to a file (shown if the server dies before it
answers ``/health``, deleted when it stops) and are stopped by :meth:`Server.stop` (or on leaving
the ``with`` block).
The databases under them: :func:`sqlite_file` and :func:`postgres_database`, each with its dropper.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import httpx

from bench.common import log

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 30.0
STOP_TIMEOUT_S = 10.0


@dataclass
class Server:
    """A running server process and where it answers."""

    url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        """Stop the process and delete its log."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=STOP_TIMEOUT_S)
        shutil.rmtree(self.log_path.parent, ignore_errors=True)

    def __enter__(self) -> Server:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_healthy(server: Server, timeout: float = START_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=server.url, timeout=2.0) as client:
        while time.monotonic() < deadline:
            if server.process.poll() is not None:
                raise RuntimeError(f"the server exited with {server.process.returncode}:\n{server.log()}")
            try:
                if client.get("/health").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.05)
    raise RuntimeError(f"the server at {server.url} was not healthy after {timeout} s:\n{server.log()}")


def launch(module: str, args: Sequence[str] = (), env: Mapping[str, str] | None = None,
           root: Path = ROOT) -> Server:
    """``python -m <module> --host 127.0.0.1 --port <free> --log-level warning <args>`` in ``root``
    (whose packages then come first on the path), once ``/health`` answers."""
    port = free_port()
    log_path = Path(tempfile.mkdtemp(prefix="tl_bench_")) / f"{module}-{port}.log"
    command = [sys.executable, "-m", module, "--host", "127.0.0.1", "--port", str(port),
               "--log-level", "warning", *args]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=root, env={**os.environ, **(env or {})},
                                   stdout=log, stderr=subprocess.STDOUT)
    server = Server(f"http://127.0.0.1:{port}", process, log_path)
    try:
        _wait_healthy(server)
    except BaseException:
        server.stop()
        raise
    return server


def ticketledger(database_url: str, workers: int = 1, env: Mapping[str, str] | None = None,
                 root: Path = ROOT) -> Server:
    """TicketLedger's server (``python -m server.app``) with its event log at ``database_url``;
    ``root``: the checkout whose code runs (another one measures other code side by side)."""
    if not (root / "server" / "app.py").is_file():
        raise SystemExit(f"{root} is not a TicketLedger checkout (no server/app.py)")
    return launch("server.app", ["--workers", str(workers)] if workers > 1 else [],
                  {**(env or {}), "DATABASE_URL": database_url}, root)


def yardstick() -> Server:
    """The SupportOps seed's stand-in (``bench/seed_server.py``), on the same uvicorn settings."""
    return launch("bench.seed_server")


Drop = Callable[[], None]


def sqlite_file(workdir: Path, stem: str) -> tuple[str, Drop]:
    """A fresh SQLite file's URL in ``workdir`` (durable: on that disk), and what deletes it."""
    path = workdir / f"{stem}-{secrets.token_hex(4)}.db"

    def drop() -> None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)

    return f"sqlite:///{path}", drop


PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def postgres_database() -> tuple[str, Drop] | None:
    """A fresh database on the local PostgreSQL server (``TICKETLEDGER_PG_URL``, default user
    postgres at 127.0.0.1:5432) and what drops it; None (with a log line) when it is unreachable."""
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(os.environ.get("TICKETLEDGER_PG_URL", PG_URL))
    if url.host not in (None, "127.0.0.1", "localhost"):
        raise SystemExit("the bench talks to PostgreSQL on 127.0.0.1 only")
    name = "tl_bench_" + secrets.token_hex(6)

    def admin() -> psycopg.Connection[tuple[object, ...]]:
        return psycopg.connect(host=url.host or "127.0.0.1", port=url.port or 5432,
                               user=url.username or "postgres", password=url.password,
                               dbname=url.database or "postgres", autocommit=True, connect_timeout=5)

    try:
        with admin() as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
    except Exception as exc:
        log(f"PostgreSQL unreachable ({exc}); skipping the PostgreSQL configuration")
        return None

    def drop() -> None:
        with admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    return url.set(database=name).render_as_string(hide_password=False), drop
