"""Event types, their schema versions, and upcasting of old versions on read.

An event is a fact that happened in an episode: ``(type, version, data)``. The store adds the
sequence number, hash chain and timestamp. Old payloads are never rewritten in place; when a type's
shape changes, its version goes up and an upcaster here turns the old payload into the new one as
it is read, so logs written by earlier releases still fold and grade.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

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


@dataclass(frozen=True, slots=True)
class Event:
    """A domain event as decided; the store turns it into a recorded, hash-chained row."""

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    version: int = 0

    def __post_init__(self) -> None:
        if self.type not in CURRENT_VERSION:
            raise ValueError(f"unknown event type {self.type!r}")
        if self.version == 0:
            object.__setattr__(self, "version", CURRENT_VERSION[self.type])


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
