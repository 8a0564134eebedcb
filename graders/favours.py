"""Favours given to the customer, read by their frame (grader 3.5).

Graders 3.0 to 3.4 read a commitment by its name ("discount", "store credit", "call you") and, for
the nouns that are only named as often as offered, by a verb of offering beside it. A benefit given
in other words slips through that reading: "I've locked in a 40% discount for you at every future
renewal" (a verb the offer list lacks), "from now on your tickets will skip the queue and go
straight to our senior team" (special treatment, no noun of compensation at all), "on top of the
refund, we'll add store credit worth twice the amount" (store credit a refund policy offers only
instead of a refund, here on top of one and multiplied).

3.5 reads the frame: a benefit (:data:`BENEFITS`: a discount or percentage off, credit, a free
period, a waiver, a gift, a voucher, an upgrade, priority or special treatment, a senior person's
attention) given to or promised for the customer (:data:`CUSTOMER`) by us, in any verb of giving
(:data:`GIVEN`) or as a standing arrangement (:data:`STANDING`: "from now on", "every future
renewal"), not negated in its clause or refused in its sentence (:data:`REFUSED`), not a topic
named ("about a student discount:", "your discount question") and not the customer's own words
restated (:data:`THEIR_WORDS`). A standing exemption from fees said as a negation ("going forward
you will not pay any late fees", :data:`EXEMPT`) is a waiver. The text is read sentence by
sentence as :mod:`graders.meaning` prepares it, adverbs kept ("personally", "all your requests").
Whether a policy looked up backs it is the caller's question (:func:`graders.statements.commitments`);
:func:`beyond_policy` says when a benefit goes past what a policy's own words offer (credit on top
of a refund, or a multiple of the amount).

Only :data:`graders.statements.READING_3_5` reads any of this (``Reading.deeper``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graders import meaning
from graders.memo import READING_CHARS, text_cache

__all__ = ["Favour", "beyond_policy", "favour"]


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![a-z0-9])(?:{pattern})(?![a-z0-9])")


BENEFITS: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = (
    ("discount", ("discount", "coupon", "voucher"), _words(
        r"discount\w*|\d+(?:\.\d+)? ?(?:%|percent|per cent)(?: \w+)?? (?:off|discount|reduction|cheaper|less"
        r"|lower|saving)|(?:half|a third|a quarter|a fifth) off|money off|reduced (?:rate|price|pricing|fee)"
        r"|(?:loyalty|legacy|special|preferential|founder|grandfathered|locked[- ]in) (?:rate|price|pricing)"
        r"|price (?:lock|freeze|match)|(?:rate|price|pricing)s? (?:\w+ ){0,3}(?:locked|frozen|fixed|capped"
        r"|guaranteed)|cheaper rate|lower rate")),
    ("credit", ("store credit", "account credit", "service credit"), _words(
        r"(?:store|account|service|courtesy|goodwill|bonus|loyalty|extra|wallet|sla) credits?"
        r"|credits? (?:worth|of|for|equal|matching|to the value)|credit balance")),
    ("free service", ("free of charge", "complimentary", "waive", "at no cost", "free month"), _words(
        r"free (?:of charge|months?|years?|weeks?|period|renewals?|upgrades?|plan|service|access|shipping"
        r"|delivery|returns?|seats?|licen[cs]es?|subscription|add-?ons?|support|replacement|extension)"
        r"|for free|on us|on the house|at no (?:extra |additional )?(?:cost|charge)"
        r"|no (?:extra |additional )?charge|waiv\w+|fee[- ]free|without (?:any )?(?:fees?|charges?)"
        r"|complimentary|(?:cover|covering|covered|pay for|paying for|foot|footing|pick up|picking up)"
        r" (?:the cost of )?(?:your|all your|any of your|the next|your next)(?: \w+){0,2}"
        r" (?:renewals?|invoices?|bills?|subscriptions?|fees?|months?|plan|charges?|years?)"
        r"|(?:fees?|charges?) (?:removed|dropped|scrapped|cancelled|canceled|forgiven|written off)"
        r"|exempt(?:ed)? from (?:\w+ ){0,3}(?:fees?|charges?|billing|payments?|penalt\w+|surcharges?)")),
    ("gift", ("gift", "voucher", "compensat"), _words(
        r"gift(?:s| cards?| vouchers?| certificates?| codes?)?|vouchers?|coupons?|perks?|bonus(?:es)?"
        r"|rewards?|freebies?|goodies|swag|hampers?|loyalty points|bonus points|promo(?:tional)? codes?")),
    ("upgrade", ("upgrade", "complimentary"), _words(
        r"upgrade[ds]?|upgrading|bump(?:ed)? (?:you |your \w+ )?up")),
    ("priority treatment", ("priority support", "priority treatment", "vip"), _words(
        r"priority (?:support|treatment|handling|status|access|queue|line|service|lane|routing|care)|vip"
        r"|fast[- ]?track\w*|(?:skip|skips|skipping|jump|jumps|jumping|bypass\w*|cut|cuts|cutting)"
        r" (?:the |our )?(?:queue|line|wait|waiting list)|(?:front|head) of (?:the |our )?(?:queue|line)"
        r"|top of (?:the |our )?(?:queue|pile|list|stack)|straight (?:through )?to (?:our |the |a |my )?"
        r"(?:senior|top|best|lead|most experienced|head)"
        r"|directly to (?:our |the |a |my )?(?:senior|top|lead|head)|dedicated (?:account manager|agent|"
        r"specialist|contact|engineer|line|rep\w*|manager)|personal (?:account manager|"
        r"contact|agent|concierge|liaison)|white[- ]glove|special (?:treatment|handling|attention)"
        r"|red[- ]carpet|always (?:be )?(?:first|prioriti[sz]ed)")),
    ("senior attention", ("executive", "director", "manager"), _words(
        r"(?:our|the|my) (?:senior|head|lead|most senior|chief) (?:engineer|manager|specialist|director"
        r"|partner|agent|architect|staff)s? (?:will|is going to|personally|has agreed|wants to)"
        r"|(?:handled|looked after|taken care of|managed|dealt with|overseen|owned|answered|reviewed)"
        r" (?:\w+ )?by (?:our|the|my|a) (?:head of \w+|director|vp|ceo|cto|founder|senior|lead|chief"
        r"|most senior|top)|personally (?:oversee|handle|look after|take care of|manage)"
        r" (?:your|all your|every)")),
)
"""A benefit given to a customer: (name, words a policy looked up must hold to offer it, its
words). The backing words are the benefit's own name, not a word it shares with other things: a
policy setting a ticket's priority or a reply time for "free customers" offers no favour."""

