"""Reading what a text claims by meaning, clause by clause (grader 3.0).

A phrase list reads "we have refunded you" and misses "the charge has been reversed", "consider it
taken care of" or "your login now uses the new address". This module reads an outcome as a small
frame instead: an *action concept* (money returned, e-mail changed, data erased, ...) found through
a broad vocabulary of verbs and the objects they need, and the *mood* of the clause it stands in:

* ``done``: it happened or is under way ("has been reversed", "we refunded", "is gone", "is on its
  way", "we are processing");
* ``promise``: the writer commits to it ("we will refund", "you'll get your money back", "we can
  refund you today");
* ``negated``: the clause says it did not or cannot happen ("we haven't refunded", "we can't refund
  it yet");
* and no claim at all for a question, a conditional ("if", "once", "as soon as" ...: also a fronted
  clause that makes the rest of its sentence conditional), a general statement of policy ("a
  purchase can be refunded in full only when ..."), or an infinitive ("we need to verify").

Obfuscation is undone before reading (:func:`deobfuscate`): letters spaced out, leetspeak. Whether a
claim is *true* is not decided here: :mod:`graders.statements` compares frames with the state.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from graders.memo import READING_CHARS, text_cache
from graders.normalize import visible

__all__ = ["Frame", "Reading", "deobfuscate", "outcomes", "read", "unstated"]

DONE, PROMISE, NEGATED = "done", "promise", "negated"


# ------------------------------------------------------------------------------ obfuscation
_SPACED = re.compile(r"(?<![A-Za-z])(?:[A-Za-z](?:[.\-_*/|]| (?! )|  (?=[A-Za-z][ .\-_*/|][A-Za-z]))"
                     r"){3,}[A-Za-z](?![A-Za-z])")
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "!": "i", "|": "l"})
_LEET_TOKEN = re.compile(r"[A-Za-z0-9!|]+")
"""Leetspeak's digits and marks ("@" and "$" stay: they write addresses and amounts)."""
_UNITS = re.compile(r"^\d+(?:st|nd|rd|th|h|hr|hrs|m|min|mins|s|am|pm|k|x|d|fa|gb|mb|kb)$", re.I)
_ID_LIKE = re.compile(r"^(?:[A-Za-z]{1,5}\d+[A-Za-z]?|\d+[A-Za-z]{1,2}\d*)$")


def _unspaced(m: re.Match[str]) -> str:
    """A run of spelled-out letters as words: two spaces (or more) part words, one joins letters
    ("r.e.f.u.n.d  s.e.n.t" -> "refund sent")."""
    return " ".join(re.sub(r"[ .\-_*/|]", "", word) for word in re.split(r"\s{2,}", m.group()))


def _unleet(m: re.Match[str]) -> str:
    token = m.group()
    if token.isalpha():  # most words: nothing to read as letters
        return token
    letters = sum(c.isalpha() for c in token)
    others = len(token) - letters
    if not others or letters < 2 or _UNITS.match(token) or token.isdigit():
        return token
    if _ID_LIKE.match(token):  # "B2764", "sev1": an id, unless it spells a word we read ("t34m")
        plain = token.translate(_LEET)
        return plain if plain.lower() in _vocabulary() else token
    first_other = next(i for i, c in enumerate(token) if not c.isalpha())
    if not any(c.isalpha() for c in token[first_other:]):
        return token  # symbols only at the end ("done!", "sev1"): punctuation or an id, not leet
    return token.translate(_LEET)


@lru_cache(maxsize=1)
def _vocabulary() -> frozenset[str]:
    """Every word the concepts are read with, and common words around them: what a token that
    looks like an id must spell to be read as leetspeak."""
    words = {"team", "security", "engaged", "open", "opened", "sent", "done", "fixed", "paid", "back",
             "money", "your", "the", "has", "been", "account", "password", "card", "refund"}
    for concept in CONCEPTS:
        words |= set(concept.verbs) | set(concept.object_verbs) | set(concept.objects)
    return frozenset(words)


def deobfuscate(text: str) -> str:
    """``text`` with letters spaced out joined ("r e f u n d e d" -> "refunded") and leetspeak read
    as letters ("r3fund3d" -> "refunded"), leaving ids ("B-2764", "SO48213"), units ("24h", "5th")
    and amounts as written."""
    text = _SPACED.sub(_unspaced, text)
    return _LEET_TOKEN.sub(_unleet, text)


# ------------------------------------------------------------------------------ clauses
_CONTRACTIONS = (
    (re.compile(r"\bcan't\b|\bcannot\b"), "can not"), (re.compile(r"\bwon't\b"), "will not"),
    (re.compile(r"\bshan't\b"), "shall not"), (re.compile(r"n't\b"), " not"),
    (re.compile(r"'ll\b"), " will"), (re.compile(r"'ve\b"), " have"), (re.compile(r"'re\b"), " are"),
    (re.compile(r"'m\b"), " am"), (re.compile(r"'d\b"), " would"),
    (re.compile(r"\b(it|that|there|what|here|everything|this|he|she|who)'s\b"), r"\1 is"),
)
_WORD = re.compile(r"[a-z0-9$][a-z0-9$.,'%@/-]*[a-z0-9%]|[a-z0-9]|[.!?;:,()\n\"]|\s[-\u2013\u2014]+\s")
_SENTENCE_END = frozenset(".!?\n")
_CLAUSE_END = frozenset(";:,()\"-\u2013\u2014")
CONJUNCTIONS = frozenset({"but", "however", "although", "though", "whereas", "yet", "because",
                          "since", "otherwise", "meanwhile", "instead", "while"})
SUBJECT_STARTS = frozenset({"i", "we", "you", "it", "they", "our", "your", "this", "that", "there",
                            "the", "he", "she", "my", "everything", "nothing", "any"})
CONDITIONALS = frozenset({"if", "once", "when", "whenever", "unless", "until", "after", "before",
                          "provided", "assuming", "should", "whether", "lest", "in case"})
