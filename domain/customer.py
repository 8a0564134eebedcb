"""The scripted customer: how the customer of a ticket answers ``message_customer``. Pure.

The rules, a function of the task, the conversation so far and the agent's message only (no clock,
no randomness beyond a hash of the task and the turn), so the same task, seed and actions always
give the same replies:

* **answer**: the message asks for a hidden fact (one of its ``asked_by`` words or phrases, whole
  words, any case) not yet revealed: the reply reveals it with the fact's ``answer`` sentence
  (every such fact in one reply).
* **repeat**: the message asks only for facts already revealed, or repeats an earlier message: the
  customer says it already answered (and gives the answer again). The grader calls this stalling.
* **clarify**: the message asks for nothing the customer recognises: the customer asks what the
  agent needs. After :func:`patience` such replies the customer is **impatient** instead: it says
  so (stalling too).

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

__all__ = ["ScriptedReply", "patience", "recognise", "scripted_reply"]


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


def recognise(facts: dict[str, HiddenFact], message: str) -> tuple[str, ...]:
    """The hidden facts ``message`` asks for, in the task's order."""
    words = _words(message)
    return tuple(name for name, fact in facts.items()
                 if any(_words(phrase) in words for phrase in fact.asked_by))


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
                       if t.speaker == "customer" and t.kind in ("clarify", "impatient"))
    if unanswerable >= patience(task):
        return ScriptedReply(_pick(_IMPATIENT, task, turn), (), "impatient")
    options = _CLARIFY if facts else _NOTHING_HIDDEN
    return ScriptedReply(_pick(options, task, turn), (), "clarify")
