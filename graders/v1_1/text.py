"""Deterministic text analysis for rubrics: phrase finding with negation, prose and tone checks."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

NEGATORS = frozenset({
    "not", "no", "never", "cannot", "can't", "cant", "won't", "wont", "don't", "dont", "doesn't",
    "doesnt", "didn't", "didnt", "isn't", "isnt", "aren't", "arent", "unable", "without", "neither",
    "nor", "nothing", "haven't", "hasn't", "wasn't", "shouldn't", "wouldn't", "couldn't",
})
NEGATION_WINDOW = 6
"""How many words before a phrase a negator may stand and still negate it (same clause only).

Six, not fewer: ordinary negations put the negator five or six words ahead of the key phrase
("we are not able to send you a reset link", "we won't be sending you a reset link"). The wider
window is safe because a comma ends the clause ("If it doesn't work, clear your cache")."""

FUNCTION_WORDS = frozenset((
    "a an the to of in on for with and or but if is are was were be been will would can could "
    "we you your our i it this that these those my me us as at by from have has had do does "
    "please so just any all there here what when how which who than then also into about "
).split())

_TOKEN = re.compile(r"[a-z0-9$][a-z0-9'$.\-@]*[a-z0-9]|[a-z0-9$]")
_CLAUSE_BREAK = re.compile(r"[.!?;:,\n]")
"""A negation does not reach past a comma: "No worries, we will issue a refund" promises one."""


def words(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def sentence_count(text: str) -> int:
    return len([s for s in re.split(r"[.!?]+(?:\s|$)|\n{2,}", text.strip()) if len(words(s)) >= 2])


@lru_cache(maxsize=4096)
def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    escaped = r"\s+".join(re.escape(part) for part in phrase.lower().split())
    return re.compile(rf"(?<![a-z0-9]){escaped}(?![a-z0-9])")


def _negated(text: str, start: int) -> bool:
    """True when a negator stands within a few words before ``start`` in the same clause."""
    prefix = text[max(0, start - 80):start]
    clause = _CLAUSE_BREAK.split(prefix)[-1]
    return any(w in NEGATORS for w in words(clause)[-NEGATION_WINDOW:])


@lru_cache(maxsize=4096)
def _phrase_parts(phrase: str) -> tuple[str, ...]:
    return tuple(phrase.lower().split())


def _matches(lowered: str, phrase: str) -> Iterator[re.Match[str]]:
    """Occurrences of ``phrase`` in already lower-cased text.

    A match needs every word of the phrase literally in the text, so a plain substring test
    (C speed) rules most phrases out before any regex runs: a rubric checks a hundred phrasings
    (its own and other tasks'), few of which a given reply contains.
    """
    for part in _phrase_parts(phrase):
        if part not in lowered:
            return iter(())
    return _phrase_pattern(phrase).finditer(lowered)


def find_affirmed(text: str, phrase: str) -> int:
    """How many times ``phrase`` occurs un-negated in ``text`` (case-insensitive, whole words)."""
    return _affirmed(text.lower(), phrase)


def _affirmed(lowered: str, phrase: str) -> int:
    for part in _phrase_parts(phrase):  # the substring test of _matches, inlined: hot loop
        if part not in lowered:
            return 0
    return sum(1 for m in _phrase_pattern(phrase).finditer(lowered)
               if not _negated(lowered, m.start()))


def words_outside(text: str, phrases: Sequence[str]) -> list[str]:
    """The words of ``text`` that are not part of an affirmed occurrence of any of ``phrases``."""
    lowered = text.lower()
    covered: set[int] = set()  # character offsets inside an affirmed occurrence
    for p in phrases:
        for m in _matches(lowered, p):
            if not _negated(lowered, m.start()):
                covered.update(range(*m.span()))
    return [m.group() for m in _TOKEN.finditer(lowered) if m.start() not in covered]


def count_affirmed(text: str, phrases: Sequence[str]) -> list[int]:
    """``find_affirmed`` for each phrase (the text lower-cased once)."""
    lowered = text.lower()
    return [_affirmed(lowered, phrase) for phrase in phrases]


def groups_affirmed(text: str, groups: Sequence[Sequence[str]]) -> list[str]:
    """The first phrase of each group that has any phrase affirmed in ``text``."""
    lowered = text.lower()
    return [group[0] for group in groups if any(_affirmed(lowered, p) for p in group)]


def first_affirmed(text: str, phrases: Sequence[str]) -> str | None:
    lowered = text.lower()
    for phrase in phrases:
        if _affirmed(lowered, phrase):
            return phrase
    return None


def function_word_ratio(tokens: list[str]) -> float:
    return sum(1 for t in tokens if t in FUNCTION_WORDS) / len(tokens) if tokens else 0.0


GREETING = re.compile(r"^\W*(hi|hello|dear|hey|good (morning|afternoon|evening)|greetings)\b")
EMPATHY = ["sorry", "apologise", "apologize", "apologies", "understand", "frustrating",
           "frustration", "inconvenience", "appreciate your patience", "thank you for your patience",
           "we know how", "i know how", "thanks for your patience"]
CLOSINGS = ["regards", "best", "sincerely", "thank you", "thanks", "let us know", "happy to help",
            "here to help", "cheers", "take care", "reach out"]


def has_greeting(text: str, first_name: str) -> bool:
    """A greeting that names the customer, in the opening line."""
    opening = text.strip().splitlines()[0][:80].lower() if text.strip() else ""
    return bool(GREETING.search(opening)) and first_name.lower() in words(opening)


def has_empathy(text: str) -> bool:
    return first_affirmed(text, EMPATHY) is not None


def has_closing(text: str) -> bool:
    tail = text.strip()[-120:]
    return first_affirmed(tail, CLOSINGS) is not None