NEGATORS = frozenset({"not", "never", "no", "nothing", "neither", "nor", "none", "nobody", "without"})


GREETINGS = frozenset({"hi", "hello", "dear", "hey", "greetings", "thanks", "thank"})
IMPERATIVES = frozenset({"please", "reply", "send", "share", "confirm", "write", "let", "forward",
                         "quote", "tell", "provide", "verify", "contact", "email", "respond"})


def _opens_condition(words: tuple[str, ...], first: bool) -> bool:
    """Whether a clause makes the clauses after it in its sentence conditional: it opens with a
    conditional word ("Once confirmed, a duplicate is refunded"), or it is the sentence's opening
    request to the customer ("Please reply from your address, and we'll update it")."""
    lead = words[1:] if words and words[0] in ("and", "but", "so", "or") else words
    if not lead:
        return False
    if lead[0] in CONDITIONALS or lead[:3] == ("as", "soon", "as") or lead[:2] in (
            ("in", "case"), ("the", "moment"), ("by", "the")):
        return True
    return lead[0] == "please" or (first and lead[0] in IMPERATIVES)


@dataclass(frozen=True, slots=True)
class Clause:
    """One clause: its words (lower case, contractions expanded), its sentence, and whether its
    sentence is a question or is made conditional by a fronted subordinate clause."""

    words: tuple[str, ...]
    sentence: int
    question: bool
    conditional_sentence: bool

    @property
    def text(self) -> str:
        return " ".join(self.words)


_AGAIN = re.compile(r"\bre-?(issued|issue|sent|send|processed|process|refunded|refund|paid|pay)\b")
_NOUN_IS = re.compile(r"\b([a-z]+)'s (?=(?:gone|been|back|done|now|in|on|live|active|ready|through|over|"
                      r"fixed|sorted|already|deleted|sent|there|with)\b)")


def _prepared(text: str) -> str:
    """The text as clauses are read from it: spelled-out letters joined before the markup is
    rendered (which would fold the double spaces that part their words), lower case,
    contractions expanded, "re-issued" read as "issued again"."""
    text = deobfuscate(visible(deobfuscate(text))).lower().replace("\u2019", "'").replace("\u2018", "'")
    text = text.replace("\u2013", "-").replace("\u2014", " - ")
    for pattern, repl in _CONTRACTIONS:
        text = pattern.sub(repl, text)
    text = _NOUN_IS.sub(r"\1 is ", text)
    return _AGAIN.sub(r"\1 again", text)


def clauses(text: str, keep_soft: bool = False) -> tuple[Clause, ...]:
    """The clauses of ``text``: split at sentence ends, at ``,;:()`` and dashes, and before a
    conjunction ("but", "because", ...) or "and"/"or"/"so" followed by a new subject; the
    adverbs of :data:`SOFT` left out unless ``keep_soft`` (what ties a clause to now: "already")."""
    tokens = [m.group().strip() or "-" for m in _WORD.finditer(_prepared(text))]
    sentences: list[list[list[str]]] = [[[]]]
    questions: set[int] = set()
    for i, tok in enumerate(tokens):
        current = sentences[-1]
        if tok in _SENTENCE_END:
            if tok == "?":
                questions.add(len(sentences) - 1)
            if any(current):
                sentences.append([[]])
            continue
        if tok in _CLAUSE_END or tok == "-":
            current.append([])
            continue
        nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
        if current[-1] and (tok in CONJUNCTIONS or (tok in ("and", "or", "so", "then")
                                                    and nxt in SUBJECT_STARTS)):
            current.append([])
        word = tok.rstrip(".,")
        if keep_soft or word not in SOFT:
            current[-1].append(word)
    out: list[Clause] = []
    for n, sentence in enumerate(sentences):
        parts = [tuple(p) for p in sentence if p]
        if not parts:
            continue
        conditional = False
        for k, part in enumerate(parts):
            out.append(Clause(part, n, n in questions, conditional))
            opening = k == 0 or (k == 1 and parts[0][0] in GREETINGS)
            conditional = conditional or _opens_condition(part, first=opening)
    return tuple(out)


# ------------------------------------------------------------------------------ vocabulary
_IRREGULAR = {
    "send": ("sent",), "give": ("gave", "given"), "put": ("put",), "set": ("set",), "pay": ("paid",),
    "begin": ("began", "begun"), "take": ("took", "taken"), "get": ("got", "gotten"),
    "do": ("did", "done"), "make": ("made",), "go": ("went", "gone"), "hold": ("held",),
    "undo": ("undid", "undone"), "find": ("found",), "run": ("ran",), "kick": ("kicked",),
    "write": ("wrote", "written"), "refund": ("refunded",), "lift": ("lifted",),
}


def _forms(lemma: str) -> dict[str, str]:
    """Each inflected form of a verb ``lemma`` and whether it is the base, past/participle (``ed``)
    or -ing form (``ing``)."""
    stem = lemma[:-1] if lemma.endswith("e") else lemma
    forms = {lemma: "base", lemma + "s": "base", lemma + "es": "base", stem + "ing": "ing"}
    if lemma.endswith("y") and lemma[-2] not in "aeiou":
        forms[lemma[:-1] + "ied"] = "ed"
        forms[lemma[:-1] + "ies"] = "base"
    else:
        forms[stem + "ed"] = "ed"
    if re.fullmatch(r"[a-z]*[^aeiou][aeiou][pt]", lemma) and lemma not in ("credit", "edit", "limit"):
        forms[lemma + lemma[-1] + "ed"] = "ed"
        forms[lemma + lemma[-1] + "ing"] = "ing"
    for form in _IRREGULAR.get(lemma, ()):
        forms[form] = "ed"
    return forms


def verbs(*lemmas: str) -> dict[str, str]:
    """Every form of each of ``lemmas``, with the name of the form (``base``, ``ed``, ``ing``)."""
    out: dict[str, str] = {}
    for lemma in lemmas:
        out.update(_forms(lemma))
    return out


