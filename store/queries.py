"""Read-side queries for auditing: filtered episode listings, event pages, per-run score tables.

Every listing is keyset-paginated (``WHERE (created_at, episode_id) < cursor ORDER BY ... LIMIT``) on
indexed columns, so a page costs the same on a log of a thousand episodes or ten million; there is
no ``OFFSET``. Batch readers load a page of episodes' events in one query, never one per event.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, case, func, or_, select, tuple_

from store.database import Database
from store.eventstore import RECORDED_EVENTS, EpisodeRow, EventStore, RecordedEvent
from store.runs import RunRow
from store.runs import _row as _run
from store.schema import episodes, events, runs


class BadCursor(ValueError):
    """A pagination cursor that this code did not produce (or that was cut short)."""


@dataclass(frozen=True)
class EpisodeFilter:
    """What to list. ``model`` matches a substring of the run's agent (which names model or policy)."""

    task_id: str | None = None
    run_id: str | None = None
    status: str | None = None
    min_score: float | None = None
    max_score: float | None = None
    model: str | None = None

    def apply(self, query: Select[Any]) -> Select[Any]:
        if self.task_id is not None:
            query = query.where(episodes.c.task_id == self.task_id)
        if self.run_id is not None:
            query = query.where(episodes.c.run_id == self.run_id)
        if self.status is not None:
            query = query.where(episodes.c.status == self.status)
        if self.min_score is not None:
            query = query.where(episodes.c.score >= self.min_score)
        if self.max_score is not None:
            query = query.where(episodes.c.score <= self.max_score)
        if self.model:
            matching = select(runs.c.run_id).where(runs.c.agent.contains(self.model, autoescape=True))
            query = query.where(episodes.c.run_id.in_(matching))
        return query


@dataclass(frozen=True)
class Page:
    items: list[EpisodeRow]
    next_cursor: str | None


