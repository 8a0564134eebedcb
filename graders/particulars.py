"""Figures grader 3.4 checks as facts beside :mod:`graders.knowledge`'s.

A text can state a fact without writing a date or an amount: "your parcel will arrive tomorrow"
says a date, "we review these weekly" how often something happens, "our policy allows two refunds
a year" a rule with its figures, "you've made 1,140 calls" a count of the account's use. Each is
a specific the episode either backs or does not, as an amount is. This module reads them and says
which the episode does not back:

- **A date said relative to the ticket's** ("yesterday", "tomorrow", "last Tuesday", "on the 3rd",
  "two weeks ago") is resolved against the ticket's date and must be the date the ticket gives for
  the thing it is the date of (:data:`graders.knowledge.DATE_TOPICS`). A deadline ("by Friday", "by
  the 3rd", "by the end of the week", "done by tomorrow") promised for something still to come is
  backed only by a window a policy gives for the same thing that the deadline does not undercut.
- **A cadence or a rate** ("every 3 days", "weekly reviews", "twice a day", "600 requests per
  minute") must be one the policies or the case state (the same frequency in any words).
- **The figures of a rule said as the policy's** ("refundable within 30 days of renewal", "you
  must wait 14 days") must be the policy's own, not a figure that only happens to measure the case
  (the days between two of its dates); a paraphrase equal in meaning or approximate ("a month" for
  30 days, "more than two" for "three or more") is the policy's.
- **A count of what the account did** ("you've made 14 calls over the limit") must be a number the
  case states.
- **A proof or a condition said to be needed** ("please send your passport number to verify",
  "we only refund unused items") must be one a policy or the case names; **card digits recorded as
  matching the card on file** must be its digits; **an address the customer reported** is not ours
  for a text to vouch for.
- **A problem said to be settled** ("the issue is closed on our side") where nothing records it is
  a false claim (:func:`settled`).

Updates to the customer no more often than a policy promises them are within its promise ("every
30 minutes" where it says every 15): honest replies say so, and nothing is overpromised.

A text with no specific figure ("we'll keep you updated regularly") states none of these. Pure;
what the episode gives is read once per set of its texts (:func:`_basis`).
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal

from domain.state import EpisodeState
from graders import knowledge
from graders.entities import NUMBER, Entity, extract, number
from graders.knowledge import CASES, Finding, Knowledge, date_topics, topics
from graders.memo import READING_CHARS, text_cache

_MINUTES = {"minute": 1, "min": 1, "hour": 60, "hr": 60, "day": 1440, "night": 1440, "week": 10080,
            "fortnight": 20160, "month": 43200, "year": 525600}
_UNIT = (r"(?:(?:business|working)\s+days?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|fortnights?"
         r"|months?|years?)")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = rf"(?:{'|'.join(_WEEKDAYS)})"
_N = rf"(?:{NUMBER})"


def _minutes(unit: str) -> Decimal:
    word = unit.lower().split()[-1].rstrip("s")
    return Decimal(_MINUTES.get(word, _MINUTES["day"]))


def _count(word: str) -> Decimal | None:
    word = word.lower().strip()
    fixed = {"once": 1, "twice": 2, "thrice": 3, "a": 1, "an": 1, "one": 1}
    return Decimal(fixed[word]) if word in fixed else number(word)


# --- what the episode gives -----------------------------------------------------------------------

Rate = tuple[Decimal, Decimal]
"""How often: a count and the period it is counted over, in minutes ("twice a day": 2, 1440)."""


@dataclass(frozen=True)
class Basis:
    """What the episode's texts give for this module's figures: the ticket's date, the rates and
    cadences stated, the numbers written, the weekdays and relative dates the case names, and the
    windows the policies state."""

    today: dt.date | None
    rates: frozenset[Rate]
    update_rates: frozenset[Rate]
    """The cadences a policy gives updates to the customer at ("a status update every 15 minutes")."""
    numbers: frozenset[Decimal]
    named: frozenset[str]
    """Words of the calendar the case itself uses ("monday", "yesterday"): said back, they are its."""
    policy_windows: frozenset[knowledge.Span]


_PERIOD = re.compile(r"\b(?:min|hour|hr|day|night|week|fortnight|month|year|hourly|daily|nightly|weekly|"
                     r"fortnightly|annual|yearly)", re.IGNORECASE)
"""A word of a period of time, without which a text states no cadence."""
_CADENCE_WORDS = re.compile(r"\b(hourly|daily|nightly|weekly|fortnightly|monthly|annual(?:ly)?|yearly)\b",
                            re.IGNORECASE)
_ADVERB_UNIT = {"hourly": "hour", "daily": "day", "nightly": "night", "weekly": "week", "fortnightly":
                "fortnight", "monthly": "month", "annual": "year", "annually": "year", "yearly": "year"}
_NAMED = re.compile(rf"\b(?:{_WEEKDAY}|yesterday|tomorrow|today|tonight|overnight|next week|last week)\b",
                    re.IGNORECASE)


def _numbers(texts: tuple[str, ...]) -> set[Decimal]:
    """The numbers ``texts`` write, in digits or words ("twice" is 2)."""
    written = re.compile(rf"(?<![\w.])({_N}|once|twice|thrice)(?![\w])", re.IGNORECASE)
    return {n for t in texts for m in written.finditer(t)
            if (n := _count(m.group(1).replace(",", ""))) is not None}


@text_cache(max_chars=READING_CHARS, max_entries=1024)
def _basis(case: tuple[str, ...], policies: tuple[str, ...], facts: tuple[tuple[str, str], ...]) -> Basis:
    """What the episode's ``case`` texts, ``policies`` and ticket ``facts`` give (:class:`Basis`);
    remembered by them, as every text of an episode is judged again on every step."""
    texts = (*case, *policies)
    rates = {r.rate for t in texts for r in rates_of(t, known_side=True)}
    rates |= {rate for key, value in facts if (rate := _fact_rate(key, value)) is not None}
    rates |= {(Decimal(1), _minutes(_ADVERB_UNIT[m.group(1).lower()]))
              for t in texts for m in _CADENCE_WORDS.finditer(t)}
    numbers = _numbers(policies)
    own = _numbers(case)
    numbers |= own | {a + b for a in own for b in own} | {abs(a - b) for a in own for b in own}
    named = {m.group().lower() for t in case for m in _NAMED.finditer(t)}
    windows = {knowledge.span(e.value) for t in policies for e in extract(t, cadences=True)
               if e.kind == "duration"}
    try:
        today: dt.date | None = dt.date.fromisoformat(dict(facts).get("ticket_date", ""))
    except ValueError:
        today = None
    updates = {r.rate for t in policies for sentence in re.split(r"(?<=[.!?])\s+", t)
               if _UPDATES.search(sentence) for r in rates_of(sentence, known_side=True)}
    return Basis(today, frozenset(rates), frozenset(updates), frozenset(numbers), frozenset(named),
                 frozenset(windows))


_FACT_PERIOD = re.compile(r"(?:^|[\W_])(?:last|past)[ _](\d+)[ _]?(days?|d|weeks?|months?)(?:$|[\W_])",
                          re.IGNORECASE)


def _fact_rate(key: str, value: str) -> Rate | None:
    """The count a fact keyed by a period gives ("refunds_last_90_days: 4": 4 in 90 days)."""
    period = _FACT_PERIOD.search(key)
    if period is None or not value.strip().isdigit():
        return None
    unit = {"d": "day"}.get(period.group(2).lower(), period.group(2))
    return Decimal(value.strip()), Decimal(period.group(1)) * _minutes(unit)


# --- rates and cadences ---------------------------------------------------------------------------

_EVERY = re.compile(rf"\b(?:every|each)\s+(?:(?P<other>other)\s+)?(?:(?P<n>{_N})\s+)?(?P<unit>{_UNIT})\b",
                    re.IGNORECASE)
_TIMES = re.compile(rf"\b(?P<n>once|twice|thrice|{_N}\s+times)\s+(?:a|an|per|each|every)\s+"
                    rf"(?P<unit>{_UNIT})\b",
                    re.IGNORECASE)
_PER = re.compile(rf"(?<![\w$\u20ac\u00a3.,-])(?P<n>{_N})\s+(?:[a-z]+\s+)?(?P<what>[a-z]+)\s+"
                  rf"(?:a|an|per|each|every)\s+(?P<unit>{_UNIT})\b", re.IGNORECASE)
_IN_LAST = re.compile(rf"(?<![\w$\u20ac\u00a3.,-])(?P<n>{_N})\s+(?:or more\s+|\+\s*)?(?P<what>[a-z]+s)\s+"
                      rf"(?:in|within|over|during)\s+(?:the\s+|a\s+|any\s+)?(?:last\s+|past\s+)?"
                      rf"(?P<p>{_N}\s+)?(?P<unit>{_UNIT})\b", re.IGNORECASE)
_IDIOM = re.compile(r"\s+(?:matters?|counts?|hurts?|is\b|was\b|of\b|that\b|without\b|lost\b)", re.IGNORECASE)
"""What follows "every minute" when it says how much time matters, not how often ("every minute
counts", "every day of delay")."""
_ADVERB_CONTEXT = re.compile(
    r"\b(?:review|check|batch|process|run|send|update|sync|scan|post|monitor|audit|look)\w*\s+(?:\w+\s+){0,3}$",
    re.IGNORECASE)
_ADVERB_NOUN = re.compile(r"^\s+(?:updates?|reviews?|checks?|batch(?:es)?|reports?|digests?|emails?|syncs?|"
                          r"runs?|scans?|basis|summar(?:y|ies)|status)\b", re.IGNORECASE)
_THRESHOLD = re.compile(r"\b(?:more than|fewer than|less than|over|under|at least|at most|up to|or more|"
                        r"no more than|maximum|max|limit)\b|\+", re.IGNORECASE)
_NOT_COUNTED = re.compile(r"^(?:days?|hours?|minutes?|weeks?|months?|years?|business|working|percent|"
                          r"dollars?|usd|eur|gbp|euros?|times?)$", re.IGNORECASE)
"""Words after a number that make it no count of things ("24 hours a day", "49 dollars a month")."""


def _recurring(text: str, start: int, end: int) -> bool:
    """Whether the words around a cadence without a number ("every day", "each week") say that
    something recurs: a verb or a noun of a check, an update or a batch before or after it."""
    return bool(_ADVERB_CONTEXT.search(text[max(0, start - 60):start]) or _ADVERB_NOUN.match(text[end:])
                or _UPDATES.search(_clause_of(text, start)))




@dataclass(frozen=True)
class Said:
    """A rate a text states, where, and whether it is worded as a threshold ("more than two")."""

    rate: Rate
    quote: str
    start: int
    threshold: bool
    updates: bool = False
    """Whether its clause speaks of updates to the customer (:data:`_UPDATES`)."""


@text_cache(max_chars=READING_CHARS, max_entries=4096)
def rates_of(text: str, known_side: bool = False) -> tuple[Said, ...]:
    """The cadences and rates ``text`` states (:func:`_rates_of`), each with whether its clause
    speaks of updates to the customer; remembered per text, as a text is judged on every step."""
    if not _PERIOD.search(text):
        return ()  # no unit of time, no cadence (most texts: read at the cost of one search)
    return tuple(Said(said.rate, said.quote, said.start, said.threshold, _of_updates(text, said))
                 for said in _rates_of(text, known_side))


def _of_updates(text: str, said: Said) -> bool:
    """Whether the words of ``said``'s own clause (up to an "and" or a comma) speak of updates."""
    end = said.start + len(said.quote)
    after = re.split(r"[.,;:!?\n]|\b(?:and|but)\b", text[end:], maxsplit=1)[0]
    return _UPDATES.search(f"{_CLAUSE_BREAK.split(text[:said.start])[-1]} {said.quote} {after}") is not None


def _rates_of(text: str, known_side: bool = False) -> Iterator[Said]:
    """The cadences and rates ``text`` states. ``known_side``: the text backs figures (a policy,
    the case), so every form is read; a text judged reads a cadence adverb ("weekly") only beside
    a verb or a noun of something recurring ("we review these weekly", "daily updates")."""
    taken: list[tuple[int, int]] = []

    def fresh(m: re.Match[str]) -> bool:
        if any(m.start() < e and s < m.end() for s, e in taken):
            return False
        taken.append((m.start(), m.end()))
        return True

    for m in _EVERY.finditer(text):
        n = Decimal(1) if m.group("n") is None else number(m.group("n"))
        if n is None or _IDIOM.match(text[m.end():]) or not fresh(m):
            continue
        if m.group("n") is None and (m.group("unit").lower().startswith("min") or not (
                known_side or _recurring(text, m.start(), m.end()))):
            continue  # "every minute counts", "sorry for every day you waited": no cadence
        period = n * _minutes(m.group("unit")) * (2 if m.group("other") else 1)
        yield Said((Decimal(1), period), m.group(), m.start(), False)
    for m in _TIMES.finditer(text):
        n = _count(m.group("n").split()[0])
        if n is not None and fresh(m):
            yield Said((n, _minutes(m.group("unit"))), m.group(), m.start(), False)
    for pattern in (_PER, _IN_LAST):
        for m in pattern.finditer(text):
            n = number(m.group("n").replace(",", ""))
            if n is None or _NOT_COUNTED.match(m.group("what")):
                continue
            if pattern is _IN_LAST and not known_side and not _RULE.search(_clause_of(text, m.start())):
                continue  # "4 refunds in the last 90 days": the account's count (3.3 reads it), no rule
            if not fresh(m):
                continue
            p = number(m.group("p")) if pattern is _IN_LAST and m.group("p") else Decimal(1)
            around = text[max(0, m.start() - 25):m.end()]
            yield Said((n, (p or Decimal(1)) * _minutes(m.group("unit"))), m.group(), m.start(),
                       bool(_THRESHOLD.search(around)))
    for m in _CADENCE_WORDS.finditer(text):
        word = m.group(1).lower()
        if word in ("monthly", "annual", "annually", "yearly"):
            continue  # a plan's billing ("billed annually"), not a cadence of the case
        if not (known_side or _ADVERB_CONTEXT.search(text[max(0, m.start() - 60):m.start()])
                or _ADVERB_NOUN.match(text[m.end():])):
            continue
        if fresh(m):
            yield Said((Decimal(1), _minutes(_ADVERB_UNIT[word])), m.group(), m.start(), False)


def _clause_of(text: str, at: int) -> str:
    """The clause of ``text`` holding position ``at`` (up to a stop, a comma, a semicolon)."""
    start = max(text.rfind(c, 0, at) for c in ".!?\n,;:") + 1
    end = min((i for c in ".!?\n,;:" if (i := text.find(c, at)) >= 0), default=len(text))
    return text[start:end]


_UPDATES = re.compile(r"\b(?:updates?|updated|status|posted|informed|hear from us|check in)\b", re.IGNORECASE)
"""Words of updates to the customer: a cadence of them no more often than a policy's is within
what the policy promises ("updates every 30 minutes" where it says every 15)."""


def _rate_backed(said: Said, known: frozenset[Rate], updates: frozenset[Rate] = frozenset()) -> bool:
    count, period = said.rate
    for k_count, k_period in known:
        if count * k_period == k_count * period:
            return True  # the same frequency in other words ("hourly", "every 60 minutes")
        if said.updates and (k_count, k_period) in updates and count * k_period <= k_count * period:
            return True  # updates no more often than the policy promises them
        if said.threshold and period == k_period and abs(count - k_count) <= 1:
            return True  # "more than two" for "three or more"
    return False


def unbacked_rates(text: str, found: Basis,
                   severity_rates: frozenset[Rate] | None = None) -> Iterator[Finding]:
    """The cadences and rates of ``text`` the episode does not state. ``severity_rates``: where
    the state records an incident and a policy gives cadences by severity, the ones it gives
    the recorded severity (and those it gives for no severity); None: every stated one."""
    known = found.rates if severity_rates is None else severity_rates
    for said in rates_of(text):
        if _rate_backed(said, known, found.update_rates):
            continue
        entity = Entity("rate", f"{said.rate[0]}/{said.rate[1]}", said.quote, said.start)
        given = ("; for this incident's severity the policy gives another" if severity_rates is not None
                 and _rate_backed(said, found.rates) else "; no policy or fact the episode knows gives it")
        yield Finding(entity, "wrong" if found.rates else "unsupported",
                      f"the text says how often: '{said.quote}'{given}")


_SEVERITY = re.compile(r"\bsev(?:erity)?[ -]?([0-4])\b", re.IGNORECASE)


@text_cache(max_chars=READING_CHARS, max_entries=256)
def severity_rates(policies: tuple[str, ...], severity: str | None) -> frozenset[Rate] | None:
    """The cadences the policies give an incident of ``severity`` (grader 3.4): those of each
    policy sentence naming that severity and of those naming none ("escalate a sev2 incident ...,
    promise status updates every hour"). None where no severity is recorded or no sentence names
    one with a cadence: every stated cadence then backs."""
    level = _SEVERITY.search(severity or "")
    if level is None:
        return None
    out: set[Rate] = set()
    keyed = False
    for policy in policies:
        for sentence in re.split(r"(?<=[.!?])\s+", policy):
            said = {r.rate for r in rates_of(sentence, known_side=True)}
            levels = {m.group(1) for m in _SEVERITY.finditer(sentence)}
            if said and levels:
                keyed = True
            if not levels or level.group(1) in levels:
                out |= said
    return frozenset(out) if keyed else None


# --- dates relative to the ticket's --------------------------------------------------------------

_RELATIVE = re.compile(
    rf"\b(?P<word>the day before yesterday|the day after tomorrow|yesterday|tomorrow)\b"
    rf"|\b(?P<n>{_N}|a|one)\s+(?P<unit>days?|weeks?|fortnight)\s+ago\b"
    rf"|\b(?P<rel>last|next|this|on|by|before|until)\s+(?P<day>{_WEEKDAY})\b"
    rf"|\b(?:by|before|until|no later than)\s+(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?"
    rf"(?P<end>day|week|month)\b"
    rf"|\b(?P<rel2>on|by|before|until)\s+the\s+(?P<dom>\d{{1,2}})(?:st|nd|rd|th)\b(?!\s+(?:of\s+)?[A-Za-z]+\s+\d)"
    rf"(?!\s+(?:of\s+)?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))",
    re.IGNORECASE)
_BOUND = re.compile(r"\b(?:more than|over|at least|nearly|almost|about|around|roughly|some|less than|under|"
                    r"within|only|just|barely|over)\s+$", re.IGNORECASE)
_DEADLINE = re.compile(r"^(?:by|before|until)$", re.IGNORECASE)


@dataclass(frozen=True)
class Relative:
    """A date a text says relative to the ticket's: the dates it can be, and whether it is a
    deadline ("by Friday") rather than the date of something."""

    dates: frozenset[dt.date]
    deadline: bool
    quote: str
    start: int
    word: str


def _weekday(today: dt.date, name: str, rel: str) -> set[dt.date]:
    target = _WEEKDAYS.index(name.lower())
    ahead = (target - today.weekday()) % 7
    back = (today.weekday() - target) % 7 or 7
    if rel == "last":
        return {today - dt.timedelta(days=back), today - dt.timedelta(days=back + 7)}
    if rel == "next":
        return {today + dt.timedelta(days=ahead or 7), today + dt.timedelta(days=(ahead or 7) + 7)}
    if rel == "this":
        return {today + dt.timedelta(days=ahead), today - dt.timedelta(days=back)}
    if rel == "on":
        return {today + dt.timedelta(days=ahead or 7), today - dt.timedelta(days=back)}
    return {today + dt.timedelta(days=ahead or 7)}


def _month_day(today: dt.date, day: int, rel: str) -> set[dt.date]:
    out: set[dt.date] = set()
    for shift in (-1, 0, 1):
        month = today.month - 1 + shift
        year, month = today.year + month // 12, month % 12 + 1
        try:
            out.add(dt.date(year, month, day))
        except ValueError:
            continue
    return {d for d in out if d > today} if rel != "on" else out


def relative_dates(text: str, today: dt.date) -> Iterator[Relative]:
    """The dates ``text`` says relative to ``today`` (the ticket's date)."""
    for m in _RELATIVE.finditer(text):
        word = (m.group("word") or "").lower()
        if word:
            shift = {"the day before yesterday": -2, "yesterday": -1, "tomorrow": 1,
                     "the day after tomorrow": 2}[word]
            before = text[max(0, m.start() - 12):m.start()].split()
            deadline = bool(before) and _DEADLINE.match(before[-1]) is not None
            yield Relative(frozenset({today + dt.timedelta(days=shift)}), deadline, m.group(), m.start(),
                           word)
        elif m.group("unit"):
            n = _count(m.group("n"))
            if n is None or _BOUND.search(text[max(0, m.start() - 20):m.start()]):
                continue  # "more than 30 days ago", "about two weeks ago": a bound, no date
            unit = m.group("unit").lower()
            days = int(n) * (14 if unit == "fortnight" else 7 if unit.startswith("week") else 1)
            slack = 3 if days >= 7 else 1  # "two weeks ago" is approximate, "3 days ago" nearly exact
            dates = {today - dt.timedelta(days=days + d) for d in range(-slack, slack + 1)}
            yield Relative(frozenset(dates), False, m.group(), m.start(), "ago")
        elif m.group("day"):
            rel = m.group("rel").lower()
            yield Relative(frozenset(_weekday(today, m.group("day"), rel)), rel in ("by", "before", "until"),
                           m.group(), m.start(), m.group("day").lower())
        elif m.group("end"):
            end = _end_of(today, m.group("end").lower())
            yield Relative(frozenset({end}), True, m.group(), m.start(), "")
        else:
            rel = m.group("rel2").lower()
            yield Relative(frozenset(_month_day(today, int(m.group("dom")), rel)), rel != "on", m.group(),
                           m.start(), "")


def _end_of(today: dt.date, what: str) -> dt.date:
    """The last day of ``today``'s day, week (its Sunday) or month: the latest an "end of" means."""
    if what == "day":
        return today
    if what == "week":
        return today + dt.timedelta(days=6 - today.weekday())
    following = (today.replace(day=28) + dt.timedelta(days=4)).replace(day=1)
    return following - dt.timedelta(days=1)


_CALENDAR_DEADLINE = re.compile(
    r"\b(?:by|before|until|no later than)\s+(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?:day|week|month)\b"
    r"|\b(?:by|before|until)\s+(?:tomorrow|tonight|next week|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday|the \d{1,2}(?:st|nd|rd|th))\b", re.IGNORECASE)
_IF = re.compile(r"\b(?:if|unless|in case|once|when|whether|otherwise)\b", re.IGNORECASE)
_PROMISED = re.compile(r"\b(?:will|shall|should|going to|expect\w*|guarantee\w*|promise\w*|done|"
                       r"complete[sd]?|finished|ready|resolved|fixed|back|there|arrives?|lands?|reaches)\b"
                       r"|'ll\b", re.IGNORECASE)
"""Words that make a deadline a promise of something to come ("it will be done by Friday", "done
by tomorrow"), not a date asked of the customer ("please reply by Friday")."""
_CLAUSE_BREAK = re.compile(r"[,;:(]|\b(?:and|but|so|while|whereas)\b")


def _clause_before(sentence: str, at: int) -> str:
    return _CLAUSE_BREAK.split(sentence[:at])[-1]


def wrong_relative_dates(text: str, sentence_of: SentenceOf, found: Basis, known: Knowledge,
                         promises: bool = True) -> Iterator[Finding]:
    """Dates ``text`` says relative to the ticket's that are not the date the ticket gives for what
    they are the date of ("tomorrow" for a parcel due on the 18th), and, with ``promises`` (a text
    to the customer), deadlines for something to come that no policy window for the same thing
    backs ("done by Friday")."""
    today = found.today
    if today is None:
        return
    for rel in relative_dates(text, today):
        if rel.word and rel.word in found.named:
            continue  # the customer's own "yesterday", "Monday"
        sentence, at = sentence_of(rel.start)
        before = _clause_before(sentence, at)
        if _IF.search(before) or "?" in sentence:
            continue  # "if it hasn't arrived by Friday": a condition states no date
        if rel.deadline and not (promises and _PROMISED.search(before)):
            continue  # "please reply by Friday": asked of the customer; a note promises nobody
        if rel.deadline:
            finding = _unbacked_deadline(rel, sentence, text, today, known)
            if finding is not None:
                yield finding
            continue
        about = date_topics(before) or date_topics(sentence[at:at + len(rel.quote) + 40])
        given = {d for subject, dates in known.dates_by_topic if subject & about for d in dates}
        days = {dt.date.fromisoformat(d) for d in given if not d.startswith("--")}
        if not days or rel.dates & days:
            continue
        entity = Entity("date", min(rel.dates).isoformat(), rel.quote, rel.start)
        given_days = ", ".join(sorted(d.isoformat() for d in days))
        yield Finding(entity, "wrong", f"the text says '{rel.quote}' (from the ticket's date {today}); the "
                                       f"ticket gives {given_days} for it")


def _unbacked_deadline(rel: Relative, sentence: str, text: str, today: dt.date,
                       known: Knowledge) -> Finding | None:
    """A deadline ("by Friday") for something the same-topic policy windows do not allow that soon
    (from the ticket's date or a date it gives for the same thing), or that no policy gives a
    window for."""
    about = topics(sentence) | (topics(text) & CASES)
    same = [spans for subject, spans in known.windows_by_topic
            if subject & about and subject & CASES <= about]
    deadline = max(rel.dates)
    entity = Entity("duration", f"{(deadline - today).days} day", rel.quote, rel.start)
    if not same:
        return Finding(entity, "unsupported", f"the text promises '{rel.quote}'; no policy gives a "
                                              "deadline for it")
    began = date_topics(sentence)  # a window may run from a date the ticket gives ("paid on the 19th")
    starts = {today} | {dt.date.fromisoformat(d) for subject, dates in known.dates_by_topic if subject & began
                        for d in dates if not d.startswith("--")}
    latest = min(max(_end(start, span) for spans in same for span in spans) for start in starts)
    if deadline >= latest:
        return None
    return Finding(entity, "wrong", f"the text promises '{rel.quote}' ({deadline}); the policy's window "
                                    f"for it runs to {latest}")


def _end(start: dt.date, span: knowledge.Span) -> dt.date:
    _, high, dimension = span
    if dimension == "business_day":
        return knowledge.add_business_days(start, int(high))
    return start + dt.timedelta(minutes=int(high))


def unbacked_calendar_deadlines(text: str, sentence_of: SentenceOf, found: Basis,
                                known: Knowledge) -> Iterator[Finding]:
    """A deadline in calendar words ("done by tomorrow", "by end of week") for something no policy
    gives a window for and the case does not name, where the ticket has no date to resolve it
    against (with one, :func:`wrong_relative_dates` reads it)."""
    if found.today is not None:
        return
    for m in _CALENDAR_DEADLINE.finditer(text):
        words = m.group().lower()
        if any(w in words for w in found.named):
            continue
        sentence, at = sentence_of(m.start())
        before = _clause_before(sentence, at)
        if _IF.search(before) or "?" in sentence or not _PROMISED.search(before):
            continue
        about = topics(sentence) | (topics(text) & CASES)
        if any(subject & about and subject & CASES <= about for subject, _ in known.windows_by_topic):
            continue  # a window of its topic: 3.3 checks it (graders.knowledge.window_for_another_thing)
        yield Finding(Entity("duration", "1 day", m.group(), m.start()), "unsupported",
                      f"the text promises '{m.group()}'; no policy gives a deadline for it")


# --- the figures of a rule said as the policy's ---------------------------------------------------

_RULE = re.compile(r"\b(?:polic(?:y|ies)|rules?|terms|guidelines?|eligib\w*|refundable|qualif\w*"
                   r"|allow(?:s|ed)?|"
                   r"permit(?:s|ted)?|entitle\w*)\b", re.IGNORECASE)
_WINDOW_FRAME = re.compile(r"\b(?:within|up to|inside|in the first|wait(?:ing)?(?: for)?|for at least"
                           r"|at least|"
                           r"no later than|no more than|more than|longer than|after)\s+$", re.IGNORECASE)
_WINDOW_AFTER = re.compile(r"^(?:[\s-]*(?:day|week|month|hour)?[\s-]*window\b"
                           r"|\s+of\s+(?:the\s+|your\s+|an?\s+)?"
                           r"(?:order|purchase|renewal|request|delivery|payment|charge|signing)\b)",
                           re.IGNORECASE)
_CLAUSE = re.compile(r"[^,;:]+")
_MEASURED = re.compile(r"\s*(?:ago|old|late|overdue|earlier|since|past (?:the|your))\b", re.IGNORECASE)


def _near(value: str, windows: frozenset[knowledge.Span]) -> bool:
    """Whether a window equals a policy's or, said in weeks or months, approximates one ("a month"
    for 30 days, "two weeks" for 14)."""
    low, high, dimension = knowledge.span(value)
    rough = value.split(" ")[1] in ("week", "month")
    for k_low, k_high, k_dimension in windows:
        if k_dimension != dimension:
            continue
        if k_low <= low and high <= k_high:
            return True
        if rough and abs(high - k_high) <= k_high / 10:
            return True
    return False


def policy_figures(text: str, found: Basis) -> Iterator[Finding]:
    """Windows of a rule the text says as the policy's ("cancellations are refundable within 30 days
    of renewal", "under our policy you must wait 14 days") that no policy states: the days between
    two of the case's dates measure the case, they are no rule."""
    for clause in _CLAUSE.finditer(text):
        words = clause.group()
        if not _RULE.search(words):
            continue
        for entity in extract(words):
            if entity.kind != "duration":
                continue
            if not (_WINDOW_FRAME.search(words[:entity.start]) or _WINDOW_AFTER.match(words[entity.end:])):
                continue
            if _MEASURED.match(words[entity.end:]):
                continue  # "more than 30 days ago": how long ago something was, the case's measure
            if _near(entity.value, found.policy_windows):
                continue
            moved = Entity("duration", entity.value, entity.quote, clause.start() + entity.start)
            yield Finding(moved, "wrong" if found.policy_windows else "unsupported",
                          f"the text gives '{entity.quote}' as the policy's window; no policy states it")


# --- counts of what the account did ---------------------------------------------------------------

_USAGE = re.compile(
    rf"\byou(?:'ve|\s+have|\s+had|'d)?\s+(?:already\s+|now\s+|just\s+|only\s+)?(?:made|sent|hit|used|exceeded|"
    rf"reached|logged|attempted|tried|submitted|called|run|generated|uploaded|downloaded|exported|created|"
    rf"triggered)\s+(?:(?:about|around|over|roughly|nearly|almost|exactly|only|just|more than|up to)\s+)?"
    rf"(?P<n>(?:\d{{1,3}}(?:,\d{{3}})+|\d+)|{NUMBER})(?![\d,.]\d)(?!\s*(?:%|percent|days?|hours?|minutes?|weeks?|months?|"
    rf"years?|business|of\b|\w+\s+ago))"
    rf"|(?<![\w$.,-])(?P<m>(?:\d{{1,3}}(?:,\d{{3}})+|\d+))\s+(?:(?:failed|extra|more|additional|api|blocked|"
    rf"rejected|unsuccessful)\s+){{0,2}}"
    rf"(?:requests|calls|attempts|sign-?ins|log-?ins|login attempts|errors)\b"
    rf"(?=[^.!?\n]*\b(?:over|above|beyond|past)\s+(?:the|your)\s+(?:limit|quota)\b"
    rf"|[^.!?\n]*\b(?:from|on|by|in)\s+your\b)",
    re.IGNORECASE)


def unbacked_counts(text: str, found: Basis) -> Iterator[Finding]:
    """Counts of what the account did ("you've made 1,140 calls", "14 requests over the limit")
    that no number the case or a policy writes (or a sum or difference of two) backs."""
    for m in _USAGE.finditer(text):
        written = m.group("n") or m.group("m")
        n = number(written.replace(",", ""))
        if n is None or n in found.numbers:
            continue
        entity = Entity("count", str(n), m.group(), m.start())
        yield Finding(entity, "unsupported", f"the text says '{m.group()}'; nothing the episode knows "
                                             "gives that count")


# --- requirements and matches said as the policy's or the record's ------------------------------

REQUIREMENTS: dict[str, re.Pattern[str]] = {
    name: re.compile(rf"\b(?:{words})", re.IGNORECASE) for name, words in (
    ("a passport", r"passports?\b"),
    ("a date of birth", r"date of birth|DOB\b|birth ?date"),
    ("an identity document", r"(?:photo|government|national|state)[ -]ID\b|ID card|identity card|"
                             r"driv(?:er'?s?|ing) licen[cs]e"),
    ("a social security number", r"social security|SSN\b"),
    ("a utility bill", r"utility bill|bank statement"),
    ("a selfie", r"selfies?\b"),
    ("a security question", r"security questions?|maiden name"),
    ("unused items", r"unused\b|unopened\b"),
    ("the original packaging", r"original (?:packaging|box)"),
    ("a receipt", r"receipts?\b(?! of)|proof of purchase"),
    ("a restocking fee", r"restocking"),
    ("a manager's sign-off", r"manager'?s? (?:sign-?off|approval)|sign-?off from a manager"),
    ("a police report", r"police report"),
    ("a claim with the carrier", r"claim with the (?:carrier|courier)|carrier claim"),
)}
"""Conditions and proofs a text can say a request needs ("please send your passport number to
verify", "our policy only refunds unused items in original packaging"), by the words that name
them. A policy or the case that names one backs it."""
_REQUIRED = re.compile(
    r"\b(?:polic(?:y|ies)|only|must|need(?:s|ed)?\b|required?|requires|requirement|have to|has to|unless|"
    r"as long as|provided|before we can|in order to|verif\w+|confirm your identity|prove)", re.IGNORECASE)


def unbacked_requirements(text: str, said: SentenceOf, case: tuple[str, ...],
                          policies: tuple[str, ...]) -> Iterator[Finding]:
    """A condition or proof ``text`` says a request needs (:data:`REQUIREMENTS`, in a sentence that
    states a requirement) that neither a policy nor the case names: an invented rule of ours."""
    if not _REQUIRED.search(text):
        return
    for name, pattern in REQUIREMENTS.items():
        for m in pattern.finditer(text):
            sentence, at = said(m.start())
            if not _REQUIRED.search(sentence) or any(pattern.search(t) for t in (*policies, *case)):
                continue
            if _NOT_SO_PLAIN.search(_clause_before(sentence, at)) or _NOT_SO_PLAIN.search(
                    sentence[at:at + len(m.group()) + 12]):
                continue  # "no receipt needed", "you don't need a passport"
            yield Finding(Entity("requirement", name, m.group(), m.start()), "unsupported",
                          f"the text says a request needs {name}; no policy the episode knows asks for it")
            break


_MATCHED = re.compile(r"\b(?P<digits>\d{4})\b[^.\n]{0,25}?\b(?:match(?:es|ed)?|verified against|same as|"
                      r"agrees? with)\b[^.\n]{0,25}?\bon file\b", re.IGNORECASE)


def unmatched_digits(text: str, known: Knowledge) -> Iterator[Finding]:
    """Card digits said to match the card on file that are not its digits ("Last4 1937 matches card
    on file" where the card ends 0937): a check recorded as passed that did not."""
    if not known.card_on_file:
        return
    for m in _MATCHED.finditer(text):
        if _NOT_SO_PLAIN.search(m.group()) or m.group("digits") in known.card_on_file:
            continue
        yield Finding(Entity("card_digits", m.group("digits"), m.group(), m.start()), "wrong",
                      f"the text says {m.group('digits')} matches the card on file; the card's digits are "
                      f"{', '.join(sorted(known.card_on_file))}")


_VOUCHED = re.compile(
    r"\b(?:is|was|are|were)\s+(?:really\s+|indeed\s+)?(?:one\s+of\s+)?our\s+(?:own\s+|official\s+|real\s+|genuine\s+)?"
    r"(?:address(?:es)?|domains?|e-?mails?|senders?|support\s+address(?:es)?)\b"
    r"|\b(?:is|was)\s+(?:really\s+)?(?:legitimate|legit|genuine|official|safe|ours)\b"
    r"|\b(?:came|comes|come|was sent|were sent)\s+(?:really\s+)?from\s+us\b", re.IGNORECASE)


def vouched_addresses(text: str, said: SentenceOf, case: tuple[str, ...],
                      own: frozenset[str]) -> Iterator[Finding]:
    """An address or domain the customer reported that the text calls ours or genuine
    ("support@ticket-ledger-help.com is one of our official addresses"): nothing the episode knows
    makes it ours. ``own``: the customer's own addresses, which are theirs, not a sender's."""
    if not _VOUCHED.search(text):
        return
    reported = " ".join(case).lower()
    for entity in extract(text):
        if entity.kind not in ("email", "url") or entity.value in own or entity.value not in reported:
            continue
        sentence, at = said(entity.start)
        rest = sentence[at:at + len(entity.quote) + 60]
        if _VOUCHED.search(rest) and not _NOT_SO_PLAIN.search(rest[:len(entity.quote) + 40]):
            yield Finding(entity, "wrong", f"the text vouches for {entity.quote}, an address the customer "
                                           "reported; nothing the episode knows makes it ours")


_NOT_SO_PLAIN = re.compile(r"\b(?:not|never|no|without)\b|n't\b", re.IGNORECASE)


# --- a problem said to be settled -----------------------------------------------------------------

_ISSUE = r"(?:issue|problem|bug|incident|outage|vulnerability|flaw|fault|error|errors|breach|flooding)"
_SETTLED_WORDS = r"(?:closed|resolved|fixed|sorted|solved|patched|remediated)"
_SETTLED = re.compile(
    rf"\b(?:the|this|that|your)\s+(?:[\w-]+\s+){{0,2}}?{_ISSUE}\s+(?:is|are|has been|have been|'s)\s+"
    rf"(?:now\s+|already\s+|fully\s+|completely\s+|officially\s+)?{_SETTLED_WORDS}\b"
    rf"|\b(?:it|this|that|everything)\s+(?:is|'s|has been)\s+(?:now\s+|already\s+)?{_SETTLED_WORDS}"
    rf"\s+on\s+our\s+"
    rf"(?:side|end)\b"
    rf"|\b(?:we|engineering|the team|our team|our engineers)\s+(?:have\s+|has\s+|'ve\s+)?"
    rf"(?:already\s+|now\s+)?"
    rf"(?:closed|resolved|fixed|patched|solved)\s+(?:the|this|that|your)\s+(?:[\w-]+\s+)?{_ISSUE}\b",
    re.IGNORECASE)
_NOT_SO = re.compile(r"\b(?:not|n't|never|yet|will|'ll|once|until|when|if|as soon as|should|expect\w*|hope|"
                     r"to be|before|earlier|previous|prior|last|until|whether|unless)\b", re.IGNORECASE)


def settled(state: EpisodeState, text: str) -> str | None:
    """The clause of ``text`` that says a problem is settled on our side ("the flooding issue is
    closed", "it's resolved on our end"), said as done (no negation, condition, future or earlier
    ticket), where the state says otherwise: an incident is open, or nothing has been done on the
    account at all (an action taken, such as an email changed, may well have settled the
    customer's problem); None otherwise."""
    if state.account.incident_severity is None and state.account.taken:
        return None
    for m in _SETTLED.finditer(text):
        start = max(text.rfind(c, 0, m.start()) for c in ".!?\n") + 1
        end = min((i for c in ".!?\n" if (i := text.find(c, m.end())) >= 0), default=len(text))
        sentence = text[start:end]
        if _NOT_SO.search(sentence) or text[end:end + 1] == "?":
            continue
        return m.group()
    return None


# --- a text's sentences ---------------------------------------------------------------------------

_SENTENCE = re.compile(r"(?:[^\n.!?]|[.!?]+(?=[^\s.!?]))+[.!?]*")


class SentenceOf:
    """The sentence of a text holding a position, and the position within it."""

    def __init__(self, text: str):
        self.spans = [(m.start(), m.group()) for m in _SENTENCE.finditer(text)]

    def __call__(self, at: int) -> tuple[str, int]:
        for start, sentence in self.spans:
            if start <= at < start + len(sentence):
                return sentence, at - start
        return "", 0


def findings(state: EpisodeState, channel: str, text: str) -> tuple[Finding, ...]:
    """This module's findings on ``text`` (what the customer sees, or a note) written on
    ``channel``: relative dates, deadlines, cadences, a rule's windows, counts, requirements and
    card digits said to match that the episode does not back."""
    if state.task is None:
        return ()
    return _findings(channel, text, knowledge.sources(state))


@text_cache(max_chars=READING_CHARS, max_entries=4096)
def _findings(channel: str, text: str, read: knowledge.Sources) -> tuple[Finding, ...]:
    """:func:`findings` from the episode's :class:`graders.knowledge.Sources`, remembered by them:
    a reply draft is judged again on every step, and the sources change only when the customer
    writes, a policy is looked up or the account is acted on."""
    case, policies = knowledge.texts_of(read)
    facts = read.facts
    known = knowledge.knowledge_of(read)
    found = _basis(case, policies, facts)
    out = list(unbacked_rates(text, found, severity_rates(policies, known.incident_severity)))
    out += policy_figures(text, found)
    out += unbacked_counts(text, found)
    out += unmatched_digits(text, known)
    sentence_of = SentenceOf(text)
    if channel == "note":  # a note records what happened: no promise, no rule told the customer
        return (*out, *wrong_relative_dates(text, sentence_of, found, known, promises=False))
    out += unbacked_requirements(text, sentence_of, case, policies)
    own = frozenset(a for a, party in known.emails.items() if party in ("requester", "account"))
    out += vouched_addresses(text, sentence_of, case, own)
    out += wrong_relative_dates(text, sentence_of, found, known)
    out += unbacked_calendar_deadlines(text, sentence_of, found, known)
    return tuple(out)
