"""The SQL store's step path (head read, append, load) on every kind of database it runs on.

These tests pin that an append writes exactly what a plain Core query of the tables reads
(timestamps and chain format included), which statements a write runs, and that connections come
from one bounded pool: on an SQLite file, on PostgreSQL and on in-memory SQLite (one shared
connection). What every backend of the log keeps, the in-memory store too, is
``test_store_contract.py``.
"""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import select

from store import Conflict, open_database
from store.chain import CHAIN_FORMAT
from store.eventstore import EventStore, NewEvent, Projection
from store.schema import episodes, events
from tests.databases import sqlite_pass_only

pytestmark = sqlite_pass_only("the store fixture runs every test on every backend")


@pytest.fixture(params=["sqlite", "postgres", "sqlite_in_memory"])
def store(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    url = {"sqlite": lambda: request.getfixturevalue("sqlite_url"),
           "postgres": lambda: request.getfixturevalue("pg_url"),
           "sqlite_in_memory": lambda: "sqlite://"}[request.param]()
    db = open_database(url)
    yield EventStore(db)
    db.dispose()


def _open(store: EventStore, eid: str = "ep_a") -> tuple[int, str]:
    rec = store.create(eid, "task_easy_password", None, [NewEvent("EpisodeStarted", 1, {"x": 1})],
                       Projection("open", 0, 0.0))
    return rec[-1].seq, rec[-1].hash


def test_step_path_writes_what_core_reads(store: EventStore) -> None:
    seq, head = _open(store)
    appended = store.append("ep_a", seq, head, [NewEvent("ActionReceived", 1, {"step": 1}),
                                                NewEvent("StepGraded", 1, {"score": 0.5})],
                            Projection("open", 1, 0.5))
    loaded = store.load("ep_a")
    with store.db.read() as conn:
        core_rows = conn.execute(select(events).order_by(events.c.seq)).all()
        index = conn.execute(select(episodes)).one()
    assert [r.seq for r in loaded] == [1, 2, 3]
    assert [(r.seq, r.type, r.data, r.hash, r.prev_hash, r.recorded_at) for r in core_rows] == [
        (r.seq, r.type, r.data_text, r.hash, r.prev_hash, r.recorded_at) for r in loaded]
    assert {r.chain_format for r in loaded} == {index.chain_format} == {CHAIN_FORMAT}
    assert [r.position for r in loaded] == [r.position for r in core_rows]
    assert loaded[1:] and loaded[-1].hash == appended[-1].hash
    # The timestamp read back is the one written (to the microsecond).
    assert loaded[-1].recorded_at.replace(tzinfo=None) == appended[-1].recorded_at.replace(tzinfo=None)
    assert (index.last_seq, index.head_hash, index.step_count, index.score) == (3, appended[-1].hash, 1, 0.5)
    assert store.head("ep_a") == (3, appended[-1].hash)
    assert [r.seq for r in store.load("ep_a", after_seq=1, upto_seq=2)] == [2]


def test_an_append_runs_one_update_and_a_batch_reads_nothing(sqlite_url: str) -> None:
    """The statements of a write, from SQLite's trace: an append that knows the status it leaves
    runs ONE update, whether it keeps the status or ends the episode; a batch of distinct episodes
    runs one update statement (a row each), and reads nothing."""
    from sqlalchemy import event

    from store.eventstore import Append

    db = open_database(sqlite_url)
    try:
        store = EventStore(db)
        heads = {eid: _open(store, eid) for eid in ("ep_a", "ep_b", "ep_c")}
        statements: list[str] = []
        event.listen(db.engine, "checkout",
                     lambda dbapi_conn, _record, _proxy: dbapi_conn.set_trace_callback(statements.append))

        def verbs() -> dict[str, int]:
            """How many statements of each kind the write ran (its INSERTs are not counted: the
            trace shows an INSERT's trigger too)."""
            out = {verb: sum(s.split()[0] == verb for s in statements)
                   for verb in ("BEGIN", "SELECT", "UPDATE", "COMMIT")}
            statements.clear()
            return out

        one_update = {"BEGIN": 1, "SELECT": 0, "UPDATE": 1, "COMMIT": 1}
        a = store.append("ep_a", *heads["ep_a"], [NewEvent("ActionReceived", 1, {})],
                         Projection("open", 1, 0.0), expected_status="open")
        assert verbs() == one_update
        store.append("ep_a", a[-1].seq, a[-1].hash, [NewEvent("ActionReceived", 1, {}),
                                                       NewEvent("EpisodeEnded", 1, {})],
                     Projection("ended", 2, 1.0), expected_status="open")
        assert verbs() == one_update
        results = store.append_many([
            Append("ep_c", *heads["ep_c"], [NewEvent("ActionReceived", 1, {})],
                   Projection("ended", 1, 1.0), "open"),
            Append("ep_b", *heads["ep_b"], [NewEvent("ActionReceived", 1, {})],
                   Projection("open", 1, 0.0), "open")])
        assert not any(isinstance(r, Conflict) for r in results)
        assert verbs() == {**one_update, "UPDATE": 2}  # one statement, executed for each row
        assert [store.episode(e).status for e in ("ep_a", "ep_b", "ep_c")] == ["ended", "open", "ended"]
    finally:
        db.dispose()


def test_connections_are_capped_and_threads_beyond_the_cap_wait(store: EventStore) -> None:
    from store.engine import POOL_SIZE

    _open(store)
    db = store.db
    holding = threading.Semaphore(0)
    release = threading.Event()
    inside = [0]
    peak: list[int] = []
    errors: list[BaseException] = []
    lock = threading.Lock()

    def worker() -> None:
        try:
            with db.read() as conn:
                with lock:
                    inside[0] += 1
                    peak.append(inside[0])
                holding.release()
                release.wait(10)
                conn.execute(select(episodes.c.last_seq)).all()
                with lock:
                    inside[0] -= 1
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(POOL_SIZE + 8)]
    for t in threads:
        t.start()
    in_use = 1 if db.in_memory else POOL_SIZE
    for _ in range(in_use):
        assert holding.acquire(timeout=10)
    assert not holding.acquire(timeout=0.3)  # the others wait for a connection to come back
    release.set()
    for t in threads:
        t.join(10)
    assert not errors and len(peak) == len(threads)
    assert max(peak) == in_use
    assert store.head("ep_a")[0] == 1


