"""A database: its engine, the two kinds of transaction the store runs on it, and opening it.

How each backend's engine is set up is ``store.engine``'s business; here a connection is only ever
taken for a read or for a write, which is what the engine set-up needs to know.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from sqlalchemy import Connection, Engine
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, InterfaceError, NoSuchModuleError, OperationalError

from store import migrate
from store.checkpoint import Checkpointer
from store.engine import READ_ONLY, make_engines, sqlite_begin
from store.errors import DatabaseUnavailable, NoDatabase

DEFAULT_SQLITE_PATH = Path("data") / "ticketledger.db"


DEFAULT_DATABASE_URL = f"sqlite:///{DEFAULT_SQLITE_PATH.as_posix()}"
"""The event log when nothing else is said: an SQLite file under the current folder. Which
database a program uses is a setting (``DATABASE_URL``, read by ``service.settings``)."""


class Database:
    """An engine and the two kinds of transaction the store runs on it.

    ``engine`` is for anyone; the store's transactions run on ``store_engine`` (the same pool; on
    SQLite it leaves BEGIN to :meth:`read` and :meth:`write`, see ``store.engine``)."""

    def __init__(self, engine: Engine, store_engine: Engine | None = None):
        self.engine = engine
        self.store_engine = store_engine if store_engine is not None else engine
        self.dialect = engine.dialect.name
        self.in_memory = self.dialect == "sqlite" and engine.url.database in (None, "", ":memory:")
        # An in-memory database is one shared connection: two threads must not use it at once.
        self._memory_lock = threading.RLock() if self.in_memory else None
        # An SQLite file takes one writer at a time. This process's writers wait their turn here,
        # woken the moment the last one commits, rather than in SQLite's busy handler, which
        # polls with sleeps of up to 100 ms. Readers never wait (WAL).
        self._write_turn = threading.RLock() if self.dialect == "sqlite" and not self.in_memory else None
        # An SQLite file's log is checkpointed after writes, outside the write turn (store.checkpoint).
        self.checkpoints = (Checkpointer(self.store_engine)
                            if self.dialect == "sqlite" and not self.in_memory else None)

    @property
    def url(self) -> str:
        return self.engine.url.render_as_string(hide_password=True)

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction (``BEGIN IMMEDIATE`` on SQLite), committed when the block ends
        normally and rolled back (nothing written) when it raises."""
        with self._turn(), self._writer(), self.store_engine.connect() as conn, conn.begin():
            self._begin(conn)
            yield conn
        if self.checkpoints is not None:
            self.checkpoints.wrote()

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction (deferred on SQLite: it waits for no writer): one consistent snapshot
        for everything read in the block."""
        with self._turn(), self.store_engine.connect() as conn:
            conn.execution_options(**{READ_ONLY: True})
            with conn.begin():
                self._begin(conn)
                yield conn

    def _begin(self, conn: Connection) -> None:
        if self.store_engine is not self.engine and self.dialect == "sqlite":
            sqlite_begin(conn)

    def _turn(self) -> threading.RLock | nullcontext[None]:
        return self._memory_lock if self._memory_lock is not None else nullcontext()

    def _writer(self) -> threading.RLock | nullcontext[None]:
        return self._write_turn if self._write_turn is not None else nullcontext()

    def dispose(self) -> None:
        if self.checkpoints is not None:
            self.checkpoints.stop()
        self.engine.dispose()


def open_database(url: str | None = None, *, migrate_schema: bool = True,
                  must_exist: bool = False) -> Database:
    """Open (and by default migrate) the database at ``url`` (default: ``DEFAULT_DATABASE_URL``).

    ``must_exist``: for programs that only look at a log, which must not leave an empty database
    behind where none was; an SQLite file that is not there raises :class:`NoDatabase`.
    """
    url = url or DEFAULT_DATABASE_URL
    db: Database | None = None
    try:
        if must_exist:
            _check_exists(url)
        db = Database(*make_engines(url))
        if migrate_schema:
            migrate.ensure_current(db.engine)
        else:  # connect once anyway, so a wrong URL is told here and not deep inside a command
            with db.engine.connect():
                pass
    except _CANNOT_OPEN as exc:
        if db is not None:
            db.dispose()
        raise DatabaseUnavailable(cannot_open(url, exc)) from exc
    return db


_CANNOT_OPEN = (ArgumentError, NoSuchModuleError, OperationalError, InterfaceError, ImportError, OSError)
"""What opening a database raises when its URL is wrong: SQLAlchemy cannot parse it or has no such
dialect (a bad scheme), the driver is not installed, the server cannot be reached, the database or
the login does not exist, an SQLite file cannot be created. Anything else is a bug, and stays one."""

_FIXES: tuple[tuple[str, str], ...] = (
    (r"could not parse|can't load plugin|no such module",
     "write sqlite:///path/to/file.db or postgresql+psycopg://USER:PASSWORD@HOST:5432/DBNAME"),
    (r"no module named",
     "install the PostgreSQL driver: pip install -e '.[postgres]'"),
    (r"database \S+ does not exist",
     "create the database (createdb NAME) or name an existing one in the URL"),
    (r"password authentication|authentication failed|role \S+ does not exist",
     "check the user name and password in the URL"),
    (r"resolve host|name or service not known|nodename nor servname|translate host name|"
     r"temporary failure in name resolution",
     "check the host name in the URL"),
    (r"connection refused|connection failed|timeout expired|could not connect",
     "check that the database server is running at the URL's host and port"),
    (r"unable to open database file|permission denied|read-only file system|no such file",
     "check that the file's folder can be created and written"),
)


def cannot_open(url: str, exc: BaseException) -> str:
    """One line for a person: which database, what failed, and how to fix it. Driver messages run
    over several lines and SQLAlchemy adds a link to its error page; only the gist is kept."""
    cause = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    reason = re.sub(r"\s+", " ", str(cause).split("(Background on this error", 1)[0]).strip()
    reason = reason or type(cause).__name__
    if len(reason) > 240:
        reason = reason[:237] + "..."
    fix = next((text for pattern, text in _FIXES if re.search(pattern, reason, re.IGNORECASE)),
               "check the URL")
    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        shown = repr(url.split("@", 1)[-1]) if "@" in url else repr(url)
    return f"cannot open the database {shown} (DATABASE_URL or --database-url): {reason}; {fix}"


def _check_exists(url: str) -> None:
    parsed = make_url(url)
    path = parsed.database
    if (parsed.get_backend_name() == "sqlite" and path not in (None, "", ":memory:")
            and not Path(path).expanduser().is_file()):
        raise NoDatabase(path)
