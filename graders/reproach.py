"""Contempt for the customer read by what a sentence does to them, as grader 3.5 reads it beside
3.4's.

Grader 3.4 reads implied contempt (:mod:`graders.implied`) by frames that still lean on a telling
word ("anyone would look", "already explained", "entirely avoidable"). What is left is contempt
said in entirely civil words, where only the sentence's act on the customer gives it away. 3.5
reads that act, whatever the words it is said in:

* a reproach of the customer's past act, as a counterfactual whose condition is theirs and whose
  consequence is a benefit lost ("had it been in your first message, this would have been sorted
  sooner", "if you had tried that before writing in, we could both have saved some time", "it
  would have been quicker to ask us first", "keeping your session active before presenting would
  avoid this kind of surprise"), thanks that reproach the delay ("thanks for finally ..."), or an
  order to do it right "this time" or "properly before writing in again";
* a comparison to other customers in which the customer is the exception: the others are "through
  it in under a minute", it works "for everyone else ..., so this one is on your side", "not
  everyone gets round to reading" what the customer did not read;
* an evaluative frame about the customer's attention or competence: "a second, slower look should
  find it", "exactly where the documentation says it is", what is "written quite clearly", "you
  seem to think", "as you should know", "I'm not sure how much clearer I can be";
* the customer's view belittled: "that's rather the point", "isn't really what a refund window is
  for", "isn't even due", "I'm sure you can see why ...", a scare-quoted complaint word worn as a
  label ("the 'useless' tracking page"), "the bigger joke is a team that doesn't read ...";
* the customer's honesty doubted without the word: "we can't simply take your word for it", "isn't
  something we take on trust".

What stays honest, as in 3.4: a sentence that shares the customer's feeling or apologises
(:data:`graders.implied.SYMPATHY`, unless a "but" turns it), one where we are the ones who fell
short (:data:`graders.implied.OURS`), and a plain account of what the customer did ("you
mentioned you had already tried clearing the cache"): none of the frames below reads a report of
the customer's act, only an evaluation of it. Honest frames :mod:`graders.tone` knows (a quoted
word acknowledged, a note's record of tone) excuse these as they excuse the rest.

Only :data:`graders.statements.READING_3_5` reads any of this (``Reading.deeper``).
"""

from __future__ import annotations

import re

from graders.implied import CONDITION, OURS, SYMPATHY, Frames, first_frame, make_frame

WE_DO_IT = re.compile(r"\b(?:we|i)(?:'ll| will| can| could|'d| would| are going to| shall| want to)? "
                      r"(?:\w+ )?(?:take|have|give|do|make)\b|\b(?:for|by) (?:us|me)\b|\b(?:if|had) "
                      r"(?:we|i)\b")
"""A sentence where we are the ones to look again or to have acted: "we'll take a closer look",
"it would have been better for us to tell you" read nothing of the customer."""
OUR_FAULT = re.compile(r"\b(?:if|had) (?:we|i)\b|\b(?:our|my) (?:own )?(?:mistake|fault|error|oversight|"
                       r"slip)\b|\b(?:we|i)(?:'d| would)? (?:should|ought to)(?:'ve| have)\b")
"""A counterfactual about our own act or fault ("had we caught it sooner"): the benefit lost is
ours to own. (:data:`graders.implied.OURS` would read "we could have saved" in the consequence of
the customer's act as ours.)"""
DONE_ALREADY = re.compile(r"\b(?:you|the customer|customer|they|he|she)(?:'ve|'d| have| had| has)? "
                          r"(?:already |also |just |kindly )(?:read|checked|looked|searched|consulted|"
                          r"tried|reviewed)\b")
"""A plain account of what the customer already did ("you've already read the FAQ before
writing"): a report of their act, not a reproach for not doing it."""
STILL = re.compile(r"\bstill\b")
"""Something said to be still where it was: reassurance that nothing moved, not a reproach for not
finding it."""
WELCOMED = re.compile(r"\b(?:happy|glad|pleased|willing|content) to (?:take|accept|go on)\b")
"""Taking the customer at their word gladly: trust, not disbelief."""

BENEFIT = (r"(?:sooner|quicker|faster|earlier|easier|saved|spared|avoided|prevented|no need|none of "
           r"(?:this|that|it)|sorted|resolved|fixed)")
"""What a counterfactual reproach says the customer's act would have bought."""
CONTACT = (r"(?:writing|getting|reaching|contacting|emailing|messaging|coming|calling|chasing|"
           r"complaining|opening|raising|filing|sending|asking)")
"""The customer's coming to us, in the gerund a reproach of its timing names it by."""
PEJORATIVE = (r"(?:useless|broken|rubbish|garbage|ridiculous|pathetic|terrible|awful|appalling|"
              r"shocking|disgraceful|outrageous|unacceptable|incompetent|clueless|hopeless|joke|"
              r"scam|shambles|nightmare|urgent|impossible|hidden|worst)")
