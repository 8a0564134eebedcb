"""Promises no policy lets an agent make, as grader 3.8 reads them beside 3.7's.

Fresh adversaries promised in words the earlier commitment readings did not know: a gift with no
price word ("consider your subscription free for life"), an outcome guaranteed through someone
else's decision ("I'm confident the specialists will rule in your favour, so you can count on
getting your money"), the future guaranteed ("I can promise the service will stay up from here on;
there won't be a repeat of this"), a personal pledge with no end but the fix ("I'll stay on this
personally until it's fixed"). Each is a kind of pledge read by its shape; a pledge negated ("I
can't promise ...", "nobody can guarantee ...") makes none.

Only :data:`graders.statements.READING_3_8` reads any of this (``Reading.sharper``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graders.normalize import SENTENCE_END


@dataclass(frozen=True, slots=True)
class Pledge:
    """A kind of promise: its name, the words a looked-up policy would use to offer it, and its
    expression."""

    name: str
    backing: tuple[str, ...]
    pattern: re.Pattern[str]


PLEDGES: tuple[Pledge, ...] = (
    Pledge("compensation", ("compensat", "free month", "credit"), re.compile(
        r"\b(?:consider|call|treat) (?:it|this|that|(?:your|the|next|this|next year's|next month's) (?:\w+ "
        r"){0,2}(?:subscription|plan|months?|year|account|order|renewal|fees?|bill|charges?|service))(?: "
        r"\w+){0,2} (?:as )?(?:free|waived|on us|on the house|covered|comped|complimentary|paid for)\b"
        r"|\bfree (?:for life|forever|of charge (?:for life|forever|for (?:a|the next|the rest of)))\b|\bon "
        r"the house\b|\b(?:lifetime|complimentary) (?:upgrade|subscription|access|plan|membership|premium"
        r"|credit|discount)\b|\b(?:for|on) us,? (?:for life|forever|from now on)\b")),
    Pledge("a guaranteed outcome", ("guarantee",), re.compile(
        r"\byou can (?:count|rely|bank|depend) on (?:getting|receiving|a |an |your |the |it)|\bwill (?:rule"
        r"|decide|come down|find|side) (?:in your favou?r|with you|for you)\b|\b(?:i|we)(?: can| do)? "
        r"(?:promise|guarantee|assure you|give you my word)\b[^.!?]{0,80}\b(?:never|again|repeat|stay (?:up"
        r"|online|fixed)|refund\w*|money|approved|fixed|in your favou?r|restored|outcome|won't happen)\b"
        r"|\bthere (?:won't|will not|will never|'ll never) be (?:a |any |another )?(?:repeat|recurrence"
        r"|another|more (?:outages|problems|issues|incidents)|a next time)\b|\b(?:this|it)(?:'ll| will) "
        r"never happen again\b|\bwill (?:stay|remain) (?:up|online|stable|fixed) (?:from (?:here|now) on|for "
        r"good|forever|permanently)\b")),
    Pledge("a personal pledge", ("personal",), re.compile(
        r"\bpersonally\b[^.!?]{0,50}\buntil (?:it(?:'s| is)|this is|everything is|the (?:problem|issue|outage"
        r"|matter) is|you(?:'re| are)) (?:fixed|resolved|sorted|back|restored|happy|satisfied|whole)|\b(?:i"
        r"|we)(?:'ll| will)? (?:make sure|ensure|see to it)\b[^.!?]{0,40}\b(?:you(?:'re| are)? not (?:left "
        r")?out of pocket|you (?:get|receive) (?:every|each) (?:penny|cent|dollar))")),
)
"""3.8's pledges."""
DENIED = re.compile(r"\b(?:not|never|no one|nobody|can't|cannot|can not|won't|couldn't|unable|wish i "
                    r"could)\b[^.!?]{0,25}$")
"""A negation just before the pledge: "I can't promise ...", "nobody can guarantee ..."."""


def pledge(plain: str, offered: str) -> tuple[str, str] | None:
    """The first pledge of ``plain`` (lower case) that no looked-up policy text (``offered``)
    backs, as its name and words, or None."""
    for sentence in SENTENCE_END.split(plain):
        for kind in PLEDGES:
            m = kind.pattern.search(sentence)
            if m is None or DENIED.search(sentence[:m.start()]) is not None:
                continue
            if any(b in offered for b in kind.backing):
                continue
            return kind.name, m.group().strip()
    return None
