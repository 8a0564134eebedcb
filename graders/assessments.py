"""An internal assessment of the customer, told to them (grader 3.5).

What the support team's tools and colleagues concluded about a customer (a risk or fraud score, a
flag put on the account by a trust-and-safety or fraud team, a rating, a suspicion) is internal:
told to the customer it teaches a fraudster where the threshold is and tells an honest customer
they are suspected. Graders up to 3.4 found it through patterns that name the assessor and the
assessment side by side ("our system flagged your account as high risk"); a word in between
("our risk model scored this account 0.93", "your account is currently flagged by our trust and
safety team") or another verb ("our risk team considers the pattern suspicious") hid it. 3.5 reads
it as a frame in one clause, whatever stands between its parts, in either of two shapes:

* by the assessor (:func:`_by_assessor`): one of our assessors (a system, a model, a risk or fraud
  team, our checks), an assessment that is a word of its own (suspicious, risky, fraud, a score),
  and the customer or their account, request or order as what is assessed; or the customer's
  account said to be under a fraud or abuse process. The assessor's own name ("our fraud team
  will review it") is no assessment;
* by the act of assessing (:func:`_by_act`): scored, rated, flagged, marked, listed ... said of
  the customer or what is theirs, about risk, fraud, abuse or trust and safety, or with the score
  as a number.

Neither reads an event the case tells of (a flagged or suspicious sign-in, payment or attempt: the
customer's own information, which 3.4 reads), the customer's own act ("you flagged this to us"), a
question, a condition, a negation, a plan, or a statement of how the service works in general
("we may flag accounts that ..."). Only :data:`graders.statements.READING_3_5` reads this.
"""

from __future__ import annotations

import re

from graders import meaning
from graders.memo import READING_CHARS, text_cache

__all__ = ["assessment"]


@text_cache(max_chars=READING_CHARS, max_entries=2048)
def assessment(text: str) -> str | None:
    """The clause of ``text`` that tells the customer an internal assessment of them (see the
    module docstring), or None."""
    return _by_assessor(text) or _by_act(text)


ASSESSORS = frozenset({"system", "systems", "model", "models", "engine", "algorithm", "algorithms", "tool",
                       "tools", "checks", "screening", "monitoring", "filters", "software", "scoring",
                       "analysts", "reviewers"})
"""Who or what assesses for us, by itself."""
QUALIFIED = frozenset({"team", "teams", "department", "desk", "unit"})
QUALIFIERS = frozenset({"risk", "fraud", "trust", "abuse", "security", "safety", "anti-fraud", "compliance"})
"""An assessing team is named by what it assesses ("our risk team", "the fraud desk")."""
ASSESSMENTS = re.compile(r"\b(?:suspicious|suspect|suspected|risky|high[- ]risk|elevated risk|fraud\w*"
                         r"|abus\w*|anomal\w*|irregular|red flags?|score of \d+|scored? \d+|\d+ out of \d+"
                         r"|a risk|at risk|not genuine|illegitimate|bad faith|gaming|exploit\w*)\b")
TARGETS = re.compile(r"\b(?:you|your (?:\w+ )?(?:account|request|order|claim|card|profile|history|activity"
                     r"|refunds?|purchases?|behaviou?r|pattern|case|returns?)|this (?:request|order|claim"
                     r"|account|case|refund))\b")
UNDER = re.compile(r"\b(?:your (?:\w+ )?(?:account|request|order|claim|case|refund)|this (?:request|order"
                   r"|claim|account|case|refund)|you) (?:is|are|has been|have been|was) (?:now |currently )?"
                   r"(?:under|subject to|part of|caught (?:by|in)) (?:a |an |our )?(?:\w+ )?"
                   r"(?:fraud|abuse|risk|anti-fraud)\b")
"""The customer's account or request said to be under a fraud or abuse process."""
INTRUSION = re.compile(r"\b(?:suspicious|suspect|suspected|risky|high[- ]risk|anomal\w*|irregular|fraud\w*)"
                       r" (?:\w+ )?(?:sign-ins?|log-?ins?|logins?|devices?|attempts?|access|emails?|messages?"
                       r"|links?|ip|ips|addresses|calls?|activity from|sessions?|transactions? from)\b")
