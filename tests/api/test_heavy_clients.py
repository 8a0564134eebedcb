"""One client sending the heaviest replies the limits allow cannot starve another session.

A real server on 127.0.0.1: one client drafts replies of one-letter sentences ("a.a.a.", the most
tokens per character, each distinct so no cache helps), back to back, while another session plays
plain actions. The plain session takes many steps for each heavy reply (counted, in the slow
tier); its p99 latency beside the heavy client is a wall-clock figure, so it lives in the bench
(``python -m bench --only heavy``, bar 50 ms), where rounds alone and beside alternate. The
plain tier holds the cost side: the heaviest step within the limits costs a bounded multiple of an
honest reply at the same limit (CPU time of the grading thread, a ratio, not wall time).
"""

from __future__ import annotations

import gc
import itertools
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest

from api.deps import HEAVY_CHARS, is_heavy
from bench.heavy import TASK, HeavyClient, plain_latencies
from domain.actions import EXPANSION, MAX_NOTE_CHARS, MAX_REPLY_CHARS
from domain.tasks import default_catalog
from tests.databases import sqlite_pass_only
from tests.offline import Offline
from tests.servers import module_database, start_server

pytestmark = sqlite_pass_only("CPU ratios of episodes played in memory, and one server beside the heavy "
                              "client on the default backend")


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


# Numbers the texts graded by the ratio tests, once per process: the graders remember what they
# read, so a text graded by an earlier parametrization would cost a later one almost nothing.
FRESH = itertools.count()

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
    of its own, never graded before in this process); grading an honest reply at the limit is the
    unit. These make a token of every character where prose makes one of five: linear reading
    keeps them within 10x of prose (the old tokenizer's rescanning, and an unbounded expansion,
    took them far past it)."""
    catalog = default_catalog()

    def grading(body: str) -> Callable[[], Any]:
        episodes = iter([Offline(catalog, TASK, 1) for _ in range(3)])  # opened before timing
        return lambda: next(episodes).step({"action_type": "draft_reply",
                                            "reply_text": f"{next(FRESH):05d}" + body[5:]})

    honest = (HONEST * (MAX_REPLY_CHARS // len(HONEST) + 1))[:MAX_REPLY_CHARS]
    with _frozen():
        ratio = _cpu(grading(text)) / _cpu(grading(honest))
    assert ratio < 10, f"{name}: {ratio:.1f}x an honest reply of the same length"


@pytest.mark.slow
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


@pytest.mark.slow
def test_plain_steps_are_not_queued_behind_a_heavy_clients_replies(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """While the heavy client drafts its replies back to back, a plain session keeps stepping
    between them: it takes many steps for each heavy one. A server that queued requests one after
    another would alternate them (about one plain step per heavy reply); shared fairly, a plain step
    costs a small share of a heavy one. Counted, not timed: the latency itself is a figure of
    ``python -m bench --only heavy``."""
    url = module_database(tmp_path_factory, "heavy_clients")
    with start_server(url) as server, httpx.Client(base_url=server.url, timeout=60) as plain:
        plain_latencies(plain, 8)  # warm up
        with HeavyClient(server.url) as heavy:
            while heavy.steps < 1:
                assert heavy.error is None, heavy.error
                time.sleep(0.05)
            first = heavy.steps
            plain_steps = 0
            while heavy.steps - first < HEAVY_STEPS and plain_steps < 5000:
                assert heavy.error is None, heavy.error
                plain_steps += len(plain_latencies(plain, 4))
            heavy_steps = heavy.steps - first
    assert heavy_steps >= HEAVY_STEPS, f"the heavy client took {heavy_steps} steps"
    assert plain_steps >= PLAIN_PER_HEAVY * heavy_steps, (
        f"{plain_steps} plain steps beside {heavy_steps} heavy replies")


HEAVY_STEPS = 4
"""Heavy replies to count plain steps beside."""
PLAIN_PER_HEAVY = 5
"""Plain steps a heavy reply must leave room for: a heavy reply costs tens of plain steps of CPU
(its grading reads a token per character), so a fair server serves far more than five."""
