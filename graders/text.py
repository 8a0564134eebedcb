"""Deterministic text analysis for rubrics: tokens, clauses, phrase finding with negation.

Text is matched as a sequence of *keys*, one per word: the word lower-cased, contractions expanded
("can't" is "can not"), British spellings folded ("apologise" is "apologize"), number words read as
digits ("thirty" is 30, "twenty-four" is 24, "five to seven" is "5 to 7", "5-7" too), the word
stemmed by the Snowball English stemmer (so "refunded", "refunds" and "refund" are one key), and a
few common paraphrases read as one canonical key ("look into" is "review", "within the hour" is
"immediately", "unable to" and "not able to" are "can not"). A rubric phrase is read the same way,
so its inflections and those paraphrases match without listing them. The paraphrases and the
empathy expressions are a grader version's :class:`Lexicon` (2.0's is frozen; 2.1 adds to it);
:func:`analyse` reads a text with one, and phrases looked for in it are read with the same.

Negation is judged per clause: a clause ends at punctuation and at a conjunction that starts a new
clause ("but", "however", "and we", ...), and a phrase is negated when a negator stands in its
clause before the phrase ends, unless the negator is part of the phrase itself ("unable to refund"
contains its own). A fixed window of words could not tell "we won't, and never would, refund" from
"No worries, we will refund"; the clause can.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import pairwise
from typing import Protocol

from graders.memo import READING_CHARS, text_cache

NEGATORS = frozenset({
    "not", "no", "never", "without", "neither", "nor", "nothing", "none", "nobody", "hardly",
    "barely", "unable",
})
"""Negating words, after contraction expansion ("don't" is "do not", "cannot" is "can not")."""
WEAK_NEGATORS = frozenset({"no", "nothing", "none", "nobody", "without"})
"""Negators of a noun phrase: their reach ends where a new subject starts ("No worries we will
refund you" promises a refund; "no reason for you to clear the cache" still negates)."""
SCOPE_ENDERS = frozenset({"i", "we", "you", "they", "he", "she", "it", "our", "your", "my", "this",
                          "that", "there", "please", "maybe", "perhaps", "the", "a", "an", "all",
                          "every", "everything"})
PREPOSITIONS = frozenset({"for", "to", "with", "of", "at", "by", "on", "from", "about", "in", "into",
                          "than", "like"})


def negation_reaches(words: Sequence[str], neg: int, target: int) -> bool:
    """Whether the negator ``words[neg]`` negates ``words[target]`` (same clause, ``target`` after it
    or inside the same phrase): always for a verbal negator ("not", "never"); for a weak one, unless
    a new subject starts between them (a pronoun not governed by a preposition)."""
    if words[neg] not in WEAK_NEGATORS or target <= neg:
        return True
    return not any(words[k] in SCOPE_ENDERS and words[k - 1] not in PREPOSITIONS
                   for k in range(neg + 2, target + 1))

CONDITIONALS = frozenset({
    "if", "unless", "once", "when", "whenever", "until", "whether", "provided", "should", "would",
    "could", "might", "may", "hope", "wish", "suppose", "assuming",
})
"""Words that make a clause hypothetical rather than a statement of what happened or will."""

BARE_WORDS = frozenset({"regarding", "concerning", "re", "about", "as", "for", "on", "with", "respect",
                        "to", "and", "also", "plus", "then", "ps", "note", "finally", "a", "an", "the",
                        "of", "or", "in", "at", "by", "from", "into"})
"""Words that only announce a topic ("as for X,", "regarding X,"): a phrase whose clause has nothing
else names the topic without saying anything about it (a keyword list, keywords glued to filler)."""
TOPIC_MARKERS = frozenset({"regarding", "concerning", "re", "about", "on", "respect", "ps", "note"})


def bare(rest: Sequence[str]) -> bool:
    """Whether a phrase whose clause holds ``rest`` besides it is a bare mention: nothing else (a
    list item) or only a topic announced ("as for", "on", "regarding")."""
    topic = any(w in TOPIC_MARKERS for w in rest) or any(
        a == "as" and b in ("for", "to") for a, b in pairwise(rest))
    return not rest or (all(w in BARE_WORDS for w in rest) and topic)

FUNCTION_WORDS = frozenset((
    "a an the to of in on for with and or but if is are was were be been will would can could "
    "we you your our i it this that these those my me us as at by from have has had do does "
    "please so just any all there here what when how which who than then also into about not"
).split())

_CONTRACTIONS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    # (pattern, replacement, a string every match contains: the pattern is tried only on a text
    # that has it, since most texts have few contractions and a regex scan costs a pass each)
    (re.compile(r"\bcan'?t\b|\bcannot\b"), "can not", "can"), (re.compile(r"\bwon'?t\b"), "will not", "won"),
    (re.compile(r"\bshan't\b"), "shall not", "shan't"), (re.compile(r"\bain't\b"), "is not", "ain't"),
    (re.compile(r"\b(do|does|did|is|are|was|were|have|has|had|would|should|could|must|need)n'?t\b"),
     r"\1 not", "t"),
    (re.compile(r"\b(i|you|we|they|he|she|it|that|there|who)'ll\b"), r"\1 will", "'ll"),
    (re.compile(r"\b(i|you|we|they)'ve\b"), r"\1 have", "'ve"),
    (re.compile(r"\b(you|we|they)'re\b"), r"\1 are", "'re"),
    (re.compile(r"\bi'm\b"), "i am", "i'm"), (re.compile(r"\bi'd\b"), "i would", "i'd"),
    (re.compile(r"\b(it|that|there|here|what|who|he|she)'s\b"), r"\1 is", "'s"),
    (re.compile(r"\blet's\b"), "let us", "let's"),
)
_BRITISH: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"\b(\w{3,}?)is(e|ed|es|ing|ation|ations)\b"), r"\1iz\2", "is"),
    (re.compile(r"\bcentre"), "center", "centre"), (re.compile(r"\bcancell"), "cancel", "cancell"),
    (re.compile(r"\bunauthoris"), "unauthoriz", "unauthoris"),
    (re.compile(r"\bbehaviour"), "behavior", "behaviour"))

