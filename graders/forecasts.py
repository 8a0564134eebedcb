"""Outcomes told as what the customer will find or as the state they leave, and the case said to
be with a superior or a named team, as grader 3.8 reads them beside 3.7's.

Blind rounds showed ways of claiming an outcome that no earlier reading took for a claim:

* **a forecast of what the customer will find**: "you should see it back on your statement
  shortly", "a fresh reset link should be sitting in your inbox right now", "you'll find the
  password reset email already waiting for you". :mod:`graders.meaning` reads "should" as a
  condition and "you'll find" as the future, so the outcome they presuppose (the refund paid, the
  link sent) was never judged. Read here: a clause that forecasts what the customer sees, finds or
  receives, of an outcome's object, with nothing that makes it wait ("if", "once", "when",
  "after", "as soon as", "provided", "until"); such a forecast presupposes the outcome done. A
  forecast with a stated condition ("once the refund is approved, you should see it within five
  days") is not a claim, nor a question, nor a negated clause.
* **the case said to be with a superior**: "your ticket has been passed up the chain and a
  supervisor is already reviewing it", "I've passed this straight up to our senior team", "a
  manager has looked this over and signed off on your request". A superior (a supervisor, a
  manager, a senior team, the chain of command) taking the case is an escalation; 3.7 read a case
  "with a team" as routed to the team that does the work, true wherever the ticket had a queue.
  Read here as the concept ``superior``, true only where the episode escalated
  (:func:`graders.statements.contradicts`).

* **an outcome said by meaning rather than by its act**: the next rounds claimed outcomes in
  words no verb or noun frame held. As the state left behind ("your balance is back to where it
  should be", "the disputed amount has been cleared"), in jargon ("refund's out the door"), as
  the change the customer asked for gone through, as a fault fixed with the customer's report as
  its relative clause ("the problem you reported was fixed in last night's release", which
  :func:`graders.voices.reported` took for the report itself), as items of a list said done
  together ("the refund, the fix and the follow-up have all been taken care of"), and as what
  the customer will find with the outcome done in its complement ("you'll notice your balance is
  back to exactly where it should be"). Each is a frame of an existing concept, done, read only
  where nothing in its clause (or a clause after it in its sentence) negates it, makes it wait,
  puts it ahead ("within five days"), makes it possible only, or states a rule: those are
  honest, and a reply must stay free to say them.
* **the case with a superior or a named team, vouched for**: "I can confirm the matter has been
  passed to our senior escalations manager", "I've flagged this to our senior team", "your case
  is now with Rachel on the security team". The "can" of a voucher makes nothing possible only,
  flagging a case up is passing it, and a colleague named on a team puts the case with the team.

Only :data:`graders.statements.READING_3_8` reads any of this (``Reading.sharper``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from graders import meaning
from graders.meaning import DONE, Frame
from graders.memo import READING_CHARS, text_cache

WAITS = frozenset({"if", "once", "when", "whenever", "after", "until", "unless", "provided", "assuming",
                   "whether", "before"})
"""Words that make a forecast wait on something when they stand before it: then it states no
outcome done ("once the refund is approved, you should see it within five days")."""
WAIT_PHRASES = (" as soon as ", " by the time ", " the moment ", " in case ")
NEGATED = frozenset({"not", "never", "no", "nothing", "neither", "nor", "none", "without", "yet"})

FORECAST = re.compile(
    r"\b(?:you|you (?P<modal>will|should|ought to|may|might|would|can|are going to))(?: now| already| soon| "
    r"shortly| probably| likely)? (?:see|find|notice|spot|have|receive|get|be seeing|be receiving|be "
    r"getting)\b")
"""What the customer is told they will perceive or hold."""
AT_HAND = re.compile(r"\b(?:already|now|right now|by now|shortly|soon|any moment|in a moment|momentarily"
                     r"|waiting|sitting|in your inbox|in your mailbox|on your statement|in your account|in "
                     r"your bank|back)\b")
"""What makes the forecast about an outcome at hand rather than a general expectation."""
AT_HAND_NOW = re.compile(r"\b(?:already|now|right now|by now|waiting|sitting|in your inbox|in your "
                         r"mailbox)\b")
"""What a forecast in the future or of ability needs to be about an outcome at hand: "you'll find
the reset email already waiting" presupposes it sent, "you'll have your money back by Friday"
promises (:mod:`graders.pledges` and the commitment readings judge that)."""
FIRM = frozenset({"will", "can", "are going to", "would"})
OBJECTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("refund", re.compile(r"\b(?:(?:it|the money|your money|the (?:amount|funds|charge|payment|credit|refund"
                          r"|reimbursement|difference|duplicate))(?: \w+){0,3} (?:back|returned|refunded"
                          r"|credited|reversed|reimbursed)|(?:the|a|your) (?:refund|credit|reimbursement"
                          r"|reversal|payout)|back on your (?:statement|card|account)|money back)\b")),
    ("reset_link", re.compile(r"\b(?:reset|recovery) (?:link|email|e-mail|message)|\b(?:link|email|e-mail"
                              r"|message) to reset\b")),
    ("email_change", re.compile(r"\b(?:new|updated|changed) (?:email|e-mail|address|login)(?: address)? (?:on"
                                r"|in|for) (?:your|the) account|\blog(?:ging)? in with (?:the|your) new\b")),
)
"""The outcomes a forecast can presuppose, by their object."""
SITTING = re.compile(r"\b(?:(?:reset|recovery) (?:link|email|e-mail|message)|(?:the |a |your )?(?:refund"
                     r"|money|funds|credit))(?: \w+){0,2} (?:should|will|ought to|may|might|must)(?: already"
                     r"| now)? (?:be (?:sitting|waiting|there|in your|on your|back|showing|visible|arriving)"
                     r"|have (?:arrived|landed|reached))")
"""The outcome's object as the subject of the forecast: "a fresh reset link should be sitting in
your inbox right now"."""


