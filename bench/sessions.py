"""Concurrent ``/ws`` sessions per server configuration: the table of how many rollouts a worker takes.

``python -m bench.sessions`` (or ``python -m bench --only sessions``) measures what a trainer asks of
the environment and what ``docs/training.md`` and ``docs/performance.md`` quote: steps/s and step latency
of 64 and 256 concurrent OpenEnv sessions over ``/ws``, for

* one server worker on a durable SQLite file (the default), and
* 2 and 4 workers on PostgreSQL (``TICKETLEDGER_PG_URL``, default user postgres at
  127.0.0.1:5432; skipped with a note if unreachable).

Each (configuration, session count) gets a fresh database (a new SQLite file, or a new
PostgreSQL database dropped afterwards) and its own ``python -m server.app`` on 127.0.0.1, then
:func:`bench.ws.measure` plays it: back-to-back rounds (throughput, p50/p99 step latency), then
rounds with 0.5 s of thinking between steps (p50/p99 step latency; the bar: p99 at most
50 ms). The client is OpenEnv's ``GenericEnvClient``, all sessions in this one process, as a
trainer runs them; the client shares the cores with the server. Errors (a refused connection, an
error frame, a timeout, an episode that did not end) are counted per configuration; the command
exits 1 if there was any.

The printed table has a row per configuration and session count; each cell is the median over
the rounds (the spread and every run are in the JSON under ``bench/results/``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench import servers, ws
from bench.common import (
    RESULTS_DIR,
    Figure,
    cpu_times,
    log,
    machine,
    steal_percent,
    table,
    write_results,
)

SIZES = (64, 256)
"""Session counts: a mid-sized GRPO generation batch, and the server's default session cap per
worker (``TICKETLEDGER_MAX_SESSIONS``)."""
BACKENDS = (("sqlite", 1), ("postgres", 2), ("postgres", 4))
"""(backend, workers): the default single worker on SQLite; PostgreSQL for more than one worker."""
FULL = ws.Shape(sessions=256, rounds=3, fast_steps=24, slow_steps=12)
"""Per row: 3 rounds of each way. A back-to-back round has about 256 x 24 = 6,144 steps whatever
the session count (:func:`shape_for`), a few seconds on an idle 2-core machine; a thinking round
at least 12 steps a session (whole episodes: 12-19), about 9 s, so its p99 is over about 900 (64
sessions) or 3,600 latencies. Six rows: about 5 minutes on an idle 2-core machine."""
QUICK = ws.Shape(sessions=8, rounds=1, fast_steps=8, slow_steps=3)


@dataclass(frozen=True)
class Config:
    """One server configuration and session count: a row of the table."""

    backend: str
    workers: int
    sessions: int

    @property
    def key(self) -> str:
        return f"{self.backend}-{self.workers}w-{self.sessions}s"

    @property
    def name(self) -> str:
        plural = "s" if self.workers > 1 else ""
        return f"{'SQLite' if self.backend == 'sqlite' else 'PostgreSQL'}, {self.workers} worker{plural}"


def shape_for(sessions: int, base: ws.Shape) -> ws.Shape:
    """``base`` for ``sessions`` sessions: back-to-back steps per session scaled so a round has
    as many steps as ``base`` gives its own session count (64 sessions play 4x as many as 256)."""
    total = base.fast_steps * base.sessions
    return ws.Shape(sessions=sessions, rounds=base.rounds,
                    fast_steps=max(base.fast_steps, total // sessions), slow_steps=base.slow_steps)


@contextmanager
def _database(backend: str, workdir: Path, stem: str) -> Iterator[str | None]:
    """A fresh database's URL for one configuration (None: PostgreSQL is unreachable), dropped
    on leaving."""
    found = servers.sqlite_file(workdir, stem) if backend == "sqlite" else servers.postgres_database()
    if found is None:
        yield None
        return
    url, drop = found
    try:
        yield url
    finally:
        drop()


def measure(configs: Sequence[Config], workdir: Path, base: ws.Shape) -> list[Figure]:
    """Every configuration in turn on its own database and server; their figures."""
    figures: list[Figure] = []
    unreachable: set[str] = set()
    for config in configs:
        if config.backend in unreachable:
            continue
        shape = shape_for(config.sessions, base)
        with _database(config.backend, workdir, f"sessions-{config.key}") as url:
            if url is None:
                unreachable.add(config.backend)
                continue
            log(f"sessions: {config.sessions} /ws sessions against TicketLedger on {config.name}: "
                f"{shape.rounds} round(s) of {shape.fast_steps} steps a session back to back, then "
                f"of {shape.slow_steps} with {ws.THINK_S:g} s thinking")
            with servers.ticketledger(url, config.workers) as server:
                figures += ws.measure({"ticketledger": server.url}, config.key, config.name,
                                      quick=False, shape=shape)
    return figures


def configs(sizes: Sequence[int] = SIZES,
            backends: Sequence[tuple[str, int]] = BACKENDS) -> list[Config]:
    return [Config(backend, workers, n) for backend, workers in backends for n in sizes]


def _cell(figures: dict[str, Figure], key: str, spread: bool = False) -> str:
    figure = figures.get(key)
    if figure is None or not figure.runs:
        return "-"
    value = f"{figure.median:,.0f}" if figure.median >= 100 else f"{figure.median:.1f}"
    if spread and len(figure.runs) > 1:
        low, high = figure.spread
        value += f" ({low:,.0f}-{high:,.0f})"
    return value


def matrix(figures: Sequence[Figure], rows: Sequence[Config]) -> str:
    """The Markdown table: a row per configuration measured, medians over rounds."""
    found = {f.key: f for f in figures}
    lines = [
        "| server | sessions | back to back: steps/s (min-max) | p50 ms | p99 ms "
        f"| {ws.THINK_S:g} s thinking: p50 ms | p99 ms (bar {ws.P99_BAR_MS:g}) "
        f"| longest ms (bar {ws.STALL_BAR_MS:g}) | errors |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for config in rows:
        k = f"ws.{config.key}"
        if f"{k}.throughput" not in found:
            continue
        errors = sum(sum(found[f"{k}.{e}"].runs) for e in ("errors", "thinking_errors")
                     if f"{k}.{e}" in found)
        lines.append(f"| {config.name} | {config.sessions} | {_cell(found, f'{k}.throughput', True)} "
                     f"| {_cell(found, f'{k}.p50')} | {_cell(found, f'{k}.p99')} "
                     f"| {_cell(found, f'{k}.thinking_p50')} | {_cell(found, f'{k}.thinking_p99')} "
                     f"| {_cell(found, f'{k}.thinking_max')} | {errors:.0f} |")
    return "\n".join(lines)


def errors(figures: Sequence[Figure]) -> int:
    return round(sum(sum(f.runs) for f in figures
                     if f.key.endswith((".errors", ".thinking_errors"))))


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    """The bench runner's entry point (``python -m bench --only sessions``)."""
    sizes = (QUICK.sessions, 2 * QUICK.sessions) if quick else SIZES
    return measure(configs(sizes), workdir, QUICK if quick else FULL)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.sessions", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, nargs="+", metavar="N",
                        help="concurrent session counts (default: 64 256; with --quick: "
                             f"{QUICK.sessions} {2 * QUICK.sessions})")
    parser.add_argument("--workers", type=int, nargs="+", default=[2, 4], metavar="N",
                        help="PostgreSQL worker counts (default: 2 4; none: --workers 0)")
    parser.add_argument("--no-sqlite", action="store_true", help="leave out the SQLite worker")
    parser.add_argument("--rounds", type=int, default=FULL.rounds,
                        help=f"rounds of each way per row (default {FULL.rounds})")
    parser.add_argument("--steps", type=int, default=FULL.fast_steps,
                        help=f"back-to-back steps per session a round at 256 sessions, scaled up for "
                             f"fewer (default {FULL.fast_steps})")
    parser.add_argument("--think-steps", type=int, default=FULL.slow_steps,
                        help=f"steps per session a thinking round (default {FULL.slow_steps})")
    parser.add_argument("--quick", action="store_true",
                        help=f"a smoke run: {QUICK.sessions} and {2 * QUICK.sessions} sessions, one "
                             "short round (figures are meaningless)")
    parser.add_argument("--workdir", type=Path, default=RESULTS_DIR / "work",
                        help="where the SQLite files go (default: bench/results/work)")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR, help="where the JSON results go")
    args = parser.parse_args(argv)
    if args.quick:
        base, sizes = QUICK, args.sessions or [QUICK.sessions, 2 * QUICK.sessions]
    else:
        base = ws.Shape(sessions=FULL.sessions, rounds=args.rounds, fast_steps=args.steps,
                        slow_steps=args.think_steps)
        sizes = args.sessions or list(SIZES)
    backends = ([] if args.no_sqlite else [("sqlite", 1)]) + [
        ("postgres", n) for n in args.workers if n > 0]
    rows = configs(sizes, backends)
    args.workdir.mkdir(parents=True, exist_ok=True)
    started, before = time.perf_counter(), cpu_times()
    figures = measure(rows, args.workdir, base)
    steal = steal_percent(before, cpu_times())
    seconds = time.perf_counter() - started
    text = matrix(figures, rows)
    host = machine()
    command = " ".join(["python -m bench.sessions", *(sys.argv[1:] if argv is None else argv)])
    notes = [f"`{command}`: {base.rounds} round(s) of each way per row, {seconds / 60:.1f} min; "
             f"{host['cpus']} CPUs, Python {host['python']}, SQLite {host['sqlite']}"
             + (f", CPU steal {steal:.1f}%" if steal is not None else "")]
    if not any(f.key.startswith("ws.postgres") for f in figures) and any(
            c.backend == "postgres" for c in rows):
        notes.append("PostgreSQL was unreachable: its rows are missing.")
    path = write_results(figures, {"command": command, "quick": args.quick,
                                   "seconds": round(seconds, 1), "steal_percent": steal,
                                   "matrix": text}, args.out)
    print(text)
    print()
    print("\n".join(notes))
    log(table(figures))
    log(f"results: {path}")
    failed = errors(figures)
    if failed:
        for figure in figures:
            for error in figure.extra.get("errors", [])[:3]:
                log(f"  error: {error}")
        log(f"{failed} error(s): every session must finish every episode")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