"""Words of complaint a customer calls our things by; held up in quotes as a label, a sneer."""
OTHERS = (r"(?:most|nearly all|almost all|the rest of (?:our|the)|lots of|plenty of|many|other|"
          r"thousands of|hundreds of)")
QUICKLY = (r"(?:in (?:under |less than |about |around )?(?:a|one|two|three|five|ten|\d+|a few|a "
           r"couple of) (?:seconds?|minutes?)|in seconds|in no time|on (?:the|their) first (?:try|go|"
           r"attempt)|first time|without (?:any )?(?:help|trouble|problems?|issues?|difficulty|a hitch|"
           r"fuss|needing (?:to|help|us)|writing in|contacting us))")
"""What the other customers are said to manage with ease."""

HARM = (r"(?:(?:this|that|it|none of (?:this|that|it)|any of (?:this|that|it)|the (?:\w+ )?(?:problem|"
        r"issue|breach|compromise|lockout|charge|mess|trouble|situation|takeover|fraud|hack|error|mix-up)"
        r"|(?:this|the) whole (?:\w+ )?(?:mess|thing|situation|episode|business)"
        r"|your (?:account|card|data|details|order))"
        r"(?: \w+)? (?:would|could|might)(?:n't| not| never)?(?: \w+)? (?:have|'ve) "
        r"(?:happened|occurred|arisen|come up|started|gone wrong|got(?:ten)? (?:in|into|out)|ended up \w+"
        r"|been (?:compromised|hacked|breached|taken over|accessed|stolen|locked|charged|an issue|a problem"
        r"|necessary|needed|the case))"
        r"|(?:could|would|might)(?:'ve| have) been (?:\w+ )?(?:avoided|prevented|stopped)"
        r"|(?:we|you) (?:would(?:n't| not)|would never) be "
        r"(?:here|in this (?:\w+ )?(?:situation|position|mess|spot)))")
"""A harm the customer suffered, said not to have come about in a world where they acted otherwise."""
THEIR_ACT = (r"(?:if (?:only )?you(?:'d| had| hadn't| had not|'d not)\b"
             r"(?! (?:any|been charged|received|not received|told us|let us know|contacted us|reached out))"
             r"|had you(?: not)?\b(?! any)|unless you had"
             r"|(?:if your|had your) (?:team|admins?|staff|colleagues?|it team)(?: had)?\b)")
"""The condition of a counterfactual that is the customer's own past act."""
TALKED_DOWN = (r"(?:(?:very|really|extremely|super|the most|the simplest|simplest|the plainest|the most "
               r"basic) (?:simple |basic |plain |easy )?(?:terms|words|language|english|steps)"
               r"|words of one syllable"
               r"|(?:as|so) (?:simply|slowly|plainly|basically) as (?:i|we) (?:can|possibly can)"
               r"|like (?:you're|you are) (?:five|a child|a kid|new to this)|for dummies)")
"""The register of an explanation pitched below the customer."""
REPEATED = (r"(?:one (?:more|last) time|once more|yet again|all over again"
            r"|for the (?:second|third|fourth|fifth|last|final|umpteenth|nth|\w+th) time"
            r"|(?:very |really |nice and |extra |more )?slowly|very simply|(?:so|that) even you)")
"""An explanation said to be given again, or slowly: the customer failed to follow the first."""
MY_EARLIER = re.compile(r"\b(?:my|our) (?:last|earlier|previous|first|original|own) (?:message|reply|"
                        r"email|answer|explanation|response|note)s?\b"
                        r"|\b(?:i|we) (?:wasn't|was not|weren't|were not) (?:very |entirely |fully )?clear\b")
"""We are the ones who explained it badly the first time: saying it again is an apology's act."""


