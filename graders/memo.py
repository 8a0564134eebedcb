"""Remembering what the grader read of a text, bounded by the text it holds, not by a count.

Every step grades the whole state again, so the readings of a text (its visible form, its tokens,
its claims, its rubric result) are remembered per text. What such an entry keeps grows with its
text: a reading holds objects for every token, and an adversarial reply within the size limits
makes many more tokens than an honest one ("a.a.a." is a token per character). A cache bounded
only by its number of entries is then bounded by nothing useful: a few thousand distinct heavy
replies kept gigabytes. :func:`text_cache` bounds a cache by the characters of the texts its
entries are keyed by as well as by their number, and every cache keyed by free text uses it, so
the memory a flood of distinct texts can hold is at most the sum of the budgets below times what
one character's reading weighs (``tests/graders/test_memo.py`` measures it).

Entries are keyed by value (the arguments, which are immutable), never by object identity.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

READING_CHARS = 1_000_000
"""The characters of text a cache of readings (tokens, claims, statements, entities: objects for
every word) holds. The readings of one text, all caches together, weigh up to about 250 bytes a
character (a text of one-letter sentences, "a.a.a."; prose about 70), so however the texts are
chosen these caches hold some 250 MB at most, and at any moment the readings of a thousand texts
of honest length."""
TEXT_CHARS = 2_000_000
"""The characters of text a cache of small results (a text's visible form, a rubric's verdict)
holds: its keys, the texts, are most of what it keeps, a few bytes a character."""
ENTRY_CHARS = 64
"""What an entry counts for besides its texts' characters (its key and bookkeeping), so that a
cache of many short texts is bounded too."""


def weight(args: tuple[object, ...]) -> int:
    """The characters an entry keyed by ``args`` counts for: its text arguments' lengths (texts in
    tuples too, named tuples of texts included, at any depth) plus :data:`ENTRY_CHARS`."""
    return ENTRY_CHARS + _chars(args)


def _chars(value: object) -> int:
    if isinstance(value, str):
        return len(value)
    if isinstance(value, tuple):
        return sum(_chars(v) for v in value)
    return 0


class TextCache(Generic[R]):
    """A least-recently-used map from arguments to a result, holding at most ``max_chars``
    characters of text (:func:`weight`) and ``max_entries`` entries; safe to use from several
    threads. An entry heavier than the whole budget is not kept."""

    def __init__(self, max_chars: int, max_entries: int):
        self.max_chars = max_chars
        self.max_entries = max_entries
        self.chars = 0
        self._entries: OrderedDict[Hashable, tuple[R, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> tuple[R] | None:
        """The result kept under ``key``, boxed (it becomes the most recently used), or None."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                return None
            self._entries.move_to_end(key)
            return (found[0],)

    def put(self, key: Hashable, result: R, chars: int) -> None:
        """Keep ``result`` under ``key``, dropping the least recently used entries past the
        bounds."""
        if chars > self.max_chars:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.chars -= old[1]
            self._entries[key] = (result, chars)
            self.chars += chars
            while self.chars > self.max_chars or len(self._entries) > self.max_entries:
                _, (_, dropped) = self._entries.popitem(last=False)
                self.chars -= dropped

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.chars = 0


class Remembered(Generic[P, R]):
    """A pure function of texts (and other immutable values) remembered in a :class:`TextCache`."""

    def __init__(self, fn: Callable[P, R], cache: TextCache[R]):
        self.fn = fn
        self.cache = cache
        functools.update_wrapper(self, fn)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        found = self.cache.get(key)
        if found is not None:
            return found[0]
        result = self.fn(*args, **kwargs)
        self.cache.put(key, result, weight((*args, *kwargs.values())))
        return result

    def cache_clear(self) -> None:
        """Forget every result (as ``functools.lru_cache``'s ``cache_clear``)."""
        self.cache.clear()


def text_cache(max_chars: int, max_entries: int) -> Callable[[Callable[P, R]], Remembered[P, R]]:
    """Remember a pure function of texts (and other immutable values) in a :class:`TextCache` of
    these bounds."""

    def decorate(fn: Callable[P, R]) -> Remembered[P, R]:
        return Remembered(fn, TextCache(max_chars, max_entries))

    return decorate