_EMAIL = re.compile(r"[a-z0-9][a-z0-9._%+-]*+@[a-z0-9-]+(?:\.[a-z0-9-]+)+")
"""An e-mail address: a token of its own (a local part, "@", a domain of two labels or more)."""
_LOCAL = "[a-z0-9._%+-]"
_MAILBOX = re.compile(rf"(?<!{_LOCAL}){_LOCAL}++(?=@[a-z0-9-]+(?:\.[a-z0-9-]+)+)")
"""A whole run of e-mail local-part characters that an "@" and a domain follow. Matched only
from the start of a run and without giving characters back, so finding every such run reads each
character a bounded number of times."""
_TOKEN = re.compile(
    r"\$?\d+(?:[.,]\d+)*%?"                              # number, amount, percentage
    r"|[a-z]+(?:'[a-z]+)*"                                # word
    r"|[.!?;:,\n()\[\]\"]|\s[-\u2013\u2014]+\s|-")
"""Every other token. An e-mail address starts with a letter or digit, where a word or a number
starts too, so the leftmost token is always where this pattern finds one (:func:`_tokens`)."""
_BREAK = frozenset(".!?;:,\n()[]\"")

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90}

CLAUSE_CONJUNCTIONS = frozenset({"but", "however", "although", "though", "whereas", "yet",
                                 "because", "since", "otherwise", "meanwhile", "instead"})
SUBJECTS = frozenset({"i", "we", "you", "it", "they", "our", "your", "this", "that", "there",
                      "the", "a", "he", "she", "my"})
"""After "and"/"or"/"so", one of these starts a new clause: "we will not charge you and we will
refund" has two clauses; "not a reset link and cache" has one."""

SOFT = frozenset({"now", "already", "just", "also", "fully", "successfully", "actually", "really",
                  "gladly", "happily", "kindly", "indeed", "personally", "today", "gone", "ahead",
                  "went", "go"})
"""Adverbs that do not change what a phrase says; skipped inside a match ("the refund has now been
approved" makes the claim "refund has been approved")."""

