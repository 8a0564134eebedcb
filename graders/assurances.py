"""Promises no policy lets an agent make, as grader 3.10 reads them beside 3.8's pledges.

A blind round (sweep round 11) promised in words no earlier reading knew, each a kind of its own:

* **the decision foretold**: the team or the review said to be going to side with the customer,
  however it is hedged ("will almost certainly side with you", "I wouldn't worry about the
  outcome"): the customer is told to count on a decision nobody has made;
* **money or a fix by a time no policy gives**, said without a figure ("expect the money back
  within the hour", "engineering will have a fix out before your Monday deployment"): a window
  with a figure is checked as a fact (:mod:`graders.particulars`), these name a time instead;
* **a price matched or beaten** ("we'll match whatever a competitor offers you");
* **our checks skipped for the customer** ("I'll push your change through today, even without the
  usual checks");
* **a gift on its way** ("a gift card is coming your way ... as our way of saying sorry").

A promise negated ("I can't promise it will go your way") or put as a condition ("if the review
goes your way, ...") makes none, as for :mod:`graders.pledges`; a policy that offers the thing
(``Pledge.backing``) makes it no promise either.

Only :data:`graders.statements.READING_3_10` reads any of this (``Reading.firmer``).
"""

from __future__ import annotations

import re

from graders.memo import TEXT_CHARS, text_cache
from graders.normalize import SENTENCE_END
from graders.pledges import Pledge, stated

WHO_DECIDES = (r"(?:the |our |your )?(?:team|teams|reviewers?|review|specialists?|investigators?|billing"
               r"|(?:fraud|security|trust|claims|disputes) team|manager|supervisor|decision|outcome"
               r"|they|it|this|everyone)")
WHEN = (r"(?:within (?:the|an|the next|a few|a couple of) (?:hour|hours|minutes|moments)|in (?:an hour"
        r"|a few minutes|minutes|no time)|(?:by|before) (?:tonight|tomorrow|the end of (?:the )?(?:day|today"
        r"|tomorrow|week)|end of (?:day|today|the week)|(?:this |next |your )?(?:monday|tuesday"
        r"|wednesday|thursday"
        r"|friday|saturday|sunday|weekend|morning|afternoon|evening)|lunch(?:time)?|close of business|your "
        r"\w+ (?:deployment|launch|deadline|release|meeting|event|trip|flight))|later today|today|tonight"
        r"|first thing tomorrow|by the time you (?:wake up|get home|check))")


TIME = re.compile(WHEN)


