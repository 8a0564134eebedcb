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

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from domain.tasks.catalog import policy_texts
from domain.tasks.spec import Phrases, Rubric
from graders import claims as cl
from graders import meaning as mn
from graders import requests, values
from graders import text as tx
from graders.lexicon import SHOTGUN_GROUPS
from graders.memo import READING_CHARS, TEXT_CHARS, text_cache
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
POLICY_ECHO_WORDS = 12
POLICY_PASTE_WORDS = 30
"""Read by value (:attr:`graders.text.Lexicon.values`), runs of :data:`POLICY_ECHO_WORDS` words
copied from the policy texts that add up to more than this many words are the policies pasted,
not a reply, and earn nothing. Restating the one policy sentence a decision rests on ("A purchase
can be refunded in full when the request arrives within 30 days of the order date.", 19 words)
is how an honest reply gives its reason, and counts."""
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
    ceiling: Fraction = Fraction(1)
    """The most the text's form lets it earn whatever it says: 0 for text that is no reply of its
    own (nothing visible, a forbidden claim, repetition, not prose, little but key phrases, other
    tickets' points), else the keyword-density factor, halved over :data:`MAX_WORDS`. A recorded
    LLM verdict's credit is bounded by it (``graders.llm_verdict``), so a model told that a keyword
    list is a perfect reply cannot pay what the rubric refuses."""


NOT_WRITTEN = RubricResult(Fraction(0), "not written yet", "not written yet", Fraction(0))
"""What absent text earns (immutable, so one value serves every episode)."""


def echoed(analysis: tx.Analysis, source: str, run: int = ECHO_WORDS) -> frozenset[int]:
    """Token indexes of ``analysis`` inside a run of ``run`` keys that ``source`` (the ticket's
    subject and message, or the policy texts) also has."""
    if not source:
        return frozenset()
    grams = _runs(source, analysis.lexicon, run)
    at = _words_of(analysis)
    keys = tuple(analysis.tokens[i].key for i in at)
    out: set[int] = set()
    for i in range(len(keys) - run + 1):
        if keys[i:i + run] in grams:
            out.update(range(at[i], at[i + run - 1] + 1))
    return frozenset(out)


@text_cache(max_chars=READING_CHARS, max_entries=256)
def _runs(source: str, lexicon: tx.Lexicon, run: int) -> frozenset[tuple[str, ...]]:
    """Every run of ``run`` keys ``source`` has, read with ``lexicon`` (remembered, as
    :func:`graders.text.analyse` is: the source is the ticket or every policy text, the same for
    every text an episode's replies are compared with)."""
    analysis = tx.analyse(visible(source), lexicon)
    keys = tuple(analysis.tokens[i].key for i in _words_of(analysis))
    return frozenset(keys[i:i + run] for i in range(len(keys) - run + 1))


def _copied_from(lexicon: tx.Lexicon) -> str:
    return "ticket or a policy" if lexicon.values else "ticket"


@lru_cache(maxsize=1)
def _policies() -> str:
    """Every policy text an agent can look up, one per line."""
    return "\n".join(policy_texts().values())


def _words_of(analysis: tx.Analysis) -> tuple[int, ...]:
    """The token indexes a copied run is counted in: every token, but when the text is read by
    value (:attr:`graders.text.Lexicon.values`) not the numbers nor the "to" a date's hyphen reads
    as, so "order 42981 on 2026-05-24" is three words of the ticket, not eight (the numbers a run
    spans are still copied with it)."""
    toks = analysis.tokens
    if not analysis.lexicon.values:
        return tuple(range(len(toks)))
    return tuple(i for i, t in enumerate(toks)
                 if not t.key.isdigit()
                 and not (t.word == "to" and 0 < i < len(toks) - 1
                          and toks[i - 1].key.isdigit() and toks[i + 1].key.isdigit()))


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
    if ":" in before and (analysis.lexicon.values
                          or any(toks[x].key[:1].isdigit() for x in range(m.first, m.last + 1))):
        return False  # a labelled figure (and, read by value, any labelled line: "Tracking: in transit")
    end = max(i for i, t in enumerate(toks) if t.clause in clauses)
    following = analysis.text[toks[end].end:toks[end + 1].start] if end + 1 < len(toks) else ""
    if analysis.lexicon.values and ":" in following and toks[end + 1].sentence == toks[end].sentence:
        return False  # a label whose line goes on to say it ("Audit log: we'll compile it")
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