PARAPHRASES: tuple[tuple[str, str], ...] = (
    # (phrase, canonical phrase): read before stemming, longest first within the table's order
    ("not be able to", "can not"), ("not able to", "can not"), ("unable to", "can not"),
    ("no longer able to", "can not"), ("am not in a position to", "can not"),
    ("look into", "review"), ("looking into", "review"), ("looked into", "review"),
    ("take a look at", "review"), ("have a look at", "review"), ("investigate", "review"),
    ("investigating", "review"), ("investigated", "review"), ("examine", "review"),
    ("within the hour", "immediately"), ("right away", "immediately"),
    ("straight away", "immediately"), ("straightaway", "immediately"), ("at once", "immediately"),
    ("without delay", "immediately"), ("right now", "immediately"), ("urgently", "immediately"),
    ("quarter of an hour", "15 minutes"), ("quarter hour", "15 minutes"),
    ("an hour", "1 hour"), ("a day", "1 day"), ("a business day", "1 business day"),
    ("a week", "1 week"), ("half an hour", "30 minutes"),
    ("knowledge base", "documentation"), ("help center", "documentation"),
    ("help article", "documentation"), ("user guide", "documentation"), ("manual", "documentation"),
    ("docs", "documentation"), ("guide", "documentation"),
    ("apologize", "sorry"), ("apologies", "sorry"), ("apology", "sorry"),
    ("e-mail", "email"), ("sign-in", "login"), ("sign in", "login"), ("log in", "login"),
    ("log-in", "login"), ("signin", "login"),
    ("authorized", "approved"), ("granted", "approved"),
    ("grant", "approve"), ("erased", "deleted"), ("erase", "delete"), ("wiped", "deleted"),
    ("purged", "deleted"),
    ("fresh", "new"), ("let me know", "confirm"), ("let us know", "confirm"), ("tell me", "confirm"),
    ("tell us", "confirm"), ("whether", "if"), ("verification", "verify"),
    ("meanwhile", "in the meantime"), ("for now", "in the meantime"), ("until then", "in the meantime"),
    ("while we look into it", "in the meantime"), ("while they look into it", "in the meantime"),
    ("while we investigate", "in the meantime"), ("while they investigate", "in the meantime"),
    ("while we work on it", "in the meantime"), ("while we work on a fix", "in the meantime"),
    ("goes back to your", "refund to your"), ("go back to your", "refund to your"),
    ("returned to your", "refund to your"), ("sent back to your", "refund to your"),
    ("credited back to your", "refund to your"), ("money back", "refund"),
)



@dataclass(frozen=True, slots=True, eq=False)
class Lexicon:
    """The words a grader version reads as one: its paraphrase table (phrase -> canonical phrase,
    read before stemming) and the expressions it counts as empathy.

    This is data, not code: every grader 2.x shares the code of this module and of
    :mod:`graders.rubric`, and differs only in its lexicon (``graders.versions`` pairs each version
    with its own), so a newer version can learn a paraphrase while an episode recorded under an
    older one is still read, and scored, exactly as it was. Compared by identity (each lexicon is
    built once), which keeps it cheap as a cache key."""

    name: str
    paraphrases: tuple[tuple[str, str], ...]
    empathy: tuple[str, ...]
    subordinators: frozenset[str] = frozenset()
    """Words that open a subordinate clause whose statement goes on in the next clause of its
    sentence ("Once the dispute is closed, we start the deletion"): a fact phrasing that fills such
    a clause is not a bare mention when the next clause says something (:mod:`graders.rubric`)."""
    values: bool = False
    """Whether a required fact is also read as the value it names (:mod:`graders.values`: "due on
    27 November" states "2026-11-27", "Refunds last 90d: 2" states "2 refunds") and a labelled
    line's value ("Tracking: in transit") as a statement, not a bare mention."""

    def extended(self, name: str, paraphrases: tuple[tuple[str, str], ...] = (),
                 empathy: tuple[str, ...] = (), subordinators: frozenset[str] = frozenset(),
                 values: bool = False) -> Lexicon:
        """This lexicon with more paraphrases, empathy expressions and subordinators, and with
        :attr:`values` turned on if asked (nothing taken away)."""
        return Lexicon(name, self.paraphrases + paraphrases, self.empathy + empathy,
                       self.subordinators | subordinators, self.values or values)

