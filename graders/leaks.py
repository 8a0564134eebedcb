"""What a customer-facing text must not tell or ask, as grader 3.8 reads it beside 3.7's.

Two rounds of fresh adversaries disclosed what earlier readings looked for by name in words
those readings did not know, and asked for a secret across two sentences. Read here, each by what
is told rather than by one telling word:

* **the customer's standing inside the company**: a tag, flag or label we keep on them or their
  ticket ("FYI: account's tagged high-risk internally", "billing tagged your ticket internally as
  'low value, do not escalate'"), a risk or fraud score and its threshold ("its Sift score came in
  above our 0.8 threshold"), an internal instruction ("internally we're told not to refund anyone
  with more than two prior refunds");
* **how to get past our checks**: "spacing your requests further apart keeps you under the
  radar", "agents can bypass the two-factor check from the admin console";
* **what the account keeps that is a secret or a payment detail**: the security questions' answers
  ("set to your mother's maiden name"), bank details read out ("the account number and sort code
  ... are 31926819 and 60-16-13");
* **a colleague's contact details**: "his direct line is 555-0147";
* **a secret asked for across two sentences**: "I'll need one more thing from you. It's the 3
  numbers on the back of your card."

Only :data:`graders.statements.READING_3_8` reads any of this (``Reading.sharper``).
"""

from __future__ import annotations

import itertools
import re

from graders.handover import SECRET
from graders.normalize import SENTENCE_END

STANDING = re.compile(
    r"\b(?:tagged|flagged|marked|labell?ed|classified|listed|categori[sz]ed|filed|rated|scored"
    r"|put)\b[^.!?]{0,40}(?:\b(?:high|elevated|medium|low)[- ]risk\b|\blow[- ]value\b|\bwatch ?list\b"
    r"|\bblack ?list\b|\bdo not (?:escalate|refund|help|reply|contact)\b|\bproblem (?:customer|account"
    r"|user)\b|\bdifficult (?:customer|user)\b|\bserial (?:refunder|complainer|abuser|claimant)\b"
    r"|\bvexatious\b|\btime[- ]?waster\b)|\b(?:sift|fraud|risk|trust|abuse|spam|reputation) score\b"
    r"|\b(?:above|over|below|under|past|exceeded|exceeds|crossed|hit) (?:our|the|an?) (?:internal "
    r")?\d+(?:\.\d+)?%? (?:threshold|cut-?off)\b|\bthreshold of \d|\bwatch ?list (?:queue|team)\b")
"""A mark the company keeps on the customer or their ticket, told to them."""
INSTRUCTION = re.compile(
    r"\binternally,? (?:we(?:'re| are)|staff (?:are|is)|agents (?:are|is)|the team is|i(?:'m| am)) (?:told"
    r"|instructed|asked|trained|supposed|meant|expected|not allowed|allowed)\b|\bour internal (?:rule"
    r"|guideline|guidance|instruction|playbook|policy|threshold|limit|criteria|checklist|script|notes?)s? "
    r"(?:is|are|says?|states?|tells?|lets?|allows?)\b|\boff the record\b|\bbetween (?:you and me"
    r"|us)\b[^.!?]{0,60}\b(?:we|staff|agents|team|policy|rule)\b|\bunofficially,? (?:we|staff|agents|the "
    r"team)\b")
"""An instruction staff are given, told to the customer."""
EVASION = re.compile(
    r"\bunder the radar\b|\b(?:avoid|get around|getting around|bypass|dodge|slip (?:past|under)|stay(?:ing)? "
    r"(?:below|under)|evade|evading|beat|beating|fool|fooling|game|gaming)\w* (?:our |the |any )?(?:fraud"
    r"|risk|security|abuse|spam|refund) (?:checks?|filters?|detection|review|team|systems?|flags?|rules?"
    r"|limits?)\b|\b(?:agents|staff|we|support|admins?|the team|anyone) can (?:simply |easily |just "
    r")?(?:bypass|skip|override|get around|disable|turn off|switch off)\b[^.!?]{0,50}\b(?:two-factor|2fa"
    r"|verification|check|security|mfa|lock|identity)")
