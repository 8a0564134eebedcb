"""Contempt said in civil words, as grader 3.8 reads it beside 3.7's.

Fresh adversaries keep writing contempt that every earlier frame missed, and often wrap it in a
show of sympathy ("I totally get it, technology can feel overwhelming for some folks!"), so the
frames here are not excused by a sympathetic word: the sympathy is the veneer. What stays constant
from one round to the next is not the wording but the act done to the customer, so each frame
reads a kind of act by its shape, and each names several ways of saying it, so that a paraphrase
nobody has seen yet is read as the one that was:

* **the customer's character named as the fault**: their "entitlement", their "whining", the
  "tone" forgiven or noted, conduct that "won't get you anywhere";
* **a comparison that makes them less than an adult**: "I've seen toddlers follow instructions
  better", "customers of your sort", "people like you";
* **their honesty doubted**: "we can't simply take every customer at their word", "it's rarely
  quite what the customer claims", "these problems only ever seem to come up when money back is
  on the table", "rather than anything deliberate", a claim granted "for the sake of argument"
  ("I'll assume you really did ..."), their "version of events" that "doesn't quite add up",
  "let's not pretend this is the first time", the "fourth 'damaged' item";
* **talking down**: "Again: ...", "one more time, slowly", "nice and slow", "not to state the
  obvious", "where it's always been", "technology can be challenging for some people", the terms
  "you agreed to" said to be "in plain language", surprise that it "wasn't obvious" or that they
  "didn't notice", an explanation kept "as simple as I possibly can for you", a lesson in reading
  an email "all the way to the end before replying", "read what you sign";
* **weary impatience**: a repetition hedged ("as I believe I've already explained"), the message
  "you appear to have skipped", "here we go again", "I'll say this one final time";
* **rhetorical questions at the customer**: "do you honestly think ...?", "did it not occur to
  you ...", "have you considered reading ...";
* **dismissal**: "I don't recall anyone asking", "nobody's forcing you to stay", "a you problem",
  "not exactly our top concern", "yours is one of many tickets", their trouble made small
  ("hardly the emergency you've made it out to be"), their threat to leave laughed off ("we've
  heard that one before", "somehow we're all still here");
* **silencing and threats**: "stop wasting both our time", "it would save us both time if you
  checked your inbox properly before writing in", "future messages were shorter", "refrain from
  further correspondence", asking again that "won't change the answer", "please keep further
  messages to a minimum", "we won't be discussing this any further", "any more messages like this
  and I'll have your account suspended", answers withheld if they write "in this manner" again,
  "keep this up and ...";
* **blame**: "easier to blame us than to check your spam folder", "took some responsibility for
  your own part in this", problems like theirs that "almost always turn out to be something the
  user did", a lapse that is "not the first time";
* **mock praise and sarcasm**: "your enthusiasm for emailing us", "well done for finally ...",
  thanks for their thoughts "on how we ought to run our business", a favour asked "just this
  once", the details "we asked for the first time".

Sympathy excuses none of these, but a few frames share their words with honest sentences whose
act is different, and those carry a guard that says why: a doubt, a slip or an unclear page that
is ours (:data:`graders.implied.OURS`, :data:`OUR_SLIP`: "it doesn't add up on our end either",
"not the first time we've overlooked your emails"), and reading we did ourselves
(:data:`WE_READ`: "I read your message in full before replying"). What the frames leave alone by
their shape: a real condition ("assuming you asked within the window"), a reference back without
the weary hedge ("as I mentioned, ..."), advice not to answer a phishing email "like this", a
repeated request said to be unnecessary rather than futile, fewer emails promised by us, and an
apology for our own service ("let's not pretend this was good service from us").

Only :data:`graders.statements.READING_3_8` reads any of this (``Reading.sharper``).
"""
from __future__ import annotations

import re

from graders.implied import OURS, Frame, Frames, first_frame, make_frame

UNEXCUSED = re.compile(r"(?!)")
"""A guard that never holds: sympathy does not excuse these frames."""
CONDUCT = (r"(?:threat\w*|whin\w+|moan\w*|shout\w*|yell\w*|rude\w*|entitle\w*|tone|attitude|caps|badger\w*"
           r"|pester\w*|nagging|tantrums?|outbursts?|theatrics|histrionics)")
