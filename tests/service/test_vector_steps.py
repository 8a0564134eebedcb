"""``reset_many`` / ``step_many``: a batch of episodes stepped together, one commit per batch.

The batch must be indistinguishable in the log from the same steps taken one at a time (same
events, chains and scores), each item's failure must be its own (nothing of it written, the others
recorded), and the batch must really be one transaction.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.actions import InvalidAction
from domain.tasks.catalog import UnknownTask
from service import EnvironmentService, EpisodeBusy, EpisodeEnded, EpisodeNotFound
from service.gold import gold
from store import open_database
from tests.play import log_facts, play

NOOP = {"action_type": "noop"}



@pytest.fixture
def url(request: pytest.FixtureRequest) -> str:
    return request.getfixturevalue("module_database_url")  # type: ignore[no-any-return]


def _vector_play(service: EnvironmentService, plans: list[tuple[str, int | None, list[Any]]]) -> list[str]:
    """Play every plan side by side, one ``step_many`` per round; returns the episode ids."""
    opened = service.reset_many([(task_id, seed) for task_id, seed, _ in plans])
    ids = [r.episode_id for r in opened]  # type: ignore[union-attr]
    cursors = [iter(actions) for _, _, actions in plans]
    live = set(range(len(plans)))
    while live:
        batch = [(i, next(cursors[i], None)) for i in sorted(live)]
        batch = [(i, a) for i, a in batch if a is not None]
        live = {i for i, _ in batch}
        if not batch:
            break
        results = service.step_many([(ids[i], a) for i, a in batch])
        for (i, _), result in zip(batch, results, strict=True):
            assert not isinstance(result, Exception), result
            if result.done:
                live.discard(i)
    return ids


def _facts(service: EnvironmentService, episode_id: str) -> list[tuple[object, ...]]:
    """Each step's events as stored, without the episode id (in the opening event, so in every hash)."""
    return [facts[:4] for facts in log_facts(service.load_events(episode_id))[1:]]


def test_a_batch_records_what_one_step_at_a_time_records(service: EnvironmentService) -> None:
    catalog = service.catalog
    plans = [(t, s, list(gold(catalog.instance(t, s)))) for t in catalog.task_ids for s in (None, 7)]
    ids = _vector_play(service, plans)
    for episode_id, (task_id, seed, actions) in zip(ids, plans, strict=True):
        single = play(service, task_id, actions, seed=seed)
        assert _facts(service, episode_id) == _facts(service, single[0].episode_id)
        assert service.state(episode_id).score == single[-1].state.score == 1.0


def test_each_item_fails_alone_and_writes_nothing(service: EnvironmentService) -> None:
    good, busy = (service.reset("task_easy_password").episode_id for _ in range(2))
    task = service.catalog.instance("task_easy_password", None)
    ended = play(service, task.task_id, gold(task))[0].episode_id
    assert service.state(ended).done
    heads = {eid: service.head(eid) for eid in (good, ended, busy)}
    results = service.step_many([
        (good, {"action_type": "classify_priority", "priority": "medium"}),
        (ended, NOOP),
        ("ep_does_not_exist", NOOP),
        (busy, {"action_type": "fly"}),
        (good, NOOP),  # the same episode twice in one batch
    ])
    assert results[0].state.priority == "medium"  # type: ignore[union-attr]
    assert isinstance(results[1], EpisodeEnded)
    assert isinstance(results[2], EpisodeNotFound)
    assert isinstance(results[3], InvalidAction)
    assert isinstance(results[4], EpisodeBusy)
    assert service.head(ended) == heads[ended] and service.head(busy) == heads[busy]
    assert service.head(good)[0] > heads[good][0]
    assert service.step(good, NOOP).state.step_count == 2  # nothing left claimed


def test_a_lost_race_inside_a_batch_is_decided_again_on_the_log(url: str) -> None:
    """Another service (another worker) moves one episode on between this one's decision (on its
    cached state, as :meth:`step` decides) and its write: the batch writes the others, and the
    stale step is decided once more on the log's state and recorded, as ``step`` does."""
    db = open_database(url)
    try:
        mine, other = EnvironmentService(db), EnvironmentService(db)
        a, b = (mine.reset("task_easy_password").episode_id for _ in range(2))
        for eid in (a, b):
            mine.step(eid, NOOP)  # cache both episodes in `mine`
        real = mine.store.append_many
        calls: list[int] = []

        def racing(appends):  # type: ignore[no-untyped-def]
            calls.append(len(appends))
            if len(calls) == 1:
                other.step(b, NOOP)  # lands after `mine` decided from its cached head
            return real(appends)

        mine.store.append_many = racing  # type: ignore[method-assign]
        results = mine.step_many([(a, NOOP), (b, NOOP)])
        assert calls == [2, 1]  # the batch, then the stale step alone
        assert results[0].state.step_count == 2  # type: ignore[union-attr]
        assert results[1].state.step_count == 3  # type: ignore[union-attr]  # on top of other's
        assert [r.data["step"] for r in mine.load_events(b) if r.type == "ActionReceived"] == [1, 2, 3]
        assert results[1].state == EnvironmentService(db).state(b)  # type: ignore[union-attr]
        fresh = EnvironmentService(db)  # caches nothing: reads both heads, then the log
        again = fresh.step_many([(a, NOOP), (b, NOOP)])
        assert [r.state.step_count for r in again] == [3, 4]  # type: ignore[union-attr]
    finally:
        db.dispose()