Polarity = tuple[str, str]
"""An outcome concept of :mod:`graders.meaning` and the mood it is stated in (done, promised or
denied): "we will change it" does not state "your email has been changed"."""
DECISIONS = frozenset(("refund", "denial", "review"))
"""The concepts a refund decision is one of: the facts that state one are decision credit, which a
text that hedges over the branches (:func:`hedges`) does not earn."""
_DECISION_WORDS = (frozenset({"refund", "refunded", "refunds", "reimbursement", "reimbursed"}),
                   frozenset({"review", "reviewed", "investigation", "investigate"}),
                   frozenset({"deny", "denied", "denial", "decline", "declined", "rejected"}),
                   frozenset({"credit", "voucher"}))
"""What each branch of a refund decision is called, for a clause that offers two of them joined
by "or" ("you'll either get a refund or a review")."""


@lru_cache(maxsize=1024)
def _group_polarities(group: Phrases) -> frozenset[Polarity]:
    """The outcome concepts the phrasings of a fact state (:mod:`graders.meaning`): a fact
    "approval" phrased "refund has been approved" is made by any clause that states the refund,
    however worded ("a refund of $75 has been issued to your card")."""
    return frozenset(p for phrase in group.any_of for p in mn.outcomes(phrase))


NOT_YET = re.compile(r"\b(?:yet|for now|right now|currently|at the moment|at this point|at this stage|"
                     r"until|before|first|while|pending|still)\b")
"""Words that make a refusal a "not yet": "we can't refund it yet, because a specialist team
reviews it first" tells the truth about now and denies nothing."""


def _stated_frames(seen: str, source: str) -> tuple[mn.Frame, ...]:
    """The outcome claims ``seen`` states (:mod:`graders.meaning`), but those quoting the customer
    (the ticket, ``source``) and those announced as a topic ("on refund has been approved, you are
    all set": keywords glued to filler)."""
    copied = visible(source).lower()
    return tuple(f for f in mn.read(seen).frames if f.quote not in copied and not _announced(f.quote))


def _not_yet(analysis: tx.Analysis, m: tx.Match) -> bool:
    """Whether the sentence of a match says its refusal is for now (:data:`NOT_YET`)."""
    return NOT_YET.search(_sentence_of(analysis, m)) is not None


def _forbidden_claim(analysis: tx.Analysis, group: Phrases) -> str | None:
    """How ``analysis`` makes the forbidden claim ``group``, if it does: one of its phrasings
    stated (not negated, hypothetical or asked). Read by value (:attr:`graders.text.Lexicon.values`),
    the words are not enough where meaning says otherwise: a phrasing that states an outcome
    (:mod:`graders.meaning`) needs its sentence to state it in that mood ("before we can change
    your login email, ..." states no change; where the sentence reads as denying it, the words'
    reading of negation stands: "No worries everything has already been deleted"), and a refusal
    (a group whose outcomes are all denied) said for now ("we can't refund it yet, because ...")
    denies nothing."""
    by_meaning = analysis.lexicon.values
    outcomes = _group_polarities(group)
    refusal = bool(outcomes) and all(mood == mn.NEGATED for _, mood in outcomes)
    for phrase in group.any_of:
        hits = tx.affirmed(analysis, phrase, statements_only=True)
        if by_meaning:
            hits = [m for m in hits if not mn.unstated(phrase, _sentence_of(analysis, m))]
            if refusal:
                hits = [m for m in hits if not _not_yet(analysis, m)]
        if hits:
            return f"contains '{phrase}'"
    return None


def _sentence_of(analysis: tx.Analysis, m: tx.Match) -> str:
    sentence = analysis.tokens[m.first].sentence
    return " ".join(t.word for t in analysis.tokens if t.sentence == sentence)


def _announced(quote: str) -> bool:
    """Whether a clause opens by announcing its topic ("on refund has been approved, you are all
    set", "as for ..."): keywords glued to filler, not a statement."""
    words = quote.split()
    return bool(words) and (words[0] in tx.TOPIC_MARKERS or words[:2] in (["as", "for"], ["as", "to"]))