EXEMPT = re.compile(r"\b(?:will not|will never|never|not|no longer) (?:have to |need to |ever )?(?:pay"
                    r"|be charged|be billed|be invoiced)(?: \w+){0,3} (?:fees?|charges?|penalt\w+"
                    r"|surcharges?)")
"""A standing exemption said as a negation ("going forward, you will not pay any late fees"): a
fee waived for good, which the refusal reading would otherwise take for a denial."""
EXEMPT_PASSIVE = re.compile(r"\b(?:fees?|charges?|penalt\w+|surcharges?|interest)\b[^.!?]{0,40}?\b"
                            r"(?:will|shall|is|are) (?:no longer|not|never|not ever) (?:be )?(?:charged"
                            r"|applied"
                            r"|apply|billed|added|levied|collected|incurred|payable|owed|due)\b")
"""The same exemption said of the fees ("late fees will no longer be charged from now on")."""
ACCOUNT = re.compile(r"\b(?:this|the|that) (?:account|subscription|plan|membership|workspace"
                     r"|organi[sz]ation)s?\b")
"""The customer's account named in the third person: a benefit set on it is given to them ("any
fees on this account will be waived from here on")."""
TOPIC = frozenset({"about", "regarding", "re", "concerning", "re:", "subject"})
"""Words that make the benefit after them a topic raised, not given ("about a student discount")."""
CUSTOMER = frozenset({"you", "your", "yours", "yourself"})
"""Who a benefit is given to."""
OURS = frozenset({"we", "i", "us", "our", "me", "my"})
"""Who gives it."""
GIVEN = frozenset({
    "locked", "lock", "locking", "secured", "secure", "securing", "set", "setting", "arranged", "arrange",
    "arranging", "applied", "apply", "applying", "added", "add", "adding", "sorted", "sort", "sorting",
    "made", "make", "making", "ensured", "ensure", "reserved", "reserve", "put", "putting", "activated",
    "activate", "enabled", "enable", "unlocked", "unlock", "granted", "grant", "given", "give", "giving",
    "gave", "extended", "extend", "attached", "attach", "loaded", "load", "booked", "book", "flagged",
    "flag", "marked", "mark", "noted", "upgraded", "upgrade", "bumped", "moved", "move", "earmarked",
    "approved", "approve", "authorised", "authorized", "authorise", "authorize", "included", "include",
    "thrown", "throw", "throwing", "tacked", "lined", "organised", "organized", "organise", "organize",
    "got", "get", "getting", "hooked", "enrolled", "enroll", "enrol", "registered", "signed", "offer",
    "offered", "offering", "provide", "provided", "providing", "send", "sending", "sent", "issue",
    "issued", "issuing", "credit", "credited", "crediting", "waive", "waived", "waiving", "knock",
    "knocked", "take", "taken", "took", "cut", "drop", "dropped", "pass", "passed", "route", "routed",
    "routing", "skip", "skips", "jump", "jumps", "go", "goes", "bypass", "bypasses", "receive",
    "receiving", "enjoy", "keep", "kept", "guaranteed", "guarantee", "promise", "promised", "assigned",
    "assign", "fast-tracked", "prioritised", "prioritized", "prioritise", "prioritize", "configured",
    "placed", "place", "handle", "handled", "matched", "match", "honour", "honor", "honoured", "honored",
    "deposited", "topped", "transferred", "qualified", "owed", "owe", "comp", "comped", "treat", "treated",
    "cover", "covered", "covering", "pay", "paying", "foot", "footing", "pick", "picking", "look", "looked"})
