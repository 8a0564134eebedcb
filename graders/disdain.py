"""Contempt for the customer read by what it does to them, as grader 3.6 reads it beside 3.5's.

Fresh adversaries, who had not seen 3.5, wrote contempt that none of its frames read, in civil
words. What they do to the customer falls under a few acts, each read here by its shape rather
than by a telling word:

* **silencing**: the customer told to stop writing, to stop opening or reopening tickets, that
  their messages slow everyone down, or that we will stop answering them ("I'd appreciate it if
  you didn't open new tickets about the same thing", "I'm going to stop responding to this
  thread", "there's no need to contact us again about this; the matter is closed");
* **talking down**: an explanation pitched below them ("I'll keep it very simple for you", "let me
  put this in simpler terms", "a tricky concept for beginners"), mock blessing or indulgence
  ("bless you for trying", "I'll humour this one"), patience or understanding doubted ("which I
  realise may be a stretch", "as even you can appreciate");
* **threatening**: their account's future tied to their conduct ("accounts that keep escalating
  like this get reviewed for suspension", "we're getting close to that line", "whether your
  account is a good fit for our service", "a different product would be a better fit");
* **blaming**: the fault put on them or their side ("double-check your own settings before
  assuming the problem is on our side", "the problem sits between the keyboard and the chair",
  "not something we can be blamed for", "it works perfectly for everyone else", "why you have no
  backup plan", "you didn't read the terms you agreed to", "unfamiliar with the basics");
* **belittling**: their concern or view made small or mocked ("a pretty minor issue in the grand
  scheme of things", "interesting theory", "leave the diagnosis to the engineers", "your feedback
  ... will be weighed accordingly", "I'll pretend I didn't see the all-caps", a complaint word in
  scare quotes shown to be wrong: a 'double charge' that was actually two orders);
* **lumping**: the customer put in a class of bad customers ("people who don't bother with the
  basics", "refund requests like this one, from customers who clearly used the product").

A sentence that shares the customer's feeling or apologises guards every frame, as in 3.4 and 3.5
(:data:`graders.implied.SYMPATHY`), unless a "but" turns it; a sentence where we are the ones at
fault (:data:`graders.implied.OURS`) guards the blaming frames. Only
:data:`graders.statements.READING_3_6` reads any of this (``Reading.fairer``).
"""

from __future__ import annotations

import re

from graders.implied import OURS, SYMPATHY, Frame, Frames, first_frame, make_frame

CONTACTING = (r"(?:contact\w*|writ\w+|wrote|messag\w+|email\w*|e-mail\w*|chas\w+|follow\w* up|open\w* "
              r"(?:new |more |another |extra |duplicate )?(?:tickets?|cases?|threads?|requests?)|reopen\w*|"
              r"re-open\w*|send\w* (?:more|another|further|new) (?:messages?|emails?|tickets?)|flood\w*|"
              r"spam\w*|bombard\w*|escalat\w+|call\w* us|raising (?:this|it))")
"""The customer's coming to us, which a silencing sentence tells them to stop."""
REPEATEDLY = (r"(?:again|every (?:few |couple of )?(?:hours?|days?|minutes?)|(?:about|over|on|regarding) "
              r"the same (?:thing|issue|matter|topic|problem)|(?:with |these |those )?(?:duplicate|repeated|"
              r"multiple|endless|constant|more) (?:tickets?|messages?|emails?|cases?)|like this|so often|"
              r"over and over|repeatedly|any ?more)")
"""What makes the customer's contact a nuisance in a silencing sentence."""
SIMPLE = (r"(?:very |really |extra |super |nice and |as )?(?:simple|simpler|basic|easy|plain|short|"
          r"straightforward)(?: as (?:possible|i can))?")
SIMPLER = (r"(?:(?:very|really|extra|super|nice and|as) (?:simple|basic|easy|plain|short|straightforward)|"
           r"simpler|basic|dumbed[- ]down)")
"""An explanation pitched low: "very simple" for the customer talks down; "simple" alone (I want
to make this simple for you) is a kindness."""


