"""Scale: ``ticketledger verify`` and ``ticketledger regrade`` over logs of 10,000 and 100,000 episodes.

Does an audit of the whole log stream, and cost no more per episode on a log ten times larger?
Each command runs as a subprocess of this one, as an operator runs it, on each size: wall time,
events per second and the peak resident memory of its largest process (``os.wait4``'s
``ru_maxrss``, which covers the command and the worker processes it waited for). The rows compare
the largest log with the smallest, command by command: time at most 10x for 10x the episodes (no
step that grows faster than the log) and memory flat (nothing held per episode).

Playing 100,000 episodes through the service would take most of an hour, so the logs are made
fast: a few hundred real episodes (the gold player of ``bench.workload`` on every task and
several seeds) are played through the service once, then cloned under new episode ids through the
store's own ``EventStore.create_many``, which writes every event's canonical text, chains it and
writes the index row exactly as an episode's first append does. Only the opening event changes
(its ``episode_id``), so a clone replays like the episode it copies, and ``verify`` checks every
clone as the real episode it is (the section fails on any inconsistent one). The clones repeat the
originals' replies, so the grader's memos are warm: ``replay`` has the cold-memo figure.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.common import Figure, log, ratio, summary
from bench.workload import plans

SIZES = (10_000, 100_000)
QUICK_SIZES = (100, 1_000)
SEED_SEEDS: tuple[int | None, ...] = (None, *range(1, 24))
"""The seeds of the episodes played for real: every task with each (12 tasks: 288 episodes)."""
QUICK_SEED_SEEDS: tuple[int | None, ...] = (None, 1)
BATCH = 500
"""Episodes cloned per transaction."""
COMMANDS: dict[str, tuple[str, ...]] = {
    "verify": ("verify",),
    "regrade_dry": ("regrade", "--dry-run"),
    "regrade": ("regrade",),
}
LABELS = {"verify": "ticketledger verify", "regrade_dry": "ticketledger regrade --dry-run",
          "regrade": "ticketledger regrade"}


def _label(size: int) -> str:
    return f"{size // 1_000}k" if size >= 1_000 else str(size)


@dataclasses.dataclass(frozen=True)
class Template:
    """A played episode as the store's create takes it: its index fields and its events."""

    task_id: str
    seed: int | None
    run_id: str | None
    events: tuple[Any, ...]  # store.eventstore.NewEvent, the opening one first
    projection: Any  # store.eventstore.Projection


def seed_templates(url: str, seeds: tuple[int | None, ...]) -> list[Template]:
    """Play the gold player on every task under ``seeds`` into ``url`` and read the episodes
    back as templates (their events as stored, parsed)."""
    from service import EnvironmentService
    from service.audit_views import Auditor
    from store import open_database
    from store.eventstore import NewEvent, Projection
    from store.queries import EpisodeFilter

    db = open_database(url)
    try:
        service = EnvironmentService(db)
        for plan in plans(seeds):
            result = service.reset(plan.task_id, plan.seed)
            for action in plan.actions:
                result = service.step(result.episode_id, action)
            if not result.done:
                raise AssertionError(f"the scripted episode of {plan.task_id} did not end")
        out = []
        for row, recorded in Auditor(db).queries.iter_with_events(EpisodeFilter()):
            out.append(Template(row.task_id, row.seed, row.run_id,
                                tuple(NewEvent(r.type, r.version, r.data) for r in recorded),
                                Projection(row.status, row.step_count, row.score)))
        return out
    finally:
        db.dispose()


def clone(url: str, templates: list[Template], count: int, start: int) -> int:
    """Write ``count`` clones of ``templates`` (in turn) into ``url``, numbered from ``start``;
    returns the number of events written."""
    from store import open_database
    from store.eventstore import Create, EventStore, NewEvent

    db = open_database(url)
    written = 0
    try:
        store = EventStore(db)
        for first in range(start, start + count, BATCH):
            creates = []
            for n in range(first, min(first + BATCH, start + count)):
                t = templates[n % len(templates)]
                episode_id = f"ep_scale{n:010d}"
                opening = t.events[0]
                events = (NewEvent(opening.type, opening.version,
                                   {**opening.data, "episode_id": episode_id}), *t.events[1:])
                creates.append(Create(episode_id, t.task_id, t.seed, events, t.projection,
                                      run_id=t.run_id))
                written += len(events)
            for result in store.create_many(creates):
                if not isinstance(result, list):
                    raise AssertionError(f"cloning failed: {result}")
        return written
    finally:
        db.dispose()


