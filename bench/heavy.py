"""A plain session's step latency beside a client sending the heaviest replies the limits allow.

TicketLedger (``python -m server.app``, one worker) on a fresh SQLite file in the work directory.
One ``httpx`` client drafts replies of one-letter sentences ("a.a.a.", the most tokens per
character the reply limit allows, each distinct so no memo helps), back to back, from a thread;
meanwhile another client plays plain actions (priority, queue, noop, tag) in episodes of its own.
Rounds alternate: the plain client alone, then beside the heavy one, so a slow moment of a shared
machine hits both alike. Figures: the plain session's p99 step latency beside the heavy client
(bar 50 ms: a server that queued plain steps behind heavy ones showed about 280 ms), alone, and
their ratio; the heavy client's steps per round show it was stepping meanwhile.

A wall-clock bound measures the machine too, which is why it is here and not in the tests: the
tests hold the cost side as CPU-time ratios (``tests/api/test_heavy_clients.py``).
"""

from __future__ import annotations

import threading
import time
from contextlib import ExitStack
from pathlib import Path

import httpx

from bench import servers
from bench.common import Figure, log, percentile, ratio
from bench.http import post
from domain.actions import MAX_REPLY_CHARS

TASK = "task_hard_refund_fraud_trap"
PLAIN = ({"action_type": "classify_priority", "priority": "high"},
         {"action_type": "assign_queue", "queue": "billing"}, {"action_type": "noop"},
         {"action_type": "add_tag", "tag": "refund"})
P99_BAR_MS = 50.0
"""The bar for the plain session's p99 step latency beside the heavy client."""
HEAVY_EPISODE_STEPS = 8
"""Heavy replies per episode before a fresh reset (the task's step limit leaves room for them)."""


def heavy_reply(i: int) -> str:
    """The ``i``-th heaviest reply: distinct by its prefix, one-letter sentences to the limit."""
    return f"{i:06d}" + "a." * ((MAX_REPLY_CHARS - 6) // 2)


class HeavyClient:
    """Drafts heavy replies back to back from a thread until stopped; counts its steps."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.steps = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.error: BaseException | None = None

    def _run(self) -> None:
        try:
            with httpx.Client(base_url=self.url, timeout=60) as client:
                while not self._stop.is_set():
                    episode = post(client, "/reset", {"task_id": TASK})["episode_id"]
                    for _ in range(HEAVY_EPISODE_STEPS):
                        if self._stop.is_set():
                            return
                        post(client, "/step", {"episode_id": episode, "action": {
                            "action_type": "draft_reply", "reply_text": heavy_reply(self.steps)}})
                        self.steps += 1
        except BaseException as error:  # reported by stop(), in the measuring thread
            self.error = error

    def __enter__(self) -> HeavyClient:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        if self.error is not None:
            raise RuntimeError(f"the heavy client failed: {self.error}") from self.error


def plain_latencies(client: httpx.Client, steps: int) -> list[float]:
    """Play plain episodes until ``steps`` steps are timed; their latencies in ms, sorted."""
    latencies: list[float] = []
    while len(latencies) < steps:
        episode = post(client, "/reset", {"task_id": TASK})["episode_id"]
        for action in PLAIN:
            started = time.perf_counter()
            post(client, "/step", {"episode_id": episode, "action": action})
            latencies.append((time.perf_counter() - started) * 1000)
    return sorted(latencies)


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    rounds, steps = (2, 40) if quick else (7, 200)
    log(f"heavy: a plain session's p99 beside a heavy client, {rounds} rounds of {steps} steps")
    alone: list[float] = []
    beside: list[float] = []
    heavy_steps: list[float] = []
    with ExitStack() as stack:
        url, drop = servers.sqlite_file(workdir, "heavy")
        stack.callback(drop)
        server = stack.enter_context(servers.ticketledger(url))
        with httpx.Client(base_url=server.url, timeout=60) as client:
            plain_latencies(client, 20)  # warm up: imports, first-use paths, page cache
            for n in range(rounds):
                alone.append(percentile(plain_latencies(client, steps), 99))
                with HeavyClient(server.url) as heavy:
                    time.sleep(0.5)  # the heavy client is mid-reply when the plain steps start
                    beside.append(percentile(plain_latencies(client, steps), 99))
                heavy_steps.append(float(heavy.steps))
                log(f"  round {n + 1}: p99 alone {alone[-1]:.1f} ms, beside {beside[-1]:.1f} ms "
                    f"({heavy.steps} heavy steps meanwhile)")
    what = f"{steps} plain steps a round over HTTP, durable SQLite"
    alone_figure = Figure("heavy.alone_p99", "heavy: a plain session's p99 step, alone", "ms", alone,
                          higher=False, detail=what)
    beside_figure = Figure("heavy.beside_p99", "heavy: a plain session's p99 step, beside a client "
                           "drafting the heaviest replies", "ms", beside, target=P99_BAR_MS,
                           higher=False, detail=what)
    return [alone_figure, beside_figure,
            ratio("heavy.ratio", "heavy: p99 beside / alone", beside_figure, alone_figure,
                  higher=False, note="rounds alternate"),
            Figure("heavy.heavy_steps", "heavy: the heavy client's steps while the plain one played",
                   "steps", heavy_steps, show=False)]