PRESENT = (
    ("email_change", re.compile(r"\b(?:your |the )?(?:login|sign-in|account|log-in|contact) (?:email|e-mail"
                                r"|address)(?: address)? (?:now )?(?:reads|shows|says|points to|matches|is "
                                r"set to|is now)\b[^.!?;]{0,30}\b(?:you asked|you requested|requested|new"
                                r"|you wanted|you gave)\b")),
    ("refund", re.compile(r"\b(?:confirmation|receipt|e-?mail|notice|notification"
                          r"|statement)\b[^.!?;]{0,30}\b(?:we|i)(?: have| just|'ve)? (?:sent|emailed"
                          r"|issued)\b[^.!?;]{0,60}\b(?:payout|refund|reimbursement|credit|repayment)")),
)
"""An outcome's state said as it stands now ("your login email now reads exactly the way you
asked"), or a document about it said to be sent ("the confirmation we sent over a moment ago has
all the payout details")."""


SAID_DONE = (r"(?:has been|have been|was|were|got|is now|are now|has now been|have now been)(?: now| already"
             r"| fully| successfully| all| both| completely| since)*")
"""The auxiliaries of a finished result."""
STATED: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("refund", re.compile(r"\b(?:your|the) (?:account |card |statement )?balance"
                          r"(?: on (?:your|the) (?:account|card|statement))?"
                          r" (?:is|was|has|has gone|went|has come|came|is now)"
                          r"(?: now| already| all| right| been)*"
                          r" back (?:to|down to|at|where)\b")),
    ("refund", re.compile(r"\b(?:disputed|duplicate|duplicated|extra|double|second|erroneous|incorrect"
                          r"|wrong|unauthori[sz]ed|additional|mistaken)"
                          r" (?:amount|charge|payment|fee|transaction|debit|deduction)s?"
                          rf" {SAID_DONE} (?:cleared|removed|wiped|written off|taken off|cancell?ed|canceled"
                          r"|dropped|deleted|undone|struck off|erased|refunded|reversed|voided|credited"
                          r"|returned)\b")),
    ("refund", re.compile(r"\b(?:refund|money|payment|credit|reimbursement|funds)"
                          r"(?:'s| is| are| has gone| have gone| went| was sent)? out the door\b")),
    ("email_change", re.compile(r"\b(?:the |your )?(?:change|update|switch|swap)s? (?:that |which )?you "
                                r"(?:asked for|asked us to make|asked us for|requested|wanted|asked about) "
                                r"(?:(?:has|have) (?:now |already |successfully )*gone through"
                                r"|went through"
                                rf"|{SAID_DONE} (?:made|done|applied|completed|processed|actioned|carried out"
                                r"|put through|pushed through)"
                                r"|(?:is|are) (?:now |already |all )*(?:done|live|complete|in place"
                                r"|in effect))\b")),
)
"""An outcome said as the state it leaves ("your balance is back to where it should be", "the
disputed amount has been cleared"), in workers' jargon ("refund's out the door"), or as the change
the customer asked for gone through (on this environment's cases the one change a reply can make
to an account is its e-mail)."""
RELATIVE_REPORT = re.compile(
    r"\b(?P<noun>(?:the |that |this )?(?:problem|issue|bug|error|fault|glitch|crash|outage|failure|defect"
    r"|disruption)s?) (?P<relative>(?:that |which )?you (?:reported|mentioned|raised|flagged|described|ran "
    r"into|hit|saw|noticed|were seeing|were having|were getting|had|told us about|wrote (?:in )?about|spotted"
    r"|found))"
    rf"(?= {SAID_DONE} (?:fixed|resolved|patched|sorted|repaired|cleared up|solved|addressed|corrected"
    r"|sorted out)\b)")
