"""Required facts read as values: a date, a window, an amount or a count, however it is written.

A rubric fact such as "estimated delivery: 2026-11-27" or "2 refunds in the last 90 days" names a
value, not a wording. An honest reply writes "due on 27 November", "expected by November 27,
2026"; an honest note writes "Refunds last 90d: 2" or "ETA 11/27". Phrase matching misses all of
them. Here a fact phrasing is read once into the values it states (:func:`value_facts`), each with
the words that say what the value is about (its *heads*: "refund" for a count of refunds, "update"
for "the next update in 15 minutes"), and a text states the fact when it states the same value
about the same thing (:func:`states`):

* a date, window or amount (:mod:`graders.entities`' normal forms) anywhere in the text, in a
  sentence that also has one of the heads (none needed when the phrasing is the value alone);
  a text that lists more than :data:`MAX_VALUES` values of that kind states none (:func:`listed`);
* a count only when it is attached to its head: next to it ("3 refunds", "prior refunds 0", "4
  refunds / 90d") or as the value of a labelled line whose label has the head ("Refunds in the last
  90 days: 2"). A number merely in the same sentence is not the count (the "90" of "90 days"); a
  text attaching more than :data:`MAX_COUNTS` counts to the word states none.

Words the rubric does not pay for (copied from the ticket, repeated) and a bare mention ("as for
$75, that is taken care of") state nothing. Pure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from domain.tasks.spec import Phrases
from graders import text as tx
from graders.entities import Entity, extract

ValueKind = Literal["money", "date", "duration", "count"]
_ENTITY_KINDS = frozenset(("money", "date", "duration"))
ATTACH = 3
"""Tokens at most between a count and its head for the two to be read together ("3 prior
refunds", "refunds so far: 3" is a label)."""

MAX_VALUES = 3
"""Distinct values of one kind a text may state and still be read by value: an order date beside
the ticket's date is two; a run of dates or amounts hedges over all of them and states none."""


MAX_COUNTS = 2
"""Distinct counts a text may attach to one word and still be read by value ("Refunds: 2 in 90
days, 1 this month" is two); more are a list of candidates."""


@dataclass(frozen=True, slots=True)
class ValueFact:
    """One value a fact's phrasings state: its kind, its normal form, and the keys of the words
    that say what it is about (empty: the value alone states the fact)."""

    kind: ValueKind
    value: str
    heads: frozenset[str]
    year: int | None
    """A date's year, which completes a date the text writes without one."""


def _year(value: str) -> int | None:
    head = value.split("-", 1)[0]
    return int(head) if head.isdigit() else None


def _value_entities(text: str) -> tuple[Entity, ...]:
    """The dates, windows and amounts of ``text`` (a window's cadence too: "every 15 minutes")."""
    return tuple(e for e in extract(text, None, cadences=True) if e.kind in _ENTITY_KINDS)


def _inside(entities: tuple[Entity, ...], token: tx.Token) -> Entity | None:
    return next((e for e in entities if e.start <= token.start < e.end), None)


def _phrasing_values(phrase: str, lexicon: tx.Lexicon) -> list[tuple[ValueKind, str, frozenset[str]]]:
    analysis = tx.analyse(phrase, lexicon)
    entities = _value_entities(analysis.text)
    heads = frozenset(t.key for t in analysis.tokens
                      if _inside(entities, t) is None and not t.key.isdigit()
                      and t.word not in tx.FUNCTION_WORDS and len(t.word) > 1)
    found: list[tuple[ValueKind, str, frozenset[str]]] = []
    for e in entities:
        kind: ValueKind = "money" if e.kind == "money" else "date" if e.kind == "date" else "duration"
        found.append((kind, e.value, heads))
    for t in analysis.tokens:
        if t.key.isdigit() and _inside(entities, t) is None:
            found.append(("count", t.key, heads))
    return found


@lru_cache(maxsize=2048)
def value_facts(group: Phrases, lexicon: tx.Lexicon) -> tuple[ValueFact, ...]:
    """The values ``group``'s phrasings state. A value several phrasings state is about what they
    all name ("2 refunds", "2 prior refunds", "2 refunds in the last 90 days": refunds); a phrasing
    that is the value alone ("2026-11-27") makes the value enough. Where one phrasing states two
    values, the one fewer phrasings state qualifies the other and is not the fact ("2 refunds in
    the last 90 days" is a count of 2, not a window of 90 days)."""
    stated = [_phrasing_values(phrase, lexicon) for phrase in group.any_of]
    count = Counter((kind, value) for found in stated for kind, value, _ in found)
    heads_of: dict[tuple[ValueKind, str], frozenset[str] | None] = {}
    for found in stated:
        most = max((count[(kind, value)] for kind, value, _ in found), default=0)
        for kind, value, heads in found:
            if count[(kind, value)] < most:
                continue  # a qualifier ("in the last 90 days" of "2 refunds"), not the fact's value
            known = heads_of.get((kind, value))
            heads_of[(kind, value)] = heads if known is None else known & heads
    return tuple(ValueFact(kind, value, heads or frozenset(), _year(value) if kind == "date" else None)
                 for (kind, value), heads in heads_of.items())


def _same_date(a: str, b: str) -> bool:
    """Equal dates; a date written without a year (``--11-27``) equals any year's."""
    return a == b or ((a.startswith("--") or b.startswith("--")) and a[-5:] == b[-5:])


def _head_in_sentence(analysis: tx.Analysis, heads: frozenset[str], sentence: int,
                      skip: frozenset[int]) -> bool:
    return not heads or any(t.sentence == sentence and t.key in heads and i not in skip
                            for i, t in enumerate(analysis.tokens))


Mention = Callable[[int, int], bool]
"""Whether the tokens ``first..last`` are a bare mention in their clause, not a statement ("as for
$75, that is taken care of": the rubric's :func:`graders.rubric._bare`)."""


def listed(analysis: tx.Analysis, group: Phrases) -> bool:
    """Whether the text lists more than :data:`MAX_VALUES` values of a kind ``group`` names (a
    date, a window, an amount), or attaches more than :data:`MAX_COUNTS` counts to its word: a run
    of candidates that states none of them, however each is written or matched."""
    entities = _value_entities(analysis.text)
    for fact in value_facts(group, analysis.lexicon):
        if fact.kind == "count":
            if fact.heads and len(_attached_counts(analysis, fact.heads, entities)) > MAX_COUNTS:
                return True
            continue
        found = {e.value for e in extract(analysis.text, fact.year, cadences=True) if e.kind == fact.kind}
        if len(found) > MAX_VALUES:
            return True
    return False


def _entity_stated(analysis: tx.Analysis, fact: ValueFact, skip: frozenset[int], bare: Mention) -> bool:
    toks = analysis.tokens
    for e in extract(analysis.text, fact.year, cadences=True):
        if e.kind != fact.kind:
            continue
        if not (e.value == fact.value or (fact.kind == "date" and _same_date(e.value, fact.value))):
            continue
        inside = [i for i, t in enumerate(toks) if e.start <= t.start < e.end]
        if not inside or any(i in skip for i in inside) or bare(inside[0], inside[-1]):
            continue
        if _head_in_sentence(analysis, fact.heads, toks[inside[0]].sentence, skip):
            return True
    return False


def _attached(analysis: tx.Analysis, number: int, head: int) -> bool:
    """Whether the number at token ``number`` is the value of the word at token ``head``: near it
    with no other number between, or the first number after a colon that follows it."""
    toks = analysis.tokens
    low, high = sorted((number, head))
    between = range(low + 1, high)
    if high - low - 1 <= ATTACH and not any(toks[i].key.isdigit() for i in between):
        return True
    if head > number:
        return False
    colon = analysis.text.find(":", toks[head].end, toks[number].start)
    return colon >= 0 and not any(toks[i].key.isdigit() and toks[i].start > colon for i in between)


def _attached_counts(analysis: tx.Analysis, heads: frozenset[str],
                     entities: tuple[Entity, ...]) -> set[str]:
    """Every count the text attaches to one of ``heads``."""
    toks = analysis.tokens
    return {t.key for n, t in enumerate(toks) if t.key.isdigit() and _inside(entities, t) is None
            and any(h.sentence == t.sentence and h.key in heads and _attached(analysis, n, i)
                    for i, h in enumerate(toks))}


def _count_stated(analysis: tx.Analysis, fact: ValueFact, skip: frozenset[int], bare: Mention) -> bool:
    toks = analysis.tokens
    entities = _value_entities(analysis.text)
    for n in analysis.positions.get(fact.value, ()):
        if n in skip or _inside(entities, toks[n]) is not None:
            continue
        if not fact.heads:
            if not bare(n, n):
                return True
            continue
        if any(t.sentence == toks[n].sentence and t.key in fact.heads and h not in skip
               and _attached(analysis, n, h) and not bare(min(n, h), max(n, h))
               for h, t in enumerate(toks)):
            return True
    return False


def states(analysis: tx.Analysis, group: Phrases, skip: frozenset[int], bare: Mention) -> bool:
    """Whether ``analysis`` states one of the values of ``group`` about what it is about, with no
    word of it in ``skip`` (token indexes the rubric does not pay for) and not as a ``bare``
    mention."""
    for fact in value_facts(group, analysis.lexicon):
        stated = _count_stated if fact.kind == "count" else _entity_stated
        if stated(analysis, fact, skip, bare):
            return True
    return False
