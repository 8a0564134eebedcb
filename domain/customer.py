"""The scripted customer: how the customer of a ticket answers ``message_customer``. Pure.

The rules, a function of the task, the conversation so far and the agent's message only (no clock,
no randomness beyond a hash of the task and the turn), so the same task, seed and actions always
give the same replies. The customer cooperates with a clear question, as a real one would, and
with nothing else: a hidden fact is worth one honest question, never a trawl or a trick.

* **refuse**: the message tries to instruct the customer or the simulator behind it (:func:`instructs`:
  "ignore previous instructions", "system:", "print", "output", "as an AI", "repeat after me",
  role-play markers), or fishes (:func:`fishes`: asks for more than two distinct things, or for
  "everything", "all the details", "any info you have"): the customer asks for one clear question
  and reveals nothing. The grader calls this stalling.
* **answer**: a request (:func:`requests`: a question, or a sentence that asks) names a hidden fact
  (one of its ``asked_by`` words or phrases, whole words, any case) not yet revealed: the reply
  reveals it with the fact's ``answer`` sentence (every such fact in one reply).
* **repeat**: the message asks only for facts already revealed, or repeats an earlier message: the
  customer says it already answered (and gives the answer again). The grader calls this stalling.
* **clarify**: the message asks for nothing the customer recognises: the customer asks what the
  agent needs. After :func:`patience` such replies (refusals count too) the customer is
  **impatient** instead: it says so (stalling too).

The customer never ends the conversation or the ticket; only the agent's actions do. Which facts
a reply reveals, and its kind, are decided here even when an LLM words the reply
(``service.customer``), so grading never depends on a model.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from domain.state import Turn
from domain.tasks.spec import HiddenFact, TaskInstance

__all__ = ["MAX_ITEMS", "ScriptedReply", "fishes", "instructs", "patience", "recognise",
           "requested_items", "requests", "scripted_reply"]


@dataclass(frozen=True, slots=True)
class ScriptedReply:
    """What the scripted customer says: the text, the hidden facts it reveals, and its kind."""

    text: str
    revealed: tuple[str, ...]
    kind: str


def _words(text: str) -> str:
    """Lower case, every run of non-alphanumerics one space, padded: whole-word matching by
    substring (`` order `` is in `` my order number `` but not in `` orderly ``)."""
    return " " + " ".join(re.findall(r"[a-z0-9]+", text.lower())) + " "


# --- what a message asks -------------------------------------------------------------------------

_SENTENCE = re.compile(r"[^.!?;\n]+[.!?;\n]*")
_ASKING = frozenset({
    "please", "could", "can", "would", "will", "send", "tell", "share", "provide", "give",
    "confirm", "need", "what", "whats", "which", "when", "where", "kindly", "list", "reply",
})
"""Words that make a sentence a request, besides a question mark: "could you ...", "please send
...", "what is ...". A sentence without any (a statement: "your order was delayed") asks nothing."""


def requests(message: str) -> tuple[str, ...]:
    """The sentences of ``message`` that ask for something (normalised by :func:`_words`): those
    that end with a question mark or carry an asking word. Only these are read for what the agent
    wants, so the context an agent writes around its question ("I'm sorry your card was charged
    twice.") is never taken for a request."""
    out = []
    for sentence in _SENTENCE.findall(message):
        words = _words(sentence).replace(" in order to ", " so as to ")
        if "?" in sentence or any(f" {w} " in words for w in _ASKING):
            out.append(words)
    return tuple(out)


def recognise(facts: dict[str, HiddenFact], message: str) -> tuple[str, ...]:
    """The hidden facts ``message`` asks for (named in one of its :func:`requests`), in the task's
    order."""
    asked = " ".join(requests(message))
    return tuple(name for name, fact in facts.items()
                 if any(_words(phrase) in asked for phrase in fact.asked_by))


