"""Engines for SQLite and PostgreSQL, set up the way an event store needs them.

SQLite: WAL, ``synchronous=NORMAL`` (a committed step survives a process crash), a busy timeout,
and ``BEGIN IMMEDIATE`` for writes so a read-check-append never fails half-way with SQLITE_BUSY
(see SQLAlchemy's "Transactions with SQLite and the sqlite3 driver"). PostgreSQL needs nothing
special: the unique (episode, seq) key is the concurrency guard.

The step path (head read and append) does not go through SQLAlchemy's statement compiler or its
pool: it takes a DBAPI connection from a small private pool (:meth:`Database.hot`), opened through
the engine so the same ``connect`` set-up applies, and runs pre-built SQL (see
``store.eventstore``). Compiling a Core statement and checking a connection in and out cost more
than the SQLite work of a whole step. Everything else (admin tables, audit queries, migrations)
uses the engine as usual.
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool

from store import migrate
from store.errors import NoDatabase

DEFAULT_SQLITE_PATH = Path("data") / "ticketledger.db"
DEFAULT_DATABASE_URL = f"sqlite:///{DEFAULT_SQLITE_PATH.as_posix()}"
"""The event log when nothing else is said: an SQLite file under the current folder. Which
database a program uses is a setting (``DATABASE_URL``, read by ``service.settings``)."""


WAL_CHECKPOINT_PAGES = 10_000
"""Pages the WAL may hold before a commit checkpoints it into the database file (SQLite's default
is 1,000). A checkpoint is the only fsync under ``synchronous=NORMAL``, and at the default it cost
a batched durable step about 15% (bench, side by side); at 10,000 pages (40 MB of WAL at most
between checkpoints) it is paid a tenth as often. Durability is the same: a commit is in the WAL
either way, and a crash replays the WAL on the next open."""


def _sqlite_pragmas(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
    dbapi_conn.isolation_level = None  # let SQLAlchemy's begin event emit BEGIN itself
    cur = dbapi_conn.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "busy_timeout=15000",
                   "foreign_keys=ON", f"wal_autocheckpoint={WAL_CHECKPOINT_PAGES}"):
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
        self.sqlite = self.dialect == "sqlite"
        self.integrity_error: type[Exception] = engine.dialect.loaded_dbapi.IntegrityError
        self._idle: list[Any] = []  # DBAPI connections for the step path, not in a transaction
        self._open_count = 0  # hot connections open now (idle or in use), at most HOT_MAX
        self._waiting = 0
        self._slots = threading.Condition()
        self._memory_conn: Any = None
        self._disposed = False
        ref = weakref.ref(self)
        os.register_at_fork(after_in_child=lambda: (db := ref()) is not None and db._forget_idle())

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

    def hot(self) -> HotConnection:
        """A DBAPI connection for the step path, outside any transaction (autocommit reads).

        ``with db.hot() as conn:`` for single reads; ``with db.hot_write() as cur:`` for a write
        transaction. Idle connections are kept in a LIFO list (``list.pop``/``append`` are atomic),
        so taking one costs well under a microsecond.
        """
        return HotConnection(self)

    def hot_write(self) -> HotWrite:
        """A write transaction on a hot connection: ``BEGIN IMMEDIATE`` on SQLite; committed when the
        block ends normally, rolled back (nothing written) when it raises."""
        return HotWrite(self)

    def _checkout(self) -> Any:
        if self._memory_lock is not None:
            self._memory_lock.acquire()
            if self._memory_conn is None:
                # The StaticPool's one connection: the in-memory database lives in it.
                self._memory_conn = self.engine.raw_connection().dbapi_connection
            return self._memory_conn
        try:
            return self._idle.pop()
        except IndexError:
            return self._open_or_wait()

    def _open_or_wait(self) -> Any:
        """No idle connection: open one if fewer than HOT_MAX are open, else wait for one back
        (so many threads stepping at once cannot exhaust the database's connection limit)."""
        with self._slots:
            while True:
                if self._idle:
                    return self._idle.pop()
                if self._open_count < HOT_MAX:
                    self._open_count += 1
                    break
                self._waiting += 1
                try:
                    self._slots.wait(0.05)
                finally:
                    self._waiting -= 1
        try:
            return self._open()
        except BaseException:
            self._closed_one()
            raise

    def _closed_one(self) -> None:
        with self._slots:
            self._open_count -= 1
            self._slots.notify()

    def _checkin(self, conn: Any) -> None:
        if self._memory_lock is not None:
            self._memory_lock.release()
        elif self._disposed:
            conn.close()
            self._closed_one()
        else:
            self._idle.append(conn)
            if self._waiting:  # read without the lock: a missed wake-up costs one 50 ms wait
                with self._slots:
                    self._slots.notify()

    def _discard(self, conn: Any) -> None:
        """Return a connection after an error: reused when it is clean, closed when it may be broken."""
        if self._memory_lock is not None:
            self._memory_lock.release()
        elif _clean(conn, self.sqlite):
            self._checkin(conn)
        else:
            with suppress(Exception):
                conn.close()
            self._closed_one()

    def _open(self) -> Any:
        fairy = self.engine.raw_connection()  # fires the engine's connect set-up (pragmas)
        conn = fairy.dbapi_connection
        fairy.detach()  # ours now: the engine's pool neither counts nor resets it
        if not self.sqlite:
            conn.autocommit = True  # reads need no transaction; writes open one explicitly
        return conn

    def _forget_idle(self) -> None:
        """After fork: the parent's connections are the parent's; open new ones here."""
        self._idle = []
        self._open_count = self._waiting = 0
        self._slots = threading.Condition()

    @contextmanager
    def _locked(self) -> Iterator[None]:
        if self._memory_lock is None:
            yield
        else:
            with self._memory_lock:
                yield

    def dispose(self) -> None:
        self._disposed = True
        while self._idle:
            self._idle.pop().close()
            self._closed_one()
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


def open_database(url: str | None = None, *, migrate_schema: bool = True,
                  must_exist: bool = False) -> Database:
    """Open (and by default migrate) the database at ``url`` (default: ``DEFAULT_DATABASE_URL``).

    ``must_exist``: for programs that only look at a log, which must not leave an empty database
    behind where none was; an SQLite file that is not there raises :class:`NoDatabase`.
    """
    url = url or DEFAULT_DATABASE_URL
    if must_exist:
        _check_exists(url)
    db = Database(make_engine(url))
    if migrate_schema:
        migrate.ensure_current(db.engine)
    return db


def _check_exists(url: str) -> None:
    parsed = make_url(url)
    path = parsed.database
    if (parsed.get_backend_name() == "sqlite" and path not in (None, "", ":memory:")
            and not Path(path).expanduser().is_file()):
        raise NoDatabase(path)


HOT_MAX = 20
"""Step-path connections per process, at most (kept open while idle). Four PostgreSQL workers
then hold at most 80, under PostgreSQL's default max_connections of 100; a thread that finds
none free waits for one."""


class HotConnection:
    """``with db.hot() as conn``: a DBAPI connection borrowed for one or more autocommit reads."""

    __slots__ = ("_conn", "_db")

    def __init__(self, db: Database):
        self._db = db
        self._conn: Any = None

    def __enter__(self) -> Any:
        self._conn = self._db._checkout()
        return self._conn

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self._db._checkin(self._conn)
        else:
            self._db._discard(self._conn)


class HotWrite:
    """``with db.hot_write() as cur``: one write transaction on a hot connection.

    SQLite: ``BEGIN IMMEDIATE`` takes the write lock up front (waiting up to ``busy_timeout``), so
    a read-check-append never fails half-way with SQLITE_BUSY. PostgreSQL: ``BEGIN`` (the unique
    (episode, seq) key and the conditional update are the guards).
    """

    __slots__ = ("_conn", "_cur", "_db")

    def __init__(self, db: Database):
        self._db = db
        self._conn: Any = None
        self._cur: Any = None

    def __enter__(self) -> Any:
        db = self._db
        conn = self._conn = db._checkout()
        try:
            cur = self._cur = conn.cursor()
            cur.execute("BEGIN IMMEDIATE" if db.sqlite else "BEGIN")
        except BaseException:
            db._discard(conn)
            raise
        return cur

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        db, conn, cur = self._db, self._conn, self._cur
        try:
            cur.execute("COMMIT" if exc_type is None else "ROLLBACK")
            cur.close()
        except BaseException:
            with suppress(Exception):
                cur.execute("ROLLBACK")
            db._discard(conn)
            raise
        if exc_type is None:
            db._checkin(conn)
        else:
            db._discard(conn)


def _clean(conn: Any, sqlite: bool) -> bool:
    """Whether a connection that saw an error is idle and usable (else it is closed, not reused)."""
    try:
        if sqlite:
            return not conn.in_transaction
        return not conn.closed and conn.info.transaction_status == 0  # psycopg: IDLE
    except Exception:
        return False