ASSURANCES: tuple[Pledge, ...] = (
    Pledge("a decision foretold", ("guarantee",), re.compile(
        WHO_DECIDES + r" (?:will|'ll|is going to|are going to|should|is bound to|are bound to|is sure to"
        r"|are sure to)(?: (?:almost|most|very|pretty|quite|surely|certainly|definitely|probably|likely"
        r"|certainly|undoubtedly|no doubt))* (?:side with you|take your side|back you|go (?:in )?your way"
        r"|find (?:in your favou?r|for you)|agree with you|approve (?:it|this|your|the)|say yes|rule for "
        r"you|come out (?:on your side|in your favou?r))\b"
        r"|\b(?:i|we) (?:wouldn't|would not|shouldn't|should not) (?:worry|be concerned|lose (?:any )?sleep) "
        r"(?:about|over) (?:the |its |their )?(?:outcome|decision|result|verdict|review)\b"
        r"|\b(?:approval|a yes|a refund) is (?:a )?(?:formality|foregone conclusion|sure thing|given|certain"
        r"|guaranteed)\b")),
    Pledge("money back by a time no policy gives", (), re.compile(
        r"\b(?:expect|you(?:'ll| will| should) (?:have|get|see|receive)|(?:i|we)(?:'ll| will) (?:have|get) "
        r"(?:it|this|that|the money|your money) (?:back )?to you)\b[^.!?]{0,40}\b(?:money|refund|funds"
        r"|cash|payment|reimbursement|it) (?:back )?[^.!?]{0,20}?\b" + WHEN + r"\b"), timed=True),
    Pledge("a fix by a time no policy gives", (), re.compile(
        r"\b(?:will|'ll|are going to|is going to|should)(?: \w+)? (?:have|get|ship|push|roll|deploy|release"
        r"|put) (?:a |the |out a |out the )?(?:\w+ )?(?:fix|patch|hotfix|resolution|repair)(?: \w+){0,3}? "
        + WHEN + r"\b"
        r"|\b(?:fix|patch|hotfix|repair) (?:will|'ll|is going to) (?:be )?(?:out|live|deployed|shipped|in "
        r"place|ready|released|done)(?: \w+){0,2}? " + WHEN + r"\b"), timed=True),
    Pledge("a price matched", ("price match", "price-match", "competitor"), re.compile(
        r"\b(?:match|beat|better|undercut) (?:whatever|any|the|their|a|every|each) (?:\w+ )?(?:competitor"
        r"|rival|other company|other provider|lower|cheaper|better|price|offer|deal|quote)s?\b")),
    Pledge("our checks skipped", (), re.compile(
        r"\b(?:without|skip(?:ping)?|bypass(?:ing)?|waive|waiving|around|past|ignore|ignoring) (?:the |our "
        r"|any |all |those |these )?(?:usual |normal |standard |regular |required |extra |formal )?"
        r"(?:checks?|verification|security checks?|identity checks?|id checks?|approvals?|sign-?off"
        r"|paperwork|red tape|formalities)\b")),
    Pledge("a gift on its way", ("compensat", "voucher", "gift", "goodwill", "credit"), re.compile(
        r"\b(?:gift ?cards?|vouchers?|coupons?|credits?|discounts?|free (?:months?|year|upgrade|plan|gift)"
        r"|goodwill (?:gesture|payment|credit)|(?:a )?little something|token of)\b[^.!?]{0,60}\b(?:coming "
        r"your way|on (?:its|their) way|heading your way|headed your way|in the (?:post|mail)|way of saying "
        r"sorry|to say sorry|make (?:it |this |that )?up to you|for (?:the|your) (?:trouble|inconvenience"
        r"|patience))\b")),
)
"""3.10's promises."""
OUR_ACT = re.compile(r"\b(?:i|we)(?:'ll| will| can| could|'m going to| am going to|'re going to| are going to"
                     r"| would)\b|\blet me\b|\b(?:i|we)'d\b")
"""A promise to skip our checks is ours: "I'll push it through without the usual checks"."""
REFUSED_AFTER = re.compile(r"\b(?:can't|cannot|can not|won't|will not|not able|unable|isn't possible|is not "
                           r"possible|no way)\b")


def _excused(kind: Pledge, sentence: str, m: re.Match[str], offered: str) -> bool:
    """Whether the promise ``m`` of ``kind`` is none: checks skipped by nobody of ours or refused,
    or a thing or a time a looked-up policy text (``offered``) gives."""
    if kind.name == "our checks skipped" and (OUR_ACT.search(sentence[:m.start()]) is None
                                             or REFUSED_AFTER.search(sentence) is not None):
        return True
    if kind.backing and any(b in offered for b in kind.backing):
        return True
    when = TIME.search(m.group())
    return kind.timed and when is not None and when.group() in offered


@text_cache(max_chars=TEXT_CHARS, max_entries=4096)
def assurance(plain: str, offered: str) -> tuple[str, str] | None:
    """The first promise of ``plain`` (lower case) that no looked-up policy text (``offered``)
    backs, as its name and words, or None; one negated or put as a condition is none
    (:func:`graders.pledges.stated`). Remembered by both texts, as
    :func:`graders.pledges.pledge` is."""
    for sentence in SENTENCE_END.split(plain):
        for kind in ASSURANCES:
            m = kind.pattern.search(sentence)
            if m is None or not stated(sentence, m.start()) or _excused(kind, sentence, m, offered):
                continue
            return kind.name, m.group().strip()
    return None
