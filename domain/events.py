"""Event types, their schema versions, and upcasting of old versions on read.

An event is a fact that happened in an episode: one frozen dataclass per type, its payload as typed
attributes. Each class names its type and current schema version, gives its payload as the JSON
data that is stored and hashed (``data``: a fresh dict on every call) and reads a stored payload
back (``from_data``, which reads vocabulary values as input is read, ignoring case, so an altered
log still reads and its hash chain says where). The store adds the sequence number, hash chain and
timestamp.

Old payloads are never rewritten in place; when a type's shape changes, its version goes up and
:func:`upcast` turns the old payload into the new one as it is read, so logs written by earlier
releases still fold and grade.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from domain.actions import ACTION_ADAPTER, Action, action_json
from domain.jsontext import JsonObject, JsonText
from domain.tasks.variant import TaskVariant
from domain.vocabulary import PolicyId, Priority, Queue, ResolutionCode, Severity, Tag


def _code(value: ResolutionCode | None) -> str | None:
    return value.value if value is not None else None


@dataclass(frozen=True, slots=True)
class ForkOrigin:
    """Where a forked episode branched off: the original, the step, and the chain hash there."""

    episode_id: str
    at: int
    hash: str


@dataclass(frozen=True, slots=True)
class EpisodeStarted:
    """The first event of every episode: which task and seed, and the materialised task itself
    (graders read the recorded task, so an episode keeps its grade when the catalog changes), the
    grader it is graded with and the reward mode it hands rewards out in (``domain.rewards``).

    v2 added ``reward_mode``; v1 episodes were all dense."""

    type: ClassVar[str] = "EpisodeStarted"
    version: ClassVar[int] = 2
    episode_id: str
    task_id: str
    seed: int | None
    task_digest: str
    task: TaskVariant
    run_id: str | None = None
    forked_from: ForkOrigin | None = None
    grader_version: str = ""
    judge: str = "deterministic"
    """Which reply judge the service ran for this episode: ``deterministic`` or ``llm``. With
    ``llm`` the log holds a ``ReplyJudged`` event wherever a reply was judged; replay reads those.
    Stored only when it is ``llm``: an absent key reads as ``deterministic``, so an episode without
    an LLM judge carries no member for a judge it never had."""
    reward_mode: str = "dense"
    customer: str = "scripted"
    """Who answers ``message_customer``: ``scripted`` (``domain.customer``, inside ``decide``) or
    ``llm`` (the service asks a model; its replies are recorded as ``CustomerReplied`` events, so
    replay never asks again). Stored only when it is ``llm``, like ``judge``."""

    @property
    def data(self) -> JsonObject:
        fork = self.forked_from
        data: JsonObject = {
            "episode_id": self.episode_id,
            "task_id": self.task_id,
            "seed": self.seed,
            "task_digest": self.task_digest,
            "task": self.task.json_form(),
            "run_id": self.run_id,
            "forked_from": (None if fork is None else
                            {"episode_id": fork.episode_id, "at": fork.at, "hash": fork.hash}),
            "grader_version": self.grader_version,
            "reward_mode": self.reward_mode,
        }
        if self.judge != "deterministic":
            data["judge"] = self.judge
        if self.customer != "scripted":
            data["customer"] = self.customer
        return data

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> EpisodeStarted:
        fork = data.get("forked_from")
        return cls(
            episode_id=data["episode_id"],
            task_id=data["task_id"],
            seed=data["seed"],
            task_digest=data["task_digest"],
            task=TaskVariant.from_json(data["task"]),
            run_id=data.get("run_id"),
            forked_from=None if fork is None else ForkOrigin(fork["episode_id"], fork["at"],
                                                             fork["hash"]),
            grader_version=data.get("grader_version", ""),
            judge=data.get("judge", "deterministic"),
            reward_mode=data["reward_mode"],
            customer=data.get("customer", "scripted"),
        )


@dataclass(frozen=True, slots=True)
class ActionReceived:
    """The first event of every step: the body exactly as received (``raw``, so the log can be
    audited), the actions it was normalised to and the dialect it was written in."""

    type: ClassVar[str] = "ActionReceived"
    version: ClassVar[int] = 1
    step: int
    raw: JsonText
    actions: tuple[Action, ...]
    dialect: str

    @property
    def data(self) -> JsonObject:
        return {
            "step": self.step,
            "raw": self.raw.value(),
            "actions": [action_json(a) for a in self.actions],
            "dialect": self.dialect,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ActionReceived:
        return cls(data["step"], JsonText.of(data["raw"]),
                   tuple(ACTION_ADAPTER.validate_python(a) for a in data["actions"]),
                   data["dialect"])


@dataclass(frozen=True, slots=True)
class PriorityClassified:
    type: ClassVar[str] = "PriorityClassified"
    version: ClassVar[int] = 1
    priority: Priority
    previous: Priority | None

    @property
    def data(self) -> JsonObject:
        return {"priority": self.priority.value,
                "previous": self.previous.value if self.previous is not None else None}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> PriorityClassified:
        previous = data["previous"]
        return cls(Priority.read(data["priority"]), Priority.read(previous) if previous is not None else None)


@dataclass(frozen=True, slots=True)
class QueueAssigned:
    type: ClassVar[str] = "QueueAssigned"
    version: ClassVar[int] = 1
    queue: Queue
    previous: Queue | None

    @property
    def data(self) -> JsonObject:
        return {"queue": self.queue.value,
                "previous": self.previous.value if self.previous is not None else None}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> QueueAssigned:
        previous = data["previous"]
        return cls(Queue.read(data["queue"]), Queue.read(previous) if previous is not None else None)


@dataclass(frozen=True, slots=True)
class TagAdded:
    type: ClassVar[str] = "TagAdded"
    version: ClassVar[int] = 1
    tag: Tag

    @property
    def data(self) -> JsonObject:
        return {"tag": self.tag.value}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> TagAdded:
        return cls(Tag.read(data["tag"]))


@dataclass(frozen=True, slots=True)
class TagRemoved:
    type: ClassVar[str] = "TagRemoved"
    version: ClassVar[int] = 1
    tag: Tag

    @property
    def data(self) -> JsonObject:
        return {"tag": self.tag.value}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> TagRemoved:
        return cls(Tag.read(data["tag"]))


@dataclass(frozen=True, slots=True)
class ReplyDrafted:
    """The reply draft's new text (v1, before release, called the field ``reply_text``)."""

    type: ClassVar[str] = "ReplyDrafted"
    version: ClassVar[int] = 2
    text: str

    @property
    def data(self) -> JsonObject:
        return {"text": self.text}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ReplyDrafted:
        return cls(data["text"])


