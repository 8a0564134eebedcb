"""Event types, their schema versions, and upcasting of old versions on read.

An event is a fact that happened in an episode: one frozen dataclass per type, its payload as typed
attributes, declared once. Everything else is derived from the declaration: the type's name is its
class name, its payload (``data``, the JSON that is stored and hashed) is written and read back by
one codec driven by the fields (``domain.payload``: vocabulary values read as input is read,
ignoring case, so an altered log still reads and its hash chain says where), and the registry of
types is the :data:`Event` union. The store adds the sequence number, hash chain and timestamp.

Old payloads are never rewritten in place; when a type's shape changes, it gets an upcaster (its
schema version is one more than its upcasters) and :func:`upcast` turns the old payload into the
new one as it is read, so logs written by earlier releases still fold and grade.

Adding an event type: declare its dataclass here, deriving from :class:`EventBase`, and add it to
:data:`Event`; ``decide`` and ``evolve`` then fail the type check until they handle it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, ClassVar, get_args

from domain.actions import ACTION_ADAPTER, Action, action_json
from domain.jsontext import JsonObject, JsonText
from domain.payload import UNLESS_DEFAULT, KeyedBy, Leaf, PayloadCodecs, absent_reads_as
from domain.tasks.variant import TaskVariant
from domain.vocabulary import PolicyId, Priority, Queue, ResolutionCode, Severity, Tag

Upcaster = Callable[[Mapping[str, object]], dict[str, object]]
"""Turns a stored payload of one schema version into the next version's."""


class EventBase:
    """What every event type derives: its ``type`` (the class name, as stored), its schema
    ``version`` (one more than its ``upcasters``) and its payload ``data``.

    ``upcasters[i]`` turns a payload of version ``i + 1`` into version ``i + 2``; a type whose
    shape changes appends one, which raises its version."""

    __slots__ = ()
    type: ClassVar[str]
    version: ClassVar[int]
    upcasters: ClassVar[tuple[Upcaster, ...]] = ()

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls.type = cls.__name__
        cls.version = len(cls.upcasters) + 1

    @property
    def data(self) -> JsonObject:
        """The payload that is stored and hashed: a fresh dict on every call."""
        return _CODECS.encode(self)


def _reply_text_named_text(data: Mapping[str, object]) -> dict[str, object]:
    """v1 (pre-release) stored the draft under ``reply_text``; v2 calls it ``text``."""
    out = {k: v for k, v in data.items() if k != "reply_text"}
    out["text"] = data["reply_text"]
    return out


def _every_episode_dense(data: Mapping[str, object]) -> dict[str, object]:
    """v1 episodes had no reward modes: every one was dense."""
    return {**data, "reward_mode": "dense"}


def _no_violations(data: Mapping[str, object]) -> dict[str, object]:
    """v1 grades (grader 1.1) judged no safety rule: no violations."""
    return {**data, "violations": []}


@dataclass(frozen=True, slots=True)
class ForkOrigin:
    """Where a forked episode branched off: the original, the step, and the chain hash there."""

    episode_id: str
    at: int
    hash: str


@dataclass(frozen=True, slots=True)
class EpisodeStarted(EventBase):
    """The first event of every episode: which task and seed, and the materialised task itself
    (graders read the recorded task, so an episode keeps its grade when the catalog changes), the
    grader it is graded with and the reward mode it hands rewards out in (``domain.rewards``).

    v2 added ``reward_mode``; v1 episodes were all dense."""

    upcasters = (_every_episode_dense,)
    episode_id: str
    task_id: str
    seed: int | None
    task_digest: str
    task: TaskVariant
    run_id: str | None = None
    forked_from: ForkOrigin | None = None
    grader_version: str = ""
    judge: str = field(default="deterministic", metadata=UNLESS_DEFAULT)
    """Which reply judge the service ran for this episode: ``deterministic`` or ``llm``. With
    ``llm`` the log holds a ``ReplyJudged`` event wherever a reply was judged; replay reads those.
    Stored only when it is ``llm``: an absent key reads as ``deterministic``, so an episode without
    an LLM judge carries no member for a judge it never had."""
    reward_mode: str = "dense"
    customer: str = field(default="scripted", metadata=UNLESS_DEFAULT)
    """Who answers ``message_customer``: ``scripted`` (``domain.customer``, inside ``decide``) or
    ``llm`` (the service asks a model; its replies are recorded as ``CustomerReplied`` events, so
    replay never asks again). Stored only when it is ``llm``, like ``judge``."""


@dataclass(frozen=True, slots=True)
class ActionReceived(EventBase):
    """The first event of every step: the body exactly as received (``raw``, so the log can be
    audited), the actions it was normalised to and the dialect it was written in."""

    step: int
    raw: JsonText
    actions: tuple[Action, ...]
    dialect: str