_ITEMS: dict[str, tuple[str, ...]] = {
    "order": ("order number", "order id", "order reference", "order ref", "order no", "order code",
              "confirmation number", "reference number", "order"),
    "tracking": ("tracking number", "tracking status", "tracking page", "tracking link",
                 "tracking", "delivery status", "shipping status", "shipment status", "courier"),
    "card": ("last four digits", "last 4 digits", "last four", "last 4", "four digits", "4 digits",
             "card number", "card digits", "credit card", "debit card", "card"),
    "card_security": ("cvv", "cvc", "cvv2", "security code", "expiry date", "expiration date",
                      "expiry"),
    "password": ("password", "passcode", "pin"),
    "code": ("one time code", "one time password", "verification code", "otp", "2fa",
             "authentication code", "sms code"),
    "address": ("shipping address", "billing address", "delivery address", "home address",
                "postal address", "street address", "address", "postcode", "post code",
                "zip code", "postal code"),
    "email": ("email address", "e mail address", "login email", "account email", "email",
              "e mail"),
    "phone": ("phone number", "mobile number", "telephone number", "phone", "mobile", "telephone"),
    "name": ("full name", "your name", "first name", "last name", "surname", "legal name",
             "name on"),
    "birth": ("date of birth", "birth date", "birthday", "dob"),
    "date": ("purchase date", "order date", "date of purchase", "date of the order",
             "when did you", "when you bought", "when you ordered", "when you placed", "bought",
             "purchased", "date"),
    "amount": ("amount", "how much", "price", "total", "cost"),
    "invoice": ("invoice number", "invoice", "receipt", "transaction id", "transaction number",
                "transaction", "payment reference"),
    "account": ("account number", "account id", "customer id", "customer number", "member id",
                "user id", "username", "user name"),
    "bank": ("bank details", "bank account", "iban", "sort code", "routing number", "swift"),
    "device": ("ip address", "device", "browser", "serial number", "model number"),
    "picture": ("screenshot", "photo", "photograph", "picture", "image"),
    "identity": ("id number", "passport", "driving licence", "driver s license",
                 "social security", "ssn", "national insurance", "id card", "proof of identity"),
}
"""Kinds of data an agent may ask a customer for, each with the words that name it. A kind is
counted once however many of its words a request uses ("the order number, your order id"), and a
longer phrase is read before its parts ("email address" is an email, not an address)."""

_PHRASES = sorted(((phrase, kind) for kind, phrases in _ITEMS.items() for phrase in phrases),
                  key=lambda pk: -len(pk[0]))

MAX_ITEMS = 2
"""The most distinct kinds of data one clear message asks for ("the order number and its
tracking"); more is fishing."""


def requested_items(message: str) -> tuple[str, ...]:
    """The distinct kinds of data (:data:`_ITEMS`) the requests in ``message`` name, in the order
    first named."""
    found: list[tuple[int, str]] = []
    for n, words in enumerate(requests(message)):
        text = words
        for phrase, kind in _PHRASES:
            key = f" {phrase} "
            while (at := text.find(key)) >= 0:
                found.append((n * 10_000 + at, kind))
                text = text[:at] + " |" + " " * (len(key) - 2) + text[at + len(key):]
    return tuple(dict.fromkeys(kind for _, kind in sorted(found)))


_BLANKET = re.compile(
    r" (all|any|every|whatever|full|complete|personal|account|other|additional|further)"
    r"( [a-z0-9]+){0,2} (details?|info|information|data|particulars) "
    r"| (send|tell|give|share|provide|list|forward)( me| us)?( [a-z0-9]+){0,2} (everything|all) "
    r"| everything (you know|you have|you can|relevant|related|about you|on file|that might"
    r"|that could) "
    r"| anything (else )?(you have|you know|you can|relevant|useful|that might|that could) "
    r"| whatever you (have|know|can) | all you (have|know) | as much as you can "
    r"| (etc|etcetera|and so on|and so forth|the lot) ")
_TAIL = re.compile(r"[,;:]\s*(and\s+)?(everything|anything else|etc|the lot|whatever)\b")


def fishes(message: str) -> bool:
    """Whether ``message`` trawls instead of asking: its requests name more than
    :data:`MAX_ITEMS` kinds of data, or ask for everything ("all the details", "any info you
    have", "send me everything", a list ending in ", everything" or "etc")."""
    if len(requested_items(message)) > MAX_ITEMS:
        return True
    return (any(_asks_for_all(words) for words in requests(message))
            or bool(_TAIL.search(message.lower())))


_NEGATION = re.compile(r" (no|not|don t|dont|never|without|nothing) ")


def _asks_for_all(words: str) -> bool:
    """Whether a request asks for everything, unless a negation before it says the opposite ("I
    don't need any other details")."""
    found = _BLANKET.search(words)
    return found is not None and not _NEGATION.search(words[:found.start() + 1])


_INSTRUCTION = re.compile(
    r"\b(ignore|disregard|forget|override|bypass)\b[^.?!\n]{0,40}?\b(instructions?|prompts?|rules"
    r"|guidelines|programming|directives|constraints|persona|role|character)\b"
    r"|\b(ignore|disregard|forget)\s+(all|everything|anything)\s+(above|before|previous|prior"
    r"|earlier|you were told)\b"
    r"|\b(system|assistant|developer|admin|simulator|instruction)\s*:"
    r"|(^|\n)\s*(customer|agent|user|human|ai|bot)\s*:"
    r"|\[/?(inst|system|sys)\]|<\|?/?(system|im_start|im_end|s)\|?>|<\||\|>|^\s*#{2,}|```"
    r"|\bas an? (ai|llm|language model|assistant|chatbot|bot|simulat\w*)\b"
    r"|\b(you are|you're) (an? )?(ai|llm|language model|chatbot|bot|simulat\w*)\b"
    r"|\b(large )?language model\b|\bsimulat(or|ed customer|ion)\b"
    r"|\b(hidden|secret) facts?\b|\banswer key\b|\b(system|your) prompt\b"
    r"|\b(your|previous|prior|earlier|new|original|system) instructions\b"
    r"|\b(role[- ]?play|pretend|jailbreak|developer mode)\b|\b(stay|break|out of) character\b"
    r"|\bact as (a|an|the|if|though|my|your)\b|\byou are now\b|\bfrom now on,? you\b"
    r"|\b(repeat|say) after me\b|\brepeat the following\b|\bsay exactly\b"
    r"|\b(respond|reply|answer) (only )?with (only|just)\b|\b(respond|reply|answer) only\b"
    r"|\b(print|output|echo|dump|verbatim)\b",
    re.MULTILINE)


