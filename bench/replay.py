"""Replay: events read, chain-verified, folded and re-graded per second over a stored log.

The log (100,000 events by default) is written through the service by scripted episodes, so it
holds real, replayable episodes. Figures:

* ``verify``: the whole log as ``ticketledger verify`` checks it (``service.verify.verify``: page
  through the episode index, load each page's events in one query, replay each episode, compare
  the index row), in one process and with one worker process per CPU (``--jobs``, the CLI's
  default). The issue's bar applies to the latter.
* ``fold + re-grade``: the same replays with the events already in memory (no database).
* ``fold + re-grade, cold memos``: as above, but the rubric and score-component memos are emptied
  before every episode, as when every reply in the log is new text (a log of LLM episodes); the
  scripted log repeats its replies, so the warm figure alone would flatter.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from bench.common import Figure, log, ratio
from bench.inprocess import durable_url
from bench.workload import plans

if TYPE_CHECKING:
    from store.eventstore import RecordedEvent


def build_log(url: str, events: int, episode_ids: list[str] | None = None) -> int:
    """Play scripted episodes into ``url`` until at least ``events`` more events are stored;
    returns how many were written (and appends the new episodes' ids to ``episode_ids``)."""
    from service import EnvironmentService
    from store import open_database

    db = open_database(url)
    try:
        service = EnvironmentService(db)
        work = plans()
        written = n = 0
        while written < events:
            plan = work[n % len(work)]
            n += 1
            result = service.reset(plan.task_id, plan.seed)
            for action in plan.actions:
                result = service.step(result.episode_id, action)
            written += result.seq
            if episode_ids is not None:
                episode_ids.append(result.episode_id)
        return written
    finally:
        db.dispose()


def _verify_rate(url: str, jobs: int = 1) -> tuple[float, int]:
    from service.audit_views import Auditor
    from service.verify import verify
    from store import open_database
    from store.queries import EpisodeFilter

    db = open_database(url)
    try:
        auditor = Auditor(db)
        total = auditor.store.count_events()
        started = time.perf_counter()
        summary = verify(auditor, EpisodeFilter(), jobs=jobs)
        seconds = time.perf_counter() - started
        if summary["inconsistent"]:
            raise AssertionError(f"verify found inconsistent episodes: {summary}")
        return total / seconds, total
    finally:
        db.dispose()


def load_all(url: str) -> list[list[RecordedEvent]]:
    """Every stored episode's events, a list per episode (read a page of episodes at a time)."""
    from service.audit_views import Auditor
    from store import open_database
    from store.queries import EpisodeFilter

    db = open_database(url)
    try:
        return [recorded for _, recorded in Auditor(db).queries.iter_with_events(EpisodeFilter())]
    finally:
        db.dispose()


def _fold_rate(episodes: list[list[RecordedEvent]], *, cold: bool) -> float:
    from domain.tasks import default_catalog
    from graders import rubric
    from service.replay import replay

    catalog = default_catalog()
    total = sum(len(e) for e in episodes)
    started = time.perf_counter()
    for recorded in episodes:
        if cold:
            rubric._evaluate_text.cache_clear()
        if not replay(recorded, catalog).consistent:
            raise AssertionError(f"replay diverged on {recorded[0].episode_id}")
    return total / (time.perf_counter() - started)


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    target_events = 5_000 if quick else 100_000
    runs = 1 if quick else 3
    sub = workdir / "replay"
    sub.mkdir(parents=True, exist_ok=True)
    url = durable_url(sub, 0)
    started = time.perf_counter()
    written = build_log(url, target_events)
    log(f"replay: wrote {written:,} events in {time.perf_counter() - started:.1f} s")
    verify_runs, parallel_runs, warm, cold = [], [], [], []
    episodes = load_all(url)
    jobs = os.cpu_count() or 1
    for n in range(runs):
        rate, total = _verify_rate(url)
        verify_runs.append(rate)
        parallel_runs.append(_verify_rate(url, jobs)[0])
        warm.append(_fold_rate(episodes, cold=False))
        cold.append(_fold_rate(episodes, cold=True))
        log(f"  run {n + 1}: verify {rate:,.0f} events/s over {total:,} ({parallel_runs[-1]:,.0f} "
            f"with {jobs} jobs); fold + re-grade {warm[-1]:,.0f} (cold memos {cold[-1]:,.0f}) events/s")
    for suffix in ("", "-wal", "-shm"):
        Path(url.removeprefix("sqlite:///") + suffix).unlink(missing_ok=True)
    size = f"{written:,} events"
    one = Figure("replay.verify", f"replay: verify the whole log ({size}), one process", "events/s",
                 verify_runs)
    many = Figure("replay.verify_jobs", f"replay: verify the whole log ({size}), --jobs {jobs}",
                  "events/s", parallel_runs, target=100_000)
    gain = ratio("replay.jobs_gain", f"replay: --jobs {jobs} / one process", many, one)
    return [
        one, many, gain,
        Figure("replay.fold", f"replay: fold + re-grade + chain, events in memory ({size})",
               "events/s", warm),
        Figure("replay.fold_cold", "replay: the same, grading memos emptied per episode",
               "events/s", cold),
    ]
