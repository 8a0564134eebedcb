"""The audit read model: JSON views of episodes and runs, shared by the CLI, REST and the web viewer.

Every function returns plain JSON-ready data, so ``ticketledger ... --json`` and the REST routes
print the same thing by construction. These views show grading detail (components, reasons, the
expected end state): they are for auditors, never for agents.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Protocol

from domain.ids import id_rule, is_id
from domain.state import fold
from domain.tasks.catalog import Catalog, default_catalog
from domain.tasks.spec import TaskInstance
from graders.grader import split_steps
from graders.versions import recorded_version
from service import replay
from service.environment import check_episode_id, to_domain
from service.errors import BadRequest, EpisodeNotFound, RunNotFound, check_run_id
from service.results import run_figures
from store import Database, NotFound
from store.eventstore import EpisodeRow, EventStore, RecordedEvent
from store.queries import AuditQueries, BadCursor, EpisodeFilter
from store.regrades import RegradeStore
from store.runs import RunStore


class Collector(Protocol):
    """Where a whole-log audit (``verify``, ``regrade``) puts the episodes its report lists: a
    list by default (the REST answer), or a file the command line writes them to as they come,
    since on a large log they may be every episode. The report holds the collector as it is."""

    def append(self, item: dict[str, Any], /) -> None: ...


MAX_PAGE = 500
SEQ_MAX = 2**31 - 1
"""The largest sequence number the log can store (``events.seq`` is an INTEGER column)."""


def iso(value: dt.datetime | None) -> str | None:
    """Timestamps as ISO 8601 in UTC (SQLite hands them back naive; they were written in UTC)."""
    if value is None:
        return None
    return (value if value.tzinfo else value.replace(tzinfo=dt.UTC)).isoformat()


def episode_json(row: EpisodeRow) -> dict[str, Any]:
    """An episode's summary from its index row (no events read)."""
    return {
        "episode_id": row.episode_id, "task_id": row.task_id, "seed": row.seed,
        "status": row.status, "step_count": row.step_count, "score": row.score,
        "run_id": row.run_id, "head_hash": row.head_hash, "last_seq": row.last_seq,
        "forked_from": ({"episode_id": row.forked_from, "at": row.fork_step}
                        if row.forked_from else None),
        "created_at": iso(row.created_at), "updated_at": iso(row.updated_at),
    }


def check_limit(limit: int, maximum: int = MAX_PAGE) -> int:
    if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= maximum:
        raise BadRequest(f"limit must be an integer from 1 to {maximum}")
    return limit


def _sequence_cursor(cursor: str) -> int:
    """An events page's cursor: a sequence number, as digits, that the log can hold (past it,
    SQLite and PostgreSQL refuse to compare the column with the number)."""
    digits = cursor.isascii() and cursor.isdigit() and len(cursor) <= len(str(SEQ_MAX))
    if not digits or int(cursor) > SEQ_MAX:
        raise BadRequest(f"cursor must be the next_cursor of a previous page (a sequence number "
                         f"from 0 to {SEQ_MAX})")
    return int(cursor)


def check_filter(where: EpisodeFilter) -> EpisodeFilter:
    """Filters as the audit routes, the viewer and the CLI take them: ids that follow the id rule
    (anything else matches no episode, and some of it, NUL for one, PostgreSQL cannot even
    compare), scores from 0 to 1, a known status, plain model text."""
    for name, value in (("task", where.task_id), ("run", where.run_id)):
        if value is not None and not is_id(value):
            raise BadRequest(id_rule(name, value))
    if where.model is not None and "\x00" in where.model:
        raise BadRequest("model must be text without NUL characters (a part of the run's agent name)")
    for name in ("min_score", "max_score"):
        value = getattr(where, name)
        if value is not None and not 0.0 <= value <= 1.0:
            raise BadRequest(f"{name} must be between 0 and 1")
    if where.min_score is not None and where.max_score is not None and where.min_score > where.max_score:
        raise BadRequest("min_score is above max_score: swap them")
    if where.status is not None and where.status not in ("open", "ended"):
        raise BadRequest("status must be 'open' or 'ended'")
    return where


