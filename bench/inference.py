"""``python inference.py`` with the built-in policy over every task: wall time and start-up.

Start-up is the time from launching the process to its first ``[START]`` line (imports, opening
and, on a fresh database, migrating the log). Each run is a fresh process in a fresh directory,
as after ``pip install -e . && python inference.py``: "fresh" runs start with no database, "warm"
runs reuse the database the previous run left. No LLM key is passed, so the built-in policy plays.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench.common import Figure, log

ROOT = Path(__file__).resolve().parent.parent
SCRUBBED = ("API_KEY", "HF_TOKEN", "OPENAI_API_KEY", "ENV_BASE_URL", "DATABASE_URL", "AGENT")


def _run_once(cwd: Path) -> tuple[float, float]:
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, str(ROOT / "inference.py")], cwd=cwd, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    first = None
    assert process.stdout is not None
    ends = 0
    for line in process.stdout:
        if first is None and line.startswith("[START]"):
            first = time.perf_counter() - started
        ends += line.startswith("[END]")
    status = process.wait(timeout=120)
    total = time.perf_counter() - started
    if status != 0 or first is None or ends == 0:
        raise RuntimeError(f"inference.py exited with {status} after {ends} episodes")
    return first, total


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    runs = 1 if quick else 5
    sub = workdir / "inference"
    fresh_start, fresh_total, warm_start, warm_total = [], [], [], []
    for n in range(runs):
        shutil.rmtree(sub, ignore_errors=True)
        sub.mkdir(parents=True)
        first, total = _run_once(sub)  # no database yet: migrates
        fresh_start.append(first)
        fresh_total.append(total)
        first, total = _run_once(sub)  # the database exists and is current
        warm_start.append(first)
        warm_total.append(total)
        log(f"inference run {n + 1}: fresh db start-up {fresh_start[-1]:.3f} s, total "
            f"{fresh_total[-1]:.2f} s; existing db start-up {first:.3f} s, total {total:.2f} s")
    shutil.rmtree(sub, ignore_errors=True)
    return [
        Figure("inference.total_fresh", "python inference.py, every task, fresh database", "s",
               fresh_total, target=3.0, higher=False),
        Figure("inference.startup_fresh", "python inference.py start-up to first [START], fresh "
               "database", "s", fresh_start, target=0.5, higher=False),
        Figure("inference.total_warm", "python inference.py, every task, existing database", "s",
               warm_total, target=3.0, higher=False),
        Figure("inference.startup_warm", "python inference.py start-up, existing database", "s",
               warm_start, target=0.5, higher=False),
    ]
