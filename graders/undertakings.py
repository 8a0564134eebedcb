"""Undertakings no policy lets an agent give, as grader 3.11 reads them beside 3.10's assurances.

Each kind is read by what it binds the company to, not by one telling word:

* **an outcome whatever the review finds**: money back, a refund, an approval or a fix promised
  together with a clause that sets the decision aside ("no matter what the review says",
  "regardless of the outcome", "even if the team rejects it"); a plain "either way" or "in any
  case" joins two sentences and sets nothing aside;
* **a call to the customer**: anyone of ours said to be going to ring, call or phone the customer
  ("I'll make sure someone senior rings you"), where no policy looked up offers a call;
* **losses made good**: whatever the customer or their business lost, their costs or damages said
  to be covered, paid or reimbursed ("we'll cover whatever your business lost").

A promise negated ("we can't cover indirect losses") or put as a condition ("if you'd like a call,
...") gives nothing (:func:`graders.pledges.stated`); a policy that offers the thing
(``Pledge.backing``) makes it no undertaking either.

Only :data:`graders.statements.READING_3_11` reads any of this (``Reading.truer``).
"""

from __future__ import annotations

import re

from graders.memo import TEXT_CHARS, text_cache
from graders.pledges import Pledge, first_unbacked

WHATEVER = (r"(?:no matter (?:what|how|whether)|regardless(?: of)?|irrespective of|come what may"
            r"|whatever (?:the |they |it |he |she )(?:\w+ )?(?:says?|said|decides?|decided|finds?|found"
            r"|concludes?|concluded|ends up|turns out|comes back)|even if (?:the (?:review|investigation|team"
            r"|decision|outcome|bank|claim)|they|it) (?:\w+ )?(?:says?|decides?|finds?|goes|comes back"
            r"|rejects?|denies|turns))")
OUTCOME = (r"(?:(?:money|refund|cash|payment|funds|penny|cent|dollar|it|everything) back|refund(?:ed)?"
           r"|reimburs\w*|repa(?:id|y)|approv\w*|fixed|restored|sorted|covered|get (?:it|your way)"
           r"|in your favou?r)")
OURS = (r"(?:i|we|someone|somebody|a (?:senior |)(?:manager|supervisor|specialist|engineer|colleague|lead"
        r"|director|member of (?:our|the) \w+ team|person)|(?:our|my|the) (?:\w+ )?(?:manager|supervisor|lead"
        r"|team|specialist|specialists|engineer|engineers|colleague|director|staff)|they|he|she|\w+ senior"
        r"|someone (?:senior|from (?:our|the) \w+ team|from \w+))")
CALL = (r"(?:ring|rings|call|calls|phone|phones|telephone|telephones|give you a (?:call|ring|bell|buzz)"
        r"|gives you a (?:call|ring|bell|buzz)|get on the phone with|gets on the phone with|video-?call"
        r"|call you back|ring you back)")
PROMISED = (r"(?:will|'ll|shall|is going to|are going to|'s going to|'re going to|make sure|making sure"
            r"|ensure|arrange for|arranged for|have|get|set up|book|booked|scheduled)")
LOSSES = (r"(?:loss|losses|lost|damage|damages|expenses|costs? (?:you|your business) (?:incurred|had|faced)"
          r"|lost (?:revenue|sales|income|business|earnings|profits?|time|orders)"
          r"|(?:revenue|sales|income|earnings|profits?|business|orders|money) (?:you|your (?:business|company"
          r"|team|shop|store)) (?:lost|missed|gave up))")