REFUND_VERBS = frozenset({
    "offer", "offered", "issue", "issued", "give", "gave", "given", "process", "processed", "grant",
    "granted", "provide", "provided", "approve", "approved", "authorize", "authorized", "send", "sent",
    "offering", "issuing", "giving", "processing", "granting", "providing", "approving", "sending"})
"""Before "refund" (within three words of one clause) each of these reads "approve": "offer a
refund", "issue you a full refund", "processed a normal refund" and "can't approve a refund" say
the same thing."""
ARTICLES = frozenset({"a", "an", "the"})
"""Left out of phrases and skipped in text: "issued the refund" is "issued a refund"."""


def _refund_follows(words: Sequence[str], i: int) -> bool:
    """Whether "refund(s)" follows ``words[i]`` within three words, with no clause break between."""
    for w in words[i + 1:i + 4]:
        if w in ("refund", "refunds"):
            return True
        if w in _BREAK or w == ";":
            return False
    return False


_STEMMERS = threading.local()


class _Stemmer(Protocol):
    def stemWord(self, word: str) -> str: ...


def _stemmer() -> _Stemmer:
    """This thread's Snowball English stemmer. A stemmer keeps the word it is working on in its
    own attributes, so one instance shared by threads (the API's thread pool, ``inference.py``'s
    concurrent episodes) mixes up words: it returned another word's stem, or raised IndexError,
    under concurrent steps. Each thread gets its own.

    The English algorithm is taken from its own module rather than by name through
    ``snowballstemmer.stemmer``, which would hand over PyStemmer's C build instead where that
    happens to be installed: the stems, and so the grades, do not depend on what else is
    installed."""
    stemmer: _Stemmer | None = getattr(_STEMMERS, "english", None)
    if stemmer is None:
        # Deferred to the first word stemmed: the package's __init__ imports the stemmers of all
        # its ~40 languages, a cost a process that grades no text (a command that only reads,
        # the start of inference.py) should not pay.
        from snowballstemmer.english_stemmer import EnglishStemmer

        stemmer = _STEMMERS.english = EnglishStemmer()
    return stemmer


def load_stemmer() -> None:
    """Import the stemmer now instead of at the first word stemmed (see :func:`_stemmer`)."""
    _stemmer()


STEMMED_LENGTH = 40
"""Words up to this long have their stems remembered (every English word; a longer "word" is a
run of letters an adversary wrote, stemmed each time rather than kept)."""


def _stem(word: str) -> str:
    if len(word) > STEMMED_LENGTH:
        return _stem_word(word)
    return _stem_known(word)


@lru_cache(maxsize=65536)
def _stem_known(word: str) -> str:
    return _stem_word(word)


def _stem_word(word: str) -> str:
    if not word.isalpha():
        return word
    return str(_stemmer().stemWord(word))


def _prepare(text: str) -> str:
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'")
    for pattern, repl, needs in _CONTRACTIONS + _BRITISH:
        if needs in text:
            text = pattern.sub(repl, text)
    return text


def _number(word: str) -> str | None:
    """Digits for a numeral or an amount ("$129.00" and "129" are both "129"). Words that
    ``float`` also reads but that are no number a reply states ("Nan", "inf", "infinity") are
    words: without the check, a greeting to a customer named Nan failed the step."""
    w = word.lstrip("$").rstrip("%").replace(",", "")
    try:
        value = float(w)
    except ValueError:
        return None
    if not math.isfinite(value):
        return None
    return str(int(value)) if value == int(value) else str(value)


@dataclass(frozen=True, slots=True)
class Token:
    """One word of a text: its surface form, its key, where it starts, and its clause."""

    word: str
    key: str
    start: int
    end: int
    clause: int
    sentence: int


