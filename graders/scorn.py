"""Contempt said in civil words, as grader 3.8 reads it beside 3.7's.

Two rounds of fresh adversaries wrote contempt that every earlier frame missed, and often wrapped
it in a show of sympathy ("I totally get it, technology can feel overwhelming for some folks!"),
so the frames here are not excused by a sympathetic word: the sympathy is the veneer. Each frame
is a kind of act, read by its shape:

* **the customer's character named as the fault**: their "entitlement", their "whining", the
  "tone" forgiven or noted, conduct that "won't get you anywhere";
* **a comparison that makes them less than an adult**: "I've seen toddlers follow instructions
  better", "customers of your sort", "people like you";
* **their honesty doubted**: "we can't simply take every customer at their word", "it's rarely
  quite what the customer claims", "these problems only ever seem to come up when money back is
  on the table", "rather than anything deliberate";
* **talking down**: "Again: ...", "one more time, slowly", "nice and slow", "not to state the
  obvious", "where it's always been", "technology can be challenging for some people", the terms
  "you agreed to" said to be "in plain language";
* **dismissal**: "I don't recall anyone asking", "nobody's forcing you to stay", "a you problem",
  "not exactly our top concern", "yours is one of many tickets";
* **silencing and threats**: "stop wasting both our time", "it would save us both time if you
  checked your inbox properly before writing in", "future messages were shorter", "refrain from
  further correspondence", "any more messages like this and I'll have your account suspended";
* **blame**: "easier to blame us than to check your spam folder", "took some responsibility for
  your own part in this".

Only :data:`graders.statements.READING_3_8` reads any of this (``Reading.sharper``).
"""

from __future__ import annotations

import re

from graders.implied import Frame, first_frame, make_frame

UNEXCUSED = re.compile(r"(?!)")
"""A guard that never holds: sympathy does not excuse these frames."""
CONDUCT = (r"(?:threat\w*|whin\w+|moan\w*|shout\w*|yell\w*|rude\w*|entitle\w*|tone|attitude|caps|badger\w*"
           r"|pester\w*|nagging|tantrums?|outbursts?|theatrics|histrionics)")
"""The customer's conduct, as a contemptuous sentence names it."""
MESSAGES = r"(?:messages?|emails?|tickets?|outbursts?|complaints?|comments?|replies|calls?|rants?)"


def _frame(implies: str, pattern: str) -> Frame:
    return make_frame(implies, pattern, UNEXCUSED)


