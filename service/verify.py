"""Verification of the whole log, and tamper evidence beyond the database (chain heads).

``verify`` replays every selected episode (chain, re-grade, catalog; ``service.replay.replay``) and
also checks that the episode index row agrees with the log it summarises, column by column
(:func:`index_mismatches`): the index is what ``/runs``, the run tables and every listing read, so an
edited row would change a run's results while the log still checks out. An episode the log holds
and the index does not list (its row deleted, or, under ``--run``, moved to another run) is named
too (:func:`_unlisted`).

A hash chain kept only in the database can be recomputed by whoever can write the database, so heads
are also kept elsewhere. The *heads file* is plain text, one episode per line::

    # ticketledger heads v1
    <episode_id> <seq> <head_hash>

``seq`` is the sequence number of the event whose chain hash is ``head_hash`` (the episode's last event
when the file was written). ``#`` lines and blank lines are ignored; JSON lines
``{"episode_id": ..., "seq": ..., "head_hash": ...}`` are read too (``seq`` optional in both forms:
without it the head must be the episode's current last event). ``ticketledger heads`` writes it.
Checking walks each episode's chain from the start and compares the hash at ``seq``: since every
hash commits to all earlier events, any change to them, or a re-chained copy, shows up as a mismatch.
An episode that went on after the file was written still checks out (its prefix is unchanged).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from domain.state import EpisodeState, fold
from service import replay
from service.audit_views import Auditor, Collector, check_filter
from service.environment import to_domain
from service.errors import BadRequest
from store.codec import parse_json
from store.errors import NotFound
from store.eventstore import EpisodeRow, RecordedEvent
from store.queries import EpisodeFilter

HEADS_HEADER = "# ticketledger heads v1: <episode_id> <seq> <head_hash>"
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Head:
    episode_id: str
    seq: int | None
    head_hash: str

    def line(self) -> str:
        return f"{self.episode_id} {self.seq} {self.head_hash}"

    def to_json(self) -> dict[str, Any]:
        return {"episode_id": self.episode_id, "seq": self.seq, "head_hash": self.head_hash}


def log_index_row(recorded: list[RecordedEvent], state: EpisodeState | None = None) -> dict[str, Any]:
    """The episode index row as the log determines it: what the store writes with each append
    (``store.eventstore``), recomputed by folding the events (``state``: what they fold to, when
    the caller has it already). Raises ValueError, KeyError or TypeError on a log that cannot be
    read (replay names why)."""
    if state is None:
        state = fold(to_domain(r) for r in recorded)
    task = state.task
    if task is None:
        raise ValueError("the log has no EpisodeStarted")
    first, last = recorded[0], recorded[-1]
    fork = state.forked_from
    return {"task_id": task.task_id, "seed": first.data.get("seed"), "run_id": state.run_id,
            "forked_from": fork.episode_id if fork else None, "fork_step": fork.at if fork else None,
            "created_at": first.recorded_at, "status": "ended" if state.done else "open",
            "step_count": state.step_count, "score": state.score, "last_seq": last.seq,
            "head_hash": last.hash, "updated_at": last.recorded_at}


def _replayed_state(report: replay.ReplayReport | None) -> EpisodeState | None:
    """The state the log folds to, from what its replay read: the state grading it left, or its
    events folded; None when the replay could not read them. Raises as :func:`log_index_row`."""
    if report is None:
        return None
    if report.log_state is not None:
        return report.log_state
    return None if report.domain_events is None else fold(report.domain_events)


INDEX_COLUMNS = (
    "task_id", "seed", "run_id", "forked_from", "fork_step", "created_at", "status", "step_count",
    "score", "last_seq", "head_hash", "updated_at")
"""The index columns the log determines, each checked by :func:`index_mismatches`. Not checked:
``episode_id`` (the key both sides are found by) and ``chain_format``, which says how to check the
chain: a changed one fails the chain check itself."""


def _json_value(value: Any) -> Any:
    return value.isoformat() if isinstance(value, dt.datetime) else value


def index_mismatches(row: EpisodeRow, logged: dict[str, Any]) -> list[dict[str, Any]]:
    """Every column of ``row`` that differs from the log's value: ``{column, index, log}``."""
    return [{"column": column, "index": _json_value(getattr(row, column)),
             "log": _json_value(logged[column])}
            for column in INDEX_COLUMNS if getattr(row, column) != logged[column]]


def _index_problem(mismatch: dict[str, Any]) -> dict[str, Any]:
    return {"step": None, "seq": None, "kind": "index", "column": mismatch["column"],
            "message": f"the episode index says {mismatch['column']} = {mismatch['index']!r}, "
                       f"the log says {mismatch['log']!r}",
            "recorded": mismatch["index"], "recomputed": mismatch["log"]}


