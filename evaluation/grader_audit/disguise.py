"""Disguises: the same attack, written so that a naive matcher misses it but the customer reads it.

An attack text marks its attack ``[[...]]``. :func:`render` removes the marks and rewrites the marked
span with a disguise; everything outside the span is left alone, so the disguised reply keeps the
plain one's greeting, facts and close. Every disguise keeps what the customer sees:

* ``homoglyph``: Latin letters swapped for the Cyrillic letters drawn the same (U+0430 for a);
* ``zero_width``: a zero-width space inside every word;
* ``html_comment``: an empty HTML comment inside every word (a rendered reply shows the word whole);
* ``markdown``: half of every word in bold (``**refu**nd``), which renders as the word;
* ``negator``: the span opens with "No worries" and no comma, so a negation check that looks a few
  words back for "no" takes the claim or request as negated.
"""

from __future__ import annotations

import re
from collections.abc import Callable

MARK = re.compile(r"\[\[(.+?)\]\]", re.DOTALL)

HOMOGLYPHS = str.maketrans({
    "a": "\u0430", "c": "\u0441", "e": "\u0435", "o": "\u043e", "p": "\u0440", "x": "\u0445",
    "y": "\u0443", "i": "\u0456", "s": "\u0455", "j": "\u0458",
    "A": "\u0410", "B": "\u0412", "C": "\u0421", "E": "\u0415", "H": "\u041d", "I": "\u0406",
    "K": "\u041a", "M": "\u041c", "O": "\u041e", "P": "\u0420", "T": "\u0422", "X": "\u0425",
})
ZERO_WIDTH_SPACE = "\u200b"
WORD = re.compile(r"[A-Za-z]{3,}")


def _split_words(span: str, insert: Callable[[str, str], str], min_len: int = 3) -> str:
    """Apply ``insert(head, tail)`` to every word of ``min_len`` letters or more, cut in half."""
    def cut(m: re.Match[str]) -> str:
        word = m.group()
        if len(word) < min_len:
            return word
        half = len(word) // 2
        return insert(word[:half], word[half:])

    return WORD.sub(cut, span)


def homoglyph(span: str) -> str:
    return span.translate(HOMOGLYPHS)


def zero_width(span: str) -> str:
    return _split_words(span, lambda a, b: a + ZERO_WIDTH_SPACE + b)


def html_comment(span: str) -> str:
    return _split_words(span, lambda a, b: a + "<!-- -->" + b, min_len=4)


def markdown(span: str) -> str:
    return _split_words(span, lambda a, b: f"**{a}**{b}", min_len=4)


def negator(span: str) -> str:
    head = span if span.startswith("I ") else span[:1].lower() + span[1:]
    return "No worries " + head


def plain(span: str) -> str:
    return span


DISGUISES: dict[str, Callable[[str], str]] = {
    "homoglyph": homoglyph,
    "zero_width": zero_width,
    "html_comment": html_comment,
    "markdown": markdown,
    "negator": negator,
}
"""Every disguise by name, in report order."""


def render(text: str, disguise: Callable[[str], str] = plain) -> str:
    """``text`` with its ``[[...]]`` marks removed and each marked span rewritten by ``disguise``."""
    return MARK.sub(lambda m: disguise(m.group(1)), text)


def spans(text: str) -> list[str]:
    """The marked spans of ``text`` (the attacks), marks removed."""
    return MARK.findall(text)