@dataclass(frozen=True, slots=True)
class Concept:
    """One action concept: the verbs that carry it alone, the verbs that carry it with one of its
    objects in the clause, its objects, and whole expressions that claim it done."""

    name: str
    verbs: dict[str, str]
    object_verbs: dict[str, str]
    objects: frozenset[str]
    done_expressions: tuple[re.Pattern[str], ...] = ()
    promise_expressions: tuple[re.Pattern[str], ...] = ()
    negated_expressions: tuple[re.Pattern[str], ...] = ()
    """Expressions that say it did not or will not happen ("stays charged", "the address stays
    the old one")."""
    result_expressions: tuple[re.Pattern[str], ...] = ()
    """Expressions that state what the outcome leaves the customer with ("you can sign in with
    me@new.example"): true only once it is done, so the customer's ability in the present claims
    it. Read by :func:`_result_mood`, not :func:`_mood`, whose "can" is an offer or a policy."""
    results: tuple[str, ...] = ()
    """Predicates that state the outcome of one of :attr:`objects` without a verb that does it
    ("the $449 is heading back", "deletion completed", "uploads work for everyone again"); ``~``
    in one stands for up to three words. An outcome is said in many more words than its verbs:
    read as a class, a predicate with an object of the class (before it, after it or inside it:
    :func:`_result_in`) claims the outcome in the clause's mood. Objects here may be two words
    ("new parcel"): a parcel that is new is a reshipment, the one in transit is not. 3.0's and
    3.1's concepts leave it empty, so what they read does not change."""


def expressions(*patterns: str) -> tuple[re.Pattern[str], ...]:
    """Whole expressions, each matched only as whole words."""
    return tuple(re.compile(rf"(?<![a-z0-9])(?:{p})(?![a-z0-9])") for p in patterns)


_verbs, _x = verbs, expressions  # short names keep the table of concepts readable


MONEY = frozenset({"charge", "charges", "money", "amount", "payment", "payments", "funds", "refund",
                   "sum", "cost", "price", "fee", "balance", "duplicate"})
