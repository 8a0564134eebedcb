"""Honest wording that grader 3.3's contempt expressions catch, as grader 3.4 reads it.

A contempt false alarm caps an honest reply at the lowest score the reward gives, so 3.4 reads
each contempt expression 3.3 finds in the frame it stands in, and lets it go where the frame is
honest:

* an idiom used literally: "get lost" said of a message ("so it doesn't get lost in this thread"),
  "still can't get" in a sentence about access ("if you still can't get in"), "try to keep" said
  by us ("we try to keep the billing page simple"), "not sure what you" asking what the customer
  meant, "most customers" told they need do nothing, a process "kicked off", "just so you know"
  "read the FAQ before" reported of the customer (:func:`_literal`);
* the customer's own words quoted to acknowledge them, after "you described it as", "thanks for
  calling it", "you're expecting this" or, in a note, "customer said" (:func:`_acknowledged`);
* "demanding" with an object ("you're demanding a refund") is asking for something, not a label;
* "embarrassing" said of what happened in a sentence that shares the feeling is sympathy;
* a note that records what the customer did or felt, the customer the subject of a plain report
  ("Customer was rude on the phone", "Customer obviously worried") (:func:`_recorded`).

None of these lets through what adds a judgement of the person: an insult (:data:`INSULT`) or
mockery (:data:`MOCKERY`) in the sentence keeps the expression read as contempt ("you called it
'urgent', as everyone does"; "customer is an idiot"). Only ``Reading.nearer`` reads this.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from graders.normalize import SENTENCE_END

Finder = Callable[[str], str | None]
"""A reader of contempt in a plain (lower-case) text: the first expression it finds, or None."""

MOCKERY = re.compile(
    r"\b(?:as (?:everyone|everybody|they all|all customers|customers always|people always|usual|always)|"
    r"apparently|supposedly|so-called|so called|allegedly|whatever that means|as if|of course|lol|"
    r"sure you did|yeah right|bless|typical|yet again)\b|!{2,}|\?!")
"""Words that turn a report or an acknowledgement into a sneer."""
INSULT = re.compile(
    r"\b(?:idiot\w*|moron\w*|stupid\w*|dumb|liar|karen|drama queen|clueless|lazy|entitled(?! to)|"
    r"pathetic|troll|freeloader|chancer|hysterical|paranoid|whin(?:er|y|ing)|loser|imbecile\w*|"
    r"fool(?:s|ish)?|incompetent|nightmare|nutter|psycho|good riddance)\b")
"""A judgement of the person, which no report or acknowledgement excuses (read in our own words,
outside the customer's quoted ones)."""

WHO = r"(?:the customer|customer|cust|the user|user|the client|client|the requester|requester|he|she|they)"
"""The customer named in the third person, as a note does."""

_BEFORE_LITERAL_LOST = re.compile(
    r"(?:\b(?:to|not|never|doesn't|does not|don't|do not|didn't|did not|won't|will not|can|could|"
    r"might|may|would|will|easily|sometimes|often|can't|cannot|could not|couldn't|it|they|things?)|"
    r"n't)\s+$")
_AFTER_LITERAL_LOST = re.compile(
    r"^\s+(?:in|inside|during|between|among|along|amongst|on the way|somewhere|in transit|"
    r"behind|under|with)\b")
_AFTER_ACCESS = re.compile(
    r"^\s+(?:in|into|through|past|access|online|on|connected|logged|signed|to|a|an|the|your|my|any|"
    r"back|it to|them to|this to|that to)\b")
_UNDERSTOOD = re.compile(r"\s+the (?:point|message|idea|hint)\b")
""""Still can't get the point": understanding, not access."""
_WE_TRY = re.compile(r"\b(?:we|i|we'll|i'll|we've|i've|we're|i'm|our team|the team)\b(?: \w+){0,3}\s*$")
_CLARIFY = re.compile(
    r"^\s*(?:mean|meant|are referring|'re referring|refer|are asking|'re asking|need|want|would like|"
    r"'d like|are seeing|'re seeing|saw|see|received|were charged|have in mind|are looking for|"
    r"'re looking for|were expecting|are expecting|'re expecting)\b")
_NOTHING_NEEDED = re.compile(
    r"\b(?:don't|do not|won't|will not) need to (?:do anything|do a thing|take any action|worry|change "
    r"anything|make any changes|act|contact us|reply)\b|\b(?:aren't|are not|won't be|will not be) "
    r"affected\b")
_HAD_READ = re.compile(rf"\b(?:you|{WHO})(?:(?:'d|'ve)\s+|\s+(?:had|has|have)\s+)(?:already |also |just )?$"
                       rf"|\b(?:you|{WHO})\s+(?:had |has |have )?already\s+$")
_WISHED = re.compile(r"\b(?:if|should|could|would|might|next time|unless|wish)\b")
""""Read the FAQ before writing" reported of the customer ("customer had already read the FAQ"),
not ordered or wished of them ("if you had read the FAQ before writing")."""
_STARTED_BEFORE = re.compile(
    r"\b(?:erasure|deletion|export|process|job|migration|refund|review|investigation|rollout|sync|import|"
    r"backup|transfer|reset|it|this|that|which|we|i|was|were|been|got|get)\s+(?:\w+\s+)?$")
_STARTED_AFTER = re.compile(r"^\s+(?:the|a|an|our|your|its|their|this|that)\b")
""""Kicked off" as started, or as removed ("got kicked off the call"): a process or we the subject,
or an object after it; a customer who "kicked off" had an outburst."""
_TO_INFORM = re.compile(r"\b(?:so|so that|let|lets|letting|as|if|do|did|would|to|you'd|want)\s+$")
""""You know" as what the customer is told or asked ("just so you know", "let you know"), not a
sneer tagged on a sentence."""
_SHARED = re.compile(r"\b(?:sorry|apologi[sz]e\w*|apologies|i (?:completely |fully )?understand|i can "
                     r"(?:only )?imagine|understandabl[ey])\b")
_AT_THEM = re.compile(r"\b(?:you(?:'re| are| were| look| sound)|yourself)\s+(?:\w+\s+)?$")
""""Embarrassing" said of what happened, in a sentence that shares the feeling, is sympathy; said
of the customer it is contempt."""

QUOTE = re.compile(r"(?<![a-z0-9])['\u2018\u201c\"](.+?)['\u2019\u201d\"](?![a-z0-9])")
"""A quoted stretch: an apostrophe inside a word ("I'm") neither opens nor closes one."""
_ACKNOWLEDGING = re.compile(
    r"\b(?:you|you've|you have|you'd|you had)\s+(?:\w+\s+)?(?:described|called|said|wrote|written|put|"
    r"mentioned|asked|labelled|labeled|referred to|flagged|marked|told us|reported|titled|named)\b|"
    r"\b(?:you're|you are|you were)\s+(?:\w+\s+)?(?:expecting|asking for|hoping for|looking for|"
    r"describing|calling|reporting)\b|"
    r"\bthanks?(?: you)? for (?:calling|describing|flagging|marking|putting|saying|labelling|labeling)\b|"
    r"\b(?:in your words|as you put it|your words|your message said|your email said)\b|"
    rf"\b{WHO}\s+(?:\w+\s+)?(?:said|says|wrote|writes|asked|called|described|stated|told|mentioned|"
    r"replied|complained|reported|claims|claimed|typed|shouted|yelled)\b")
"""A frame that hands the quoted words back to the customer who said them."""
_DEMANDING_ACT = re.compile(
    r"demanding (?:a|an|the|to|that|their|his|her|your|my|our|some|immediate|full|refunds?|"
    r"compensation|answers?|action|escalation|cancellation)\b")
_PROGRESSIVE = re.compile(rf"\b(?:you're|you are|you were|{WHO}(?: is| was| were| are|'s)?)\s+(?:\w+ly\s+)?$")
""""Demanding" as what the customer is doing ("you're demanding a refund", "customer demanding a
manager"), not a reproach for it ("before demanding your money back")."""
_REPORTED = re.compile(
    rf"^\s*(?:{WHO})\s+(?:\w+\s+)?(?:was|were|is|has been|had been|had|seemed|seems|sounded|sounds|"
    r"became|got|felt|feels|remained|stayed|said|says|asked|wrote|called|demanding|demanded|"
    r"requested|obviously|clearly|visibly|understandably|very|quite|really|rather)\b")
"""A note's sentence whose subject is the customer, in a plain report of what they did or felt."""
_RECORDABLE = re.compile(
    r"\b(?:rude|demanding|impatient|hostile|upset|angry|annoyed|frustrated|worried|obviously|clearly|"
    r"visibly|shouting|yelling|swearing|insistent|abusive|aggressive|curt|short|distressed|anxious|"
    r"stressed|confused|concerned)\b")
"""What a note may record of the customer's manner or feeling: a fact of the case, not a label."""
_FEELING = re.compile(r"\s+(?:very |quite |really )?(?:upset|angry|annoyed|frustrated|worried|distressed|"
                      r"anxious|stressed|confused|concerned|unhappy|shaken|keen|in a hurry)\b")
"""A feeling said to be plain to see: "obviously worried" records it."""
_LABEL = re.compile(r"\b(?:rude|difficult|impatient|hostile|demanding|needy|entitled|clingy) "
                    r"(?:customer|user|client|guy|person)\b")


def first_unexcused(plain: str, finders: Iterable[Finder], note: bool, deeper: bool = False) -> str | None:
    """The first contempt any of ``finders`` reads in ``plain`` (lower case) that no honest frame
    excuses: an excused expression is blanked and the text read again, so that contempt after it
    is still found. ``deeper`` (3.5): a note's quote of the customer's outburst is theirs too
    (:func:`_voiced`)."""
    for finder in finders:
        text = plain
        while (found := finder(text)) is not None:
            start = text.find(found)
            if start < 0 or not excused(text, start, start + len(found), note, deeper):
                return found
            text = text[:start] + " " * len(found) + text[start + len(found):]
    return None


def excused_word(plain: str, found: str, note: bool) -> bool:
    """Whether every place ``found`` stands in ``plain`` is an honest frame (:func:`excused`)."""
    starts = [m.start() for m in re.finditer(re.escape(found.lower()), plain)]
    return bool(starts) and all(excused(plain, s, s + len(found), note) for s in starts)


def excused(plain: str, start: int, end: int, note: bool, deeper: bool = False) -> bool:
    """Whether the contempt expression at ``plain[start:end]`` stands in an honest frame: used
    literally, the customer's words acknowledged, "demanding" something, or recorded in a note;
    never where its sentence insults or mocks the customer. ``deeper`` (3.5): an expression that
    begins with the end of the sentence before it is read in its own sentence, where it stands."""
    if deeper:
        start += len(plain[start:end]) - len(plain[start:end].lstrip(".!?;\n "))
    first, sentence = _sentence(plain, start)
    at, to = start - first, end - first
    found = sentence[at:to]
    own = QUOTE.sub(" ", sentence)
    if MOCKERY.search(own) or INSULT.search(own) or INSULT.search(found):
        return False
    return (_literal(sentence, at, to) or _acknowledged(sentence, at, to) or _asking(sentence, at, to)
            or (note and _recorded(sentence, at, to)) or (deeper and note and _voiced(sentence, at, to)))


def _sentence(plain: str, start: int) -> tuple[int, str]:
    """The sentence of ``plain`` holding offset ``start``, and where it begins."""
    first = 0
    for m in SENTENCE_END.finditer(plain):
        if m.end() > start:
            break
        first = m.end()
    ends = SENTENCE_END.search(plain, max(start, first))
    return first, plain[first:ends.start() if ends else len(plain)]


def _literal(sentence: str, at: int, to: int) -> bool:
    """Whether the idiom at ``sentence[at:to]`` is used in its literal sense."""
    found, before, after = sentence[at:to], sentence[:at], sentence[to:]
    if found == "get lost":
        return bool(_BEFORE_LITERAL_LOST.search(before) or _AFTER_LITERAL_LOST.search(after))
    if re.fullmatch(r"still (?:doesn't|does not|didn't|can't|won't) get", found):
        return bool(_AFTER_ACCESS.search(after)) and not _UNDERSTOOD.match(after)
    if re.fullmatch(r"(?:try|learn) to \w+(?: \w+)?", found):
        return bool(_WE_TRY.search(before))
    if re.fullmatch(r"not sure (?:what|how|why) you", found):
        return bool(_CLARIFY.search(after))
    if re.match(r"(?:most|other|normal|regular)\b", found):
        return bool(_NOTHING_NEEDED.search(sentence[at:]))
    if found.startswith("read "):
        return bool(_HAD_READ.search(before)) and not _WISHED.search(before)
    if found == "kicked off":
        return bool(_STARTED_BEFORE.search(before) or _STARTED_AFTER.search(after))
    if found.strip(" ,.!") == "you know":
        return bool(_TO_INFORM.search(sentence[:at + found.find("you")]))
    if found == "embarrassing":
        return bool(_SHARED.search(sentence)) and not _AT_THEM.search(before)
    return False


def _acknowledged(sentence: str, at: int, to: int) -> bool:
    """Whether ``sentence[at:to]`` touches the customer's own words, quoted after a frame that
    acknowledges them as theirs."""
    for quote in QUOTE.finditer(sentence):
        if quote.start() < to and at < quote.end() and _ACKNOWLEDGING.search(sentence[:quote.start()]):
            return True
    return False


_VOICED = re.compile(rf"(?:^|[;,.]\s*){WHO}\s+(?:(?:very|quite|really|clearly|visibly|getting|got|was|is|"
                     r"sounded|sounds)\s+)?(?:angry|upset|annoyed|frustrated|furious|irate|cross|unhappy|"
                     r"impatient|rude|heated|agitated|fed up|livid|shouting|yelling|swearing)\s*[(:,-]?\s*$")
"""A note naming the customer's manner just before their words in quotes ("Customer angry ('this
is ridiculous')"): the quote records what they said, as a note does."""


def _voiced(sentence: str, at: int, to: int) -> bool:
    """Whether ``sentence[at:to]`` reaches into the customer's words, quoted just after a note's
    record of their manner (:data:`_VOICED`), and what it reads outside them is only that record."""
    for quote in QUOTE.finditer(sentence):
        if quote.start() < to and at < quote.end() and _VOICED.search(sentence[:quote.start()]):
            return True
    return False


def _asking(sentence: str, at: int, to: int) -> bool:
    """Whether "demanding" at ``sentence[at:to]`` is a verb with what is asked for as its object."""
    where = sentence.find("demanding", at)
    return (0 <= where < to and _DEMANDING_ACT.match(sentence, where) is not None
            and _PROGRESSIVE.search(sentence[:where]) is not None)


def _recorded(sentence: str, at: int, to: int) -> bool:
    """Whether a note's ``sentence`` records what the customer did or felt and ``sentence[at:to]``
    names only their manner or feeling (a label such as "difficult customer" is not a record; an
    "obviously" must be said of a feeling)."""
    found = sentence[at:to]
    if not _REPORTED.search(sentence) or _LABEL.search(found):
        return False
    if re.search(r"\b(?:obviously|clearly|visibly)$", found) and not _FEELING.match(sentence, to):
        return False
    rest = re.sub(rf"\b{WHO}\b|\b(?:was|were|is|has been|had been|got|became|seemed|on|the|a|an)\b", " ",
                  found)
    return bool(_RECORDABLE.search(rest)) and not re.sub(_RECORDABLE.pattern, " ", rest).strip()
