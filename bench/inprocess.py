"""In-process steps/s: ``EnvironmentService`` driven directly, durable SQLite log vs log in memory.

Durable: a fresh SQLite file (WAL, ``synchronous=NORMAL``) in the bench's work directory, on the
same disk as the repository (not a tmpfs). In memory: ``sqlite://``, the same store code with no
file under it. Two ways of driving it:

* one episode at a time (``reset`` / ``step``): one commit per step;
* a vector of ``WIDTH`` episodes side by side (``reset_many`` / ``step_many``), as an RL trainer
  runs its batch of rollouts: one commit per batch, every step still recorded, graded and hashed
  exactly as alone, and no result returned before its commit.

Runs alternate between the configurations so their ratios compare like with like.
"""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from bench.common import Figure, log, ratio, timed
from bench.workload import Plan, new_texts, plans, steps_in

if TYPE_CHECKING:
    from service import EnvironmentService
    from service.environment import StepResult

MEMORY_URL = "sqlite://"


def run_episodes(service: EnvironmentService, plan_list: list[Plan], passes: int = 1) -> int:
    """Play every plan ``passes`` times; returns the number of steps taken."""
    steps = 0
    for _ in range(passes):
        for plan in plan_list:
            result = service.reset(plan.task_id, plan.seed)
            eid = result.episode_id
            for action in plan.actions:
                result = service.step(eid, action)
            steps += len(plan.actions)
            if not result.done:
                raise AssertionError(f"{plan.task_id} seed {plan.seed} did not end")
    return steps


WIDTH = 16
"""Episodes per batch in the vector figures (a typical number of parallel rollouts)."""


def run_vector(service: EnvironmentService, plan_list: list[Plan], passes: int = 1,
               width: int = WIDTH) -> int:
    """Play the plans ``width`` at a time: one ``reset_many``, then one ``step_many`` per round
    until every episode of the batch has ended; returns the number of steps taken."""
    steps = 0
    for _ in range(passes):
        for start in range(0, len(plan_list), width):
            batch = plan_list[start:start + width]
            opened = service.reset_many([(p.task_id, p.seed) for p in batch])
            ids = [_ok(r).episode_id for r in opened]
            for k in range(max(len(p.actions) for p in batch)):
                moves = [(ids[i], p.actions[k]) for i, p in enumerate(batch) if k < len(p.actions)]
                for result in service.step_many(moves):
                    _ok(result)
                steps += len(moves)
            if not all(service.state(eid).done for eid in ids):
                raise AssertionError("a vector episode did not end")
    return steps


EPISODES = itertools.count()
"""Numbers the episodes :func:`run_new_texts` plays, over the whole run: no text comes twice."""


def run_new_texts(service: EnvironmentService, plan_list: list[Plan], passes: int = 1) -> int:
    """:func:`run_episodes` with every episode's texts new (:func:`bench.workload.new_texts`), as
    an agent's are: the judge reads each from its words up."""
    return sum(run_episodes(service, [new_texts(p, next(EPISODES)) for p in plan_list])
               for _ in range(passes))


def _ok(result: StepResult | Exception) -> StepResult:
    if isinstance(result, Exception):
        raise result
    return result


Driver = Callable[["EnvironmentService", list[Plan], int], int]


def _measure(url: str, plan_list: list[Plan], passes: int, driver: Driver = run_episodes) -> float:
    from service import EnvironmentService
    from store import open_database

    db = open_database(url)
    try:
        service = EnvironmentService(db)
        driver(service, plan_list, 1)  # warm caches and the page cache
        steps, seconds = timed(lambda: driver(service, plan_list, passes))
        return steps / seconds
    finally:
        db.dispose()


def durable_url(workdir: Path, n: int) -> str:
    path = workdir / f"inprocess-{n}.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    return f"sqlite:///{path}"


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    plan_list = plans()
    runs, passes = (2, 1) if quick else (5, 8)
    log(f"in-process: {runs} runs x {passes * steps_in(plan_list)} steps, durable and in memory, "
        f"one episode at a time and {WIDTH} side by side")
    durable, memory, durable_vec, memory_vec, memory_new = [], [], [], [], []
    sub = workdir / "inprocess"
    sub.mkdir(parents=True, exist_ok=True)
    for n in range(runs):
        durable.append(_measure(durable_url(sub, n), plan_list, passes))
        memory.append(_measure(MEMORY_URL, plan_list, passes))
        durable_vec.append(_measure(durable_url(sub, n), plan_list, passes, run_vector))
        memory_vec.append(_measure(MEMORY_URL, plan_list, passes, run_vector))
        memory_new.append(_measure(MEMORY_URL, plan_list, max(1, passes // 4), run_new_texts))
        log(f"  run {n + 1}: one at a time: durable {durable[-1]:,.0f}, memory {memory[-1]:,.0f}; "
            f"{WIDTH} side by side: durable {durable_vec[-1]:,.0f}, memory {memory_vec[-1]:,.0f}; "
            f"new texts, memory {memory_new[-1]:,.0f} steps/s")
    shutil.rmtree(sub, ignore_errors=True)
    d = Figure("inprocess.durable", "in-process, durable SQLite log (WAL), one episode at a time "
               "(a commit per step)", "steps/s", durable)
    m = Figure("inprocess.memory", "in-process, log in memory, one episode at a time", "steps/s",
               memory)
    dv = Figure("inprocess.durable_vector", f"in-process, durable SQLite log (WAL), {WIDTH} episodes "
                "side by side (a commit per batch)", "steps/s", durable_vec)
    mv = Figure("inprocess.memory_vector", f"in-process, log in memory, {WIDTH} episodes side by side",
                "steps/s", memory_vec)
    cost = ratio("inprocess.durability_cost", "in-process: log in memory / durable log, one at a time",
                 m, d)
    cost.detail = "the cost of durability (same run, runs interleaved)"
    cost_vec = ratio("inprocess.durability_cost_vector",
                     f"in-process: log in memory / durable log, {WIDTH} side by side", mv, dv)
    batching = ratio("inprocess.batching_gain", "in-process durable: side by side / one at a time",
                     dv, d)
    mn = Figure("inprocess.memory_new_texts", "in-process, log in memory, one episode at a time, every "
                "episode's texts new (as an agent's)", "steps/s", memory_new)
    reading = ratio("inprocess.new_text_cost", "in-process, log in memory: scripted texts / new texts",
                    m, mn)
    reading.detail = "what reading new words costs: the gold's texts repeat, an agent's do not"
    return [d, m, dv, mv, mn, cost, cost_vec, batching, reading]