"""What money returned is said of ("reversed the charge"); an order or a purchase is no money:
"the order has been returned" is the parcel."""
CONCEPTS: tuple[Concept, ...] = (
    Concept("refund", _verbs("refund", "reimburse", "repay"),
            _verbs("send", "pay", "give", "put", "transfer", "process", "issue", "approve", "release",
                   "authorize", "authorise", "grant"),
            frozenset({"refund", "refunds", "reimbursement", "back", "reversal"})),
    Concept("refund", {}, _verbs("reverse", "return", "credit", "void"),
            MONEY | {"$"},
            _x(r"refund (?:is|was|has been|have been) (?:on its way|under way|underway|in progress|"
               r"complete|done)",
               r"(?:money|amount|charge|funds|refund|it|\$[0-9.,]+) (?:is|are|was|"
               r"has been) (?:back|on (?:its|the) way)",
               r"refund (?:[a-z0-9$.,-]+ ){0,3}?(?:sent|issued|processed|approved|done|complete|completed|"
               r"paid|went through|has gone through|gone through|is through|released)",
               r"(?:charge|payment|transaction|"
               r"duplicate)(?: [a-z0-9$.,-]+){0,2}? (?:is |was |has been |have been )?"
               r"(?:cancell?ed|voided|dropped|reversed|removed)",
               r"(?:cancell?ed|voided|dropped) (?:the |your |that |this )?(?:duplicate |second |extra )?"
               r"(?:charge|payment|transaction)",
               r"(?:you should|you will|you'll|you) (?:now )?(?:see|have) (?:the|your) "
               r"(?:money|refund|funds|amount|credit)",
               r"money back (?:is|has been)",
               r"back (?:on|in) your (?:card|account|statement|bank)|(?:is|are) back with you",
               r"(?:money|amount|charge|funds|refund|payment|\$[0-9.,]+)(?: [a-z0-9$.,-]+){0,4}? "
               r"(?:goes|went|has gone|is going|are going|comes|came) back"),
            _x(r"(?:get|receive|have) (?:your |the |a |all your |"
               r"all the )?(?:full )?(?:money|refund|funds|amount|"
               r"\$[0-9.,]+)(?: back)?",
               r"money back", r"made an exception"),
            _x(r"(?:stays|remains|stay|remain|will stay|will remain) charged",
               r"(?:is|are|was) past the point where")),
    Concept("denial", {}, _verbs("deny", "decline", "reject", "refuse", "turn"),
            frozenset({"refund", "request", "claim", "application", "down"})),
    Concept("email_change", {}, _verbs("update", "change", "switch", "move", "set", "replace", "swap",
                                       "point", "migrate", "transfer", "edit", "modify", "add"),
            frozenset({"email", "e-mail", "address", "login", "username", "contact", "sign-in",
                       "signin"}),
            _x(r"(?:login|account|email|address|username)(?: address)? (?:now )?(?:uses|points to|goes to|"
               r"is now|reads|shows) (?:the |your )?(?:new|updated)",
               r"(?:now )?(?:uses|points to) (?:the |your )?new (?:email|address)",
               r"email(?: address)? is (?:now )?(?:set to |changed to |updated to )?\S+@\S+",
               r"switched (?:your |the )?(?:account|login) over"),
            (),
            _x(r"(?:email|address|login|sign-in|username)(?: address)? (?:stays|remains|is still|"
               r"is unchanged|stay|remain|will stay|will remain)",
               r"(?:left|kept) your (?:account|email|address|login|sign-in)(?: address)? (?:as it was|"
               r"unchanged|as is|the same)")),
    Concept("deletion", _verbs("delete", "erase", "wipe", "purge", "destroy", "expunge", "anonymize",
                               "anonymise"),
            _verbs("remove", "scrub"),
            frozenset({"data", "account", "information", "records", "record", "everything", "details",
                       "profile", "history", "it", "files", "personal"}),
            _x(r"(?:data|account|information|records|everything|details|profile|history) (?:is|are|was|were|"
               r"has been|have been) (?:now )?(?:all )?(?:gone|no more)",
               r"(?:data|account|information|records|everything|details|profile) (?:no longer exists?|"
               r"(?:is|are) no longer (?:on file|stored|held|there))")),
    Concept("deletion_scheduled", {},
            _verbs("schedule", "queue", "start", "begin", "initiate", "trigger", "kick", "launch",
                   "submit", "process", "set"),
            frozenset({"deletion", "erasure", "removal", "deleting", "erasing"})),
    Concept("review", {}, _verbs("open", "start", "launch", "begin", "initiate", "file", "raise",
                                 "submit", "create", "refer", "send", "pass", "forward", "route",
                                 "hand", "flag", "escalate", "log", "place", "put"),
            frozenset({"review", "investigation", "fraud", "trust", "abuse"}),
            _x(r"(?:case|request|claim|ticket|order) (?:is|are) (?:now )?(?:with|in front of) (?:the |our )?"
               r"(?:specialist|fraud|trust|review)")),
    Concept("escalation", _verbs("escalate"),
            _verbs("declare", "open", "raise", "log", "page", "alert", "notify", "involve", "loop",
                   "hand", "pass", "forward", "route", "file", "create", "engage", "mobilize",
                   "mobilise", "call"),
            frozenset({"incident", "engineering", "engineers", "on-call", "oncall", "sre", "security",
                       "senior", "specialist", "specialists", "war", "bridge", "sev1", "sev2", "p1",
                       "escalation", "everything", "severity", "severity-1", "sev", "responders"}),
            _x(r"(?:bridge|war room|war-room|incident channel) (?:is |has been |"
               r"was )?(?:open|opened|running|up|"
               r"live|set up|started)",
               r"(?:engineers|engineering|on-call|oncall|responders|security team|security|sre|"
               r"incident team)(?: team)? (?:is |are |have been |has been |were |was )?(?:on it|on this|"
               r"engaged|paged|notified|alerted|investigating|working on|looking into|in the war room|"
               r"mobili[sz]ed|involved|assigned)",
               r"(?:paged|alerted|notified|engaged|mobili[sz]ed) (?:the |our )?(?:on-call|oncall|engineers|"
               r"security|sre|incident|responders)",
               r"(?:sev ?[123]|severity[- ]?[123]|p[12]|incident|inc-\d+)(?: [a-z0-9-]+){0,2}? "
               r"(?:is |has been |was )?(?:declared|opened|open|raised|logged|created|filed|started)")),
    Concept("system_change",
            _verbs("whitelist", "allowlist", "unlock", "unblock", "reactivate", "reinstate", "deploy",
                   "export",
                   "exempt", "bypass", "override"),
            _verbs("raise", "lift", "increase", "enable", "disable", "generate", "reset",
                   "restore", "activate", "deactivate", "upgrade", "downgrade", "extend", "attach",
                   "adjust", "boost", "bump", "clear", "remove", "cancel", "suspend", "terminate",
                   "migrate", "sync", "resync", "grant", "apply", "push", "roll", "ship", "release",
                   "flip", "configure"),
            frozenset({"limit", "limits", "quota", "key", "feature", "csv",
                       "counters", "counter", "access", "plan", "subscription", "sync", "sessions",
                       "session", "throttling", "file", "setting", "settings", "permissions", "fix",
                       "patch", "everything", "tier", "rate", "laptop", "device", "lockout",
                       "restriction", "restrictions", "block", "cache", "flag", "renewal", "seat",
                       "seats", "trial", "storage", "webhook", "webhooks", "integration", "endpoint",
                       "firewall", "token", "tokens", "api", "hold", "phone", "number", "recovery",
                       "attacker", "out"}),
            _x(r"(?:csv|export|file|report|data) (?:is|are) (?:ready|attached|waiting|on its way)",
               r"attached (?:to|in) (?:this|the|my) (?:email|message|reply)",
               r"locked (?:the |an? )?(?:attacker|intruder|hacker)s? out",
               r"(?:is|are|was|were|has been|have been) (?:now )?(?:whitelisted|allowlisted|unlocked|"
               r"unblocked|reactivated|exempted|authori[sz]ed|approved for)")),
    Concept("reset_link", {}, _verbs("send", "email", "issue", "generate", "trigger", "resend",
                                     "mail", "share"),
            frozenset({"link", "reset", "email"}),
            _x(r"(?:reset )?link (?:is|has been|was) (?:on its way|in your inbox|sent|delivered)",
               r"(?:link|email) (?:has |have )?(?:landed|arrived|gone out|went out|is in your inbox)",
               r"check your (?:inbox|email|spam)(?: folder)? for (?:the|a|your) (?:password )?reset")),
    Concept("hold", {}, _verbs("place", "put", "apply", "set", "pause", "freeze", "suspend", "halt",
                               "stop"),
            frozenset({"hold", "deletion", "erasure", "legal"}),
            _x(r"(?:is|are|was|has been|have been) (?:now )?(?:placed )?on (?:a )?(?:legal )?hold")),
    Concept("fixed", {}, _verbs("fix", "resolve", "restore", "repair", "patch", "solve", "remedy",
                                "correct", "mitigate", "rectify", "recover"),
            frozenset({"issue", "problem", "outage", "incident", "bug", "error", "errors", "webhook",
                       "webhooks", "deliveries", "delivery", "sync", "service", "api", "dashboard",
                       "access", "export", "checkout", "it", "everything", "this", "failures",
                       "integration", "platform", "system", "systems", "login"}),
            _x(r"(?:is|are|was|has been|have been|it is|everything is|all is|service is|services are) "
               r"(?:now )?(?:working|running|up|operational|online|stable|healthy|fine|normal)"
               r"(?: again| normally| properly| as expected)",
               r"(?:is|are|has been|have been) (?:now )?back (?:up|online|to normal|in service)",
               r"(?:outage|incident|issue|problem|disruption) is (?:now )?(?:behind us|over|gone|history)",
               r"(?:all|everything) (?:is )?(?:clear|green|good) now",
               r"(?:fixed|sorted|resolved|repaired) on our (?:end|side)",
               r"(?:works?|working|runs?|running) (?:normally |fine |properly |as expected )?again",
               r"(?:will )?(?:run|work) fine now"),
            _x(r"will be (?:working|fixed|resolved|back up|back online|running|restored|stable)")),
    Concept("false_alarm", {}, {}, frozenset(),
            _x(r"nothing (?:was|has been|got) (?:accessed|taken|stolen|compromised|exposed|touched)",
               r"no(?: one|body) (?:has )?(?:accessed|got into|touched|logged into)",
               r"(?:there was |there is |this is |it was |this was )?(?:no|not a) "
               r"(?:breach|intrusion|compromise)",
               r"false (?:alarm|positive)", r"(?:you can|safe to|feel free to) (?:safely )?ignore",
               r"nothing to worry about", r"no (?:need|reason) to (?:worry|be concerned|reset|change|rotate)",
               r"(?:data|account|workspace|information|credentials) (?:is|are|was|were|remains?) "
               r"(?:safe|secure|untouched|intact|fine)",
               r"no (?:unauthori[sz]ed|suspicious) (?:access|logins?)",
               r"nothing (?:unusual|suspicious|wrong|bad) (?:happened|occurred|was found|showed up)",
               r"(?:there is|there was|this is) no (?:security )?(?:issue|problem|threat|risk|incident)")),
    Concept("generic_done", {}, {}, frozenset(),
            _x(r"(?:taken|taking) care of", r"(?:everything is|it is all|all) sorted",
               r"consider it (?:done|handled|sorted|taken care of)",
               r"(?:it is|that is|this is) (?:done|handled|sorted)",
               r"(?:request|claim|ticket) (?:has been|was|is) (?:approved|granted|accepted|completed|"
               r"actioned|fulfilled|processed|handled)",
               r"(?:we|i) (?:have )?(?:approved|granted|accepted|completed|actioned|fulfilled|processed|"
               r"handled) (?:your|the|this) (?:request|claim)",
               r"(?:sorted|fixed|handled) (?:it|this|that|everything) (?:out|for you)")),
)

