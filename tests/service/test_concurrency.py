"""Concurrent steps through the environment service, with the overlap forced, never left to luck.

Two steps on one episode give exactly one success and one EpisodeBusy (409): in one process (the
per-episode guard) and across two service instances sharing a database, as two server workers do
(the store's optimistic concurrency). Many episodes stepped from many threads stay consistent.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bench.scripted import solution
from service import EnvironmentService, EpisodeBusy, EpisodeEnded
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


def test_two_workers_on_one_database_one_success_one_busy(db: Database,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Both workers read the same head and decide; only then may either append."""
    workers = [EnvironmentService(db), EnvironmentService(db)]
    reset = workers[0].reset("task_medium_double_charge")
    for worker in workers:
        worker.state(reset.episode_id)  # both have the episode cached at the same head
    both_decided = threading.Barrier(2)
    for worker in workers:
        real_append = worker.store.append

        def gated(*args: Any, _real: Any = real_append, **kwargs: Any) -> Any:
            both_decided.wait(TIMEOUT)
            return _real(*args, **kwargs)

        monkeypatch.setattr(worker.store, "append", gated)
    actions = [{"action_type": "classify_priority", "priority": "high"},
               {"action_type": "assign_queue", "queue": "billing"}]
    with ThreadPoolExecutor(2) as pool:
        futures = [pool.submit(_outcome, lambda w=w, a=a: w.step(reset.episode_id, a))
                   for w, a in zip(workers, actions, strict=True)]
        outcomes = [f.result(TIMEOUT) for f in futures]
    busy = [o for o in outcomes if isinstance(o, EpisodeBusy)]
    won = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(busy) == 1 and len(won) == 1, outcomes
    assert busy[0].status == 409 and "moved on" in str(busy[0])
    monkeypatch.undo()
    _assert_one_step_recorded(workers[0], reset.episode_id, reset.seq)
    # The loser refreshes from the log and carries on from the winner's step.
    loser = workers[outcomes.index(busy[0])]
    after = loser.step(reset.episode_id, NOOP)
    assert after.state.step_count == 2
    assert after.state == EnvironmentService(db).state(reset.episode_id)


def test_many_episodes_from_many_threads(db: Database) -> None:
    service = EnvironmentService(db)
    jobs = [(task_id, seed) for task_id in service.catalog.task_ids for seed in (1, 2)]

    def run(job: tuple[str, int]) -> tuple[str, float]:
        task = service.catalog.instance(*job)
        results = play(service, task.task_id, solution(task), seed=job[1])
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