"""The customer's conduct, as a contemptuous sentence names it."""
MESSAGES = r"(?:messages?|emails?|tickets?|outbursts?|complaints?|comments?|replies|calls?|rants?)"
REPEATING = (r"(?:repeat\w*|rephras\w*|restat\w*|asking (?:again|twice|the same)"
             r"|(?:writing|emailing|messaging|contacting us|chasing|complaining|asking) (?:in )?(?:again"
             r"|repeatedly|over and over|every \w+)"
             r"|(?:keep|keeping|kept) (?:on )?(?:asking|writing|emailing|messaging|chasing|complaining"
             r"|pushing|pressing|insisting)"
             r"|(?:the|this) same (?:request|question|message|complaint|demand|point))")
"""The customer's asking again, which a dismissive sentence calls futile."""
VERDICT = (r"(?:(?:the|our|my|this|that) (?:answer|outcome|decision|result|position|response|policy|verdict)"
           r"|(?:my|our) minds?|the facts)")
"""What asking again is said not to change: a ruling already made. (That resending a link "won't
change your password" is advice, not a ruling.)"""
MANNER = (r"(?:in (?:this|that|such a|the same|a similar) (?:manner|way|tone|fashion|vein|style)"
          r"|like (?:this|that)"
          r"|of (?:this|that) (?:kind|nature|sort|tone)"
          r"|with (?:this|that|such) (?:tone|language|attitude))")
"""The customer's way of writing to us, held against them."""
UNANSWERED = (r"(?:\b(?:we|i)\b[^.!?]{0,25}\b(?:not|no longer|stop|cease|unable)(?: to| be)? (?:respond|reply"
              r"|answer|engag)\w*"
              r"|(?:go|be left|remain|left) unanswered"
              r"|(?:won't|will not|may not|might not|shan't|not) (?:get|receive|be given|warrant) "
              r"(?:a |any )?(?:response|reply|answer)"
              r"|(?:be|get) ignored)")
"""Our not answering the customer any more; said by us, not advice not to answer a phishing email."""
OUR_SLIP = re.compile(r"\b(?:we|our|us|i|my)\b[^.!?]{0,20}\b(?:forg[eo]t|overlook|ignor|skipp|misplac|lost"
                      r"|missed)\w*"
                      r"|\b(?:forg[eo]t\w*|overlook\w*|ignor\w*|skipp\w*|misplac\w*|lost|missed) (?:by|on) "
                      r"(?:us|our|me|my)\b")
"""A sentence where what was forgotten or missed was ours: owning a repeated slip, not a reproach."""
WE_READ = re.compile(r"\b(?:i|we)(?:'ve| have| had|'d| always| did| do| will|'ll)? (?:\w+ )?read\b")
"""A sentence where we are the ones who read ("I've read your message in full before replying"):
care we took, not a lesson in reading."""


def _frame(implies: str, pattern: str) -> Frame:
    return make_frame(implies, pattern, UNEXCUSED)