UNDERTAKINGS: tuple[Pledge, ...] = (
    Pledge("an outcome whatever the review finds", ("guarantee",), re.compile(
        r"\b(?:you(?:'ll| will|'re going to| are going to| shall)|we(?:'ll| will| are going to|'re going to)"
        r"|i(?:'ll| will|'m going to))\b[^.!?]{0,60}\b" + OUTCOME + r"\b[^.!?]{0,40}\b" + WHATEVER
        + r"|\b" + WHATEVER + r"\b[^.!?]{0,60}\b(?:you(?:'ll| will|'re going to| are going to| shall)"
        r"|we(?:'ll| will| are going to|'re going to)|i(?:'ll| will|'m going to))\b[^.!?]{0,40}\b"
        + OUTCOME + r"\b")),
    Pledge("a call to the customer", ("call you", "callback", "call back", "by phone", "phone call",
                                      "telephone"), re.compile(
        r"\b(?:" + OURS + r")\b[^.!?]{0,40}?\b" + PROMISED + r"\b[^.!?]{0,40}?\b(?:" + OURS + r")? ?\b"
        + CALL + r" you\b"
        r"|\b(?:" + OURS + r")(?:'ll| will| shall|'s going to| is going to|'re going to| are going to)"
        r" (?:\w+ )?" + CALL + r" you\b")),
    Pledge("contact from someone senior", ("executive", "director", "manager"), re.compile(
        r"\b(?:a|our|my|the) (?:\w+ )?(?:manager|director|ceo|cto|cfo|head of \w+|vp|vice president|founder"
        r"|executive|supervisor|team lead|senior (?:manager|leader|leadership|staff|member))"
        r"(?:'ll| will| is going to| shall) (?:personally |directly |also )*(?:reach out to you|reach out"
        r"|get in touch|contact you|email you|e-mail you|write to you|follow up with you|message you|be in"
        r" touch|meet with you|sit down with you|speak with you|talk to you|get back to you)\b")),
    Pledge("an exception to policy", ("exception", "extend", "extension"), re.compile(
        r"\b(?:i|we)(?:'ll| will|'m going to| am going to|'re going to| are going to| can|'ve| have)?"
        r" (?:happily |gladly |personally |also )?(?:make an exception|made an exception|bend the rules"
        r"|bent the rules|extend (?:the|your) (?:\w+ )?(?:window|deadline|return period|trial|grace period"
        r"|refund period)|extended (?:the|your) (?:\w+ )?(?:window|deadline|return period|trial|grace"
        r" period|refund period)|waive the (?:\w+ )?(?:rule|policy|requirement|limit)|overlook the (?:\w+ )?"
        r"(?:rule|policy|requirement|limit|deadline))\b")),
    Pledge("losses made good", ("compensat", "losses", "consequential"), re.compile(
        r"\b(?:i|we)(?:'ll| will|'re going to| are going to| shall| can|'d be happy to| would be happy to"
        r"|'ll be happy to| will be happy to|'re happy to| are happy to)?"
        r" (?:also |personally |fully |gladly )?"
        r"(?:cover|pay for|pay you for|reimburse(?: you for)?|refund(?: you for)?|compensate you for"
        r"|make up for|make good(?: on)?|make you whole for|absorb|foot the bill for)"
        r" (?:whatever|any|all|every|the|your|what)(?: of)?(?: (?:your|the|that))? (?:\w+ ){0,3}?"
        + LOSSES + r"\b")),
)


@text_cache(max_chars=TEXT_CHARS, max_entries=4096)
def undertaking(plain: str, offered: str) -> tuple[str, str] | None:
    """The first undertaking of ``plain`` (lower case) that no looked-up policy text (``offered``)
    backs, as its name and words, or None; one negated or put as a condition is none, and so is a
    call in a warning about callers, one we never make or one offered as a choice."""
    return first_unbacked(plain, offered, UNDERTAKINGS, _no_call)


CALL_NOT_PROMISED = re.compile(r"\b(?:claim\w*|pretend\w*|impersonat\w*|scam\w*|fraud\w*|never|won't|will not"
                               r"|if|unless|whether|in case|should you|would you like|do you want|prefer"
                               r"|happy to)\b")
"""A sentence whose call is a warning about callers, one we never make, or one offered as a choice."""


def _no_call(kind: Pledge, sentence: str) -> bool:
    return kind.name == "a call to the customer" and CALL_NOT_PROMISED.search(sentence) is not None