def build(workdir: Path, sizes: tuple[int, ...], seeds: tuple[int | None, ...]) -> list[tuple[int, str, int]]:
    """A log per size, (episodes, url, events) each: the smallest grown into the next, a copy kept
    at each size."""
    main = workdir / "scale-main.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{main}{suffix}").unlink(missing_ok=True)
    seed_url = f"sqlite:///{workdir / 'scale-seed.db'}"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{workdir / 'scale-seed.db'}{suffix}").unlink(missing_ok=True)
    started = time.perf_counter()
    templates = seed_templates(seed_url, seeds)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{workdir / 'scale-seed.db'}{suffix}").unlink(missing_ok=True)
    log(f"scale: played {len(templates)} episodes through the service "
        f"({time.perf_counter() - started:.1f} s)")
    url = f"sqlite:///{main}"
    out: list[tuple[int, str, int]] = []
    done = events = 0
    for size in sizes:
        started = time.perf_counter()
        events += clone(url, templates, size - done, done)
        done = size
        log(f"scale: log at {size:,} episodes, {events:,} events "
            f"({time.perf_counter() - started:.1f} s to clone)")
        if size != sizes[-1]:
            copy = workdir / f"scale-{_label(size)}.db"
            shutil.copyfile(main, copy)  # clone() closed every connection: no -wal left
            out.append((size, f"sqlite:///{copy}", events))
    out.append((sizes[-1], url, events))
    return out


@dataclasses.dataclass(frozen=True)
class Measured:
    seconds: float
    cpu_seconds: float
    max_rss_mb: float
    answer: dict[str, Any]


def measure(url: str, args: tuple[str, ...]) -> Measured:
    """Run ``ticketledger <args> --json`` on ``url`` as a subprocess: wall time, CPU time (its own
    and its worker processes'), the peak RSS of its largest process (itself or a worker it waited
    for), and its JSON answer. Raises on a failure."""
    command = [sys.executable, "-m", "cli.main", *args, "--json", "--database-url", url]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        text = out.read().decode()
        if child.returncode != 0:
            raise AssertionError(f"{' '.join(args)} exited {child.returncode}: "
                                 f"{err.read().decode()[-2000:]}{text[-2000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    return Measured(seconds, cpu, usage.ru_maxrss / 1024, json.loads(text))  # ru_maxrss: KiB


def _check(name: str, answer: dict[str, Any], episodes: int) -> None:
    if name == "verify":
        if answer["episodes"] != episodes or not answer["ok"]:
            raise AssertionError(f"verify: {answer['episodes']} episodes, {answer['inconsistent']} "
                                 f"inconsistent (expected {episodes}, all consistent)")
    elif answer["episodes"] != episodes or answer["records_appended"] != (
            0 if name == "regrade_dry" else episodes):
        raise AssertionError(f"{name}: {answer['episodes']} episodes, "
                             f"{answer['records_appended']} records appended")


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    sizes = QUICK_SIZES if quick else SIZES
    sub = workdir / "scale"
    sub.mkdir(parents=True, exist_ok=True)
    measured: dict[tuple[str, str, int], list[float]] = {}
    try:
        logs = build(sub, sizes, QUICK_SEED_SEEDS if quick else SEED_SEEDS)
        for name, args in COMMANDS.items():  # the sizes take turns, command by command
            for size, url, events in logs:
                m = measure(url, args)
                _check(name, m.answer, size)
                for metric, value in (("rate", events / m.seconds), ("seconds", m.seconds),
                                      ("cpu", m.cpu_seconds), ("rss", m.max_rss_mb)):
                    measured.setdefault((name, metric, size), []).append(value)
                log(f"  {LABELS[name]}, {size:,} episodes ({events:,} events): {m.seconds:.1f} s "
                    f"({m.cpu_seconds:.1f} s CPU), {events / m.seconds:,.0f} events/s, peak RSS "
                    f"{m.max_rss_mb:.0f} MB")
    finally:
        shutil.rmtree(sub, ignore_errors=True)
    units = {"rate": ("events/s", True), "seconds": ("s", False), "cpu": ("CPU s", False),
             "rss": ("MB", False)}
    what = {"rate": "", "seconds": ", wall time", "cpu": ", CPU time (workers included)",
            "rss": ", peak RSS of its largest process"}
    small, large = sizes[0], sizes[-1]
    figures: list[Figure] = []
    for name in COMMANDS:
        each = {(metric, size): Figure(f"scale.{name}.{metric}.{_label(size)}",
                                       f"scale: {LABELS[name]}, {size:,} episodes{what[metric]}",
                                       units[metric][0], measured[(name, metric, size)],
                                       higher=units[metric][1], show=False)
                for metric in units for size in sizes}
        rate = each[("rate", large)]
        rate.show = True
        rate.detail = "; ".join(f"{_label(s)}: {summary(each[('seconds', s)])}, "
                                f"{summary(each[('cpu', s)])}, {summary(each[('rss', s)])}"
                                for s in sizes)
        figures.append(rate)
        for metric, bar in (("seconds", 10.5), ("cpu", 10.5), ("rss", 1.25)):
            figures.append(ratio(f"scale.{name}.{metric}_ratio",
                                 f"scale: {LABELS[name]}{what[metric]}, {_label(large)} / "
                                 f"{_label(small)} episodes", each[(metric, large)],
                                 each[(metric, small)], target=None if quick else bar, higher=False))
        figures += [f for f in each.values() if f is not rate]
    return figures