@dataclass(frozen=True, slots=True)
class PriorityClassified(EventBase):
    priority: Priority
    previous: Priority | None


@dataclass(frozen=True, slots=True)
class QueueAssigned(EventBase):
    queue: Queue
    previous: Queue | None


@dataclass(frozen=True, slots=True)
class TagAdded(EventBase):
    tag: Tag


@dataclass(frozen=True, slots=True)
class TagRemoved(EventBase):
    tag: Tag


@dataclass(frozen=True, slots=True)
class ReplyDrafted(EventBase):
    """The reply draft's new text (v1, before release, called the field ``reply_text``)."""

    upcasters = (_reply_text_named_text,)
    text: str


@dataclass(frozen=True, slots=True)
class InternalNoteAdded(EventBase):
    note: str


@dataclass(frozen=True, slots=True)
class PolicyLookedUp(EventBase):
    policy_id: PolicyId


@dataclass(frozen=True, slots=True)
class TicketResolved(EventBase):
    resolution_code: ResolutionCode


@dataclass(frozen=True, slots=True)
class TicketClosed(EventBase):
    resolution_code: ResolutionCode | None


# ----------------------------------------------------------------- back-office events (the account)
@dataclass(frozen=True, slots=True)
class RefundIssued(EventBase):
    """Money went back to the customer's payment method: ``amount`` dollars (two decimals)."""

    amount: float


@dataclass(frozen=True, slots=True)
class RefundDenied(EventBase):
    """The customer's refund request was declined (``reason`` as the agent gave it, if any)."""

    reason: str | None


@dataclass(frozen=True, slots=True)
class AccountEmailUpdated(EventBase):
    """The account's email address on file changed from ``old_email`` to ``new_email``."""

    old_email: str
    new_email: str


@dataclass(frozen=True, slots=True)
class PasswordResetLinkSent(EventBase):
    """A password reset link went to ``email``, the address on file at the time."""

    email: str


@dataclass(frozen=True, slots=True)
class DataDeletionScheduled(EventBase):
    """The account and its personal data are queued for deletion (complete within 30 days)."""



@dataclass(frozen=True, slots=True)
class LegalHoldPlaced(EventBase):
    """The account is under legal hold: its data is kept until the hold is lifted."""



@dataclass(frozen=True, slots=True)
class FraudReviewOpened(EventBase):
    """The request went to the trust team's fraud review."""



@dataclass(frozen=True, slots=True)
class IncidentEscalated(EventBase):
    """An incident was declared (or its severity changed) and the on-call specialists paged."""

    severity: Severity
    previous: Severity | None


# ---------------------------------------------------------- the conversation with the customer
@dataclass(frozen=True, slots=True)
class CustomerMessaged(EventBase):
    """The agent sent the customer ``text`` (``message_customer``): a question or a request."""

    text: str


REPLY_KINDS = ("answer", "clarify", "repeat", "impatient", "refuse")
"""What a customer reply did: revealed what was asked (``answer``), asked what the agent needs
(``clarify``), answered a question asked before (``repeat``: stalling), lost patience with
another question it cannot answer (``impatient``: stalling), or refused a message that fished for
many details or tried to instruct it, asking for one clear question (``refuse``: stalling)."""


@dataclass(frozen=True, slots=True)
class CustomerReplied(EventBase):
    """The customer's reply to the message just sent: its ``text``, the hidden facts it reveals
    (``revealed``: names of ``TaskInstance.hidden_facts``, from then on known to the agent), its
    ``kind`` (:data:`REPLY_KINDS`) and who wrote it: ``scripted`` (``domain.customer``) or ``llm``
    (``model``; ``prompt_digest``: sha256 of the prompt sent). ``fallback`` says why the scripted
    wording stands in for a model's (the call failed, or its answer left out a fact it had to give).
    ``customer_version`` is the persona prompt's version (``service.customer.CUSTOMER_VERSION``)
    when a model was asked, as ``ReplyJudged`` records the judge's; absent for a scripted customer.
    What was revealed and the kind are always decided by the scripted rules, so a model only words
    the reply and the grade never depends on it."""

    text: str
    revealed: tuple[str, ...]
    kind: str
    source: str = "scripted"
    model: str | None = None
    prompt_digest: str | None = None
    fallback: str | None = None
    customer_version: str | None = field(default=None, metadata=UNLESS_DEFAULT)


@dataclass(frozen=True, slots=True)
class ActionRejected(EventBase):
    """The step's action was refused (``code`` names the rule); the grader penalises it."""

    code: str
    reason: str


@dataclass(frozen=True, slots=True)
class ActionHadNoEffect(EventBase):
    """A part of the step's action changed nothing (the value was already so)."""

    reason: str


