"""What the customer would see of a text, in a form plain matching can trust.

An agent's reply is judged on what reaches the customer, so every rubric check runs on the text
this module returns, never on the raw draft. Without it a claim written with a Cyrillic "\u0435", a
zero-width space inside a word, markdown emphasis in the middle of a word ("re*fund*") or an HTML
comment slips past matching, and a key phrase hidden in a comment or a ``display:none`` element
earns credit the customer never sees.

The steps, in order:

1. zero-width, format and control characters removed (Unicode categories Cf and Cc, except line
   breaks and tabs), compatibility forms folded (NFKC: full-width letters, ligatures, superscripts),
   and letters confusable with ASCII folded to it (Unicode's confusables table, as shipped by
   ``confusable-homoglyphs``);
2. markdown rendered (CommonMark, by ``markdown-it-py``, raw HTML allowed as CommonMark allows it) and
   the resulting HTML reduced to its visible text: comments, ``<script>``/``<style>``/``<template>``,
   and elements hidden by the ``hidden`` attribute, ``aria-hidden``, or an inline style
   (``display:none``, ``visibility:hidden``, zero font size or opacity) are dropped; entities are
   decoded; block elements end a line;
3. step 1 again, since an entity can spell a zero-width or look-alike character.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from html.parser import HTMLParser
from typing import TYPE_CHECKING

from graders.memo import TEXT_CHARS, text_cache

SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n+")
"""Where one sentence of a text ends and the next begins: after ".", "!" or "?" and a space, or at
a line break. The judges read many rules sentence by sentence; they all split here."""


def sentence_of(plain: str, words: str) -> tuple[str, int] | None:
    """The first sentence of ``plain`` that holds ``words`` and where they start in it, or None:
    where a rule reads what stands around words another rule quoted."""
    for sentence in SENTENCE_END.split(plain):
        at = sentence.find(words)
        if at >= 0:
            return sentence, at
    return None

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

# The two libraries are imported by the first text that needs them, not with the graders: loading the
# confusables table and the markdown parser takes longer than the rest of the graders package,
# and a process that grades no text (a command that only reads, the start of inference.py)
# should not pay for them.

_KEEP_CONTROLS = frozenset("\n\t")
_BLOCK_TAGS = frozenset((
    "p br div li ul ol h1 h2 h3 h4 h5 h6 tr table blockquote pre hr section article header footer "
    "dd dt dl td th"
).split())
_INVISIBLE_TAGS = frozenset("script style template head title noscript object iframe svg".split())
_VOID_TAGS = frozenset("area base br col embed hr img input link meta source track wbr".split())
_HIDING_STYLE = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])|"
    r"opacity\s*:\s*0(?![.\d]*[1-9])|color\s*:\s*(?:transparent|white|#fff\b|#ffffff\b)"
    r"|(?:max-)?(?:height|width)\s*:\s*0(?![.\d]*[1-9])",
    re.IGNORECASE)


@cache
def _fold_table() -> dict[int, str]:
    """Every non-ASCII character Unicode lists as confusable with one printable ASCII character,
    mapped to that character (Cyrillic U+0430 to "a", Greek U+03BF to "o", ...)."""
    from confusable_homoglyphs import confusables  # deferred: see the imports above

    table: dict[int, str] = {}
    for char, entries in confusables.confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        for entry in entries:
            target = entry["c"]
            if len(target) == 1 and target.isascii() and target.isprintable() and not target.isspace():
                # Unicode's skeletons fold I and l together; a capital look-alike of I reads I
                table[ord(char)] = "I" if target == "l" and char.isupper() else target
                break
    return table


_INVISIBLE_CATEGORIES = frozenset(("Cf", "Cc", "Co", "Cs", "Cn"))
_INVISIBLE_ASCII = {code: None for code in range(128) if chr(code) not in _KEEP_CONTROLS
                    and unicodedata.category(chr(code)) in _INVISIBLE_CATEGORIES}
"""The ASCII characters :func:`_strip_invisible` removes (the C0 controls but tab and line feed,
and DEL), as a ``str.translate`` table."""


def _strip_invisible(text: str) -> str:
    """Remove format (zero-width, bidi, soft hyphen) and control characters; keep line breaks."""
    if text.isascii():  # most replies: one pass in C instead of a category lookup per character
        return text.translate(_INVISIBLE_ASCII)
    return "".join(c for c in text if c in _KEEP_CONTROLS
                   or unicodedata.category(c) not in _INVISIBLE_CATEGORIES)


def clean(text: str) -> str:
    """Step 1: invisible characters removed, NFKC, confusables folded to ASCII."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = unicodedata.normalize("NFKC", _strip_invisible(text))
    if text.isascii():
        return text
    return _strip_invisible(text.translate(_fold_table()))


class _VisibleText(HTMLParser):
    """Collects the text a browser would show; hidden subtrees are skipped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden: list[str] = []  # open tags of the outermost hidden element and its children

    def _hides(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        if tag in _INVISIBLE_TAGS:
            return True
        values = {k.lower(): (v or "") for k, v in attrs}
        return ("hidden" in values or values.get("aria-hidden", "").lower() == "true"
                or bool(_HIDING_STYLE.search(values.get("style", ""))))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID_TAGS:
            if tag in _BLOCK_TAGS and not self._hidden:
                self.parts.append("\n")
            return
        if self._hidden or self._hides(tag, attrs):
            self._hidden.append(tag)
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK_TAGS and not self._hidden:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if self._hidden:
            if tag in self._hidden:  # close up to the matching open tag (tolerates sloppy nesting)
                while self._hidden and self._hidden.pop() != tag:
                    pass
            return
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


@cache
def _markdown() -> MarkdownIt:
    from markdown_it import MarkdownIt  # deferred: see the imports above

    return MarkdownIt("commonmark")


def load_libraries() -> None:
    """Load the confusables table and the markdown parser now instead of at the first text (see
    the imports above): for a process that will read texts and wants what they load made before
    it freezes its start-up objects (:func:`graders.load_text_libraries`)."""
    _fold_table()
    _markdown()


def html_text(html: str) -> str:
    """The visible text of an HTML fragment (see the module docstring for what is hidden)."""
    parser = _VisibleText()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def _tidy(text: str) -> str:
    lines = [re.sub(r"[ \t]+", " ", line).strip() for line in text.split("\n")]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


@text_cache(max_chars=TEXT_CHARS, max_entries=4096)
def visible(text: str) -> str:
    """The text as the customer would see it, cleaned for matching (module docstring)."""
    rendered = _markdown().render(clean(text))
    return _tidy(clean(html_text(rendered)))