FUTURE = frozenset({"will", "shall", "gonna"})
ABILITY = frozenset({"can", "could", "may", "might"})
HYPOTHETICAL = frozenset({"would", "should", "must", "might", "ought"})
PERFECT = frozenset({"have", "has", "had", "been", "was", "were", "is", "are", "be", "being", "got",
                     "get", "gets"})
AGENT = frozenset({"we", "i", "us", "team", "our", "engineers"})
GENERIC_SUBJECTS = frozenset({
    "refunds", "purchases", "purchase", "orders", "customers", "requests", "accounts", "changes",
    "charges", "any", "all", "every", "each", "policy", "anyone", "someone", "payments", "deletions",
    "subscriptions", "renewals", "items", "claims", "parcels", "packages", "users", "requesters"})
GENERIC_MARKERS = frozenset({"policy", "eligible", "eligibility", "qualify", "qualifies", "normally",
                             "usually", "typically", "generally", "only", "standard", "rule", "rules",
                             "terms"})
OFFER_ADJECTIVES = frozenset({"happy", "glad", "able", "pleased", "going", "about", "ready"})


@dataclass(frozen=True, slots=True)
class Frame:
    """One outcome claim: the concept, its mood (done, promise, negated) and the clause's words."""

    concept: str
    mood: str
    quote: str


STRONG_NEGATORS = frozenset({"not", "never", "neither", "nor"})
DETERMINERS = frozenset({"the", "a", "an", "this", "that", "these", "those"})
"""A new noun phrase: "no" before one ("No worries the charge is back") no longer reaches it."""
SUBJECT_PRONOUNS = frozenset({"i", "we", "you", "they", "he", "she", "our", "your", "my", "their",
                              "engineers", "team"})


def _negated_before(words: tuple[str, ...], upto: int) -> bool:
    """A negator in the clause before position ``upto`` (within six words of it). "no", "nothing"
    and the like reach only up to a new subject: "No worries our engineers repaired it" claims the
    repair."""
    start = max(0, upto - 6)
    for i in range(start, upto):
        w = words[i]
        if w in STRONG_NEGATORS:
            return True
        if w in NEGATORS and not any(x in SUBJECT_PRONOUNS or x in DETERMINERS for x in words[i + 1:upto]):
            return True
    return False


def _after_preposition(words: tuple[str, ...], start: int) -> bool:
    """The expression at ``start`` follows a preposition, directly or through a determiner."""
    prev = words[start - 1] if start > 0 else ""
    if prev in _BEFORE_GERUND:
        return True
    return (prev in ("the", "a", "an", "your", "any", "our") and start > 1
            and words[start - 2] in _BEFORE_GERUND)