def test_a_batch_step_that_loses_twice_is_that_item_only(url: str) -> None:
    """A stale step decided again loses again (another worker appended in between once more):
    409 for that item only, nothing of it written, the rest of the batch recorded."""
    db = open_database(url)
    try:
        mine, other = EnvironmentService(db), EnvironmentService(db)
        a, b = (mine.reset("task_easy_password").episode_id for _ in range(2))
        for eid in (a, b):
            mine.step(eid, NOOP)
        real = mine.store.append_many

        def racing(appends):  # type: ignore[no-untyped-def]
            other.step(b, NOOP)  # before every write of `mine`
            return real(appends)

        mine.store.append_many = racing  # type: ignore[method-assign]
        results = mine.step_many([(a, NOOP), (b, NOOP)])
        assert results[0].state.step_count == 2  # type: ignore[union-attr]
        assert isinstance(results[1], EpisodeBusy) and "moved on" in str(results[1])
        assert [r.data["step"] for r in mine.load_events(b) if r.type == "ActionReceived"] == [1, 2, 3]
        mine.store.append_many = real  # type: ignore[method-assign]
        assert mine.step(b, NOOP).state.step_count == 4  # refreshed from the log
    finally:
        db.dispose()


def test_a_batch_is_one_transaction(tmp_path: Any) -> None:
    """One write transaction (BEGIN IMMEDIATE ... COMMIT) for a whole batch of resets and one for a
    batch of steps (SQLite's statement trace; reads are deferred transactions of their own), and
    every event of a batch carries that transaction's one timestamp."""
    from sqlalchemy import event

    db = open_database(f"sqlite:///{tmp_path / 'one.db'}")
    try:
        service = EnvironmentService(db)
        statements: list[str] = []
        event.listen(db.engine, "checkout",
                     lambda dbapi_conn, _record, _proxy: dbapi_conn.set_trace_callback(statements.append))
        opened = service.reset_many([("task_easy_password", None), ("task_medium_double_charge", 3),
                                     (None, 11)])
        ids = [r.episode_id for r in opened]  # type: ignore[union-attr]
        service.step_many([(eid, NOOP) for eid in ids])
        ends = [s for s in statements if s.split()[0] in ("BEGIN", "COMMIT", "ROLLBACK")]
        transactions = list(zip(ends[::2], ends[1::2], strict=True))
        assert all(end == "COMMIT" for _, end in transactions), transactions
        assert [begin for begin, _ in transactions if begin != "BEGIN DEFERRED"] == ["BEGIN IMMEDIATE"] * 2
        stamps = {r.recorded_at for eid in ids for r in service.load_events(eid)[-2:]}
        assert len(stamps) == 1
        assert len({service.load_events(eid)[0].recorded_at for eid in ids}) == 1
    finally:
        db.dispose()


def test_reset_many_reports_bad_items_and_opens_the_rest(service: EnvironmentService) -> None:
    results = service.reset_many([("task_easy_password", 1), ("no_such_task", None),
                                         ("task_easy_password", "x"), (None, 5)])  # type: ignore[list-item]
    assert isinstance(results[1], UnknownTask)
    assert isinstance(results[2], Exception) and "seed" in str(results[2])
    for result in (results[0], results[3]):
        assert not isinstance(result, Exception)
        assert service.load_events(result.episode_id)[0].type == "EpisodeStarted"


def test_a_taken_id_in_a_create_batch_fails_alone(service: EnvironmentService) -> None:
    from store.eventstore import Conflict, Create, NewEvent, Projection

    store = service.store
    taken = service.reset("task_easy_password").episode_id
    fresh = "ep_batch_fresh_1"
    first = NewEvent("EpisodeStarted", 1, {"n": 1})
    results = store.create_many([Create(fresh, "t", None, (first,), Projection("open", 0, 0.0)),
                                 Create(taken, "t", None, (first,), Projection("open", 0, 0.0))])
    assert isinstance(results[1], Conflict)
    assert [r.seq for r in store.load(fresh)] == [1]
    assert store.load(taken)[0].data["task"]["task_id"] == "task_easy_password"


@pytest.mark.parametrize("size", [0, 1])
def test_empty_and_single_batches(service: EnvironmentService, size: int) -> None:
    opened = service.reset_many([("task_easy_password", None)] * size)
    assert len(opened) == size
    stepped = service.step_many([(r.episode_id, NOOP) for r in opened])  # type: ignore[union-attr]
    assert len(stepped) == size
    for result in stepped:
        assert not isinstance(result, Exception), result
        assert result.state.step_count == 1 and result.seq == service.head(result.episode_id)[0]