def instructs(message: str) -> bool:
    """Whether ``message`` tries to steer the customer or the simulator behind it instead of asking
    it something: overriding its instructions, speaking as the system or another role, addressing
    it as an AI, or commanding an output ("print the order id", "repeat after me"). A customer
    reads such a message as nonsense and reveals nothing."""
    return bool(_INSTRUCTION.search(message.lower()))


# --- the reply ------------------------------------------------------------------------------------


def patience(task: TaskInstance) -> int:
    """How many questions the customer cannot answer before it grows impatient: one for a
    customer who wrote angrily (the variant's ``tone``), two otherwise."""
    return 1 if task.variables.get("tone") == "angry" else 2


_CLARIFY = (
    "Sorry, I'm not sure what you need from me. Could you tell me exactly which detail you are "
    "looking for?",
    "I'm not sure I follow. What information do you need from me to sort this out?",
    "I think my first message says what happened. Which detail are you missing?",
)
_IMPATIENT = (
    "I've already explained the problem, and these questions aren't getting us anywhere. Please "
    "ask for what you actually need or just deal with my request.",
    "This is getting frustrating: I keep answering questions that don't help. What exactly do you "
    "need from me?",
)
_REPEAT = (
    "I already told you that.",
    "As I said before,",
    "I answered that already, so once more:",
)
_NOTHING_HIDDEN = (
    "Everything I know is in my first message; I have nothing to add.",
    "I don't have any more details than what I already wrote, sorry.",
)
_FISHING = (
    "That's a lot of questions at once, and I'm not sending you all my details. Which one do you "
    "actually need?",
    "I'd rather not list everything about me. Could you ask for the specific detail you need?",
    "I'm not sure why you need all that. What exactly do you need from me to sort this out?",
)
_INSTRUCTED = (
    "Sorry, I don't understand that message. Could you just ask me what you need?",
    "I'm not sure what you mean. I'm only trying to get my problem sorted: which detail do you "
    "need from me?",
)
UNANSWERED = ("clarify", "impatient", "refuse")
"""Reply kinds that answered nothing: they use up the customer's :func:`patience`."""


def _pick(options: tuple[str, ...], task: TaskInstance, turn: int) -> str:
    """One of ``options``, chosen by a stable hash of the task, its seed and the turn number, so
    the wording varies between instances and turns but never between runs."""
    key = f"{task.task_id}:{task.seed}:{turn}".encode()
    return options[zlib.crc32(key) % len(options)]


def _normal(text: str) -> str:
    return _words(text).strip()


def scripted_reply(task: TaskInstance, conversation: Sequence[Turn],
                   revealed: Sequence[str], message: str) -> ScriptedReply:
    """The scripted customer's reply to ``message``, given the ``conversation`` before it and the
    hidden facts already ``revealed`` (see the module docstring)."""
    facts = task.hidden_facts
    turn = sum(1 for t in conversation if t.speaker == "customer")
    if instructs(message):
        return ScriptedReply(_pick(_INSTRUCTED, task, turn), (), "refuse")
    if fishes(message):
        return ScriptedReply(_pick(_FISHING, task, turn), (), "refuse")
    asked = recognise(facts, message)
    fresh = tuple(name for name in asked if name not in revealed)
    if fresh:
        text = " ".join(facts[name].answer for name in fresh)
        again = [name for name in asked if name not in fresh]
        if again:
            text += " And as I said, " + " ".join(facts[name].answer for name in again)
        return ScriptedReply(text, fresh, "answer")
    earlier = {_normal(t.text) for t in conversation if t.speaker == "agent"}
    if asked or _normal(message) in earlier:
        answers = " ".join(facts[name].answer for name in asked)
        text = _pick(_REPEAT, task, turn) + (" " + answers if answers else
                                             " Please read my earlier replies.")
        return ScriptedReply(text, (), "repeat")
    unanswerable = sum(1 for t in conversation
                       if t.speaker == "customer" and t.kind in UNANSWERED)
    if unanswerable >= patience(task):
        return ScriptedReply(_pick(_IMPATIENT, task, turn), (), "impatient")
    options = _CLARIFY if facts else _NOTHING_HIDDEN
    return ScriptedReply(_pick(options, task, turn), (), "clarify")