def hedges(text: str) -> bool:
    """Whether ``text`` commits to two branches of a decision at once: a refund and its denial both
    stated, or a statement offering two branches joined by "or". A question ("a refund or store
    credit?"), a condition and a negation ("we can't refund or deny it") offer nothing; a review
    and then a refund ("we opened an investigation; the duplicate will be refunded") are one
    path, not two branches."""
    stated = {concept for concept, mood in mn.outcomes(text) if mood != mn.NEGATED}
    if {"refund", "denial"} <= stated:
        return True
    for clause in mn.clauses(text):
        words = set(clause.words)
        if ("or" not in words or clause.question or clause.conditional_sentence
                or words & mn.NEGATORS or words & mn.CONDITIONALS):
            continue
        if sum(1 for branch in _DECISION_WORDS if words & branch) >= 2:
            return True
    return False


def _asked(text: str, group: Phrases) -> bool:
    """Whether a fact that is a request (:mod:`graders.requests`) is made by asking for its thing."""
    request = requests.request_of(group)
    return request is not None and requests.makes(text, request)


def _numbers_between(analysis: tx.Analysis, m: tx.Match, phrase: str) -> bool:
    """Whether a match of ``phrase`` has numbers of its own inside it ("refunds: 0 1 2" is not
    "refunds: 2"): a list of candidate values, not the one the phrasing names."""
    keys = set(tx.phrase_keys(phrase, analysis.lexicon))
    return any(analysis.tokens[i].key.isdigit() and analysis.tokens[i].key not in keys
               for i in range(m.first, m.last + 1))


