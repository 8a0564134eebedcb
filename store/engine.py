"""Engines for SQLite and PostgreSQL, set up the way an event store needs them.

This is the one place where the two backends differ; everything above it is SQLAlchemy Core on
``Database.read()`` and ``Database.write()`` connections from SQLAlchemy's own pool.

SQLite: WAL, ``synchronous=NORMAL`` (a committed step survives a process crash), a busy timeout,
and ``BEGIN IMMEDIATE`` for every transaction not declared a read (see :func:`sqlite_begin`;
SQLAlchemy's documented recipe: the driver's own transaction handling is turned off on connect and
the ``begin`` event emits BEGIN). An in-memory database lives in one connection (``StaticPool``).

:func:`make_engines` returns two engines on ONE pool: the public one, with that ``begin`` event,
for anything that reaches the database (Alembic, scripts, tests), and the store's own, without it,
on which ``Database.read()`` and ``Database.write()`` emit their BEGIN themselves. An engine with a
connection-event listener dispatches events around every statement it runs; the store's engine,
which runs every statement of a step, does without that (SQLAlchemy's option engines:
``Engine.execution_options()`` shares the pool, and events set on it stay on it).
PostgreSQL needs nothing special: the unique (episode, seq) key and the conditional update of the
index row are the concurrency guards.
"""

from __future__ import annotations

import os
import weakref
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool

POOL_SIZE = 20
"""Connections per process, at most (kept open while idle); a thread that finds none free waits
for one. Four PostgreSQL workers then hold at most 80, under PostgreSQL's default
``max_connections`` of 100."""

WAL_CHECKPOINT_PAGES = 10_000
"""Pages the WAL may hold before a commit checkpoints it into the database file (SQLite's default
is 1,000). A checkpoint is the only fsync under ``synchronous=NORMAL``. The store's own
checkpoints run in a thread after writes (``store.checkpoint``), so a commit reaches this size only
when that thread falls behind. Durability is the same: a commit is in the WAL either way, and a
crash replays the WAL on the next open."""

_SQLITE_PRAGMAS = ("busy_timeout=15000", "journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON",
                   f"wal_autocheckpoint={WAL_CHECKPOINT_PAGES}")


def _sqlite_connect(dbapi_conn: Any, _record: Any) -> None:
    """Every new SQLite connection: the driver leaves BEGIN to :func:`sqlite_begin`; then the
    pragmas, the busy timeout first so that the others wait for a lock too."""
    dbapi_conn.isolation_level = None
    cursor = dbapi_conn.cursor()
    for pragma in _SQLITE_PRAGMAS:
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


READ_ONLY = "read_only"
"""The execution option that marks a connection's transactions as reads (see :func:`sqlite_begin`)."""


def sqlite_begin(conn: Connection) -> None:
    """``BEGIN DEFERRED`` for transactions declared to be reads, ``BEGIN IMMEDIATE`` for all others.

    A deferred transaction that has read and then writes cannot wait for the write lock (SQLite
    would have to let it write over a snapshot another writer may have changed), so it fails at
    once with "database is locked", which no busy timeout absorbs: two processes migrating a fresh
    file at once, or two steps of one episode, would. Taking the write lock up front turns that
    into a wait. So only a transaction that says it will not write (``Database.read``, or a
    connection with the :data:`READ_ONLY` option) starts deferred; anything else that reaches the
    engine (Alembic, a maintenance script) is safe without knowing about this."""
    mode = "DEFERRED" if conn.get_execution_options().get(READ_ONLY) else "IMMEDIATE"
    # Straight to the driver (SQLAlchemy's recipe goes through exec_driver_sql): a fixed statement
    # with no parameters and no result needs nothing of SQLAlchemy's execution machinery.
    driver = conn.connection.driver_connection
    assert driver is not None  # a connection in use always has one
    driver.execute(f"BEGIN {mode}")


def make_engines(url: str) -> tuple[Engine, Engine]:
    """An engine for ``url`` with the set-up its backend needs, and the store's engine on the same
    pool, which leaves BEGIN to its caller on SQLite (see the module docstring)."""
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
        public: Engine = engine.execution_options()
        event.listen(public, "begin", sqlite_begin)
    else:
        engine = create_engine(url, pool_size=POOL_SIZE, max_overflow=0, pool_pre_ping=True)
        public = engine
    _drop_pool_in_forked_children(engine)
    return public, engine


def _drop_pool_in_forked_children(engine: Engine) -> None:
    """A forked child must not use (or close) the parent's pooled connections: it forgets them
    and opens its own (SQLAlchemy's recipe for ``os.fork``: ``dispose(close=False)``)."""
    ref = weakref.ref(engine)

    def forget() -> None:
        forked = ref()
        if forked is not None:
            forked.dispose(close=False)

    os.register_at_fork(after_in_child=forget)


_MIGRATION_LOCK = 7357424
"""PostgreSQL advisory lock key held by a migration transaction."""


def serialise_migration(conn: Connection) -> None:
    """Make ``conn``'s transaction the only migration running against the database, so processes
    starting together on a fresh one migrate one after the other. On SQLite its ``BEGIN IMMEDIATE``
    already holds the write lock; PostgreSQL takes an advisory lock until the transaction ends."""
    if conn.dialect.name == "postgresql":
        conn.execute(text(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})"))
