"""Copying an SQLite file's write-ahead log into the database in a thread of its own.

In WAL mode a commit appends to the log; a *checkpoint* copies the log back into the database file
and is the one moment ``synchronous=NORMAL`` calls fsync. Left to SQLite, the checkpoint runs inside
the commit that passes ``wal_autocheckpoint`` pages, and so inside this process's write turn
(``Database.write``): every other writer, which is every other session's step, waits for it. Under
256 ``/ws`` sessions such a commit took 150-730 ms where a commit takes under 2.

So a :class:`Checkpointer` runs a ``PASSIVE`` checkpoint shortly after writes, on a pooled connection
of its own and outside the write turn. A passive checkpoint waits for no reader or writer (SQLite's
WAL documentation): commits go on appending to the log while it copies, and once a checkpoint has
copied everything, the next commit starts the log from its beginning again, so it never grows to
``wal_autocheckpoint``'s size. That setting stays as it is (``store.engine``) as the floor: should
this thread fall behind, a commit checkpoints as it did before. Durability is unchanged: a commit
is in the log either way, and a crash replays the log on the next open.
"""

from __future__ import annotations

import logging
import threading

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

log = logging.getLogger("ticketledger.store")

DELAY_S = 0.5
"""How long after a write the checkpoint runs: the writes of that half second are copied in one
pass (one fsync), and the log stays within about half a second of commits."""


class Checkpointer:
    """Checkpoints one SQLite file's log after writes, in a daemon thread started on first use (so
    a process that forks before writing forks no thread, and a forked child starts its own)."""

    def __init__(self, engine: Engine, delay_s: float = DELAY_S):
        self.engine = engine
        self.delay_s = delay_s
        self._wrote = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()

    def wrote(self) -> None:
        """A write transaction committed: checkpoint soon."""
        if self._thread is None or not self._thread.is_alive():
            with self._start:
                if (self._thread is None or not self._thread.is_alive()) and not self._stopping.is_set():
                    self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint",
                                                    daemon=True)
                    self._thread.start()
        self._wrote.set()

    def checkpoint(self) -> None:
        """One passive checkpoint now (the thread's pass; also for tests and tools)."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def stop(self) -> None:
        """End the thread (it finishes a pass under way); the last connection to close checkpoints
        what is left, as SQLite always does."""
        self._stopping.set()
        self._wrote.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while True:
            self._wrote.wait()
            if self._stopping.wait(self.delay_s):
                return
            self._wrote.clear()
            try:
                self.checkpoint()
            except DBAPIError as exc:  # e.g. the file went away under a test: the next pass retries
                log.debug("checkpoint skipped: %s", exc)
