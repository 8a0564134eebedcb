"""What a text asks the customer to do, read by meaning: a required fact that is a request.

Some required facts are not statements but requests: "asks for verification", "asks the customer
to confirm whether it worked". An honest reply makes them by asking for the thing itself ("could
you double-check the last four digits of the card on your account?", "does that get you in? just
reply here either way"), rarely with the rubric's words ("verify your identity", "let us know if
it works"). Here each such fact is a :class:`Request`: the words that show a fact is this request
(:attr:`Request.names`, read from the fact's phrasings) and what a sentence must ask for to make it
(:attr:`Request.asks`). A sentence asks when it is a question put to the customer or a request
("please ...", an imperative, "we need ...", "let me know ..."); a request may point back to what
the sentence before named ("please send us one of those").

Pure; reads clauses with :func:`graders.meaning.clauses` (contractions expanded, lower case).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from domain.tasks.spec import Phrases
from graders import meaning as mn


@dataclass(frozen=True, slots=True)
class Request:
    """One kind of request: what names it in a fact's phrasings, and what a sentence that makes
    it asks about."""

    name: str
    names: re.Pattern[str]
    asks: re.Pattern[str]


VERIFY_MEANS = re.compile(
    r"\b(?:last (?:four|4) digits|card (?:digits|on file|on the account|on your account|we have on file)"
    r"|(?:address|email|email address) (?:on file|we have on file|you registered|registered)"
    r"|(?:registered|original|current|account|old) (?:account |login )?(?:email )?address"
    r"|verify (?:your identity|it is you|that you own)|confirm (?:your identity|it is you|that you own))\b")
"""The ways a requester can be verified (identity policy IV-2 and the families' policies): the
card digits on file or the address on file."""

REPORT_BACK = re.compile(
    r"\b(?:let (?:me|us) know (?:whether|if (?:it|that|this|you can|you are still|the)|how|what you find"
    r"|once)|tell (?:me|us) (?:whether|if (?:it|that|this|you can))|(?:reply|write back|get back to us)"
    r"(?: here)? (?:either way|to let us know|whether|if (?:it|that|this|you are still|you can))"
    r"|(?:would|could|can) you (?:kindly |please )?(?:reply|confirm|let us know|tell us)"
    r"|confirm (?:whether|if|once)|(?:does|did|has|is) (?:that|this|it) (?:get you|work|fix|help|solve|"
    r"resolve|sort)|(?:are|were) you (?:able to|now able to) (?:sign|log|get)|can you (?:sign|log|get) in now"
    r"|still (?:stuck|locked out|not able|unable))")
"""Asking the customer to say whether the fix worked."""

SEND_FROM = re.compile(
    r"\b(?:re-?submit|re-?send|send|forward|write|reply|email|contact|message|get in touch)\b[^.?!]{0,60}"
    r"\bfrom\b[^.?!]{0,40}\b(?:on file|registered|on (?:the|your) account|linked|associated|original|"
    r"current|old|usual)\b")
"""Asking for the request again from the address on file, however it is put ("kindly resubmit
your request from the email address registered on the account")."""

REQUESTS = (
    Request("verification", re.compile(r"\b(?:verif|identity|confirm that you own|confirm it is you|"
                                       r"make sure it is you)"), VERIFY_MEANS),
    Request("report back", re.compile(r"\b(?:confirm if|confirm whether|confirm once|let us know if "
                                      r"(?:it|this) works)"), REPORT_BACK),
    Request("send from the address on file", re.compile(
        r"\b(?:send (?:the|your|us the|us your) request|resend|write (?:to us )?from|reply from|"
        r"contact us from|email us from|send it from|send us a message from|send your request from)"),
        SEND_FROM),
)

_REQUEST_OPENERS = frozenset({"please", "kindly", "reply", "send", "share", "write", "quote", "tell",
                              "provide", "give", "forward", "contact", "email", "respond", "let",
                              "double-check", "check", "confirm", "include", "use"})
_NEEDS = re.compile(r"\b(?:we|i) (?:will |would |just |first |still |kindly )*"
                    r"(?:need|require|ask (?:that )?you)\b")
_POINTS_BACK = frozenset({"those", "these", "that", "one", "either", "it", "them"})


def _sentences(text: str) -> list[tuple[str, bool, str]]:
    """Each sentence of ``text``: its words, whether it is a question, and the opening word of
    each of its clauses (an imperative opens a clause: "either send us ...", "or give us ...")."""
    by: dict[int, list[mn.Clause]] = {}
    for clause in mn.clauses(text):
        by.setdefault(clause.sentence, []).append(clause)
    out = []
    for parts in by.values():
        openers = " ".join(w for c in parts for w in c.words[:2] if w not in ("or", "and", "either", "but"))
        out.append((" ".join(w for c in parts for w in c.words), parts[0].question, openers))
    return out


def _asks(words: str, question: bool, openers: str) -> bool:
    """Whether a sentence puts something to the customer: a question, a request, or a need."""
    return (question or bool(set(openers.split()) & _REQUEST_OPENERS) or "please" in words.split()
            or _NEEDS.search(words) is not None)


@lru_cache(maxsize=1024)
def request_of(group: Phrases) -> Request | None:
    """The request a fact is, if its phrasings name one."""
    said = " ".join(p.lower() for p in group.any_of)
    return next((r for r in REQUESTS if r.names.search(said)), None)


def makes(text: str, request: Request) -> bool:
    """Whether ``text`` asks the customer for what ``request`` names, in a sentence that asks (or
    one that points back to the sentence before: "please send us one of those")."""
    previous = ""
    for words, question, openers in _sentences(text):
        if _asks(words, question, openers):
            if request.asks.search(words):
                return True
            if set(words.split()) & _POINTS_BACK and request.asks.search(previous):
                return True
        previous = words
    return False
