"""Engines for SQLite and PostgreSQL, set up the way an event store needs them.

SQLite: WAL, ``synchronous=NORMAL`` (a committed step survives a process crash), a busy timeout,
and ``BEGIN IMMEDIATE`` for writes so a read-check-append never fails half-way with SQLITE_BUSY
(see SQLAlchemy's "Transactions with SQLite and the sqlite3 driver"). PostgreSQL needs nothing
special: the unique (episode, seq) key is the concurrency guard.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool

from store import migrate

DEFAULT_SQLITE_PATH = Path("data") / "ticketledger.db"


def default_database_url() -> str:
    """``DATABASE_URL`` if set, else an SQLite file ``data/ticketledger.db`` under the cwd."""
    return os.environ.get("DATABASE_URL") or f"sqlite:///{DEFAULT_SQLITE_PATH.as_posix()}"


def _sqlite_pragmas(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
    dbapi_conn.isolation_level = None  # let SQLAlchemy's begin event emit BEGIN itself
    cur = dbapi_conn.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=15000",
                   "foreign_keys=ON"):
        cur.execute(f"PRAGMA {pragma}")
    cur.close()


def _sqlite_begin(conn: Connection) -> None:
    mode = "IMMEDIATE" if conn.get_execution_options().get("write") else "DEFERRED"
    conn.exec_driver_sql(f"BEGIN {mode}")


class Database:
    """An engine plus what the store needs to know about it."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.dialect = engine.dialect.name
        self.in_memory = self.dialect == "sqlite" and engine.url.database in (None, "", ":memory:")
        # A single shared in-memory connection must not be used by two threads at once.
        self._memory_lock = threading.RLock() if self.in_memory else None

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction (``BEGIN IMMEDIATE`` on SQLite), committed on success."""
        with self._locked(), self.engine.connect() as conn:
            conn = conn.execution_options(write=True)
            with conn.begin():
                yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        with self._locked(), self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def _locked(self) -> Iterator[None]:
        if self._memory_lock is None:
            yield
        else:
            with self._memory_lock:
                yield

    def dispose(self) -> None:
        self.engine.dispose()


def make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database in (None, "", ":memory:"):
            engine = create_engine(url, poolclass=StaticPool,
                                   connect_args={"check_same_thread": False})
        else:
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 15},
                                   pool_size=8, max_overflow=32)
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_size=10, max_overflow=40, pool_pre_ping=True)


def open_database(url: str | None = None, *, migrate_schema: bool = True) -> Database:
    """Open (and by default migrate) the database at ``url`` (default: :func:`default_database_url`)."""
    db = Database(make_engine(url or default_database_url()))
    if migrate_schema:
        migrate.ensure_current(db.engine)
    return db
