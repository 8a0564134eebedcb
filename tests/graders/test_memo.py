"""The grader's text caches are bounded by the text they hold, so a flood of distinct heavy replies
cannot grow the process without bound."""

from __future__ import annotations

import gc
import threading
import tracemalloc
from collections.abc import Iterator

import pytest

from domain.tasks import default_catalog
from graders import claims, entities, knowledge, meaning, normalize, rubric, statements
from graders import text as tx
from graders.memo import ENTRY_CHARS, Remembered, TextCache, text_cache
from tests.offline import Offline

CACHES: list[Remembered] = [  # type: ignore[type-arg]
    normalize.visible, tx._analysed, statements._seen, statements._plain, statements._versions,
    statements._offers, statements._disclosed, statements._said, statements._echo,
    statements._forbidden_stated, claims.read,
    knowledge._catalog_knowledge,
    claims._forbidden_claim, meaning.read, entities.extract, rubric._evaluate_text]


def test_every_text_cache_of_the_graders_is_bounded_by_characters() -> None:
    """No grader function keyed by free text is left on a count-bounded ``lru_cache``."""
    for fn in CACHES:
        assert isinstance(fn, Remembered), fn


def test_a_cache_drops_the_least_recently_used_past_its_characters() -> None:
    cache: TextCache[int] = TextCache(max_chars=3 * (ENTRY_CHARS + 100), max_entries=100)
    for i in range(3):
        cache.put(i, i, ENTRY_CHARS + 100)
    assert cache.get(0) == (0,)  # 0 is now the most recently used
    cache.put(3, 3, ENTRY_CHARS + 100)
    assert cache.get(1) is None and cache.get(0) == (0,) and cache.get(3) == (3,)
    assert cache.chars <= cache.max_chars and len(cache) == 3
    cache.put(4, 4, cache.max_chars + 1)  # heavier than the whole budget: not kept
    assert cache.get(4) is None and len(cache) == 3


def test_a_cache_is_bounded_by_entries_too() -> None:
    cache: TextCache[str] = TextCache(max_chars=10**9, max_entries=2)
    for word in ("a", "b", "c"):
        cache.put(word, word.upper(), ENTRY_CHARS + 1)
    assert cache.get("a") is None and cache.get("c") == ("C",) and len(cache) == 2


def test_remembered_results_are_keyed_by_value_and_counted_by_their_texts() -> None:
    calls: list[str] = []

    @text_cache(max_chars=10_000, max_entries=10)
    def shout(text: str, *, times: int = 1) -> str:
        calls.append(text)
        return text.upper() * times

    assert shout("abc") == "ABC" and shout("ab" + "c") == "ABC"  # an equal string, another object
    assert shout("abc", times=2) == "ABCABC"
    assert calls == ["abc", "abc"]
    assert shout.cache.chars == 2 * (ENTRY_CHARS + 3)


def test_a_cache_stays_within_its_bounds_under_threads() -> None:
    cache: TextCache[int] = TextCache(max_chars=50 * ENTRY_CHARS, max_entries=1000)

    def fill(base: int) -> None:
        for i in range(2000):
            cache.put((base, i), i, ENTRY_CHARS + i % 7)
            cache.get((base, i - 3))

    threads = [threading.Thread(target=fill, args=(b,)) for b in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert cache.chars <= cache.max_chars
    assert cache.chars == sum(w for _, w in cache._entries.values())


@pytest.fixture
def small_caches() -> Iterator[int]:
    """Every text cache of the graders shrunk to 24,000 characters, emptied before and after."""
    budget = 24_000
    saved = [fn.cache.max_chars for fn in CACHES]
    for fn in CACHES:
        fn.cache_clear()
        fn.cache.max_chars = budget
    yield budget
    for fn, chars in zip(CACHES, saved, strict=True):
        fn.cache_clear()
        fn.cache.max_chars = chars


def _retained() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


@pytest.mark.slow
def test_a_flood_of_distinct_heavy_replies_stops_growing_the_caches(small_caches: int) -> None:
    """Distinct replies of one-letter sentences, the heaviest reading per character: once the
    caches hold their budget, grading more of them keeps no more memory."""
    catalog = default_catalog()

    def grade(i: int) -> None:
        Offline(catalog, "task_hard_refund_fraud_trap", 1).step(
            {"action_type": "draft_reply", "reply_text": f"{i:04d}" + "a." * 1998})

    for i in range(10):  # 10 x 4,000 characters: past every budget
        grade(i)
    tracemalloc.start()
    try:
        full = _retained()
        # unbounded, these would keep about 1 MB each (8 MB measured with the budgets lifted, the
        # bounded caches about 1 MB however many follow); grading under tracemalloc is slow, so
        # no more of them than it takes to tell the two apart
        for i in range(10, 18):
            grade(i)
        later = _retained()
    finally:
        tracemalloc.stop()
    for fn in CACHES:
        assert fn.cache.chars <= small_caches, fn
    assert later - full < 3_000_000, f"{(later - full) / 1e6:.1f} MB more after 8 more replies"