def _fact_spans(analysis: tx.Analysis, rubric: Rubric, skip: frozenset[int],
                made: frozenset[tuple[str, str]] = frozenset(),
                stated: frozenset[Polarity] = frozenset(),
                hedged: bool = False) -> tuple[list[str], set[int], set[int]]:
    """Names of the facts made; the token indexes their key words take (per fact, every occurrence
    of its shortest phrasing found: a long phrasing such as "4 refunds in the last 90 days" says the
    fact in two key words, the rest is ordinary prose); and every token inside any phrasing."""
    found: list[str] = []
    covered: set[int] = set()
    inside: set[int] = set()

    def mention(first: int, last: int) -> bool:
        """A value announced as a topic ("as for $75, ..."); a value alone in its clause is an
        appositive ("refunded in full - $174 - to your card"), which states it."""
        clauses = {analysis.tokens[x].clause for x in range(first, last + 1)}
        rest = [t.word for i, t in enumerate(analysis.tokens)
                if t.clause in clauses and not first <= i <= last]
        return bool(rest) and _bare(analysis, tx.Match(first, last, False, False))

    by_value = analysis.lexicon.values
    for group in rubric.facts:
        if by_value and values.listed(analysis, group):
            continue  # a run of candidate dates or amounts states none of them
        if hedged and {concept for concept, _ in _group_polarities(group)} & DECISIONS:
            continue  # a reply that hedges over the branches makes no decision
        hits: list[tuple[int, list[tx.Match]]] = []
        for p in group.any_of:
            every = tx.find(analysis, p, FACT_GAP)  # each phrasing looked for once
            ms = [m for m in tx.affirmed_of(every, skip) if not _bare(analysis, m)
                  and not (by_value and _numbers_between(analysis, m, p))]
            if ms:
                hits.append((len(tx.phrase_keys(p, analysis.lexicon)), ms))
            for m in every:  # negated mentions too: they are key phrasings, not substance
                inside.update(range(m.first, m.last + 1))
        if not hits and (_group_claims(group) & made
                         or (by_value and (values.states(analysis, group, skip, mention)
                                          or bool(_group_polarities(group) & stated)
                                          or _asked(analysis.text, group)))):
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
        return RubricResult(Fraction(0), "nothing visible", "no visible text", Fraction(0))
    analysis = tx.analyse(seen, lexicon)
    frames = _stated_frames(seen, source) if lexicon.values else ()
    for group in rubric.forbidden:
        claim = _forbidden_claim(analysis, group)
        if claim:
            return RubricResult(Fraction(0), f"makes a forbidden claim ({group.name})",
                                f"forbidden claim '{group.name}': {claim}", Fraction(0))
    echo = echoed(analysis, source)
    if lexicon.values:
        pasted = echoed(analysis, _policies(), POLICY_ECHO_WORDS)
        if len(pasted) > POLICY_PASTE_WORDS:
            echo |= pasted
    again = repeated(analysis)
    skip = echo | again
    own_idx = [i for i in range(len(analysis.tokens)) if i not in skip]
    own = [analysis.tokens[i].word for i in own_idx]
    if len(again) >= len(own):
        return RubricResult(Fraction(0), "repeats itself",
                            f"{len(again)} words repeat earlier sentences", Fraction(0))
    prose = _prose_problem(own, seen, rubric)
    if prose:
        if echo:
            prose += f"; {len(echo)} words copied from the {_copied_from(lexicon)} do not count"
        return RubricResult(Fraction(0), prose, prose, Fraction(0))
    made = frozenset((c.family, c.kind) for c in cl.claims(text) if not c.bare)
    stated = frozenset((f.concept, f.mood) for f in frames)
    hedged = lexicon.values and hedges(seen)
    found, covered, inside = _fact_spans(analysis, rubric, skip, made, stated, hedged)
    name = set(tx.words(first_name))
    substance = len({analysis.tokens[i].key for i in own_idx if i not in inside
                     and analysis.tokens[i].word not in tx.FUNCTION_WORDS
                     and len(analysis.tokens[i].word) > 2 and analysis.tokens[i].word not in name})
    if substance < max(2, rubric.min_words // MIN_SUBSTANCE_DIVISOR):
        return RubricResult(Fraction(0), "says little beyond key phrases",
                            f"says little beyond key phrases ({substance} other distinct words; "
                            f"facts {found or '-'})", Fraction(0))
    shot = [g[0] for g in foreign if any(tx.affirmed(analysis, p, 0, skip) for p in g)]
    if len(shot) >= SHOTGUN_GROUPS:
        return RubricResult(Fraction(0),
                            f"makes the points of other tickets ({len(shot)} unrelated key phrases)",
                            f"makes the points of other tickets: {shot}", Fraction(0))
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
        detail += f"; {len(echo)} words copied from the {_copied_from(lexicon)} earn nothing"
    ceiling = density
    if len(own) > MAX_WORDS:
        fraction /= 2
        ceiling /= 2
        public += f"; over {MAX_WORDS} words, halved"
        detail += f"; over {MAX_WORDS} words, halved"
    return RubricResult(fraction, public, detail, ceiling)


def written(text: str | None) -> bool:
    """Whether ``text`` says anything at all: absent or blank text is not written yet."""
    return bool(text and text.strip())


def evaluate(rubric: Rubric, text: str | None, first_name: str, foreign: Foreign = (),
             source: str = "", lexicon: tx.Lexicon = tx.LEXICON_2_0) -> RubricResult:
    """Score ``text`` against ``rubric``; absent text earns nothing. ``foreign`` holds the fact
    phrasings of other tasks (:func:`graders.lexicon.foreign_groups`); making many of them fails.
    ``source`` is what the customer wrote (subject and message): copying it earns nothing.
    ``lexicon`` is the grader version's reading of words (:class:`graders.text.Lexicon`)."""
    if text is None or not written(text):
        return NOT_WRITTEN
    return _evaluate_text(rubric, text, first_name, foreign, source, lexicon)


@text_cache(max_chars=TEXT_CHARS, max_entries=4096)
def _evaluate_text(rubric: Rubric, text: str, first_name: str, foreign: Foreign,
                   source: str, lexicon: tx.Lexicon) -> RubricResult:
    """:func:`_evaluate`, remembered for the last few thousand texts.

    Every step scores the whole state again, so a reply drafted once is judged again on each
    later step of its episode and again when the episode is replayed or re-graded. The result is a
    pure function of these values (the rubric and the phrasings are immutable), so remembering it
    changes nothing but the time.
    """
    return _evaluate(rubric, text, first_name, foreign, source, lexicon)