@dataclass(frozen=True, slots=True)
class InternalNoteAdded:
    type: ClassVar[str] = "InternalNoteAdded"
    version: ClassVar[int] = 1
    note: str

    @property
    def data(self) -> JsonObject:
        return {"note": self.note}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> InternalNoteAdded:
        return cls(data["note"])


@dataclass(frozen=True, slots=True)
class PolicyLookedUp:
    type: ClassVar[str] = "PolicyLookedUp"
    version: ClassVar[int] = 1
    policy_id: PolicyId

    @property
    def data(self) -> JsonObject:
        return {"policy_id": self.policy_id.value}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> PolicyLookedUp:
        return cls(PolicyId.read(data["policy_id"]))


@dataclass(frozen=True, slots=True)
class TicketResolved:
    type: ClassVar[str] = "TicketResolved"
    version: ClassVar[int] = 1
    resolution_code: ResolutionCode

    @property
    def data(self) -> JsonObject:
        return {"resolution_code": self.resolution_code.value}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> TicketResolved:
        return cls(ResolutionCode.read(data["resolution_code"]))


@dataclass(frozen=True, slots=True)
class TicketClosed:
    type: ClassVar[str] = "TicketClosed"
    version: ClassVar[int] = 1
    resolution_code: ResolutionCode | None

    @property
    def data(self) -> JsonObject:
        return {"resolution_code": _code(self.resolution_code)}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> TicketClosed:
        code = data.get("resolution_code")
        return cls(ResolutionCode.read(code) if code is not None else None)


# ----------------------------------------------------------------- back-office events (the account)
@dataclass(frozen=True, slots=True)
class RefundIssued:
    """Money went back to the customer's payment method: ``amount`` dollars (two decimals)."""

    type: ClassVar[str] = "RefundIssued"
    version: ClassVar[int] = 1
    amount: float

    @property
    def data(self) -> JsonObject:
        return {"amount": self.amount}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RefundIssued:
        return cls(float(data["amount"]))


@dataclass(frozen=True, slots=True)
class RefundDenied:
    """The customer's refund request was declined (``reason`` as the agent gave it, if any)."""

    type: ClassVar[str] = "RefundDenied"
    version: ClassVar[int] = 1
    reason: str | None

    @property
    def data(self) -> JsonObject:
        return {"reason": self.reason}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> RefundDenied:
        return cls(data.get("reason"))


