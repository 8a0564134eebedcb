"""``python -m bench [--quick] [--only SECTION ...]``: run the benchmarks, print the table, save JSON."""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from pathlib import Path

from bench.common import (
    RESULTS_DIR,
    STEAL_WARNING,
    Figure,
    cpu_times,
    log,
    steal_percent,
    table,
    write_results,
)

SECTIONS = ("host", "parts", "inprocess", "replay", "http", "ws", "heavy", "growth", "scale",
            "postgres", "inference", "startup")
EXTRA_SECTIONS = ("load", "instructions", "sessions")
"""Run only when named with --only: bench/load.py (the integrity load run) overlaps the
HTTP figures and takes minutes; bench/instructions.py needs valgrind and takes minutes;
bench/sessions.py (64 and 256 /ws sessions on 1 SQLite and 2 and 4 PostgreSQL workers, about 5
minutes) overlaps the ws and postgres sections (``python -m bench.sessions`` prints its own table)."""
BASELINE_SECTIONS = ("http", "ws", "startup")
"""Sections that can measure another checkout's code side by side with this one (--baseline)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: every section, few and short runs (figures are rough)")
    parser.add_argument("--only", nargs="+", choices=SECTIONS + EXTRA_SECTIONS, metavar="SECTION",
                        help=f"run only these sections ({', '.join(SECTIONS + EXTRA_SECTIONS)}; "
                             f"{', '.join(EXTRA_SECTIONS)} only when named)")
    parser.add_argument("--workdir", type=Path, default=RESULTS_DIR / "work",
                        help="where the benchmark databases go (default: bench/results/work, on the "
                             "repository's disk, so 'durable' means this disk)")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR, help="where the JSON results go")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="the root of a checkout of other TicketLedger code (e.g. made with git "
                             "worktree add DIR main): the http and ws sections run its server too, "
                             "the startup section its processes, "
                             "interleaved with this code's, and report after / before ratios")
    args = parser.parse_args(argv)
    baseline = args.baseline.resolve() if args.baseline else None
    args.workdir.mkdir(parents=True, exist_ok=True)
    figures: list[Figure] = []
    started = time.perf_counter()
    steal: dict[str, float] = {}
    for name in args.only or SECTIONS:
        module = importlib.import_module(f"bench.{name}")
        before = cpu_times()
        if baseline is not None and name in BASELINE_SECTIONS:
            figures.extend(module.run(args.workdir, quick=args.quick, baseline=baseline))
        else:
            figures.extend(module.run(args.workdir, quick=args.quick))
        taken = steal_percent(before, cpu_times())
        if taken is not None:
            steal[name] = taken
            figures.append(Figure(f"host.steal.{name}", f"host: CPU steal during {name} (share of the "
                                  "CPU time wanted that the hypervisor gave to other guests)", "%", [taken],
                                  target=STEAL_WARNING, higher=False))
            if taken > STEAL_WARNING:
                log(f"warning: the hypervisor took {taken:.0f}% of the CPU time wanted during {name}: its "
                    "figures measure the host's other guests as much as this code")
    command = "python -m bench" + (" --quick" if args.quick else "") + (
        " --only " + " ".join(args.only) if args.only else "") + (
        f" --baseline {baseline}" if baseline else "")
    path = write_results(figures, {"command": command, "quick": args.quick, "steal_percent": steal,
                                   "seconds": round(time.perf_counter() - started, 1)}, args.out)
    print(table(figures))
    log(f"results: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