class Auditor:
    """Read (and, for fork and regrade, append) access to the log for auditing."""

    def __init__(self, db: Database, catalog: Catalog | None = None):
        self.db = db
        self.catalog = catalog if catalog is not None else default_catalog()
        self.queries = AuditQueries(db)
        self.store = EventStore(db)
        self.runs = RunStore(db)
        self.regrades = RegradeStore(db)

    # ------------------------------------------------------------- loading
    def row(self, episode_id: str) -> EpisodeRow:
        check_episode_id(episode_id)
        try:
            return self.store.episode(episode_id)
        except NotFound:
            raise EpisodeNotFound(f"no episode {episode_id!r}; list them with GET /episodes "
                                  "or `ticketledger episodes`") from None

    def load(self, episode_id: str) -> list[RecordedEvent]:
        """All events of an episode: one query (after the index lookup that gives a clear 404)."""
        self.row(episode_id)
        return self.store.load(episode_id)

    # --------------------------------------------------------------- views
    def list_episodes(self, where: EpisodeFilter, limit: int = 50,
                      cursor: str | None = None) -> dict[str, Any]:
        check_filter(where)
        try:
            page = self.queries.episodes(where, check_limit(limit), cursor)
        except BadCursor as exc:
            raise BadRequest(str(exc)) from None
        return {"episodes": [episode_json(r) for r in page.items], "next_cursor": page.next_cursor,
                "limit": limit}

    def summary(self, episode_id: str) -> dict[str, Any]:
        out = episode_json(self.row(episode_id))
        out["regrades"] = [r.to_json() for r in self.regrades.of_episode(episode_id)]
        return out

    def show(self, episode_id: str) -> dict[str, Any]:
        """Summary, the task with its answer key, the step table, and the safety violations (each
        naming the step and event that broke the rule); for an episode ended from outside a step,
        its ``closing`` (``service.replay.closing_json``), which is no row of the step table."""
        recorded = self.load(episode_id)
        started = recorded[0].data
        task = TaskInstance.model_validate(started["task"])
        events = [to_domain(r) for r in recorded]
        last = fold(events)
        log = split_steps(events)
        return {
            "episode": self.summary(episode_id),
            "task": task_json(task),
            "grader_version": recorded_version(events),
            "steps": replay.timeline(recorded),
            "violations": [replay.violation_json(v) for v in replay.episode_violations(last)],
            **({"closing": replay.closing_json(log, recorded)} if log.closing else {}),
        }

    def events(self, episode_id: str, limit: int = 100, cursor: str | None = None) -> dict[str, Any]:
        """A page of raw events; the cursor is the last sequence number seen."""
        self.row(episode_id)
        after = _sequence_cursor(cursor) if cursor else 0
        rows = self.queries.event_page(episode_id, after, check_limit(limit) + 1)
        more = len(rows) > limit
        rows = rows[:limit]
        return {"episode_id": episode_id, "events": [event_json(r) for r in rows],
                "next_cursor": str(rows[-1].seq) if more else None, "limit": limit}

    def replay(self, episode_id: str) -> dict[str, Any]:
        return replay.replay(self.load(episode_id), self.catalog).to_json()

    def state(self, episode_id: str, step: int | None = None) -> dict[str, Any]:
        """The folded state after ``step`` (default: the latest), with the task's expected end state."""
        recorded = self.load(episode_id)
        last = fold(to_domain(r) for r in recorded)
        if step is None:
            step = last.step_count
        try:
            state = replay.state_at(recorded, step)
        except ValueError as exc:
            raise BadRequest(f"step {step} is out of range: {exc}") from None
        assert state.task is not None
        return {"episode_id": episode_id, "step": step, "steps": last.step_count,
                "state": replay.public_fields(state),
                "expected": state.task.expected.model_dump(mode="json"),
                "violations": [replay.violation_json(v) for v in replay.episode_violations(state)]}

    def diff(self, a: str, b: str) -> dict[str, Any]:
        out = replay.diff(self.load(a), self.load(b))
        return {"episode_a": a, "episode_b": b, **out}

    def list_runs(self, limit: int = 50, cursor: str | None = None) -> dict[str, Any]:
        try:
            rows, next_cursor = self.queries.runs(check_limit(limit), cursor)
        except BadCursor as exc:
            raise BadRequest(str(exc)) from None
        counts = self.queries.run_counts([r.run_id for r in rows])
        out = []
        for r in rows:
            item = r.to_json()
            item.update(counts.get(r.run_id, {"episodes": 0, "mean_score": None}))
            out.append(item)
        return {"runs": out, "next_cursor": next_cursor, "limit": limit}

    def run(self, run_id: str, limit: int = MAX_PAGE) -> dict[str, Any]:
        """One run with its per-task score table (computed from its episodes), its figures with
        their intervals, flip rates and noise floor (``service.results``), and first episodes."""
        check_run_id(run_id)
        try:
            run = self.runs.get(run_id)
        except NotFound:
            raise RunNotFound(f"no run {run_id!r}; list them with GET /runs") from None
        page = self.queries.episodes(EpisodeFilter(run_id=run_id), check_limit(limit))
        out = run.to_json()
        out["tasks"] = self.queries.task_table(run_id)
        out["figures"] = run_figures(self, run_id)
        out["episodes"] = [episode_json(r) for r in page.items]
        out["episodes_next_cursor"] = page.next_cursor
        return out


def task_json(task: TaskInstance) -> dict[str, Any]:
    return {"task_id": task.task_id, "title": task.title, "difficulty": task.difficulty.value,
            "seed": task.seed, "case": task.case, "max_steps": task.max_steps,
            "success_threshold": task.success_threshold,
            "expected": task.expected.model_dump(mode="json")}


def event_json(r: RecordedEvent) -> dict[str, Any]:
    return {"seq": r.seq, "type": r.type, "version": r.version, "data": r.data,
            "prev_hash": r.prev_hash, "hash": r.hash, "recorded_at": iso(r.recorded_at)}
