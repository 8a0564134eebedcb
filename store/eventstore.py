"""The event store: append-only streams, one per episode, with optimistic concurrency.

A step's events are appended in one transaction together with the episode's index row (an inline
projection: status, step count, score and chain head). The append states the sequence number it
expects to follow; if another writer got there first, the conditional index update touches no row
or the unique (episode, seq) key fires, the transaction rolls back, and :class:`Conflict` is raised.
Nothing of a failed append is ever visible.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from sqlalchemy import func, select

from store.chain import GENESIS, canonical_json, link
from store.codec import parse_json
from store.database import Database
from store.errors import Conflict, NotFound
from store.schema import episodes, events


class Storable(Protocol):
    """What :meth:`EventStore.append` takes: anything with a type, schema version and payload
    (:class:`NewEvent`, or the domain's own events, passed as they are: no copy per event)."""

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
    """An event as stored: its position in the stream, chain link and timestamp.

    A named tuple, not a frozen dataclass: one is built per event written and per event read, and
    a frozen dataclass's ``__init__`` cost four times as much.
    """

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
        return parse_json(self.data_text)


class Projection(NamedTuple):
    """The episode index row's derived fields after an append."""

    status: str
    step_count: int
    score: float


class Append(NamedTuple):
    """One episode's part of :meth:`EventStore.append_many`: its events after ``expected_seq``.

    Projection, Append and Create are named tuples for the reason :class:`RecordedEvent` is: one of
    each is built per step or reset."""

    episode_id: str
    expected_seq: int
    prev_hash: str
    new: Sequence[Storable]
    projection: Projection


class Create(NamedTuple):
    """One new stream of :meth:`EventStore.create_many`: the episode's index row and first events."""

    episode_id: str
    task_id: str
    seed: int | None
    new: Sequence[Storable]
    projection: Projection
    run_id: str | None = None
    forked_from: str | None = None
    fork_step: int | None = None


def _moved(a: Append) -> Conflict:
    return Conflict(f"episode {a.episode_id} moved on past event {a.expected_seq} (another step was "
                    "recorded first); fetch the state and retry")


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


def chain_events(episode_id: str, after_seq: int, prev_hash: str, new: Sequence[Storable],
                 now: dt.datetime) -> list[RecordedEvent]:
    """``new`` as they will be stored after ``(after_seq, prev_hash)``: canonical JSON text and
    chain link each (what every append computes before its SQL; ``bench/parts.py`` times it)."""
    out: list[RecordedEvent] = []
    for offset, item in enumerate(new, start=1):
        seq = after_seq + offset
        text = canonical_json(item.data)
        digest = link(prev_hash, seq, item.type, item.version, text)
        out.append(RecordedEvent(episode_id, seq, item.type, item.version, text, prev_hash,
                                 digest, now))
        prev_hash = digest
    return out


# The step path's SQL, written once: ``?`` placeholders, turned into ``%s`` for psycopg.
_HEAD = "SELECT last_seq, head_hash FROM episodes WHERE episode_id = ?"
_CREATE = ("INSERT INTO episodes (episode_id, task_id, seed, run_id, forked_from, fork_step, "
           "created_at, status, step_count, score, last_seq, head_hash, updated_at) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
# Moving the head: most steps leave the status as it is, and naming ``status`` in SET makes the
# database rewrite its index entry (ix_episodes_status_created) even for an equal value: one more
# page per commit. So the common case matches the status in WHERE instead, and only when that
# touches no row does the full form run (the status changes, or another writer moved the head).
_MOVE_SAME_STATUS = ("UPDATE episodes SET last_seq = ?, head_hash = ?, step_count = ?, score = ?, "
                     "updated_at = ? WHERE episode_id = ? AND last_seq = ? AND status = ?")
_MOVE = ("UPDATE episodes SET last_seq = ?, head_hash = ?, status = ?, step_count = ?, score = ?, "
         "updated_at = ? WHERE episode_id = ? AND last_seq = ?")
_INSERT = ("INSERT INTO events (episode_id, seq, type, version, data, prev_hash, hash, recorded_at) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
_LOAD = ("SELECT position, episode_id, seq, type, version, data, prev_hash, hash, recorded_at "
         "FROM events WHERE episode_id = ? AND seq > ? AND seq <= ? ORDER BY seq")
_NO_LIMIT = 2**31 - 1

# PostgreSQL: every statement is a network round trip (and BEGIN/COMMIT two more), so create and
# append are each ONE statement in autocommit: a data-modifying CTE moves (or inserts) the index
# row and the events are inserted from arrays only if it did. One statement is one transaction:
# all of it is written or none. A lost race touches no index row, so no event is inserted
# (rowcount 0), or hits the unique (episode, seq) key (IntegrityError): Conflict either way.
_EVENT_ROWS = ("SELECT {source}.episode_id, v.seq, v.type, v.version, v.data, v.prev_hash, "
               "v.hash, %s FROM {source}, unnest(%s::int[], %s::text[], %s::smallint[], "
               "%s::text[], %s::text[], %s::text[]) AS v(seq, type, version, data, prev_hash, hash) "
               "ORDER BY v.seq")
_EVENT_COLUMNS = "episode_id, seq, type, version, data, prev_hash, hash, recorded_at"
_PG_APPEND = (
    "WITH moved AS (UPDATE episodes SET last_seq = %s, head_hash = %s, status = %s, "
    "step_count = %s, score = %s, updated_at = %s WHERE episode_id = %s AND last_seq = %s "
    f"RETURNING episode_id) INSERT INTO events ({_EVENT_COLUMNS}) "
    + _EVENT_ROWS.format(source="moved"))
_PG_CREATE = (
    "WITH opened AS (INSERT INTO episodes (episode_id, task_id, seed, run_id, forked_from, "
    "fork_step, created_at, status, step_count, score, last_seq, head_hash, updated_at) "
    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) RETURNING episode_id) "
    f"INSERT INTO events ({_EVENT_COLUMNS}) " + _EVENT_ROWS.format(source="opened"))


def _arrays(recorded: Sequence[RecordedEvent]) -> tuple[list[Any], ...]:
    """The events as column arrays, in ``_EVENT_ROWS``' order (for PostgreSQL's unnest)."""
    return ([r.seq for r in recorded], [r.type for r in recorded], [r.version for r in recorded],
            [r.data_text for r in recorded], [r.prev_hash for r in recorded],
            [r.hash for r in recorded])
_COLUMNS = "position, episode_id, seq, type, version, data, prev_hash, hash, recorded_at"
_HEADS = "SELECT episode_id, last_seq, head_hash FROM episodes WHERE episode_id IN ({marks})"
_HEADS_PG = "SELECT episode_id, last_seq, head_hash FROM episodes WHERE episode_id = ANY(%s)"
_LOAD_MANY = f"SELECT {_COLUMNS} FROM events WHERE episode_id IN ({{marks}}) ORDER BY episode_id, seq"
_LOAD_MANY_PG = f"SELECT {_COLUMNS} FROM events WHERE episode_id = ANY(%s) ORDER BY episode_id, seq"


class _Sql:
    """The statements in one dialect's placeholder style, and how it stores timestamps."""

    def __init__(self, sqlite: bool):
        def fix(sql: str) -> str:
            return sql if sqlite else sql.replace("?", "%s")

        self.head, self.create, self.move = fix(_HEAD), fix(_CREATE), fix(_MOVE)
        self.move_same_status = fix(_MOVE_SAME_STATUS)
        self.insert, self.load = fix(_INSERT), fix(_LOAD)
        # SQLite has no timestamp type: store the text SQLAlchemy's DateTime stores (naive UTC)
        # and read it back the same way, so Core queries and this path see identical values.
        self.stamp = _sqlite_stamp if sqlite else _same
        self.unstamp = _sqlite_unstamp if sqlite else _same


def _same(value: Any) -> Any:
    return value


def _sqlite_stamp(value: dt.datetime) -> str:
    return (f"{value.year:04d}-{value.month:02d}-{value.day:02d} {value.hour:02d}:"
            f"{value.minute:02d}:{value.second:02d}.{value.microsecond:06d}")


def _sqlite_unstamp(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


def _rows(recorded: Sequence[RecordedEvent], at: Any) -> list[tuple[Any, ...]]:
    """Insert parameters; ``at`` is the stored form of the batch's one timestamp."""
    return [(r.episode_id, r.seq, r.type, r.version, r.data_text, r.prev_hash, r.hash, at)
            for r in recorded]


class EventStore:
    def __init__(self, db: Database):
        self.db = db
        self._sql = _Sql(db.sqlite)

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
        except self.db.integrity_error:
            return [self._create_batch([c])[0] for c in creates]

    def _create_batch(self, creates: Sequence[Create], *,
                      raise_integrity: bool = False) -> list[list[RecordedEvent] | Conflict]:
        now = utcnow()
        stamp = self._sql.stamp(now)
        chains = [chain_events(c.episode_id, 0, GENESIS, c.new, now) for c in creates]
        rows = [(c.episode_id, c.task_id, c.seed, c.run_id, c.forked_from, c.fork_step, stamp,
                 c.projection.status, c.projection.step_count, c.projection.score, r[-1].seq,
                 r[-1].hash, stamp) for c, r in zip(creates, chains, strict=True)]
        try:
            if self.db.sqlite:
                with self.db.hot_write() as cur:
                    cur.executemany(self._sql.create, rows)
                    cur.executemany(self._sql.insert,
                                    [row for recorded in chains for row in _rows(recorded, stamp)])
            else:
                with self.db.hot() as conn, (conn.transaction() if len(creates) > 1 else nullcontext()):
                    for index, recorded in zip(rows, chains, strict=True):
                        conn.execute(_PG_CREATE, (*index, stamp, *_arrays(recorded)))
        except self.db.integrity_error:
            if raise_integrity:
                raise
            return [Conflict(f"episode id {creates[0].episode_id!r} is already in use")]
        return list(chains)

    def append(self, episode_id: str, expected_seq: int, prev_hash: str,
               new: Sequence[Storable], projection: Projection) -> list[RecordedEvent]:
        """Append after ``expected_seq`` atomically, or raise :class:`Conflict` and write nothing.

        One transaction: move the episode's index row from ``expected_seq`` to the new head (a
        conditional update that touches no row if another writer moved it first), then insert the
        events (the unique (episode, seq) key stops any writer that slipped past the first check).
        """
        result = self._append_batch([Append(episode_id, expected_seq, prev_hash, tuple(new),
                                            projection)])[0]
        if isinstance(result, Conflict):
            raise result
        return result

    def append_many(self, appends: Sequence[Append]) -> list[list[RecordedEvent] | Conflict]:
        """Several episodes' appends in ONE transaction: one commit for all of them.

        This is the group commit behind ``EnvironmentService.step_many`` (a vector of episodes
        stepped together, as RL trainers do): on SQLite the commit, not the Python, is the floor
        of a durable step. Each append is conditional on its own expected sequence number exactly
        as in :meth:`append`; one that lost its race comes back as a :class:`Conflict` and writes
        nothing, the others are written. If the database refuses the batch as a whole (an integrity
        error), nothing of it is written and every append is retried in a transaction of its own.
        """
        if len(appends) <= 1:
            return self._append_batch(appends)
        try:
            return self._append_batch(appends, raise_integrity=True)
        except self.db.integrity_error:
            return [self._append_batch([a])[0] for a in appends]

    def _append_batch(self, appends: Sequence[Append], *,
                      raise_integrity: bool = False) -> list[list[RecordedEvent] | Conflict]:
        now = utcnow()
        stamp = self._sql.stamp(now)
        chains = [chain_events(a.episode_id, a.expected_seq, a.prev_hash, a.new, now)
                  for a in appends]
        results: list[list[RecordedEvent] | Conflict] = []
        try:
            if self.db.sqlite:
                with self.db.hot_write() as cur:
                    results = [recorded if self._append_sqlite(cur, a, recorded, stamp) else _moved(a)
                               for a, recorded in zip(appends, chains, strict=True)]
            else:
                with self.db.hot() as conn, (conn.transaction() if len(appends) > 1 else nullcontext()):
                    results = [recorded if self._append_pg(conn, a, recorded, stamp) else _moved(a)
                               for a, recorded in zip(appends, chains, strict=True)]
        except self.db.integrity_error:
            if raise_integrity:
                raise
            return [_moved(appends[0])]
        return results

    def _append_sqlite(self, cur: Any, a: Append, recorded: list[RecordedEvent], stamp: Any) -> bool:
        """Move the index row and insert the events; False (nothing written) if the row moved."""
        sql, last, p = self._sql, recorded[-1], a.projection
        cur.execute(sql.move_same_status, (last.seq, last.hash, p.step_count, p.score, stamp,
                                           a.episode_id, a.expected_seq, p.status))
        if cur.rowcount != 1:
            cur.execute(sql.move, (last.seq, last.hash, p.status, p.step_count, p.score, stamp,
                                   a.episode_id, a.expected_seq))
            if cur.rowcount != 1:
                return False
        cur.executemany(sql.insert, _rows(recorded, stamp))
        return True

    @staticmethod
    def _append_pg(conn: Any, a: Append, recorded: list[RecordedEvent], stamp: Any) -> bool:
        last, p = recorded[-1], a.projection
        moved = conn.execute(_PG_APPEND, (last.seq, last.hash, p.status, p.step_count, p.score,
                                          stamp, a.episode_id, a.expected_seq, stamp,
                                          *_arrays(recorded)))
        return bool(moved.rowcount == len(recorded))

    def load(self, episode_id: str, after_seq: int = 0, upto_seq: int | None = None) -> list[RecordedEvent]:
        """Events of one stream in order (optionally only those after ``after_seq``)."""
        sql = self._sql
        with self.db.hot() as conn:
            cur = conn.cursor()
            cur.execute(sql.load, (episode_id, after_seq, _NO_LIMIT if upto_seq is None else upto_seq))
            rows = cur.fetchall()
            cur.close()
        unstamp = sql.unstamp
        return [RecordedEvent(eid, seq, type_, version, data, prev, digest, unstamp(at), position)
                for position, eid, seq, type_, version, data, prev, digest, at in rows]

    def load_many(self, episode_ids: Sequence[str]) -> dict[str, list[RecordedEvent]]:
        """All events of several episodes in one query, grouped per episode in sequence order
        (for audits that walk the log a page of episodes at a time)."""
        out: dict[str, list[RecordedEvent]] = {eid: [] for eid in episode_ids}
        if not out:
            return out
        ids = list(out)
        if self.db.sqlite:
            sql, params = _LOAD_MANY.format(marks=", ".join("?" * len(ids))), ids
        else:
            sql, params = _LOAD_MANY_PG, [ids]
        with self.db.hot() as conn:
            cur = conn.cursor()
            cur.execute(sql, params)
            rows = cur.fetchall()
            cur.close()
        unstamp = self._sql.unstamp
        for position, eid, seq, type_, version, data, prev, digest, at in rows:
            out[eid].append(RecordedEvent(eid, seq, type_, version, data, prev, digest, unstamp(at),
                                          position))
        return out

    def head(self, episode_id: str) -> tuple[int, str]:
        """(last sequence number, its hash) from the index row; :class:`NotFound` if absent.

        This is the per-step freshness check (several processes may step one episode), so it is
        one primary-key read on a pooled connection with pre-built SQL.
        """
        with self.db.hot() as conn:
            cur = conn.cursor()
            cur.execute(self._sql.head, (episode_id,))
            row = cur.fetchone()
            cur.close()
        if row is None:
            raise NotFound(f"no episode {episode_id!r}")
        return row[0], row[1]

    def heads(self, episode_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """:meth:`head` of several episodes in one query (absent ones are left out): the
        freshness check of a whole ``step_many`` batch."""
        ids = list(dict.fromkeys(episode_ids))
        if not ids:
            return {}
        if self.db.sqlite:
            sql, params = _HEADS.format(marks=", ".join("?" * len(ids))), ids
        else:
            sql, params = _HEADS_PG, [ids]
        with self.db.hot() as conn:
            cur = conn.cursor()
            cur.execute(sql, params)
            rows = cur.fetchall()
            cur.close()
        return {eid: (seq, digest) for eid, seq, digest in rows}

    def episode(self, episode_id: str) -> EpisodeRow:
        with self.db.read() as conn:
            row = conn.execute(select(episodes).where(episodes.c.episode_id == episode_id)).first()
        if row is None:
            raise NotFound(f"no episode {episode_id!r}")
        return EpisodeRow(**row._asdict())

    def count_events(self) -> int:
        with self.db.read() as conn:
            return int(conn.execute(select(func.count()).select_from(events)).scalar_one())
