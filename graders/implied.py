"""Contempt for the customer said through implication, as grader 3.4 reads it beside 3.3's.

Grader 3.3 reads contempt by its frames (:mod:`graders.conduct`), but most of those frames still
hang on a word that carries the contempt ("slowly", "most people manage", "for the third time").
What an outside writer's contempt mostly does instead is imply it: the words are polite, the
meaning is that the customer is incompetent, careless, dishonest or a nuisance. Each frame here
names who is aimed at (the customer, as "you" or, in a note, in the third person) and what is
implied of them, and is read sentence by sentence:

* incompetence by comparison: the customer measured against "anyone" ("exactly where anyone would
  look"), or called the cause ("the common factor here is your setup");
* not reading, trying or paying attention: a question whether they "actually" opened it, "or just
  glanced at it"; a counterfactual whose subject is the customer's own small act ("checking it
  first would have answered your question"); the thing "in black and white", "there all along";
  "you clearly didn't read", "customer obviously can't follow instructions";
* impatience: "I've already explained this", "told you twice now", "like I said", "once again,";
* the problem belittled, or instructions given as to a child: "it's a simple link.", "literally
  one click", "not brain surgery", trouble "with a very simple form", "you click it.", "step two:
  open it";
* the outcome blamed on the customer: "what tends to happen when accounts are left without
  two-factor", "it's your call, and this is the result", "had two-factor been on, none of this
  would have happened", "entirely avoidable";
* mock politeness, sarcasm and tone policed: "certainly one way to go about it", "we do try to
  make these things simple", "I'm not sure what else you were expecting", a tautology ("30 days
  means 30 days."), "no need for that tone";
* the customer's own words held up in scare quotes after a verb that makes them a posture
  ("threatening to tell 'everyone you know'"), or their pressure called futile ("shouting rarely
  speeds anything up");
* dishonesty insinuated: "hard to see how a signed-for parcel goes missing", "given how often
  refunds come up on this account", "are you sure that wasn't just you".

What stays honest, and so is never read as contempt: a sentence that shares the customer's
feeling or apologises (:data:`SYMPATHY`; unless the sympathy only opens the sentence and a "but"
turns it to the contempt), one where we are the ones at fault (:data:`OURS`),
plain instructions, refusals said politely, the customer's frustration quoted to acknowledge it,
and a note that records the customer's tone as a fact ("customer is upset about the delay").
Each frame's guard says which of those reads it otherwise.

Only :data:`graders.statements.READING_3_4` reads any of this (``Reading.nearer``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass

from graders.normalize import SENTENCE_END
from graders.prefilter import Expressions

SYMPATHY = re.compile(
    r"\b(?:sorry|apologi[sz]e\w*|apologies|i (?:completely )?understand|i can (?:only )?imagine|"
    r"i know how|understandabl[ey]|(?:which|that|this|it)(?:'s| is) (?:completely |totally |entirely |"
    r"a )?(?:fair|reasonable|valid)|fair (?:feedback|point|enough|comment|question)|you're right|"
    r"you are right|rightly)\b")
"""A sentence that shares the customer's feeling, apologises or concedes their point."""
VENEER = re.compile(r"\b(?:but|however|though|although|yet|still)\b")
"""The turn after a show of sympathy that the contempt follows."""
OURS = re.compile(
    r"\b(?:we|i)(?:'d| would)? (?:should|could|ought to)(?:'ve| have)\b|\b(?:our|my) (?:own )?(?:mistake|"
    r"fault|error|oversight|bad|side|end|part)\b|\bon (?:our|my) (?:side|end|part)\b|\b(?:from|by) (?:us|"
    r"me|our team)\b|\bif (?:we|i) had\b")
"""A sentence where we are the ones who fell short: a counterfactual there blames us."""
FIRST_PERSON = re.compile(r"\b(?:we|we've|we're|we'd|our|us|i|i've|i'm|i'd|my)\b")
"""A sentence that speaks of ourselves: what "was avoidable" there is ours to own."""
OWN_SLIP = re.compile(r"\b(?:i|we)(?:'ve| have| had)? (?:\w+ )?(?:missed|skipped|overlooked|ignored|"
                      r"glossed over|didn't read|did not read|never read)\b")
