"""``api.deps.ServiceThreads``: how the event loop hands the blocking service to its threads.

Each caller gets its own outcome (a result, or the error its call raised); a fault of a whole
batch reaches every step in it; a caller that went away is skipped and the threads go on; the
threads start on first use and stop at the app's shutdown. Nothing is timed: a step is held inside
the service until the test has queued what it needs behind it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.deps import ServiceThreads, runs_at_once, service_threads
from domain.tasks.catalog import UnknownTask
from service import EnvironmentService, EpisodeNotFound, ResetRequest
from service.settings import read
from store import open_database

NOOP = {"action_type": "noop"}


@pytest.fixture
def service(sqlite_url: str) -> Iterator[EnvironmentService]:
    service = EnvironmentService(open_database(sqlite_url))
    yield service
    service.db.dispose()


@pytest.fixture
def threads(service: EnvironmentService) -> Iterator[ServiceThreads]:
    threads = ServiceThreads(service, threads=1)
    yield threads
    threads.close()


class Hold:
    """Makes ``service.step`` wait inside the service (the one thread busy) until released."""

    def __init__(self, service: EnvironmentService, monkeypatch: pytest.MonkeyPatch):
        self.inside, self.release = threading.Event(), threading.Event()
        real = service.step

        def held(episode_id: str, action: Any) -> Any:
            self.inside.set()
            assert self.release.wait(30)
            return real(episode_id, action)

        monkeypatch.setattr(service, "step", held)

    async def entered(self) -> None:
        assert await asyncio.to_thread(self.inside.wait, 30)


def test_calls_return_their_result_or_raise_their_error(threads: ServiceThreads,
                                                        service: EnvironmentService) -> None:
    async def scenario() -> None:
        opened = await threads.call(service.reset, "task_easy_password", seed=3)
        assert opened.state.step_count == 0
        with pytest.raises(EpisodeNotFound):
            await threads.call(service.step, "ep_" + "0" * 32, NOOP)
        with pytest.raises(EpisodeNotFound):
            await threads.step("ep_" + "0" * 32, NOOP)
        assert (await threads.step(opened.episode_id, NOOP)).state.step_count == 1  # still serving

    asyncio.run(scenario())


def test_a_fault_of_a_whole_batch_reaches_every_step_in_it(
        threads: ServiceThreads, service: EnvironmentService,
        monkeypatch: pytest.MonkeyPatch) -> None:
    ids = [service.reset("task_easy_password", seed=n).episode_id for n in range(3)]
    hold = Hold(service, monkeypatch)

    def broken(steps: Any) -> Any:
        raise ConnectionError("the database went away")

    monkeypatch.setattr(service, "step_many", broken)

    async def scenario() -> list[Any]:
        first = asyncio.ensure_future(threads.step(ids[0], NOOP))
        await hold.entered()
        rest = asyncio.gather(*(threads.step(eid, NOOP) for eid in ids[1:]), return_exceptions=True)
        for _ in range(3):
            await asyncio.sleep(0)
        hold.release.set()
        assert (await first).state.step_count == 1
        return await rest

    outcomes = asyncio.run(scenario())
    assert [type(o) for o in outcomes] == [ConnectionError, ConnectionError]


def test_a_caller_that_went_away_is_skipped_and_the_threads_go_on(
        threads: ServiceThreads, service: EnvironmentService,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A cancelled step (its connection closed) is still taken in turn; its outcome goes nowhere,
    the other steps of its batch get theirs, and later calls are served."""
    ids = [service.reset("task_easy_password", seed=n).episode_id for n in range(3)]
    hold = Hold(service, monkeypatch)

    async def scenario() -> None:
        first = asyncio.ensure_future(threads.step(ids[0], NOOP))
        await hold.entered()
        gone = asyncio.ensure_future(threads.step(ids[1], NOOP))
        kept = asyncio.ensure_future(threads.step(ids[2], NOOP))
        for _ in range(3):
            await asyncio.sleep(0)
        gone.cancel()
        hold.release.set()
        assert (await first).state.step_count == 1
        assert (await asyncio.wait_for(kept, 30)).state.step_count == 1
        assert gone.cancelled()
        state = await threads.call(service.step_many, [(ids[1], NOOP)])
        assert state[0].state.step_count == 2  # the cancelled step was applied all the same

    asyncio.run(scenario())


