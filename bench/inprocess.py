"""In-process steps/s: ``EnvironmentService`` driven directly, durable SQLite log vs log in memory.

Durable: a fresh SQLite file (WAL, ``synchronous=NORMAL``) in the bench's work directory, on the
same disk as the repository (not a tmpfs), one commit per step. In memory: ``sqlite://``, the same
store code with no file under it. Runs alternate between the two so their ratio compares like
with like.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from bench.common import Figure, log, ratio, timed
from bench.workload import Plan, plans, steps_in

MEMORY_URL = "sqlite://"


def run_episodes(service, plan_list: list[Plan], passes: int = 1) -> int:  # type: ignore[no-untyped-def]
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


def _measure(url: str, plan_list: list[Plan], passes: int) -> float:
    from service import EnvironmentService
    from store import open_database

    db = open_database(url)
    try:
        service = EnvironmentService(db)
        run_episodes(service, plan_list, 1)  # warm caches and the page cache
        steps, seconds = timed(lambda: run_episodes(service, plan_list, passes))
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
    log(f"in-process: {runs} runs x {passes * steps_in(plan_list)} steps, durable and in memory")
    durable, memory = [], []
    sub = workdir / "inprocess"
    sub.mkdir(parents=True, exist_ok=True)
    for n in range(runs):
        durable.append(_measure(durable_url(sub, n), plan_list, passes))
        memory.append(_measure(MEMORY_URL, plan_list, passes))
        log(f"  run {n + 1}: durable {durable[-1]:,.0f} steps/s, memory {memory[-1]:,.0f} steps/s")
    shutil.rmtree(sub, ignore_errors=True)
    d = Figure("inprocess.durable", "in-process, durable SQLite log (WAL)", "steps/s", durable,
               target=10_000)
    m = Figure("inprocess.memory", "in-process, log in memory", "steps/s", memory, target=50_000)
    cost = ratio("inprocess.durability_cost", "in-process: log in memory / durable log", m, d)
    cost.detail = "the cost of durability (same run, runs interleaved)"
    return [d, m, cost]
