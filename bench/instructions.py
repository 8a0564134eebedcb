"""Instructions per step and per replayed event, counted by callgrind: the code's cost, not the machine's.

On the shared virtual machines this project runs on, wall-clock figures of the same code move 2x
from minute to minute (``docs/performance.md``). Valgrind's callgrind counts the instructions a process
executes instead: for the same code, inputs and interpreter it repeats to about 1%, whatever else
the machine is doing, so a change to the code can be measured on any machine, alone.

Each figure runs its workload in a child Python under ``valgrind --tool=callgrind`` twice, both
with the same warm-up pass: once with no measured pass and once with ``passes`` of them. The
difference, divided by the steps (or events) of the measured passes, is the cost of one: start-up,
imports and warm-up cancel out. Both children run at once (one per core) with ``PYTHONHASHSEED``
fixed. Workloads:

* ``step``: ``EnvironmentService.step_many``, 16 episodes side by side, log in memory
  (``sqlite://``), resets included: what ``inprocess.memory_vector`` times;
* ``parts``: the domain's pure pipeline alone (``bench.parts.play``): what ``parts.ceiling`` times;
  ``parts@<part>`` plays it only up to one of its parts, and :func:`parts_breakdown` counts each
  part from those (a full run of the section adds this breakdown);
* ``replay``: fold, re-grade and chain check of stored episodes, events in memory (``service.replay.replay``).

Kernel work (a durable commit's writes) is not counted: callgrind sees user space only.

Run only when named (``python -m bench --only instructions``): it needs valgrind (Debian's
``valgrind`` package) and takes about 20 minutes (a few with ``--quick``, which leaves out the
breakdown of the parts). It is not part of CI; its check in
``tests/e2e/test_bench.py`` runs only with ``TICKETLEDGER_BENCH_VALGRIND=1``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.common import Figure, log

WORKLOADS = ("step", "parts", "replay")
STEP_BAR = 2 * 720_615
"""The former bar: instructions per in-memory step at most twice 720,615, the figure when it was
set (retired as a bar: no user sees instructions; still reported, to compare code)."""
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")
_UNITS = re.compile(r"^units (\d+)$", re.MULTILINE)
CHILD_TIMEOUT_S = 1800
"""A child under callgrind on a loaded, shared 2-core machine took over 10 minutes."""
REPLAY_EVENTS = 700
"""Events the replay workload stores: about one pass of the scripted plans."""


class Unavailable(RuntimeError):
    """valgrind is not installed."""


def _play(workload: str, passes: int) -> int:
    """In the child: one warm-up pass, then ``passes`` measured ones; returns the units measured."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from bench.workload import plans

    work = plans()
    if workload == "parts" or workload.startswith("parts@"):
        from bench.parts import play

        upto = workload.partition("@")[2] or "chain"
        play(work)  # the warm-up plays every part, whatever the measured passes leave out
        return sum(play(work, upto)[1] for _ in range(passes))
    if workload == "step":
        from bench.inprocess import run_vector
        from service import EnvironmentService
        from store import open_database

        service = EnvironmentService(open_database("sqlite://"))
        run_vector(service, work, 1)
        return sum(run_vector(service, work, 1) for _ in range(passes))
    if workload == "replay":
        import tempfile

        from bench.replay import build_log, load_all
        from domain.tasks import default_catalog
        from service.replay import replay

        with tempfile.TemporaryDirectory() as tmp:  # the replay section's episodes, about one pass
            url = f"sqlite:///{Path(tmp) / 'replay.db'}"
            build_log(url, REPLAY_EVENTS)
            episodes = load_all(url)
        catalog = default_catalog()
        for recorded in episodes:
            replay(recorded, catalog, steps=False)
        events = 0
        for _ in range(passes):
            for recorded in episodes:
                replay(recorded, catalog, steps=False)
                events += len(recorded)
        return events
    raise ValueError(f"unknown workload {workload!r}; one of {', '.join(WORKLOADS)}")


