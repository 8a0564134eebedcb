"""Start-up: how soon ``python inference.py`` shows its first line, and how long ``ticketledger``'s
quick commands take, each against ``python -c "import sqlalchemy, pydantic"`` on the same machine.

The bar (first ``[START]``, ``--help`` and the read-only commands within 1.5x of that bare import)
is a ratio because a shared machine's absolute figures swing between minutes: each round runs the
bare import and then every measured process, so a ratio compares processes started seconds
apart. Every process is fresh, in a directory of its own, with no LLM key (the built-in policy
plays). "Existing database" runs find the database an earlier run left at the newest schema;
"new database" runs start with none, so they create and migrate it. An ``inference.py`` run is
stopped at its first ``[STEP]`` line: what comes after is the ``inference`` section's business.

With ``--baseline DIR`` the same processes run the other checkout's code too (its modules first
on ``PYTHONPATH``, the same interpreter), interleaved, with after / before ratios.

``python -m bench.startup [--baseline DIR]`` counts the instructions of the same processes with
callgrind instead (valgrind needed; a few minutes): figures that stay put on a busy machine, where
the timed ratios swing by half their size from round to round.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench.common import Figure, log, ratio, summary

ROOT = Path(__file__).resolve().parent.parent
SCRUBBED = ("API_KEY", "HF_TOKEN", "OPENAI_API_KEY", "ENV_BASE_URL", "DATABASE_URL", "AGENT",
            "PYTHONPATH", "PYTHONDONTWRITEBYTECODE")
"""Left out of the measured processes' environment: no LLM, no server, the default database, and
bytecode cached as after ``pip install`` (with ``PYTHONDONTWRITEBYTECODE`` set, as in some dev
containers, every process would compile the project's sources again, which pip does once)."""
BAR = 1.5
"""The issue's bar: first ``[START]``, ``--help`` and the read-only commands within 1.5x of the
bare import of SQLAlchemy and pydantic."""
BARE = ("-c", "import sqlalchemy, pydantic")
CLI = ("-c", "import sys; from cli.main import main; sys.exit(main())")
"""What the ``ticketledger`` console script runs, with the checkout's code on ``PYTHONPATH``."""
COMMANDS = {"help": ("--help",), "tasks": ("tasks",), "runs": ("runs",)}
"""``ticketledger`` commands timed: the help and two commands that only read (the task catalog;
the runs recorded in the database the ``inference.py`` runs left)."""
LABELS = {"help": "ticketledger --help", "tasks": "ticketledger tasks",
          "runs": "ticketledger runs (existing database)"}


def _env(root: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    if root is not None:
        env["PYTHONPATH"] = str(root)
    return env


def _bare(cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, *BARE], cwd=cwd, env=_env(None), check=True)
    return time.perf_counter() - started


def _command(root: Path, cwd: Path, args: tuple[str, ...]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, *CLI, *args], cwd=cwd, env=_env(root), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def _first_lines(root: Path, cwd: Path) -> tuple[float, float]:
    """Seconds from launching ``inference.py`` to its first ``[START]`` and first ``[STEP]`` line;
    the process is stopped there."""
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, str(root / "inference.py")], cwd=cwd, env=_env(root),
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    first_start = first_step = None
    assert process.stdout is not None
    try:
        for line in process.stdout:
            if first_start is None and line.startswith("[START]"):
                first_start = time.perf_counter() - started
            elif line.startswith("[STEP]"):
                first_step = time.perf_counter() - started
                break
    finally:
        process.kill()
        process.wait(timeout=60)
    if first_start is None or first_step is None:
        raise RuntimeError(f"{root / 'inference.py'} printed no [START] and [STEP] line")
    return first_start, first_step


def _measure(name: str, root: Path, work: Path, runs: dict[str, list[float]]) -> None:
    """One round of every process for the code at ``root``; appends each time under its key."""
    fresh = work / f"{name}-new"
    shutil.rmtree(fresh, ignore_errors=True)
    fresh.mkdir(parents=True)
    start, step = _first_lines(root, fresh)
    runs["start_new"].append(start)
    runs["step_new"].append(step)
    shutil.rmtree(fresh, ignore_errors=True)
    start, step = _first_lines(root, work / name)
    runs["start"].append(start)
    runs["step"].append(step)
    for key, args in COMMANDS.items():
        runs[key].append(_command(root, work / name, args))


