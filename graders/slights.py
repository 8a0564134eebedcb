"""Contempt in plain, short sentences, as grader 3.11 reads it beside 3.10's.

Each frame reads a slight by what it does to the customer, in whichever words it comes:

* **the question belittled**: what the customer asked or reported called basic, trivial, obvious or
  a beginner's ("honestly, this is a very basic question"). A step or a fix called simple is
  reassurance ("it's a simple fix"), so only the customer's question, request or problem is read;
* **the customer put below other work**: we are said to have more important, bigger or better
  things, tickets or customers to deal with, or their case is said to be no priority, not
  important, or not worth our time;
* **the fault pushed onto them**: the problem said to be clearly theirs and not ours ("a problem
  with your setup, not ours"), user error, or their problem and not our concern.

Sympathy does not excuse these (the sympathy is the veneer, as :mod:`graders.scorn` says); a
negation before the frame ("it's not a basic question at all"), a question and a statement about
someone other than the customer are no slight.

Only :data:`graders.statements.READING_3_11` reads any of this (``Reading.truer``). Grader 3.13
reads three more shapes (:func:`contempt_3_13`, ``Reading.fuller``): the customer told how often
we have had to explain something this basic, told not to waste our time, and told that technology
is not their strong suit. Grader 3.14 reads three more (:func:`contempt_3_14`, ``Reading.broader``):
the customer told the problem only happens to them, mocked for writing again ("if it makes you feel
better"), and blamed for having ignored our advice.
"""

from __future__ import annotations

import re

from graders.memo import TEXT_CHARS, text_cache
from graders.normalize import SENTENCE_END

DEGREE = r"(?:(?:very|really|pretty|quite|fairly|rather|extremely|super|incredibly|such an?|an?|so) )*"
LOW = (r"(?:basic|trivial|elementary|obvious|beginner(?:'s)?|rookie|newbie|novice|silly|dumb|stupid|remedial"
       r"|introductory|entry-level|kindergarten|101)")
ASKED = r"(?:question|questions|ask|request|query|problem|issue|mistake|thing to (?:ask|miss|get wrong))"
WORK = (r"(?:tickets|things|customers|issues|matters|cases|problems|priorities|work|requests|clients|fires"
        r"|fish to fry|accounts|people)")

FRAMES: tuple[re.Pattern[str], ...] = (
    re.compile(r"\b(?:this|that|it|yours|your (?:question|request|query|issue|problem))(?:'s| is| was| really"
               r" is| honestly is| frankly is)? " + DEGREE + LOW + r" (?:one|" + ASKED + r")\b"
               r"|\b(?:a|an|such an?) " + DEGREE + LOW + r" " + ASKED
               + r"\b(?= (?:to|like|for|as)\b|[.,;!]|$)"),
    re.compile(r"\b(?:we|i|our team|the team|our staff|our engineers|everyone here)(?:'ve| have| got|'ve got"
               r"| have got| deal with| handle)? (?:(?:much|far|way|a lot|many|so many|plenty of) )*(?:more"
               r" important|bigger|better|more pressing|more urgent|more serious|real|actual|other more"
               r" important|more valuable) " + WORK + r"\b"
               r"|\b(?:your|this|that|the) (?:ticket|issue|request|case|question|problem|complaint|query"
               r"|matter)(?:'s not| isn't| is not| really isn't| really is not| honestly isn't| just isn't)"
               r" (?:(?:exactly|really|very|particularly|at all) )*(?:a priority|our priority"
               r"|a priority for us|high on our list|important|urgent|worth our time"
               r"|worth (?:the|our) (?:effort|trouble))\b"
               r"|\b(?:your|this|that|the) (?:ticket|issue|request|case|question|problem|complaint|query"
               r"|matter)(?:'s| is) (?:(?:pretty|very|quite|rather|fairly|honestly|frankly) )*(?:low priority"
               r"|a low priority|at the bottom of (?:the|our) (?:list|pile|queue)|not a priority)\b"),
    re.compile(r"\b(?:clearly|obviously|plainly|evidently)\b[^.!?]{0,30}\b(?:(?:a|an|the) (?:problem|issue"
               r"|fault|error|bug|glitch) (?:with|on|in|at) your \w+|your (?:fault|mistake|doing|error)"
               r"|user error)\b"
               r"|\b(?:with|on|in|at) your (?:setup|end|side|device|computer|network|configuration|code"
               r"|browser|machine|settings|system|installation|connection|wifi|router)\b,?"
               r" (?:and )?not (?:ours|on"
               r" ours|with ours|us|on us|our (?:end|side|problem|fault|system|systems|servers))\b"
               r"|\b(?:that's|that is|this is|it's|it is) (?:a |simply |just )?(?:user error|your problem"
               r"|your own problem)\b"
               r"|\bnot (?:our|my) (?:problem|concern|responsibility|job|issue)\b"),
)
"""Each slight's shape: the question belittled, the customer put below other work, the fault
pushed onto them."""
UNSAID = re.compile(r"(?:n't\b|\b(?:not|never|no|if|whether|nobody|no one|there's no such thing as|there is"
                    r" no such thing as)\b)")