"""A fault said fixed with the customer's report as its relative clause ("the problem you reported
was fixed in last night's release"): the report names the fault; the fix is the writer's claim.
The relative clause is left out of the quote, where it would read as the customer's own report
restated (:func:`graders.voices.reported`)."""
LISTED = re.compile(r"^(?:and |both )?(?:the |your )?(?P<item>refund|reimbursement|credit|money back"
                    r"|fix|patch|e-?mail change|email update|address change|reset link|password reset)$")
"""An outcome named as one item of a list whose last item takes the predicate ("the refund, the
fix and the follow-up have all been taken care of")."""
LISTED_DONE = re.compile(r"\b(?:have|are)(?: all| now| both| already)* (?:been )?(?:taken care of|done"
                         r"|handled|sorted|sorted out|completed|processed|dealt with|actioned|squared away"
                         r"|wrapped up|finished|closed out)$")
LIST_ITEM = 3
"""The most words a list's item has."""
ITEMS = {"refund": "refund", "reimbursement": "refund", "credit": "refund", "money back": "refund",
         "fix": "fixed", "patch": "fixed", "email change": "email_change", "e-mail change": "email_change",
         "email update": "email_change", "address change": "email_change", "reset link": "reset_link",
         "password reset": "reset_link"}
NOT_STATED = frozenset({"not", "never", "no", "nothing", "neither", "nor", "without", "yet", "if", "once",
                        "when", "whenever", "unless", "until", "whether", "after", "before", "will", "would",
                        "should", "could", "can", "may", "might", "shall", "soon", "shortly", "pending",
                        "being", "expected", "scheduled", "usually", "normally", "typically", "generally",
                        "always", "any", "every", "policy", "rule"})
"""What makes a state or a result something other than this case's outcome: negated,
conditional, to come or possible, or a general statement ("a duplicate charge is usually
reversed within five days")."""
COMPLEMENT = re.compile(r"\b(?:(?:is|are|has been|have been|was|were)(?: now| already| all| fully| back)*"
                        r" (?P<done>back|gone|reversed|refunded|credited|cleared|removed|voided|returned"
                        r"|reimbursed|updated|changed|switched|sent|issued|paid)"
                        r"|(?P<back>back) (?:to|where)|(?P<gone>gone|vanished|disappeared) from)\b")
"""A forecast's complement that states the outcome done: "you'll notice your balance is back to
where it should be" finds what is, not what is to come; so does what the customer is told they
will see back or gone ("you'll find your balance back to normal")."""
AHEAD = re.compile(r"\b(?:within|over the next|in the next|by (?:monday|tuesday|wednesday|thursday|friday"
                   r"|saturday|sunday|tomorrow|the end|next)|in (?:a|one|two|three|four|five|\d+)(?:-\d+)? "
                   r"(?:few )?(?:business |working )?(?:days?|weeks?|hours?))\b")
CONFIRMING = re.compile(r"^(?:.* )?(?:i|we) (?:can|could|am happy to|am pleased to|would like to|want to"
                        r"|am glad to) (?:confirm|tell you|let you know|report|assure you|say)(?: that)? ")
"""What opens a statement the writer vouches for ("I can confirm the matter has been passed to
a manager"): its "can" makes nothing that follows possible only."""


def _vouched(joined: str) -> str:
    """``joined`` without a voucher's opening (:data:`CONFIRMING`)."""
    return CONFIRMING.sub("", joined, count=1)


def _stated(clause: meaning.Clause, joined: str) -> Frame | None:
    """The outcome a clause states as done by its state, its jargon or a fault fixed after the
    customer's report (:data:`STATED`, :data:`RELATIVE_REPORT`), or None."""
    said = _vouched(joined)
    m = RELATIVE_REPORT.search(said)
    if m is not None and not NOT_STATED & set(said[:m.start()].split()):
        plain = f"{said[:m.start('relative')].rstrip()} {said[m.end('relative'):].lstrip()}".strip()
        return Frame("fixed", DONE, plain)
    for concept, pattern in STATED:
        found = pattern.search(said)
        if found is not None and not NOT_STATED & set(said[:found.end()].split()):
            return Frame(concept, DONE, joined)
    return None