"""A sentence where we missed something: the part we skipped is our slip, not the customer's."""
FEELING = re.compile(r"\b(?:frustrat\w*|upset|annoyed|worried|angry|confused|stressed|concerned|"
                     r"anxious|disappointed|fed up)\b")
"""A feeling named as the thing that is no wonder: "no wonder you're frustrated" sides with them."""
CONDITION = re.compile(r"\b(?:if|unless|in case|whenever|once)\b")
"""A sentence with a condition: a possibility offered, nothing imputed to the customer."""
ANSWERED = re.compile(r"\b(?:thank|thanks|appreciate|glad|great|happy|i'll|we'll|i will|we will|"
                      r"let me|i can|we can|i've|we've|i have|we have)\b")
"""A sentence of thanks or of help offered: the customer's words quoted there are acknowledged, not
held up."""

WHO = (r"(?:you|the customer|customer|cust|the user|user|the client|client|the requester|requester|"
       r"he|she|they)")
"""The customer as the target: addressed, or named in the third person as a note does."""
ATTENTION = (r"(?:read|open|look|check|try|tri|click|follow|scroll|glance|search|listen|pay|notice|"
             r"bother|understand|grasp|manage|figure|work out|remember|see)")
"""Verbs of paying attention: what the customer is implied not to have done."""
FAILED = (r"(?:didn't|did not|haven't|have not|hasn't|has not|never|can't|cannot|can not|couldn't|"
          r"could not|don't|do not|doesn't|does not|won't|will not|weren't|wasn't|failed to|refuses? to|"
          r"unable to|incapable of)")
"""Not doing it, or not being able to."""
ATTITUDE = (r"(?:(?:call|term)(?:s|ed|ing)?(?= ['\u2018\u201c\"])|threaten\w*|claim\w*|insist\w*|"
            r"demand\w*|expect\w*|call(?:s|ed|ing)? (?:it|this|that|us|our \w+|the \w+)|find(?:s|ing)? "
            r"(?:it|this|that|our \w+|the \w+)|so-called|supposedly|allegedly)")
"""Verbs that make the customer's words a posture rather than a report."""
QUOTED = r"(?:^|\s)['\u2018\u201c\"][a-z][^'\u2019\u201d\"]{1,30}['\u2019\u201d\"]"
"""The customer's own words in quotation marks (an apostrophe inside a word is no quote)."""
PRESSURE = (r"(?:threatening|shouting|yelling|demanding|complaining|insisting|ranting|venting|"
            r"swearing|nagging|pestering|(?:all )?caps|capitals|exclamation marks)")
"""The customer's pressure on us, named by what it does."""
FUTILE = (r"(?:rarely|never|seldom|won't|will not|doesn't|does not|isn't going to|is not going to|"
          r"can't|cannot|didn't|did not) (?:\w+ )?(?:speed|hurr|help|change|make|get|move|achieve)")
"""What the customer's pressure is said not to achieve."""
MISHAP = (r"(?:goes missing|go missing|disappears|vanishes|gets lost|get lost|gets stolen|"
          r"(?:could|would|can|might) (?:just |simply )?(?:have )?(?:go(?:ne)? missing|"
          r"disappear(?:ed)?|vanish(?:ed)?|get lost|got lost|be lost|been lost|lose|forget|miss))")
"""What the customer reports happening, said as a thing that happens in general or could happen:
disbelief puts their account as implausible ("hard to see how a signed-for parcel goes missing"),
where puzzlement over what did happen ("hard to see how the parcel went missing after the depot
scan") is honest."""
NEGLECT = (r"(?:left|leave|leaving|ignor\w+|skipp\w+|reus\w+|shar\w+|turned off|switched off|"
           r"disabled|forg[eo]t\w*|(?:not|n't) bother\w*)")