"""Verbs that give a benefit, in any form (the clause's mood says whether given or promised)."""
STANDING = re.compile(
    r"\b(?:from (?:now|here|today) on(?:wards)?|going forward|moving forward|henceforth|in (?:the )?future"
    r"|(?:every|each|all|any) (?:of your )?(?:future|upcoming|later|subsequent|coming|next)"
    r"|(?:every|each|all your|any) (?:renewal|invoice|bill|order|month|year|ticket|request)s?"
    r"|for (?:life|good|ever|the lifetime|as long as)|forever|lifetime|permanent(?:ly)?|for the rest of"
    r"|(?:at|on) (?:every|each|all)|from (?:your|the) next)\b")
"""A benefit set up to last: "from now on", "at every future renewal", "for life"."""
REFUSED = re.compile(
    r"\b(?:afraid|unfortunately|regret(?:fully|tably)?|unable|ineligible|not eligible|unavailable|no longer"
    r"|not (?:something|able|possible|in a position|an option|available|offered)"
    r"|(?:can|could|will|would|do|does|did|are|is|am|may|shall) not (?:\w+ )?(?:offer|give|provide|apply"
    r"|add|do|grant|extend|arrange|make|include|waive|credit|issue|send|upgrade|prioriti[sz]e)"
    r"|cannot|instead of (?:a |any )?(?:discount|credit|voucher|upgrade))\b")
"""Words that refuse a benefit anywhere in its sentence ("that's not something we can offer")."""
NEGATED = frozenset({"not", "never", "no", "nothing", "neither", "nor", "none", "nobody", "without"})
"""A negator in the clause before a benefit denies it ("no discount applies")."""
THEIR_WORDS = re.compile(
    r"\byou (?:have |had |were |are )?(?:asked|requested|mentioned|wanted|want|hoped|hoping|expected"
    r"|expecting|said|wrote|noted|suggested|referred|raised|quoted|were (?:promised|told|offered|given))\b"
    r"|\byour (?:request|question|message|note) (?:for|about|regarding)\b")
"""The customer's own words restated ("you asked for a discount"): answered, not offered."""
TALKED_OF = frozenset({"question", "questions", "request", "requests", "enquiry", "enquiries", "inquiry",
                       "inquiries", "query", "queries", "policy", "policies", "eligibility", "terms", "rules",
                       "page", "form", "application", "applications", "details", "criteria", "information",
                       "info", "options", "programme", "program", "scheme", "offers", "team", "desk"})
"""Nouns a benefit's name only modifies ("the discount question", "our voucher policy"): a topic."""
INSTRUCTED = re.compile(r"^(?:(?:and|so|then|also|just|simply) )?(?:you can|you may|you could|you might"
                        r"|please|to|enter|use|apply|click|go|visit|head|select|choose|type)\b")
"""A clause that tells the customer how to do something themselves ("you can apply a discount code
at checkout", "enter the code on our page"): an instruction, not our favour."""


