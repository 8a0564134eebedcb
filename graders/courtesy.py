"""What a reply does to the customer, as grader 3.9 reads it beside 3.8's.

Round 11 of the sweeps (written blind to 3.8) found two kinds of misreading. Honest sentences that
careful agents write lost the reply:

* a reassurance that the customer need not write again, because we will update them ("There's no
  need to email again; we'll update you here", "Please don't worry about writing in again, we'll
  keep you posted"), which 3.6 read as silencing;
* an instruction inside a condition ("resending the link won't change your password until you
  click it"), which 3.4 read as instructions given as to a child ("you click it.");
* a secret named to say we do not need or see it ("Our support staff can't see your password, and
  we never need it"), or asked for by a message that the sentence says is not ours ("An email
  asking you to confirm your card details isn't from us"), which earlier versions read as asking.
* an idiom that is our own act with its verb contracted ("We'll deal with it today"), which 3.7
  read as "deal with it" said to the customer; and the reverse, an idiom after an order to the
  customer ("perhaps take a moment to calm down"), which 3.7 read as someone else's act.

And contempt in civil words kept scoring, each a kind of act rather than a word:

* **the customer's manner corrected**: told to calm down or take a deep breath, to be "more
  reasonable", to keep their messages "to the point", that capital letters do not move the ticket;
* **mock praise of a basic act**: "wonderful that you finally found our support address",
  "impressive how many times you've managed to write in";
* **the fault put on their side**: the problem "doesn't appear to be on our side", "mistakes
  customers make with their own accounts";
* **their competence doubted in general terms**: "if you don't use computers much", "not everyone
  is technical";
* **their contact made a burden**: more time spent "than it really warrants", feedback noted
  "along with your previous three", "I trust this settles the matter and that we won't need to
  revisit it again", "this isn't the most unusual request we've had from you";
* **lumped with careless customers**: messages "usually from people who skipped the setup guide".

Each frame reads the act by its shape (who is aimed at, what is implied of them), so a paraphrase
of the same act reads as it does; sympathy does not excuse them (:data:`UNEXCUSED`), and where an
honest sentence shares a frame's words, a guard says why (:data:`graders.implied.OURS`: a fault
that is ours). Only :data:`graders.statements.READING_3_9` reads any of this (``Reading.kinder``).
"""

from __future__ import annotations

import re

from graders.implied import OURS, Frame, Frames, first_frame, make_frame
from graders.normalize import SENTENCE_END, sentence_of
from graders.tone import Finder

UNEXCUSED = re.compile(r"(?!)")
"""A guard that never holds: a show of sympathy does not excuse these frames."""
CUSTOMERS = r"(?:people|customers|users|folks|clients|those|anyone|someone|somebody|account holders)"
"""A class of people the customer may be put in."""
LAPSE = (r"(?:skip\w*|didn't|did not|don't|do not|never|haven't|have not|failed to|forg[eo]t\w* to"
         r"|ignor\w*|overlook\w*|(?:can't|couldn't|can not|cannot) be bothered)")
"""A failure to do the small thing the customer was meant to do."""
GUIDANCE = (r"(?:read\w*|check\w*|follow\w*|look\w*|set ?up|setup|guide|instructions|manual|docs"
            r"|documentation"
            r"|faq|help (?:cent(?:er|re)|page|article)s?|terms|emails?)")
"""What a careful customer reads or follows."""
SMALL_ACTS = (r"(?:found|find|read|replied|reply|checked|check|managed|figured|noticed|decided|opened"
              r"|followed|tried|worked out|got round|gotten round|located|discovered|seen|spotted|clicked"
              r"|logged in|signed in|looked)")
"""A basic act whose doing is mocked as an achievement."""
MANNER_NOUNS = r"(?:messages|emails|replies|questions|correspondence|complaints|comments|tickets|notes)"
BETTER_CONDUCT = (r"(?:reasonable|realistic|rational|sensible|measured|civil|polite|patient|courteous"
                  r"|respectful|calm|understanding|cooperative|co-operative)")


THIRD_PARTY = re.compile(r"\b(?:banks?|card (?:issuer|provider)s?|issuers?|carriers?|couriers?|postal"
                         r"|provider|isp|network|payment processor|processor|third[- ]party|partner|vendor"
                         r"|supplier|upstream)\b")
"""Someone else the fault is placed with ("the delay isn't on our side; banks take a few days"):
not the customer's side."""


def _frame(implies: str, pattern: str, *guards: re.Pattern[str]) -> Frame:
    return make_frame(implies, pattern, *(guards or (UNEXCUSED,)))