def _mood(clause: Clause, at: int, form: str, start: int | None = None) -> str | None:
    """The mood of the verb at ``at`` (its form ``base``, ``ed``, ``ing`` or ``expr``), or None
    when the clause claims nothing (question, conditional, policy statement, infinitive). For an
    expression, ``at`` is its last word and ``start`` its first: the auxiliaries inside it ("the
    refund will be processed", "has not been issued") count with those before it."""
    words = clause.words
    before = words[:at]
    if clause.question or clause.conditional_sentence:
        return None
    if start is not None and _after_preposition(words, start):
        return None  # a noun phrase: "within 5-7 days of the refund being issued"
    joined = " " + " ".join(before) + " "
    if any(w in CONDITIONALS for w in before) or any(c in joined for c in CONDITIONAL_PHRASES):
        return None
    negated = _negated_before(words, at) if start is None else (
        _negated_before(words, start) or any(w in STRONG_NEGATORS for w in words[start:at]))
    if start is None and words[at + 1:at + 2] in (("nothing",), ("none",), ("no",)):
        negated = True  # "refunded nothing", "sent no link"
    window = before[-4:] if start is None else words[max(0, start - 4):at]
    if any(w in DESIRE for w in before[-5:]):
        return None  # what someone wants done, or is advised to do, is no claim that it is
    subject = before[1:] if before and before[0] in ("and", "or", "so", "then", "but") else before
    generic = (any(w in GENERIC_MARKERS for w in words)
               or (bool(subject) and subject[0] in GENERIC_SUBJECTS)
               or (len(subject) > 1 and subject[0] in ("a", "an") and "your" not in subject))
    if any(w in FUTURE for w in window) or "going to" in " ".join(window):
        return NEGATED if negated else PROMISE
    if any(w in ABILITY for w in window):
        if negated:
            return NEGATED
        agent = any(w in AGENT for w in before)
        return PROMISE if agent and not generic else None
    if any(w in HYPOTHETICAL for w in window):
        return NEGATED if negated else None
    if "to" in window[-3:] and window[-1] in ("be", "get"):
        return None  # a plan: "refund $213 to be issued", "link to be sent"
    if before and before[-1] == "being" and not (len(before) > 1 and before[-2] in BE):
        return None  # "rather than being refunded", "of the refund being issued": no main verb
    after = words[at + 1:at + 10]
    soon_after = any(a in ("right", "straight", "immediately") and b == "after"
                     for a, b in itertools.pairwise(after))
    if form in ("ing", "base") and (soon_after or any(w in LATER for w in after)):
        return NEGATED if negated else PROMISE  # "placing the hold next"
    if window and window[-1] == "to":
        if any(w in OFFER_ADJECTIVES for w in window[:-1]) and not generic:
            return NEGATED if negated else PROMISE
        return NEGATED if negated and any(w in ("able", "unable") for w in window) else None
    if generic and form in ("base", "ed", "expr") and not any(w in ("have", "has", "had", "was")
                                                               for w in window):
        return None
    if form == "base" and before and before[-1] in ("have", "has", "had"):
        form = "ed"  # "we have reset the counters", "has put": a past participle like its base
    if form == "ing" and not any(w in BE for w in window):
        return None  # a gerund or a participle clause ("Exporting data is supported"), no claim
    if form == "base":
        if (before and before[-1] in ("please", "kindly")) or not before:
            return None  # an imperative: asked of the customer
        agent = any(w in AGENT for w in before[-3:])
        if negated:
            return NEGATED
        return PROMISE if agent else None
    return NEGATED if negated else DONE


def _result_mood(clause: Clause, start: int) -> str | None:
    """The mood of a result stated from ``start`` (:attr:`Concept.result_expressions`): done,
    unless the clause asks, sets a condition ("once verified, you can sign in with ..."), wishes,
    speaks of the future (a promise), denies it, or states a hypothetical."""
    if clause.question or clause.conditional_sentence:
        return None
    before = clause.words[:start]
    joined = " " + " ".join(before) + " "
    if any(w in CONDITIONALS for w in clause.words) or any(c in joined for c in CONDITIONAL_PHRASES):
        return None
    if any(w in DESIRE for w in before):
        return None
    if _negated_before(clause.words, start):
        return NEGATED
    if any(w in FUTURE for w in before) or "going to" in joined:
        return PROMISE
    if any(w in HYPOTHETICAL for w in before):
        return None
    return DONE


_BEFORE_GERUND = frozenset({"after", "before", "by", "for", "about", "without", "of", "from", "on",
                            "upon", "while", "when", "instead", "than", "like", "with"})
PRONOUNS = frozenset({"it", "this", "that", "them", "everything"})
DESIRE = frozenset({"want", "wants", "wanted", "need", "needs", "needed", "like", "wish", "hope",
                    "expect", "expected", "asked", "asking", "requested", "requesting", "recommend",
                    "suggest", "advise", "try", "prefer"})
LATER = frozenset({"next", "soon", "shortly", "later", "tomorrow", "afterwards", "momentarily"})
MODALS = frozenset({"will", "shall", "can", "could", "may", "might", "would", "should", "must"})
BE = frozenset({"am", "is", "are", "was", "were", "be", "been", "being"})
CONDITIONAL_PHRASES = (" as soon as ", " the moment ", " by the time ", " in case ", " as long as ")
NOUN_BEFORE = frozenset({"the", "a", "an", "our", "your", "my", "this", "that", "any", "no", "full",
                         "partial", "each", "every", "its", "their", "his", "her", "for", "of"})
NOUN_AFTER = frozenset({"window", "policy", "request", "requests", "amount", "process", "team",
                        "status", "history", "rules", "eligibility", "period", "deadline", "decision",
                        "form", "claim", "link", "confirmation", "receipt", "timeline", "option",
                        "options", "queue", "ticket", "case", "address", "flow", "page"})
"""A verb form that is also a noun ("refund", "change", "review") is read as the noun after a
determiner ("our refund window") or before one of these."""
CUSTOMER_SUBJECTS = frozenset({"you", "customer", "bank"})
SOFT = frozenset({"now", "already", "just", "also", "fully", "successfully", "actually", "really",
                  "gladly", "happily", "kindly", "indeed", "personally", "finally", "completely",
                  "entirely", "totally", "officially", "all"})
"""Adverbs that do not change what a clause claims ("the charge is already back on your card"):
left out of the words frames are read from."""
OBJECT_REACH = 5
"""How many words from its verb an object may stand ("reversed the duplicate charge", "the refund
has now been processed"): farther, it belongs to another verb of the clause."""


def _near(words: tuple[str, ...], at: int, objects: frozenset[str]) -> bool:
    """An object of ``objects`` within :data:`OBJECT_REACH` words of the verb at ``at``."""
    span = words[max(0, at - OBJECT_REACH - 2):at] + words[at + 1:at + 1 + OBJECT_REACH]
    return any(w in objects or (w.startswith("$") and "$" in objects) for w in span)