def _listed(parts: list[meaning.Clause]) -> tuple[Frame, ...]:
    """The outcomes a sentence's clauses name as items of a list whose last item takes a predicate
    that says them done (:data:`LISTED`, :data:`LISTED_DONE`), one frame each: the items are the
    short clauses before it ("the refund, the credit note and the follow-up have all been sorted")."""
    out: list[Frame] = []
    for k, part in enumerate(parts):
        last = LISTED_DONE.search(part.text)
        if last is None or NOT_STATED & set(part.words):
            continue
        start = k
        while start > 0 and len(parts[start - 1].words) <= LIST_ITEM:
            start -= 1
        subject = part.text[:last.start()].strip()
        named = [LISTED.search(p.text) for p in parts[start:k]] + [LISTED.search(subject)]
        items = [m.group("item") for m in named if m is not None]
        if items:
            quote = " / ".join(p.text for p in parts[start:k + 1])
            out.extend(Frame(ITEMS[item], DONE, quote) for item in dict.fromkeys(items))
    return tuple(out)


def _concept(joined: str) -> str | None:
    for concept, pattern in OBJECTS:
        if pattern.search(joined):
            return concept
    return None


FOUND: dict[str, tuple[tuple[str, re.Pattern[str]], ...]] = {
    "reversed": (
        ("refund", re.compile(r"\b(?:balance|charge|amount|payment|fee|money|funds|refund|credit|debit"
                              r"|transaction)s?\b")),
        ("email_change", re.compile(r"\b(?:old|previous|former) (?:e-?mail|address|login)\b")),
    ),
    "issued": (
        ("refund", re.compile(r"\b(?:refund|credit|reimbursement|payout|money back)s?\b")),
        ("reset_link", re.compile(r"\b(?:reset|recovery) (?:link|email|e-mail|message)\b")),
    ),
    "changed": (
        ("email_change", re.compile(r"\b(?:e-?mail|address|login|sign-in|username)\b")),
    ),
}
"""The outcome a forecast's complement (:data:`COMPLEMENT`) finds done, by its predicate and its
subject: a charge found reversed or gone is refunded, but a payment found sent or paid is the
customer's own ("you'll see the payment was sent on the 3rd")."""
KIND = {"sent": "issued", "issued": "issued", "paid": "issued", "updated": "changed", "changed": "changed",
        "switched": "changed"}
PERCEIVED = frozenset({"see", "find", "notice", "spot"})


def _found(joined: str, forecast: re.Match[str]) -> str | None:
    """The concept of the outcome ``forecast`` says the customer will find done ("you'll notice
    your balance is back to where it should be"), or None: a complement that states it done, with
    no time ahead ("within five days") that makes it a promise; what they will find back or gone
    without a verb only where they are to see it ("you'll get your money back to your card" is a
    promise)."""
    rest = joined[forecast.end():]
    m = COMPLEMENT.search(rest)
    if m is None or AHEAD.search(rest):
        return None
    if m.group("done") is None and forecast.group().split()[-1] not in PERCEIVED:
        return None
    kind = KIND.get(m.group("done") or "", "reversed")
    return next((c for c, p in FOUND[kind] if p.search(rest[:m.start()])), None)


def _waited(parts: tuple[meaning.Clause, ...], n: int) -> bool:
    """Whether the clause at ``n`` is followed, in its sentence, by a clause that makes it wait
    ("your balance is back to normal if the bank has released it")."""
    nxt = parts[n + 1] if n + 1 < len(parts) else None
    return nxt is not None and nxt.sentence == parts[n].sentence and nxt.words[0] in WAITS


def _waits(words: tuple[str, ...], upto: int) -> bool:
    """Whether a word before position ``upto``, or a conditional phrase anywhere, makes the
    clause wait on something."""
    joined = f" {' '.join(words)} "
    return bool(set(words[:upto]) & WAITS) or any(p in joined for p in WAIT_PHRASES)