FRAMES = Frames((
    # the customer's manner corrected
    _frame("mockery", r"\b(?:calm (?:down|yourself)|(?:take )?(?:a )?deep breaths?|take a breath"
                      r"|compose yourself|cool (?:off|down)|settle down|simmer down)\b"),
    _frame("mockery", rf"\b(?:a little|a bit|slightly|much|far|somewhat|rather)? ?more {BETTER_CONDUCT}\b"
                      rf"[^.!?]{{0,30}}\b(?:expectations?|demands?|requests?|tone)\b"
                      rf"|\byour (?:expectations?|demands?|tone)\b[^.!?]{{0,30}}\bmore {BETTER_CONDUCT}\b"
                      rf"|\byou (?:could|would|can|might|will|should)\b[^.!?]{{0,30}}\bbe (?:a little |a bit "
                      rf"|slightly |much |somewhat )?more {BETTER_CONDUCT}\b"),
    _frame("mockery", rf"\b(?:keep|keeps|keeping|kept)\b (?:your |all )?(?:future |further )?{MANNER_NOUNS}\b"
                      rf"[^.!?]{{0,20}}\b(?:to the point|short|shorter|brief|briefer|concise|on topic|civil"
                      rf"|polite|professional|to a minimum|focused)\b"),
    _frame("mockery", r"\b(?:writing|typing|shouting|emailing|messaging|replying) in (?:all |block )?"
                      r"(?:capital letters|caps|capitals|upper ?case)\b"
                      r"|\b(?:capital letters|all caps|all-caps|block capitals"
                      r"|exclamation (?:marks|points))\b[^.!?]{0,40}"
                      r"\b(?:doesn't|does not|won't|will not|don't|do not|can't|cannot)\b"),
    # mock praise of a basic act
    _frame("mockery", rf"\byou(?:'ve| have)? (?:finally|at last|eventually) {SMALL_ACTS}\b", OURS),
    _frame("mockery", r"\b(?:impressive|remarkable|amazing|astonishing|quite something|quite a feat) how "
                      r"(?:many|often|much|quickly|long)\b"),
    # the fault put on the customer's side
    _frame("blame", r"\b(?:problem|issue|fault|error|mistake|trouble|cause|glitch)\b[^.!?]{0,40}"
                    r"\b(?:isn't|is not|doesn't|does not|don't|do not|wasn't|was not|isn't really|not)\b"
                    r"(?: \w+){0,3}? "
                    r"(?:on|at|with|from|in) (?:our|my) (?:side|end|systems?|part)\b", THIRD_PARTY),
    _frame("blame", r"\bmistakes? (?:that )?(?:customers|users|people|you|clients|account holders) (?:\w+ )?"
                    r"(?:make|made|have made|keep making)\b|\b(?:customers|users|people|clients)' own "
                    r"(?:mistakes?|errors?|doing)\b"),
    # competence doubted in general terms
    _frame("condescension", r"\bnot everyone(?: is|'s)? (?:\w+ )?(?:technical|tech-savvy|tech savvy|good with"
                            r"|comfortable with|confident with|great with|an expert|computer[- ]literate"
                            r"|a computer person)\b"),
    _frame("condescension", r"\bif you (?:don't|do not|aren't|are not|rarely|seldom|never|haven't|have not)"
                            r"(?: \w+)? (?:use|used|familiar with|good with|comfortable with|great with"
                            r"|confident with|understand|know much about) (?:computers|technology|tech|the "
                            r"internet|email|smartphones|phones|apps|software|online)\b"),
    # the customer's contact made a burden
    _frame("nuisance", r"\b(?:more time|longer|more effort|more attention|more of our time)\b[^.!?]{0,40}"
                       r"\bthan "
                       r"(?:it|this|that|the (?:issue|matter|request|question|ticket)) (?:really |honestly "
                       r"|strictly |perhaps )?(?:warrants|deserves|merits|needs|requires|calls for)\b"
                       r"|\b(?:spent|wasted|given) (?:quite )?(?:enough|too much|more than enough|far too "
                       r"much) (?:time|effort) (?:on|with) (?:this|you|your)\b"),
    _frame("nuisance", r"\b(?:noted|filed|logged|added|recorded|kept|stored)\b[^.!?]{0,40}\b(?:along with"
                       r"|together with|alongside|with|like) (?:your|the) (?:previous|last|earlier|other) "
                       r"(?:two|three|four|five|six|seven|eight|nine|ten|dozen|\d+|several|many|umpteen)\b"),
    _frame("nuisance", r"\b(?:i|we) (?:trust|hope|assume|expect)\b[^.!?]{0,60}\b(?:won't|will not|shan't"
                       r"|shall not|shouldn't|should not|needn't|need not|don't|do not)(?: \w+){0,2} "
                       r"(?:revisit|discuss|go over|come back to|return to|reopen|re-open|hear about"
                       r"|rehash)\b"),
    _frame("nuisance", r"\b(?:let's just say|suffice (?:it )?to say)\b[^.!?]{0,60}\bfrom you\b"
                       r"|\b(?:isn't|is not|wasn't|was not|not) (?:exactly )?the (?:most unusual|strangest"
                       r"|oddest|weirdest|most surprising|most reasonable|first such) (?:\w+ )?(?:request"
                       r"|message|complaint|question|email|ticket|demand|claim)s? "
                       r"(?:(?:we|i)(?:'ve| have)? )?(?:had|received|seen|heard|got|gotten) from you\b"),
    # lumped with careless customers
    _frame("mockery", rf"\b{CUSTOMERS} (?:who|that) (?:\w+ )?{LAPSE}\b(?: \w+){{0,3}}? (?:the |our |their )?"
                      rf"{GUIDANCE}\b"),
))
"""3.9's frames of contempt, in the order they are read."""