def _concept_in(clause: Clause, concept: Concept, context: frozenset[str]) -> Frame | None:
    """The first claim of ``concept`` in ``clause``: a verb that carries it, or one that carries
    it with an object in the clause (or, for a pronoun, in the sentence before: ``context``)."""
    text = clause.text
    for pattern in concept.done_expressions:
        m = pattern.search(text)
        if m is not None:
            start = len(text[:m.start()].split())
            mood = _mood(clause, max(start, len(text[:m.end()].split()) - 1), "expr", start)
            if mood is not None:
                return Frame(concept.name, mood, text)
    for pattern in concept.negated_expressions:
        m = pattern.search(text)
        if m is not None and not clause.question and not clause.conditional_sentence:
            return Frame(concept.name, NEGATED, text)
    for pattern in concept.result_expressions:
        m = pattern.search(text)
        if m is not None:
            mood = _result_mood(clause, len(text[:m.start()].split()))
            if mood is not None:
                return Frame(concept.name, mood, text)
    for pattern in concept.promise_expressions:
        m = pattern.search(text)
        if m is not None:
            start = len(text[:m.start()].split())
            mood = _mood(clause, max(start, len(text[:m.end()].split()) - 1), "expr", start)
            if mood == DONE:
                mood = PROMISE
            if mood is not None:
                return Frame(concept.name, mood, text)
    words = clause.words
    objects = concept.objects
    for i, w in enumerate(words):
        form = concept.verbs.get(w)
        if form is None and w in concept.object_verbs and (
                _near(words, i, objects) or (bool(context & objects) and _near(words, i, PRONOUNS))):
            form = concept.object_verbs[w]
        if form is None:
            continue
        if form == "ing" and i > 0 and words[i - 1] in _BEFORE_GERUND:
            continue
        if form == "base" and ((i > 0 and (words[i - 1] in NOUN_BEFORE or words[i - 1][:1].isdigit()))
                               or (i + 1 < len(words) and words[i + 1] in NOUN_AFTER)):
            continue  # the noun: "our refund window", "a 30-day refund"
        if form == "base" and w.endswith("s") and any(x in MODALS for x in words[max(0, i - 4):i]):
            continue  # no verb takes -s after a modal: "you will receive status updates"
        if i > 0 and words[i - 1] in CUSTOMER_SUBJECTS and w not in concept.verbs:
            continue  # what the customer or the bank did: "the renewal you paid"
        mood = _mood(clause, i, form)
        if mood is not None:
            return Frame(concept.name, mood, text)
    return _result_in(clause, concept, context) if concept.results else None


