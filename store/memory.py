"""The event log kept in the process: :class:`MemoryEventStore`, the in-memory backend of
:class:`store.protocol.EventLog`.

What offline play runs the environment service on (the grader audit, ``tasks verify``, an agent
played in memory): the service steps exactly as it does over SQL, and nothing is written anywhere.
Its streams are the SQL store's: the same canonical JSON text and hash chain (``store.records``),
an append conditional on the head it follows, a lost race or a taken id a :class:`Conflict` that
writes nothing, an unknown episode :class:`NotFound`, and the index row moved with every append.
One lock makes every call atomic, so threads see each append whole or not at all. The log lives as
long as the store does.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Sequence

from store.chain import CHAIN_FORMAT, GENESIS
from store.errors import Conflict, NotFound
from store.records import (
    Append,
    Create,
    EpisodeRow,
    Projection,
    RecordedEvent,
    Storable,
    chain_events,
    utcnow,
)

__all__ = ["MemoryEventStore"]


def _check(new: Sequence[Storable]) -> None:
    """Refuse what the SQL store cannot write (no event, or a column that may not be null) before
    anything is written; the payload's own faults surface when it is encoded (``store.codec``)."""
    if not new:
        raise ValueError("a write records at least one event")
    for item in new:
        if not isinstance(item.type, str) or not item.type:
            raise TypeError(f"an event's type must be a non-empty string, not {item.type!r}")
        if not isinstance(item.version, int) or isinstance(item.version, bool):
            raise TypeError(f"an event's version must be an integer, not {item.version!r}")


def _moved(a: Append) -> Conflict:
    return Conflict(f"episode {a.episode_id} moved on past event {a.expected_seq} (another step was "
                    "recorded first); fetch the state and retry")


class MemoryEventStore:
    """An event log in a dictionary: streams of :class:`RecordedEvent` and their index rows."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[str, EpisodeRow] = {}
        self._streams: dict[str, list[RecordedEvent]] = {}
        self._positions = 0
        """The last event's position in the whole log (positions count from 1, as SQL's do)."""

    # ------------------------------------------------------------------ writes
    def create(self, episode_id: str, task_id: str, seed: int | None, new: Sequence[Storable],
               projection: Projection, *, run_id: str | None = None,
               forked_from: str | None = None, fork_step: int | None = None) -> list[RecordedEvent]:
        result = self.create_many([Create(episode_id, task_id, seed, tuple(new), projection,
                                          run_id, forked_from, fork_step)])[0]
        if isinstance(result, Conflict):
            raise result
        return result

    def create_many(self, creates: Sequence[Create]) -> list[list[RecordedEvent] | Conflict]:
        now = utcnow()
        for c in creates:
            _check(c.new)
        chains = [chain_events(c.episode_id, 0, GENESIS, c.new, now) for c in creates]
        out: list[list[RecordedEvent] | Conflict] = []
        with self._lock:
            for c, recorded in zip(creates, chains, strict=True):
                if c.episode_id in self._rows:
                    out.append(Conflict(f"episode id {c.episode_id!r} is already in use"))
                    continue
                p = c.projection
                self._rows[c.episode_id] = EpisodeRow(
                    c.episode_id, c.task_id, c.seed, c.run_id, c.forked_from, c.fork_step, now,
                    p.status, p.step_count, p.score, recorded[-1].seq, recorded[-1].hash, now,
                    CHAIN_FORMAT)
                self._streams[c.episode_id] = self._positioned(recorded)
                out.append(recorded)
        return out

    def append(self, episode_id: str, expected_seq: int, prev_hash: str,
               new: Sequence[Storable], projection: Projection, *,
               expected_status: str | None = None) -> list[RecordedEvent]:
        result = self.append_many([Append(episode_id, expected_seq, prev_hash, tuple(new),
                                          projection, expected_status)])[0]
        if isinstance(result, Conflict):
            raise result
        return result

    def append_many(self, appends: Sequence[Append]) -> list[list[RecordedEvent] | Conflict]:
        """Each append in turn under one lock: one whose episode is not at ``expected_seq`` (or
        does not exist) is a :class:`Conflict` and writes nothing; the status it expects is a
        hint the SQL store needs and this one does not."""
        now = utcnow()
        for a in appends:
            _check(a.new)
        chains = [chain_events(a.episode_id, a.expected_seq, a.prev_hash, a.new, now)
                  for a in appends]
        out: list[list[RecordedEvent] | Conflict] = []
        with self._lock:
            for a, recorded in zip(appends, chains, strict=True):
                row = self._rows.get(a.episode_id)
                if row is None or row.last_seq != a.expected_seq:
                    out.append(_moved(a))
                    continue
                p = a.projection
                self._rows[a.episode_id] = dataclasses.replace(
                    row, status=p.status, step_count=p.step_count, score=p.score,
                    last_seq=recorded[-1].seq, head_hash=recorded[-1].hash, updated_at=now)
                self._streams[a.episode_id] += self._positioned(recorded)
                out.append(recorded)
        return out

    def _positioned(self, recorded: Sequence[RecordedEvent]) -> list[RecordedEvent]:
        """``recorded`` with their places in the whole log (under the lock)."""
        first = self._positions + 1
        self._positions += len(recorded)
        return [r._replace(position=first + i) for i, r in enumerate(recorded)]

    # ------------------------------------------------------------------- reads
    def load(self, episode_id: str, after_seq: int = 0,
             upto_seq: int | None = None) -> list[RecordedEvent]:
        with self._lock:
            stream = self._streams.get(episode_id)
            if stream is None:
                return []
            # a stream's sequence numbers run 1, 2, 3, ...: event n is at index n - 1
            return stream[max(after_seq, 0):upto_seq if upto_seq is None else max(upto_seq, 0)]

    def load_many(self, episode_ids: Sequence[str]) -> dict[str, list[RecordedEvent]]:
        return {eid: self.load(eid) for eid in episode_ids}

    def head(self, episode_id: str) -> tuple[int, str]:
        with self._lock:
            row = self._rows.get(episode_id)
        if row is None:
            raise NotFound(f"no episode {episode_id!r}")
        return row.last_seq, row.head_hash

    def heads(self, episode_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        with self._lock:
            rows = [self._rows.get(eid) for eid in dict.fromkeys(episode_ids)]
        return {row.episode_id: (row.last_seq, row.head_hash) for row in rows if row is not None}

    def episode(self, episode_id: str) -> EpisodeRow:
        with self._lock:
            row = self._rows.get(episode_id)
        if row is None:
            raise NotFound(f"no episode {episode_id!r}")
        return row

    def count_events(self) -> int:
        with self._lock:
            return self._positions
