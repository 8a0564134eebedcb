"""What an event store takes and gives, whatever keeps the log: the records of a stream, its
index row, and how new events are chained (``store.chain``).

Both backends (``store.eventstore`` over SQL, ``store.memory`` in the process) build their records
here, so an event is stored and hashed the same way wherever it is kept.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from store.chain import CHAIN_FORMAT, link
from store.codec import canonical_json, parse_json


class Storable(Protocol):
    """What an append takes: anything with a type, schema version and payload
    (:class:`NewEvent`, or the domain's own events, passed as they are)."""

    @property
    def type(self) -> str: ...

    @property
    def version(self) -> int: ...

    @property
    def data(self) -> Any: ...


class NewEvent(NamedTuple):
    """An event to append: type, schema version and payload."""

    type: str
    version: int
    data: Any


class RecordedEvent(NamedTuple):
    """An event as stored: its position in the stream, chain link and timestamp, and the chain
    format of its episode (which says how ``hash`` is checked; see ``store.chain``)."""

    episode_id: str
    seq: int
    type: str
    version: int
    data_text: str
    prev_hash: str
    hash: str
    recorded_at: dt.datetime
    chain_format: int
    position: int | None = None

    @property
    def data(self) -> Any:
        return parse_json(self.data_text)


class Projection(NamedTuple):
    """The episode index row's derived fields after an append."""

    status: str
    step_count: int
    score: float


class Append(NamedTuple):
    """One episode's part of :meth:`EventLog.append_many <store.protocol.EventLog.append_many>`:
    its events after ``expected_seq``.

    ``expected_status``: the status the index row has at ``expected_seq`` (the episode's before
    the step), when the caller knows it; the SQL store then runs the one form of the index update
    that fits (keeping the status or writing the new one), and without it tries the keeping form
    first. It never changes the outcome: a hint, which the in-memory store has no use for."""

    episode_id: str
    expected_seq: int
    prev_hash: str
    new: Sequence[Storable]
    projection: Projection
    expected_status: str | None = None


class Create(NamedTuple):
    """One new stream of :meth:`EventLog.create_many <store.protocol.EventLog.create_many>`: the
    episode's index row and first events."""

    episode_id: str
    task_id: str
    seed: int | None
    new: Sequence[Storable]
    projection: Projection
    run_id: str | None = None
    forked_from: str | None = None
    fork_step: int | None = None


@dataclass(frozen=True, slots=True)
class EpisodeRow:
    """An episode's index row: what it is, and the projection of its log its appends keep."""

    episode_id: str
    task_id: str
    seed: int | None
    run_id: str | None
    forked_from: str | None
    fork_step: int | None
    created_at: dt.datetime
    status: str
    step_count: int
    score: float
    last_seq: int
    head_hash: str
    updated_at: dt.datetime
    chain_format: int


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def chain_events(episode_id: str, after_seq: int, prev_hash: str, new: Sequence[Storable],
                 now: dt.datetime) -> list[RecordedEvent]:
    """``new`` as they will be stored after ``(after_seq, prev_hash)``: canonical JSON text and
    chain link each, in the current chain format."""
    out: list[RecordedEvent] = []
    for offset, item in enumerate(new, start=1):
        seq = after_seq + offset
        text = canonical_json(item.data)
        digest = link(prev_hash, seq, item.type, item.version, text, CHAIN_FORMAT)
        out.append(RecordedEvent(episode_id, seq, item.type, item.version, text, prev_hash,
                                 digest, now, CHAIN_FORMAT))
        prev_hash = digest
    return out