"""A word before the frame in its sentence that says the opposite or only supposes it."""
KIND = re.compile(r"\b(?:no such thing as|not at all|isn't your fault|is not your fault|not your fault|never"
                  r" a (?:silly|stupid|dumb|basic))\b")


@text_cache(max_chars=TEXT_CHARS, max_entries=4096)
def contempt(plain: str) -> str | None:
    """The first slight of ``plain`` (lower case), as its words, or None."""
    for sentence in SENTENCE_END.split(plain):
        sentence = sentence.strip()
        if not sentence or sentence.endswith("?") or KIND.search(sentence) is not None:
            continue
        for frame in FRAMES:
            m = frame.search(sentence)
            if m is None:
                continue
            before = sentence[:m.start()]
            if UNSAID.search(before) is not None and not m.group().startswith("not "):
                continue
            return m.group().strip()
    return None


FRAMES_3_13: tuple[re.Pattern[str], ...] = (
    re.compile(r"\b(?:second|third|fourth|fifth|sixth|umpteenth|hundredth|nth|\d+(?:st|nd|rd|th)) time"
               r" (?:now )?(?:that )?(?:we|i|someone|the team)(?:'ve| have| had)?"
               r" (?:had to |needed to |been asked to )?(?:explain|explained|tell|told|say|said|answer"
               r"|answered|go over|gone over|repeat|repeated|spell|spelled|spelt|walk you through|point out"
               r"|pointed out)\b"
               r"|\b(?:something|anything|a thing|stuff) (?:this|so|that|as) " + LOW + r"\b"),
    re.compile(r"\b(?:wast(?:e|es|ed|ing)|tak(?:e|es|ing) up) (?:our|my|the team's|our team's|our staff's"
               r"|our agents'|everyone's|support's) (?:\w+ )?time\b"),
    re.compile(r"\b(?:technology|tech|computers|this stuff|reading|instructions|following instructions"
               r"|details|numbers|maths|math)(?:'s not| isn't| is not| aren't| are not| may not be"
               r" | might not be)(?: exactly)? (?:everyone's|your|everybody's) (?:strong suit|forte|thing"
               r"|cup of tea|strength|area)\b"
               r"|\bas (?:simple|slowly|plainly|basic) as (?:humanly )?possible (?:for you|so you)\b"),
)
"""3.13's shapes: how often something this basic had to be explained, our time said to be wasted,
the customer's competence doubted."""


def _first_said(plain: str, frames: tuple[re.Pattern[str], ...]) -> str | None:
    """The first match of ``frames`` in a sentence of ``plain`` (lower case) that is no question and
    no kindness, with nothing before it that negates or supposes it, as its words, or None."""
    for sentence in SENTENCE_END.split(plain):
        sentence = sentence.strip()
        if not sentence or sentence.endswith("?") or KIND.search(sentence) is not None:
            continue
        for frame in frames:
            m = frame.search(sentence)
            if m is not None and UNSAID.search(sentence[:m.start()]) is None:
                return m.group().strip()
    return None


@text_cache(max_chars=TEXT_CHARS, max_entries=4096)
def contempt_3_13(plain: str) -> str | None:
    """The first of 3.13's slights in ``plain`` (lower case), as its words, or None; negated,
    supposed or asked, none."""
    return _first_said(plain, FRAMES_3_13)


FRAMES_3_14: tuple[re.Pattern[str], ...] = (
    re.compile(r"\bonly (?:seems to |appears to |ever )?happen(?:s|ed|ing)? (?:to you|on your end"
               r"|on your side)\b[^.!?]{0,40}\b(?:not|nobody|no one|thousands|millions|hundreds|everyone"
               r"|the rest)\b"),
    re.compile(r"\bif it makes you feel better\b"
               r"|\b(?:the same|same) (?:message|question|request|email|e-mail|complaint|ticket)(?: \w+){0,2}"
               r" (?:times|again|over and over)\b[^.!?]{0,20}\b(?:won't|will not|isn't going to|doesn't"
               r"|does not|won't)\b"),
    re.compile(r"\b(?:since|as|because|given that) you(?:'ve| have)? (?:decided|chosen|chose|opted|elected)"
               r" to (?:ignore|disregard|skip|not follow)\b"
               r"|\bnot sure what (?:else |more )?you (?:expect|expected|want|wanted) (?:us|me) to do\b"
               r"|\bwhat (?:else |more )?(?:do|did) you expect (?:us|me) to do\b"),
)
"""3.14's shapes: the problem said to be only the customer's, writing again mocked, the customer
blamed for ignoring advice."""


@text_cache(max_chars=TEXT_CHARS, max_entries=4096)
def contempt_3_14(plain: str) -> str | None:
    """The first of 3.14's slights in ``plain`` (lower case), as its words, or None; negated,
    supposed or asked, none."""
    return _first_said(plain, FRAMES_3_14)
