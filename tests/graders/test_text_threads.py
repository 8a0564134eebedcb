"""The reply judge is called from many threads at once (the API's thread pool, ``inference.py``'s
concurrent episodes), so its text analysis must give every thread the same answers as one thread."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from graders import text as tx

WORDS = ["refunded", "running", "investigations", "escalated", "deletions", "happily",
         "verification", "approvals", "denied", "scheduling", "reviewing", "passwords"]


def test_stemming_from_many_threads_gives_one_thread_s_stems() -> None:
    # _stem is remembered per word; the stemmer underneath is what threads share, so call it
    # directly, many times over, from several threads at once
    alone = {w: tx._stemmer().stemWord(w) for w in WORDS}

    def stem_all(_: int) -> list[tuple[str, str]]:
        return [(w, tx._stemmer().stemWord(w)) for _ in range(300) for w in WORDS]

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = [pair for batch in pool.map(stem_all, range(8)) for pair in batch]
    wrong = [(w, got) for w, got in results if got != alone[w]]
    assert not wrong, wrong[:5]
