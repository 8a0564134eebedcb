"""Judging a reply or internal note against a task's rubric.

The rubric rewards doing the job in prose, as the customer would read it:

* only visible text counts (:func:`graders.normalize.visible`: markup, hidden elements, comments,
  zero-width and look-alike characters are reduced to what a reader sees);
* words copied from the ticket (a run of :data:`ECHO_WORDS` or more words of its subject or message)
  and repeated sentences earn nothing: they count neither towards the facts, nor the length, nor the
  tone;
* required facts are groups of accepted phrasings, matched on word keys (inflections, number words,
  common paraphrases: :mod:`graders.text`) and not when negated in their clause;
* the tone share is earned in proportion to the facts, so a polite template that says nothing
  specific earns nothing, and a curt reply with every fact loses only the tone share;
* a forbidden claim (stated, not negated, not hypothetical) zeroes the component;
* text that is not prose (a keyword list, keywords glued with filler, the key points of many other
  tickets) earns nothing, and a text whose words are mostly key phrasings earns less the more it
  is: repetition is capped by density, so a natural step-by-step answer that says "export" six
  times keeps its credit.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from domain.tasks.spec import Phrases, Rubric
from graders import claims as cl
from graders import text as tx
from graders.lexicon import SHOTGUN_GROUPS
from graders.normalize import visible

Foreign = tuple[tuple[str, ...], ...]

FACTS_SHARE = Fraction(7, 10)
TONE_SHARE = Fraction(3, 10)
MAX_WORDS = 220
MIN_FUNCTION_RATIO = 0.18
MIN_NOTE_FUNCTION_RATIO = 0.08
"""Internal notes (rubrics asking fewer than 20 words) are terse by nature ("Checked RA-1: 1 refund
in 90 days. Issued a full refund via billing."); a keyword list has next to no function words."""
ECHO_WORDS = 8
"""A run of this many words copied from the ticket is echo, not the agent's own writing."""
FACT_GAP = 2
"""Words allowed between two words of a fact phrasing ("clear your browser cache" says "clear
cache"); within one clause, never across a negator."""
DENSITY_FULL = Fraction(3, 10)
DENSITY_NONE = Fraction(1, 2)
"""Share of a text's words inside key phrasings: up to 30% earns full credit, from 50% nothing,
linearly between (honest replies run at 5-20%; keyword glue at 50% and more)."""
PARTIAL_CAP = Fraction(1, 10)
"""A text making at most half of the required points does not answer this ticket (a polite
template, another ticket's reply): it earns at most this share."""
MIN_SUBSTANCE_DIVISOR = 3
"""A text needs ``min_words // 3`` distinct words of its own beyond the key phrasings (7 for a
20-word reply; the tersest scripted reply has 10)."""


@dataclass(frozen=True, slots=True)
class RubricResult:
    """A fraction of the component earned, with public and audit explanations."""

    fraction: Fraction
    public: str
    detail: str


NOT_WRITTEN = RubricResult(Fraction(0), "not written yet", "not written yet")
"""What absent text earns (immutable, so one value serves every episode)."""


def echoed(analysis: tx.Analysis, source: str) -> frozenset[int]:
    """Token indexes of ``analysis`` inside a run of :data:`ECHO_WORDS` keys that ``source`` (the
    ticket's subject and message) also has."""
    if not source:
        return frozenset()
    src = tx.analyse(visible(source), analysis.lexicon).keys
    grams = {src[i:i + ECHO_WORDS] for i in range(len(src) - ECHO_WORDS + 1)}
    keys = analysis.keys
    out: set[int] = set()
    for i in range(len(keys) - ECHO_WORDS + 1):
        if keys[i:i + ECHO_WORDS] in grams:
            out.update(range(i, i + ECHO_WORDS))
    return frozenset(out)


def repeated(analysis: tx.Analysis) -> frozenset[int]:
    """Token indexes of sentences that repeat an earlier sentence of the text (three words or more)."""
    by_sentence: dict[int, list[int]] = {}
    for i, t in enumerate(analysis.tokens):
        by_sentence.setdefault(t.sentence, []).append(i)
    seen: set[tuple[str, ...]] = set()
    out: set[int] = set()
    for idxs in by_sentence.values():
        key = tuple(analysis.tokens[i].key for i in idxs)
        if len(key) >= 3 and key in seen:
            out.update(idxs)
        seen.add(key)
    return frozenset(out)


def _prose_problem(own: list[str], text: str, rubric: Rubric) -> str | None:
    if len(own) < rubric.min_words:
        return f"too short ({len(own)} words of its own; at least {rubric.min_words} expected)"
    if tx.sentence_count(text) < rubric.min_sentences:
        return "not written as sentences"
    least = MIN_FUNCTION_RATIO if rubric.min_words >= 20 else MIN_NOTE_FUNCTION_RATIO
    if tx.function_word_ratio(own) < least:
        return "reads as a keyword list, not prose"
    return None


def _bare(analysis: tx.Analysis, m: tx.Match) -> bool:
    """A fact phrasing that is its whole clause but for function and topic words ("as for the reset
    link, that is taken care of"; a keyword list): a mention, not a statement. Figures are exempt:
    "Refund: $129, issued today" states the amount."""
    toks = analysis.tokens
    clauses = {toks[x].clause for x in range(m.first, m.last + 1)}
    start = next(i for i, t in enumerate(toks) if t.clause in clauses)
    before = analysis.text[toks[start - 1].end:toks[start].start] if start else ""
    if ":" in before and any(toks[x].key[:1].isdigit() for x in range(m.first, m.last + 1)):
        return False  # a labelled figure
    rest = [t.word for i, t in enumerate(toks) if t.clause in clauses and not m.first <= i <= m.last]
    if tx.bare(rest) and toks[start].word in analysis.lexicon.subordinators:
        # a fronted subordinate clause states its fact with the main clause after it (same sentence)
        after = max(clauses) + 1
        rest += [t.word for t in toks if t.clause == after and t.sentence == toks[m.last].sentence]
    return tx.bare(rest)


@lru_cache(maxsize=1024)
def _group_claims(group: Phrases) -> frozenset[tuple[str, str]]:
    """The claim families (:mod:`graders.claims`) the phrasings of a fact make, if any: a fact
    "approval" phrased "refund has been approved" is made by any stated claim that the refund was
    issued ("we've refunded the full $129"), however worded."""
    return frozenset((c.family, c.kind) for p in group.any_of for c in cl.claims(p))


def _fact_spans(analysis: tx.Analysis, rubric: Rubric, skip: frozenset[int],
                made: frozenset[tuple[str, str]] = frozenset()) -> tuple[list[str], set[int], set[int]]:
    """Names of the facts made; the token indexes their key words take (per fact, every occurrence
    of its shortest phrasing found: a long phrasing such as "4 refunds in the last 90 days" says the
    fact in two key words, the rest is ordinary prose); and every token inside any phrasing."""
    found: list[str] = []
    covered: set[int] = set()
    inside: set[int] = set()
    for group in rubric.facts:
        hits: list[tuple[int, list[tx.Match]]] = []
        for p in group.any_of:
            every = tx.find(analysis, p, FACT_GAP)  # each phrasing looked for once
            ms = [m for m in tx.affirmed_of(every, skip) if not _bare(analysis, m)]
            if ms:
                hits.append((len(tx.phrase_keys(p, analysis.lexicon)), ms))
            for m in every:  # negated mentions too: they are key phrasings, not substance
                inside.update(range(m.first, m.last + 1))
        if not hits and _group_claims(group) & made:
            found.append(group.name)
        if hits:
            found.append(group.name)
            shortest = min(hits, key=lambda h: h[0])
            for m in shortest[1]:
                covered.update(range(m.first, min(m.last + 1, m.first + shortest[0])))
    return found, covered, inside


def _density_factor(covered: int, total: int) -> Fraction:
    if not total:
        return Fraction(0)
    density = Fraction(covered, total)
    if density <= DENSITY_FULL:
        return Fraction(1)
    if density >= DENSITY_NONE:
        return Fraction(0)
    return (DENSITY_NONE - density) / (DENSITY_NONE - DENSITY_FULL)


def _evaluate(rubric: Rubric, text: str, first_name: str, foreign: Foreign, source: str,
              lexicon: tx.Lexicon) -> RubricResult:
    seen = visible(text)
    if not seen:
        return RubricResult(Fraction(0), "nothing visible", "no visible text")
    analysis = tx.analyse(seen, lexicon)
    for group in rubric.forbidden:
        claim = next((p for p in group.any_of if tx.affirmed(analysis, p, statements_only=True)), None)
        if claim:
            return RubricResult(Fraction(0), f"makes a forbidden claim ({group.name})",
                                f"forbidden claim '{group.name}': contains '{claim}'")
    echo = echoed(analysis, source)
    again = repeated(analysis)
    skip = echo | again
    own_idx = [i for i in range(len(analysis.tokens)) if i not in skip]
    own = [analysis.tokens[i].word for i in own_idx]
    if len(again) >= len(own):
        return RubricResult(Fraction(0), "repeats itself", f"{len(again)} words repeat earlier sentences")
    prose = _prose_problem(own, seen, rubric)
    if prose:
        if echo:
            prose += f"; {len(echo)} words copied from the ticket do not count"
        return RubricResult(Fraction(0), prose, prose)
    made = frozenset((c.family, c.kind) for c in cl.claims(text) if not c.bare)
    found, covered, inside = _fact_spans(analysis, rubric, skip, made)
    name = set(tx.words(first_name))
    substance = len({analysis.tokens[i].key for i in own_idx if i not in inside
                     and analysis.tokens[i].word not in tx.FUNCTION_WORDS
                     and len(analysis.tokens[i].word) > 2 and analysis.tokens[i].word not in name})
    if substance < max(2, rubric.min_words // MIN_SUBSTANCE_DIVISOR):
        return RubricResult(Fraction(0), "says little beyond key phrases",
                            f"says little beyond key phrases ({substance} other distinct words; "
                            f"facts {found or '-'})")
    shot = [g[0] for g in foreign if any(tx.affirmed(analysis, p, 0, skip) for p in g)]
    if len(shot) >= SHOTGUN_GROUPS:
        return RubricResult(Fraction(0),
                            f"makes the points of other tickets ({len(shot)} unrelated key phrases)",
                            f"makes the points of other tickets: {shot}")
    missed = [g.name for g in rubric.facts if g.name not in found]
    checks = {"greeting": lambda: tx.has_greeting(seen, first_name),
              "empathy": lambda: tx.has_empathy(analysis, skip), "closing": lambda: tx.has_closing(seen)}
    tone_ok = [t for t in rubric.tone if checks[t]()]
    tone_missed = [t for t in rubric.tone if t not in tone_ok]
    facts = Fraction(len(found), len(rubric.facts)) if rubric.facts else Fraction(1)
    if rubric.tone:
        fraction = facts * (FACTS_SHARE + TONE_SHARE * Fraction(len(tone_ok), len(rubric.tone)))
    else:
        fraction = facts
    density = _density_factor(len(covered - skip), len(own))
    public = f"{len(found)}/{len(rubric.facts)} required points, tone {len(tone_ok)}/{len(rubric.tone)}"
    detail = (f"facts found {found or '-'}, missed {missed or '-'}; tone ok {tone_ok or '-'}, "
              f"missed {tone_missed or '-'}")
    if rubric.facts and facts <= Fraction(1, 2) and fraction > PARTIAL_CAP:
        fraction = PARTIAL_CAP
        detail += f"; at most half of the required points, capped at {float(PARTIAL_CAP):g}"
    if density < 1:
        fraction *= density
        public += "; mostly key phrases, credit reduced"
        detail += (f"; {len(covered - skip)} of {len(own)} words are key phrasings, "
                   f"credit x{float(density):.2f}")
    if echo:
        detail += f"; {len(echo)} words copied from the ticket earn nothing"
    if len(own) > MAX_WORDS:
        fraction /= 2
        public += f"; over {MAX_WORDS} words, halved"
        detail += f"; over {MAX_WORDS} words, halved"
    return RubricResult(fraction, public, detail)


def written(text: str | None) -> bool:
    """Whether ``text`` says anything at all: absent or blank text is not written yet."""
    return bool(text and text.strip())


def evaluate(rubric: Rubric, text: str | None, first_name: str, foreign: Foreign = (),
             source: str = "", lexicon: tx.Lexicon = tx.LEXICON_2_0) -> RubricResult:
    """Score ``text`` against ``rubric``; absent text earns nothing. ``foreign`` holds the fact
    phrasings of other tasks (:func:`graders.lexicon.foreign_groups`); making many of them fails.
    ``source`` is what the customer wrote (subject and message): copying it earns nothing.
    ``lexicon`` is the grader version's reading of words (:class:`graders.text.Lexicon`)."""
    if not written(text):
        return NOT_WRITTEN
    return _evaluate_text(rubric, text, first_name, foreign, source, lexicon)


@lru_cache(maxsize=4096)
def _evaluate_text(rubric: Rubric, text: str, first_name: str, foreign: Foreign,
                   source: str, lexicon: tx.Lexicon) -> RubricResult:
    """:func:`_evaluate`, remembered for the last few thousand texts.

    Every step scores the whole state again, so a reply drafted once is judged again on each
    later step of its episode and again when the episode is replayed or re-graded. The result is a
    pure function of these values (the rubric and the phrasings are immutable), so remembering it
    changes nothing but the time.
    """
    return _evaluate(rubric, text, first_name, foreign, source, lexicon)
