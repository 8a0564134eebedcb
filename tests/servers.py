"""Real uvicorn servers on 127.0.0.1 for tests, started the way users start them.

Fixtures (registered for the whole suite through ``pytest_plugins`` in ``tests/conftest.py``):

* ``live_server`` (session scope): one ``python -m server.app`` process on a free port, its event
  log on the suite's backend (a fresh SQLite file, or a fresh PostgreSQL database when
  ``TICKETLEDGER_TEST_BACKEND=postgres``). Tests share it, so they create their own episodes and
  never assume an empty log. ``live_server.url``, ``.database_url``, ``.log()``.
* ``start_server(database_url, env=..., args=...)``: a context manager for a server with its own
  settings (capacity, idle timeout, workers); stopped on exit.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.databases import BACKEND, fresh_database

ROOT = Path(__file__).resolve().parent.parent
START_TIMEOUT_S = 30.0


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


@dataclass
class LiveServer:
    url: str
    port: int
    database_url: str
    process: subprocess.Popen[bytes]
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def wait_healthy(url: str, process: subprocess.Popen[bytes], log_path: Path,
                 timeout: float = START_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}:\n{log_path.read_text()}")
        try:
            with urllib.request.urlopen(url + "/health", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.05)
    raise RuntimeError(f"server at {url} not healthy after {timeout} s:\n{log_path.read_text()}")


def launch(database_url: str, *, env: dict[str, str] | None = None, args: Sequence[str] = (),
           log_dir: Path | None = None, host: str = "127.0.0.1") -> LiveServer:
    """Start ``python -m server.app`` on a free port and wait until ``/health`` answers. ``host``:
    another loopback address (``127.0.0.2``) serves as "not loopback only" for the audit surface,
    whose rule names 127.0.0.1, ::1 and localhost (its Host header must then be allowed)."""
    port = free_port(host)
    log_dir = log_dir or Path(tempfile.mkdtemp(prefix="tl_server_"))
    log_path = log_dir / f"server-{port}.log"
    full_env = {**os.environ, "DATABASE_URL": database_url, **(env or {})}
    command = [sys.executable, "-m", "server.app", "--host", host, "--port", str(port),
               "--log-level", "warning", *args]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=full_env, stdout=log,
                                   stderr=subprocess.STDOUT)
    server = LiveServer(f"http://{host}:{port}", port, database_url, process, log_path)
    try:
        wait_healthy(server.url, process, log_path)
    except BaseException:
        server.stop()
        raise
    return server


@contextmanager
def start_server(database_url: str, *, env: dict[str, str] | None = None,
                 args: Sequence[str] = (), log_dir: Path | None = None,
                 host: str = "127.0.0.1") -> Iterator[LiveServer]:
    server = launch(database_url, env=env, args=args, log_dir=log_dir, host=host)
    try:
        yield server
    finally:
        server.stop()


def module_database(tmp_path_factory: pytest.TempPathFactory, name: str) -> str:
    """A database on the run's backend for a test module's own server: a fresh SQLite file, or the
    session's PostgreSQL database (``DATABASE_URL``, set by ``tests/conftest.py``)."""
    if BACKEND == "postgres":
        return os.environ["DATABASE_URL"]
    return f"sqlite:///{tmp_path_factory.mktemp(name) / f'{name}.db'}"


@pytest.fixture(scope="session")
def live_server_database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A database for the shared server on the suite's backend (see ``tests/databases.py``)."""
    with fresh_database(tmp_path_factory.mktemp("live"), "tl_live") as url:
        yield url


@pytest.fixture(scope="session")
def live_server(live_server_database_url: str,
                tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The shared real server (``python -m server.app``) for the whole test session."""
    server = launch(live_server_database_url, log_dir=tmp_path_factory.mktemp("live_log"))
    try:
        yield server
    finally:
        server.stop()


# ------------------------------------------------------------------------- reading the log
_DATABASES: dict[str, object] = {}


def _database(database_url: str):  # type: ignore[no-untyped-def]
    from store import open_database

    if database_url not in _DATABASES:
        _DATABASES[database_url] = open_database(database_url)
    return _DATABASES[database_url]


def episode_events(database_url: str, episode_id: str) -> list:  # type: ignore[type-arg]
    """The recorded events of one episode, read straight from the server's database: by its
    stored id, or by the id a client chose (stored under a scoped id, ``api.episode_routing``,
    whose opening event names the id chosen; the tests choose ids no other test does)."""
    from store.eventstore import EventStore

    store = EventStore(_database(database_url))  # type: ignore[arg-type]
    found = store.load(episode_id)
    if not found:
        stored = stored_ids(database_url, episode_id)
        assert len(stored) <= 1, f"{episode_id!r} was chosen by {len(stored)} clients"
        found = store.load(stored[0]) if stored else []
    return found


def stored_ids(database_url: str, chosen: str) -> list[str]:
    """The stored ids of the episodes whose opening event names ``chosen``."""
    import json

    from sqlalchemy import select

    from store.schema import events

    with _database(database_url).read() as conn:  # type: ignore[attr-defined]
        rows = conn.execute(select(events.c.episode_id, events.c.data).where(
            events.c.seq == 1, events.c.data.contains(json.dumps(chosen)))).all()
    return [r.episode_id for r in rows if json.loads(r.data).get("episode_id") == chosen]


def log_size(database_url: str) -> int:
    """How many events the whole log holds (to prove a failed request appended nothing)."""
    from sqlalchemy import func, select

    from store.schema import events

    with _database(database_url).read() as conn:  # type: ignore[attr-defined]
        return int(conn.execute(select(func.count()).select_from(events)).scalar_one())