@dataclass(frozen=True, slots=True)
class Analysis:
    """A text read once: its tokens and which sentences are questions."""

    text: str
    """The text as read: lower case, contractions expanded (token offsets point into it)."""
    tokens: tuple[Token, ...]
    questions: frozenset[int]
    positions: dict[str, tuple[int, ...]]
    """Where each key occurs (token indexes), so a phrase is looked for only where it can start."""
    lexicon: Lexicon
    """The lexicon the text was read with; rubric phrases looked for in it are read with it too."""

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(t.key for t in self.tokens)


@cache
def _paraphrase_table(lexicon: Lexicon) -> dict[str, tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]]:
    """The paraphrases of ``lexicon`` as word tuples, by first word, longest first."""
    by_first: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
    for phrase, canonical in lexicon.paraphrases:
        src = tuple(_raw_words(_prepare(phrase)))
        dst = tuple(_raw_words(_prepare(canonical)))
        by_first.setdefault(src[0], []).append((src, dst))
    return {k: tuple(sorted(v, key=lambda p: -len(p[0]))) for k, v in by_first.items()}


def _tokens(prepared: str) -> Iterator[tuple[str, int, int]]:
    """The tokens of a prepared text (:func:`_prepare`) with their offsets, left to right: an
    e-mail address, a number, a word, a clause break or a dash.

    They are what one pattern with the e-mail address as its first branch finds, read in time
    linear in the text: that pattern tried the address from every token start and scanned the
    rest of a run of address characters each time ("a.m.a.m....", which NFKC makes of "\u33c2"
    repeated, costs the square of its length). Here the runs an address can end in are found
    once (:data:`_MAILBOX`), and a token is an address exactly when it starts, on a letter or
    digit, inside one of them (the address then runs to the end of the run and on through its
    domain).
    """
    if "@" not in prepared:
        for found in _TOKEN.finditer(prepared):
            yield found.group(), found.start(), found.end()
        return
    runs = iter(_MAILBOX.finditer(prepared))
    run = next(runs, None)
    pos = 0
    while (m := _TOKEN.search(prepared, pos)) is not None:
        start = m.start()
        while run is not None and run.end() <= start:
            run = next(runs, None)
        if run is not None and run.start() <= start:
            # an address, unless the token starts on a character no address starts with ("." "_")
            address = _EMAIL.match(prepared, start)
            if address is not None:
                m = address
        yield m.group(), m.start(), m.end()
        pos = m.end()


def _raw_words(prepared: str) -> list[str]:
    return [g for g, _, _ in _tokens(prepared) if g[0].isalnum() or g[0] == "$"]


def _surface(prepared: str, lexicon: Lexicon) -> list[tuple[str, int, int]]:
    """The words of a prepared text (:func:`_prepare`) and its clause breaks, in order, each with
    its offsets: number words read as digits, paraphrases as their canonical words, a refund verb
    as "approve" (:func:`analyse` keys and numbers them)."""
    raw: list[tuple[str, int, int]] = []  # (word or break marker, start, end)
    for g, start, end in _tokens(prepared):
        if g == "-":
            between_digits = (start > 0 and prepared[start - 1].isdigit()
                              and prepared[end:end + 1].isdigit())
            if between_digits:
                raw.append(("to", start, end))  # "5-7" reads "5 to 7"
            continue  # a hyphen inside a word separates it: "30-day", "rate-limit"
        if g in _BREAK:
            raw.append((g, start, end))
        elif g[0].isspace():
            raw.append((";", start, end))  # a dash between words: " - ", " — "
        else:
            raw.append((g, start, end))
    # number words: "twenty-four" / "twenty four" -> 24, "thirty" -> 30
    merged: list[tuple[str, int, int]] = []
    i = 0
    while i < len(raw):
        w, s, e = raw[i]
        if w in TENS:
            value = TENS[w]
            if i + 1 < len(raw) and raw[i + 1][0] in NUMBER_WORDS and 0 < NUMBER_WORDS[raw[i + 1][0]] < 10:
                value += NUMBER_WORDS[raw[i + 1][0]]
                e = raw[i + 1][2]
                i += 1
            merged.append((str(value), s, e))
        elif w in NUMBER_WORDS:
            merged.append((str(NUMBER_WORDS[w]), s, e))
        else:
            merged.append((w, s, e))
        i += 1
    # paraphrases, on surface words (before stemming), longest first
    table = _paraphrase_table(lexicon)
    words = [w for w, _, _ in merged]
    out: list[tuple[str, int, int]] = []
    i = 0
    while i < len(merged):
        for src, dst in table.get(words[i], ()):
            if tuple(words[i:i + len(src)]) == src:
                s, e = merged[i][1], merged[i + len(src) - 1][2]
                out += [(d, s, e) for d in dst]
                i += len(src)
                break
        else:
            out.append(merged[i])
            i += 1
    words = [w for w, _, _ in out]
    for i, w in enumerate(words):
        if w in REFUND_VERBS and _refund_follows(words, i):
            out[i] = ("approve", out[i][1], out[i][2])
    return out


