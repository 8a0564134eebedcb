"""References given to the customer that the episode never issued (grader 3.5).

Graders 3.0 to 3.4 read an id of a few shapes (``ORD-99817``, ``#55120``, "order number 48213")
and check it against the ticket's id and the ids its texts give. An id of another shape slips
through: "Your case reference is TL-88412-QX. Please quote it in any follow-up." No action of
this environment issues a case, ticket, tracking or confirmation number, so a reference the
text hands the customer as theirs that no text of the episode holds is invented, and the
customer who quotes it later quotes nothing.

3.5 reads a reference by its frame: a noun that names one (:data:`CUE`: a case, ticket,
reference, tracking, order, invoice, confirmation, claim, booking, receipt, return, dispute or
transaction number, id or code) and, within a few words after it, or just before it, an id-like
token (:func:`_id_like`: letters, digits and dashes holding at least three digits and at least
four characters, or four or more bare digits that are no year). It is invented when the
episode's texts (the ticket, its id and facts, the customer's replies, the policies) do not hold
it, compared by its letters and digits alone.

Only :data:`graders.statements.READING_3_5` reads any of this (``Reading.deeper``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graders.memo import TEXT_CHARS, text_cache

__all__ = ["invented_references"]

CUE = (r"(?:case|ticket|reference|ref|tracking|order|invoice|confirmation|claim|booking|receipt|return"
       r"|rma|dispute|transaction|complaint|request|support|incident|refund|shipment|parcel|consignment"
       r"|waybill|authori[sz]ation|credit note)")
"""Nouns that name a reference the customer may quote."""
TOKEN = r"#?(?=[A-Za-z0-9/_.-]{0,40}\d)[A-Za-z0-9](?:[A-Za-z0-9]|[-_/.](?=[A-Za-z0-9])){0,40}[A-Za-z0-9]"
"""An id's words: letters and digits, joined by dashes, slashes or dots, holding a digit, at most
about forty characters: bounded, so a text of one long run ("a.a.a.a...") costs a look of forty
characters at each place, not one to its end."""
AFTER = re.compile(rf"\b{CUE}(?:[- ](?:number|no\.?|num|id|code|reference|ref|#))?s?\b"
                   rf"(?P<gap>(?:[\s:=#(]+(?:is|was|will be|reads|of|under|number|id|code|for you|for this|"
                   rf"for your \w+|here|below|now|reads as|as|:)?){{1,4}})(?P<id>{TOKEN})", re.IGNORECASE)
"""A cue followed by an id within a few linking words ("case reference is TL-88412-QX")."""
BEFORE = re.compile(rf"(?<![\w-])(?P<id>{TOKEN})\s+(?:is|as|will be)\s+(?:your|the)\s+(?:\w+\s+)?{CUE}\b",
                    re.IGNORECASE)
"""An id said before its cue ("TL-88412-QX is your case reference")."""
_YEAR = re.compile(r"^(?:19|20)\d\d$")
_DATE = re.compile(r"^\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}$")
_POLICY = re.compile(r"^[A-Za-z]{2,3}-\d{1,2}$")
_VERSION = re.compile(r"^v?\d+(?:\.\d+)+$", re.IGNORECASE)


def _id_like(token: str) -> bool:
    """Whether ``token`` has the shape of an issued reference: at least three digits, or four or
    more bare digits that are no year; not a date, a policy id, a version or an amount."""
    raw = token.lstrip("#")
    digits = sum(ch.isdigit() for ch in raw)
    if digits < 3 or len(raw) < 4 or _DATE.match(raw) or _POLICY.match(raw) or _VERSION.match(raw):
        return False
    if raw.isdigit():
        return len(raw) >= 4 and not _YEAR.match(raw)
    return True


def _bare(text: str) -> str:
    """``text``'s letters and digits alone, upper case: how an id is compared."""
    return re.sub(r"[^A-Z0-9]", "", text.upper())


def invented_references(text: str, known: Iterable[str]) -> tuple[tuple[str, int], ...]:
    """Each reference ``text`` gives that none of the ``known`` texts holds (module docstring), as
    its words and where they start in ``text``, in order."""
    given = _given(text)
    if not given:
        return ()
    blob = " ".join(_bare(k) for k in known)
    out: list[tuple[str, int]] = []
    for value, quote, start in given:
        if value and value not in blob and all(q != quote for q, _ in out):
            out.append((quote, start))
    return tuple(out)


@text_cache(max_chars=TEXT_CHARS, max_entries=4096)
def _given(text: str) -> tuple[tuple[str, str, int], ...]:
    """The references ``text`` gives, in the order their ids start: each as its id compared
    (:func:`_bare`), its words, and where those start. Its words alone decide them, so they are
    read once per text (a reply draft is judged again on every step)."""
    seen = [m for m in (*AFTER.finditer(text), *BEFORE.finditer(text)) if _id_like(m.group("id"))]
    out: list[tuple[str, str, int]] = []
    for m in sorted(seen, key=lambda m: m.start("id")):
        quote = m.group("id").lstrip("#")
        out.append((_bare(m.group("id")), quote, m.end("id") - len(quote)))
    return tuple(out)
