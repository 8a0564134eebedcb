"""The checkable facts a customer-facing text states: amounts, dates, windows, ids, addresses.

A reply can be polite, on topic and still wrong: "$45.00" where the customer paid $49.00, "within
3 business days" where the policy says 5-7, "order SO-48213" where the order is SO-48231. Those are
facts, and facts can be checked by value rather than by wording, once each is read into one normal
form whatever way it was written ("forty-nine dollars", "USD 49.00" and "$49" are all ``4900``
cents). :func:`extract` does that reading; :mod:`graders.knowledge` says which values an episode
knows and checks them.

Pure: no I/O, no clock. A date written without a year ("Nov 27") takes the ``year`` the caller gives
(the ticket's year: :attr:`graders.knowledge.Knowledge.year`); without one its value is ISO 8601's
partial form ``--11-27``, which is compared by month and day.

What is deliberately not read as a fact: times of day ("9am", "02:14 UTC"), version numbers ("app
4.2.1"), percentages, counts ("3 refunds", "two charges": no currency, so no money), a year alone,
list and step numbers, seconds ("retry after 1s"), and a cadence ("an update every 15 minutes"): a
cadence is a promise of how often, judged with commitments, not a window stated as a fact.

Standard library only. ``price-parser`` reads more price formats (foreign decimal commas, "49,-")
and ``phonenumbers`` validates numbers per country, but a support reply's amounts are dollars
written a handful of ways and a phone number only has to be recognised, not dialled: both would be
a dependency for cases the tables in ``tests/graders/test_entities.py`` do not need.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Literal

from graders.memo import READING_CHARS, text_cache

Kind = Literal["money", "date", "duration", "order_id", "email", "card_digits", "card_number",
               "phone", "url", "policy_id", "password", "ip", "carrier", "refund_count", "rate", "count",
               "requirement"]
KINDS: tuple[Kind, ...] = ("money", "date", "duration", "order_id", "email", "card_digits",
                           "card_number", "phone", "url", "policy_id", "password")
"""The kinds :func:`extract` reads; :func:`extract_more` reads the others (grader 3.3)."""


@dataclass(frozen=True, slots=True)
class Entity:
    """One fact of a text: its kind, its normal form (see the module docstring and :func:`extract`),
    the words as written and where they start in the text."""

    kind: Kind
    value: str
    quote: str
    start: int

    @property
    def end(self) -> int:
        return self.start + len(self.quote)


# --- numbers, in digits or in words ---------------------------------------------------------------

_SMALL = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
          "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_WORD_VALUE = {w: i for i, w in enumerate(_SMALL)} | {w: 20 + 10 * i for i, w in enumerate(_TENS)}
_UNDER_100 = (rf"(?:(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_SMALL[1:10])}))?"
              rf"|{'|'.join(sorted(_SMALL, key=len, reverse=True))})")
_WORDS = (rf"(?:(?:{_UNDER_100}|a)\s+hundred(?:\s+(?:and\s+)?{_UNDER_100})?"
          rf"|(?:{_UNDER_100}|a)\s+thousand(?:\s+(?:and\s+)?{_UNDER_100})?|{_UNDER_100})")
_DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_NUMBER = rf"(?:{_DIGITS}|\b{_WORDS}\b)"
NUMBER = _NUMBER
"""A number in digits or in words, as a pattern (:func:`number` reads it)."""


def number(text: str) -> Decimal | None:
    """``text`` (digits with thousands commas, or English number words) as a number."""
    text = text.strip().lower()
    if re.fullmatch(_DIGITS, text):
        try:
            return Decimal(text.replace(",", ""))
        except InvalidOperation:  # pragma: no cover - the pattern admits only valid numbers
            return None
    total, part = 0, 0
    for word in re.split(r"[\s-]+", text):
        if word == "and":
            continue
        if word == "a":
            part = 1
        elif word in _WORD_VALUE:
            part += _WORD_VALUE[word]
        elif word == "hundred":
            part = max(part, 1) * 100
        elif word == "thousand":
            total += max(part, 1) * 1000
            part = 0
        else:
            return None
    return Decimal(total + part)


def _plain(value: Decimal) -> str:
    """A number without a needless ``.0`` ("7", "1.5")."""
    return str(int(value)) if value == value.to_integral_value() else f"{value.normalize():f}"


# --- the patterns, one per kind and form ----------------------------------------------------------

_EMAIL = re.compile(r"(?<![\w.%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_TLDS = "com|org|net|io|co|dev|app|help|example|info|biz|us|uk|de|eu|ca|me"
_URL = re.compile(
    rf"(?:\bhttps?://[^\s<>\"')\]]+|\bwww\.[^\s<>\"')\]]+"
    rf"|(?<![\w@.-])(?:[A-Za-z0-9-]+\.)+(?:{_TLDS})\b(?!\.\w|@)(?:/[^\s<>\"')\]]*)?)",
    re.IGNORECASE)
_PASSWORD = re.compile(
    r"\b(?P<cue>(?:(?:temporary|temp|new|one-time|initial|default)\s+)?password"
    r"(?:\s+(?:is|will\s+be|has\s+been\s+(?:set|reset|changed)\s+to|(?:re)?set\s+to|now)|\s*[:=])"
    r"|(?:set|reset|changed)\s+(?:your|the|their)\s+password\s+to)"
    r"\s*[\"'\u201c\u2018]?(?P<secret>[^\s\"'\u201d\u2019]+?)[\"'\u201d\u2019]?(?=[\s,;)]|[.!?](?:\s|$)|$)",
    re.IGNORECASE)
_CARD_NUMBER = re.compile(
    r"(?<![\d+-])(?:\d{4}([ -]?)\d{4}\1\d{4}\1\d{1,7}|\d{4}[ -]\d{6}[ -]\d{4,5}|\d{13,19})(?![\d-])")
_TRACKING_WORDS = frozenset(("tracking", "shipment", "parcel", "waybill", "consignment"))
_NUMBER_CUE = re.compile(rf"\b(?:card|visa|mastercard|amex|credit|debit|{'|'.join(_TRACKING_WORDS)})\b",
                         re.IGNORECASE)
"""What a long run of digits is said to be, by the nearest word naming a card or a parcel."""
_PHONE = re.compile(
    r"(?<![\w+])(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){1,4}(?![\w-])"
    r"|(?<![\w+])\+?\d{10,15}(?![\w-])",
    re.IGNORECASE)
_PHONE_CUE = re.compile(r"\b(?:call|phone|tel|telephone|text|mobile|hotline)\b[^.\n]{0,30}$",
                        re.IGNORECASE)
_CARD_DIGITS = re.compile(
    r"\b(?:ending|ends)(?:\s+(?:in|with))?\s*:?\s*(?P<a>\d{4})\b(?![ -]?\d)"
    r"|\blast\s+(?:four|4)(?:\s+digits)?(?:\s+of\s+(?:your|my|the|their|his|her)\s+(?:card|visa|"
    r"mastercard|amex)(?:\s+on\s+file)?)?(?:\s+(?:are|is|were|was))?\s*:?\s*(?P<b>\d{4})\b(?![ -]?\d)"
    r"|(?:[*\u2022xX]{2,}[ -]?)++(?P<c>\d{4})\b(?![ -]?\d)"
    r"|\bcard(?:\s+number)?(?:\s+on\s+file)?(?:\s+(?:is|:))?\s+(?P<d>\d{4})\b(?![ -]?\d)",
    re.IGNORECASE)
_MONTHS = ("january february march april may june july august september october november "
           "december").split()
_MONTH_WORD = (r"(?:january|february|march|april|may|june|july|august|september|october|november"
               r"|december|(?:jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?)")
_ORDINAL = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?P<year>\d{4}))?"
_DATE_ISO = re.compile(r"(?<![\w-])(?P<year>\d{4})-(?P<month>\d{1,2})-(?P<day>\d{1,2})(?![\w-])")
_DATE_SLASH = re.compile(r"(?<![\w/])(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<year>\d{4})(?![\w/])")
_DATE_MONTH_FIRST = re.compile(
    rf"\b(?P<month>{_MONTH_WORD})\s+(?:the\s+)?{_ORDINAL}\b(?![:.]?\d|\s*(?:%|percent))"
    rf"(?!\s+(?:days?|hours?|users?|of\s+\d))(?:,?\s+(?P<year>\d{{4}})\b)?",
    re.IGNORECASE)
_DATE_DAY_FIRST = re.compile(rf"\b{_ORDINAL}(?:\s+of)?\s+(?P<month>{_MONTH_WORD})(?![\w]){_YEAR}",
                             re.IGNORECASE)
_RANGE_SEP = r"\s*(?:-|\u2013|\u2014|to|or)\s*"
_UNIT = (r"(?:business|working)[\s-]+days?|days?|hours?|hrs?|minutes?|mins?|weeks?|months?")
_DURATION = re.compile(
    rf"(?<![\w.$\u20ac\u00a3/-])(?P<low>{_NUMBER})(?:{_RANGE_SEP}(?P<high>{_NUMBER}))?[\s-]*(?P<unit>{_UNIT})\b"
    rf"|(?<![\w.$/-])(?P<hlow>\d+)(?:-(?P<hhigh>\d+))?\s?h\b"
    rf"|\b(?P<prep>within|in|for|over|under|than|about|around|after|before|least|past|take|takes)\s+"
    rf"(?P<article>an?|one|a\s+single)\s+(?P<aunit>{_UNIT})\b"
    rf"|\bhalf\s+an\s+hour\b"
    rf"|\b(?:every|each|per)\s+(?P<eunit>(?:business\s+)?day|hour|minute|week|month)\b",
    re.IGNORECASE)
_CADENCE = re.compile(r"\b(?:every|each|per|once|twice|times)\s+(?:\w+\s+)?$", re.IGNORECASE)
_MONEY = re.compile(
    rf"(?<![\w])(?P<cur>US\$|\$|\u20ac|\u00a3|(?:USD|EUR|GBP)(?=\s?\d))\s?(?P<amount>{_DIGITS})"
    rf"(?![\d%])(?!\s*(?:%|percent))"
    rf"|(?<![\w.$])(?P<amount2>{_NUMBER})\s?(?P<cur2>USD|EUR|GBP|dollars?|euros?|bucks)\b",
    re.IGNORECASE)
_POLICY_ID = re.compile(r"(?<![\w-])(?P<id>[A-Z]{2,3}-\d{1,2})(?![\w-]|\.\d)")
_NOT_POLICIES = frozenset({"UTF-8", "UTF-16", "SHA-1", "SHA-2", "MD-5", "MP-3", "MP-4", "CO-2",
                           "SEV-0", "SEV-1", "SEV-2", "SEV-3", "SEV-4", "TLS-1", "HTTP-2"})
"""Names of that shape that are not policy ids: encodings, hashes, incident severities."""
_PREFIXED_ID = re.compile(r"(?<![\w@/.-])(?P<id>[A-Za-z]{1,4}-\d{3,}|[A-Z]{1,4}\d{4,})(?![\w-])")
_REFERENCE_ID = re.compile(
    r"\b(?:order|invoice|ticket|case|reference|ref|booking|receipt)(?:\s+(?:number|no\.?|id))?"
    r"(?:\s+is)?\s*(?::\s*)?#?\s?(?P<id>\d{3,})\b(?![.,]\d)"
    r"|(?<![\w&])#(?P<hash>\d{3,})\b",
    re.IGNORECASE)

_NOT_SECRETS = frozenset((
    "the a an your my their same unchanged changed reset expired valid invalid correct wrong "
    "incorrect required needed not being sent safe secure strong weak never only still now updated "
    "case-sensitive there here that this it yours one what something different new old blank empty "
    "set stored saved protected encrypted hidden private too short long").split())


# --- the builders: a match to (value, quote span), or None to skip it --------------------------

Found = tuple[str, int, int]  # value, start, end
Builder = Callable[[re.Match[str], str, "int | None", bool], "Found | None"]


def _email(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    return m.group(0).lower(), m.start(), m.end()


def url_value(raw: str) -> str:
    """A URL's normal form: lower-case host (no scheme, no ``www.``) and its path, without a
    trailing slash, query or fragment."""
    raw = re.sub(r"^https?://", "", raw.strip(), flags=re.IGNORECASE)
    host, _, path = raw.partition("/")
    host = host.lower().removeprefix("www.")
    path = re.split(r"[?#]", path, maxsplit=1)[0].rstrip("/")
    return f"{host}/{path}" if path else host


def _url(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    quote = m.group(0).rstrip(".,;:!?")
    return url_value(quote), m.start(), m.start() + len(quote)


def _looks_secret(secret: str, cue: str) -> bool:
    """Whether ``secret`` after ``cue`` is a password rather than a word of a sentence ("your
    password is unchanged"): it has a digit, a symbol or an inner capital; or a cue that can only
    introduce a password ("temporary password is", "set your password to") precedes a word that is
    no ordinary one."""
    if secret.lower() in _NOT_SECRETS or len(secret) < 4 or re.fullmatch(r"[*\u2022xX.]+", secret):
        return False  # a word of the sentence, or a masked password ("********")
    if re.fullmatch(r"[a-z]+(?:ed|ing|ly)", secret):
        return False  # "your temporary password is emailed separately"
    if re.search(r"\d|[^\w]|_", secret) or re.search(r"[a-z][A-Z]", secret):
        return True
    strong = re.search(r"temporary|temp\b|one-time|initial|default|set|reset|changed", cue, re.I)
    return strong is not None and len(secret) >= 6


def _password(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    secret, cue = m.group("secret"), m.group("cue")
    if not _looks_secret(secret, cue):
        return None
    return secret, m.start(), m.end()


def _digits_only(quote: str) -> str:
    return re.sub(r"\D", "", quote)


def luhn(digits: str) -> bool:
    """Whether ``digits`` pass the Luhn check every payment card number passes."""
    total = 0
    for i, char in enumerate(reversed(digits)):
        n = int(char) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def _card_number(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    """Grouped like a card (4-4-4-4, Amex's 4-6-5): a card number. Run together: one when it passes
    the Luhn check or a card is named just before, and not when a tracking number is (a parcel's
    tracking number is as long as a card's)."""
    quote = m.group(0)
    digits = _digits_only(quote)
    if not 13 <= len(digits) <= 19:
        return None
    if quote.isdigit():
        cues = _NUMBER_CUE.findall(text[max(0, m.start() - 40):m.start()])
        nearest = cues[-1].lower() if cues else ""
        if nearest in _TRACKING_WORDS or not (luhn(digits) or nearest):
            return None
    return digits, m.start(), m.end()


def _phone(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    quote = m.group(0)
    digits = _digits_only(quote)
    plus = "+" in quote or "(" in quote
    formatted = re.search(r"\d[\s.-]\d", quote) is not None
    cued = _PHONE_CUE.search(text[max(0, m.start() - 40):m.start()]) is not None
    if not (10 <= len(digits) <= 15 or (plus and 8 <= len(digits) <= 15)):
        return None
    if not (plus or cued or (formatted and re.fullmatch(r"\d{3}[\s.-]\d{3}[\s.-]\d{4}", quote))):
        return None
    return digits, m.start(), m.end()


def _card_digits(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    digits = next(g for g in (m.group("a"), m.group("b"), m.group("c"), m.group("d")) if g)
    return digits, m.start(), m.end()


def _iso(year: int | None, month: int, day: int) -> str | None:
    try:
        if year is None:
            dt.date(2000, month, day)  # a leap year: Feb 29 is a date when the year is unknown
            return f"--{month:02d}-{day:02d}"
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return None


def _month(word: str) -> int:
    word = word.lower().rstrip(".")
    return next(i for i, name in enumerate(_MONTHS, 1) if name.startswith(word[:3]))


def _date_iso(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    value = _iso(int(m.group("year")), int(m.group("month")), int(m.group("day")))
    return (value, m.start(), m.end()) if value else None


def _date_slash(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    a, b = int(m.group("a")), int(m.group("b"))
    month, day = (b, a) if a > 12 else (a, b)  # US order unless the first part cannot be a month
    value = _iso(int(m.group("year")), month, day)
    return (value, m.start(), m.end()) if value else None


def _date_named(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    word = m.group("month")
    lowered = word.rstrip(".") in ("may", "mar", "jun", "jul", "dec")  # as written: lower case
    if lowered:
        return None  # "you may 2", "mar": words before they are months
    written = m.group("year")
    value = _iso(int(written) if written else year, _month(word), int(m.group("day")))
    return (value, m.start(), m.end()) if value else None


def _unit(word: str) -> str:
    word = word.lower()
    if word.startswith(("business", "working")):
        return "business_day"
    if word.startswith("d"):
        return "day"
    if word.startswith("h"):
        return "hour"
    if word.startswith("mi"):
        return "minute"
    if word.startswith("w"):
        return "week"
    return "month"


def _duration(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    if not cadences and _CADENCE.search(text[max(0, m.start() - 20):m.start()]):
        return None  # "every 15 minutes", "once a day": a cadence, not a window
    start, end = m.start(), m.end()
    if m.group("low"):
        low, high = number(m.group("low")), number(m.group("high")) if m.group("high") else None
        unit = _unit(m.group("unit"))
        if m.group("high") and high is None:
            return None
    elif m.group("hlow"):
        low = number(m.group("hlow"))
        high = number(m.group("hhigh")) if m.group("hhigh") else None
        unit = "hour"
    elif m.group("article"):
        low, high, unit = Decimal(1), None, _unit(m.group("aunit"))
        if unit == "minute" and not m.group("article").lower().startswith("one"):
            return None  # "back in a minute": a manner of speaking, not a window
        start = m.start("article")
    elif m.group("eunit"):
        if not cadences:
            return None
        low, high, unit = Decimal(1), None, _unit(m.group("eunit"))
        start = m.start("eunit")
    else:
        low, high, unit = Decimal(30), None, "minute"
    if low is None:
        return None
    span = f"{_plain(low)}-{_plain(high)}" if high is not None and high != low else _plain(low)
    return f"{span} {unit}", start, end


def _money(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    written = m.group("amount") or m.group("amount2")
    amount = number(written)
    if amount is None:
        return None
    return str(int((amount * 100).to_integral_value())), m.start(), m.end()


def _policy_id(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    found = m.group("id")
    return (found, m.start(), m.end()) if found not in _NOT_POLICIES else None


def id_value(raw: str) -> str:
    """An order, invoice or ticket id's normal form: upper case, no spaces, hyphens kept."""
    return re.sub(r"\s+", "", raw).upper()


def _prefixed_id(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    return id_value(m.group("id")), m.start(), m.end()


def _reference_id(m: re.Match[str], text: str, year: int | None, cadences: bool) -> Found | None:
    return id_value(m.group("id") or m.group("hash")), m.start(), m.end()


_READERS: tuple[tuple[Kind, re.Pattern[str], Builder], ...] = (
    # in priority order: an earlier reader's span is not read again by a later one
    ("email", _EMAIL, _email),
    ("url", _URL, _url),
    ("password", _PASSWORD, _password),
    ("card_number", _CARD_NUMBER, _card_number),
    ("date", _DATE_ISO, _date_iso),
    ("date", _DATE_SLASH, _date_slash),
    ("phone", _PHONE, _phone),
    ("card_digits", _CARD_DIGITS, _card_digits),
    ("date", _DATE_MONTH_FIRST, _date_named),
    ("date", _DATE_DAY_FIRST, _date_named),
    ("money", _MONEY, _money),
    ("duration", _DURATION, _duration),
    ("policy_id", _POLICY_ID, _policy_id),
    ("order_id", _PREFIXED_ID, _prefixed_id),
    ("order_id", _REFERENCE_ID, _reference_id),
)


@text_cache(max_chars=READING_CHARS, max_entries=4096)
def _matches(text: str) -> tuple[tuple[int, re.Match[str]], ...]:
    """What each reader of :data:`_READERS` matches in ``text``, reader by reader, in order. The
    matches depend on the words alone, not on the year or the cadences an entity is built with,
    and a text is read with several of those: it is scanned once."""
    return tuple((k, m) for k, (_, pattern, _) in enumerate(_READERS) for m in pattern.finditer(text))


def _found(text: str, year: int | None, cadences: bool) -> Iterator[Entity]:
    taken: list[tuple[int, int]] = []
    for k, match in _matches(text):
        kind, _, build = _READERS[k]
        built = build(match, text, year, cadences)
        if built is None:
            continue
        value, start, end = built
        if any(start < e and s < end for s, e in taken):
            continue
        taken.append((start, end))
        yield Entity(kind, value, text[start:end], start)


@text_cache(max_chars=READING_CHARS, max_entries=4096)
def extract(text: str, year: int | None = None, *, cadences: bool = False) -> tuple[Entity, ...]:
    """The facts ``text`` states, in the order written (see the module docstring for the normal
    forms). ``text`` is what the customer sees (``graders.normalize.visible``); ``year`` completes
    a date written without one. ``cadences``: read "every 15 minutes" as a window too (for a text
    that backs facts: a policy's cadence backs "the next update in 15 minutes"). Kept per text:
    the same policy texts and ticket facts are read for every text an episode's judge reads."""
    return tuple(sorted(_found(text, year, cadences), key=lambda e: e.start))


# --- more facts, read by grader 3.3 only ---------------------------------------------------------

_IP = re.compile(r"(?<![\w.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\w]|\.\d)")
_CARRIER = re.compile(r"\b(?:DHL|UPS|FedEx|Fedex|FEDEX|USPS|Royal Mail|DPD|GLS|Hermes|Evri|Parcelforce|TNT"
                      r"|OnTrac|Canada Post|La Poste|Australia Post|PostNL)\b")
_LAST4 = re.compile(r"\blast-?4\s*(?:digits)?\s*[:=]?\s*(?P<digits>\d{4})\b(?![ -]?\d)", re.IGNORECASE)
_COUNT_WORDS = {"no": 0, "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_HISTORY = r"(?:prior|previous|recent|earlier|past|other)"
_REFUND_COUNT = re.compile(
    rf"(?<![\w$.,-])(?<!than )(?<!least )(?<!over )(?<!under )(?P<n>\d+|no|zero|one|two|three|four|five|six)"
    rf"\s+(?P<hist>{_HISTORY}\s+)?refunds?\b(?!\s*(?:or|\+|and up))(?P<tail>[^.;\n|]{{0,30}})"
    rf"|\b(?:{_HISTORY}\s+)?refunds?\s*(?:\(|in\s+|over\s+)?(?:the\s+)?(?:last|past)\s+\d+\s*(?:days|d)\)?"
    rf"\s*[:=]\s*(?P<m>\d+)\b"
    rf"|\b{_HISTORY}\s+refunds?\s*[:=]\s*(?P<k>\d+)\b",
    re.IGNORECASE)
_HISTORY_TAIL = re.compile(r"\b(?:last|past) \d+|\b90d\b|\bso far\b|\bon record\b|\bthis year\b",
                           re.IGNORECASE)


def _refund_count(m: re.Match[str]) -> str | None:
    """A count of the account's refunds: labelled ("Refunds last 90d: 3"), with a word of history
    ("2 prior refunds", "no refunds in the last 90 days"), or a plural count alone ("0 refunds", "3
    refunds"); "three or more refunds" is a policy's threshold and "one refund" is what is to come."""
    if m.group("m") or m.group("k"):
        return m.group("m") or m.group("k")
    word = m.group("n").lower()
    count = _COUNT_WORDS[word] if word in _COUNT_WORDS else int(word)
    historic = m.group("hist") or _HISTORY_TAIL.search(m.group("tail") or "")
    plural = m.group(0).lower().split()[1].startswith("refunds")
    if not historic and (word == "no" or count == 1 or not plural):
        return None
    return str(count)


_RELATIVE = re.compile(r"\b(?:the day after tomorrow|tomorrow|overnight|next week|(?:a|one) couple of days"
                       r"|a day or two)\b", re.IGNORECASE)
_RELATIVE_SPAN = {"the day after tomorrow": "2 day", "tomorrow": "1 day", "overnight": "1 day",
                  "next week": "1 week", "a couple of days": "2 day", "one couple of days": "2 day",
                  "a day or two": "1-2 day"}
"""Windows said in words of the calendar ("it will arrive tomorrow", "done next week"), as
:func:`extract`'s normal form of a duration."""


@text_cache(max_chars=READING_CHARS, max_entries=4096)
def extract_more(text: str) -> tuple[Entity, ...]:
    """Facts grader 3.3 reads beside :func:`extract`'s: IP addresses, carriers named, card digits
    written "last4 1234", counts of the account's refunds (:func:`_refund_count`), and windows said
    in calendar words ("tomorrow", "next week": :data:`_RELATIVE_SPAN`); values as written (a
    carrier's name, the digits, the count) or a duration's normal form."""
    out = [Entity("ip", m.group(), m.group(), m.start()) for m in _IP.finditer(text)]
    out += [Entity("carrier", m.group().lower(), m.group(), m.start()) for m in _CARRIER.finditer(text)]
    out += [Entity("card_digits", m.group("digits"), m.group(), m.start()) for m in _LAST4.finditer(text)]
    out += [Entity("duration", _RELATIVE_SPAN[m.group().lower()], m.group(), m.start())
            for m in _RELATIVE.finditer(text)]
    for m in _REFUND_COUNT.finditer(text):
        count = _refund_count(m)
        if count is not None:
            out.append(Entity("refund_count", count, m.group().strip(), m.start()))
    return tuple(sorted(out, key=lambda e: e.start))