"""What a customer neglected, in a habit the outcome is blamed on."""
CLAIMS = (r"(?:refunds|claims|returns|disputes|chargebacks|missing (?:parcels|orders|items|packages|"
          r"deliveries)|(?:parcels|packages|orders|items|deliveries) (?:seem to |appear to |keep )?(?:go|"
          r"goes|went|going|have gone) (?:missing|astray)|refunds? (?:have |has )?come up)")
"""Claims the customer made, counted as a pattern."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One way of implying contempt: what it implies of the customer, the expression a sentence
    says it in, and the guards under which that sentence reads otherwise."""

    implies: str
    """What the frame implies of the customer: incompetence, inattention, nuisance, stupidity (the
    problem belittled), blame, sarcasm, mockery or dishonesty."""
    pattern: re.Pattern[str]
    guards: tuple[re.Pattern[str], ...] = (SYMPATHY,)


class Frames(tuple[Frame, ...]):
    """Frames in the order they are read, with one look for whether any of their expressions can
    match a text at all (:class:`graders.prefilter.Expressions`): most texts hold none, and then no
    sentence need be read frame by frame."""

    def __new__(cls, frames: Iterable[Frame]) -> Frames:
        return super().__new__(cls, tuple(frames))

    @functools.cached_property
    def expressions(self) -> Expressions:
        """The frames' expressions, in order."""
        return Expressions(frame.pattern for frame in self)


def make_frame(implies: str, pattern: str, *guards: re.Pattern[str]) -> Frame:
    """A frame; with no guard named, a sentence that shares the customer's feeling guards it (the
    frame modules of contempt, this one, :mod:`graders.reproach` and :mod:`graders.disdain`, all
    build theirs so)."""
    return Frame(implies, re.compile(pattern), guards or (SYMPATHY,))