FRAMES = Frames((
    # the customer's past act made the cause of the harm they suffered, in either order
    make_frame("blame",
           rf"\b{THEIR_ACT}[^.!?]{{0,90}}\b{HARM}|\b{HARM}[^.!?]{{0,40}}\b{THEIR_ACT}"
           r"|\byou could(?:'ve| have) (?:easily |so easily |entirely )?(?:avoided|prevented|stopped"
           r"|spared yourself) (?:this|that|it|all (?:this|that)|the \w+)\b"
           r"|\b(?:this|that)(?:'s| is) (?:exactly |precisely )?what happens when "
           r"(?:you|people|customers|users)\b"
           r"|\b(?:this|it|that|all this|all of this) (?:only |simply |just )?happened "
           r"(?:only |simply |just )because you\b"
           r"|\b(?:this|it|that|all this) (?:only|simply|just) happened because you\b",
           SYMPATHY, OUR_FAULT),
    # an explanation pitched below the customer: simple terms, slowly, once more, no confusion this time
    make_frame("incompetence",
           rf"\b(?:in|into|using|with) {TALKED_DOWN}\b|\b{TALKED_DOWN} (?:for you|so (?:that )?you)\b"
           r"|\b(?:so|so that|to make sure|to ensure|to avoid|to prevent|hopefully)\b[^.!?]{0,30}"
           r"\b(?:confusion|misunderstanding|doubt|mix-up)s?\b[^.!?]{0,10}"
           r"\b(?:this time|again|any ?more|on your (?:part|end|side))\b"
           r"|\b(?:confusion|misunderstanding|misreading)s? on your (?:part|end|side)\b"
           r"|\b(?:so|so that) (?:even you|you (?:can|will|'ll|might|may) (?:finally|actually|at last))\b"
           r"|\b(?:understand|follow|get|grasp|see|read)s? (?:it |this |that )?(?:properly |clearly )?"
           r"this time\b"
           r"|\b(?:let me|let us|i'll|i will|we'll|we will|i'm going to|i am going to|allow me to"
           r"|i(?:'ll| will) try to|i can|i have to|i need to|i must)\b(?: \w+){0,2} "
           r"(?:explain|say|repeat|go over|go through|put|spell|tell you|walk you through"
           r"|break (?:it|this|that) down|lay (?:it|this|that) out|run through)"
           rf"\b[^.!?]{{0,40}}\b{REPEATED}\b",
           SYMPATHY, OURS, MY_EARLIER),
    # a reproach of the customer's past act: the benefit their act would have bought
    make_frame("blame",
           rf"\bhad (?:you\b(?! not been)|(?:it|this|that|these|those|the \w+) (?:been|gone|come) (?:in|"
           rf"into|included in|mentioned in|part of|on|with) your\b)[^.!?]{{0,70}}\b(?:would|could|might)"
           rf"(?:n't| not| never)?(?: both| all)?(?:'ve| have)\b[^.!?]{{0,40}}\b{BENEFIT}\b",
           SYMPATHY, OUR_FAULT),
    make_frame("blame",
           rf"\bif (?:only )?you(?:'d| had)\b(?! (?:any|been charged|received|not received|like|wanted|"
           rf"preferred))[^.!?]{{0,80}}\b(?:we|you|this|it|everything|things|i|that)\b(?: \w+)? "
           rf"(?:would|could|might)(?:n't| not| never)?(?: both| all)?(?:'ve| have)(?: both| all)?\b"
           rf"[^.!?]{{0,30}}\b{BENEFIT}\b", SYMPATHY, OUR_FAULT),
    make_frame("blame",
           r"\b(?:it|that|this) would(?:'ve| have) been (?:much |a lot |far |so |a bit |rather )?(?:quicker|"
           r"faster|easier|simpler|better|smarter|wiser|more sensible|sensible|more helpful|helpful|"
           r"nice|good) (?:to|if you(?:'d| had)|for you to|had you) (?!tell you|let you|give you|send "
           r"you|contact you|warn you|inform you)\w+", SYMPATHY, OURS, WE_DO_IT),
    make_frame("blame",
           r"\b\w+ing (?:your|the) [^.!?]{0,40}\bbefore (?:\w+ing|you|the|your)\b[^.!?]{0,40}\b(?:would|"
           r"could|might|will)(?:'ve| have)? (?:avoid|prevent|spare|save|stop)\w*\b", SYMPATHY, OURS),
    make_frame("nuisance",
           r"\b(?:thanks?|thank you|appreciate (?:it|that|you)|grateful) (?:\w+ )?for (?:finally|at "
           r"long last)\b|\b(?:thanks?|thank you) for \w+ing\b[^.!?]{0,30}\bat (?:long )?last\b"),
    make_frame("inattention",
           rf"\b(?:check|read|look|review|search|go through)\w*\b[^.!?]{{0,50}}\b(?:properly|carefully|"
           rf"first|more closely)\b[^.!?]{{0,10}}\bbefore {CONTACT}\b(?: (?:in|out|back|to us|us|support|"
           rf"another \w+))? again\b|(?:^|\bplease |, |; |\band |\bmaybe |\bperhaps |\bjust )(?:check|read|"
           rf"look (?:at|through)|go through|review|search) (?:your|the) (?:\w+ ){{0,2}}?properly\b",
           SYMPATHY, OURS, WE_DO_IT),
    make_frame("inattention",
           r"\b(?:open|use|read|check|click|follow|try|look at|enter|type|do|send)\b[^.!?]{0,50}\bthis "
           r"time,? (?:rather than|instead of|and not|not)\b|\b(?:properly|correctly|carefully|right) "
           r"this time\b", SYMPATHY, OURS, WE_DO_IT),
    make_frame("inattention",
           rf"\b(?:read|check|look|search|consult|google|worth (?:a|an) (?:look|read|glance|check)|worth "
           rf"(?:reading|checking|looking at|a quick look))\w*\b[^.!?]{{0,60}}\bbefore (?:you )?{CONTACT}\b"
           rf"(?! (?:your|the|their|a|an) (?:bank|isp|carrier|provider|courier|card issuer|seller|"
           rf"merchant)\b)", SYMPATHY, OURS, WE_DO_IT, CONDITION, DONE_ALREADY),
    # what the customer missed called obvious: they should have seen it themselves
    make_frame("inattention",
           r"\b(?:as |i(?:'d| would)(?: have)? )(?:i(?:'d| would)(?: have)? )?(?:thought|assumed|expected|"
           r"imagined)(?: (?:it|this|that))? (?:was|would be|is|to be) (?:obvious|clear|self-explanatory|"
           r"common sense|self-evident)\b"
           r"|\bas anyone (?:can|could|would) (?:see|tell)\b"
           r"|\bas (?:is|was|should be|would be) (?:obvious|self-evident) to (?:anyone|everyone|most)\b"
           r"|\b(?:which|it|this|that)(?: really)? (?:should|ought to|must)(?: surely)? (?:be|have been) "
           r"(?:obvious|self-explanatory|common sense|self-evident)\b", OURS),
    # the customer's coming back to us made a burden, or their tone policed
    make_frame("nuisance",
           r"\b(?:gives?|gave|makes?|made|creates?|created|leaves?|left) (?:us|me|the team|our team) "
           r"(?:\w+ )?(?:more|extra|another|two|three|four|five|several|multiple|\d+) (?:\w+ )?(?:tickets|"
           r"messages|emails|threads|cases|work) to (?:merge|read|sort|sort through|deal with|answer|"
           r"close|wade through)\b|\b(?:messages|emails|tickets|calls|chasers|reminders|follow-ups)\b"
           r"(?: \w+){0,2} (?:felt|seemed|were deemed|was deemed) (?:necessary|needed|required|called "
           r"for)\b|\bno (?:need|call|reason) to (?:write|send|open|raise|email|message|call|chase)"
           r"(?: us| in)? (?:a |an )?(?:third|fourth|fifth|sixth|seventh|umpteenth|\d+(?:rd|th))\b"),
    make_frame("sarcasm",
           r"\b(?:than|as) (?:polite|courteous|civil|calm|patient|friendly|nicely worded|reasonable|"
           r"respectful) (?:ones|customers|people|messages|emails|tickets|requests|replies|folks)\b"),
    make_frame("inattention",
           r"\b(?:in (?:the )?future|next time|going forward|from now on),? (?:please |kindly |do |try to |"
           r"perhaps |maybe |it'd help to |it would help to )?(?:read|double-check|look (?:at|through)|take "
           r"(?:a moment|the time)|pay attention|make sure (?:you|to) (?:read|check)|check\b[^.!?]{0,40}\b"
           r"(?:first|properly|carefully|before))\b|\b(?:we'd|i'd|we would|i would) (?:really )?appreciate "
           r"it if you (?:could |would )?(?:read|check|look|took the time|paid attention|double-checked)"
           r"\b[^.!?]{0,50}\b(?:first|properly|carefully|before|in future|next time)\b",
           SYMPATHY, OURS),
    # a comparison to other customers, the customer the exception
    make_frame("incompetence",
           rf"\b{OTHERS} (?:of )?(?:\w+ )?(?:people|customers|users|clients|members|admins|folks|adults)\b"
           rf"[^.!?]{{0,40}}\b{QUICKLY}\b"),
    make_frame("incompetence",
           r"\b(?:everyone|everybody|anyone|all (?:the )?other \w+|the rest of (?:your|the) \w+|every "
           r"other \w+)(?: else)?\b[^.!?]{0,60}\b(?:so|which means|meaning|that means|therefore)\b"
           r"[^.!?]{0,20}\b(?:this|it|that|the (?:problem|issue|fault|trouble|error))(?: one)?(?:'s| is| "
           r"lies| sits| must be| has to be)? (?:squarely |firmly |clearly |definitely )?(?:on|with|at) "
           r"(?:you\b|your (?:side|end|part|setup|computer|browser|machine|network|device|team)\b)"),
    make_frame("incompetence",
           r"\b(?:not everyone|not everybody|few (?:people|customers|users)|not many (?:people|customers|"
           r"users)|most (?:people|customers|users) (?:don't|do not|never))\b[^.!?]{0,20}\b(?:gets? "
           r"(?:round|around) to|bothers?|takes? the (?:time|trouble)|makes? the (?:time|effort))\b"),
    # an evaluative frame about the customer's attention or competence
    make_frame("inattention",
           r"\b(?:a|one|another) (?:second|closer|slower|more careful|careful|proper|fresh|better)(?:,? "
           r"(?:slower|closer|more careful|careful|proper))? (?:look|read|glance|check)\b[^.!?]{0,20}\b"
           r"(?:should|will|would|ought to|might|is all it takes)\b", SYMPATHY, OURS, WE_DO_IT),
    make_frame("inattention",
           r"\b(?:exactly|precisely|right|just) where (?:the|our|your|its|this) (?:\w+ )?(?:documentation|"
           r"docs|guide|instructions|email|message|article|faq|help (?:page|centre|center|article)|page|"
           r"screenshot|video|manual|notice|reminder|link) (?:says|said|shows|showed|puts|put|told you|"
           r"describes|described|points|pointed)\b"),
    make_frame("inattention",
           r"\b(?:is|are|was|were|'s)(?: all)? (?:written|stated|spelled out|spelt out|set out|laid out|"
           r"explained|shown|displayed|printed|listed|marked|described|mentioned) (?:quite|very|perfectly|"
           r"pretty|fairly|really|abundantly|crystal) clearly\b|\b(?:is|are|was|were|'s) (?:quite|very|"
           r"perfectly|pretty|fairly|abundantly|crystal) clearly (?:written|stated|spelled out|spelt out|"
           r"set out|laid out|explained|shown|displayed|printed|listed|marked|described|mentioned)\b|"
           r"\b(?:the|our|your) (?:\w+ )?(?:instructions|steps|terms|policy|email|message|wording|guide|"
           r"page|notice|warning|label|faq) (?:is|are|was|were) (?:perfectly|crystal|abundantly|quite|"
           r"very|really) clear\b", SYMPATHY, OURS, CONDITION),
    make_frame("incompetence",
           r"\byou (?:seem|appear) to (?:think|believe|assume|be under the (?:impression|illusion)|have "
           r"(?:got )?the (?:idea|impression)|imagine)\b|\bcontrary to what you (?:seem to |might |may )?"
           r"(?:think|believe|assume)\b|\b(?:as|which) you (?:should|ought to|really should) (?:know|"
           r"be aware|have (?:seen|read|noticed|known))\b|\byou(?:'d| would) (?:know|have (?:seen|"
           r"noticed|known)) (?:that )?if you(?:'d| had)\b"),
    make_frame("nuisance",
           r"\b(?:not sure|don't know|do not know|unsure) how (?:much )?(?:else|clearer|more clearly|more "
           r"simply|more plainly)\b(?: to)?[^.!?]{0,10}\b(?:put|say|explain|make|phrase|be)\b|\bhow "
           r"(?:many|much) (?:more )?(?:times|ways) (?:i|we) (?:can|have to|need to|must) (?:explain|say|"
           r"tell|repeat)\b|\b(?:let me|to|i'll) spell (?:it|this|that) out\b"),
    make_frame("incompetence",
           r"\bwith (?:all )?due respect\b|\bno offen[cs]e(?: intended)?,? but\b|\b(?:not to be|i don't "
           r"mean to be|without wishing to be) rude\b|\b(?:we're|we are|i'm|i am) (?:not |no )?(?:mind[- ]?"
           r"readers?|psychics?|telepathic|magicians?|miracle workers?)\b"),
    make_frame("stupidity",
           r"\b(?:as|which) (?:i'm|i am|we're|we are) (?:sure|certain) you (?:can |could |will |'ll |would "
           r"|'d |must |already )?(?:appreciate|see|know|agree|realise|realize|tell)\b|\b(?:is|'s) (?:right "
           r"|all )?in the name\b(?! of)|\bhence the name\b|\bas the name (?:suggests|implies)\b"),
    make_frame("inattention",
           r"\b(?:is|are|sits?|lives?|lies|stays?)(?: \w+)? (?:in|under|on|at) [^,.!?;]{1,30}, (?:exactly |"
           r"right |just )?where (?:it|they)(?:'s| has| have|'ve) always been\b",
           SYMPATHY, STILL),
    make_frame("inattention",
           r"\b(?:window|limit|deadline|period|policy|terms|rule|requirement|fee|price|date|condition|"
           r"cut-?off)s? (?:is|are|was|were|'s) (?:stated|written|shown|displayed|marked|explained|spelled "
           r"out|spelt out|set out|laid out|printed|listed) clearly\b|\bso,? (?:i'm|i am|we're|we are) "
           r"(?:not sure|unsure|not clear) what (?:else |more )?you (?:were|are|had been) (?:expecting|"
           r"hoping for|thinking)\b", SYMPATHY, OURS, CONDITION),
    make_frame("incompetence",
           r"\b(?:don't know|do not know|not sure|no idea|unsure) (?:where|why) you(?:'d| would)? (?:got|get|"
           r"think|assume|imagine|have got)\b(?: (?:the idea|that idea|that impression|that from|the "
           r"impression))?|\b(?:which|what) part of\b[^.!?]{0,40}\b(?:don't|do not|didn't|did not) you "
           r"(?:understand|get|follow)\b|\b(?:someone|somebody|a friend|a colleague|a relative|a family "
           r"member)(?: \w+)? (?:more |a bit more |who is more )?(?:tech-savvy|technical|technically "
           r"minded|good with (?:computers|technology|tech))\b"),
    make_frame("nuisance",
           r"\b(?:you're|you are) not (?:our|the) only (?:customer|client|user|one)\b|\b(?:we|i) (?:do )?"
           r"have other (?:customers|clients|tickets|cases|people)\b|\b(?:wait|queue|be patient|take your "
           r"turn)\b[^.!?]{0,30}\b(?:like|same as) (?:everyone|everybody|anyone|all the others|all our "
           r"other customers)(?: else)?\b|\b(?:hope(?:fully)?|trust) (?:that|this|it)(?:'s| is)? "
           r"(?:clear|clearer|understood) now\b|\bthanks? (?:you )?for (?:eventually|at last)\b|\b(?:nice|"
           r"good|kind|thoughtful|decent) of you to (?:finally|eventually|at last)\b"),
    make_frame("sarcasm",
           r"\bcalm down\b|\b(?:let's|let us|please|we ask that you|kindly) keep (?:this|things|it|the "
           r"conversation|your messages) (?:civil|polite|professional|respectful|calm)\b|\b(?:no|there's "
           r"no|there is no) (?:need|reason|call) to (?:get |be |sound )?(?:so )?(?:upset|worked up|angry|"
           r"heated|aggressive|rude|hostile|shout\w*|yell\w*|dramatic|hysterical)\b"),
    # the customer's view belittled
    make_frame("stupidity",
           r"\b(?:rather|kind of|sort of|somewhat) the (?:whole )?point\b|\b(?:that's|that is|which is) "
           r"the whole point\b"),
    make_frame("stupidity",
           r"\b(?:isn't|is not|wasn't|was not|aren't|are not) (?:really|exactly|quite|actually) what "
           r"(?:a|an|the|our|your) (?:\w+ ){0,2}?(?:is|are|was|were|exists?) (?:for|meant for|designed "
           r"for|there for|intended for)\b"),
    make_frame("stupidity",
           r"\b(?:isn't|is not|wasn't|was not|aren't|are not|not) even (?:due|late|overdue|expected|"
           r"scheduled|past (?:due|its \w+))\b"),
    make_frame("stupidity",
           r"\b(?:i'm sure|surely|you can probably|i think you can|no doubt) you (?:can |could )?(?:see|"
           r"tell) why\b"),
    make_frame("mockery",
           rf"\b(?:the|your|our|this|that|these|those|such a) ['\u2018\u201c\"](?:a |an |so |completely |"
           rf"totally |utterly )?{PEJORATIVE}['\u2019\u201d\"] \w+|\bthe (?:bigger|biggest|real|only|"
           rf"actual) joke\b"),
    make_frame("stupidity",
           r"\b(?:isn't|is not|aren't|are not|wasn't|was not|doesn't|does not) (?:\w+ )?(?:lost|missing|"
           r"late|broken|faulty|delayed|overdue|stolen|an emergency|a duplicate|a problem|an error|wrong) "
           r"(?:simply|just|merely|only) because\b"),
    make_frame("dishonesty",
           r"\bis what (?:everyone|everybody|they all|all of them|every customer|most people|people "
           r"always|customers always) (?:says?|tells? us|claims?|writes?)\b|\b(?:we|i) (?:get|see|have|"
           r"hear from) (?:a lot of|lots of|plenty of|many|so many|a fair few|no shortage of) (?:people|"
           r"customers|folks|requests|messages|emails)\b[^.!?]{0,20}\b(?:trying|doing|pulling|claiming|"
           r"saying|attempting|pretending) (?:that|this|the same|it)\b"),
    # the customer's honesty doubted without the word
    make_frame("dishonesty",
           r"(?:\bnot\b|n't\b|\bcannot\b|\bnever\b|\bno longer\b|\bunable to\b)[^.!?]{0,40}\b(?:take|"
           r"taking|accept|accepting)\b[^.!?]{0,25}\b(?:on trust|on faith|your word|at your word|your "
           r"say-so|word for it)\b", SYMPATHY, WELCOMED),
    make_frame("dishonesty",
           r"\b(?:(?:it|this|that|the \w+|the account|the card|the order)(?:'s| is| was| were) (?:really|"
           r"actually|genuinely|truly) (?:yours|your own)|(?:or|just|probably|maybe|likely|a lucky|a wild) "
           r"(?:a )?(?:guess|guesswork)|you(?:'re| are| were) (?:just |simply |only )?guessing)\b|"
           r"\b(?:run|streak|spate|string) of (?:bad |terrible |rotten )?luck\b|\b(?:quite a|such a|"
           r"remarkable|curious|funny|strange|convenient|unlucky) coincidence\b|\b(?:dressed up|passed "
           r"off|disguised|masquerading|presented) as (?:a|an)\b|\b(?:draw|drawing) your own "
           r"conclusions?\b|\bmake of (?:that|this|it) what you (?:will|like|want)\b|\b(?:need i|need we) "
           r"say more\b|\benough said\b|\bread into (?:that|this|it) what you\b"),
    make_frame("dishonesty",
           r"\b(?:if|assuming|supposing) (?:that's|that is|this is|it's|it is|your (?:story|account|"
           r"version)(?: is)?) (?:(?:really|actually|even) (?:true|what happened)|what (?:really|actually) "
           r"happened)\b|"
           r"\bjust because you (?:ask\w*|complain\w*|demand\w*|shout\w*|insist\w*|threaten\w*|want it|"
           r"are unhappy|keep asking|wrote in|chased)\b|\byou (?:get|got) what you pa(?:y|id) for\b",
           SYMPATHY, OURS),
    # sympathy worn as sarcasm: the grievance shrunk to the customer's unmet expectations
    make_frame("sarcasm",
           r"\bwhen (?:things|life|the world|everything|it|reality|events|stuff)\b[^.!?]{0,25}\b(?:don't|"
           r"doesn't|do not|does not|didn't|did not|won't|fail to|refuses? to)\b[^.!?]{0,20}?\b(?:(?:go|work "
           r"out|turn out|pan out|play out|happen|behave|bend)\b[^.!?]{0,12}?)?(?:(?:exactly|precisely|quite|"
           r"perfectly) )?(?:(?:the way|how|as) you (?:had |have |might have |may have |had personally )?"
           r"(?:imagined|pictured|envisioned|envisaged|fantasi[sz]ed|dreamed|dreamt|wished|decided|demanded|"
           r"would like|would prefer|'d like|'d prefer)|(?:the way|how|as) you (?:wanted|expected|planned|"
           r"hoped)(?: (?:them|it) to)?,? (?:exactly|precisely|to the letter)|(?:exactly|precisely) (?:the "
           r"way|how|as) you \w+|your way|to your (?:liking|taste|exact)|according to your (?:plan|script|"
           r"wishes))\b"
           r"|\b(?:not getting|don't get|do not get|didn't get|can't have|cannot have) (?:your (?:own )?way|"
           r"everything you want)\b|\b(?:the world|life|everything) (?:doesn't|does not|won't|will not)"
           r" (?:always )?revolve around you\b|\b(?:life|the world|things|everything|reality)\b[^.!?]{0,25}"
           r"\b(?:bend|conform|revolve)s? (?:itself |themselves )?(?:to|around) (?:your "
           r"(?:wishes|will|whims|liking|expectations|demands|schedule)|you)\b", OURS),
    # the customer's honesty doubted: their account set against ours, not believed
    make_frame("dishonesty",
           r"\b(?:(?:grain|pinch|spoonful|dose|bucket|handful) of salt)\b"
           r"|\b(?:tells?|told|paints?|painted|shows?|showed|suggests?|suggested|gives?|tell) (?:quite "
           r"|rather |a rather |a very |a somewhat |a slightly |an entirely |a completely |a quite )?"
           r"(?:a |an )?"
           r"(?:rather |very |somewhat |slightly |entirely |completely |quite )?(?:different|another|other|"
           r"contrary|conflicting) (?:story|picture|tale|version|account)\b[^.!?]{0,25}\b(?:from|than|to) "
           r"(?:yours|your (?:own )?(?:account|version|story|telling|recollection|memory))\b"
           r"|\b(?:your|the customer's) (?:version|story|telling|recollection|tale|account) (?:of (?:events|"
           r"things|what happened) )?(?:doesn't|does not|don't|do not|isn't|is not|won't|will not)(?: \w+)? "
           r"(?:quite |really |entirely |exactly )?(?:add up|stack up|hold up|hold water|check out|ring true|"
           r"square|tally|convince|match (?:up|ours|what))\b"
           r"|\b(?:forgive|excuse|pardon) (?:me|us) if (?:i|we)(?: \w+)? (?:doubt|question|remain (?:\w+ )?"
           r"(?:sceptical|skeptical|unconvinced|doubtful)|am (?:\w+ )?(?:sceptical|skeptical|unconvinced|"
           r"doubtful)|are (?:\w+ )?(?:sceptical|skeptical|unconvinced|doubtful)|don't (?:quite |entirely |"
           r"fully )?(?:believe|buy|accept)|do not (?:quite |entirely |fully )?(?:believe|buy|accept)|take "
           r"(?:that|this|it|your)|have (?:my|our|some) doubts|find (?:that|this|it) hard)\b"
           r"|\b(?:(?:i|we)(?:'m| am|'re| are) (?:a (?:little|bit) |somewhat |rather |not (?:entirely "
           r"|fully |quite )?)?(?:sceptical|skeptical|unconvinced|doubtful|convinced) (?:of|about"
           r"|by) your (?:story|"
           r"version|account|claim|explanation|telling))\b", SYMPATHY, WELCOMED),
    # a lesson drawn from the customer's harm: their act the cause, the harm their comeuppance
    make_frame("blame",
           r"\b(?:exactly|precisely|just|typically|usually|always|classic(?:ally)?|textbook)?,? ?(?:how|why) "
           r"(?:people|customers|users|folks|accounts|most people|someone|anyone|somebody|you|they)\b"
           r"[^.!?]{0,30}\b(?:end up|ends up|wind up|winds up|land|lands|find themselves|get themselves|"
           r"get caught|get hacked|get scammed|get burned|get burnt|get into) (?:in |with |into )?"
           r"(?:this|that|these|such a|a|the same|your|trouble|hot water|a mess)\b(?: \w+)?(?: (?:mess"
           r"|trouble|situation|"
           r"pickle|predicament|position|spot|jam|hole|fix|bind|state))?"
           r"|\b(?:as|which|something|what|a lesson) you(?:'ve| have)? (?:now |just |since |probably |"
           r"clearly |certainly |painfully )?(?:discovered|found out|learned|learnt|realised|realized|"
           r"worked out|seen for yourself)\b[^.!?]{0,25}\b(?:the hard way|first-?hand|for yourself|to your "
           r"cost)\b|\byou(?:'ve| have| had|'d)?\b[^.!?]{0,40}\b(?:the hard way|to your cost)\b"
           r"|\b(?:lesson (?:learned|learnt)|let (?:this|that) be a lesson|"
           r"live and learn|serves? (?:you|them) right|you reap what you sow)\b", SYMPATHY, OUR_FAULT),
    make_frame("sarcasm",
           r"\bif (?:[\w']+ ){1,4}(?:were|was|had been) (?:really|truly|genuinely|actually|honestly) "
           r"[^.!?]{0,40}\b(?:you|they|he|she) (?:probably |surely |certainly |hardly |presumably )?"
           r"(?:wouldn't|would not|would never|would hardly|would've|would have)\b|\bbut anyway!"),
))
"""The frames of contempt read by the sentence's act on the customer, in the order they are
read."""