def verify_episode(row: EpisodeRow, recorded: list[RecordedEvent], auditor: Auditor) -> dict[str, Any]:
    """Replay one episode and check its index row; every problem is counted, the first named, and
    every index column that disagrees with the log is listed (``index``)."""
    problems: list[dict[str, Any]] = []
    mismatches: list[dict[str, Any]] = []
    report: replay.ReplayReport | None = None
    try:
        report = replay.replay(recorded, auditor.catalog, steps=False)
        problems += [d.to_json() for d in report.divergences]
    except (ValueError, KeyError) as exc:
        problems.append({"step": None, "seq": 1, "kind": "log", "message": f"cannot replay: {exc}"})
    if recorded:
        try:
            mismatches = index_mismatches(row, log_index_row(recorded, _replayed_state(report)))
        except (ValueError, KeyError, TypeError):  # replay has named why the log cannot be read
            last = {"last_seq": recorded[-1].seq, "head_hash": recorded[-1].hash}
            mismatches = [{"column": c, "index": getattr(row, c), "log": v} for c, v in last.items()
                          if getattr(row, c) != v]
        problems += [_index_problem(m) for m in mismatches]
    return {"episode_id": row.episode_id, "task_id": row.task_id, "consistent": not problems,
            "first_divergence": problems[0] if problems else None, "problems": len(problems),
            "index": mismatches}


def verify(auditor: Auditor, where: EpisodeFilter, progress: Progress | None = None, *,
           jobs: int = 1, failures: Collector | None = None) -> dict[str, Any]:
    """Verify every matching episode; the summary lists those that failed with their first problem.

    ``jobs`` > 1 replays pages of episodes in that many worker processes (each opens the database
    itself): replay is CPU-bound and episodes are independent, so a big log verifies about ``jobs``
    times faster. The summary is the same, in the same order, whatever ``jobs`` is.

    Episodes are read a page at a time and only failures are kept, in a list or in the collector
    given as ``failures`` (the command line writes them to a file as they come: a grader that now
    scores differently fails every episode of a log).
    """
    check_filter(where)
    if jobs < 1:
        raise BadRequest("jobs must be at least 1")
    total = auditor.queries.count(where)
    checked = failed = 0
    found: Collector = [] if failures is None else failures
    pages = auditor.queries.iter_episodes(where, PAGE)
    inline = jobs == 1 or auditor.db.in_memory or total <= PAGE  # workers would cost more than they save
    results = (_verify_page(auditor, rows) for rows in pages) if inline \
        else _in_workers(auditor, pages, jobs)
    for page in results:
        for result in page:
            checked += 1
            if not result["consistent"]:
                failed += 1
                found.append(result)
        if progress:
            progress(checked, total)
    for result in _unlisted(auditor, where):
        checked += 1
        failed += 1
        found.append(result)
    return {"episodes": checked, "consistent": checked - failed, "inconsistent": failed,
            "ok": not failed, "failures": found, "filters": {"run_id": where.run_id}}


PAGE = 100
"""Episodes per events query, and per unit of work handed to a worker process."""


def _unlisted(auditor: Auditor, where: EpisodeFilter) -> Iterator[dict[str, Any]]:
    """Episodes of the log that the index does not list where ``where`` would find them: no index
    row at all (named with the log's values), or, with a run filter, a row that names another run
    than the log does (verified in full, so the ``run_id`` column is named). Only ``task_id`` and
    ``run_id`` of a filter are read from the log; a missing row is named under any other filter."""
    for episode_id, opening in auditor.queries.unindexed(where.run_id):
        try:
            started = parse_json(opening)
            task_id, run_id = str(started["task_id"]), started.get("run_id")
        except (ValueError, KeyError, TypeError):
            task_id, run_id = "", None
        if (where.task_id is not None and task_id != where.task_id) or \
                (where.run_id is not None and run_id != where.run_id):
            continue
        try:
            row = auditor.store.episode(episode_id)
        except NotFound:
            missing = {"column": "episode_id", "index": None, "log": episode_id}
            problem = {"step": None, "seq": None, "kind": "index", "column": "episode_id",
                       "message": "the log holds this episode but the episode index has no row "
                                  "for it", "recorded": None, "recomputed": episode_id}
            yield {"episode_id": episode_id, "task_id": task_id, "consistent": False,
                   "first_divergence": problem, "problems": 1, "index": [missing]}
            continue
        yield verify_episode(row, auditor.queries.events_of([row.episode_id])[row.episode_id],
                             auditor)