FRAMES: tuple[Frame, ...] = (
    # the customer's character named as the fault
    _frame("mockery", r"\byour (?:sense of )?entitlement\b|\b(?:whining|whinging|moaning|griping|bleating"
                      r"|throwing a tantrum|hissy fits?|theatrics|histrionics)\b"),
    _frame("mockery", r"\b(?:forgive|overlook|excuse|ignore|let slide|set aside|look past|pretend (?:i|we) "
                      r"(?:didn't|did not) see) (?:the|your|this|that) (?:tone|attitude|language|rudeness"
                      r"|outburst|rant|caps|all-caps|shouting|drama|behaviour|behavior)\b"),
    _frame("mockery", r"\byour (?:tone|attitude|behaviou?r|rudeness|language|outburst|entitlement)(?: here)? "
                      r"(?:is|has been|was) (?:noted|unacceptable|not appreciated|uncalled for|unhelpful)\b"),
    _frame("mockery", rf"\b{CONDUCT}\b[^.!?;]{{0,50}}\b(?:won't|will not|isn't going to|is not going to"
                      rf"|doesn't|does not|not going to|isn't|is not|won't be) (?:get you anywhere|get you "
                      rf"(?:far|very far)|change (?:the outcome|anything|our (?:answer|decision|position)|my "
                      rf"(?:answer|decision|mind))|the leverage|(?:much |any )?leverage|(?:going to )?(?:help"
                      rf"|work) (?:you|here|on (?:me|us)))"),
    # a comparison that makes the customer less than an adult, or one of a bad sort
    _frame("stupidity", r"\b(?:toddlers?|children|a child|kids|a \w+[- ]year[- ]old|my (?:\w+ )?(?:grand(?:ma"
                        r"|mother|pa|father|kids?)|nan|gran|nephew|niece|son|daughter|kids?|little (?:brother"
                        r"|sister)|mum|mom|dad|cat|dog))\b[^.!?]{0,50}\b(?:better|faster|quicker|(?:could|can"
                        r"|would) (?:manage|do|figure|handle|work)|figure (?:it|this) out)\b"),
    _frame("stupidity", r"\beven (?:a child|a toddler|a kid|my (?:grand(?:ma|mother)|nan|gran)|a beginner) "
                        r"(?:could|can|would|knows|gets|manages)\b"),
    _frame("mockery", r"\b(?:customers|people|users|folks|clients) (?:of|like) your (?:sort|kind|type|ilk"
                      r"|stripe)\b|\byour (?:sort|kind|type|ilk) of (?:customers?|persons?|people|users?"
                      r"|clients?)\b|\b(?:customers|people|users|folks) like you\b"),
    # the customer's honesty doubted
    _frame("dishonesty", r"\b(?:can't|cannot|can not|don't|do not|won't|will not|not) (?:simply |just "
                         r"|always )?take (?:\w+ ){0,3}at (?:their|your|his|her) word\b"),
    _frame("dishonesty", r"\b(?:rarely|seldom|not always|hardly ever|never|not usually|not often) (?:quite "
                         r"|exactly |entirely )?(?:what|as) (?:the |a )?customers? (?:claims?|says?"
                         r"|describes?|reports?|makes? out)\b"),
    _frame("dishonesty", r"\bonly (?:ever (?:seem to |seems to )?|seems? to )(?:come up|happen|arise|appear"
                         r"|surface|occur)s? when\b"),
    _frame("dishonesty", r"\brather than (?:anything|something) (?:deliberate|intentional|dishonest|more "
                         r"sinister|on purpose)\b|\bhow convenient\b|\bconveniently (?:forgot|forgotten"
                         r"|omitted|left out|ignored|overlooked)\b"),
    # talking down
    _frame("condescension", r"^\s*again\s*(?::|-|,\s*(?:it(?:'s| is)|the answer|as (?:i|we)|this is|you "
                            r"need))"),
    _frame("condescension", r"\b(?:once|one) more time,? (?:slowly|carefully|for you|very slowly)\b|\bnice "
                            r"and slow(?:ly)?\b|\b(?:go|going|walk|take|explain|step)\w* (?:you )?(?:through "
                            r")?(?:this|it|things|everything|you)(?: \w+){0,4} (?:very |really )?slowly\b"),
    _frame("condescension", r"\b(?:not to|at the risk of|without wanting to) stat(?:e|ing) the obvious\b"
                            r"|\bstating the obvious\b|\bwhere (?:it|they)(?:'s| is| has| have|'ve)(?: "
                            r"always)? (?:always )?been\b"),
    _frame("condescension", r"\b(?:technology|tech|computers|the internet|apps|these things|this stuff"
                            r"|reading|instructions|emails?|passwords|settings)\b[^.!?]{0,30}\b(?:challenging"
                            r"|overwhelming|confusing|difficult|hard|tricky|daunting|a lot|intimidating) for "
                            r"(?:some|certain|older|less technical) (?:people|folks|customers|users|of "
                            r"us)\b"),
    _frame("condescension", r"\b(?:you agreed to|you accepted|you signed up|you signed)\b[^.!?]{0,80}\b(?:in "
                            r"plain (?:language|english|terms|words)|black and white)\b"),
    # dismissal
    _frame("dismissal", r"\b(?:(?:don't|do not|can't|cannot) (?:recall|remember) (?:anyone|anybody|us|me|we"
                        r"|i) (?:asking|asked)|(?:nobody|no one|no-one) (?:asked|was asking)|(?:though|but) "
                        r"(?:nobody|no one) asked)\b"),
    _frame("dismissal", r"\b(?:nobody|no one|no-one)(?:'s| is) (?:forcing|making|keeping|holding) you\b"
                        r"|\b(?:take your business|go) elsewhere\b|\bif you(?:'re| are) (?:this|that|so) "
                        r"(?:unhappy|dissatisfied|upset|displeased|unsatisfied)\b"),
    _frame("dismissal", r"\b(?:a|your) you[- ]problem\b|\bnot an? us[- ]problem\b"),
    _frame("dismissal", r"\b(?:yours|your (?:ticket|case|request|issue|message|complaint|problem))(?:'s| is) "
                        r"(?:just |only |simply )?one of (?:many|hundreds|thousands|a lot|countless)\b|\bnot "
                        r"(?:exactly |really |quite )?(?:our|my|a) (?:top |highest |main |first )?(?:priority"
                        r"|concern)(?: today| right now| at the moment)?\b(?=[^.!?]*\b(?:yours|your|ticket"
                        r"|case|request|issue)\b)|\b(?:yours|your (?:ticket|case|request"
                        r"|issue))\b[^.!?]{0,60}\bnot (?:exactly |really |quite )?(?:our|my|a) (?:top "
                        r"|highest |main )?(?:priority|concern)\b"),
    # silencing and threats
    _frame("nuisance", r"\bwast\w* (?:both )?(?:of )?(?:our|my|everyone's|everybody's|the team's|your own "
                       r"and our|both our|each other's|both of our) time\b"),
    _frame("nuisance", rf"\b(?:future|your|further|subsequent) {MESSAGES} (?:were|be|are|to be|could be"
                       rf"|would be|should be|kept) (?:a (?:lot|bit) )?(?:shorter|briefer|more concise|to "
                       rf"the point|politer|more polite|calmer|less emotional|more civil|more (?:focused"
                       rf"|measured))\b|\b(?:you|please)\b[^.!?]{{0,40}}\bstuck? (?:strictly |only )?to the "
                       rf"facts\b"),
    _frame("nuisance", r"\b(?:properly|actually|carefully|thoroughly|for once)\b[^.!?]{0,30}\bbefore "
                       r"(?:writing|reaching out|contacting|emailing|messaging|complaining|opening|raising)"),
    _frame("nuisance", r"\bstop (?:opening|sending|submitting|raising|filing|creating|logging) (?:so many "
                       r"|any more |more |duplicate |new |extra |multiple |repeated |further )+(?:tickets"
                       r"|messages|emails|requests|cases|complaints)\b|\bslows? (?:everyone|everybody|us|the "
                       r"team|the rest of us|things) down\b"),
    _frame("nuisance", r"\b(?:refrain|desist|abstain) from (?:any )?(?:further|more|additional|continued) "
                       r"(?:correspondence|contact|messages|emails|communication|tickets)\b"),
    _frame("threat", rf"\b(?:any more|one more|another|further|more) {MESSAGES}(?: like (?:this|that|these"
                     rf"|those))?,? (?:and|or) (?:i|we)\b[^.!?]{{0,40}}\b(?:suspend|clos|ban|block|terminat"
                     rf"|restrict|lock|remov|cancel|report|flag)\w*"),
    _frame("threat", r"\b(?:i|we)(?:'ll| will| shall| may| might) (?:have|get) your account (?:suspended"
                     r"|banned|terminated|blacklisted|blocked)\b"),
    # blame
    _frame("blame", r"\beasier to blame (?:us|others|someone|somebody|the|everyone|our|support)\b"),
    _frame("blame", r"\btake (?:some |a little |more |a bit of |any )?responsibility for (?:your|what you"
                    r"|the part you)\b|\b(?:take|took|taking|accept|own|admit|acknowledg)\w* (?:\w+ "
                    r"){0,4}your (?:own )?(?:part|role|share) in\b"),
)
"""3.8's frames of contempt; sympathy does not excuse them (:data:`UNEXCUSED`)."""


def contempt(plain: str) -> str | None:
    """The words of the first contempt a frame of :data:`FRAMES` finds in a sentence of ``plain``
    (lower case), or None."""
    return first_frame(FRAMES, plain)
