"""The event store: append-only streams, one per episode, with optimistic concurrency.

A step's events are appended in one transaction together with the episode's index row (an inline
projection: status, step count, score and chain head). The append states the sequence number it
expects to follow; if another writer got there first, the conditional index update touches no row
or the unique (episode, seq) key fires, the transaction rolls back, and :class:`Conflict` is raised.
Nothing of a failed append is ever visible.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from store.chain import GENESIS, canonical_json, link
from store.database import Database
from store.errors import Conflict, NotFound
from store.schema import episodes, events


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event to append: type, schema version and payload."""

    type: str
    version: int
    data: Any


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """An event as stored: its position in the stream, chain link and timestamp."""

    episode_id: str
    seq: int
    type: str
    version: int
    data_text: str
    prev_hash: str
    hash: str
    recorded_at: dt.datetime
    position: int | None = None

    @property
    def data(self) -> Any:
        return json.loads(self.data_text)


@dataclass(frozen=True, slots=True)
class Projection:
    """The episode index row's derived fields after an append."""

    status: str
    step_count: int
    score: float


@dataclass(frozen=True, slots=True)
class EpisodeRow:
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


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _chain(episode_id: str, after_seq: int, prev_hash: str, new: Sequence[NewEvent],
           now: dt.datetime) -> list[RecordedEvent]:
    out: list[RecordedEvent] = []
    for offset, item in enumerate(new, start=1):
        seq = after_seq + offset
        text = canonical_json(item.data)
        digest = link(prev_hash, seq, item.type, item.version, text)
        out.append(RecordedEvent(episode_id, seq, item.type, item.version, text, prev_hash,
                                 digest, now))
        prev_hash = digest
    return out


def _rows(recorded: Sequence[RecordedEvent]) -> list[dict[str, Any]]:
    return [{"episode_id": r.episode_id, "seq": r.seq, "type": r.type, "version": r.version,
             "data": r.data_text, "prev_hash": r.prev_hash, "hash": r.hash,
             "recorded_at": r.recorded_at} for r in recorded]


class EventStore:
    def __init__(self, db: Database):
        self.db = db

    def create(self, episode_id: str, task_id: str, seed: int | None, new: Sequence[NewEvent],
               projection: Projection, *, run_id: str | None = None,
               forked_from: str | None = None, fork_step: int | None = None) -> list[RecordedEvent]:
        """Open a new stream with its first events. :class:`Conflict` if the id is taken."""
        now = utcnow()
        recorded = _chain(episode_id, 0, GENESIS, new, now)
        try:
            with self.db.write() as conn:
                conn.execute(insert(episodes).values(
                    episode_id=episode_id, task_id=task_id, seed=seed, run_id=run_id,
                    forked_from=forked_from, fork_step=fork_step, created_at=now,
                    status=projection.status, step_count=projection.step_count,
                    score=projection.score, last_seq=recorded[-1].seq,
                    head_hash=recorded[-1].hash, updated_at=now))
                conn.execute(insert(events), _rows(recorded))
        except IntegrityError:
            raise Conflict(f"episode id {episode_id!r} is already in use") from None
        return recorded

    def append(self, episode_id: str, expected_seq: int, prev_hash: str,
               new: Sequence[NewEvent], projection: Projection) -> list[RecordedEvent]:
        """Append after ``expected_seq`` atomically, or raise :class:`Conflict` and write nothing."""
        recorded = _chain(episode_id, expected_seq, prev_hash, new, utcnow())
        last = recorded[-1]
        conflict = Conflict(
            f"episode {episode_id} moved on past event {expected_seq} (another step was recorded "
            "first); fetch the state and retry")
        try:
            with self.db.write() as conn:
                result = conn.execute(
                    update(episodes)
                    .where(and_(episodes.c.episode_id == episode_id,
                                episodes.c.last_seq == expected_seq))
                    .values(last_seq=last.seq, head_hash=last.hash, status=projection.status,
                            step_count=projection.step_count, score=projection.score,
                            updated_at=last.recorded_at))
                if result.rowcount != 1:
                    raise conflict
                conn.execute(insert(events), _rows(recorded))
        except IntegrityError:
            raise conflict from None
        return recorded

    def load(self, episode_id: str, after_seq: int = 0, upto_seq: int | None = None) -> list[RecordedEvent]:
        """Events of one stream in order (optionally only those after ``after_seq``)."""
        query = (select(events).where(events.c.episode_id == episode_id, events.c.seq > after_seq)
                 .order_by(events.c.seq))
        if upto_seq is not None:
            query = query.where(events.c.seq <= upto_seq)
        with self.db.read() as conn:
            rows = conn.execute(query).all()
        return [RecordedEvent(r.episode_id, r.seq, r.type, r.version, r.data, r.prev_hash,
                              r.hash, r.recorded_at, r.position) for r in rows]

    def head(self, episode_id: str) -> tuple[int, str]:
        """(last sequence number, its hash) from the index row; :class:`NotFound` if absent."""
        with self.db.read() as conn:
            row = conn.execute(select(episodes.c.last_seq, episodes.c.head_hash)
                               .where(episodes.c.episode_id == episode_id)).first()
        if row is None:
            raise NotFound(f"no episode {episode_id!r}")
        return row.last_seq, row.head_hash

    def episode(self, episode_id: str) -> EpisodeRow:
        with self.db.read() as conn:
            row = conn.execute(select(episodes).where(episodes.c.episode_id == episode_id)).first()
        if row is None:
            raise NotFound(f"no episode {episode_id!r}")
        return EpisodeRow(**row._asdict())

    def count_events(self) -> int:
        with self.db.read() as conn:
            return int(conn.execute(select(func.count()).select_from(events)).scalar_one())
