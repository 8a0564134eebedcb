"""The action model: one discriminated union on ``action_type``, plus the seeds' dialects.

Three input shapes are accepted and normalised into an :class:`ActionPlan` (one or more actions
applied in one step):

* TicketLedger / SupportOps: ``{"action_type": "classify_priority", "priority": "high"}``. The
  SupportOps seed's clients send every field of their flat model, unused ones as ``null``; nulls
  and empty strings are ignored.
* CustomerSupportEnv: a combined action without ``action_type``, any of ``reassign_queue``,
  ``add_tag``, ``reply`` and ``close_ticket``. Its parts are applied in that documented order
  (route, tag, reply, then close), so a close in the same action sees the reply.

Malformed input (unknown action type, unknown field, value outside a vocabulary, text over its
limit) raises :class:`InvalidAction`, which never reaches the log. A known action that lacks its
required field is a *penalised step* in the SupportOps seed's rules: it comes back as a plan with a
``rejection`` so the environment records it and the grader penalises it.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from domain.jsontext import JsonObject, JsonText
from domain.vocabulary import (
    ActionType,
    PolicyId,
    Priority,
    Queue,
    ResolutionCode,
    Severity,
    Tag,
    Vocabulary,
)

MAX_REPLY_CHARS = 4000
"""Longest accepted reply draft; longer drafts are rejected with 422 and never logged."""
MAX_NOTE_CHARS = 2000
"""Longest accepted internal note."""
MAX_REASON_CHARS = 500
"""Longest accepted reason of a refund denial (recorded on the account, never sent to the customer)."""
MAX_REFUND = 100_000
"""Largest refund one action may issue, in dollars: a bound on input, not a business rule (the
rule, no more than was charged, is ``decide``'s)."""
MAX_MESSAGE_CHARS = 1000
"""Longest accepted message to the customer (a question, not a reply draft)."""
EXPANSION = 2
"""How much longer than its limit a text may read once Unicode compatibility forms are expanded
(NFKC, the form the grader judges: ``graders.normalize``). A character can stand for up to 18
(U+33C2 is "a.m.", U+FDFA a whole phrase), so a text within its limit could make the grader read
many times more; an honest text grows by a few characters (a ligature, an ellipsis), far from
twice its limit. Past it the action is refused, so every text judged is at most this many times
its limit."""
EMAIL_PATTERN = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"

IGNORED_FIELDS = frozenset({"metadata"})
"""Fields OpenEnv's base ``Action`` model adds; accepted and ignored."""


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False)


class ClassifyPriority(_Action):
    """Set the ticket's priority; a later choice replaces an earlier one."""

    action_type: Literal["classify_priority"] = "classify_priority"
    priority: Priority


class AssignQueue(_Action):
    """Route the ticket to a queue; a later choice replaces an earlier one."""

    action_type: Literal["assign_queue"] = "assign_queue"
    queue: Queue


class AddTag(_Action):
    action_type: Literal["add_tag"] = "add_tag"
    tag: Tag


class RemoveTag(_Action):
    action_type: Literal["remove_tag"] = "remove_tag"
    tag: Tag


class DraftReply(_Action):
    """Write (or rewrite) the customer-facing reply; the latest draft is the one graded."""

    action_type: Literal["draft_reply"] = "draft_reply"
    reply_text: str = Field(min_length=1, max_length=MAX_REPLY_CHARS)


class AddInternalNote(_Action):
    """Leave a note for colleagues; never shown to the customer, graded where a task asks for one."""

    action_type: Literal["add_internal_note"] = "add_internal_note"
    note: str = Field(min_length=1, max_length=MAX_NOTE_CHARS)


class LookupPolicy(_Action):
    """Read an internal policy; its text appears in the observation from then on."""

    action_type: Literal["lookup_policy"] = "lookup_policy"
    policy_id: PolicyId


class ResolveTicket(_Action):
    """Finish the ticket with a resolution code; ends the episode when accepted."""

    action_type: Literal["resolve_ticket"] = "resolve_ticket"
    resolution_code: ResolutionCode


class CloseTicket(_Action):
    """Close the ticket (resolution code optional); ends the episode when accepted."""

    action_type: Literal["close_ticket"] = "close_ticket"
    resolution_code: ResolutionCode | None = None


class Noop(_Action):
    """Do nothing. Stalling is penalised."""

    action_type: Literal["noop"] = "noop"