FRAMES = Frames((
    # silencing: stop writing, stop opening tickets, we will stop answering
    make_frame("nuisance",
           rf"\b(?:if you (?:would|could) (?:stop|refrain from|avoid|not)|(?:you )?(?:stopped|didn't|did not"
           rf"|would stop|would not|wouldn't|refrain(?:ed)? from|avoid(?:ed)?|(?:please )?stop|no need to|"
           rf"there's no need to|there is no need to|no reason to|don't|do not) )(?!hesitate)(?:\w+ ){{0,2}}"
           rf"{CONTACTING}"
           rf"\b[^.!?]{{0,60}}\b{REPEATEDLY}"),
    make_frame("nuisance",
           r"\b(?:repeated|duplicate|constant|multiple|endless|all (?:these|those|the)|your) (?:follow-ups|"
           r"messages|emails|tickets|chasers|reminders|calls)(?: like (?:this|these|yours))? (?:only |just |"
           r"simply |really )?(?:slow|clog|block|delay|hold up|push|bury|flood|waste)"),
    make_frame("nuisance",
           r"\b(?:i(?:'m| am)|we(?:'re| are)) (?:going to|about to|now going to|now) (?:stop|cease"
           r"|no longer be)"
           r" (?:respond|repl|answer|engag|writ)\w*|\bi(?:'ll| will) stop (?:respond|repl|answer|engag)\w*"
           r"|\b(?:close|closing|closed) (?:this|it|the (?:ticket|thread|case))(?: now)? so (?:that )?we can "
           r"(?:both|all) move on|\b(?:suggest|recommend|advise|ask that you|ask you) (?:not|against) "
           r"(?:reopen|re-open|open|contact|writ|escalat|rais)\w*"
           r"|\bno need to (?:contact|write to|email|chase|message) us again\b[^.!?]{0,40}\b(?:closed|final|"
           r"end of|settled|nothing more)"),
    # talking down: pitched below the customer, blessed, humoured, their patience doubted; sympathy
    # said first does not excuse it ("I understand it may feel complicated, so I'll keep it simple")
    Frame("incompetence", re.compile(
           rf"\b(?:keep|make|put|explain|say|spell)(?:ing)? (?:it|this|things"
           rf"|that)(?: out)? (?:in )?{SIMPLER}"
           rf"(?: terms)? (?:for you|so (?:that )?you)\b|\b(?:put|explain)(?:ing)? (?:this|it|that) (?:in"
           rf"|into) "
           rf"{SIMPLE} (?:terms|words|language)\b[^.!?]{{0,60}}\b(?:since|as|because|didn't|did not|clearly|"
           rf"obviously|apparently)\b|\b(?:concept|topic|idea|thing)s? for (?:beginners|novices|newcomers|"
           r"non-technical (?:people|users)|people new to)\b"
           r"|\bbless (?:you|your heart|your (?:little )?soul)\b|\bi(?:'ll| will) humou?r (?:you|this|it)\b"
           r"|\b(?:may|might|could) be (?:a (?:bit of a |big )?stretch|asking a lot|too much to ask)\b"
           r"|\beven you (?:can|could|will|would|should|might)\b|\bas i(?:'m| am) sure even\b"
           r"|\bgreat that you(?:'re| are) (?:trying|starting|beginning|learning) to (?:understand|learn|"
           r"figure|get)\b|\bpretend (?:i|we) (?:didn't|did not|never) (?:see|read|notice)\b"), ()),
    # threatening the account over the customer's conduct
    make_frame("threat",
           r"\b(?:accounts?|customers?|users?|people) (?:that|who) (?:keep|continue|repeatedly|persist)\w*"
           r"[^.!?]{0,60}\b(?:suspen\w+|restrict\w*|ban\w*|terminat\w+|clos\w+|review\w*|flag\w*|block\w*)"
           r"|\b(?:abusive|hostile|rude|aggressive|threatening) (?:messages|language|behaviou?r"
           r"|tone)[^.!?]{0,60}"
           r"\b(?:suspen\w+|restrict\w*|ban\w*|terminat\w+|clos\w+|lock\w*)"
           r"|\b(?:getting|coming|moving|edging) (?:close|closer|near|nearer) to (?:that|the) (?:line|limit"
           r"|point)"
           r"|\bwhether (?:your (?:account|business|company)|you) (?:is|are|would be|(?:really )?(?:is"
           r"|are) )?"
           r"(?:really )?(?:a )?(?:good|right|great) (?:fit|match)\b"
           r"|\b(?:a )?(?:different|another|other) (?:product|provider|service|company|vendor|platform)s? "
           r"(?:would|might|may|could) (?:be|suit you) (?:a )?(?:better|more suitable)"
           r"|\bif (?:this|it|that|the tone|the abuse|the shouting) (?:keeps|carries|continues|goes) (?:up"
           r"|on)\b"
           r"[^.!?]{0,80}\b(?:account|service|suspen\w+|clos\w+|review|terminat\w+)"),
    # blaming: the fault put on the customer or their side
    Frame("blame", re.compile(
           r"\b(?:double-?check\w*|check\w*|look\w* at|review\w*) your own (?:\w+ )?(?:settings|setup"
           r"|config\w*|"
           r"statement|records?|inbox|spam|code|network|devices?)\b[^.!?]{0,40}\bbefore\b"
           r"|\bbefore (?:assuming|deciding|concluding|claiming|accusing"
           r"|insisting)\b[^.!?]{0,50}\b(?:our (?:side|"
           r"end|fault|problem)|on us|we (?:are|were) (?:at fault|to blame)|(?:is|was) broken)"
           r"|\bbut so (?:are|am|do|have|is) (?:we|i)\b"), (SYMPATHY,)),
    # (where the fault is said to be ours, only in what the customer is told not to assume: no guard of ours)
    make_frame("blame",
           r"\bbetween the (?:keyboard|screen) and the chair\b|\b(?:pebkac|user error|operator error"
           r"|id-?10-?t)\b"
           r"|\b(?:not|hardly|isn't|is not) (?:really |exactly )?(?:something|anything) (?:we|i) (?:can"
           r"|could|"
           r"should) (?:be )?(?:blamed|held responsible|held accountable)\b"
           r"|\b(?:works|working|worked) (?:perfectly|fine|flawlessly|without (?:a|any) (?:problem|issue"
           r"|hitch)s?)"
           r" for (?:everyone|everybody|all (?:our )?other|every other)"
           r"|\bwhy you (?:have|had|don't have|didn't have) no (?:backup|back-up|plan|contingency|redundancy)"
           r"|\b(?:didn't|did not|never|don't|do not) (?:bother(?:ed)? to )?read (?:the |our |any )?(?:terms|"
           r"policy|policies|instructions|docs|documentation|faq|help|guide|manual|agreement|email)"
           r"(?: (?:you|that you) (?:agreed|signed|accepted))?"
           r"|\bunfamiliar with (?:the )?basics\b|\b(?:people|customers|users|folks) who (?:don't|do not"
           r"|never|"
           r"can't be bothered to|won't) (?:bother|read|check|look)\b"
           r"|\b(?:ask|wonder|question) (?:yourself )?why you\b[^.!?]{0,40}\b(?:no|never|didn't|did not)\b"
           r"|\b(?:could|would|might)(?:'ve| have) been (?:avoided|prevented|spared|sorted|quicker|easier)\b"
           r"[^.!?]{0,50}\b(?:on your (?:side|end|part)|(?:your|of) (?:attention|care|reading|checking"
           r"|patience))",
           SYMPATHY, OURS),
    # belittling the concern or the view
    make_frame("stupidity",
           r"\bin the (?:grand|great|bigger) scheme of things\b|\b(?:pretty|rather|fairly|quite|very|really|"
           r"relatively) (?:minor|small|trivial|insignificant|petty) (?:issue|problem|matter|thing|"
           r"inconvenience|complaint)\b[^.!?]{0,10}$"
           r"|\b(?:interesting|creative|bold|fun|cute|nice) (?:theory|idea|guess|take|diagnosis|hypothesis)\b"
           r"|\bleave (?:the )?(?:diagnosis|diagnosing|technical (?:stuff|side|bits|details)|engineering|"
           r"troubleshooting|thinking|experts? (?:work|stuff)) to\b"
           r"|\b(?:mostly|mainly|largely|just|pure|all) noise\b"
           r"|\b(?:noted|filed)\b[^.!?]{0,30}\bweighed accordingly\b|\b(?:will|may|might) (?:likely "
           r"|probably )?"
           r"be (?:weighed|given the weight|taken) accordingly\b"
           r"|\b(?:an?|the|your|this) ['\"\u2018\u201c][\w -]{2,30}['\"\u2019\u201d] (?:that|which) "
           r"(?:was|were|turned out|is"
           r"|are) "
           r"(?:actually|really|in fact|just|simply)\b"),
    # lumping the customer with bad customers
    make_frame("blame",
           r"\b(?:requests?|messages?|tickets?|complaints?|people|customers?|users?) like (?:this one|yours"
           r"|you)"
           r"\b[^.!?]{0,60}\b(?:don't bother|do not bother|changed their minds?|clearly used|exactly why|"
           r"abuse|waste|noise|panic|never read|can't be bothered|the reason (?:we|our))"
           r"|\bfor someone who (?:says|claims|calls|insists)\b[^.!?]{0,60}\byou (?:seem|appear|don't|do not|"
           r"can't|cannot)\b|\bi can (?:also )?tell you (?:didn't|did not|haven't|have not|never)\b"
           r"|\b(?:not|you're not|you are not) the first (?:person|customer|one) to (?:panic|freak|overreact|"
           r"get worked up|make this mistake)", SYMPATHY, OURS),
))
"""The frames of contempt grader 3.6 reads beside 3.5's, in the order they are read."""


def contempt(plain: str) -> str | None:
    """The words of the first contempt a frame of :data:`FRAMES` finds in a sentence of ``plain``
    (lower case) that none of the frame's guards holds for, or None."""
    return first_frame(FRAMES, plain)
