"""Engines for SQLite and PostgreSQL, set up the way an event store needs them.

This is the one place where the two backends differ; everything above it is SQLAlchemy Core on
:meth:`Database.read` and :meth:`Database.write` connections from SQLAlchemy's own pool.

SQLite: WAL, ``synchronous=NORMAL`` (a committed step survives a process crash), a busy timeout,
and ``BEGIN IMMEDIATE`` for writes, so a read-check-append takes the write lock up front and never
fails half-way with SQLITE_BUSY (SQLAlchemy's documented recipe: the driver's own transaction
handling is turned off on connect and the ``begin`` event emits BEGIN). An in-memory database
lives in one connection, so its users take turns. PostgreSQL needs nothing special: the unique
(episode, seq) key and the conditional update of the index row are the concurrency guards.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool

from store import migrate

DEFAULT_SQLITE_PATH = Path("data") / "ticketledger.db"


def default_database_url() -> str:
    """``DATABASE_URL`` if set, else an SQLite file ``data/ticketledger.db`` under the cwd."""
    return os.environ.get("DATABASE_URL") or f"sqlite:///{DEFAULT_SQLITE_PATH.as_posix()}"


POOL_SIZE = 20
"""Connections per process, at most (kept open while idle); a thread that finds none free waits
for one. Four PostgreSQL workers then hold at most 80, under PostgreSQL's default
``max_connections`` of 100."""

WAL_CHECKPOINT_PAGES = 10_000
"""Pages the WAL may hold before a commit checkpoints it into the database file (SQLite's default
is 1,000). A checkpoint is the only fsync under ``synchronous=NORMAL``; a larger WAL (40 MB at
most) pays it a tenth as often. Durability is the same: a commit is in the WAL either way, and a
crash replays the WAL on the next open."""

_SQLITE_PRAGMAS = ("busy_timeout=15000", "journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON",
                   f"wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")


def _sqlite_connect(dbapi_conn: Any, _record: Any) -> None:
    """Every new SQLite connection: the driver leaves BEGIN to :func:`_sqlite_begin`, then the
    pragmas (the busy timeout first, so that even switching to WAL waits for a lock)."""
    dbapi_conn.isolation_level = None
    cursor = dbapi_conn.cursor()
    for pragma in _SQLITE_PRAGMAS:
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def _sqlite_begin(conn: Connection) -> None:
    """``BEGIN IMMEDIATE`` for :meth:`Database.write` connections, a deferred BEGIN otherwise."""
    mode = "IMMEDIATE" if conn.get_execution_options().get("write") else "DEFERRED"
    conn.exec_driver_sql(f"BEGIN {mode}")


def make_engine(url: str) -> Engine:
    """An engine for ``url`` with the set-up its backend needs (see the module docstring)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if database in (None, "", ":memory:"):
            engine = create_engine(url, poolclass=StaticPool,
                                   connect_args={"check_same_thread": False})
        else:
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 15},
                                   pool_size=POOL_SIZE, max_overflow=0)
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    else:
        engine = create_engine(url, pool_size=POOL_SIZE, max_overflow=0, pool_pre_ping=True)
    _drop_pool_in_forked_children(engine)
    return engine


def _drop_pool_in_forked_children(engine: Engine) -> None:
    """A forked child must not use (or close) the parent's pooled connections: it forgets them
    and opens its own (SQLAlchemy's recipe for ``os.fork``: ``dispose(close=False)``)."""
    ref = weakref.ref(engine)

    def forget() -> None:
        forked = ref()
        if forked is not None:
            forked.dispose(close=False)

    os.register_at_fork(after_in_child=forget)


class Database:
    """An engine and the two kinds of transaction the store runs on it."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.dialect = engine.dialect.name
        self.in_memory = self.dialect == "sqlite" and engine.url.database in (None, "", ":memory:")
        # An in-memory database is one shared connection: two threads must not use it at once.
        self._memory_lock = threading.RLock() if self.in_memory else None

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction (``BEGIN IMMEDIATE`` on SQLite), committed when the block ends
        normally and rolled back (nothing written) when it raises."""
        with self._turn(), self.engine.connect() as conn:
            conn.execution_options(write=True)
            with conn.begin():
                yield conn

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction: one consistent snapshot for everything read in the block."""
        with self._turn(), self.engine.connect() as conn, conn.begin():
            yield conn

    def _turn(self) -> threading.RLock | nullcontext[None]:
        return self._memory_lock if self._memory_lock is not None else nullcontext()

    def dispose(self) -> None:
        self.engine.dispose()


def open_database(url: str | None = None, *, migrate_schema: bool = True) -> Database:
    """Open (and by default migrate) the database at ``url`` (default: :func:`default_database_url`)."""
    db = Database(make_engine(url or default_database_url()))
    if migrate_schema:
        migrate.ensure_current(db.engine)
    return db