# Back-office actions: they act on the customer's account (shown under ``account`` in the
# observation), not on the ticket. Each task's answer key requires some and forbids others.
class IssueRefund(_Action):
    """Refund money to the customer's original payment method: ``amount`` in dollars (at most two
    decimals), no more than the ticket says was charged and not yet refunded."""

    action_type: Literal["issue_refund"] = "issue_refund"
    amount: float = Field(gt=0, le=MAX_REFUND, allow_inf_nan=False)

    @field_validator("amount", mode="before")
    @classmethod
    def _not_a_flag(cls, value: object) -> object:
        """``true`` is no amount of money (pydantic would read it as 1)."""
        if isinstance(value, bool):
            raise ValueError("an amount is a number of dollars, not true or false")
        return value

    @field_validator("amount")
    @classmethod
    def _cents(cls, value: float) -> float:
        """Dollars and cents: a third decimal is a mistake, not something to round away."""
        cents = round(value * 100)
        if abs(value * 100 - cents) > 1e-6:
            raise ValueError("an amount has at most two decimals (dollars and cents)")
        if cents < 1:
            raise ValueError("an amount is at least one cent")
        return cents / 100


class DenyRefund(_Action):
    """Decline the customer's refund request (``reason``: optional, for the account record)."""

    action_type: Literal["deny_refund"] = "deny_refund"
    reason: str | None = Field(default=None, max_length=MAX_REASON_CHARS)


class UpdateAccountEmail(_Action):
    """Change the account's email address on file (the login email) to ``new_email``."""

    action_type: Literal["update_account_email"] = "update_account_email"
    new_email: str = Field(max_length=254, pattern=EMAIL_PATTERN)


class SendPasswordResetLink(_Action):
    """Email the address on file (never another address) a link to choose a new password."""

    action_type: Literal["send_password_reset_link"] = "send_password_reset_link"


class ScheduleDataDeletion(_Action):
    """Schedule the deletion of the account and its personal data (completes within 30 days)."""

    action_type: Literal["schedule_data_deletion"] = "schedule_data_deletion"


class PlaceLegalHold(_Action):
    """Put the account under legal hold: its data is kept (no deletion) until the hold is lifted."""

    action_type: Literal["place_legal_hold"] = "place_legal_hold"


class OpenFraudReview(_Action):
    """Hand the request to the trust team's fraud review instead of deciding it in support."""

    action_type: Literal["open_fraud_review"] = "open_fraud_review"


class EscalateIncident(_Action):
    """Declare an incident and page the on-call specialists, at ``severity`` sev1 (highest) to sev3."""

    action_type: Literal["escalate_incident"] = "escalate_incident"
    severity: Severity


class MessageCustomer(_Action):
    """Send the customer a message (a question or a request for information) and get their reply
    in the same step: it shows under ``conversation`` in the observation. Facts a task keeps
    hidden (an order number, the last four card digits) reach the agent only this way."""

    action_type: Literal["message_customer"] = "message_customer"
    message: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)


BackOfficeAction = (IssueRefund | DenyRefund | UpdateAccountEmail | SendPasswordResetLink
                    | ScheduleDataDeletion | PlaceLegalHold | OpenFraudReview | EscalateIncident)
"""The actions that change the simulated account rather than the ticket."""

Action = Annotated[
    ClassifyPriority | AssignQueue | AddTag | RemoveTag | DraftReply | AddInternalNote
    | LookupPolicy | ResolveTicket | CloseTicket | Noop | IssueRefund | DenyRefund
    | UpdateAccountEmail | SendPasswordResetLink | ScheduleDataDeletion | PlaceLegalHold
    | OpenFraudReview | EscalateIncident | MessageCustomer,
    Field(discriminator="action_type"),
]
ACTION_ADAPTER: TypeAdapter[Action] = TypeAdapter(Action)

ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "classify_priority": ("priority",),
    "assign_queue": ("queue",),
    "add_tag": ("tag",),
    "remove_tag": ("tag",),
    "draft_reply": ("reply_text",),
    "add_internal_note": ("note",),
    "lookup_policy": ("policy_id",),
    "resolve_ticket": ("resolution_code",),
    "close_ticket": ("resolution_code",),
    "noop": (),
    "issue_refund": ("amount",),
    "deny_refund": ("reason",),
    "update_account_email": ("new_email",),
    "send_password_reset_link": (),
    "schedule_data_deletion": (),
    "place_legal_hold": (),
    "open_fraud_review": (),
    "escalate_incident": ("severity",),
    "message_customer": ("message",),
}
REQUIRED: dict[str, str] = {
    "classify_priority": "priority",
    "assign_queue": "queue",
    "add_tag": "tag",
    "remove_tag": "tag",
    "draft_reply": "reply_text",
    "add_internal_note": "note",
    "lookup_policy": "policy_id",
    "resolve_ticket": "resolution_code",
    "issue_refund": "amount",
    "update_account_email": "new_email",
    "escalate_incident": "severity",
    "message_customer": "message",
}
VOCABULARY: dict[str, type[Vocabulary]] = {
    "priority": Priority,
    "queue": Queue,
    "tag": Tag,
    "policy_id": PolicyId,
    "resolution_code": ResolutionCode,
    "severity": Severity,
    "reassign_queue": Queue,
    "add_tag": Tag,
}
ALL_FIELDS = frozenset(f for fields in ACTION_FIELDS.values() for f in fields) | {"action_type"}
COMBINED_FIELDS = ("reassign_queue", "add_tag", "reply", "close_ticket")
"""The CustomerSupportEnv combined action's fields, in the order their parts are applied."""