def test_resets_queued_together_are_opened_in_one_batch_beside_the_steps(
        threads: ServiceThreads, service: EnvironmentService,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Resets and steps that queue up behind a busy thread are taken together: the resets in one
    ``reset_many`` (one commit), the steps in one ``step_many``; each caller gets its own
    outcome, and a reset whose check fails gets that error without holding up the others."""
    ids = [service.reset("task_easy_password", seed=n).episode_id for n in range(3)]
    hold = Hold(service, monkeypatch)
    resets: list[int] = []
    real = service.reset_many

    def recording(requests: Any, **kwargs: Any) -> Any:
        resets.append(len(requests))
        return real(requests, **kwargs)

    monkeypatch.setattr(service, "reset_many", recording)

    def refused() -> None:
        raise EpisodeNotFound("no such run")

    async def scenario() -> list[Any]:
        first = asyncio.ensure_future(threads.step(ids[0], NOOP))
        await hold.entered()
        queued = [threads.reset(ResetRequest("task_easy_password", 7)),
                  threads.step(ids[1], NOOP),
                  threads.reset(ResetRequest("task_medium_double_charge", 8), check=refused),
                  threads.reset(ResetRequest("no_such_task")),
                  threads.step(ids[2], NOOP),
                  threads.reset(ResetRequest("task_medium_double_charge", 9))]
        rest = asyncio.gather(*queued, return_exceptions=True)
        for _ in range(3):
            await asyncio.sleep(0)
        hold.release.set()
        assert (await first).state.step_count == 1
        return await rest

    opened, stepped, refused_, unknown, stepped_too, opened_too = asyncio.run(scenario())
    assert resets == [3]  # one batch; the reset its check refused never reached the service
    rows = [service.store.episode(o.episode_id) for o in (opened, opened_too)]  # written
    assert [(r.task_id, r.seed) for r in rows] == [("task_easy_password", 7),
                                                   ("task_medium_double_charge", 9)]
    assert opened.state.step_count == opened_too.state.step_count == 0
    assert isinstance(refused_, EpisodeNotFound)
    assert isinstance(unknown, UnknownTask)
    assert stepped.state.step_count == stepped_too.state.step_count == 1


def test_a_fault_of_the_resets_reaches_only_the_resets_of_the_batch(
        threads: ServiceThreads, service: EnvironmentService,
        monkeypatch: pytest.MonkeyPatch) -> None:
    ids = [service.reset("task_easy_password", seed=n).episode_id for n in range(2)]
    hold = Hold(service, monkeypatch)

    def broken(requests: Any, **kwargs: Any) -> Any:
        raise ConnectionError("the database went away")

    monkeypatch.setattr(service, "reset_many", broken)

    async def scenario() -> list[Any]:
        first = asyncio.ensure_future(threads.step(ids[0], NOOP))
        await hold.entered()
        rest = asyncio.gather(threads.reset(ResetRequest("task_easy_password", 1)),
                              threads.step(ids[1], NOOP),
                              threads.reset(ResetRequest("task_easy_password", 2)),
                              return_exceptions=True)
        for _ in range(3):
            await asyncio.sleep(0)
        hold.release.set()
        assert (await first).state.step_count == 1
        return await rest

    opened, stepped, opened_too = asyncio.run(scenario())
    assert isinstance(opened, ConnectionError) and isinstance(opened_too, ConnectionError)
    assert stepped.state.step_count == 1


def test_the_threads_start_on_first_use_and_stop_at_the_apps_shutdown(sqlite_url: str) -> None:
    def service_threads() -> list[threading.Thread]:
        return [t for t in threading.enumerate() if t.name.startswith("ticketledger-service")]

    before = set(service_threads())
    app = create_app(read({"DATABASE_URL": sqlite_url, "HOST": "127.0.0.1",
                           "TICKETLEDGER_BLOCKING_CALLS": "thread"}))
    assert set(service_threads()) == before  # none made for an app that has served nothing
    with TestClient(app, base_url="http://localhost") as client:
        assert client.post("/reset", json={"task_id": "task_easy_password"}).status_code == 200
        assert client.post("/step", json=NOOP).status_code == 200
        started = set(service_threads()) - before
        assert started and all(t.daemon for t in started)
    assert not any(t.is_alive() for t in started)  # the lifespan's shutdown stopped them
    app.state.environment.service.db.dispose()


def test_one_thread_on_sqlite_four_where_calls_wait_without_the_gil(sqlite_url: str) -> None:
    """``service_threads``: SQLite with no LLM gets one thread; an LLM judge makes it four.
    ``runs_at_once``: an idle SQLite server without an LLM runs calls on the loop, unless told
    ``thread``."""
    service = EnvironmentService(open_database(sqlite_url))
    auto, thread = read({}), read({"TICKETLEDGER_BLOCKING_CALLS": "thread"})
    try:
        assert service_threads(service) == 1
        assert runs_at_once(service, auto) and not runs_at_once(service, thread)
        service.judge = object()  # type: ignore[assignment]  # any configured judge
        assert service_threads(service) == 4
        assert not runs_at_once(service, auto)  # a model's answer never waits on the loop
    finally:
        service.db.dispose()


def test_an_idle_lane_runs_a_call_at_once_on_the_event_loop(service: EnvironmentService,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``at_once``, a reset or step that finds nothing queued or running runs on the event
    loop's own thread; calls that arrive in the same turn of the loop queue for the thread, and
    while the thread is busy every later call queues too, so busy periods still batch."""
    ran: list[tuple[str, str]] = []
    busy, release = threading.Event(), threading.Event()
    real_step, real_many = service.step, service.step_many

    def step(episode_id: str, action: Any) -> Any:
        ran.append(("step", threading.current_thread().name))
        if threading.current_thread().name.startswith("ticketledger-service"):
            busy.set()
            assert release.wait(30)
        return real_step(episode_id, action)

    def step_many(steps: Any) -> Any:
        ran.append((f"step_many {len(steps)}", threading.current_thread().name))
        return real_many(steps)

    monkeypatch.setattr(service, "step", step)
    monkeypatch.setattr(service, "step_many", step_many)
    threads = ServiceThreads(service, threads=1, at_once=True)
    ids = [service.reset("task_easy_password", seed=n).episode_id for n in range(5)]

    async def scenario() -> list[int]:
        opened = await threads.reset(ResetRequest("task_easy_password", 11))
        await asyncio.sleep(0)  # the reset took this turn of the loop: the step waits for the next
        alone = await threads.step(ids[0], NOOP)
        together = [asyncio.ensure_future(threads.step(i, NOOP)) for i in ids[1:3]]
        await asyncio.to_thread(busy.wait, 30)  # the first ran at once, the second is in the thread
        later = [asyncio.ensure_future(threads.step(i, NOOP)) for i in ids[3:]]
        for _ in range(3):
            await asyncio.sleep(0)
        release.set()
        done = [await f for f in together + later]
        return [opened.state.step_count, alone.state.step_count,
                *(r.state.step_count for r in done)]

    try:
        counts = asyncio.run(scenario())
    finally:
        threads.close()
    assert counts == [0, 1, 1, 1, 1, 1]
    here = threading.current_thread().name  # asyncio.run ran the loop in this thread
    assert ran[:2] == [("step", here), ("step", here)]  # alone, then the first of two
    assert ran[2] == ("step", "ticketledger-service-0")  # the second queued behind the first's turn
    assert ran[3:] == [("step_many 2", "ticketledger-service-0")]  # the lane was busy: both queued