FRAMES = Frames((
    # incompetence by comparison: the customer measured against anyone, or called the cause
    make_frame("incompetence",
           r"\b(?:exactly|precisely|just) where (?:anyone|anybody|everyone|everybody|most people|any "
           r"(?:\w+ )?(?:customer|user|person|adult|one))\b[^.!?]{0,40}\bwould\b"),
    make_frame("incompetence",
           r"\bthe common (?:factor|denominator|thread)(?: here)? (?:is|seems to be|appears to be|would "
           r"be|being) (?:you\b|your (?:setup|end|side|team|own|office|company|organi[sz]ation)\b)"),
    make_frame("incompetence",
           r"\b(?:anyone|anybody|everyone|everybody|most people|most adults|any adult|a child|a kid) "
           r"(?:can|could) (?:(?:follow|handle|click|manage|sort|work out|figure out) (?:this|that|it)|"
           r"(?:work|figure|sort) (?:this|that|it) out)\b"),
    make_frame("incompetence",
           r"\b(?:most|nearly all|almost all|the vast majority of|the rest of|plenty of|thousands of|all "
           r"(?:of )?(?:our|the) other|other) (?:our |of our |\w+ )?(?:customers|users|people|clients|"
           r"members|teams|admins)\b[^.!?]{0,30}\b(?:manage|figure|work (?:it|this|that) out|find (?:it|"
           r"this|that|the \w+)|follow (?:it|this|these|the \w+)|handle|cope|sort (?:it|this|that) out|"
           r"use (?:it|this|the \w+))\w*\b[^.!?]{0,30}\b(?:on their own|by themselves|unaided|without "
           r"(?:any )?(?:help|support|trouble|issues?|problems?|difficulty|fuss)|just fine|easily|"
           r"(?:the )?first time|in seconds|with no (?:trouble|problems?|issues?|difficulty))\b"),
    # not reading, trying or paying attention, implied of the customer
    make_frame("inattention",
           r"\b(?:did|have|had)(?:n't| not)? you (?:actually|really|honestly|properly|even|so much as) "
           r"(?:open|read|look|check|try|click|follow|scroll|glance|search|bother|watch)\w*\b"),
    make_frame("inattention",
           r"\bor (?:did you )?(?:just|only|merely|simply) (?:glanc|skim|guess|assum|scroll|skip|look|"
           r"click|give up)\w*\b[^.!?]*\?"),
    make_frame("inattention",
           rf"\b{WHO} (?:(?:have|has|had|were|was|are|is) )?(?:clearly|obviously|evidently|plainly|of "
           rf"course|predictably|as usual|yet again) {FAILED} (?:even |be )?(?:{ATTENTION}|bothered)\w*\b"),
    make_frame("inattention",
           rf"\b{WHO} (?:didn't|did not|never|hasn't|has not|haven't|have not|won't|wouldn't) even "
           rf"(?:read|open|look|check|try|click|follow|bother|glance|scroll)\w*\b"),
    make_frame("inattention",
           rf"\b{WHO} (?:can't|cannot|couldn't|could not|won't) be bothered\b|\b{WHO}(?:'re| are|'s| is|"
           rf" was| were| seems?| appears?) (?:\w+ )?(?:incapable of|(?:unable|incapable) to (?:follow|"
           rf"read|understand|grasp))\b"),
    make_frame("inattention",
           r"\b(?:can't|cannot|couldn't|could not|unable to) (?:follow|understand|grasp|read) (?:clear|"
           r"plain|straightforward|step-by-step|easy) (?:instructions|steps|directions|english)\b|"
           r"\b(?:spelled|spelt) out (?:for (?:him|her|them)|twice|again|slowly)\b"),
    make_frame("inattention",
           r"\b(?:missed|skipped|overlooked|ignored|glossed over|didn't read|did not read|never read) the "
           r"(?:part|bit|line|section|sentence|paragraph) (?:where|that|about|which)\b|\b(?:did|have) you "
           r"(?:read|see|notice|get to) the (?:part|bit|line|section|sentence|paragraph) (?:where|that|"
           r"about|which)\b", SYMPATHY, OURS, OWN_SLIP),
    make_frame("inattention",
           r"\b(?:it's|it is|it was|this is|this was|that's|that is|that was|all of this is|everything "
           r"is|the answer is|the answer was) (?:already|clearly|plainly|quite clearly) (?:explained|"
           r"answered|spelled out|spelt out|laid out|stated|written)\b", SYMPATHY, OURS),
    make_frame("inattention",
           r"\b(?:before|without) (?:even|so much as|bothering to|at least) (?:ask|contact|check|read|try|"
           r"writ|talk|look|reach|open|wait)\w*\b|\b(?:presumably|i take it|one assumes|one would assume) "
           r"(?:that )?you(?:'ve| have)? (?:read|saw|seen|checked|know|knew|noticed|understood|looked|were "
           r"aware)\b|\b(?:i|we) can tell (?:that )?you (?:haven't|have not|didn't|did not|never|don't|do "
           r"not) (?:\w+ )?(?:read|open|check|look|tried|try|follow|click)\w*\b"),
    make_frame("inattention", rf"\bno (?:surprise|wonder) (?:that )?{WHO}\b", SYMPATHY, FEELING),
    make_frame("inattention",
           r"\b(?:(?:a|one) (?:quick|simple|brief|short|single|two-minute|five-second|moment's|little|"
           r"cursory) [\w-]+|(?:checking|reading|opening|looking at|searching|googling|scrolling|"
           r"visiting|glancing at)\b)[^.!?]{0,60}\b(?:would|could)(?:'ve| have) (?:caught|answered|"
           r"prevented|avoided|saved you|spared you|shown you|told you|solved|settled|cleared (?:it |"
           r"this |that )?up|flagged|explained|stopped)\b", SYMPATHY, OURS),
    make_frame("inattention",
           r"\b(?:there all along|in there all along|(?:there|in there) the whole time|(?:in|on|under) "
           r"your \w+(?: \w+)? all along|plain as day|in black and white|in plain sight|staring (?:at )?"
           r"you in the face|clearly (?:marked|labell?ed|signposted))\b"),
    make_frame("inattention",
           r"\b(?:as|which) (?:the|our|your) (?:\w+ )?(?:email|message|confirmation|instructions|checkout "
           r"page|reminder|notice|warning|terms|faq|guide|article|status page|invoice|receipt|link|screen|"
           r"page) (?:you (?:received|got|were sent) )?(?:clearly|plainly|explicitly|very clearly) "
           r"(?:said|says|stated|states|explained|explains|showed|shows|told you|mentioned|mentions|"
           r"warned)\b"),
    # impatience: the customer a nuisance for asking again
    make_frame("nuisance",
           r"\b(?:i|we)(?:'ve| have| had)? already (?:told you|explained (?:this|that|it|all (?:this|"
           r"that))|said (?:this|that|so)|answered (?:this|that|your question)|gone (?:over|through) "
           r"(?:this|that|it))\b(?! to\b)"),
    make_frame("nuisance",
           r"\b(?:i|we)(?:'ve| have)? (?:explained|answered|told you|said) (?:this|that|it) (?:already|"
           r"before|previously)\b|\b(?:questions?|points?) (?:that |which )?(?:i|we)(?:'ve| have) already "
           r"(?:answered|explained|addressed)\b"),
    make_frame("nuisance",
           r"\b(?:told|explained|said|answered|mentioned|repeated)\b[^.!?]{0,25}\b(?:twice|three times|"
           r"four times|several times|a few times|multiple times) (?:now|already)\b"),
    make_frame("nuisance",
           r"\b(?:second|third|fourth|fifth|umpteenth|nth|\d+(?:st|nd|rd|th)) time (?:that )?(?:i|we)"
           r"(?:'ve| have)? (?:explained|told|said|answered|gone over|repeated)\b"),
    make_frame("nuisance",
           r"\b(?:say|repeat) (?:it|this|that|myself|ourselves) (?:again|one more time|once more|one "
           r"last time)\b|\bkeep (?:explaining|repeating|telling you)\b|\blike (?:i|we) (?:said|told you|"
           r"mentioned|explained)\b"),
    make_frame("nuisance", r"(?:^|[.!?]\s+|^\w+,\s*)once again[,:]|(?:^|[.!?,]\s+)(?:look|listen),\s",
           SYMPATHY, ANSWERED),
    make_frame("nuisance",
           r"\bre-?read (?:my|our) (?:last|previous|earlier|first|original) (?:message|email|reply|"
           r"response|answer)s?\b"),
    # the problem belittled
    make_frame("stupidity",
           r"(?:^|[,:;]\s*)(?:it's|it is|this is|that's|that is) (?:(?:just|only|literally|simply|"
           r"merely) (?:a|one) (?:\w+ )?|one (?:single |simple |little )?|a (?:single|simple|basic|tiny|"
           r"little) )(?:link|button|click|toggle|checkbox|tick ?box|setting|form|field|menu|tab|"
           r"email)[.!]"),
    make_frame("stupidity",
           r"(?<!we )(?<!i )(?<!we've )(?<!i've )(?<!we're )(?<!i'm )\bliterally (?:one|a single|just|"
           r"two|three|the first|the only|the top|the big|right|in the|on the|at the|under|a link|a "
           r"button|a click)\b"),
    make_frame("stupidity",
           r"\ball you (?:had|needed|were asked|were told) to do was\b|\b(?:hardly|barely|not exactly|not "
           r"much of) (?:a |an )?(?:big ask|lot to ask|tall order|challenge|hardship|ordeal|chore)\b|"
           r"\bwith your (?:mouse|finger|cursor|trackpad)\b|\byou (?:just )?(?:click|tap|press|open) "
           r"(?:on )?it[.!]|\bstep (?:one|two|three|four|\d)\W+(?:open|click|tap|read|find|press) (?:on )?"
           r"(?:it|them|your inbox)\b|\bliterally (?:says|reads|labell?ed|called|named)\b"),
    make_frame("stupidity",
           r"\b(?:not|hardly|isn't|is not|wasn't|was not) (?:exactly )?(?:brain surgery|a puzzle|a "
           r"riddle|quantum physics|an exam|a maze|advanced (?:maths|math|stuff))\b"),
    make_frame("stupidity",
           r"\b(?:trouble|difficulty|problems?|stuck|confused|stumped|defeated|beaten|baffled) (?:with|"
           r"by|on|over) (?:(?:such an?|an? (?:very|really|fairly|pretty|perfectly)|even an?) (?:simple|"
           r"basic|trivial|easy|straightforward|short)|(?:a|one) (?:single|one-click|two-step|"
           r"one-step)) \w+", SYMPATHY, CONDITION),
    # the outcome blamed on the customer
    make_frame("blame",
           rf"\b(?:is|are|was|were|that's|this is|it's)(?:,? \w+,)? (?:exactly |precisely |just |"
           rf"simply )?what (?:tends to |usually |typically |often |inevitably |will |can |always |"
           rf"generally )happens? when\b[^.!?]{{0,60}}\b{NEGLECT}\b", SYMPATHY, OURS),
    make_frame("blame",
           r"\b(?:this|that|here)(?:'s| is| was) (?:the|what) (?:result|outcome|consequence|upshot)s?[.!]|"
           r"\b(?:direct|natural|inevitable|predictable|logical) (?:consequence|result) of (?:your|you|"
           r"not|never|leaving|ignoring|skipping|turning|switching|disabling|reusing|sharing|clicking|"
           r"choosing)\b|\bconsequences? of your (?:own )?(?:choice|decision|actions?|carelessness|"
           r"inaction)\b", SYMPATHY, OURS),
    make_frame("blame",
           r"\byour (?:call|choice|decision)[,;]? (?:of course,? )?(?:and|so) (?:(?:this|that)(?:'s| is| "
           r"was) (?:the (?:result|outcome|consequence)|what (?:happened|you got))|here we are)\b",
           SYMPATHY, OURS),
    make_frame("blame",
           r"\bhad (?:[\w-]+ ){1,3}been (?:on|enabled|set up|turned on|switched on|kept|updated|checked|read|"
           r"followed)\b[^.!?]{0,60}\bwould(?:n't| not| never)?(?:'ve| have)\b", SYMPATHY, OURS),
    make_frame("blame",
           r"\b(?:was|were) (?:entirely |completely |wholly |totally |easily |perfectly )?(?:avoidable|"
           r"preventable)\b", SYMPATHY, FIRST_PERSON),
    make_frame("blame",
           r"\b(?:yourself|yourselves|your (?:own )?(?:team|setup|side|admins?)) to thank\b|"
           r"\b(?:self-inflicted|of your (?:own )?making|your own doing)\b"),
    # mock politeness and sarcasm, tone policed
    make_frame("sarcasm",
           r"\bhow to do (?:our|my) (?:job|jobs|work)\b|\bnoted (?:your|the) (?:tone|language|attitude|"
           r"capitals|caps)\b|\bno need for (?:that|this|the|such|all (?:that|this|the)) (?:tone|language|"
           r"attitude|capitals|caps|hostility|rudeness|drama)\b"),
    make_frame("sarcasm",
           r"\b(?:is|was|that's|it's|this is) (?:certainly |definitely |surely |quite |also |always |"
           r"just )?one way (?:to|of) (?:go(?:ing)? about|do(?:ing)?|handl\w+|approach\w*|deal\w* with|"
           r"start\w*)\b"),
    make_frame("sarcasm",
           r"\b(?:bold|brave) (?:choice|move|approach|strategy|tactic)\b|\b(?:creative|novel|inventive|"
           r"imaginative) (?:interpretation|reading|take) (?:of|on)\b"),
    make_frame("sarcasm",
           r"\bwe (?:do|really do|did) try to (?:make|keep)\b[^.!?]{0,40}\b(?:simple|easy|obvious|clear|"
           r"intuitive|straightforward|user-friendly)\b"),
    make_frame("sarcasm",
           r"\b(?:hope(?:fully)?|trust) (?:this|that|it)(?:'s| is| was)? (?:\w+ ){0,3}?(?:clearer|helps|"
           r"makes sense|clears|sinks in|goes in|is clear)\b[^.!?]{0,15}\bthis time\b"),
    make_frame("sarcasm",
           r"\bwhat (?:else|more) (?:you (?:were|are|had been) (?:expecting|hoping for)|(?:do|did|could|"
           r"can) you (?:want|expect)(?: (?:us|me) to say)?)[.!?]"),
    make_frame("sarcasm",
           r"\b(\w+)[- ](?:day|week|month|year|hour)s? (?:\w+ )?(?:means|is) (?:exactly |just |literally "
           r"|simply )?\1 (?:days|weeks|months|years|hours)[.!]|(?:^|[.!?,]\s+)(?:a |an |the )?(\w+) "
           r"means \2[.!]"),
    # the customer's words in scare quotes, their pressure called futile
    make_frame("mockery", rf"\byou\b[^.!?]{{0,30}}\b{ATTITUDE}\b[^.!?'\u2018\u201c\"]{{0,30}}{QUOTED}",
           SYMPATHY, ANSWERED),
    make_frame("mockery",
           rf"{QUOTED} (?:is|are) (?:exactly |precisely |just )?what (?:every|all|most|everyone|"
           rf"everybody|people|customers)\b", SYMPATHY, ANSWERED),
    make_frame("nuisance", rf"\b{PRESSURE}\b[^.!?]{{0,50}}\b{FUTILE}"),
    # dishonesty insinuated
    make_frame("dishonesty",
           rf"\b(?:hard|difficult|tough) to (?:see|believe|imagine|understand|explain) how\b(?:[^.!?]"
           rf"{{0,60}}\b{MISHAP}|(?: a| an)\b[^.!?]{{0,40}}\b(?:went missing|vanished|disappeared|got "
           rf"lost))", SYMPATHY, OURS),
    make_frame("dishonesty",
           r"\b(?:unusual|unlikely|rare|strange|odd|surprising|curious|remarkable|uncommon|extraordinary) "
           r"for (?:a|an) [^.!?]{0,40}\bto (?:go missing|vanish|disappear|get lost|be lost|be stolen)\b",
           SYMPATHY, OURS),
    make_frame("dishonesty",
           rf"\b(?:given|considering|in light of|seeing|with) how (?:often|many|frequently|regularly|many "
           rf"times)\b[^.!?]{{0,40}}\b{CLAIMS}\b[^.!?]{{0,60}}\b(?:you|your|this account)\b|\b(?:given|"
           rf"considering|in light of|seeing|with) how (?:often|many|frequently|regularly|many times)\b"
           rf"[^.!?]{{0,30}}\b(?:you|your|this account)\b[^.!?]{{0,40}}\b{CLAIMS}"),
    make_frame("dishonesty",
           r"\bare you (?:sure|certain|positive) (?:that )?(?:it |this |that )?(?:wasn't|was not|isn't|is "
           r"not) (?:just|simply|only) (?:you|yourself|someone)\b"),
))
"""The frames of implied contempt, in the order they are read."""


