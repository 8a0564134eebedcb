"""Growth: does a step, or an audit query, cost more when the log is a hundred times larger?

One log is grown by scripted episodes through the service (real, replayable episodes) to 10,000,
100,000 and 1,000,000 events; a copy is kept at each size. Then, in rounds that visit every size
in turn (so a slow moment of the machine hits all sizes alike), each copy is measured:

* in-process step latency (``EnvironmentService.step``, durable SQLite);
* over HTTP against a real server on the copy: step latency, and the audit routes
  ``/episodes/{id}/events``, ``/episodes/{id}/replay`` (episodes drawn at random from the whole
  log) and ``/episodes?task=...`` (a random task's first page).

Each figure is the median over rounds of the per-round median latency; the ratios compare the
largest log with the smallest (the issue's bar: at most 1.3).
"""

from __future__ import annotations

import random
import shutil
import statistics
import time
from pathlib import Path

from baseline.client import TicketLedgerClient
from bench import servers
from bench.common import Figure, log, ratio, summary
from bench.http import REQUEST_TIMEOUT_S
from bench.replay import build_log
from bench.workload import plans

SIZES = (10_000, 100_000, 1_000_000)
QUICK_SIZES = (1_000, 3_000, 10_000)


def _label(size: int) -> str:
    return f"{size // 1_000_000}M" if size >= 1_000_000 else f"{size // 1_000}k"


def _inprocess_step_ms(url: str, episodes: int) -> float:
    from service import EnvironmentService
    from store import open_database

    db = open_database(url)
    try:
        service = EnvironmentService(db)
        latencies = []
        work = plans()
        for n in range(episodes):
            plan = work[n % len(work)]
            eid = service.reset(plan.task_id, plan.seed).episode_id
            for action in plan.actions:
                started = time.perf_counter()
                service.step(eid, action)
                latencies.append(time.perf_counter() - started)
        latencies.sort()
        return latencies[len(latencies) // 2] * 1000
    finally:
        db.dispose()


def _step_ms(client: TicketLedgerClient, steps: int) -> float:
    """Median latency of a step over stateful HTTP (OpenEnv's wrapped body, naming the episode),
    scripted episodes played whole until ``steps`` steps are taken."""
    work = plans()
    latencies: list[float] = []
    n = 0
    while len(latencies) < steps:
        plan = work[n % len(work)]
        n += 1
        episode_id = client.reset(task_id=plan.task_id, seed=plan.seed)["episode_id"]
        for action in plan.actions:
            started = time.perf_counter()
            client.step(action, episode_id)
            latencies.append(time.perf_counter() - started)
    return statistics.median(latencies) * 1000


def _route_ms(client: TicketLedgerClient, paths: list[str]) -> float:
    """Median latency of ``GET`` on each path (the first one is also fetched once before, to warm);
    an answer other than success raises ``RemoteError``."""
    client.request("GET", paths[0])
    latencies = []
    for path in paths:
        started = time.perf_counter()
        client.request("GET", path)
        latencies.append(time.perf_counter() - started)
    return statistics.median(latencies) * 1000


def _server_ms(url: str, ids: list[str], rng: random.Random, quick: bool) -> dict[str, float]:
    from domain.tasks import default_catalog

    tasks = default_catalog().task_ids
    n = 20 if quick else 100
    picks = [rng.choice(ids) for _ in range(n)]
    with servers.ticketledger(url) as server, TicketLedgerClient(server.url,
                                                                 timeout=REQUEST_TIMEOUT_S) as client:
        return {
            "step": _step_ms(client, 60 if quick else 400),
            "events": _route_ms(client, [f"/episodes/{e}/events" for e in picks]),
            "replay": _route_ms(client, [f"/episodes/{e}/replay" for e in picks[: n // 2]]),
            "list": _route_ms(client, [f"/episodes?task={rng.choice(tasks)}" for _ in range(n // 2)]),
        }


def build(workdir: Path, sizes: tuple[int, ...]) -> list[tuple[int, str, list[str]]]:
    """The log grown to each size; a copy per size (the last size is the log itself)."""
    main = workdir / "growth-main.db"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{main}{suffix}").unlink(missing_ok=True)
    url = f"sqlite:///{main}"
    out: list[tuple[int, str, list[str]]] = []
    ids: list[str] = []
    total = 0
    for size in sizes:
        started = time.perf_counter()
        total += build_log(url, size - total, ids)
        log(f"growth: log at {total:,} events ({time.perf_counter() - started:.1f} s)")
        if size != sizes[-1]:
            copy = workdir / f"growth-{_label(size)}.db"
            shutil.copyfile(main, copy)  # build_log closed every connection: no -wal left
            out.append((size, f"sqlite:///{copy}", list(ids)))
    out.append((sizes[-1], url, ids))
    return out


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    sizes = QUICK_SIZES if quick else SIZES
    rounds = 1 if quick else 3
    sub = workdir / "growth"
    sub.mkdir(parents=True, exist_ok=True)
    logs = build(sub, sizes)
    rng = random.Random(6)
    measured: dict[tuple[str, int], list[float]] = {}
    for n in range(rounds):
        for size, url, ids in logs:
            found = {"inprocess": _inprocess_step_ms(url, 24 if quick else 96)}
            found.update(_server_ms(url, ids, rng, quick))
            for metric, value in found.items():
                measured.setdefault((metric, size), []).append(value)
            log(f"  round {n + 1}, {_label(size)} events: " + ", ".join(
                f"{k} {v:.2f} ms" for k, v in found.items()))
    shutil.rmtree(sub, ignore_errors=True)
    labels = {"inprocess": "step latency in-process", "step": "step latency over HTTP",
              "events": "GET /episodes/{id}/events", "replay": "GET /episodes/{id}/replay",
              "list": "GET /episodes?task=..."}
    figures: list[Figure] = []
    small, large = sizes[0], sizes[-1]
    for metric, label in labels.items():
        per_size = {size: Figure(f"growth.{metric}.{_label(size)}",
                                 f"growth: {label}, {_label(size)} events", "ms",
                                 measured[(metric, size)], higher=False, show=False)
                    for size in sizes}
        grown = ratio(f"growth.{metric}.ratio", f"growth: {label}, {_label(large)} / "
                      f"{_label(small)} events", per_size[large], per_size[small],
                      target=None if quick else 1.3, higher=False)
        grown.detail = "; ".join(f"{_label(size)}: {summary(f)}" for size, f in per_size.items())
        figures += [grown, *per_size.values()]
    return figures