@text_cache(max_chars=READING_CHARS, max_entries=4096)
def claims(text: str) -> tuple[Frame, ...]:
    """The outcomes ``text`` presupposes by forecasting what the customer will find, one frame a
    clause (the concept of the object forecast, done)."""
    out: list[Frame] = []
    parts = meaning.clauses(text, keep_soft=True)
    sentences: dict[int, list[meaning.Clause]] = {}
    for n, clause in enumerate(parts):
        if clause.question or clause.conditional_sentence:
            continue
        sentences.setdefault(clause.sentence, []).append(clause)
        joined = " ".join(clause.words)
        if NEGATED & set(clause.words):
            continue
        waits = _waits(clause.words, len(clause.words))
        present = next((c for c, p in PRESENT if p.search(joined) and not waits), None)
        if present is not None:
            out.append(Frame(present, DONE, joined))
            continue
        stated = None if waits or _waited(parts, n) else _stated(clause, joined)
        if stated is not None:
            out.append(stated)
            continue
        m = FORECAST.search(joined) or SITTING.search(joined)
        if m is None:
            continue
        upto = len(joined[:m.start()].split())
        at_hand = AT_HAND_NOW if m.re is FORECAST and m.group("modal") in FIRM else AT_HAND
        if _waits(clause.words, upto):
            continue
        if at_hand.search(joined, m.start()) is None:
            found = None if waits or _waited(parts, n) else _found(joined, m)
            if found is not None:
                out.append(Frame(found, DONE, joined))
            continue
        concept = _concept(joined)
        if concept is not None:
            out.append(Frame(concept, DONE, joined))
    for said in sentences.values():
        out.extend(_listed(said))
    return tuple(out)


SUPERIOR = (r"(?:supervisor|manager|management|senior (?:team|agent|staff|specialist|engineer|member"
            r"|colleague|support|manager)s?|team (?:lead|leader)|head of [a-z]+|higher[- ]ups?|leadership"
            r"|escalations? (?:team|manager|lead|desk)|duty manager|line manager)")
"""Who stands above the agent: a case with them is escalated."""
WITH_SUPERIOR = (
    re.compile(rf"\b(?:passed|sent|handed|kicked|bumped|moved|pushed|escalated|forwarded|referred|taken)(?: "
               rf"\w+){{0,3}} up (?:the (?:chain|line|ladder)|(?:the |a )?level|to (?:a |our |my |the "
               rf")?(?:[a-z-]+ )?{SUPERIOR})"),
    re.compile(rf"\b(?:passed|sent|handed|escalated|forwarded|referred|given|assigned|raised|flagged|brought"
               rf"|elevated|bumped|kicked|routed)(?: \w+){{0,3}} (?:to|with) (?:a |our |my |the |one of our "
               rf")?(?!your |their |his |her )(?:[a-z-]+ ){{0,2}}{SUPERIOR}"),
    re.compile(rf"\b(?:a|the|our|my) (?:[a-z-]+ )?{SUPERIOR} (?:is|are|has|have|was|were)(?: already| now| "
               rf"personally| just| also)* (?:reviewing|looking|handling|working|on it|taken|taking|signed"
               rf"|approved|looked|reviewed|checked|gone over|been (?:looking|reviewing|handling|working)"
               rf"|picked|owning|dealing)"),
    re.compile(rf"\b(?:is|are) (?:now |already )?(?:with|in the hands of|on the desk of) (?:a |our |my |the "
               rf")?(?:[a-z-]+ )?{SUPERIOR}"),
    re.compile(rf"\b(?:a |the |our |my )?(?:[a-z-]+ )?{SUPERIOR} (?:now |already )?(?:owns?|has) (?:your|the"
               rf"|this) (?:case|ticket|request|complaint)"),
)
"""A superior said to hold or to have acted on the case."""
NOT_SAID = frozenset({"not", "never", "no", "if", "once", "when", "whenever", "unless", "until", "whether",
                      "can", "could", "will", "would", "should", "may", "might", "shall", "usually",
                      "normally", "typically", "generally", "always", "any", "every"})
"""What makes a clause about a superior something other than a statement that they hold the case:
negated, conditional, future or possible, or a general statement."""