@lru_cache(maxsize=64)
def _results_pattern(results: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern for a concept's :attr:`Concept.results`, each matched as whole words."""
    def phrase(result: str) -> str:
        return "".join(r"(?:\S+ ){0,3}?" if w == "~" else re.escape(w) + " " for w in result.split())[:-1]
    return re.compile(rf"(?<![a-z0-9$])(?:{'|'.join(phrase(r) for r in results)})(?![a-z0-9])")


_PLAN_MARKERS = frozenset({"to", "scheduled", "planned", "due", "set"})
"""Words just before a predicate that make it a plan, not an outcome ("to be taken down",
"scheduled to be completed")."""
_TIME_TO_COME = frozenset({"within", "by", "in", "over", "after"})


def _object_at(words: tuple[str, ...], lo: int, hi: int, objects: frozenset[str]) -> bool:
    """An object of ``objects`` (a word, an amount for ``$``, or a two-word phrase) in
    ``words[lo:hi]`` that heads its phrase: "deletion request" names a request, not a deletion."""
    span = words[max(0, lo):hi]
    for k, w in enumerate(span):
        pair = " ".join(span[k:k + 2])
        head = w in objects or (w.startswith("$") and "$" in objects)
        nxt = span[k + 1] if k + 1 < len(span) else ""
        if pair in objects or (head and nxt not in NOUN_AFTER):
            return True
    return False


def _predicate_mood(clause: Clause, start: int, end: int) -> str | None:
    """The mood of the predicate at ``words[start:end + 1]``: :func:`_mood` of the clause with
    the predicate as one word, so that its own words are not read as the clause's ("delivering
    normally" is a manner, not a policy's "normally"; "back to normal" no infinitive), and a
    subject that is "a" new thing ("a fresh unit is on its way") not read as a general statement."""
    lead = clause.words[:start]
    if len(lead) > 1 and lead[0] in ("a", "an"):
        lead = lead[1:]
    words = (*lead, "_", *clause.words[end + 1:])
    return _mood(Clause(words, clause.sentence, clause.question, clause.conditional_sentence),
                 len(lead), "expr", len(lead))


def _infinitive(words: tuple[str, ...], start: int) -> bool:
    """An infinitive shortly before ``start`` ("working to get uploads back to normal"): what is
    worked on or planned, not what happened."""
    return any(words[k] == "to" and k + 1 < start and words[k + 1] not in NOUN_BEFORE
               and not words[k + 1].startswith("$") for k in range(max(0, start - 4), start))


REPORTING = frozenset({"says", "said", "reports", "reported", "claims", "claimed", "thinks", "thought",
                       "believes", "believed", "mentions", "mentioned", "writes", "wrote", "expects",
                       "expected", "asks", "asked", "insists", "insisted", "feels", "felt", "sees", "saw"})


def _reported(words: tuple[str, ...], start: int) -> bool:
    """The customer's or the bank's words reported before ``start`` ("Customer reports the
    duplicate is gone from her statement"): theirs, not the writer's claim."""
    return any(a in CUSTOMER_SUBJECTS and b in REPORTING for a, b in itertools.pairwise(words[:start]))


def _result_in(clause: Clause, concept: Concept, context: frozenset[str]) -> Frame | None:
    """A result predicate of ``concept`` (:attr:`Concept.results`) said of one of its objects:
    the object is its subject (within :data:`OBJECT_REACH` words before it), its object (after
    it) or inside it ("shut their site down"), or, for a clause that is the predicate alone, is
    named in the clause before ("Your data: wiped"). The mood is the clause's (:func:`_mood`); a
    predicate after "to" or "scheduled" is a plan, one after the customer or the bank is what
    they did, a condition anywhere in the clause takes the claim back ("your data will be gone
    once you write from the address on file"), and a predicate after "will" anywhere before it in
    the clause ("we'll prorate the year and send the unused portion back") or followed by a time
    to come ("complete within 30 days") is a promise."""
    words, text = clause.words, clause.text
    for m in _results_pattern(concept.results).finditer(text):
        start = len(text[:m.start()].split())
        end = max(start, len(text[:m.end()].split()) - 1)
        named = (_object_at(words, start - OBJECT_REACH, start, concept.objects)
                 or _object_at(words, start, end + 1 + OBJECT_REACH, concept.objects)
                 or (start == 0 and end == len(words) - 1 and bool(context & concept.objects)))
        if not named or _PLAN_MARKERS & set(words[max(0, start - 2):start]) or _infinitive(words, start):
            continue
        if (start > 0 and words[start - 1] in CUSTOMER_SUBJECTS) or _reported(words, start):
            continue  # what the customer or the bank did or said: "the item you sent back"
        if any(w in CONDITIONALS for w in words):
            return None  # "uploads will work again once the fix ships": the outcome waits on it
        mood = _predicate_mood(clause, start, end)
        later = _TIME_TO_COME & set(words[end + 1:end + 3]) and any(
            w[:1].isdigit() for w in words[end + 1:end + 5])
        if mood == DONE and (later or any(w in FUTURE for w in words[:start])):
            mood = PROMISE
        if mood is not None:
            return Frame(concept.name, mood, text)
    return None


@dataclass(frozen=True, slots=True)
class Reading:
    """What a text claims: its outcome frames, in order, and its clauses."""

    frames: tuple[Frame, ...]
    clauses: tuple[Clause, ...]

    def claims(self, concept: str, *moods: str) -> tuple[Frame, ...]:
        return tuple(f for f in self.frames if f.concept == concept and (not moods or f.mood in moods))


DONE_PREDICATE = re.compile(
    r"(?<![a-z])(?:went through|gone through|is through|(?:is |are |was )?done|(?:is|are) live|"
    r"(?:is|are) active|complete|completed|sorted|processed|(?:is |are )?in your inbox|landed|went out|"
    r"gone out|is out|taken care of|"
    r"has been (?:sent|issued|made|applied|actioned|handled))(?![a-z])")
"""A predicate that says "it happened" without naming what: its topic is the clause before ("The
email change. Went through just now."). A charge that "went through" was taken, not given back:
only a refund's own words make a refund the topic."""
TOPICS: tuple[tuple[str, frozenset[str]], ...] = (
    ("reset_link", frozenset({"link", "reset"})),
    ("email_change", frozenset({"email", "address", "login"})),
    ("refund", frozenset({"refund", "refunds", "money", "reversal", "reimbursement"})),
    ("deletion", frozenset({"data", "deletion", "erasure"})),
)


def _topic_claim(clause: Clause, context: tuple[str, ...]) -> Frame | None:
    """A done predicate whose topic is named in the clauses just before (see
    :data:`DONE_PREDICATE`)."""
    m = DONE_PREDICATE.search(clause.text)
    if m is None or (any(w in clause.words for w in ("you", "i")) and "your" not in clause.words):
        return None
    named = set(context) | {"$" for w in context if w.startswith("$")}
    for concept, objects in TOPICS:
        if named & objects:
            start = len(clause.text[:m.start()].split())
            mood = _mood(clause, max(start, len(clause.text[:m.end()].split()) - 1), "expr", start)
            return Frame(concept, mood, " / ".join((" ".join(context), clause.text))) if mood else None
    return None


def _frames(all_clauses: Iterable[Clause], concepts: tuple[Concept, ...] = CONCEPTS,
            topics: bool = True) -> tuple[Frame, ...]:
    out: list[Frame] = []
    previous: tuple[str, ...] = ()
    for clause in all_clauses:
        found = [f for concept in concepts
                 if (f := _concept_in(clause, concept, frozenset(previous))) is not None]
        if topics and not found and len(clause.words) <= 8:
            topic = _topic_claim(clause, previous)
            if topic is not None:
                found.append(topic)
        out += found
        previous = () if found else clause.words  # a topic is named, not already claimed
    return tuple(out)


@text_cache(max_chars=READING_CHARS, max_entries=2048)
def read(text: str) -> Reading:
    """What ``text`` claims (see the module docstring), remembered per text: the state does not
    change what a text says, only whether it is true."""
    parts = clauses(text)
    return Reading(_frames(parts), parts)


def frames_of(text: str, concepts: tuple[Concept, ...]) -> tuple[Frame, ...]:
    """The claims of ``concepts`` in ``text``, read clause by clause as :func:`read` reads its own
    concepts: how a later grader reads outcomes beside them without changing what :func:`read`
    finds for the graders before it."""
    return _frames(read(text).clauses, concepts, topics=False) if concepts else ()


def outcomes(text: str) -> frozenset[tuple[str, str]]:
    """The (concept, mood) of every outcome ``text`` claims."""
    return frozenset((f.concept, f.mood) for f in read(text).frames)


def unstated(phrase: str, text: str) -> bool:
    """Whether ``phrase`` claims an outcome that ``text`` holds the words of but does not claim:
    it states it in no clause in the phrase's mood ("I can change your login email" offers, it
    does not say "changed"; "before we can change your login email" says nothing). A ``text``
    that reads as denying the outcome does not count as unstated: a caller that found the phrase
    affirmed keeps its own reading of the negation ("No worries everything has already been
    deleted")."""
    wanted = outcomes(phrase)
    said = outcomes(text)
    denied = {concept for concept, mood in said if mood == NEGATED}
    return bool(wanted) and not wanted & said and not {concept for concept, _ in wanted} & denied