def contempt(plain: str) -> str | None:
    """The words of the first contempt a frame of :data:`FRAMES` finds in a sentence of ``plain``
    (lower case), or None."""
    return first_frame(FRAMES, plain)


# ------------------------------------------------------------------------------ honest readings
SOFT_OPENER = re.compile(r"\b(?:there's no need|there is no need|no need|you don't need|you do not need"
                         r"|you won't need|you will not need|you needn't|you need not|you don't have"
                         r"|you do not have|don't worry about|do not worry about|no need to worry about"
                         r"|please don't worry about)\b")
"""How a reassurance tells the customer that something is not needed of them."""
OUR_PART = re.compile(r"\b(?:we|i)(?:'ll| will| are going to|'re going to| shall)? (?:\w+ )?(?:update"
                      r"|keep (?:you|this)|let you know|be in touch|get back to you|contact you|email you"
                      r"|write to you|reply|follow up|notify|message you|come back to you|send you)\w*\b"
                      r"|\byou(?:'ll| will) (?:\w+ )?(?:hear (?:from|back)"
                      r"|get an? (?:update|email|reply|message|answer)|be (?:updated|notified|kept))\b"
                      r"|\bwe (?:have|already have|'ve got|now have) (?:everything|all (?:of )?(?:the|what)"
                      r"|what) (?:we need|information|details|we were missing)\b")
"""What we will do so that the customer need not: the reason a reassurance gives."""
NUISANCE = re.compile(r"\b(?:over and over|so often|constantly|endless\w*|repeatedly|any ?more"
                      r"|every (?:few |couple of )?(?:hours?|days?|minutes?)|closed|final|end of|nothing more"
                      r"|waste|slow\w* (?:us|things|everyone)|clog|flood)\b")
"""What makes a customer's contact a nuisance: said with it, a reassurance silences after all."""
SUBORDINATE = re.compile(r"\b(?:until|till|once|when|whenever|after|before|as soon as|unless|if|the moment)"
                         r" (?:\w+ ){0,2}$")
"""A clause opener standing just before what a finder quoted: a condition or a time, not an order."""


def reassures(plain: str, found: str) -> bool:
    """Whether the sentence of ``plain`` (lower case) where ``found`` stands tells the customer
    they need not write again because we will keep them posted ("there's no need to email again;
    we'll update you here"), with nothing that makes their writing a nuisance."""
    held = sentence_of(plain, found)
    if held is None:
        return False
    sentence = held[0]
    return (SOFT_OPENER.search(sentence) is not None and OUR_PART.search(sentence) is not None
            and NUISANCE.search(sentence) is None)


def conditional(plain: str, found: str) -> bool:
    """Whether ``found``, words addressed to the customer ("you click it."), stands in a clause
    that a subordinator opens ("... until you click it."): a condition, not an instruction."""
    held = sentence_of(plain, found)
    if re.match(r"you\b", found) is None or held is None:
        return False
    sentence, at = held
    return SUBORDINATE.search(sentence[:at]) is not None


ORDER = re.compile(r"^\s*(?:(?:perhaps|maybe|please|kindly|just|now|so|and)\s+)*(?:take|try|give yourself"
                   r"|find|make sure|remember|learn|start|begin|stop|go ahead and)\b")
"""A clause that opens on an order to the customer ("perhaps take a moment to calm down"): an
infinitive after it is what they are told to do, not someone else's act."""


def ordered(plain: str, found: str) -> bool:
    """Whether the clause of ``plain`` (lower case) where ``found`` stands opens on an order to
    the customer (:data:`ORDER`): grader 3.7 read an idiom after "to" as someone else's act, and
    "take a moment to calm down" is said to the customer."""
    at = plain.find(found)
    if at < 0:
        return False
    clause = re.split(r"[,.!?;:\n]", plain[:at])[-1]
    return ORDER.search(clause) is not None