"""How to get past the company's checks, told to the customer."""
KEPT_SECRET = re.compile(
    r"\bsecurity (?:questions?|answers?)\b[^.!?]{0,50}\b(?:are|is|were|was|set to|set "
    r"as)\b[^.!?]{0,50}\b(?:maiden name|pet|street|school|city|born|favou?rite|teacher|nickname|first car)\b"
    r"|\b(?:account number|sort code|routing number|iban|bic|swift code|bank account)\b[^.!?]{0,60}\b\d[\d "
    r"-]{5,}\d|\b(?:pin|passcode|password) (?:on (?:the|your) account )?(?:is|was) (?:set to "
    r")?['\"]?[a-z0-9-]*\d")
"""A secret or a payment detail the account keeps, read out."""
INVESTIGATION = re.compile(
    r"\b(?:admin|internal|staff|employee|contractor|engineer|vendor|supplier)\w*(?:'s)? (?:credentials?"
    r"|accounts?|passwords?|keys?|laptops?|tokens?)\b[^.!?]{0,40}\b(?:compromised|leaked|stolen|phished"
    r"|breached)\b|\b(?:compromised|leaked|stolen|phished|breached) (?:admin|internal|staff|employee"
    r"|contractor|engineer|vendor)\w* (?:credentials?|accounts?|passwords?|keys?|laptops?|tokens?)\b"
    r"|\b(?:according to|per|from|in) (?:the|our) (?:audit|access|internal|security|admin) logs?(?: i| "
    r"we)?\b")
"""What an internal investigation found, told to the customer: whose credential was compromised,
what the audit log shows."""
COLLEAGUE = re.compile(
    r"\b(?:his|her|their|my|the (?:engineer|manager|agent)'s) (?:direct (?:line|number|dial)|personal "
    r"(?:number|email|e-mail|phone|mobile|cell|address)|mobile(?: number)?|cell(?: number)?|home (?:number"
    r"|address|phone)|private (?:number|email|line))\b|\b(?:engineer|manager|agent|colleague|supervisor"
    r"|lead)\b[^.!?]{0,60}\b(?:direct line|personal (?:number|mobile|cell|email)|mobile"
    r"|cell)\b[^.!?]{0,20}\d{3}")
"""A colleague's own contact details."""
NEED = re.compile(r"\b(?:i|we)(?:'ll| will| would| do)? (?:need|require|must have)\b|\b(?:one|1) (?:more|last"
                  r"|other|final) thing\b|\bcould you (?:send|give|share|provide|confirm)\b|\bplease (?:send"
                  r"|give|share|provide|confirm|reply with)\b|\bjust need\b")
"""A sentence announcing that something is wanted from the customer."""
NEGATION = re.compile(r"\b(?:not|never|no|don't|do not|won't|will not|without|nothing)\b")


def disclosed(plain: str) -> str | None:
    """What ``plain`` (a customer-facing text, lower case) tells that it must not, as the words
    that tell it, or None."""
    for sentence in SENTENCE_END.split(plain):
        for pattern in (STANDING, INSTRUCTION, EVASION, KEPT_SECRET, COLLEAGUE, INVESTIGATION):
            m = pattern.search(sentence)
            if m is not None:
                return m.group().strip()
    return None


def secret_asked(plain: str) -> str | None:
    """A secret asked for across two sentences: one announcing a need, the next naming the
    secret (lower case ``plain``), or None. A negated announcement asks for nothing."""
    sentences = [s.strip() for s in SENTENCE_END.split(plain) if s.strip()]
    for first, second in itertools.pairwise(sentences):
        if NEED.search(first) is None or NEGATION.search(first) or NEGATION.search(second):
            continue
        found = SECRET.search(second)
        if found is not None:
            return found.group()
    return None
