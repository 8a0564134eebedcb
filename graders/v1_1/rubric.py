"""Judging a reply or internal note against a task's rubric.

The rubric rewards doing the job in prose: required facts (each a group of accepted phrasings,
negated mentions do not count), the tone the task asks for, and no forbidden claims. Text that is
not prose (a keyword list), that crams in the key phrases, or that repeats itself scores nothing,
so keyword stuffing does not pay.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from domain.tasks.spec import Rubric
from graders.memo import TEXT_CHARS, text_cache
from graders.v1_1 import text as tx
from graders.v1_1.lexicon import SHOTGUN_GROUPS

Foreign = tuple[tuple[str, ...], ...]

FACTS_SHARE = Fraction(7, 10)
TONE_SHARE = Fraction(3, 10)
MAX_WORDS = 220
MIN_FUNCTION_RATIO = 0.18
MAX_FACT_DENSITY = Fraction(1, 2)
MAX_MATCHES_PER_FACT = 3
MIN_SUBSTANCE_DIVISOR = 3
"""A text needs ``min_words // 3`` distinct words of its own beyond the key phrasings (7 for a
20-word reply; the tersest scripted reply has 10)."""


@dataclass(frozen=True, slots=True)
class RubricResult:
    """A fraction of the component earned, with public and audit explanations."""

    fraction: Fraction
    public: str
    detail: str


def _prose_problem(text: str, rubric: Rubric) -> str | None:
    tokens = tx.words(text)
    if len(tokens) < rubric.min_words:
        return f"too short ({len(tokens)} words; at least {rubric.min_words} expected)"
    if tx.sentence_count(text) < rubric.min_sentences:
        return "not written as sentences"
    if tx.function_word_ratio(tokens) < MIN_FUNCTION_RATIO:
        return "reads as a keyword list, not prose"
    content = [t for t in tokens if t not in tx.FUNCTION_WORDS and len(t) > 2]
    if content:
        word, count = Counter(content).most_common(1)[0]
        if count >= 5 and count > len(content) // 6:
            return f"repeats '{word}' {count} times"
    return None


def _substance(text: str, rubric: Rubric, first_name: str) -> int:
    """Distinct content words outside the key phrasings and the customer's name: what the text
    says beyond the points it is graded on. Keywords glued with filler ("the X and the Y with
    the Z") pass the prose checks but have next to none."""
    phrasings = [p for group in rubric.facts for p in group.any_of]
    name = set(tx.words(first_name))
    return len({w for w in tx.words_outside(text, phrasings)
                if w not in tx.FUNCTION_WORDS and len(w) > 2 and w not in name})


def _stuffing(text: str, rubric: Rubric, first_name: str) -> tuple[str, str] | None:
    """(public, detail) when the text crams in key phrasings; the public half names none of them."""
    substance = _substance(text, rubric, first_name)
    if substance < max(2, rubric.min_words // MIN_SUBSTANCE_DIVISOR):
        return ("says little beyond key phrases",
                f"says little beyond key phrases ({substance} other distinct words)")
    tokens = tx.words(text)
    covered = 0
    for group in rubric.facts:
        counts = tx.count_affirmed(text, group.any_of)
        hits = sum(counts)
        if hits > MAX_MATCHES_PER_FACT:
            return (f"repeats a key phrasing {hits} times",
                    f"repeats the phrasing for '{group.name}' {hits} times")
        hit = next((p for p, n in zip(group.any_of, counts, strict=True) if n), None)
        if hit:
            covered += len(hit.split())
    if tokens and Fraction(covered, len(tokens)) > MAX_FACT_DENSITY:
        return "is mostly key phrases", "is mostly key phrases"
    return None


def _shotgun(text: str, foreign: Foreign) -> tuple[str, str] | None:
    """(public, detail) when the text also makes the key points of many other tickets."""
    hits = tx.groups_affirmed(text, foreign)
    if len(hits) >= SHOTGUN_GROUPS:
        return (f"makes the points of other tickets ({len(hits)} unrelated key phrases)",
                f"makes the points of other tickets: {hits}")
    return None


def _evaluate(rubric: Rubric, text: str, first_name: str, foreign: Foreign) -> RubricResult:
    for group in rubric.forbidden:
        claim = tx.first_affirmed(text, group.any_of)
        if claim:
            return RubricResult(Fraction(0), f"makes a forbidden claim ({group.name})",
                                f"forbidden claim '{group.name}': contains '{claim}'")
    prose = _prose_problem(text, rubric)
    problem = (prose, prose) if prose else (_stuffing(text, rubric, first_name)
                                            or _shotgun(text, foreign))
    if problem:
        return RubricResult(Fraction(0), *problem)
    found = [g.name for g in rubric.facts if tx.first_affirmed(text, g.any_of)]
    missed = [g.name for g in rubric.facts if g.name not in found]
    checks = {"greeting": lambda: tx.has_greeting(text, first_name),
              "empathy": lambda: tx.has_empathy(text), "closing": lambda: tx.has_closing(text)}
    tone_ok = [t for t in rubric.tone if checks[t]()]
    tone_missed = [t for t in rubric.tone if t not in tone_ok]
    facts = Fraction(len(found), len(rubric.facts)) if rubric.facts else Fraction(1)
    if rubric.tone:
        fraction = FACTS_SHARE * facts + TONE_SHARE * Fraction(len(tone_ok), len(rubric.tone))
    else:
        fraction = facts
    long = len(tx.words(text)) > MAX_WORDS
    if long:
        fraction /= 2
    public = f"{len(found)}/{len(rubric.facts)} required points, tone {len(tone_ok)}/{len(rubric.tone)}"
    detail = (f"facts found {found or '-'}, missed {missed or '-'}; tone ok {tone_ok or '-'}, "
              f"missed {tone_missed or '-'}")
    if long:
        public += f"; over {MAX_WORDS} words, halved"
        detail += f"; over {MAX_WORDS} words, halved"
    return RubricResult(fraction, public, detail)


def evaluate(rubric: Rubric, text: str | None, first_name: str, foreign: Foreign = ()) -> RubricResult:
    """Score ``text`` against ``rubric``; absent text earns nothing. ``foreign`` holds the fact
    phrasings of other tasks (:func:`graders.lexicon.foreign_groups`); making many of them fails."""
    if not text or not text.strip():
        return RubricResult(Fraction(0), "not written yet", "not written yet")
    return _evaluate_text(rubric, text, first_name, foreign)


@text_cache(max_chars=TEXT_CHARS, max_entries=4096)
def _evaluate_text(rubric: Rubric, text: str, first_name: str, foreign: Foreign) -> RubricResult:
    """:func:`_evaluate`, remembered for the last few thousand texts.

    Every step scores the whole state again, so a reply drafted once is judged again on each
    later step of its episode and again when the episode is replayed or re-graded, and judging one
    (a hundred phrasings and more, each with a negation check) is by far the largest part of
    grading. The result is a pure function of these values (the rubric and the phrasings are
    immutable), so remembering it changes nothing but the time.
    """
    return _evaluate(rubric, text, first_name, foreign)