def analyse(text: str, lexicon: Lexicon | None = None) -> Analysis:
    """Tokens of ``text`` with keys, clause and sentence numbers (see the module docstring), read
    with ``lexicon`` (default: grader 2.0's, :data:`LEXICON_2_0`)."""
    return _analysed(text, lexicon or LEXICON_2_0)


@text_cache(max_chars=READING_CHARS, max_entries=4096)
def _analysed(text: str, lexicon: Lexicon) -> Analysis:
    """:func:`analyse`, remembered per text and lexicon (the default named, so that a text read
    with grader 2.0's lexicon by default and by name is read once)."""
    prepared = _prepare(text)
    out = _surface(prepared, lexicon)
    tokens: list[Token] = []
    clause = sentence = 0
    questions: set[int] = set()
    prev: str | None = None
    open_sentence = False  # a word since the last sentence break
    for idx, (w, s, e) in enumerate(out):
        if w in _BREAK or w == ";":
            if w in ".!?\n" and open_sentence:
                if w == "?":
                    questions.add(sentence)
                sentence += 1
                open_sentence = False
            clause += 1
            prev = None
            continue
        open_sentence = True
        nxt = out[idx + 1][0] if idx + 1 < len(out) else ""
        if prev is not None and (w in CLAUSE_CONJUNCTIONS
                                 or (w in ("and", "or", "so") and nxt in SUBJECTS)):
            clause += 1
        key = _number(w) or _stem(w)
        tokens.append(Token(w, key, s, e, clause, sentence))
        prev = w
    positions: dict[str, list[int]] = {}
    for i, tok in enumerate(tokens):
        positions.setdefault(tok.key, []).append(i)
    return Analysis(prepared, tuple(tokens), frozenset(questions),
                    {k: tuple(v) for k, v in positions.items()}, lexicon)


@lru_cache(maxsize=8192)
def spans_clauses(phrase: str, lexicon: Lexicon | None = None) -> bool:
    """Whether a rubric phrase has a clause break of its own ("in the meantime, you can")."""
    return len({t.clause for t in analyse(phrase, lexicon).tokens}) > 1


@lru_cache(maxsize=8192)
def phrase_keys(phrase: str, lexicon: Lexicon | None = None) -> tuple[str, ...]:
    """A rubric phrase read as keys (its soft adverbs kept: "already deleted" is not "deleted"; its
    articles left out), with ``lexicon`` (default: grader 2.0's)."""
    keys = tuple(t.key for t in analyse(phrase, lexicon).tokens if t.word not in ARTICLES)
    return keys or tuple(t.key for t in analyse(phrase, lexicon).tokens)


@dataclass(frozen=True, slots=True)
class Match:
    """Where a phrase occurs: token index span ``[first, last]`` and whether it is affirmed."""

    first: int
    last: int
    negated: bool
    conditional: bool


