"""The event store: append-only streams, one per episode, with optimistic concurrency.

A step's events are appended in one transaction together with the episode's index row (an inline
projection: status, step count, score and chain head). The append states the sequence number it
expects to follow; if another writer got there first, the conditional index update touches no row
or the unique (episode, seq) key fires, the transaction rolls back, and :class:`Conflict` is raised.
Nothing of a failed append is ever visible.

Every statement is SQLAlchemy Core, built once below with bound parameters, and runs on a
:class:`~store.database.Database` transaction; nothing here depends on the backend. The reads run
through Core (SQLAlchemy compiles each once per engine and reuses it); a step's writes, the
statements of every step, are compiled once per dialect into :class:`~store.driver.DriverStatement`
and handed to the driver as SQL text with the values Core would have given it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from sqlalchemy import BindParameter, Connection, bindparam, func, select, update
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import IntegrityError

from store.chain import CHAIN_FORMAT, GENESIS
from store.database import Database
from store.driver import DriverStatement
from store.errors import Conflict, NotFound
from store.records import (
    Append,
    Create,
    EpisodeRow,
    NewEvent,
    Projection,
    RecordedEvent,
    Storable,
    chain_events,
    utcnow,
)
from store.schema import episodes, events

__all__ = ["RECORDED_EVENTS", "Append", "Create", "EpisodeRow", "EventStore", "NewEvent",
           "Projection", "RecordedEvent", "Storable", "chain_events", "utcnow"]


# ---------------------------------------------------------------------------- statements
_NO_LIMIT = 2**31 - 1

_HEAD = (select(episodes.c.last_seq, episodes.c.head_hash)
         .where(episodes.c.episode_id == bindparam("eid")))
_HEADS = (select(episodes.c.episode_id, episodes.c.last_seq, episodes.c.head_hash)
          .where(episodes.c.episode_id.in_(bindparam("eids", expanding=True))))
_EPISODE = select(episodes).where(episodes.c.episode_id == bindparam("eid"))
_COUNT_EVENTS = select(func.count()).select_from(events)

RECORDED_EVENTS = (select(events.c.episode_id, events.c.seq, events.c.type, events.c.version,
                          events.c.data, events.c.prev_hash, events.c.hash, events.c.recorded_at,
                          episodes.c.chain_format, events.c.position)
                   .join_from(events, episodes, events.c.episode_id == episodes.c.episode_id))
"""Events with their episode's chain format, in :class:`RecordedEvent`'s field order."""
_LOAD = (RECORDED_EVENTS.where(events.c.episode_id == bindparam("eid"),
                               events.c.seq > bindparam("after"), events.c.seq <= bindparam("upto"))
         .order_by(events.c.seq))
_LOAD_MANY = (RECORDED_EVENTS.where(events.c.episode_id.in_(bindparam("eids", expanding=True)))
              .order_by(events.c.episode_id, events.c.seq))

_CREATE = episodes.insert().inline()
_INSERT = events.insert().inline()
_EVENT_COLUMNS = ("episode_id", "seq", "type", "version", "data", "prev_hash", "hash", "recorded_at")
_INDEX_COLUMNS = tuple(c.name for c in episodes.c)

_MOVE_VALUES: dict[str, BindParameter[Any]] = {
    "last_seq": bindparam("new_seq"), "head_hash": bindparam("new_hash"),
    "step_count": bindparam("step_count_"), "score": bindparam("score_"), "updated_at": bindparam("now")}
_MOVE_KEEPING_STATUS = (update(episodes)
                        .where(episodes.c.episode_id == bindparam("eid"),
                               episodes.c.last_seq == bindparam("expected"),
                               episodes.c.status == bindparam("status_"))
                        .values(_MOVE_VALUES))
"""Moves the head of an episode whose status stays as it was (most steps). Naming ``status`` in
SET would make SQLite rewrite its index entry (``ix_episodes_status_created``) even for an equal
value, so this form matches the status in WHERE instead; :data:`_MOVE` is the one that changes it."""
_MOVE = (update(episodes)
         .where(episodes.c.episode_id == bindparam("eid"),
                episodes.c.last_seq == bindparam("expected"))
         .values({**_MOVE_VALUES, "status": bindparam("status_")}))


def _moved(a: Append) -> Conflict:
    return Conflict(f"episode {a.episode_id} moved on past event {a.expected_seq} (another step was "
                    "recorded first); fetch the state and retry")


class _Writes:
    """The store's write statements, compiled once for its database's dialect and run on the
    driver (``store.driver``): a step's appends write only strings, numbers and the time of the
    append, which is the same for every row of a transaction."""

    def __init__(self, dialect: Dialect):
        self.create = DriverStatement(_CREATE, dialect, columns=_INDEX_COLUMNS,
                                      shared=("created_at", "updated_at"))
        self.insert = DriverStatement(_INSERT, dialect, columns=_EVENT_COLUMNS,
                                      shared=("recorded_at",))
        self.move_keeping_status = DriverStatement(_MOVE_KEEPING_STATUS, dialect, shared=("now",))
        self.move = DriverStatement(_MOVE, dialect, shared=("now",))


def _event_rows(recorded: Sequence[RecordedEvent]) -> list[dict[str, Any]]:
    """The rows of ``recorded`` but their ``recorded_at`` (the append's time, given once)."""
    return [{"episode_id": r.episode_id, "seq": r.seq, "type": r.type, "version": r.version,
             "data": r.data_text, "prev_hash": r.prev_hash, "hash": r.hash} for r in recorded]


def _index_row(c: Create, recorded: Sequence[RecordedEvent]) -> dict[str, Any]:
    """The index row of ``c`` but its ``created_at`` and ``updated_at`` (the time, given once)."""
    return {"episode_id": c.episode_id, "task_id": c.task_id, "seed": c.seed, "run_id": c.run_id,
            "forked_from": c.forked_from, "fork_step": c.fork_step,
            "status": c.projection.status, "step_count": c.projection.step_count,
            "score": c.projection.score, "last_seq": recorded[-1].seq,
            "head_hash": recorded[-1].hash, "chain_format": CHAIN_FORMAT}


def _move(conn: Connection, writes: _Writes, a: Append, recorded: Sequence[RecordedEvent],
          now: dt.datetime) -> bool:
    """Move the episode's index row from ``a.expected_seq`` to the new head; False (nothing
    written) if the row is not at ``a.expected_seq`` (or does not exist). The caller inserts the
    events of the appends that moved.

    One statement when the row is where the append expects it: the form that writes the status
    when the append changes it, else the keeping form. Only when the keeping form touches no row
    does the other run too (the row's status was not the one expected, or its head moved on)."""
    shared = {"now": now}
    if a.expected_status is not None and a.expected_status != a.projection.status:
        return writes.move.execute(conn, [_move_params(a, recorded)], shared).rowcount == 1
    return (writes.move_keeping_status.execute(conn, [_move_params(a, recorded)], shared).rowcount == 1
            or writes.move.execute(conn, [_move_params(a, recorded)], shared).rowcount == 1)


def _move_params(a: Append, recorded: Sequence[RecordedEvent]) -> dict[str, Any]:
    """The parameters of the index row's update but ``now`` (the time, given once)."""
    p = a.projection
    return {"eid": a.episode_id, "expected": a.expected_seq, "status_": p.status,
            "new_seq": recorded[-1].seq, "new_hash": recorded[-1].hash,
            "step_count_": p.step_count, "score_": p.score}


def _move_many(conn: Connection, writes: _Writes, appends: Sequence[Append],
               chains: Sequence[list[RecordedEvent]], now: dt.datetime) -> bool:
    """:func:`_move` for several distinct episodes in ONE statement (an ``executemany``) rather
    than one or two each; True if every index row was at its expected head and moved, False if
    any was not (then the caller rolls the batch back: it cannot tell which one it was).

    One form of the update serves the whole batch: the keeping form when every append says its
    episode's status stays as it is, else the form that writes it (for a row whose status stays,
    that costs SQLite an index entry's rewrite, not a statement). The rows go in episode-id order,
    so on PostgreSQL two batches lock the rows they share in one order and cannot deadlock."""
    keeping = all(a.expected_status == a.projection.status for a in appends)
    statement = writes.move_keeping_status if keeping else writes.move
    order = sorted(range(len(appends)), key=lambda i: appends[i].episode_id)
    rows = [_move_params(appends[i], chains[i]) for i in order]
    return statement.execute(conn, rows, {"now": now}).rowcount == len(rows)


class _LostRace(Exception):
    """An append of a batch found its episode moved on: the batch is rolled back and every append
    made alone (see :meth:`EventStore.append_many`)."""


class EventStore:
    def __init__(self, db: Database):
        self.db = db
        self._writes = _Writes(db.store_engine.dialect)

    def create(self, episode_id: str, task_id: str, seed: int | None, new: Sequence[Storable],
               projection: Projection, *, run_id: str | None = None,
               forked_from: str | None = None, fork_step: int | None = None) -> list[RecordedEvent]:
        """Open a new stream with its first events. :class:`Conflict` if the id is taken."""
        result = self._create_batch([Create(episode_id, task_id, seed, tuple(new), projection,
                                            run_id, forked_from, fork_step)])[0]
        if isinstance(result, Conflict):
            raise result
        return result

    def create_many(self, creates: Sequence[Create]) -> list[list[RecordedEvent] | Conflict]:
        """Open several streams in ONE transaction (the group commit of ``reset_many``). If the
        database refuses the batch (an id already taken), nothing of it is written and each stream
        is opened in a transaction of its own, so only the taken ids come back as :class:`Conflict`."""
        if len(creates) <= 1:
            return self._create_batch(creates)
        try:
            return self._create_batch(creates, raise_integrity=True)
        except IntegrityError:
            return [self._create_batch([c])[0] for c in creates]

    def _create_batch(self, creates: Sequence[Create], *,
                      raise_integrity: bool = False) -> list[list[RecordedEvent] | Conflict]:
        if not creates:
            return []
        now = utcnow()
        chains = [chain_events(c.episode_id, 0, GENESIS, c.new, now) for c in creates]
        try:
            with self.db.write() as conn:
                self._writes.create.execute(
                    conn, [_index_row(c, recorded) for c, recorded in zip(creates, chains, strict=True)],
                    {"created_at": now, "updated_at": now})
                self._writes.insert.execute(
                    conn, [row for recorded in chains for row in _event_rows(recorded)],
                    {"recorded_at": now})
        except IntegrityError:
            if raise_integrity:
                raise
            return [Conflict(f"episode id {creates[0].episode_id!r} is already in use")]
        return list(chains)

    def append(self, episode_id: str, expected_seq: int, prev_hash: str,
               new: Sequence[Storable], projection: Projection, *,
               expected_status: str | None = None) -> list[RecordedEvent]:
        """Append after ``expected_seq`` atomically, or raise :class:`Conflict` and write nothing.

        One transaction: move the episode's index row from ``expected_seq`` to the new head (a
        conditional update that touches no row if another writer moved it first), then insert the
        events (the unique (episode, seq) key stops any writer that slipped past the first check).
        ``expected_status``: as in :class:`Append`.
        """
        result = self._append_batch([Append(episode_id, expected_seq, prev_hash, tuple(new),
                                            projection, expected_status)])[0]
        if isinstance(result, Conflict):
            raise result
        return result

    def append_many(self, appends: Sequence[Append]) -> list[list[RecordedEvent] | Conflict]:
        """Several episodes' appends in ONE transaction: one commit for all of them.

        This is the group commit behind ``EnvironmentService.step_many`` (a vector of episodes
        stepped together, as RL trainers do): on SQLite the commit is the floor of a durable step.
        Each append is conditional on its own expected sequence number exactly as in
        :meth:`append`; one that lost its race comes back as a :class:`Conflict` and writes
        nothing, the others are written. The batch moves its episodes' index rows in one
        statement, which says only how many rows it moved: when an append lost its race, or the
        database refuses the batch as a whole (an integrity error), nothing of the batch is
        written and every append is made again in a transaction of its own.
        """
        if len(appends) <= 1:
            return self._append_batch(appends)
        try:
            return self._append_batch(appends, raise_integrity=True)
        except (IntegrityError, _LostRace):
            return [self._append_batch([a])[0] for a in appends]

    def _append_batch(self, appends: Sequence[Append], *,
                      raise_integrity: bool = False) -> list[list[RecordedEvent] | Conflict]:
        """The appends in one transaction. A batch of distinct episodes moves their index rows in
        one statement and raises :class:`_LostRace` (writing nothing) when one was not at its head;
        otherwise (one append, or an episode named twice: each then follows the head the one
        before it left) each moves its own row, and one that lost its race is a :class:`Conflict`."""
        if not appends:
            return []
        now = utcnow()
        chains = [chain_events(a.episode_id, a.expected_seq, a.prev_hash, a.new, now)
                  for a in appends]
        try:
            with self.db.write() as conn:
                out: list[list[RecordedEvent] | Conflict]
                if len(appends) > 1 and len({a.episode_id for a in appends}) == len(appends):
                    if not _move_many(conn, self._writes, appends, chains, now):
                        raise _LostRace
                    out = list(chains)
                else:
                    out = [recorded if _move(conn, self._writes, a, recorded, now) else _moved(a)
                           for a, recorded in zip(appends, chains, strict=True)]
                # the events of every append that moved, in ONE insert (a statement per batch,
                # not per episode: each statement costs SQLAlchemy's execution path again)
                rows = [row for r in out if not isinstance(r, Conflict) for row in _event_rows(r)]
                if rows:
                    self._writes.insert.execute(conn, rows, {"recorded_at": now})
                return out
        except IntegrityError:
            if raise_integrity:
                raise
            return [_moved(appends[0])]

    def load(self, episode_id: str, after_seq: int = 0, upto_seq: int | None = None) -> list[RecordedEvent]:
        """Events of one stream in order (optionally only those after ``after_seq``)."""
        params = {"eid": episode_id, "after": after_seq,
                  "upto": _NO_LIMIT if upto_seq is None else upto_seq}
        with self.db.read() as conn:
            return [RecordedEvent._make(row) for row in conn.execute(_LOAD, params)]

    def load_many(self, episode_ids: Sequence[str]) -> dict[str, list[RecordedEvent]]:
        """All events of several episodes in one query, grouped per episode in sequence order
        (for audits that walk the log a page of episodes at a time)."""
        out: dict[str, list[RecordedEvent]] = {eid: [] for eid in episode_ids}
        if not out:
            return out
        with self.db.read() as conn:
            for row in conn.execute(_LOAD_MANY, {"eids": list(out)}):
                recorded = RecordedEvent._make(row)
                out[recorded.episode_id].append(recorded)
        return out

    def head(self, episode_id: str) -> tuple[int, str]:
        """(last sequence number, its hash) from the index row; :class:`NotFound` if absent.

        This is the per-step freshness check: several processes may step one episode."""
        with self.db.read() as conn:
            row = conn.execute(_HEAD, {"eid": episode_id}).first()
        if row is None:
            raise NotFound(f"no episode {episode_id!r}")
        return row.last_seq, row.head_hash

    def heads(self, episode_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """:meth:`head` of several episodes in one query (absent ones are left out): the
        freshness check of a whole ``step_many`` batch."""
        ids = list(dict.fromkeys(episode_ids))
        if not ids:
            return {}
        with self.db.read() as conn:
            return {row.episode_id: (row.last_seq, row.head_hash)
                    for row in conn.execute(_HEADS, {"eids": ids})}

    def episode(self, episode_id: str) -> EpisodeRow:
        with self.db.read() as conn:
            row = conn.execute(_EPISODE, {"eid": episode_id}).first()
        if row is None:
            raise NotFound(f"no episode {episode_id!r}")
        return EpisodeRow(**row._asdict())

    def count_events(self) -> int:
        with self.db.read() as conn:
            return int(conn.execute(_COUNT_EVENTS).scalar_one())
