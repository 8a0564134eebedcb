"""Event types, their schema versions, and upcasting of old versions on read.

An event is a fact that happened in an episode: ``(type, version, data)``. The store adds the
sequence number, hash chain and timestamp. Old payloads are never rewritten in place; when a type's
shape changes, its version goes up and an upcaster here turns the old payload into the new one as
it is read, so logs written by earlier releases still fold and grade.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

EPISODE_STARTED = "EpisodeStarted"
ACTION_RECEIVED = "ActionReceived"
PRIORITY_CLASSIFIED = "PriorityClassified"
QUEUE_ASSIGNED = "QueueAssigned"
TAG_ADDED = "TagAdded"
TAG_REMOVED = "TagRemoved"
REPLY_DRAFTED = "ReplyDrafted"
NOTE_ADDED = "InternalNoteAdded"
POLICY_LOOKED_UP = "PolicyLookedUp"
TICKET_RESOLVED = "TicketResolved"
TICKET_CLOSED = "TicketClosed"
ACTION_REJECTED = "ActionRejected"
NO_EFFECT = "ActionHadNoEffect"
EPISODE_ENDED = "EpisodeEnded"
STEP_GRADED = "StepGraded"

CURRENT_VERSION: dict[str, int] = {
    EPISODE_STARTED: 1,
    ACTION_RECEIVED: 1,
    PRIORITY_CLASSIFIED: 1,
    QUEUE_ASSIGNED: 1,
    TAG_ADDED: 1,
    TAG_REMOVED: 1,
    REPLY_DRAFTED: 2,
    NOTE_ADDED: 1,
    POLICY_LOOKED_UP: 1,
    TICKET_RESOLVED: 1,
    TICKET_CLOSED: 1,
    ACTION_REJECTED: 1,
    NO_EFFECT: 1,
    EPISODE_ENDED: 1,
    STEP_GRADED: 1,
}

STATE_CHANGES = frozenset({
    PRIORITY_CLASSIFIED, QUEUE_ASSIGNED, TAG_ADDED, TAG_REMOVED, REPLY_DRAFTED, NOTE_ADDED,
    POLICY_LOOKED_UP, TICKET_RESOLVED, TICKET_CLOSED,
})
"""Event types that change the ticket (as opposed to bookkeeping about the step)."""


class _EventFields(NamedTuple):
    type: str
    data: Mapping[str, Any]
    version: int


class Event(_EventFields):
    """A domain event as decided; the store turns it into a recorded, hash-chained row.

    An immutable named tuple with a checked constructor: ``Event(type, data={}, version=0)``, where
    version 0 means the type's current version. Not a frozen dataclass: several are built per step
    and per replayed step, and a frozen dataclass's ``__init__`` (one ``object.__setattr__`` per
    field, then ``__post_init__``) cost about three times as much.
    """

    __slots__ = ()

    def __new__(cls, type: str, data: Mapping[str, Any] | None = None, version: int = 0) -> Event:
        current = CURRENT_VERSION.get(type)
        if current is None:
            raise ValueError(f"unknown event type {type!r}")
        return tuple.__new__(cls, (type, {} if data is None else data, version or current))


def _reply_v1_to_v2(data: Mapping[str, Any]) -> dict[str, Any]:
    """v1 (pre-release) stored the draft under ``reply_text``; v2 calls it ``text``."""
    out = {k: v for k, v in data.items() if k != "reply_text"}
    out["text"] = data["reply_text"]
    return out


UPCASTERS: dict[tuple[str, int], Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    (REPLY_DRAFTED, 1): _reply_v1_to_v2,
}


def upcast(type_: str, version: int, data: Mapping[str, Any]) -> Event:
    """Bring a stored payload up to the current version of its type, one version at a time."""
    current = CURRENT_VERSION.get(type_)
    if current is None:
        raise ValueError(f"unknown event type {type_!r} in the log")
    if version > current:
        raise ValueError(f"{type_} v{version} is newer than this code (v{current}); upgrade")
    payload: Mapping[str, Any] = data
    while version < current:
        payload = UPCASTERS[(type_, version)](payload)
        version += 1
    return Event(type_, payload, version)