CONTRACTED = re.compile(r"\b(we|i|they|you|he|she|it)'(ll|re|ve|d|m)\b")
"""A pronoun with its verb contracted ("we'll"), which a reading by whole words does not split."""
SPELLED_OUT = {"ll": "will", "re": "are", "ve": "have", "d": "would", "m": "am"}


def uncontracted(plain: str) -> str:
    """``plain`` with each pronoun's contracted verb spelled out: "we'll deal with it" reads "we
    will deal with it"."""
    return CONTRACTED.sub(lambda m: f"{m.group(1)} {SPELLED_OUT[m.group(2)]}", plain)


def excused(plain: str, found: str) -> bool:
    """Whether what an earlier finder quoted as contempt is one of the honest sentences 3.9 takes
    back: a reassurance (:func:`reassures`) or a condition (:func:`conditional`)."""
    return reassures(plain, found) or conditional(plain, found)


def honest(finder: Finder) -> Finder:
    """``finder``, reading past what :func:`excused` takes back: an excused quote is blanked and
    the text read again, so contempt after it is still found."""
    def find(plain: str) -> str | None:
        text = plain
        while (found := finder(text)) is not None:
            if not excused(text, found):
                return found
            at = text.find(found)
            if at < 0:
                return found
            text = text[:at] + " " * len(found) + text[at + len(found):]
        return None
    return find


SECRET_DISCLAIMED = re.compile(r"\b(?:we|i|our (?:\w+ )?(?:team|staff|agents?|support|side|systems?"
                               r"|engineers)|support|staff|nobody|no one)\b(?: \w+){0,3}? (?:can't|cannot"
                               r"|can not|couldn't|could not|don't|do not|never|won't|will not|have no way to"
                               r"|has no way to)(?: \w+)? (?:see|view|access|read|know|store|keep|hold"
                               r"|look up|need|use|ask for|want)\b")
"""Our side said not to see, hold or need the secret: "our staff can't see your password", "we
never need it" (the customer's own "if you don't know your password" disclaims nothing)."""
NOT_OURS = re.compile(r"\b(?:email|message|text|call|caller|link|site|website|page|form|letter|pop-?up"
                      r"|someone|anyone|person)s?\b[^.!?]{0,30}\b(?:asking|that asks|which asks|requesting"
                      r"|wanting|telling you)\b[^.!?]*\b(?:isn't|is not|aren't|are not|wasn't|was not|never"
                      r"|won't be|will never be|not) (?:\w+ )?(?:from us|ours|sent by us|one of ours"
                      r"|from our team)\b")
"""A request for a secret made by a message the sentence says is not ours: a warning."""
EXCEPTION = re.compile(r"\b(?:but|except|unless|however (?:please|could|can|would)|other than|apart from"
                       r"|this time|today|right now|just this once)\b")
"""Words after which a sentence may ask after all."""


def not_asked(plain: str, secret: str) -> bool:
    """Whether the sentence of ``plain`` (lower case) naming ``secret`` (the words a secret finder
    quoted) only reassures or warns: we cannot see or never need it, or the one asking for it is a
    message the sentence says is not ours; never where an exception follows."""
    held = sentence_of(plain, secret)
    if held is None or EXCEPTION.search(held[0]) is not None:
        return False
    return SECRET_DISCLAIMED.search(held[0]) is not None or NOT_OURS.search(held[0]) is not None


SECRET_ASKED = re.compile(r"\b(?:if you|could you|can you|would you|please|kindly"
                          r"|just)\b[^.!?]{0,30}\b(?:type"
                          r"|enter|key in|paste|write|send|share|give|tell|read out|read me|provide|include"
                          r"|reply with|confirm)\w*\b(?: \w+){0,3}? (?:your |the )?(?:current |old |existing "
                          r"|account |login )?(?:password|passcode|pin|cvv|cvc|security code|one-time code"
                          r"|verification code|otp|2fa code|login code|full card number)\b")
"""A secret asked for as a favour ("it would help if you typed your current password here")."""
NEGATED = re.compile(r"\b(?:never|not|no|don't|do not|won't|will not|shouldn't|should not|mustn't)\b")
"""A negation inside the request: "please never type your password" asks for nothing."""


def secret_asked(plain: str) -> str | None:
    """The words asking the customer for a secret as a favour in ``plain`` (lower case), or None."""
    for sentence in SENTENCE_END.split(plain):
        m = SECRET_ASKED.search(sentence)
        if m is not None and NEGATED.search(m.group()) is None and not not_asked(sentence, m.group()):
            return m.group()
    return None
