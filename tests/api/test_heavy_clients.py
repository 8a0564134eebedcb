"""One client sending the heaviest replies the limits allow cannot starve another session.

A real server on 127.0.0.1: one client drafts replies of one-letter sentences ("a.a.a.", the most
tokens per character, each distinct so no cache helps), back to back, while another session plays
plain actions. The plain session's p99 step latency over 100 steps stays at or under 50 ms (a
wall-clock bound, so in the slow tier: on a busy shared machine it measures the machine too). The
plain tier holds the cost side: the heaviest step within the limits costs a bounded multiple of an
honest reply at the same limit (CPU time of the grading thread, a ratio, not wall time).
"""

from __future__ import annotations

import gc
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from api.deps import HEAVY_CHARS, is_heavy
from domain.actions import EXPANSION, MAX_NOTE_CHARS, MAX_REPLY_CHARS
from domain.tasks import default_catalog
from tests.databases import sqlite_pass_only
from tests.offline import Offline
from tests.servers import module_database, start_server

TASK = "task_hard_refund_fraud_trap"
PLAIN = [{"action_type": "classify_priority", "priority": "high"},
         {"action_type": "assign_queue", "queue": "billing"}, {"action_type": "noop"},
         {"action_type": "add_tag", "tag": "refund"}]


def _heavy_reply(i: int) -> str:
    return f"{i:06d}" + "a." * ((MAX_REPLY_CHARS - 6) // 2)


def test_a_step_is_heavy_by_the_text_it_brings() -> None:
    assert is_heavy({"action_type": "draft_reply", "reply_text": "x" * HEAVY_CHARS})
    assert not is_heavy({"action_type": "draft_reply", "reply_text": "x" * (HEAVY_CHARS - 1)})
    assert not is_heavy({"action_type": "noop"}) and not is_heavy(["not", "an", "action"])


def _cpu(grade: Callable[[], Any], rounds: int = 3) -> float:
    """Median CPU time of this thread for ``grade``, with the garbage collector held off while it
    runs: a full collection walks every object the test process holds (the graders' memos, what
    earlier tests left), so its pause measures the process, not the text being graded."""
    samples = []
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        try:
            start = time.thread_time()
            grade()
            samples.append(time.thread_time() - start)
        finally:
            gc.enable()
    return statistics.median(samples)


@contextmanager
def _frozen() -> Iterator[None]:
    """What the process holds now kept out of the collections :func:`_cpu` runs between rounds
    (``gc.freeze``), so each walks only what the rounds left: in a worker that had run other test
    files a full walk took a quarter of a second, most of this file's time. The rounds are still
    timed with the collector off. For steps of a tenth of a second or more, as the replies here,
    the ratios come out as with full walks (1 to 3.4 alone, either way); the notes test below
    keeps them: its steps take a few milliseconds, and without a walk before each the step after
    one note ran warmer than the one after nine (its ratio rose from about 7 to 8 alone, and
    past its bound once in the full suite)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


HONEST = ("Hi Sam, thank you for your patience while we looked into the charge on your order. "
          "We have opened a fraud review, and a specialist will reply within two business days. ")


@pytest.mark.parametrize(("name", "text"), [
    ("one-letter sentences", "a." * (MAX_REPLY_CHARS // 2)),
    ("U+33C2 to the expansion limit", "\u33c2" * (EXPANSION * MAX_REPLY_CHARS // 4)),
    ("list items", "- a\n" * (MAX_REPLY_CHARS // 4)),
    ("e-mail address characters", "a.m." * (MAX_REPLY_CHARS // 4 - 1) + "@x"),
])
def test_the_heaviest_reply_costs_a_bounded_multiple_of_an_honest_one(name: str, text: str) -> None:
    """Each reply is graded fresh (a distinct text each round, each the first step of an episode
    of its own); grading an honest reply at the limit is the unit. These make a token of every
    character where prose makes one of five, and cost about that much more per token read: linear
    reading keeps them within 40x (the old tokenizer's rescanning, and an unbounded expansion,
    took them far past it)."""
    catalog = default_catalog()
    counter = iter(range(10**6))

    def grading(body: str) -> Callable[[], Any]:
        episodes = iter([Offline(catalog, TASK, 1) for _ in range(3)])  # opened before timing
        return lambda: next(episodes).step({"action_type": "draft_reply",
                                            "reply_text": f"{next(counter):05d}" + body[5:]})

    honest = (HONEST * (MAX_REPLY_CHARS // len(HONEST) + 1))[:MAX_REPLY_CHARS]
    with _frozen():
        ratio = _cpu(grading(text)) / _cpu(grading(honest))
    assert ratio < 40, f"{name}: {ratio:.1f}x an honest reply of the same length"


def test_nine_long_notes_cost_a_bounded_multiple_of_one() -> None:
    """Each later step of an episode with nine notes at their limit reads them again only as much
    as a plain step needs: a noop after them costs a bounded multiple of a noop after one. Each
    noop is the next step of an episode of its own, played up to it before timing (the task's
    step limit leaves room for one step after nine notes)."""
    catalog = default_catalog()
    body = (HONEST * (MAX_NOTE_CHARS // len(HONEST) + 1))[:MAX_NOTE_CHARS - 6]

    def noop_after(notes: int) -> Callable[[], Any]:
        episodes = []
        for _ in range(7):
            episode = Offline(catalog, TASK, 2)
            for i in range(notes):
                episode.step({"action_type": "add_internal_note", "note": f"{i:06d}" + body})
            episodes.append(episode)
        played = iter(episodes)
        return lambda: next(played).step({"action_type": "noop"})

    one, nine = noop_after(1), noop_after(9)
    after_one = max(_cpu(one, 7), 1e-4)
    ratio = _cpu(nine, 7) / after_one
    assert ratio < 10, f"a step after nine notes cost {ratio:.1f}x one after a single note"


ROUNDS = 3
"""Rounds of 100 plain steps beside the heavy client; the bound must hold in one of them. CI runs
the slow tier beside the PostgreSQL pass on two cores, so a round can lose a few steps to the
other processes; a server that queues plain steps behind heavy ones breaks the bound in every
round (p99 about 280 ms when it did)."""


@pytest.mark.slow
@sqlite_pass_only("a latency bound, measured once beside the heavy client on the default backend")
def test_a_heavy_client_does_not_raise_another_sessions_p99_above_50_ms(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    url = module_database(tmp_path_factory, "heavy_clients")
    with start_server(url) as server:
        stop = threading.Event()
        heavy_steps = 0

        def heavy() -> None:
            nonlocal heavy_steps
            with httpx.Client(base_url=server.url, timeout=60) as client:
                i = 0
                while not stop.is_set():
                    eid = client.post("/reset", json={"task_id": TASK}).json()["episode_id"]
                    for _ in range(8):
                        if stop.is_set():
                            break
                        reply = client.post("/step", json={"episode_id": eid, "action": {
                            "action_type": "draft_reply", "reply_text": _heavy_reply(i)}})
                        assert reply.status_code == 200, reply.text
                        i += 1
                        heavy_steps += 1

        rounds: list[tuple[float, float, int]] = []
        with httpx.Client(base_url=server.url, timeout=60) as plain:
            def plain_steps(n: int) -> list[float]:
                latencies: list[float] = []
                while len(latencies) < n:
                    eid = plain.post("/reset", json={"task_id": TASK}).json()["episode_id"]
                    for action in PLAIN:
                        start = time.perf_counter()
                        reply = plain.post("/step", json={"episode_id": eid, "action": action})
                        latencies.append(time.perf_counter() - start)
                        assert reply.status_code == 200, reply.text
                return latencies

            plain_steps(20)  # warm up
            for _ in range(ROUNDS):
                stop.clear()
                heavy_steps = 0
                worker = threading.Thread(target=heavy)
                worker.start()
                try:
                    time.sleep(1.0)
                    latencies = sorted(plain_steps(100))
                finally:
                    stop.set()
                    worker.join()
                assert heavy_steps >= 3, heavy_steps  # the heavy client was stepping meanwhile
                rounds.append((latencies[98] * 1000, latencies[50] * 1000, heavy_steps))
                if rounds[-1][0] <= 50:
                    break
        shown = "; ".join(f"p99 {p99:.1f} ms, p50 {p50:.1f} ms beside {n} heavy steps"
                          for p99, p50, n in rounds)
        print(shown)
        assert min(p99 for p99, _, _ in rounds) <= 50, shown