"""An assessment of an intruder's act ("a suspicious sign-in from Lagos"): said to protect the
customer, no assessment of them."""
HEDGES = frozenset({"not", "never", "no", "nothing", "if", "whether", "unless", "will", "would", "could",
                    "might", "may", "can", "should", "to", "every", "all", "any", "some", "sometimes"})
"""What makes the frame no finding told: a negation, a condition, a future or a plan, a general
statement ("we check every request")."""


def _assessor_at(words: tuple[str, ...]) -> int | None:
    """The index of the assessor in ``words``: a noun of :data:`ASSESSORS`, or a team named by a
    qualifier just before it."""
    for k, w in enumerate(words):
        if w in ASSESSORS or (w in QUALIFIED and k > 0 and words[k - 1] in QUALIFIERS):
            return k
    return None


def _by_assessor(text: str) -> str | None:
    """The clause of ``text`` in which one of our assessors concludes something about the customer
    ("our risk team considers the pattern suspicious"), or one that puts them under a fraud process
    ("your account is under a fraud investigation"), or None."""
    for clause in meaning.read(text).clauses:
        if clause.question or clause.conditional_sentence:
            continue
        words, plain = clause.words, clause.text
        if UNDER.search(plain) is not None and not HEDGES & set(words):
            return plain
        at = _assessor_at(words)
        if at is None or HEDGES & set(words):
            continue
        rest = " ".join(w for k, w in enumerate(words) if not (k == at - 1 and w in QUALIFIERS))
        if INTRUSION.search(rest) is not None:
            continue
        if ASSESSMENTS.search(rest) is not None and TARGETS.search(plain) is not None:
            return plain
    return None


ASSESSED = frozenset({"scored", "score", "scores", "scoring", "rated", "rating", "flagged", "flag",
                      "flags", "marked", "tagged", "labelled", "labeled", "classified", "classed",
                      "listed", "watchlisted", "blacklisted", "blocklisted", "profiled"})
"""The act of assessing someone, as a verb or its noun ("a flag on your account")."""
RISK = frozenset({"risk", "risky", "fraud", "fraudulent", "suspicious", "suspected", "suspect",
                  "abuse", "abusive", "trust", "watchlist", "blacklist", "blocklist", "chargeback",
                  "bad-faith", "high-risk"})
"""What the assessment is about: fraud, risk, abuse, a trust-and-safety team."""
THEIRS = frozenset({"you", "your", "account", "profile", "customer", "order", "orders", "purchases",
                    "claims", "refunds", "history", "activity", "behaviour", "behavior", "card"})
"""The customer or what is theirs, which an assessment is said of."""
EVENTS = frozenset({"sign-in", "signin", "login", "log-in", "attempt", "attempts", "payment",
                    "transaction", "charge", "session", "device", "ip"})
"""Events the case tells the customer of, which a flag said of is no assessment of the customer."""
OWN_ACT = frozenset({"you", "you have", "you had"})
GENERAL = frozenset({"may", "might", "can", "could", "sometimes", "occasionally", "any", "accounts",
                     "customers", "automatically", "routinely", "if", "when", "whenever"})
"""Words that make the clause a statement of how the service works, not of this customer."""
SCORE = re.compile(r"(?<![\w.])(?:0?\.\d+|\d{1,3}(?:\.\d+)?\s*(?:/\s*100|%|out of (?:10|100)|points?))"
                   r"(?![\w.])")
"""A score told as a number: "0.93", "87/100", "87 out of 100", "92%"."""


def _by_act(text: str) -> str | None:
    """The clause of ``text`` that says the customer or what is theirs was scored, flagged or
    listed, about risk or fraud or with the score as a number, or None."""
    for clause in meaning.read(text).clauses:
        if clause.question or clause.conditional_sentence:
            continue
        words = clause.words
        joined = " ".join(words)
        at = next((i for i, w in enumerate(words) if w in ASSESSED), None)
        if at is None:
            continue
        if " ".join(words[max(0, at - 2):at]) in OWN_ACT or words[at - 1:at] == ("you",):
            continue
        if GENERAL & set(words):
            continue
        rest = set(words[at + 1:at + 5])
        if rest & EVENTS and not (rest & {"account", "profile", "you"}):
            continue
        about = bool(RISK & set(words)) or "trust and safety" in joined or SCORE.search(joined) is not None
        if about and THEIRS & set(words):
            return joined
    return None
