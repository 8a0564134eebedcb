"""The event store's contract, on an SQLite file and on PostgreSQL in every run.

Optimistic concurrency on (episode, seq), all-or-nothing appends, concurrent writers from threads
and from processes, immutability enforced by the database, and tamper detection by replay.
"""

from __future__ import annotations

import itertools
import multiprocessing
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from domain.tasks import default_catalog
from service import EnvironmentService
from service.replay import replay, verify_chain
from service.scripted import solution
from store import Conflict, Database, open_database
from store.chain import GENESIS, link
from store.eventstore import Append, EventStore, NewEvent, Projection
from tests.databases import sqlite_pass_only
from tests.play import module_database, play

pytestmark = sqlite_pass_only("the backend fixture runs every test on both backends")

OPEN = Projection("open", 0, 0.0)
_IDS = itertools.count(1)


@pytest.fixture(scope="module")
def tamper_db(db: Database, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """A database of the same backend as ``db`` that an attacker may damage."""
    yield from module_database("sqlite" if db.dialect == "sqlite" else "postgres", tmp_path_factory)


@pytest.fixture
def store(db: Database) -> EventStore:
    return EventStore(db)


@pytest.fixture
def eid() -> str:
    """A fresh episode id for this test."""
    return f"ep-{next(_IDS)}"


def _event(n: int) -> NewEvent:
    return NewEvent("ActionReceived", 1, {"n": n})


def _open(store: EventStore, episode_id: str) -> tuple[int, str]:
    recorded = store.create(episode_id, "task_easy_password", None, [_event(0)], OPEN)
    return recorded[-1].seq, recorded[-1].hash


def _row(store: EventStore, episode_id: str) -> tuple[Any, ...]:
    row = store.episode(episode_id)
    return row.last_seq, row.head_hash, row.status, row.step_count, row.score


def _execute(db, sql: str) -> None:  # type: ignore[no-untyped-def]
    with db.write() as conn:
        conn.execute(text(sql))


# --------------------------------------------------------------------------- appends
def test_appends_extend_one_hash_chained_stream(store: EventStore, eid: str) -> None:
    seq, head = _open(store, eid)
    for step in range(1, 4):
        recorded = store.append(eid, seq, head, [_event(step), _event(step)],
                                Projection("open", step, 0.0))
        seq, head = recorded[-1].seq, recorded[-1].hash
    loaded = store.load(eid)
    assert [r.seq for r in loaded] == list(range(1, 8))
    assert loaded[0].prev_hash == GENESIS
    assert verify_chain(loaded) is None
    assert store.head(eid) == (7, loaded[-1].hash)
    assert _row(store, eid)[3] == 3
    assert [r.seq for r in store.load(eid, after_seq=3, upto_seq=5)] == [4, 5]


def test_a_batch_moves_the_episodes_at_their_head_and_writes_nothing_for_a_stale_one(
        store: EventStore, eid: str) -> None:
    """``append_many`` (a group commit): one update statement for the batch; each append is
    still conditional on its own head (a batch that lost one race is made again append by append),
    and a status change is recorded, whether or not the appends say which status they expect."""
    a, b, c = f"{eid}a", f"{eid}b", f"{eid}c"
    heads = {e: _open(store, e) for e in (a, b, c)}
    store.append(b, *heads[b], [_event(1)], OPEN)  # b moves on before the batch
    results = store.append_many([
        Append(a, *heads[a], [_event(1)], Projection("open", 1, 0.5)),
        Append(b, *heads[b], [_event(1)], OPEN),
        Append(c, *heads[c], [_event(1), _event(2)], Projection("ended", 1, 1.0)),
    ])
    moved_a, stale_b, moved_c = results
    assert isinstance(stale_b, Conflict)
    assert not isinstance(moved_a, Conflict) and not isinstance(moved_c, Conflict)
    assert [r.seq for r in store.load(a)] == [1, 2] and [r.seq for r in store.load(b)] == [1, 2]
    assert [r.seq for r in store.load(c)] == [1, 2, 3]
    assert verify_chain(store.load(c)) is None
    assert (store.episode(a).status, store.episode(a).score, store.head(a)) == ("open", 0.5,
                                                                                (2, moved_a[-1].hash))
    assert (store.episode(c).status, store.head(c)) == ("ended", (3, moved_c[-1].hash))
    # one episode twice at the same head: the first moves it, the second is a conflict
    twice = store.append_many([Append(a, 2, moved_a[-1].hash, [_event(3)], OPEN)] * 2)
    assert not isinstance(twice[0], Conflict) and isinstance(twice[1], Conflict)
    assert [r.seq for r in store.load(a)] == [1, 2, 3]
    # the same with the statuses stated: all moved in one go, then one stale among them
    b_head = store.head(b)
    known = store.append_many([
        Append(a, *store.head(a), [_event(4)], Projection("ended", 2, 1.0), "open"),
        Append(b, *b_head, [_event(2)], OPEN, "open"),
        Append(c, *store.head(c), [_event(3)], Projection("ended", 2, 1.0), "ended")])
    assert not any(isinstance(r, Conflict) for r in known)
    assert [store.episode(e).status for e in (a, b, c)] == ["ended", "open", "ended"]
    again = store.append_many([Append(b, *b_head, [_event(3)], OPEN, "open"),
                               Append(c, *store.head(c), [_event(4)], Projection("open", 3, 0.0),
                                      "ended")])
    assert isinstance(again[0], Conflict) and not isinstance(again[1], Conflict)
    assert [r.seq for r in store.load(b)] == [1, 2, 3] and store.head(c) == (5, again[1][-1].hash)
    assert store.episode(c).status == "open" and verify_chain(store.load(c)) is None


def test_a_taken_episode_id_is_a_conflict(store: EventStore, eid: str) -> None:
    _open(store, eid)
    with pytest.raises(Conflict):
        _open(store, eid)
    assert len(store.load(eid)) == 1


def test_a_duplicate_sequence_number_is_a_conflict_and_writes_nothing(store: EventStore, eid: str) -> None:
    seq, head = _open(store, eid)
    store.append(eid, seq, head, [_event(1)], Projection("open", 1, 0.0))
    before_row, before_events = _row(store, eid), store.load(eid)
    with pytest.raises(Conflict, match="moved on"):
        store.append(eid, seq, head, [_event(2), _event(3)], Projection("open", 1, 0.5))
    assert _row(store, eid) == before_row
    assert store.load(eid) == before_events


def test_the_unique_key_stops_a_writer_the_index_row_let_through(store: EventStore, db: Database,
                                                                  eid: str) -> None:
    """Even if the index row lagged behind the log, (episode, seq) is unique in the database."""
    seq, head = _open(store, eid)
    store.append(eid, seq, head, [_event(1)], Projection("open", 1, 0.0))
    _execute(db, f"UPDATE episodes SET last_seq = 1 WHERE episode_id = '{eid}'")
    with pytest.raises(Conflict):
        store.append(eid, 1, head, [_event(9)], Projection("open", 9, 0.9))
    assert store.episode(eid).last_seq == 1  # the failed append's index update rolled back
    assert [r.data for r in store.load(eid)] == [{"n": 0}, {"n": 1}]
    with pytest.raises(DBAPIError):
        _execute(db, "INSERT INTO events (episode_id, seq, type, version, data, prev_hash, hash, "
                     f"recorded_at) VALUES ('{eid}', 2, 'X', 1, '{{}}', 'p', 'h', CURRENT_TIMESTAMP)")


BAD_EVENTS = {
    "unencodable_payload": NewEvent("ActionReceived", 1, {"raw": object()}),
    "nan_payload": NewEvent("ActionReceived", 1, {"reward": float("nan")}),
    "lone_surrogate": NewEvent("ActionReceived", 1, {"text": "\ud800"}),
    "null_version": NewEvent("ActionReceived", None, {"n": 1}),  # type: ignore[arg-type]
    "null_type": NewEvent(None, 1, {"n": 1}),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("bad", sorted(BAD_EVENTS))
def test_an_append_with_one_bad_event_writes_nothing(store: EventStore, eid: str, bad: str) -> None:
    seq, head = _open(store, eid)
    before_row, before_events = _row(store, eid), store.load(eid)
    batch = [_event(1), BAD_EVENTS[bad], _event(3)]
    with pytest.raises(Exception):  # noqa: B017 - which error depends on where it is caught
        store.append(eid, seq, head, batch, Projection("ended", 1, 0.5))
    assert _row(store, eid) == before_row
    assert store.load(eid) == before_events
    # The store is still healthy: the same position can be written now.
    store.append(eid, seq, head, [_event(1)], Projection("open", 1, 0.0))
    assert [r.seq for r in store.load(eid)] == [1, 2]


# --------------------------------------------------------------------------- immutability
@pytest.mark.parametrize("statement", [
    "UPDATE events SET data = '{{\"n\": 9}}' WHERE episode_id = '{eid}' AND seq = 1",
    "UPDATE events SET seq = seq + 100 WHERE episode_id = '{eid}'",
    "DELETE FROM events WHERE episode_id = '{eid}' AND seq = 2",
    "DELETE FROM events",
])
def test_the_database_refuses_update_and_delete_on_events(store: EventStore, db: Database, eid: str,
                                                          statement: str) -> None:
    seq, head = _open(store, eid)
    store.append(eid, seq, head, [_event(1)], Projection("open", 1, 0.0))
    before, total = store.load(eid), store.count_events()
    with pytest.raises(DBAPIError, match="immutable"):
        _execute(db, statement.format(eid=eid))
    assert store.load(eid) == before
    assert store.count_events() == total


_EVENT_COLUMNS = "episode_id, seq, type, version, data, prev_hash, hash, recorded_at"
_OVERWRITES = {
    # SQLite resolves a key conflict by deleting the stored row, and fires no DELETE trigger for
    # it (migration 0007 refuses these before the conflict is resolved).
    "sqlite": {
        "insert or replace, same (episode, seq)":
            f"INSERT OR REPLACE INTO events ({_EVENT_COLUMNS}) SELECT episode_id, seq, type, version, "
            "'{{\"n\": 9}}', prev_hash, hash, recorded_at FROM events WHERE episode_id = '{eid}'",
        "replace into, same position":
            f"REPLACE INTO events (position, {_EVENT_COLUMNS}) SELECT position, episode_id, seq + 50, "
            "type, version, data, prev_hash, hash, recorded_at FROM events WHERE episode_id = '{eid}'",
        "upsert": f"INSERT INTO events ({_EVENT_COLUMNS}) SELECT {_EVENT_COLUMNS} FROM events "
                  "WHERE episode_id = '{eid}' ON CONFLICT DO UPDATE SET data = '{{}}'",
    },
    # PostgreSQL has no REPLACE; its upsert is an UPDATE, which the UPDATE trigger refuses.
    "postgresql": {
        "upsert": f"INSERT INTO events ({_EVENT_COLUMNS}) SELECT {_EVENT_COLUMNS} FROM events "
                  "WHERE episode_id = '{eid}' ON CONFLICT (episode_id, seq) DO UPDATE SET data = '{{}}'",
    },
}


@pytest.mark.parametrize("kind", ["insert or replace, same (episode, seq)",
                                  "replace into, same position", "upsert"])
def test_the_database_refuses_an_insert_over_a_stored_event(store: EventStore, db: Database,
                                                            eid: str, kind: str) -> None:
    """No form of INSERT swaps a stored event for another (the position and every column kept)."""
    statement = _OVERWRITES[db.dialect].get(kind)
    if statement is None:
        pytest.skip(f"{db.dialect} has no {kind}")
    seq, head = _open(store, eid)
    store.append(eid, seq, head, [_event(1)], Projection("open", 1, 0.0))
    before, total = store.load(eid), store.count_events()
    with pytest.raises(DBAPIError, match="immutable"):
        _execute(db, statement.format(eid=eid))
    assert store.load(eid) == before
    assert [r.position for r in store.load(eid)] == [r.position for r in before]
    assert store.count_events() == total


def test_the_database_refuses_an_insert_over_a_stored_regrade(store: EventStore, db: Database,
                                                              eid: str) -> None:
    from store.regrades import NewRegrade, RegradeStore

    _open(store, eid)
    regrades = RegradeStore(db)
    regrades.append([NewRegrade(eid, "g/1", 0.5, 0.75, {"why": "recorded"})])
    before = regrades.of_episode(eid)
    columns = "regrade_id, episode_id, grader_version, recorded_score, new_score, report, created_at"
    rewritten = (f"({columns}) SELECT regrade_id, episode_id, grader_version, recorded_score, 1.0, "
                 f"report, created_at FROM regrades WHERE episode_id = '{eid}'")
    statement = (f"INSERT OR REPLACE INTO regrades {rewritten}" if db.dialect == "sqlite" else
                 f"INSERT INTO regrades {rewritten} ON CONFLICT (regrade_id) DO UPDATE SET new_score = 1.0")
    with pytest.raises(DBAPIError, match="append-only"):
        _execute(db, statement)
    assert regrades.of_episode(eid) == before


def test_postgresql_refuses_truncate(store: EventStore, db: Database, eid: str) -> None:
    if db.dialect == "sqlite":
        pytest.skip("SQLite has no TRUNCATE (DELETE FROM events is covered above)")
    _open(store, eid)
    total = store.count_events()
    with pytest.raises(DBAPIError, match="immutable"):
        _execute(db, "TRUNCATE events CASCADE")
    assert store.count_events() == total


# --------------------------------------------------------------------------- tampering
def _drop_immutability(db: Database) -> None:
    """What an attacker with database access does first."""
    if db.dialect == "sqlite":
        _execute(db, "DROP TRIGGER IF EXISTS events_no_update")
    else:
        _execute(db, "DROP TRIGGER IF EXISTS events_no_update_delete ON events")


def _flip(data: str, how: str) -> str:
    """Change one byte: in a string value or a key (still JSON), or a structural one (not JSON)."""
    if how == "value":
        index = data.index('":"') + 3
    elif how == "key":
        index = 2  # the first key's first letter: {"episode_id": ... -> {"xpisode_id": ...
    else:
        index = len(data) - 1  # the closing brace
    replacement = {"}": "]", "x": "y"}.get(data[index], "x")
    return data[:index] + replacement + data[index + 1:]


def _played(db: Database) -> tuple[EnvironmentService, str]:
    service = EnvironmentService(db)
    task = service.catalog.instance("task_hard_refund_policy_denial")
    results = play(service, task.task_id, solution(task))
    return service, results[0].episode_id


@pytest.mark.parametrize(("where", "how"), [
    ("first", "value"), ("first", "key"), ("first", "structure"),
    ("middle", "value"), ("middle", "key"), ("middle", "structure"), ("last", "value"),
])
def test_one_flipped_byte_is_detected_at_exactly_its_sequence(tamper_db: Database, where: str,
                                                              how: str) -> None:
    service, episode_id = _played(tamper_db)
    recorded = service.load_events(episode_id)
    assert replay(recorded, service.catalog).consistent
    target = {"first": 1, "middle": len(recorded) // 2, "last": len(recorded)}[where]
    original = recorded[target - 1].data_text
    tampered = _flip(original, how)
    assert len(tampered) == len(original)
    assert sum(a != b for a, b in zip(tampered, original, strict=True)) == 1
    _drop_immutability(tamper_db)
    with tamper_db.write() as conn:
        conn.execute(text("UPDATE events SET data = :d WHERE episode_id = :e AND seq = :s"),
                     {"d": tampered, "e": episode_id, "s": target})
    report = replay(service.store.load(episode_id), default_catalog())
    assert not report.consistent and not report.chain_ok
    first = report.first_divergence
    assert first is not None and first.kind == "chain"
    assert first.seq == target, first.message
    assert f"event {target} " in first.message


def test_a_rewritten_chain_is_caught_by_the_published_head(tamper_db: Database) -> None:
    """Rehashing everything after the change hides it from the chain, but not from a head kept
    outside the database: the published head no longer matches."""
    service, episode_id = _played(tamper_db)
    published = service.store.head(episode_id)[1]
    recorded = service.load_events(episode_id)
    assert replay(recorded, service.catalog).head_hash == published
    _drop_immutability(tamper_db)
    prev = GENESIS
    with tamper_db.write() as conn:
        for r in recorded:
            data = r.data_text.replace("Best regards", "Best wishes")
            digest = link(prev, r.seq, r.type, r.version, data)
            conn.execute(text("UPDATE events SET data = :d, prev_hash = :p, hash = :h "
                              "WHERE episode_id = :e AND seq = :s"),
                         {"d": data, "p": prev, "h": digest, "e": episode_id, "s": r.seq})
            prev = digest
    report = replay(service.store.load(episode_id), service.catalog)
    assert report.chain_ok
    assert report.head_hash != published


# --------------------------------------------------------------------------- concurrent writers
ROUNDS = 4


def _race_rounds(store: EventStore, episode_id: str, me: int, barrier: Any, rounds: int) -> list[bool]:
    """Every writer reads the head, waits for the others, then appends after that head."""
    won = []
    for _ in range(rounds):
        seq, head = store.head(episode_id)
        barrier.wait(timeout=60)
        try:
            store.append(episode_id, seq, head, [_event(me), _event(me)], Projection("open", seq, 0.0))
            won.append(True)
        except Conflict:
            won.append(False)
        barrier.wait(timeout=60)  # nobody reads the next head before every append has finished
    return won


def _check_race(store: EventStore, episode_id: str, wins: list[list[bool]]) -> None:
    for round_index in range(ROUNDS):
        assert sum(w[round_index] for w in wins) == 1, f"round {round_index}: {wins}"
    loaded = store.load(episode_id)
    assert [r.seq for r in loaded] == list(range(1, 2 + 2 * ROUNDS))  # no gaps, no duplicates
    assert verify_chain(loaded) is None
    for first, second in zip(loaded[1::2], loaded[2::2], strict=True):
        assert first.data == second.data  # a step's events are never interleaved with another's
    assert store.head(episode_id) == (loaded[-1].seq, loaded[-1].hash)


def test_concurrent_appends_from_threads_one_winner_per_position(store: EventStore, eid: str) -> None:
    _open(store, eid)
    writers = 6
    barrier = threading.Barrier(writers)
    wins: list[list[bool]] = [[] for _ in range(writers)]
    errors: list[BaseException] = []

    def run(me: int) -> None:
        try:
            wins[me] = _race_rounds(store, eid, me, barrier, ROUNDS)
        except BaseException as exc:  # surfaced below; a dead thread would hang the barrier
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    _check_race(store, eid, wins)


def _process_writer(url: str, episode_id: str, me: int, barrier: Any, results: Any) -> None:
    database = open_database(url, migrate_schema=False)
    try:
        results.put((me, _race_rounds(EventStore(database), episode_id, me, barrier, ROUNDS)))
    except BaseException as exc:
        barrier.abort()
        results.put((me, repr(exc)))
    finally:
        database.dispose()


def test_concurrent_appends_from_processes_one_winner_per_position(store: EventStore, eid: str,
                                                                   db: Database) -> None:
    _open(store, eid)
    writers = 3
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(writers)
    results = ctx.Queue()
    url = db.engine.url.render_as_string(hide_password=False)
    procs = [ctx.Process(target=_process_writer, args=(url, eid, i, barrier, results))
             for i in range(writers)]
    for p in procs:
        p.start()
    collected = dict(results.get(timeout=120) for _ in procs)
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    failed = {k: v for k, v in collected.items() if isinstance(v, str)}
    assert not failed, failed
    _check_race(store, eid, [collected[i] for i in range(writers)])