@dataclass(frozen=True, slots=True)
class AccountEmailUpdated:
    """The account's email address on file changed from ``old_email`` to ``new_email``."""

    type: ClassVar[str] = "AccountEmailUpdated"
    version: ClassVar[int] = 1
    old_email: str
    new_email: str

    @property
    def data(self) -> JsonObject:
        return {"old_email": self.old_email, "new_email": self.new_email}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> AccountEmailUpdated:
        return cls(data["old_email"], data["new_email"])


@dataclass(frozen=True, slots=True)
class PasswordResetLinkSent:
    """A password reset link went to ``email``, the address on file at the time."""

    type: ClassVar[str] = "PasswordResetLinkSent"
    version: ClassVar[int] = 1
    email: str

    @property
    def data(self) -> JsonObject:
        return {"email": self.email}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> PasswordResetLinkSent:
        return cls(data["email"])


@dataclass(frozen=True, slots=True)
class DataDeletionScheduled:
    """The account and its personal data are queued for deletion (complete within 30 days)."""

    type: ClassVar[str] = "DataDeletionScheduled"
    version: ClassVar[int] = 1

    @property
    def data(self) -> JsonObject:
        return {}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> DataDeletionScheduled:
        return cls()


@dataclass(frozen=True, slots=True)
class LegalHoldPlaced:
    """The account is under legal hold: its data is kept until the hold is lifted."""

    type: ClassVar[str] = "LegalHoldPlaced"
    version: ClassVar[int] = 1

    @property
    def data(self) -> JsonObject:
        return {}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> LegalHoldPlaced:
        return cls()


@dataclass(frozen=True, slots=True)
class FraudReviewOpened:
    """The request went to the trust team's fraud review."""

    type: ClassVar[str] = "FraudReviewOpened"
    version: ClassVar[int] = 1

    @property
    def data(self) -> JsonObject:
        return {}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> FraudReviewOpened:
        return cls()


@dataclass(frozen=True, slots=True)
class IncidentEscalated:
    """An incident was declared (or its severity changed) and the on-call specialists paged."""

    type: ClassVar[str] = "IncidentEscalated"
    version: ClassVar[int] = 1
    severity: Severity
    previous: Severity | None

    @property
    def data(self) -> JsonObject:
        return {"severity": self.severity.value,
                "previous": self.previous.value if self.previous is not None else None}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> IncidentEscalated:
        previous = data.get("previous")
        return cls(Severity.read(data["severity"]),
                   Severity.read(previous) if previous is not None else None)


# ---------------------------------------------------------- the conversation with the customer
@dataclass(frozen=True, slots=True)
class CustomerMessaged:
    """The agent sent the customer ``text`` (``message_customer``): a question or a request."""

    type: ClassVar[str] = "CustomerMessaged"
    version: ClassVar[int] = 1
    text: str

    @property
    def data(self) -> JsonObject:
        return {"text": self.text}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> CustomerMessaged:
        return cls(data["text"])


REPLY_KINDS = ("answer", "clarify", "repeat", "impatient", "refuse")
"""What a customer reply did: revealed what was asked (``answer``), asked what the agent needs
(``clarify``), answered a question asked before (``repeat``: stalling), lost patience with
another question it cannot answer (``impatient``: stalling), or refused a message that fished for
many details or tried to instruct it, asking for one clear question (``refuse``: stalling)."""


@dataclass(frozen=True, slots=True)
class CustomerReplied:
    """The customer's reply to the message just sent: its ``text``, the hidden facts it reveals
    (``revealed``: names of ``TaskInstance.hidden_facts``, from then on known to the agent), its
    ``kind`` (:data:`REPLY_KINDS`) and who wrote it: ``scripted`` (``domain.customer``) or ``llm``
    (``model``; ``prompt_digest``: sha256 of the prompt sent). ``fallback`` says why the scripted
    wording stands in for a model's (the call failed, or its answer left out a fact it had to give).
    What was revealed and the kind are always decided by the scripted rules, so a model only words
    the reply and the grade never depends on it."""

    type: ClassVar[str] = "CustomerReplied"
    version: ClassVar[int] = 1
    text: str
    revealed: tuple[str, ...]
    kind: str
    source: str = "scripted"
    model: str | None = None
    prompt_digest: str | None = None
    fallback: str | None = None

    @property
    def data(self) -> JsonObject:
        return {"text": self.text, "revealed": list(self.revealed), "kind": self.kind,
                "source": self.source, "model": self.model, "prompt_digest": self.prompt_digest,
                "fallback": self.fallback}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> CustomerReplied:
        return cls(data["text"], tuple(data["revealed"]), data["kind"], data.get("source", "scripted"),
                   data.get("model"), data.get("prompt_digest"), data.get("fallback"))