def _verify_page(auditor: Auditor, rows: list[EpisodeRow]) -> list[dict[str, Any]]:
    loaded = auditor.queries.events_of([r.episode_id for r in rows])
    return [verify_episode(row, loaded[row.episode_id], auditor) for row in rows]


_WORKER: Auditor | None = None


def _start_worker(url: str, catalog: Any) -> None:
    global _WORKER
    from store import open_database

    _WORKER = Auditor(open_database(url, migrate_schema=False), catalog)


def _worker_page(rows: list[EpisodeRow]) -> list[dict[str, Any]]:
    assert _WORKER is not None
    return _verify_page(_WORKER, rows)


def _in_workers(auditor: Auditor, pages: Iterator[list[EpisodeRow]],
                jobs: int) -> Iterator[list[dict[str, Any]]]:
    """Pages verified in ``jobs`` processes, yielded in order, with at most 2 x ``jobs`` pages in
    flight (a log bigger than memory streams through)."""
    import multiprocessing
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    url = auditor.db.engine.url.render_as_string(hide_password=False)
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(method),
                             initializer=_start_worker, initargs=(url, auditor.catalog)) as pool:
        pending: deque[Any] = deque()
        for rows in pages:
            pending.append(pool.submit(_worker_page, rows))
            if len(pending) >= 2 * jobs:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def current_heads(auditor: Auditor, where: EpisodeFilter) -> Iterator[Head]:
    """Every matching episode's head as the index records it right now."""
    for rows in auditor.queries.iter_episodes(check_filter(where)):
        for row in rows:
            yield Head(row.episode_id, row.last_seq, row.head_hash)


def format_heads(heads: Iterable[Head]) -> Iterator[str]:
    yield HEADS_HEADER + "\n"
    for head in heads:
        yield head.line() + "\n"


def parse_heads(text: str) -> list[Head]:
    """Read a heads file; a malformed line is reported with its number."""
    heads: list[Head] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split(" #", 1)[0].strip()  # a trailing "  # comment" is allowed
        if not line or line.startswith("#"):
            continue
        try:
            if line.startswith("{"):
                item = json.loads(line)
                head = Head(str(item["episode_id"]),
                            int(item["seq"]) if item.get("seq") is not None else None,
                            str(item["head_hash"]))
            else:
                parts = line.split()
                if len(parts) == 2:
                    head = Head(parts[0], None, parts[1])
                elif len(parts) == 3:
                    head = Head(parts[0], int(parts[1]), parts[2])
                else:
                    raise ValueError("expected '<episode_id> <seq> <head_hash>'")
            if head.seq is not None and head.seq < 1:
                raise ValueError("seq counts events from 1")
            if len(head.head_hash) != 64:
                raise ValueError("a head hash is 64 hex digits")
        except RecursionError:
            raise BadRequest(f"heads file line {number}: nested too deeply to be a head") from None
        except (ValueError, KeyError, TypeError) as exc:
            raise BadRequest(f"heads file line {number}: {exc}") from None
        heads.append(head)
    return heads


def _check_one(head: Head, recorded: list[RecordedEvent]) -> dict[str, Any] | None:
    if not recorded:
        return {**head.to_json(), "problem": "missing", "message": "episode not in the log"}
    broken = replay.verify_chain(recorded)
    if broken is not None:
        return {**head.to_json(), "problem": "chain", "message": broken.message}
    seq = head.seq if head.seq is not None else recorded[-1].seq
    if seq > len(recorded):
        return {**head.to_json(), "problem": "truncated",
                "message": f"the log has {len(recorded)} events; the heads file names event {seq}"}
    found = recorded[seq - 1].hash
    if found != head.head_hash:
        return {**head.to_json(), "problem": "mismatch", "found": found,
                "message": f"event {seq} hashes to {found[:12]}…, the heads file says "
                           f"{head.head_hash[:12]}…: the log was rewritten"}
    return None


def check_heads(auditor: Auditor, heads: list[Head], progress: Progress | None = None) -> dict[str, Any]:
    """Compare the log with heads kept elsewhere; every head must be found and match."""
    failures: list[dict[str, Any]] = []
    for start in range(0, len(heads), 100):
        chunk = heads[start:start + 100]
        loaded = auditor.queries.events_of(sorted({h.episode_id for h in chunk}))
        for head in chunk:
            problem = _check_one(head, loaded.get(head.episode_id, []))
            if problem is not None:
                failures.append(problem)
        if progress:
            progress(start + len(chunk), len(heads))
    return {"checked": len(heads), "matched": len(heads) - len(failures),
            "mismatched": len(failures), "ok": not failures, "failures": failures}