def run(workdir: Path, quick: bool = False, baseline: Path | None = None) -> list[Figure]:
    """``baseline``: the root of a checkout of other TicketLedger code, measured alongside."""
    rounds = 1 if quick else 9
    work = workdir / "startup"
    shutil.rmtree(work, ignore_errors=True)
    codes = {"ticketledger": ROOT} | ({"baseline": baseline} if baseline is not None else {})
    keys = ("start", "step", "start_new", "step_new", *COMMANDS)
    runs: dict[str, dict[str, list[float]]] = {name: {k: [] for k in keys} for name in codes}
    bare: list[float] = []
    for name, root in codes.items():
        if not (root / "inference.py").is_file():
            raise SystemExit(f"{root} is not a TicketLedger checkout (no inference.py)")
        (work / name).mkdir(parents=True)
        _first_lines(root, work / name)  # leaves a database at the newest schema, a run in it
        for args in COMMANDS.values():  # and every module compiled, so no round pays for that
            _command(root, work / name, args)
    for n in range(rounds):
        bare.append(_bare(work))
        for name, root in codes.items():
            _measure(name, root, work, runs[name])
        now = runs["ticketledger"]
        log(f"startup round {n + 1}: bare import {bare[-1]:.3f} s, first [START] {now['start'][-1]:.3f}"
            f" s ({now['start'][-1] / bare[-1]:.2f}x), --help {now['help'][-1]:.3f} s, tasks "
            f"{now['tasks'][-1]:.3f} s, runs {now['runs'][-1]:.3f} s")
    shutil.rmtree(work, ignore_errors=True)
    base = Figure("startup.bare", 'python -c "import sqlalchemy, pydantic"', "s", bare)
    figures = [base]
    for name, root in codes.items():
        figures.extend(_figures(name, root, runs[name], base))
    if baseline is not None:
        for key in ("start", "start_new", *COMMANDS):
            after = Figure("", "", "s", runs["ticketledger"][key])
            before = Figure("", "", "s", runs["baseline"][key])
            figures.append(ratio(f"startup.{key}.vs_baseline", f"start-up: {_label(key)}, this code "
                                 f"/ {baseline.name} (--baseline)", after, before, higher=False,
                                 note="after / before"))
    return figures


def _label(key: str) -> str:
    return {"start": "first [START], existing database", "start_new": "first [START], new database",
            "step": "first [STEP], existing database", "step_new": "first [STEP], new database",
            **LABELS}[key]


def _figures(name: str, root: Path, runs: dict[str, list[float]], base: Figure) -> list[Figure]:
    """The code's times (in the JSON; their medians in the detail column) and its ratios to the
    bare import, round by round."""
    prefix = "startup" if name == "ticketledger" else f"startup.{name}"
    who = "" if name == "ticketledger" else f" [{root.name} (--baseline)]"
    out = []
    for key, times in runs.items():
        timed = Figure(f"{prefix}.{key}", _label(key) + who, "s", times, show=False)
        target = None if key in ("step", "step_new", "start_new") else BAR
        share = ratio(f"{prefix}.{key}.ratio", f"start-up: {_label(key)} / bare import{who}", timed,
                      base, target=target, higher=False)
        share.detail = summary(timed)
        out.extend([timed, share])
    return out


FIRST_LINE = """
import io, os, sys, runpy
class Stdout(io.TextIOBase):
    def write(self, text):
        if text.startswith("[START]"):
            os._exit(0)
        return len(text)
sys.stdout = Stdout()
sys.argv = [sys.argv[1]]
runpy.run_path(sys.argv[0], run_name="__main__")
"""
"""``inference.py`` run until it writes its first ``[START]`` line, then ended on the spot."""


def instructions(root: Path, work: Path) -> dict[str, int]:
    """Instructions each process executes, counted by callgrind (user space; the same for the same
    code, interpreter and inputs whatever the machine is doing): the bare import, ``inference.py``
    up to its first ``[START]`` on an existing database, and the ``ticketledger`` commands."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    work.mkdir(parents=True, exist_ok=True)
    processes = {"bare": (BARE, None), "start": (("-c", FIRST_LINE, str(root / "inference.py")), root),
                 **{key: ((*CLI, *args), root) for key, args in COMMANDS.items()}}
    out: dict[str, int] = {}
    for key, (args, code) in processes.items():
        subprocess.run([sys.executable, *args], cwd=work, env=_env(code), capture_output=True)
        done = subprocess.run([valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null",
                               sys.executable, *args], cwd=work, env=_env(code), capture_output=True,
                              text=True)
        found = re.search(r"Collected : (\d+)", done.stderr)
        if found is None:
            raise RuntimeError(f"callgrind counted nothing for {key}: {done.stderr[-500:]}")
        out[key] = int(found.group(1))
        log(f"{root.name} {key}: {out[key]:,} instructions")
    return out


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.startup [--baseline DIR]``: the instruction counts as a Markdown table
    (a few minutes; the timed figures are ``python -m bench --only startup``)."""
    parser = argparse.ArgumentParser(prog="python -m bench.startup", description=main.__doc__)
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="the root of another checkout, counted the same way")
    parser.add_argument("--workdir", type=Path, default=Path(__file__).resolve().parent / "results"
                        / "work", help="where the databases go (deleted afterwards)")
    args = parser.parse_args(argv)
    codes = {"this code": ROOT} | ({args.baseline.name: args.baseline.resolve()} if args.baseline else {})
    counts: dict[str, dict[str, int]] = {}
    for name, root in codes.items():
        work = args.workdir / f"startup-instructions-{len(counts)}"
        shutil.rmtree(work, ignore_errors=True)
        counts[name] = instructions(root, work)
        shutil.rmtree(work, ignore_errors=True)
    print("| process | " + " | ".join(f"{name}: instructions (x bare import)" for name in codes) + " |")
    print("|---|" + "---:|" * len(codes))
    for key in ("bare", "start", *COMMANDS):
        label = {"bare": 'python -c "import sqlalchemy, pydantic"',
                 "start": "python inference.py to its first [START], existing database"}.get(
                     key, LABELS.get(key, key))
        cells = [f"{c[key]:,} ({c[key] / c['bare']:.2f}x)" for c in counts.values()]
        print(f"| {label} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