def encode_cursor(created_at: dt.datetime, episode_id: str) -> str:
    raw = json.dumps([created_at.isoformat(), episode_id], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[dt.datetime, str]:
    """The (created_at, episode_id) a cursor stands for; :class:`BadCursor` if it is not one of ours."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        created, key = json.loads(base64.urlsafe_b64decode(padded.encode()))
        if not isinstance(key, str) or "\x00" in key:  # ours hold an id; PostgreSQL text has no NUL
            raise ValueError(f"{key!r} is not an id")
        return dt.datetime.fromisoformat(created), key
    except (ValueError, TypeError, RecursionError) as exc:  # nested past the parser's depth too
        raise BadCursor(f"cursor {cursor[:40]!r} is not valid: pass back the next_cursor of a "
                        "previous page unchanged") from exc


def _episode(row: Any) -> EpisodeRow:
    return EpisodeRow(**row._asdict())


class AuditQueries:
    """Read-only queries over the episode index and the event log."""

    def __init__(self, db: Database):
        self.db = db

    def episodes(self, where: EpisodeFilter, limit: int, cursor: str | None = None) -> Page:
        """Newest first; ``next_cursor`` is None on the last page."""
        order = (episodes.c.created_at.desc(), episodes.c.episode_id.desc())
        query = where.apply(select(episodes)).order_by(*order).limit(limit + 1)
        if cursor:
            created, episode_id = decode_cursor(cursor)
            query = query.where(tuple_(episodes.c.created_at, episodes.c.episode_id)
                                < tuple_(created, episode_id))
        with self.db.read() as conn:
            rows = [_episode(r) for r in conn.execute(query).all()]
        more = len(rows) > limit
        rows = rows[:limit]
        last = rows[-1] if more else None
        return Page(rows, encode_cursor(last.created_at, last.episode_id) if last else None)

    def iter_episodes(self, where: EpisodeFilter, batch: int = 200) -> Iterator[list[EpisodeRow]]:
        """Every matching episode, a page at a time (for verify, regrade and export)."""
        cursor: str | None = None
        while True:
            page = self.episodes(where, batch, cursor)
            if page.items:
                yield page.items
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def events_of(self, episode_ids: Sequence[str]) -> dict[str, list[RecordedEvent]]:
        """All events of several episodes in one query, grouped per episode in sequence order."""
        return EventStore(self.db).load_many(episode_ids)

    def iter_with_events(self, where: EpisodeFilter,
                         batch: int = 100) -> Iterator[tuple[EpisodeRow, list[RecordedEvent]]]:
        """Each matching episode with its events: one events query per page of episodes."""
        for rows in self.iter_episodes(where, batch):
            loaded = self.events_of([r.episode_id for r in rows])
            for row in rows:
                yield row, loaded[row.episode_id]

    def unindexed(self, run_id: str | None = None) -> list[tuple[str, str]]:
        """``(episode_id, first event's data)`` of the log's episodes the index does not list:
        those without an index row and, with ``run_id``, those whose first event names that run
        while their row names another or none (matched as text here: the caller confirms it
        from the parsed event). Scans the episodes' first events; ``verify`` reads the whole
        selection anyway."""
        joined = events.outerjoin(episodes, events.c.episode_id == episodes.c.episode_id)
        missing = episodes.c.episode_id.is_(None)
        query = select(events.c.episode_id, events.c.data).select_from(joined).where(events.c.seq == 1)
        if run_id is None:
            query = query.where(missing)
        else:
            named = events.c.data.contains(f'"run_id":{json.dumps(run_id)}', autoescape=True)
            query = query.where(named, or_(missing, episodes.c.run_id.is_(None),
                                           episodes.c.run_id != run_id))
        with self.db.read() as conn:
            return [(r.episode_id, r.data) for r in conn.execute(query.order_by(events.c.episode_id))]

    def count(self, where: EpisodeFilter) -> int:
        query = where.apply(select(func.count()).select_from(episodes))
        with self.db.read() as conn:
            return int(conn.execute(query).scalar_one())

    def event_page(self, episode_id: str, after_seq: int, limit: int) -> list[RecordedEvent]:
        """Up to ``limit`` events after ``after_seq`` (the unique (episode, seq) index serves it)."""
        query = (RECORDED_EVENTS.where(events.c.episode_id == episode_id, events.c.seq > after_seq)
                 .order_by(events.c.seq).limit(limit))
        with self.db.read() as conn:
            return [RecordedEvent._make(r) for r in conn.execute(query).all()]

    def task_table(self, run_id: str) -> list[dict[str, Any]]:
        """Per-task score figures of one run's episodes, computed by the database in one query."""
        ended = func.sum(case((episodes.c.status == "ended", 1), else_=0))
        query = (select(episodes.c.task_id, func.count().label("episodes"), ended.label("ended"),
                        func.avg(episodes.c.score).label("mean_score"),
                        func.min(episodes.c.score).label("min_score"),
                        func.max(episodes.c.score).label("max_score"),
                        func.sum(episodes.c.step_count).label("steps"))
                 .where(episodes.c.run_id == run_id)
                 .group_by(episodes.c.task_id).order_by(episodes.c.task_id))
        with self.db.read() as conn:
            return [{"task_id": r.task_id, "episodes": int(r.episodes), "ended": int(r.ended or 0),
                     "mean_score": round(float(r.mean_score), 4), "min_score": float(r.min_score),
                     "max_score": float(r.max_score), "steps": int(r.steps or 0)}
                    for r in conn.execute(query).all()]

    def run_counts(self, run_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Episode count and mean score of several runs in one query."""
        if not run_ids:
            return {}
        query = (select(episodes.c.run_id, func.count().label("n"),
                        func.avg(episodes.c.score).label("mean"))
                 .where(episodes.c.run_id.in_(list(run_ids))).group_by(episodes.c.run_id))
        with self.db.read() as conn:
            return {r.run_id: {"episodes": int(r.n), "mean_score": round(float(r.mean), 4)}
                    for r in conn.execute(query).all()}

    def runs(self, limit: int, cursor: str | None = None) -> tuple[list[RunRow], str | None]:
        """Runs newest first, keyset-paginated on (started_at, run_id)."""
        query = (select(runs).order_by(runs.c.started_at.desc(), runs.c.run_id.desc())
                 .limit(limit + 1))
        if cursor:
            started, run_id = decode_cursor(cursor)
            query = query.where(tuple_(runs.c.started_at, runs.c.run_id) < tuple_(started, run_id))
        with self.db.read() as conn:
            rows = conn.execute(query).all()
        more = len(rows) > limit
        rows = rows[:limit]
        last = rows[-1] if more else None
        return [_run(r) for r in rows], encode_cursor(last.started_at, last.run_id) if last else None