BackOfficeEvent = (RefundIssued | RefundDenied | AccountEmailUpdated | PasswordResetLinkSent
                   | DataDeletionScheduled | LegalHoldPlaced | FraudReviewOpened | IncidentEscalated)
"""An event that changed the simulated account (what an answer key's actions are read from)."""


@dataclass(frozen=True, slots=True)
class ActionRejected:
    """The step's action was refused (``code`` names the rule); the grader penalises it."""

    type: ClassVar[str] = "ActionRejected"
    version: ClassVar[int] = 1
    code: str
    reason: str

    @property
    def data(self) -> JsonObject:
        return {"code": self.code, "reason": self.reason}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ActionRejected:
        return cls(data["code"], data["reason"])


@dataclass(frozen=True, slots=True)
class ActionHadNoEffect:
    """A part of the step's action changed nothing (the value was already so)."""

    type: ClassVar[str] = "ActionHadNoEffect"
    version: ClassVar[int] = 1
    reason: str

    @property
    def data(self) -> JsonObject:
        return {"reason": self.reason}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ActionHadNoEffect:
        return cls(data["reason"])


END_STATES = frozenset({"resolved", "closed"})
"""End reasons that are end states of the task (Gymnasium's ``terminated``)."""
LIMITS = frozenset({"max_steps"})
"""End reasons that are a limit cutting the episode short (Gymnasium's ``truncated``)."""


@dataclass(frozen=True, slots=True)
class EpisodeEnded:
    """The episode is over: ``resolved``, ``closed`` (end states: :data:`END_STATES`) or
    ``max_steps`` (a limit: :data:`LIMITS`); every reason is in exactly one of the two, so
    ``done == terminated or truncated`` on every transport."""

    type: ClassVar[str] = "EpisodeEnded"
    version: ClassVar[int] = 1
    reason: str

    @property
    def data(self) -> JsonObject:
        return {"reason": self.reason}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> EpisodeEnded:
        return cls(data["reason"])