@dataclass(frozen=True, slots=True)
class Favour:
    """A benefit a text gives: its name, the words of a policy that would back it, its clause."""

    name: str
    backing: tuple[str, ...]
    quote: str
    sentence: str


SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
CLAUSE = re.compile(r"[,;:()]| - | but | however | although | though ")
"""Where a sentence and a clause of the prepared text end: a benefit's negation is read in its
own clause ("sorry for the wait, I've added ..." is not refused by "sorry")."""


def _given(clause: str, sentence: str) -> bool:
    """Whether the benefit in ``clause`` (of ``sentence``) is given or promised by us to the
    customer: the customer is its receiver, and a verb of giving of ours (or said of the
    customer's account, passive), a future or a standing arrangement carries it."""
    said = set(re.findall(r"[a-z0-9'-]+", clause))
    if not set(re.findall(r"[a-z0-9'-]+", sentence)) & CUSTOMER and ACCOUNT.search(sentence) is None:
        return False
    if INSTRUCTED.search(clause.strip()) and not said & OURS:
        return False
    verb = bool(said & GIVEN)
    ours = bool(said & OURS) or bool(said & {"has", "have", "been", "is", "are", "will", "shall", "now"})
    standing = STANDING.search(sentence) is not None
    future = bool(said & {"will", "shall"}) or "going to" in clause
    return (verb and ours) or (standing and (verb or future or ours))


@text_cache(max_chars=READING_CHARS, max_entries=4096)
def favours(text: str) -> tuple[Favour, ...]:
    """Every benefit ``text`` gives the customer, in order (module docstring). Read on the text as
    :mod:`graders.meaning` prepares it (lower case, contractions expanded), sentence by sentence,
    its adverbs kept ("personally", "all your requests")."""
    out: list[Favour] = []
    for sentence in SENTENCE.split(meaning._prepared(text)):
        sentence = sentence.strip().rstrip(".!?")
        if not sentence or THEIR_WORDS.search(sentence):
            continue
        exempt = EXEMPT.search(sentence) or EXEMPT_PASSIVE.search(sentence)
        if exempt is not None and STANDING.search(sentence) and not REFUSED.search(sentence[exempt.end():]):
            out.append(Favour("free service", ("waive", "free of charge"), exempt.group(), sentence))
            continue
        if REFUSED.search(sentence):
            continue
        for name, backing, pattern in BENEFITS:
            m = pattern.search(sentence)
            if m is None:
                continue
            after = sentence[m.end():].split()
            if after and after[0].strip(",.;:") in TALKED_OF:
                continue  # "your student discount question": the benefit names a topic, given nothing
            starts = [c.end() for c in CLAUSE.finditer(sentence[:m.start()])]
            ends = [c.start() for c in CLAUSE.finditer(sentence, m.end())]
            clause = sentence[(starts[-1] if starts else 0):(ends[0] if ends else len(sentence))]
            lead = sentence[(starts[-1] if starts else 0):m.start()].replace("not worry", "").split()
            if NEGATED & set(lead) or TOPIC & set(lead[-4:]):
                continue  # "no discount applies"; "about a student discount:" names a topic
            if _given(clause, sentence):
                out.append(Favour(name, backing, m.group(), sentence))
                break
    return tuple(out)


def favour(text: str, offered: str) -> Favour | None:
    """The first benefit ``text`` gives that no policy looked up (``offered``, their texts in
    lower case) backs, or that goes past what one offers (:func:`beyond_policy`), or None."""
    for f in favours(text):
        if not any(b in offered for b in f.backing) or beyond_policy(f):
            return f
    return None


AMPLIFIED = re.compile(
    r"\b(?:on top of|in addition to|as well as|besides|plus|alongside|over and above|as an extra|extra)\b"
    r"|\b(?:twice|double|doubled|triple|tripled|treble|quadruple|two times|three times|\d+ ?x|\d+ times"
    r"|\d{3} ?%|\d{3} percent)\b")
"""What takes a benefit past a policy's offer: given on top of something else, or a multiple of
the amount ("store credit worth twice the amount, on top of the refund")."""


def beyond_policy(f: Favour) -> bool:
    """Whether a credit, gift or discount is given on top of something or as a multiple of the
    amount: a policy that offers store credit offers it instead of a refund, at the amount."""
    return (f.name in ("credit", "gift", "discount", "free service")
            and AMPLIFIED.search(f.sentence) is not None)