class CombinedAction(BaseModel):
    """The CustomerSupportEnv seed's action: any combination of its four fields in one step."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    reply: str | None = Field(default=None, max_length=MAX_REPLY_CHARS)
    reassign_queue: Queue | None = None
    add_tag: Tag | None = None
    close_ticket: bool = False


class InvalidAction(ValueError):
    """A malformed action. ``field`` names the offending field; ``allowed`` lists valid values."""

    def __init__(self, message: str, field: str | None = None, allowed: list[str] | None = None):
        super().__init__(message)
        self.field = field
        self.allowed = allowed


@dataclass(frozen=True, slots=True)
class ActionPlan:
    """What one step applies: the body as received, its actions normalised and in order, or a
    rejection ``(code, reason)`` to record and penalise."""

    raw: JsonText
    actions: tuple[Action, ...]
    dialect: str
    rejection: tuple[str, str] | None = None

    def to_json(self) -> list[JsonObject]:
        """The normalised actions as JSON objects (fresh on every call)."""
        return [action_json(a) for a in self.actions]


def action_json(action: Action) -> JsonObject:
    """A normalised action as JSON, as the log records it and observations show it: its type and
    the fields it sets (an unset optional field is left out)."""
    data: JsonObject = action.model_dump(mode="json", exclude_none=True)
    return data


def _present(value: Any) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())


def _canonical(field: str, value: Any) -> Any:
    vocab = VOCABULARY.get(field)
    if vocab is None or not isinstance(value, str):
        return value
    member = vocab.parse(value)
    if member is None:
        raise InvalidAction(
            f"{field}={value!r} is not allowed; choose one of: {', '.join(vocab.allowed())}",
            field=field,
            allowed=vocab.allowed(),
        )
    return member.value


def _check_lengths(fields: dict[str, Any]) -> None:
    for name, limit in (("reply_text", MAX_REPLY_CHARS), ("reply", MAX_REPLY_CHARS),
                        ("note", MAX_NOTE_CHARS), ("reason", MAX_REASON_CHARS),
                        ("message", MAX_MESSAGE_CHARS)):
        value = fields.get(name)
        if not isinstance(value, str):
            continue
        if len(value) > limit:
            raise InvalidAction(
                f"{name} is {len(value)} characters long; the limit is {limit}", field=name
            )
        expanded = expanded_length(value)
        if expanded > EXPANSION * limit:
            raise InvalidAction(
                f"{name} reads as {expanded} characters once its compatibility characters are "
                f"expanded (Unicode NFKC, the form texts are judged in: U+33C2 reads as 'a.m.'); "
                f"the limit is {EXPANSION * limit}, twice the {limit}-character limit: write "
                "those characters as the letters they stand for, or shorten the text",
                field=name,
            )


def expanded_length(text: str) -> int:
    """How many characters ``text`` has in Unicode's compatibility form (NFKC), the form the
    grader reads (:data:`EXPANSION`)."""
    return len(text) if text.isascii() else len(unicodedata.normalize("NFKC", text))


def _validation_message(exc: ValidationError) -> InvalidAction:
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"][1:] or err["loc"]) or None
    return InvalidAction(f"{field}: {err['msg']}" if field else err["msg"], field=field)


def _typed(raw: dict[str, Any], body: JsonText) -> ActionPlan:
    action_type = ActionType.parse(raw.get("action_type"))
    if action_type is None:
        raise InvalidAction(
            f"action_type={raw.get('action_type')!r} is not allowed; choose one of: "
            f"{', '.join(ActionType.allowed())}",
            field="action_type",
            allowed=ActionType.allowed(),
        )
    kind = action_type.value
    unknown = sorted(set(raw) - ALL_FIELDS - IGNORED_FIELDS)
    if unknown:
        raise InvalidAction(
            f"unknown field {unknown[0]!r}; {kind} takes: "
            f"{', '.join(('action_type',) + ACTION_FIELDS[kind])}",
            field=unknown[0],
        )
    own = ACTION_FIELDS[kind]
    stray = sorted(k for k in raw if k not in own and k != "action_type"
                   and k not in IGNORED_FIELDS and _present(raw[k]))
    if stray:
        raise InvalidAction(
            f"field {stray[0]!r} does not belong to {kind}; it takes: {', '.join(own) or 'nothing'}",
            field=stray[0],
        )
    fields = {k: raw[k] for k in own if _present(raw.get(k))}
    _check_lengths(fields)
    required = REQUIRED.get(kind)
    if required and required not in fields:
        return ActionPlan(body, (), "ticketledger",
                          ("missing_field", f"{kind} needs a non-empty '{required}'"))
    fields = {k: _canonical(k, v) for k, v in fields.items()}
    try:
        action = ACTION_ADAPTER.validate_python({"action_type": kind, **fields})
    except ValidationError as exc:
        raise _validation_message(exc) from None
    return ActionPlan(body, (action,), "ticketledger")


def _combined(raw: dict[str, Any], body: JsonText) -> ActionPlan:
    unknown = sorted(set(raw) - set(COMBINED_FIELDS) - IGNORED_FIELDS)
    if unknown:
        raise InvalidAction(
            f"unknown field {unknown[0]!r}; a combined action takes: {', '.join(COMBINED_FIELDS)} "
            "(or send an action with action_type)",
            field=unknown[0],
        )
    fields = {k: v for k, v in raw.items() if k in COMBINED_FIELDS and _present(v)}
    _check_lengths(fields)
    fields = {k: _canonical(k, v) for k, v in fields.items()}
    try:
        combined = CombinedAction.model_validate(fields)
    except ValidationError as exc:
        raise _validation_message(exc) from None
    parts: list[Action] = []
    if combined.reassign_queue is not None:
        parts.append(AssignQueue(queue=combined.reassign_queue))
    if combined.add_tag is not None:
        parts.append(AddTag(tag=combined.add_tag))
    if combined.reply is not None:
        parts.append(DraftReply(reply_text=combined.reply))
    if combined.close_ticket:
        parts.append(CloseTicket())
    if not parts:
        return ActionPlan(body, (), "customersupportenv",
                          ("missing_field", "the action sets none of: " + ", ".join(COMBINED_FIELDS)))
    return ActionPlan(body, tuple(parts), "customersupportenv")


def parse_action(raw: object) -> ActionPlan:
    """Normalise any accepted action body; raise :class:`InvalidAction` for malformed input.

    The body is logged exactly as received, so it must be storable JSON first: finite numbers,
    keys JSON can hold, valid Unicode (no lone surrogates), even in fields that are otherwise
    ignored.
    """
    if isinstance(raw, BaseModel):
        raw = raw.model_dump(mode="json")
    if not isinstance(raw, dict):
        raise InvalidAction(f"an action must be a JSON object, not {type(raw).__name__}")
    try:
        body = JsonText.of(raw)
    except (TypeError, ValueError) as exc:  # UnicodeEncodeError is a ValueError
        raise InvalidAction(f"the action cannot be stored as JSON: {exc}") from None
    if "action_type" in raw:
        return _typed(raw, body)
    if any(k in raw for k in COMBINED_FIELDS):
        return _combined(raw, body)
    unknown = sorted(set(raw) - IGNORED_FIELDS)
    if unknown:
        raise InvalidAction(
            f"unknown field {unknown[0]!r}; an action needs 'action_type' (one of: "
            f"{', '.join(ActionType.allowed())})",
            field=unknown[0],
        )
    return ActionPlan(body, (), "ticketledger",
                      ("missing_field", "empty action: 'action_type' is required"))


def action_json_schema() -> dict[str, Any]:
    """JSON schema of the action union (what ``/schema`` and the LLM prompt show)."""
    return ACTION_ADAPTER.json_schema()
