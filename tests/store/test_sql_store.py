"""What only a database does for the event log, on an SQLite file and on PostgreSQL in every run.

The contract every backend keeps (in memory too) is ``test_store_contract.py``. Here: the unique
(episode, seq) key behind the conditional append, immutability enforced by the database's triggers,
tamper detection by replay when someone with database access rewrites a row, and writers in other
processes racing on one episode.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from domain.tasks import default_catalog
from service import EnvironmentService
from service.gold import gold
from service.replay import replay
from store import Conflict, Database, open_database
from store.chain import GENESIS, link
from store.eventstore import EventStore, Projection
from tests.databases import sqlite_pass_only
from tests.play import module_database, play
from tests.store.streams import ROUNDS, check_race, event, fresh_id, open_stream, race_rounds

pytestmark = sqlite_pass_only("the backend fixture runs every test on both backends")


@pytest.fixture(scope="module")
def tamper_db(db: Database, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """A database of the same backend as ``db`` that an attacker may damage."""
    yield from module_database("sqlite" if db.dialect == "sqlite" else "postgres", tmp_path_factory)


@pytest.fixture
def store(db: Database) -> EventStore:
    return EventStore(db)


@pytest.fixture
def eid() -> str:
    return fresh_id()


def _execute(db, sql: str) -> None:  # type: ignore[no-untyped-def]
    with db.write() as conn:
        conn.execute(text(sql))


def test_the_unique_key_stops_a_writer_the_index_row_let_through(store: EventStore, db: Database,
                                                                  eid: str) -> None:
    """Even if the index row lagged behind the log, (episode, seq) is unique in the database."""
    seq, head = open_stream(store, eid)
    store.append(eid, seq, head, [event(1)], Projection("open", 1, 0.0))
    _execute(db, f"UPDATE episodes SET last_seq = 1 WHERE episode_id = '{eid}'")
    with pytest.raises(Conflict):
        store.append(eid, 1, head, [event(9)], Projection("open", 9, 0.9))
    assert store.episode(eid).last_seq == 1  # the failed append's index update rolled back
    assert [r.data for r in store.load(eid)] == [{"n": 0}, {"n": 1}]
    with pytest.raises(DBAPIError):
        _execute(db, "INSERT INTO events (episode_id, seq, type, version, data, prev_hash, hash, "
                     f"recorded_at) VALUES ('{eid}', 2, 'X', 1, '{{}}', 'p', 'h', CURRENT_TIMESTAMP)")


# --------------------------------------------------------------------------- immutability
@pytest.mark.parametrize("statement", [
    "UPDATE events SET data = '{{\"n\": 9}}' WHERE episode_id = '{eid}' AND seq = 1",
    "UPDATE events SET seq = seq + 100 WHERE episode_id = '{eid}'",
    "DELETE FROM events WHERE episode_id = '{eid}' AND seq = 2",
    "DELETE FROM events",
])
def test_the_database_refuses_update_and_delete_on_events(store: EventStore, db: Database, eid: str,
                                                          statement: str) -> None:
    seq, head = open_stream(store, eid)
    store.append(eid, seq, head, [event(1)], Projection("open", 1, 0.0))
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
def test_the_database_refuses_an_insert_over_a_storedevent(store: EventStore, db: Database,
                                                            eid: str, kind: str) -> None:
    """No form of INSERT swaps a stored event for another (the position and every column kept)."""
    statement = _OVERWRITES[db.dialect].get(kind)
    if statement is None:
        pytest.skip(f"{db.dialect} has no {kind}")
    seq, head = open_stream(store, eid)
    store.append(eid, seq, head, [event(1)], Projection("open", 1, 0.0))
    before, total = store.load(eid), store.count_events()
    with pytest.raises(DBAPIError, match="immutable"):
        _execute(db, statement.format(eid=eid))
    assert store.load(eid) == before
    assert [r.position for r in store.load(eid)] == [r.position for r in before]
    assert store.count_events() == total


def test_the_database_refuses_an_insert_over_a_stored_regrade(store: EventStore, db: Database,
                                                              eid: str) -> None:
    from store.regrades import NewRegrade, RegradeStore

    open_stream(store, eid)
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
    open_stream(store, eid)
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
    results = play(service, task.task_id, gold(task))
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

def _process_writer(url: str, episode_id: str, me: int, barrier: Any, results: Any) -> None:
    database = open_database(url, migrate_schema=False)
    try:
        results.put((me, race_rounds(EventStore(database), episode_id, me, barrier, ROUNDS)))
    except BaseException as exc:
        barrier.abort()
        results.put((me, repr(exc)))
    finally:
        database.dispose()


@pytest.mark.slow
def test_concurrent_appends_from_processes_one_winner_per_position(store: EventStore, eid: str,
                                                                   db: Database) -> None:
    open_stream(store, eid)
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
    check_race(store, eid, [collected[i] for i in range(writers)])