def count(workload: str, passes: int) -> tuple[int, int]:
    """Instructions callgrind counted for a child playing ``workload`` with ``passes`` measured
    passes after the warm-up, and the units (steps or events) those passes held."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise Unavailable("valgrind is not installed (Debian: apt-get install valgrind)")
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        [valgrind, "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-m",
         "bench.instructions", workload, str(passes)],
        capture_output=True, text=True, env=env, timeout=CHILD_TIMEOUT_S,
        cwd=Path(__file__).resolve().parent.parent, check=False)
    refs, units = _REFS.search(done.stderr), _UNITS.search(done.stdout)
    if done.returncode != 0 or refs is None or units is None:
        raise RuntimeError(f"callgrind run of {workload} failed ({done.returncode}): "
                           f"{done.stderr[-2000:]}")
    return int(refs.group(1).replace(",", "")), int(units.group(1))


def per_unit(workload: str, passes: int) -> float:
    """Instructions per step (or event) of ``workload``: ``passes`` measured passes against none,
    both children run side by side."""
    with ThreadPoolExecutor(2) as pool:
        base, measured = pool.map(lambda n: count(workload, n), (0, passes))
    if measured[1] <= 0:
        raise RuntimeError(f"{workload}: the measured passes held no steps")
    return (measured[0] - base[0]) / measured[1]


def parts_breakdown(passes: int) -> dict[str, float]:
    """Instructions per step of each part of the domain's pipeline (``bench.parts.PARTS``).

    One child plays the warm-up alone; one per part plays the same warm-up, then ``passes`` passes
    of the parts up to that one (``bench.parts.play``'s ``upto``). A part's figure is the
    difference between its child and the one before it, so every part's cost is counted with the
    same warm state. Two children at a time, one per core."""
    from bench.parts import PARTS

    with ThreadPoolExecutor(2) as pool:
        counted = list(pool.map(lambda job: count(*job),
                                [("parts", 0), *((f"parts@{part}", passes) for part in PARTS)]))
    base = counted[0][0]
    cumulative = [0.0, *((refs - base) / units for refs, units in counted[1:])]
    return {part: cumulative[i + 1] - cumulative[i] for i, part in enumerate(PARTS)}


_LABELS = {
    "step": ("instructions: a step, log in memory, 16 side by side (resets included)",
             "instructions/step"),
    "parts": ("instructions: the domain's pure pipeline of a step (the parts section)",
              "instructions/step"),
    "replay": ("instructions: a replayed event (fold, re-grade, chain check; events in memory)",
               "instructions/event"),
}


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    del workdir  # nothing is written
    runs, passes = (1, 1) if quick else (2, 2)
    figures = []
    for workload in WORKLOADS:
        try:
            values = [per_unit(workload, passes) for _ in range(runs)]
        except Unavailable as exc:
            log(f"instructions: skipped: {exc}")
            return []
        log(f"instructions {workload}: " + ", ".join(f"{v:,.0f}" for v in values))
        label, unit = _LABELS[workload]
        figures.append(Figure(f"instructions.{workload}", label, unit, values, higher=False,
                              target=STEP_BAR if workload == "step" else None,
                              detail="callgrind: repeats to ~1% on one machine, whatever its load"))
    if not quick:  # eight more children: where the pipeline's instructions go, part by part
        for part, value in parts_breakdown(passes).items():
            log(f"instructions parts@{part}: {value:,.0f}")
            figures.append(Figure(f"instructions.part.{part.replace(' ', '_')}",
                                  f"instructions: the pipeline's part {part!r} (per step)",
                                  "instructions/step", [value], higher=False,
                                  detail="callgrind: this part's play less the one before it"))
    return figures


if __name__ == "__main__":
    print(f"units {_play(sys.argv[1], int(sys.argv[2]))}")
