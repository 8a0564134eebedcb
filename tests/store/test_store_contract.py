"""The event log's contract (``store.protocol.EventLog``), written once and run on every backend in
every run: an SQLite file, PostgreSQL and the in-memory store (``store.memory``).

Hash-chained streams, optimistic concurrency on (episode, seq), all-or-nothing appends and batches,
the index row each append moves, the same errors for the same faults, and concurrent writers from
threads. What only a database does (its triggers, its unique key, writers in other processes, its
connections) is in ``test_sql_store.py`` and ``test_store_step_path.py``.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from itertools import pairwise

import pytest

from service.replay import verify_chain
from store import Conflict, NotFound
from store.chain import CHAIN_FORMAT, GENESIS, link
from store.eventstore import EventStore
from store.memory import MemoryEventStore
from store.protocol import EventLog
from store.records import Append, Create, NewEvent, Projection
from tests.databases import sqlite_pass_only
from tests.play import module_database
from tests.store.streams import (
    OPEN,
    ROUNDS,
    check_race,
    event,
    fresh_id,
    open_stream,
    race_rounds,
    row,
)

pytestmark = sqlite_pass_only("the store fixture runs every test on every backend")


@pytest.fixture(scope="module", params=["sqlite", "postgres", "memory"])
def store(request: pytest.FixtureRequest,
          tmp_path_factory: pytest.TempPathFactory) -> Iterator[EventLog]:
    """One log per backend for the module (a database is created once); each test opens
    episodes of its own (:func:`fresh_id`)."""
    if request.param == "memory":
        yield MemoryEventStore()
        return
    for db in module_database(request.param, tmp_path_factory):
        yield EventStore(db)


@pytest.fixture
def eid() -> str:
    return fresh_id()


# --------------------------------------------------------------------------- streams
def test_appends_extend_one_hash_chained_stream(store: EventLog, eid: str) -> None:
    seq, head = open_stream(store, eid)
    for step in range(1, 4):
        recorded = store.append(eid, seq, head, [event(step), event(step)],
                                Projection("open", step, 0.0))
        seq, head = recorded[-1].seq, recorded[-1].hash
    loaded = store.load(eid)
    assert [r.seq for r in loaded] == list(range(1, 8))
    assert loaded[0].prev_hash == GENESIS
    assert verify_chain(loaded) is None
    assert store.head(eid) == (7, loaded[-1].hash)
    assert row(store, eid)[3] == 3
    assert [r.seq for r in store.load(eid, after_seq=3, upto_seq=5)] == [4, 5]
    assert [r.seq for r in store.load(eid, after_seq=6)] == [7]
    assert store.load(eid, after_seq=7) == [] and store.load(eid, after_seq=5, upto_seq=5) == []
    assert {r.chain_format for r in loaded} == {CHAIN_FORMAT}
    positions = [r.position for r in loaded]
    assert all(p is not None for p in positions) and positions == sorted(set(positions))  # type: ignore[type-var]


def test_a_stream_is_stored_and_hashed_as_the_chain_format_says(store: EventLog, eid: str) -> None:
    """The text is canonical JSON and each hash links the one before: the same events give the
    same chain on every backend (the episode id and the time are not in it)."""
    recorded = store.create(eid, "task_easy_password", 7,
                            [NewEvent("EpisodeStarted", 1, {"b": [1, 2.5], "a": "é"}),
                             NewEvent("ActionReceived", 2, {"z": None})], OPEN)
    first, second = store.load(eid)
    assert (first.data_text, second.data_text) == ('{"a":"é","b":[1,2.5]}', '{"z":null}')
    assert first.hash == link(GENESIS, 1, "EpisodeStarted", 1, first.data_text)
    assert second.prev_hash == first.hash
    assert second.hash == link(first.hash, 2, "ActionReceived", 2, second.data_text)
    text = f"{GENESIS}|1|EpisodeStarted|1|{first.data_text}"
    assert first.hash == hashlib.sha256(text.encode()).hexdigest()  # chain format 1, spelled out
    assert [(r.seq, r.hash) for r in recorded] == [(r.seq, r.hash) for r in (first, second)]
    assert (first.data, second.data) == ({"a": "é", "b": [1, 2.5]}, {"z": None})


def test_the_index_row_is_what_the_appends_projected(store: EventLog, eid: str) -> None:
    store.create(eid, "task_hard_gdpr_deletion", -5, [event(0)], OPEN, run_id="run_x",
                 forked_from="ep_origin", fork_step=2)
    created = store.episode(eid)
    assert (created.episode_id, created.task_id, created.seed, created.run_id, created.forked_from,
            created.fork_step) == (eid, "task_hard_gdpr_deletion", -5, "run_x", "ep_origin", 2)
    assert (created.status, created.step_count, created.score, created.last_seq,
            created.chain_format) == ("open", 0, 0.0, 1, CHAIN_FORMAT)
    moved = store.append(eid, 1, created.head_hash, [event(1), event(2)], Projection("ended", 1, 0.75))
    after = store.episode(eid)
    assert (after.status, after.step_count, after.score, after.last_seq, after.head_hash) == (
        "ended", 1, 0.75, 3, moved[-1].hash)
    assert after.created_at == created.created_at <= after.updated_at


def test_an_unknown_episode_is_not_found_and_cannot_be_appended_to(store: EventLog) -> None:
    missing = fresh_id()
    with pytest.raises(NotFound):
        store.head(missing)
    with pytest.raises(NotFound):
        store.episode(missing)
    assert store.load(missing) == []
    total = store.count_events()
    with pytest.raises(Conflict):  # no index row: nothing to move
        store.append(missing, 0, GENESIS, [event(1)], Projection("open", 1, 0.0))
    assert store.count_events() == total
    with pytest.raises(NotFound):
        store.head(missing)


def test_heads_and_load_many_answer_for_several_episodes(store: EventLog) -> None:
    a, b, c, missing = fresh_id(), fresh_id(), fresh_id(), fresh_id()
    for e in (a, b, c):
        seq, head = open_stream(store, e)
        store.append(e, seq, head, [NewEvent("ActionReceived", 1, {"e": e}),
                                    NewEvent("StepGraded", 1, {"e": e})], Projection("open", 1, 0.0))
    assert store.heads([c, a, missing, a]) == {c: store.head(c), a: store.head(a)}
    assert store.heads([]) == {}
    many = store.load_many([c, a, missing])
    assert list(many) == [c, a, missing]
    assert many[c] == store.load(c) and many[a] == store.load(a)
    assert many[missing] == [] and store.load_many([]) == {}


# --------------------------------------------------------------------------- conflicts
def test_a_taken_episode_id_is_a_conflict(store: EventLog, eid: str) -> None:
    open_stream(store, eid)
    with pytest.raises(Conflict, match="already in use"):
        open_stream(store, eid)
    assert len(store.load(eid)) == 1


def test_a_batch_of_creates_refuses_only_the_taken_ids(store: EventLog) -> None:
    taken, fresh, twice = fresh_id(), fresh_id(), fresh_id()
    open_stream(store, taken)
    before = store.load(taken)
    results = store.create_many([Create(e, "task_easy_password", None, (event(n),), OPEN)
                                 for n, e in enumerate((fresh, taken, twice, twice))])
    assert [isinstance(r, Conflict) for r in results] == [False, True, False, True]
    assert store.load(taken) == before
    assert [r.data for r in store.load(fresh)] == [{"n": 0}]
    assert [r.data for r in store.load(twice)] == [{"n": 2}]  # the first of the two
    assert store.create_many([]) == []


def test_a_duplicate_sequence_number_is_a_conflict_and_writes_nothing(store: EventLog, eid: str) -> None:
    seq, head = open_stream(store, eid)
    store.append(eid, seq, head, [event(1)], Projection("open", 1, 0.0))
    before_row, before_events, total = row(store, eid), store.load(eid), store.count_events()
    with pytest.raises(Conflict, match="moved on"):
        store.append(eid, seq, head, [event(2), event(3)], Projection("open", 1, 0.5))
    assert row(store, eid) == before_row
    assert store.load(eid) == before_events and store.count_events() == total
    s, h = store.head(eid)  # the store goes on: the head that is there can be followed
    store.append(eid, s, h, [event(2)], Projection("open", 2, 0.0))
    assert store.head(eid)[0] == s + 1


def test_a_batch_moves_the_episodes_at_their_head_and_writes_nothing_for_a_stale_one(
        store: EventLog, eid: str) -> None:
    """``append_many`` (a group commit): each append is conditional on its own head (a batch that
    lost one race writes the others), and a status change is recorded, whether or not the appends
    say which status they expect."""
    a, b, c = f"{eid}a", f"{eid}b", f"{eid}c"
    heads = {e: open_stream(store, e) for e in (a, b, c)}
    store.append(b, *heads[b], [event(1)], OPEN)  # b moves on before the batch
    results = store.append_many([
        Append(a, *heads[a], [event(1)], Projection("open", 1, 0.5)),
        Append(b, *heads[b], [event(1)], OPEN),
        Append(c, *heads[c], [event(1), event(2)], Projection("ended", 1, 1.0)),
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
    twice = store.append_many([Append(a, 2, moved_a[-1].hash, [event(3)], OPEN)] * 2)
    assert not isinstance(twice[0], Conflict) and isinstance(twice[1], Conflict)
    assert [r.seq for r in store.load(a)] == [1, 2, 3]
    # the same with the statuses stated: all moved in one go, then one stale among them
    b_head = store.head(b)
    known = store.append_many([
        Append(a, *store.head(a), [event(4)], Projection("ended", 2, 1.0), "open"),
        Append(b, *b_head, [event(2)], OPEN, "open"),
        Append(c, *store.head(c), [event(3)], Projection("ended", 2, 1.0), "ended")])
    assert not any(isinstance(r, Conflict) for r in known)
    assert [store.episode(e).status for e in (a, b, c)] == ["ended", "open", "ended"]
    again = store.append_many([Append(b, *b_head, [event(3)], OPEN, "open"),
                               Append(c, *store.head(c), [event(4)], Projection("open", 3, 0.0),
                                      "ended")])
    assert isinstance(again[0], Conflict) and not isinstance(again[1], Conflict)
    assert [r.seq for r in store.load(b)] == [1, 2, 3] and store.head(c) == (5, again[1][-1].hash)
    assert store.episode(c).status == "open" and verify_chain(store.load(c)) is None
    assert store.append_many([]) == []


def test_status_is_written_when_it_changes_and_kept_when_it_does_not(store: EventLog, eid: str) -> None:
    seq, head = open_stream(store, eid)

    def step(status: str) -> None:
        s, h = store.head(eid)
        store.append(eid, s, h, [NewEvent("ActionReceived", 1, {"s": status})],
                     Projection(status, s, 0.25))

    step("open")
    assert store.episode(eid).status == "open"
    step("ended")
    assert store.episode(eid).status == "ended"
    step("ended")
    assert store.episode(eid).status == "ended" and store.episode(eid).step_count == 3
    with pytest.raises(Conflict):  # a stale head still loses, whichever form of the update runs
        store.append(eid, seq, head, [event(9)], Projection("open", 9, 0.0))
    assert store.episode(eid).status == "ended" and store.head(eid)[0] == 4
    # The caller says which status the row has: the same outcomes.
    for expected, status in (("ended", "ended"), ("ended", "open"), ("open", "open")):
        s, h = store.head(eid)
        store.append(eid, s, h, [event(s)], Projection(status, s, 0.5), expected_status=expected)
        assert store.episode(eid).status == status and store.head(eid)[0] == s + 1
        for stale in ("open", "ended"):
            with pytest.raises(Conflict):
                store.append(eid, s, h, [event(s)], Projection(stale, 9, 0.0), expected_status=status)
    # A caller wrong about the status is still recorded.
    s, h = store.head(eid)
    store.append(eid, s, h, [event(s)], Projection("ended", s, 0.5), expected_status="ended")
    assert store.episode(eid).status == "ended" and store.head(eid)[0] == s + 1 == 8


BAD_EVENTS = {
    "unencodable_payload": NewEvent("ActionReceived", 1, {"raw": object()}),
    "nan_payload": NewEvent("ActionReceived", 1, {"reward": float("nan")}),
    "lone_surrogate": NewEvent("ActionReceived", 1, {"text": "\ud800"}),
    "null_version": NewEvent("ActionReceived", None, {"n": 1}),  # type: ignore[arg-type]
    "null_type": NewEvent(None, 1, {"n": 1}),  # type: ignore[arg-type]
}


@pytest.mark.parametrize("bad", sorted(BAD_EVENTS))
def test_an_append_with_one_bad_event_writes_nothing(store: EventLog, eid: str, bad: str) -> None:
    seq, head = open_stream(store, eid)
    before_row, before_events, total = row(store, eid), store.load(eid), store.count_events()
    batch = [event(1), BAD_EVENTS[bad], event(3)]
    with pytest.raises(Exception):  # noqa: B017 - which error depends on where it is caught
        store.append(eid, seq, head, batch, Projection("ended", 1, 0.5))
    assert row(store, eid) == before_row
    assert store.load(eid) == before_events and store.count_events() == total
    # The store is still healthy: the same position can be written now.
    store.append(eid, seq, head, [event(1)], Projection("open", 1, 0.0))
    assert [r.seq for r in store.load(eid)] == [1, 2]


# --------------------------------------------------------------------------- concurrent writers
def test_concurrent_appends_from_threads_one_winner_per_position(store: EventLog, eid: str) -> None:
    open_stream(store, eid)
    writers = 6
    barrier = threading.Barrier(writers)
    wins: list[list[bool]] = [[] for _ in range(writers)]
    errors: list[BaseException] = []

    def run(me: int) -> None:
        try:
            wins[me] = race_rounds(store, eid, me, barrier, ROUNDS)
        except BaseException as exc:  # surfaced below; a dead thread would hang the barrier
            errors.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors, errors
    check_race(store, eid, wins)


def test_free_running_writers_leave_a_gapless_chain(store: EventLog, eid: str) -> None:
    """Writers that read the head and append as fast as they can, without waiting for each
    other: every append either lands whole right after the head it read or is a conflict."""
    open_stream(store, eid)
    wins: list[int] = []
    barrier = threading.Barrier(6)

    def writer(n: int) -> None:
        barrier.wait()
        for _ in range(15):
            seq, head = store.head(eid)
            try:
                store.append(eid, seq, head, [NewEvent("ActionReceived", 1, {"w": n}),
                                              NewEvent("StepGraded", 1, {"w": n})],
                             Projection("open", 0, 0.0))
                wins.append(n)
            except Conflict:
                pass

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    loaded = store.load(eid)
    assert [r.seq for r in loaded] == list(range(1, len(loaded) + 1))  # no gaps, no duplicates
    assert len(loaded) == 1 + 2 * len(wins)
    for first, second in zip(loaded[1::2], loaded[2::2], strict=True):
        assert first.data["w"] == second.data["w"]  # a winner's two events are adjacent
    for prev, cur in pairwise(loaded):
        assert cur.prev_hash == prev.hash
    assert store.head(eid) == (loaded[-1].seq, loaded[-1].hash)
