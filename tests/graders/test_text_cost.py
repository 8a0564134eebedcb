"""The tokenizer reads a text in time linear in its length, and reads it as it always did.

The reference below is the single pattern the tokenizer used to be (an e-mail address first):
every token must stay exactly where it found one, since recorded episodes are graded with it. The
cost is measured as this thread's CPU time (not wall time, so other processes on the machine do
not count), as a ratio between a text and one eight times as long: linear reading makes it about
8, the old rescanning of address characters made it about 64.
"""

from __future__ import annotations

import random
import re
import statistics
import time

import pytest

from graders import text as tx

REFERENCE = re.compile(
    r"[a-z0-9][a-z0-9._%+-]*@[a-z0-9-]+(?:\.[a-z0-9-]+)+"
    r"|\$?\d+(?:[.,]\d+)*%?"
    r"|[a-z]+(?:'[a-z]+)*"
    r"|[.!?;:,\n()\[\]\"]|\s[-\u2013\u2014]+\s|-")


def _reference(text: str) -> list[tuple[str, int, int]]:
    return [(m.group(), m.start(), m.end()) for m in REFERENCE.finditer(text)]


@pytest.mark.parametrize("text", [
    "john.doe@example.com", "write to -john@x.com today", "$5.00john@x.com", "o'neil.x@y.com",
    "a@b", "a@b.c.", ".a@b.c", "_a@b.c", "x_y@b-c.d-e", "a@b.c@d.e", "mail me at me@x.io, or @ you",
    "a.m." * 50 + "@", "a.m." * 50 + "@x.y", "5-7 days - or \u2014 so", "",
])
def test_tokens_are_those_of_the_single_pattern(text: str) -> None:
    assert list(tx._tokens(text)) == _reference(text)


def test_tokens_match_the_single_pattern_on_random_texts() -> None:
    rng = random.Random(7)
    alphabet = "ab1.@_%+-$', \n()\u00e9\u0663x.\u2014"
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        assert list(tx._tokens(text)) == _reference(text), repr(text)


def _cpu(text: str, rounds: int = 5) -> float:
    """Median CPU time of this thread to tokenize ``text``."""
    samples = []
    for _ in range(rounds):
        start = time.thread_time()
        for _ in tx._tokens(text):
            pass
        samples.append(time.thread_time() - start)
    return statistics.median(samples)


@pytest.mark.parametrize("unit", ["a.m.", "a.", "a-", "1.", "a.m.@", "x_"])
def test_tokenizing_grows_linearly_with_the_text(unit: str) -> None:
    """A run of e-mail address characters (what NFKC makes of U+33C2, "a.m.", repeated) cost the
    square of its length: the address was tried from every token start to the end of the run."""
    short, long = unit * 250, unit * 2000
    _cpu(short)  # warm up
    ratio = _cpu(long) / max(_cpu(short), 1e-6)
    assert ratio < 24, f"8x the text took {ratio:.1f}x the time"