@dataclass(frozen=True, slots=True)
class JudgeVerdict:
    """What an LLM judge said about a reply: the share of the required facts it makes (0..1), the
    share of the tone it meets (0..1), the safety rule it breaks if any, and why (audit only: the
    reason may name the expected decision)."""

    facts: float
    tone: float
    violation: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class ReplyJudged:
    """An LLM judge's verdict on the reply draft, recorded with the step it was asked after.

    ``reply_digest`` is the sha256 of the draft it judged (the grader uses the verdict only while
    the draft is that text) and ``prompt_digest`` the sha256 of the exact prompt sent. ``fallback``
    says why there is no verdict (the call failed, timed out or answered something unusable), in
    which case the deterministic judge grades the reply, as replay will.
    """

    type: ClassVar[str] = "ReplyJudged"
    version: ClassVar[int] = 1
    judge: str
    judge_version: str
    model: str
    prompt_digest: str
    reply_digest: str
    verdict: JudgeVerdict | None
    fallback: str | None = None

    @property
    def data(self) -> JsonObject:
        v = self.verdict
        return {
            "judge": self.judge, "judge_version": self.judge_version, "model": self.model,
            "prompt_digest": self.prompt_digest, "reply_digest": self.reply_digest,
            "verdict": None if v is None else {"facts": v.facts, "tone": v.tone,
                                               "violation": v.violation, "reason": v.reason},
            "fallback": self.fallback,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> ReplyJudged:
        v = data.get("verdict")
        verdict = None if v is None else JudgeVerdict(v["facts"], v["tone"], v["violation"],
                                                      v["reason"])
        return cls(data["judge"], data["judge_version"], data["model"], data["prompt_digest"],
                   data["reply_digest"], verdict, data.get("fallback"))


@dataclass(frozen=True, slots=True)
class Component:
    """One score component of a grade: units earned of its weight, a public reason that never
    reveals the answer key, and an audit detail that does."""

    name: str
    earned: int
    weight: int
    public: str
    detail: str


@dataclass(frozen=True, slots=True)
class Penalty:
    """One penalty of a step: the rule, its cost in units, and why."""

    rule: str
    units: int
    reason: str


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken safety rule of a grade (``graders.safety``): the rule, why, and the step that
    broke it (None when no single step did). Defined here, beside ``Component`` and ``Penalty``,
    because ``StepGraded`` records it and the domain does not import the graders."""

    rule: str
    reason: str
    step: int | None


@dataclass(frozen=True, slots=True)
class StepGraded:
    """What the grader said about a step at the time it was taken (units: 1 = 0.0001).

    v2 added ``violations`` (the safety rules the episode broke as of this step; grader 2.0 caps
    the score under any); v1 payloads read as having none, which is what grader 1.1 judged."""

    type: ClassVar[str] = "StepGraded"
    version: ClassVar[int] = 2
    step: int
    reward: float
    score: float
    reward_units: int
    score_units: int
    raw_units: int
    penalty_units: int
    components: tuple[Component, ...]
    penalties: tuple[Penalty, ...]
    done: bool
    grader_version: str
    violations: tuple[Violation, ...] = ()

    @property
    def data(self) -> JsonObject:
        return {
            "step": self.step,
            "reward": self.reward,
            "score": self.score,
            "reward_units": self.reward_units,
            "score_units": self.score_units,
            "raw_units": self.raw_units,
            "penalty_units": self.penalty_units,
            "components": {c.name: {"earned": c.earned, "weight": c.weight, "public": c.public,
                                    "detail": c.detail} for c in self.components},
            "penalties": [{"rule": p.rule, "units": p.units, "reason": p.reason}
                          for p in self.penalties],
            "done": self.done,
            "grader_version": self.grader_version,
            "violations": [{"rule": v.rule, "reason": v.reason, "step": v.step}
                           for v in self.violations],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> StepGraded:
        return cls(
            step=data["step"],
            reward=data["reward"],
            score=data["score"],
            reward_units=data["reward_units"],
            score_units=data["score_units"],
            raw_units=data["raw_units"],
            penalty_units=data["penalty_units"],
            components=tuple(Component(name, c["earned"], c["weight"], c["public"], c["detail"])
                             for name, c in data["components"].items()),
            penalties=tuple(Penalty(p["rule"], p["units"], p["reason"]) for p in data["penalties"]),
            done=data["done"],
            grader_version=data.get("grader_version", ""),
            violations=tuple(Violation(v["rule"], v["reason"], v["step"]) for v in data["violations"]),
        )


Event = (EpisodeStarted | ActionReceived | PriorityClassified | QueueAssigned | TagAdded
         | TagRemoved | ReplyDrafted | InternalNoteAdded | PolicyLookedUp | TicketResolved
         | TicketClosed | ActionRejected | ActionHadNoEffect | EpisodeEnded | StepGraded
         | RefundIssued | RefundDenied | AccountEmailUpdated | PasswordResetLinkSent
         | DataDeletionScheduled | LegalHoldPlaced | FraudReviewOpened | IncidentEscalated
         | ReplyJudged | CustomerMessaged | CustomerReplied)
"""Any event of an episode."""

EVENT_TYPES: tuple[type[Event], ...] = (
    EpisodeStarted, ActionReceived, PriorityClassified, QueueAssigned, TagAdded, TagRemoved,
    ReplyDrafted, InternalNoteAdded, PolicyLookedUp, TicketResolved, TicketClosed, ActionRejected,
    ActionHadNoEffect, EpisodeEnded, StepGraded, RefundIssued, RefundDenied, AccountEmailUpdated,
    PasswordResetLinkSent, DataDeletionScheduled, LegalHoldPlaced, FraudReviewOpened,
    IncidentEscalated,
    ReplyJudged, CustomerMessaged, CustomerReplied,
)
_BY_NAME: dict[str, type[Event]] = {cls.type: cls for cls in EVENT_TYPES}


def _reply_v1_to_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    """v1 (pre-release) stored the draft under ``reply_text``; v2 calls it ``text``."""
    out = {k: v for k, v in data.items() if k != "reply_text"}
    out["text"] = data["reply_text"]
    return out


def _started_v1_to_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    """v1 episodes had no reward modes: every one was dense."""
    return {**data, "reward_mode": "dense"}


def _graded_v1_to_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    """v1 grades (grader 1.1) judged no safety rule: no violations."""
    return {**data, "violations": []}


UPCASTERS: dict[tuple[str, int], Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    (ReplyDrafted.type, 1): _reply_v1_to_v2,
    (StepGraded.type, 1): _graded_v1_to_v2,
    (EpisodeStarted.type, 1): _started_v1_to_v2,
}
"""``(type, version)``: the function that turns a payload of that version into the next one."""


def upcast(type_: str, version: int, data: Mapping[str, Any]) -> Event:
    """The event a stored payload records: brought up to its type's current version one version
    at a time, then read into its class."""
    cls = _BY_NAME.get(type_)
    if cls is None:
        raise ValueError(f"unknown event type {type_!r} in the log")
    if version > cls.version:
        raise ValueError(f"{type_} v{version} is newer than this code (v{cls.version}); upgrade")
    payload = data
    while version < cls.version:
        payload = UPCASTERS[(type_, version)](payload)
        version += 1
    return cls.from_data(payload)
