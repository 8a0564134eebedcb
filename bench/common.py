"""Figures, timing and the results table shared by every section."""

from __future__ import annotations

import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

RESULTS_DIR = Path(__file__).resolve().parent / "results"


@dataclass
class Figure:
    """One measured quantity: the value of each run, summarised as median and spread.

    ``target`` is the issue's bar for it (``higher`` says which side passes); figures without a
    target are informative.
    """

    key: str
    label: str
    unit: str
    runs: list[float]
    target: float | None = None
    higher: bool = True
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)
    detail: str = ""
    """Shown in the table's detail column (e.g. the latencies behind a throughput)."""
    show: bool = True
    """False: in the JSON results only (its value appears in another figure's detail)."""

    @property
    def median(self) -> float:
        return statistics.median(self.runs) if self.runs else float("nan")

    @property
    def spread(self) -> tuple[float, float]:
        return (min(self.runs), max(self.runs)) if self.runs else (float("nan"), float("nan"))

    @property
    def met(self) -> bool | None:
        if self.target is None or not self.runs:
            return None
        return self.median >= self.target if self.higher else self.median <= self.target

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.update(median=self.median, spread=list(self.spread), met=self.met)
        return out


def ratio(key: str, label: str, num: Figure, den: Figure, *, target: float | None = None,
          higher: bool = True, note: str = "") -> Figure:
    """A comparison of two figures of the same invocation, run by run (runs were interleaved)."""
    runs = [a / b for a, b in zip(num.runs, den.runs, strict=False) if b]
    return Figure(key, label, "x", runs, target=target, higher=higher, note=note)


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-th percentile (0..100) of already sorted values, nearest-rank."""
    if not sorted_values:
        return float("nan")
    rank = max(0, min(len(sorted_values) - 1, round(q / 100 * len(sorted_values) + 0.5) - 1))
    return sorted_values[rank]


def timed(fn: Callable[[], int]) -> tuple[int, float]:
    """Run ``fn`` (which returns a count) and return (count, seconds)."""
    start = time.perf_counter()
    count = fn()
    return count, time.perf_counter() - start


def _fmt(value: float) -> str:
    if value != value:  # nan
        return "-"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    if abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}"


def summary(f: Figure, unit: bool = True) -> str:
    """``median (min-max)`` of a figure, for another figure's detail column."""
    low, high = f.spread
    return f"{_fmt(f.median)}{' ' + f.unit if unit else ''} ({_fmt(low)}-{_fmt(high)})"


def table(figures: list[Figure]) -> str:
    """A Markdown table (readable in a terminal, pasteable into ``docs/performance.md``)."""
    rows = [("figure", "median", "spread (min-max)", "runs", "detail", "target", "met")]
    for f in figures:
        if not f.show:
            continue
        low, high = f.spread
        target = "" if f.target is None else ("≥ " if f.higher else "≤ ") + _fmt(f.target)
        met = {None: "", True: "yes", False: "NO"}[f.met]
        label = f"{f.label} ({f.unit})" + (f" [{f.note}]" if f.note else "")
        rows.append((label, _fmt(f.median), f"{_fmt(low)} - {_fmt(high)}", str(len(f.runs)),
                     f.detail, target, met))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for n, row in enumerate(rows):
        lines.append("| " + " | ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)) + " |")
        if n == 0:
            lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def machine() -> dict[str, Any]:
    import sqlite3

    return {"python": sys.version.split()[0], "platform": platform.platform(),
            "cpus": os.cpu_count(), "sqlite": sqlite3.sqlite_version}


def write_results(figures: list[Figure], meta: dict[str, Any], out_dir: Path = RESULTS_DIR) -> Path:
    """Write ``<timestamp>.json`` and ``latest.json`` under ``bench/results/`` (gitignored)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    payload = {"meta": {**meta, "machine": machine()}, "figures": [f.to_json() for f in figures],
               "table": table(figures)}
    text = json.dumps(payload, indent=2, default=str)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = out_dir / f"{stamp}.json"
    path.write_text(text, encoding="utf-8")
    (out_dir / "latest.json").write_text(text, encoding="utf-8")
    return path


PROC_STAT = Path("/proc/stat")
STEAL_WARNING = 5.0
"""Percent of CPU time taken by the hypervisor above which the figures are flagged."""


def cpu_times(text: str | None = None) -> tuple[int, int] | None:
    """(steal, wanted) CPU time of all cores, in clock ticks, from ``/proc/stat`` (Linux); None
    where there is no such file. ``wanted`` is the time the guest ran or was ready to run (busy
    plus steal, idle left out). ``text``: the file's contents (for tests)."""
    if text is None:
        try:
            text = PROC_STAT.read_text()
        except OSError:
            return None
    for line in text.splitlines():
        parts = line.split()
        if parts and parts[0] == "cpu":
            ticks = [int(x) for x in parts[1:]] + [0] * 8
            # user nice system idle iowait irq softirq steal (guest time is inside user and nice)
            user, nice, system, _idle, _iowait, irq, softirq, steal = ticks[:8]
            return steal, user + nice + system + irq + softirq + steal
    return None


def steal_percent(before: tuple[int, int] | None, after: tuple[int, int] | None) -> float | None:
    """The share of the CPU time the guest wanted that the hypervisor gave to other guests.

    On a shared virtual machine this is CPU the benchmark wanted and did not get: a run with
    much of it measures the neighbours as much as the code, so the table says so.
    """
    if before is None or after is None or after[1] <= before[1]:
        return None
    return 100.0 * (after[0] - before[0]) / (after[1] - before[1])


def log(message: str) -> None:
    """Progress goes to stderr so stdout holds only the table."""
    print(message, file=sys.stderr, flush=True)