def test_sqlite_transactions_wait_for_the_writer_unless_declared_reads(sqlite_url: str) -> None:
    """A transaction that reads and then writes (what Alembic, or a script on the engine, does)
    while another connection holds the write lock waits for it instead of failing with "database is
    locked": only ``Database.read`` starts deferred, and a read never waits for a writer."""
    from sqlalchemy import func, insert

    from store.eventstore import utcnow
    from store.schema import runs

    db = open_database(sqlite_url)
    holding, release = threading.Event(), threading.Event()
    outcomes: dict[str, object] = {}

    def run_row(run_id: str) -> dict[str, object]:
        return {"run_id": run_id, "started_at": utcnow(), "agent": "test", "status": "running",
                "config": "{}"}

    def writer() -> None:
        with db.write() as conn:
            conn.execute(insert(runs).values(run_row("r_writer")))
            holding.set()
            release.wait(10)

    def reader() -> None:
        with db.read() as conn:
            outcomes["read"] = conn.execute(select(func.count()).select_from(runs)).scalar_one()

    def read_then_write() -> None:
        try:
            with db.engine.begin() as conn:
                before = conn.execute(select(func.count()).select_from(runs)).scalar_one()
                conn.execute(insert(runs).values(run_row("r_second")))
            outcomes["read_then_write"] = before
        except Exception as exc:
            outcomes["read_then_write"] = exc

    try:
        first = threading.Thread(target=writer)
        first.start()
        assert holding.wait(10)
        read = threading.Thread(target=reader)
        read.start()
        read.join(5)
        assert outcomes.get("read") == 0  # done while the writer still holds the lock
        second = threading.Thread(target=read_then_write)
        second.start()
        second.join(0.3)
        assert second.is_alive(), outcomes  # waiting for the write lock, not failed
        release.set()
        first.join(10)
        second.join(10)
        assert outcomes["read_then_write"] == 1  # it began after the writer's commit
    finally:
        release.set()
        db.dispose()


def test_the_log_reaches_the_database_file_without_a_commit_checkpointing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Commits far below ``wal_autocheckpoint`` still reach the database file itself: the
    store's checkpoint thread copies the log after writes (``store.checkpoint``), so no commit has
    to. Read with ``immutable=1``, SQLite ignores the log and sees only what was checkpointed."""
    import sqlite3
    import time

    path = tmp_path / "checkpointed.db"
    db = open_database(f"sqlite:///{path}")
    try:
        store = EventStore(db)
        for n in range(20):
            store.create(f"ep_{n}", "task", n, [NewEvent("Opened", 1, {"n": n})],
                         Projection("open", 0, 0.0))
        assert db.checkpoints is not None

        def in_the_file() -> int:
            raw = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
            try:
                return int(raw.execute("SELECT count(*) FROM events").fetchone()[0])
            except sqlite3.DatabaseError:  # the schema still only in the log, or a page being copied
                return 0  # ("malformed": immutable=1 trusts that no one writes the file meanwhile)
            finally:
                raw.close()

        deadline = time.monotonic() + 30
        while in_the_file() < 20 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert in_the_file() == 20
    finally:
        db.dispose()
    assert db.checkpoints._thread is not None and not db.checkpoints._thread.is_alive()
