"""Concurrent steps through the environment service, with the overlap forced, never left to luck.

Two steps on one episode at once in one process give exactly one success and one EpisodeBusy (409)
(the per-episode guard). Across two service instances sharing a database, as two server workers
do, the store's optimistic concurrency catches a step decided on a stale cache: it is decided once
more on the log's state, and refused (409) only if it loses again. Many episodes stepped from many threads
stay consistent.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from service import EnvironmentService, EpisodeBusy, EpisodeEnded
from service.gold import gold
from service.replay import replay, verify_chain
from store import Database
from tests.play import play

NOOP = {"action_type": "noop"}
TIMEOUT = 60


def _outcome(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except (EpisodeBusy, EpisodeEnded) as exc:
        return exc


def _assert_one_step_recorded(service: EnvironmentService, episode_id: str, reset_seq: int) -> None:
    recorded = service.load_events(episode_id)
    assert verify_chain(recorded) is None
    assert [r.seq for r in recorded] == list(range(1, len(recorded) + 1))
    assert sum(1 for r in recorded if r.type == "ActionReceived") == 1
    assert replay(recorded, service.catalog).consistent
    assert recorded[reset_seq].data["step"] == 1


def test_two_steps_in_one_process_one_success_one_busy(db: Database,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    service = EnvironmentService(db)
    reset = service.reset("task_easy_password")
    inside, release = threading.Event(), threading.Event()
    real_append = service.store.append

    def slow_append(*args: Any, **kwargs: Any) -> Any:
        inside.set()
        assert release.wait(TIMEOUT)
        return real_append(*args, **kwargs)

    monkeypatch.setattr(service.store, "append", slow_append)
    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(service.step, reset.episode_id,
                            {"action_type": "classify_priority", "priority": "medium"})
        assert inside.wait(TIMEOUT)  # the first step is between decide and append
        second = _outcome(lambda: service.step(reset.episode_id, NOOP))
        release.set()
        first_result = first.result(TIMEOUT)
    assert isinstance(second, EpisodeBusy) and second.status == 409
    assert "in progress" in str(second)
    assert first_result.state.priority == "medium"
    monkeypatch.undo()
    _assert_one_step_recorded(service, reset.episode_id, reset.seq)
    assert service.step(reset.episode_id, NOOP).state.step_count == 2  # not stuck busy


def _gate_first_append(monkeypatch: pytest.MonkeyPatch, worker: EnvironmentService,
                       gate: Callable[[], Any]) -> None:
    """``worker``'s first append waits for ``gate()``; later ones go straight through."""
    real_append = worker.store.append
    calls: list[int] = []

    def gated(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            gate()
        return real_append(*args, **kwargs)

    monkeypatch.setattr(worker.store, "append", gated)


def test_two_workers_on_one_database_both_decided_on_one_head(db: Database,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Both workers decide on the same cached head; only then may either append. The loser's
    append writes nothing (the conditional append sees the head moved), and it decides once more
    on the log's state: both steps are recorded, in order, each exactly once."""
    workers = [EnvironmentService(db), EnvironmentService(db)]
    reset = workers[0].reset("task_medium_double_charge")
    for worker in workers:
        worker.state(reset.episode_id)  # both have the episode cached at the same head
    both_decided = threading.Barrier(2)
    for worker in workers:
        _gate_first_append(monkeypatch, worker, lambda: both_decided.wait(TIMEOUT))
    actions = [{"action_type": "classify_priority", "priority": "high"},
               {"action_type": "assign_queue", "queue": "billing"}]
    with ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(_outcome, lambda w=w, a=a: w.step(reset.episode_id, a))
                   for w, a in zip(workers, actions, strict=True)]
        outcomes = [f.result(TIMEOUT) for f in futures]
    assert not any(isinstance(o, Exception) for o in outcomes), outcomes
    assert sorted(o.state.step_count for o in outcomes) == [1, 2]
    monkeypatch.undo()
    recorded = workers[0].load_events(reset.episode_id)
    assert verify_chain(recorded) is None
    assert [r.seq for r in recorded] == list(range(1, len(recorded) + 1))
    assert [r.data["step"] for r in recorded if r.type == "ActionReceived"] == [1, 2]
    assert replay(recorded, workers[0].catalog).consistent
    last = max(outcomes, key=lambda o: o.state.step_count)
    assert last.state.priority == "high" and last.state.queue == "billing"  # on top of the winner
    assert last.state == EnvironmentService(db).state(reset.episode_id)
    for worker in workers:  # each carries on from the log, whichever step it saw last
        assert worker.step(reset.episode_id, NOOP).state.step_count in (3, 4)


def test_a_step_that_loses_twice_is_refused_and_writes_nothing(db: Database,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker whose stale cache made it decide again loses again (another worker appended in
    between): 409 "moved on", nothing of it written, and the next step carries on from the log."""
    slow, fast = EnvironmentService(db), EnvironmentService(db)
    reset = slow.reset("task_easy_password")
    fast.state(reset.episode_id)
    fast.step(reset.episode_id, NOOP)  # slow's cache is now stale
    real_append = slow.store.append
    calls: list[int] = []

    def overtaken(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:  # slow's second try: fast steps first
            fast.step(reset.episode_id, NOOP)
        return real_append(*args, **kwargs)

    monkeypatch.setattr(slow.store, "append", overtaken)
    refused = _outcome(lambda: slow.step(reset.episode_id, {"action_type": "classify_priority",
                                                            "priority": "low"}))
    assert len(calls) == 2
    assert isinstance(refused, EpisodeBusy) and refused.status == 409 and "moved on" in str(refused)
    monkeypatch.undo()
    recorded = slow.load_events(reset.episode_id)
    assert verify_chain(recorded) is None
    assert [r.data["step"] for r in recorded if r.type == "ActionReceived"] == [1, 2]
    after = slow.step(reset.episode_id, NOOP)
    assert after.state.step_count == 3 and after.state.priority is None


def test_many_episodes_from_many_threads(db: Database) -> None:
    service = EnvironmentService(db)
    jobs = [(task_id, seed) for task_id in service.catalog.task_ids for seed in (1, 2)]

    def run(job: tuple[str, int]) -> tuple[str, float]:
        task = service.catalog.instance(*job)
        results = play(service, task.task_id, gold(task), seed=job[1])
        return results[0].episode_id, results[-1].state.score

    with ThreadPoolExecutor(8) as pool:
        finished = list(pool.map(run, jobs))
    assert [score for _, score in finished] == [1.0] * len(jobs)
    for episode_id, _ in finished:
        report = replay(service.load_events(episode_id), service.catalog)
        assert report.consistent and report.recomputed_score == 1.0


def test_threads_hammering_one_episode_never_leave_a_gap(db: Database) -> None:
    """Busy answers are fine; every accepted step is in the log exactly once, in order."""
    services = [EnvironmentService(db) for _ in range(2)]
    reset = services[0].reset("task_hard_gdpr_deletion")
    start = threading.Barrier(6)

    def hammer(index: int) -> list[int]:
        service = services[index % 2]
        accepted = []
        start.wait(TIMEOUT)
        for attempt in range(10):
            note = {"action_type": "add_internal_note", "note": f"w{index} a{attempt}"}
            outcome = _outcome(lambda note=note: service.step(reset.episode_id, note))
            if isinstance(outcome, EpisodeEnded):
                break
            if not isinstance(outcome, EpisodeBusy):
                accepted.append(outcome.state.step_count)
        return accepted

    with ThreadPoolExecutor(6) as pool:
        accepted = [n for steps in pool.map(hammer, range(6)) for n in steps]
    state = EnvironmentService(db).state(reset.episode_id)
    assert sorted(accepted) == list(range(1, state.step_count + 1))  # each step won by one writer
    assert state.step_count == state.task.max_steps and state.done
    recorded = services[0].load_events(reset.episode_id)
    assert [r.seq for r in recorded] == list(range(1, len(recorded) + 1))
    assert replay(recorded, services[0].catalog).consistent