END_STATES = frozenset({"resolved", "closed"})
"""End reasons that are end states of the task (Gymnasium's ``terminated``)."""
CLOSINGS = frozenset({"cut_off", "disconnected"})
"""End reasons of an episode ended from outside a step (``domain.decide.end``): ``cut_off``, the
agent's driver stopped the rollout (a trainer's tool-call or token budget) and started another or
shut down; ``disconnected``, the ``/ws`` session that opened the episode ended. Both are limits: the
ticket reached no end state, something outside the task stopped the agent."""
LIMITS = frozenset({"max_steps"}) | CLOSINGS
"""End reasons that are a limit cutting the episode short (Gymnasium's ``truncated``)."""


@dataclass(frozen=True, slots=True)
class EpisodeEnded(EventBase):
    """The episode is over: ``resolved``, ``closed`` (end states: :data:`END_STATES`) or
    ``max_steps``, ``cut_off``, ``disconnected`` (limits: :data:`LIMITS`); every reason is in
    exactly one of the two, so ``done == terminated or truncated`` on every transport.

    Inside a step (before its ``StepGraded``) it ends the episode with that step; alone after the
    last step's grade (or right after ``EpisodeStarted``) it is a *closing*
    (:data:`CLOSINGS`): a record of its own, ungraded, that pays nothing."""

    reason: str


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
class ReplyJudged(EventBase):
    """An LLM judge's verdict on the reply draft, recorded with the step it was asked after.

    ``reply_digest`` is the sha256 of the draft it judged (the grader uses the verdict only while
    the draft is that text) and ``prompt_digest`` the sha256 of the exact prompt sent. ``fallback``
    says why there is no verdict (the call failed, timed out or answered something unusable), in
    which case the deterministic judge grades the reply, as replay will.
    """

    judge: str
    judge_version: str
    model: str
    prompt_digest: str
    reply_digest: str
    verdict: JudgeVerdict | None
    fallback: str | None = None


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
class StepGraded(EventBase):
    """What the grader said about a step at the time it was taken (units: 1 = 0.0001).

    v2 added ``violations`` (the safety rules the episode broke as of this step; grader 2.0 caps
    the score under any); v1 payloads read as having none, which is what grader 1.1 judged.
    ``components`` are stored as an object keyed by their names."""

    upcasters = (_no_violations,)
    step: int
    reward: float
    score: float
    reward_units: int
    score_units: int
    raw_units: int
    penalty_units: int
    components: Annotated[tuple[Component, ...], KeyedBy("name")]
    penalties: tuple[Penalty, ...]
    done: bool
    grader_version: str = field(metadata=absent_reads_as(""))
    violations: tuple[Violation, ...] = ()


Event = (EpisodeStarted | ActionReceived | PriorityClassified | QueueAssigned | TagAdded
         | TagRemoved | ReplyDrafted | InternalNoteAdded | PolicyLookedUp | TicketResolved
         | TicketClosed | ActionRejected | ActionHadNoEffect | EpisodeEnded | StepGraded
         | RefundIssued | RefundDenied | AccountEmailUpdated | PasswordResetLinkSent
         | DataDeletionScheduled | LegalHoldPlaced | FraudReviewOpened | IncidentEscalated
         | ReplyJudged | CustomerMessaged | CustomerReplied)
"""Any event of an episode: the one list of event types (a union, so ``decide`` and ``evolve`` are
checked to handle every one)."""

EVENT_TYPES: tuple[type[Event], ...] = get_args(Event)
_BY_NAME: dict[str, type[Event]] = {cls.type: cls for cls in EVENT_TYPES}


def _read_task(value: object) -> TaskVariant:
    if not isinstance(value, Mapping):
        raise ValueError(f"EpisodeStarted.task: expected an object, got {type(value).__name__}")
    return TaskVariant.from_json(value)


_CODECS = PayloadCodecs([
    Leaf(TaskVariant, TaskVariant.json_form, _read_task),
    Leaf(JsonText, JsonText.value, JsonText.of),
    Leaf(Action, action_json, ACTION_ADAPTER.validate_python),
])
"""The one codec of every event's payload, with the domain types that have their own JSON form:
the recorded task, a body as received (its JSON value) and a normalised action."""


def upcast(type_: str, version: int, data: Mapping[str, object]) -> Event:
    """The event a stored payload records: brought up to its type's current version one version
    at a time, then read into its class."""
    cls = _BY_NAME.get(type_)
    if cls is None:
        raise ValueError(f"unknown event type {type_!r} in the log")
    if version > cls.version:
        raise ValueError(f"{type_} v{version} is newer than this code (v{cls.version}); upgrade")
    if version < 1:
        raise ValueError(f"{type_} v{version} is not a schema version (they start at 1)")
    payload = data
    for upcaster in cls.upcasters[version - 1:]:
        payload = upcaster(payload)
    return _CODECS.decode(cls, payload)