def contempt(plain: str) -> str | None:
    """The words of the first contempt a frame of :data:`FRAMES` finds in ``plain`` (lower case),
    or None. What the words decide is read once per text (:func:`graders.statements._said`
    remembers it)."""
    return first_frame(FRAMES, plain)


def first_frame(frames: Frames, plain: str) -> str | None:
    """The words of the first contempt one of ``frames`` finds in a sentence of ``plain`` (lower
    case) that none of the frame's guards holds for, or None: the reading every frame module of
    contempt shares (this one, :mod:`graders.reproach`, :mod:`graders.disdain`)."""
    if not frames.expressions.may_match(plain):
        return None
    for sentence in SENTENCE_END.split(plain):
        for frame in frames:
            m = frame.pattern.search(sentence)
            if m is not None and not any(_holds(guard, sentence, m.start()) for guard in frame.guards):
                return m.group().strip()
    return None


def _holds(guard: re.Pattern[str], sentence: str, start: int) -> bool:
    """Whether ``guard`` reads the sentence otherwise than the frame found at ``start``. Sympathy
    said first and then turned ("I understand you're upset, but most people manage ...") is a
    veneer over the contempt after it (:data:`VENEER`), not a feeling shared."""
    m = guard.search(sentence)
    if m is None:
        return False
    if guard is SYMPATHY and m.end() <= start and VENEER.search(sentence, m.end(), start):
        return guard.search(sentence, start) is not None
    return True
