"""An internal assessment of the customer told to them, read by its frame (grader 3.5).

Grader 3.3 reads a fraud or risk assessment through the verbs that usually carry one ("our
system flagged your account", "your order was marked as high-risk"). An assessment is said in
many more verbs ("our risk team considers the pattern suspicious", "our risk model gave this
request a score of 87") and as a state ("your account is under a fraud investigation"). 3.5
reads the frame instead: in one clause, an assessor of ours (a system, a model, a risk or fraud
team, our checks), an assessment (suspicious, risky, fraud, abuse, a score), and the customer or
their account, request or order as what is assessed; said as a finding, not asked, negated,
conditional or planned. The assessor's own name ("our fraud team will review it") is no
assessment: the assessment must be a word of its own.

Only :data:`graders.statements.READING_3_5` reads it (``Reading.deeper``).
"""

from __future__ import annotations

import re

from graders import meaning
from graders.memo import READING_CHARS, text_cache

__all__ = ["assessment"]

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


@text_cache(max_chars=READING_CHARS, max_entries=2048)
def assessment(text: str) -> str | None:
    """The clause of ``text`` that tells the customer an internal assessment of them (see the
    module docstring), or None."""
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
