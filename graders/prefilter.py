"""One look for a long list of expressions: whether any of them can match a text at all.

The judges read a text against long ordered lists of regular expressions (contempt alone has some
two hundred), one ``re.search`` after another, and most texts match none of them: every honest
reply pays for the whole list. Python's ``re`` gains nothing from joining such a list into one
alternation (it tries every branch at every position). RE2 (``google-re2``) compiles the union into
an automaton that reads the text once, whatever the number of branches.

:class:`Expressions` is a tuple of compiled expressions, read in order by its callers as before,
with :meth:`Expressions.may_match` in front: False only when no expression of the tuple can match
the text or any part of it, so a caller that skips its list then reads exactly what it would have
read. That holds by construction, not by tuning:

* each expression is loosened before it joins the union (:func:`loosened`): zero-width assertions
  (``\\b``, ``^``, ``$``, lookarounds) are dropped and a back-reference is read as any text, so the
  loosened expression matches wherever the expression does, in the whole text or in any part of
  it (a sentence, a clause);
* RE2 is asked only about texts whose characters both engines read alike (printable ASCII, tabs
  and line breaks: :data:`READ_ALIKE`); for any other text, and for a list RE2 cannot take as a
  whole, the answer is "may match" and the caller reads its list.

``tests/graders/test_prefilter.py`` checks the construction on every list that uses it, against
the sweep's sentences and the labelled corpus.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

import re2

__all__ = ["Expressions", "loosened"]

READ_ALIKE = re.compile(r"[^\x20-\x7e\t\n\r]")
"""A character outside those on which Python's ``re`` and RE2 agree about every class the lists
use (``\\w``, ``\\d``, ``\\s``, ``.``, case): a text holding one is read by the list itself."""
_OPTIONS = re2.Options()
_OPTIONS.max_mem = 64 << 20  # the union of a few hundred bounded repetitions needs more than 8 MB
_EMPTY_QUANTIFIER_BRACES = re.compile(r"\{,(\d+)\}")
_ANY_TEXT = "(?s:.*)"


class Expressions(tuple[re.Pattern[str], ...]):
    """Compiled expressions in the order a reader tries them, with :meth:`may_match` to skip the
    list where none of them can match. Equal to, and hashed as, the tuple of its expressions."""

    def __new__(cls, patterns: Iterable[re.Pattern[str]]) -> Expressions:
        return super().__new__(cls, tuple(patterns))

    def __add__(self, other: tuple[Any, ...]) -> Expressions:
        return Expressions((*self, *other))

    def __reduce__(self) -> tuple[type[Expressions], tuple[tuple[re.Pattern[str], ...]]]:
        """Pickled as its expressions: the union is compiled again where it is first asked for."""
        return Expressions, (tuple(self),)

    @functools.cached_property
    def _union(self) -> Any:
        """RE2's union of the loosened expressions, or None when one of them cannot be loosened
        or RE2 cannot compile the union."""
        parts = [loosened(p) for p in self]
        if not parts or any(part is None for part in parts):
            return None
        try:
            return re2.compile("|".join(f"(?:{part})" for part in parts), _OPTIONS)
        except re2.error:
            return None

    def may_match(self, text: str) -> bool:
        """False only when no expression of the tuple matches ``text`` or any part of it."""
        union = self._union
        if union is None or READ_ALIKE.search(text) is not None:
            return True
        return union.search(text) is not None


def loosened(pattern: re.Pattern[str]) -> str | None:
    """``pattern``'s source in RE2's syntax, loosened so that it matches wherever ``pattern`` does
    (module docstring), with its flags written inline; None where that cannot be done for sure (a
    verbose pattern, a conditional, an octal or named-character escape, a class RE2 reads
    otherwise)."""
    if pattern.flags & (re.VERBOSE | re.LOCALE):
        return None
    body = _loosened(pattern.pattern)
    if body is None:
        return None
    flags = ("i" if pattern.flags & re.IGNORECASE else "") + ("s" if pattern.flags & re.DOTALL else "")
    return f"(?{flags}:{body})" if flags else body


def _loosened(source: str) -> str | None:
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        read = _READERS.get(c)
        if read is not None:
            found = read(source, i)
            if found is None:
                return None
            text, i = found
            out.append(text)
        elif c in "^$":
            i += 1  # an anchor only narrows where a match may stand
        elif c == "{" and (m := _EMPTY_QUANTIFIER_BRACES.match(source, i)) is not None:
            out.append(f"{{0,{m.group(1)}}}")  # Python's {,n}; RE2 would read it as text
            i = m.end()
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _escape(source: str, i: int) -> tuple[str, int] | None:
    """An escape outside a class: what it becomes and where the source goes on."""
    nxt = source[i + 1] if i + 1 < len(source) else ""
    if nxt in ("b", "B", "A", "Z"):
        return "", i + 2  # a zero-width assertion
    if nxt == "u":
        return f"\\x{{{source[i + 2:i + 6]}}}", i + 6
    if nxt == "U":
        return f"\\x{{{source[i + 2:i + 10]}}}", i + 10
    if nxt.isdigit():
        if nxt == "0":
            return None  # an octal escape
        j = i + 1
        while j < len(source) and source[j].isdigit():
            j += 1
        if j - i - 1 >= 3:
            return None  # three digits make an octal escape, not a group number
        return _ANY_TEXT, j  # a back-reference: whatever the group held
    if nxt in ("N", "") or (nxt.isalpha() and nxt not in "wWdDsStnrfvax"):
        return None
    return source[i:i + 2], i + 2


def _class_end(source: str, i: int) -> int | None:
    """Where the character class opening at ``i`` ends (just past its ``]``)."""
    j = i + 1
    if j < len(source) and source[j] == "^":
        j += 1
    if j < len(source) and source[j] == "]":
        j += 1
    while j < len(source):
        if source[j] == "\\":
            j += 2
        elif source[j] == "]":
            return j + 1
        else:
            j += 1
    return None


def _class_at(source: str, i: int) -> tuple[str, int] | None:
    """The character class opening at ``i``: what it becomes and where the source goes on."""
    end = _class_end(source, i)
    if end is None:
        return None
    members = _class(source[i:end])
    return None if members is None else (members, end)


def _class(members: str) -> str | None:
    """A character class in RE2's syntax, or None where RE2 could read it otherwise (a POSIX
    class, a nested set, an escape it has no such meaning for)."""
    if "[" in members[1:]:
        return None
    out: list[str] = []
    i = 0
    while i < len(members):
        if members[i] == "\\":
            nxt = members[i + 1] if i + 1 < len(members) else ""
            if nxt == "u":
                out.append(f"\\x{{{members[i + 2:i + 6]}}}")
                i += 6
                continue
            if nxt.isdigit() or nxt in ("b", "N", "U"):
                return None
            out.append(members[i:i + 2])
            i += 2
        else:
            out.append(members[i])
            i += 1
    return "".join(out)


def _group(source: str, i: int) -> tuple[str, int] | None:
    """A group's opening at ``i``: what it becomes and where the source goes on (past the whole
    group for a lookaround or a comment, which are dropped)."""
    rest = source[i:]
    if rest.startswith("(?P<"):
        return "(?:", source.index(">", i) + 1
    if rest.startswith("(?P="):
        return _ANY_TEXT, source.index(")", i) + 1
    if rest.startswith(("(?=", "(?!", "(?<=", "(?<!")):
        end = _group_end(source, i)
        return None if end is None else ("", end)
    if rest.startswith("(?#"):
        return "", source.index(")", i) + 1
    if rest.startswith("(?:"):
        return "(?:", i + 3
    if rest.startswith("(?"):
        return None  # inline flags or a conditional: not loosened
    return "(", i + 1


def _group_end(source: str, i: int) -> int | None:
    """Just past the ``)`` that closes the group opening at ``i``."""
    depth = 0
    j = i
    while j < len(source):
        c = source[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            end = _class_end(source, j)
            if end is None:
                return None
            j = end
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return None


Reader = Callable[[str, int], tuple[str, int] | None]
_READERS: dict[str, Reader] = {"\\": _escape, "[": _class_at, "(": _group}
"""What reads the source from each character that opens more than itself: an escape, a class, a
group."""