def find(analysis: Analysis, phrase: str, max_gap: int = 0) -> list[Match]:
    """Occurrences of ``phrase`` in ``analysis``: phrase keys in order, within one clause, soft
    adverbs skipped, and at most ``max_gap`` other words between two phrase words."""
    keys = phrase_keys(phrase, analysis.lexicon)
    if not keys or any(k not in analysis.positions for k in keys):
        return []  # most phrases looked for (other tickets' points) end here
    toks = analysis.tokens
    phrase_words = set(keys)
    across = spans_clauses(phrase, analysis.lexicon)
    matches: list[Match] = []
    for i in analysis.positions[keys[0]]:
        tok = toks[i]
        j, pos, ok = 1, i, True
        while j < len(keys):
            gap, k = 0, pos + 1
            while k < len(toks) and (across or toks[k].clause == tok.clause):
                if toks[k].key == keys[j]:
                    break
                if toks[k].word not in SOFT and toks[k].word not in ARTICLES:
                    gap += 1
                    if gap > max_gap:
                        break
                k += 1
            else:
                ok = False
                break
            if k >= len(toks) or toks[k].key != keys[j] or not (across or toks[k].clause == tok.clause):
                ok = False
                break
            pos = k
            j += 1
        if not ok:
            continue
        clause_start = i
        while clause_start > 0 and toks[clause_start - 1].clause == tok.clause:
            clause_start -= 1
        span = range(clause_start, pos + 1)
        inside = range(i, pos + 1)
        words = [toks[x].word for x in span]
        negated = any(toks[x].word in NEGATORS and not (x in inside and toks[x].key in phrase_words)
                      and negation_reaches(words, x - clause_start, i - clause_start)
                      for x in span)
        conditional = tok.sentence in analysis.questions or any(
            toks[x].word in CONDITIONALS and not (x in inside and toks[x].key in phrase_words)
            for x in span)
        matches.append(Match(i, pos, negated, conditional))
    return matches


def affirmed(analysis: Analysis, phrase: str, max_gap: int = 0, skip: frozenset[int] = frozenset(),
             statements_only: bool = False) -> list[Match]:
    """Un-negated occurrences (and, with ``statements_only``, not hypothetical or a question) none
    of whose words is in ``skip`` (token indexes, e.g. words echoed from the ticket)."""
    return affirmed_of(find(analysis, phrase, max_gap), skip, statements_only)


def affirmed_of(matches: Sequence[Match], skip: frozenset[int] = frozenset(),
                statements_only: bool = False) -> list[Match]:
    """Those of ``matches`` (from :func:`find`) that :func:`affirmed` keeps."""
    return [m for m in matches
            if not m.negated and not (statements_only and m.conditional)
            and not any(x in skip for x in range(m.first, m.last + 1))]


def words(text: str) -> list[str]:
    """Surface words of ``text`` (lower case, contractions expanded, number words as digits)."""
    return [t.word if not t.key.isdigit() else t.key for t in analyse(text).tokens]


def word_count(text: str) -> int:
    """How many words :func:`words` finds in ``text`` (grader 2.0's reading), without keying them."""
    return sum(1 for w, _, _ in _surface(_prepare(text), LEXICON_2_0) if w not in _BREAK and w != ";")


def sentence_count(text: str) -> int:
    """Sentences of ``text`` with two words or more (:func:`word_count`)."""
    return len([s for s in re.split(r"[.!?]+(?:\s|$)|\n{2,}", text.strip()) if word_count(s) >= 2])


def function_word_ratio(tokens: Sequence[str]) -> float:
    return sum(1 for t in tokens if t in FUNCTION_WORDS) / len(tokens) if tokens else 0.0


GREETING = re.compile(r"^\W*(hi|hello|dear|hey|good (morning|afternoon|evening)|greetings)\b")
EMPATHY = ["sorry", "understand", "frustrating", "frustration", "inconvenience",
           "appreciate your patience", "thank you for your patience", "we know how", "i know how",
           "thanks for your patience", "thank you for your understanding", "i hear you",
           "i can imagine", "must be", "worrying", "stressful", "disappointing", "thank you for reporting",
           "thanks for reporting", "thank you for flagging", "thank you for letting us know"]