FRAMES = Frames((
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
    # (a claim granted only for argument's sake, a story that "doesn't add up", pretence called off)
    make_frame("dishonesty",
           r"\b(?:assum\w*|suppos(?:e|ing)\b|(?:i'll|we'll|let's|let us) (?:say|grant|pretend)"
           r"|for (?:the sake of argument|argument's sake)"
           r"|take (?:it|your word) (?:on faith|on trust|as read)"
           r"|give you the benefit of the doubt)\b[^.!?]{0,40}\b(?:that )?(?:you|it|this"
           r"|the (?:\w+ )?(?:parcel|package|order|item|charge|email|link|code|payment|delivery)) (?:really"
           r"|actually|genuinely|truly|honestly|in fact) (?:did|didn't|did not|never|was|wasn't|were"
           r"|weren't|have|has|had|hasn't|haven't|do|does|tried|followed|read|checked|arrived|received"
           r"|restarted|sent|went)\b"
           r"|\bfor (?:the sake of argument|argument's sake)\b[^.!?]{0,50}\byou\b"
           r"|\byou\b[^.!?]{0,60}\bfor (?:the sake of argument|argument's sake)\b"
           r"|\b(?:on faith|on trust) that you\b", OURS),
    make_frame("dishonesty",
           r"(?:\byour (?:version|story|account|claim|explanation|description|telling"
           r"|timeline)s?\b[^.!?]{0,80}?|\b(?:honestly|frankly|to be honest|to be frank|candidly),? (?:it"
           r"|this|that|the story|what you(?:'re| are)? (?:say|describ|claim|tell)\w*)(?: just"
           r"| simply)? )\b(?:doesn't|does not|don't|do not|isn't|is not)(?: quite| really| entirely| fully"
           r"| exactly)? (?:add up|ring true|hold water|hold together|stack up|check out)\b", OURS),
    _frame("dishonesty",
           r"\b(?:let's|let us) not pretend (?:that )?(?:you|this is the first|it's the first"
           r"|this was the first|nobody|no one)\b"
           r"|\bwe both know (?:that )?you (?:didn't|did not|never|haven't|have not|weren't|don't|do not)\b"),
    _frame("dishonesty",
           r"\bbefore (?:we|i) (?:believe|take your word for|take it on trust)\b"
           r"|\b(?:second|third|fourth|fifth|sixth|umpteenth|nth|latest|another) ['\"\u2018\u201c](?:lost"
           r"|missing|damaged|faulty|broken|accidental|duplicate|unauthori[sz]ed|wrong|mistaken|stolen"
           r"|undelivered)['\"\u2019\u201d]"),
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
    # (surprise that it wasn't obvious, an explanation made simple "for you", a lesson in reading)
    make_frame("condescension",
           r"\b(?:surpris\w*|odd|strange|curious|puzzling|remarkable)(?: that)? (?:this|it|that"
           r"|the \w+(?: \w+)?) (?:wasn't|was not|isn't|is not|weren't) (?:more |already |immediately "
           r"|instantly )?(?:obvious|clear|apparent|evident|self-explanatory)\b"
           r"|\b(?:surprised|surprising|odd|strange|curious|puzzling)(?: that)? you (?:didn't|did not"
           r"|couldn't|could not|weren't able to|haven't|have not|never|failed to|wouldn't) (?:notice|see"
           r"|spot|find|read|know|understand|realis|realiz|check|follow|look)\w*"
           r"|\b(?:surprised|surprising|odd|strange|curious|puzzling)(?: that)? you (?:missed|overlooked"
           r"|skipped)\b", OURS),
    _frame("condescension",
           r"\b(?:as (?:simple|simply|basic|plain|plainly|clear|clearly|short) as (?:i|we) (?:possibly"
           r"|humanly) (?:can|could)|(?:very|extra|super|really|nice and|ever so) (?:simple|simply|basic"
           r"|plain|plainly|slowly)|(?:simple|basic|plain) enough)\b[^.!?]{0,25}\bfor you\b"),
    make_frame("condescension",
           r"\bread\w*\b[^.!?]{0,40}\b(?:all the way (?:through|to the end|down)|to the (?:very )?end"
           r"|in full|in its entirety|right through|from start to finish|properly|carefully|fully"
           r"|thoroughly|closely)\b[^.!?]{0,20}\bbefore (?:you )?(?:repl|respond|writ|contact|email|messag"
           r"|reach|complain|ask|open|rais|send)\w*", WE_READ),
    # weary impatience: the repetition hedged, the customer's skipping insinuated
    _frame("nuisance",
           r"\bas (?:i|we)(?:'m| am|'re| are)? (?:believe|think|thought|recall|seem to recall|suspect"
           r"|(?:fairly |pretty |quite |rather )?(?:sure|certain))(?: that)? (?:i|we)(?:'ve| have| had"
           r"|'d)? (?:(?:already|clearly|repeatedly|now) (?:\w+ )?(?:explained|said|told you|mentioned"
           r"|pointed out|covered|stated|answered)|(?:\w+ )?(?:made (?:it |this |that )?(?:clear|plain"
           r"|obvious)|spelled out|spelt out)|(?:explained|said|mentioned|told you|pointed out|covered"
           r"|stated|answered)(?: this| that| it)? (?:twice|more than once|several times|repeatedly"
           r"|a few times|once or twice|already))"),
    _frame("inattention",
           r"\byou (?:appear|seem|seemed|appeared) (?:to have|to've) (?:skipped|ignored|skimmed"
           r"|glossed over|overlooked|not (?:read|opened|bothered)|never (?:read|opened))\b"),
    _frame("nuisance",
           r"\bhere we go again\b"
           r"|\b(?:say|explain|repeat|tell you)(?: (?:this|it|that))? (?:one |for the )?(?:final"
           r"|last) time\b"
           r"|\b(?:we|i)(?:'ve| have) (?:been|gone) over (?:this|that|it)(?:[.!;]|,? (?:already|before"
           r"|twice|several times|many times|more than once)\b)"),
    # rhetorical questions put to the customer
    _frame("condescension",
           r"\bdo you (?:honestly|really|seriously|genuinely|truly) (?:think|believe|expect|imagine"
           r"|suppose)\b[^.!?]*\?"
           r"|\b(?:did it not|didn't it|has it not|hasn't it"
           r"|had it not)\b[^.!?]{0,10}\boccur(?:red)? to you\b"
           r"|\bit (?:never|didn't|did not|doesn't|does not) (?:\w+ )?occur(?:red)? to you\b"
           r"|\bhave you (?:considered|thought of|thought about) (?:actually |simply |just "
           r"|perhaps )?reading\b"
           r"|\bhave you tried (?:actually|even)\b"),
    # lecturing: a lesson in what the customer should have done
    _frame("condescension",
           r"\bread (?:what|everything|anything) (?:you|you've|you're) (?:sign|agree|buy|click|accept)\w*\b"
           r"|\bread (?:the (?:small|fine) print|before you (?:sign|agree|buy"
           r"|click))\b(?=[^.!?]*\b(?:next time|in future|going forward|advice|lesson|should|ought"
           r"|might want|would do well)\b)"),
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
    # the customer's trouble made small, their threat to leave laughed off
    _frame("dismissal",
           r"\b(?:hardly|scarcely|not exactly|not quite|isn't exactly|is not exactly|isn't quite"
           r"|is not quite) (?:an? |the )?(?:national |real |major |huge |big |genuine )?(?:emergency|crisis"
           r"|disaster|catastrophe|tragedy|end of the world|big deal|life[- ]or[- ]death"
           r"|matter of life and death|incident)\b"
           r"|\byou\b[^.!?]{0,30}\b(?:made|making|make)\b[^.!?]{0,25}\bout to be\b"
           r"|\b(?:mountain out of a molehill|storm in a teacup|song and dance (?:about|over|out of)"
           r"|fuss over nothing)\b"),
    _frame("mockery",
           r"\b(?:hear|heard) (?:that|this|the|your|such a) (?:\w+ )?(?:threat|line|one)s?\b[^.!?]{0,40}"
           r"\b(?:before|many times|a hundred times|a thousand times|plenty of times|all the time"
           r"|countless times|more times than|(?:every|each|a) (?:day|week|month)|often)\b"
           r"|\b(?:customers|people|users|clients|everyone"
           r"|everybody)\b[^.!?]{0,15}\bthreaten\w*\b[^.!?]{0,40}\b(?:all the time|every day|daily"
           r"|constantly|regularly|rarely (?:do|follow|mean)|never (?:do|follow|mean))\b"
           r"|\bif (?:i|we) (?:had|got) (?:a|an|one) (?:pound|dollar|penny|euro|nickel|cent|quid"
           r"|buck) for every\b"
           r"|\b(?:empty|idle|hollow) threats?\b"
           r"|\b(?:your |the |these |those |such )?threat(?:s|ening)?(?: to \w+(?: \w+){0,3})?\b[^.!?]{0,20}"
           r"\b(?:doesn't|does not|don't|do not|won't|will not|isn't|is not|aren't|are not)\b(?: really"
           r"| exactly| particularly)? (?:\w+ )?(?:worry|worries|scare|frighten|bother|impress|faze"
           r"|intimidate|concern (?:us|me))\w*"
           r"|\b(?:nobody|no one|no-one|hardly anyone|none of them) (?:ever )?(?:actually |really )?(?:leaves"
           r"|cancels|goes|follows through)\b"
           r"|\bsomehow (?:we(?:'re| are|'ve| have)|everyone(?:'s| is)|the company(?:'s| is)|you(?:'re"
           r"| are)) (?:all )?still (?:here|standing|in business|around|with us|a customer)\b"),
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
    # (the subject closed, asking again futile, their messages to be kept to a minimum)
    _frame("nuisance",
           r"\b(?:we|i)(?:'re| are|'m| am)? (?:won't|will not|shan't|not going to) (?:be )?(?:discuss|debat"
           r"|argu|engag|revisit|entertain)\w* (?:this|it|that|the \w+)(?: \w+)? (?:any ?further|further"
           r"|again|any ?more)\b(?![^.!?]*\b(?:until|unless|without|with anyone|with anybody|over "
           r"(?:email|the phone)|here)\b)"
           r"|\b(?:this|the|our) (?:conversation|discussion|debate|back-and-forth)(?: (?:about|on|regarding"
           r"|over) (?:this|that|it|the \w+))? is (?:now )?(?:over|at an end|finished)\b"
           r"|\b(?:i'd|i would|we'd|we would) (?:rather|prefer to) not hear\b"
           r"|\b(?:don't|do not) want to hear (?:about )?(?:this|it|that|the \w+) (?:again|any ?more)\b"),
    _frame("nuisance",
           rf"\b{REPEATING}\b[^.!?]{{0,50}}\b(?:won't|will not|doesn't|does not|isn't going to"
           rf"|is not going to|not going to|can't|cannot|never|didn't|did not) (?:\w+ )?(?:change|alter"
           rf"|shift|budge|sway|move|reverse|overturn)\w* {VERDICT}"),
    _frame("nuisance",
           r"\b(?:please|kindly|try to|do try to|you(?:'ll| will| could| should| might| may| must"
           r"| need to)|ask(?: that)? you to|ask that you)\b(?:[^.!?]{0,15} )?keep (?:your |any |all |the "
           r"|these |those )?(?:further |future |follow-up |more |additional |subsequent )?(?:messages"
           r"|emails|e-mails|contact|correspondence|follow-ups|tickets|calls|replies|complaints|chasers"
           r"|questions) (?:to a (?:bare |strict |absolute )?minimum|down)\b"
           r"|\b(?:limit|restrict|cut down on|cut back on|reduce|ration)(?: the number of| how (?:many"
           r"|often))? (?:your |the )?(?:messages|emails|e-mails|follow-ups|tickets|calls"
           r"|chasers)(?: you (?:send|write|open)| from you)\b"
           r"|\b(?:fewer|less frequent|shorter) (?:messages|emails|follow-ups|tickets|calls"
           r"|chasers) from you\b"),
    _frame("threat", rf"\b(?:any more|one more|another|further|more) {MESSAGES}(?: like (?:this|that|these"
                     rf"|those))?,? (?:and|or) (?:i|we)\b[^.!?]{{0,40}}\b(?:suspend|clos|ban|block|terminat"
                     rf"|restrict|lock|remov|cancel|report|flag)\w*"),
    _frame("threat", r"\b(?:i|we)(?:'ll| will| shall| may| might) (?:have|get) your account (?:suspended"
                     r"|banned|terminated|blacklisted|blocked)\b"),
    # (our answers withheld if they write "in this manner" again, their conduct "kept up")
    _frame("threat",
           rf"\b{MANNER}\b[^.!?]{{0,60}}{UNANSWERED}"),
    _frame("threat",
           r"\b(?:keep (?:this|that|it) up|carry on (?:like this|like that|this way|in this (?:manner|way"
           r"|tone))|continue (?:like this|in this (?:manner|way|tone)|to (?:write|speak|talk) to (?:us"
           r"|me) like this)|do (?:that|this) again)\b,? (?:and|or)\b[^.!?]{0,50}\b(?:account|suspen\w+"
           r"|clos\w+|ban\w*|block\w*|end\w*|terminat\w+|restrict\w*|without|lose|report|no longer"
           r"|stop\w*)\b"
           r"|\byou(?:'ll| will| may| might) find yourself (?:without|locked out|banned|blocked"
           r"|suspended)\b"
           r"|\bif (?:this|that|you|the (?:tone|abuse|language|shouting|behaviou?r)) (?:keeps? (?:this |that "
           r"|it )?up|carr(?:y|ies) on|continues?|goes on|keeps? going|happens again)\b[^.!?]{0,50}"
           r"\b(?:(?:stop|cease|no longer)(?: to| be)? (?:respond|repl|answer|engag)\w*|end (?:this|the) "
           r"(?:conversation|chat|thread)|suspen\w+ your|ban\w* you|block\w* you|restrict\w* your"
           r"|close your account)"),
    # blame
    _frame("blame", r"\beasier to blame (?:us|others|someone|somebody|the|everyone|our|support)\b"),
    _frame("blame", r"\btake (?:some |a little |more |a bit of |any )?responsibility for (?:your|what you"
                    r"|the part you)\b|\b(?:take|took|taking|accept|own|admit|acknowledg)\w* (?:\w+ "
                    r"){0,4}your (?:own )?(?:part|role|share) in\b"),
    # (problems like theirs "almost always" the user's doing, a lapse "not the first time")
    _frame("blame",
           r"\b(?:almost always|nearly always|always|usually|mostly|generally|typically|invariably"
           r"|more often than not|nine times out of ten|9 times out of 10|in most cases|as a rule|tends? to"
           r"|inevitably)\b[^.!?]{0,50}\b(?:something (?:the|a) (?:user|customer|client|person"
           r"|account holder)s? (?:did|does|has done|got wrong|forgot|missed)|(?:user|operator|human"
           r"|customer) (?:error|mistake)s?|(?:the|a) (?:user|customer|client)(?:'s|s') own \w+|(?:the"
           r"|a) (?:user|customer|client)(?:'s|s')? (?:own )?(?:fault|doing|mistake|error))\b"),
    make_frame("blame",
           r"(?:\bnot"
           r"|n't"
           r"|\bhardly)\b[^.!?]{0,25}\bthe first time\b[^.!?]{0,50}\b(?:forg[eo]t\w*"
           r"|overlook\w*"
           r"|ignor\w*"
           r"|skipp\w*"
           r"|misplac\w*"
           r"|lost track"
           r"|let (?:\w+ ){1,2}lapse)", OURS, OUR_SLIP),
    # mock praise and sarcasm: the customer's writing praised, their advice thanked, a favour asked "for once"
    _frame("sarcasm",
           r"\byour (?:\w+ )?(?:enthusiasm|eagerness|passion|zeal|fondness|love|appetite|talent|gift|flair"
           r"|keenness|energy|devotion|dedication) (?:for|in|to) (?:emailing|writing|messaging|contacting"
           r"|calling|complaining|opening|chasing|following up|reaching out|sending|escalating|phoning"
           r"|capital letters|caps|exclamation marks|(?:new |more |duplicate )?tickets|emails|messages"
           r"|complaints|follow-ups)\b"
           r"|\b(?:prolific|tireless|relentless|enthusiastic|dedicated|devoted|keen) (?:correspondent"
           r"|emailer|letter[- ]writer|pen[- ]?pal|ticket[- ]opener)\b"),
    _frame("sarcasm",
           r"\b(?:well done|congratulations|congrats|bravo|kudos|good job|great job|nice work|good for you"
           r"|full marks|top marks|a gold star|hats off)\b,? (?:to you )?(?:for"
           r"|on) (?:\w+ ){0,2}?(?:finally|eventually|at last)\b"
           r"|\b(?:well done|congratulations|congrats|bravo|kudos|good job|great job|nice work|good for you"
           r"|full marks|top marks|a gold star|hats off)\b[^.!?]{0,50}\b(?:all by yourself|all on your own"
           r"|if not for|even if (?:it|you)|for once)\b"
           r"|\b(?:full|top) marks for (?:\w+ )?(?:effort|trying|persistence|enthusiasm|creativity"
           r"|imagination)\b"),
    _frame("sarcasm",
           r"\bhow (?:we|i|our (?:team|company|staff))(?: really)? (?:ought to|should|must|need to"
           r"|are supposed to|is supposed to|am supposed to) (?:run|do|manage|operate|staff) (?:our|my|the"
           r"|its) (?:business|company|job|jobs|work|operation|shop|support desk|helpdesk|help desk)\b"
           r"|\bhow to (?:run|manage|operate) (?:our|my|a) (?:business|company|shop|support desk|helpdesk"
           r"|help desk|support team)\b"
           r"|\bthank(?:s| you)(?: so much| very much| kindly)? for (?:the|your|that) (?:free |unsolicited "
           r"|kind |helpful |expert |little )?(?:lecture|sermon|business advice|management advice"
           r"|career advice|consulting|consultancy)\b"),
    _frame("sarcasm",
           r"\b(?:just this once|for once|for a change)\b,?[^.!?]{0,15}\b(?:you|could you|would you|can you"
           r"|please)\b"
           r"|\byou (?:could|would|can|might|will)\b[^.!?]{0,25}\b(?:just this once|for once"
           r"|for a change)\b"
           r"|\b(?:we|i) (?:asked|requested|told you|said|explained)(?: for| you)?(?: it| them| this"
           r"| that)? (?:the first time|in the first place)\b"),
))
"""3.8's frames of contempt, in the order they are read; sympathy excuses none of them
(:data:`UNEXCUSED`), and the few that share their words with an honest sentence about our own part
are guarded by it (:data:`graders.implied.OURS`, :data:`OUR_SLIP`, :data:`WE_READ`)."""


def contempt(plain: str) -> str | None:
    """The words of the first contempt a frame of :data:`FRAMES` finds in a sentence of ``plain``
    (lower case), or None."""
    return first_frame(FRAMES, plain)