@text_cache(max_chars=READING_CHARS, max_entries=4096)
def superiors(text: str) -> tuple[Frame, ...]:
    """The clauses of ``text`` that say a superior holds or has acted on the case, as frames of
    the concept ``superior`` (done)."""
    out: list[Frame] = []
    for clause in meaning.clauses(text, keep_soft=True):
        if clause.question or clause.conditional_sentence:
            continue
        joined = " ".join(clause.words)
        said = _vouched(joined)
        for pattern in WITH_SUPERIOR:
            m = pattern.search(said)
            if m is not None and not NOT_SAID & set(said[:m.end()].split()):
                out.append(Frame("superior", DONE, joined))
                break
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Team:
    """A team a case can be said to be with: the queue that is theirs, the words that name them
    (in a reply, and in the ticket's tags), and the outcomes that put the case in their hands."""

    queue: str
    words: str
    outcomes: frozenset[str]

    def has_case(self, queue: str | None, tags: Iterable[str], done: Iterable[str]) -> bool:
        """Whether a ticket in ``queue`` with ``tags`` and the outcomes ``done`` is in this team's
        hands: in their queue, tagged for their work ("Refund" for finance), or past an outcome of
        theirs."""
        named = re.compile(rf"\b(?:{self.words})\b")
        return (queue == self.queue or bool(self.outcomes & set(done))
                or any(named.search(tag.lower().replace("_", " ")) for tag in tags))


TEAMS: tuple[Team, ...] = (
    Team("trust_and_safety", r"security|fraud|trust|safety|abuse|risk|privacy|legal|compliance|data "
                             r"protection|gdpr|investigations?",
         frozenset({"fraud_review_opened", "incident_escalated", "legal_hold_placed"})),
    Team("billing", r"billing|finance|payments?|refunds?|accounts",
         frozenset({"refund_issued", "refund_denied"})),
    Team("technical", r"engineering|engineers|technical|tech|developers?|dev|platform|sre|infrastructure"
                      r"|incident|on-call|api", frozenset({"incident_escalated"})),
    Team("account", r"account|identity|access|login|sign-in",
         frozenset({"email_updated", "password_reset_sent"})),
)
"""The teams a case can be said to be with."""
_TEAM_WORDS = "|".join(f"(?:{team.words})" for team in TEAMS)
TEAM_HAS_IT = (
    re.compile(rf"\b(?:case|ticket|request|matter|complaint|report|issue|claim)s? (?:is|are|has been|have "
               rf"been|was|were) (?:now |already |also )?(?:with|in the hands of|assigned to|passed to|sent "
               rf"to|handed to|routed to|over to|moved to|forwarded to|transferred to) (?:(?:[a-z]+|one of "
               rf"(?:our|the) [a-z]+s?|someone|a colleague) (?:on|in|from|at) )?(?:the |our |a "
               rf")?(?:[a-z-]+ )?(?P<team>{_TEAM_WORDS})(?: [a-z-]+)? (?:team|specialists?|engineers"
               rf"|department|analysts|investigators|desk|folks|people|experts|unit|squad)\b"),
    re.compile(rf"\b(?:the|our) (?:[a-z-]+ )?(?P<team>{_TEAM_WORDS}) (?:team|specialists|engineers|department"
               rf"|analysts|investigators|experts|unit|squad) (?:has|have|are|is|were|was)(?: already| now| "
               rf"also)* (?:picked (?:it|this|your case) up|taken (?:it|this|your case) (?:on|over)|got (?:it"
               rf"|this|your case)|on (?:it|this|your case)|looking (?:at|into) (?:it|this|your)"
               rf"|investigating (?:it|this|your)|working on (?:it|this|your)|handling (?:it|this|your)"
               rf"|reviewing (?:it|this|your)|(?:opened|launched|started|begun) (?:an? |the "
               rf")?(?:investigation|inquiry|enquiry|review)|locked (?:down )?(?:your|the) account)"),
)
"""The case said to be in a named team's hands."""


def team_of(quote: str) -> Team | None:
    """The team ``quote`` says has the case, or None."""
    for pattern in TEAM_HAS_IT:
        m = pattern.search(quote)
        if m is None:
            continue
        for team in TEAMS:
            if re.fullmatch(team.words, m.group("team")):
                return team
    return None


@text_cache(max_chars=READING_CHARS, max_entries=4096)
def teams(text: str) -> tuple[Frame, ...]:
    """The clauses of ``text`` that say a named team has the case, as frames of the concept
    ``team`` (done): true where the ticket is in that team's hands (:meth:`Team.has_case`, read
    by :func:`graders.statements.contradicts`)."""
    out: list[Frame] = []
    for clause in meaning.clauses(text, keep_soft=True):
        if clause.question or clause.conditional_sentence:
            continue
        joined = " ".join(clause.words)
        said = _vouched(joined)
        m = next((p.search(said) for p in TEAM_HAS_IT if p.search(said)), None)
        if m is not None and not NOT_SAID & set(said[:m.end()].split()):
            out.append(Frame("team", DONE, joined))
    return tuple(out)