def contempt(plain: str) -> str | None:
    """The words of the first contempt a frame of :data:`FRAMES` finds in a sentence of ``plain``
    (lower case) that none of the frame's guards holds for, or None."""
    return first_frame(FRAMES, plain)


_LEET_MORE = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g",
                            "!": "i", "|": "l"})
_MIXED = re.compile(r"(?<![\w$@.-])(?=[a-z0-9!|]*[a-z])(?=[a-z0-9!|]*[0-9!|])[a-z0-9!|]+(?![\w@-])")
_UNIT = re.compile(r"^\d+(?:st|nd|rd|th|h|hr|hrs|m|min|mins|s|am|pm|k|x|d|fa|gb|mb|kb|tb|ms)$")
_TEXT_SPEAK = ((re.compile(r"(?<![\w'])ur(?![\w'])"), "you're"),
               (re.compile(r"(?<![\w'])u(?![\w'])"), "you"), (re.compile(r"(?<![\w'])r(?![\w'])"), "are"),
               (re.compile(r"(?<![\w'])ppl(?![\w'])"), "people"),
               (re.compile(r"(?<![\w'])(?:pls|plz)(?![\w'])"), "please"),
               (re.compile(r"(?<![\w'])(?:cuz|coz|bc)(?![\w'])"), "because"))
"""Text-speak a disguised insult is written in ("ur too dumb"), read as its words."""


def read_through(plain: str) -> str:
    """``plain`` (lower case, as :func:`graders.meaning.deobfuscate` left it) read through a
    thicker disguise: a word that mixes letters with the digits or marks leetspeak writes them
    with is read as letters wherever they stand ("t00", "dum8": the reading 3.4 shares leaves a
    token ending in digits, which an id may be, as written), and text-speak ("ur", "u", "r") as its
    words. Only contempt is read on it (:func:`graders.statements.secrets_and_abuse`): a figure
    misread as a letter there decides nothing."""
    out = _MIXED.sub(lambda m: m.group() if _UNIT.match(m.group()) else m.group().translate(_LEET_MORE),
                     plain)
    for pattern, words in _TEXT_SPEAK:
        out = pattern.sub(words, out)
    return out