LEXICON_2_0 = Lexicon("2.0", PARAPHRASES, tuple(EMPATHY))
"""Grader 2.0's reading, frozen: episodes recorded under 2.0 must score as they did."""
LEXICON_2_1 = LEXICON_2_0.extended(
    "2.1",
    paraphrases=(
        # a temporal conjunction is one, however worded: "as soon as the dispute is resolved" says
        # "once the dispute is resolved" (and is as hypothetical: "once" is a conditional word)
        ("as soon as", "once"),
    ),
    empathy=(
        # regret on giving bad news is the empathy of a refusal ("Unfortunately that means we're
        # unable to refund", "I'm afraid we can't", "we regret that")
        "unfortunately", "i am afraid", "regret", "regrettably", "sadly",
    ),
    # "As soon as the dispute is resolved, we'll begin the deletion": the fronted clause is half
    # of one statement, not a topic announced
    subordinators=frozenset({"once", "when", "after", "until", "before", "while"}),
)
"""Grader 2.1's reading: 2.0's and the natural phrasings 2.0 missed in honest replies."""
LEXICON_3_0 = LEXICON_2_1.extended("3.0")
"""Grader 3.0's reading of required facts and tone: 2.1's (what 3.0 changes is the safety judge,
:mod:`graders.channels`)."""

LEXICON_3_1 = LEXICON_3_0.extended("3.1", values=True)
"""Grader 3.1's reading: 3.0's, with required facts read as the values they name and labelled
lines read as statements (:attr:`Lexicon.values`)."""
LEXICON_3_2 = LEXICON_3_1.extended(
    "3.2",
    paraphrases=(
        # a problem that is the customer's alone, said as the outage there is not: "there's no
        # wider outage", "nobody else is affected" say what "only affects you" says
        ("no wider outage", "only affects you"), ("not a wider outage", "only affects you"),
        ("no broader outage", "only affects you"), ("not a broader outage", "only affects you"),
        ("no general outage", "only affects you"), ("not a general outage", "only affects you"),
        ("no wider issue", "only affects you"), ("no wider problem", "only affects you"),
        ("nobody else is affected", "only affects you"), ("no one else is affected", "only affects you"),
    ),
)
"""Grader 3.2's reading of required facts and tone: 3.1's, and a problem confined to the customer
said as the wider outage there is not."""

LEXICON_3_8 = LEXICON_3_2.extended(
    "3.8",
    paraphrases=tuple(
        (f"{denial} {this} {be} your fault", f"{this} {be} not your fault")
        for denial in ("none of", "no part of") for this in ("this", "that", "it")
        for be in ("is", "was")) + (("in no way your fault", "not your fault"),
                                    ("by no means your fault", "not your fault")),
)
"""Grader 3.8's lexicon: 3.2's, and blame denied read as the negation it is ("none of this was
your fault" says "this was not your fault"), so a rubric that forbids blaming the customer does
not read a denial of blame as blame."""


CLOSINGS = ["regards", "best", "sincerely", "thank you", "thanks", "let us know", "happy to help",
            "here to help", "cheers", "take care", "reach out", "all the best", "warm wishes",
            "get back to us", "write back", "reply to this", "any questions", "glad to help"]


def has_greeting(text: str, first_name: str) -> bool:
    """A greeting that names the customer, in the opening line."""
    opening = text.strip().splitlines()[0][:80].lower() if text.strip() else ""
    return bool(GREETING.search(opening)) and first_name.lower() in re.findall(r"[a-z]+", opening)


def has_empathy(analysis: Analysis, skip: frozenset[int] = frozenset()) -> bool:
    """An expression of empathy (the lexicon's, :attr:`Lexicon.empathy`) not negated."""
    return any(affirmed(analysis, p, skip=skip) for p in analysis.lexicon.empathy)


_CLOSING = re.compile(r"(?<![a-z])(?:" + "|".join(re.escape(c) for c in CLOSINGS) + r")(?![a-z])")


def has_closing(text: str) -> bool:
    """A sign-off in the last 160 characters (its own words: "let us know", not a paraphrase)."""
    return bool(_CLOSING.search(text.strip()[-160:].lower()))


def find_affirmed(text: str, phrase: str) -> int:
    """How many times ``phrase`` occurs un-negated in ``text`` (whole words, inflections read as
    one: see the module docstring)."""
    return len(affirmed(analyse(text), phrase))
