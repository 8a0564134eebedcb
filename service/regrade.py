"""Re-scoring recorded episodes with a chosen grader (the current one by default), without touching
the log.

For each episode the log's facts are graded again by the chosen grader version
(``graders.versions``; replay and verify, by contrast, always use the version the episode was
recorded under) and compared with the grade recorded at the time: final score, the components of
the final grade, penalties, and which steps' rewards moved. The report is grouped per task. Unless
it is a dry run, one regrade record per episode is appended (``store.regrades``: append-only),
carrying the grader version; the events and the episode's recorded score are never rewritten.

With an LLM judge (``ticketledger regrade --judge llm``) every reply is judged again by that judge
(``service.judge.rejudge``) before grading, and the new verdicts go into the regrade record's
report; the default (``--judge deterministic``) grades with the verdicts the log holds.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain.events import StepGraded
from graders import to_float
from graders.versions import CURRENT, Grader, UnknownGrader, grader_for
from service.audit_views import Auditor, Collector, check_filter
from service.environment import to_domain
from service.errors import BadRequest
from service.judge import LLMJudge, rejudge
from store.eventstore import EpisodeRow, RecordedEvent
from store.queries import EpisodeFilter
from store.regrades import NewRegrade


def regrade_episode(row: EpisodeRow, recorded: list[RecordedEvent],
                    grader: Grader | None = None, judge: LLMJudge | None = None) -> dict[str, Any]:
    """Recorded vs ``grader``'s (default: the current) grade of one episode: score, components that
    moved, steps that moved. With ``judge``, its replies judged again by that LLM first (the
    verdicts are in the result)."""
    events = [to_domain(r) for r in recorded]
    graded = [e for e in events if isinstance(e, StepGraded)]  # what was recorded at the time
    verdicts: list[dict[str, Any]] = []
    if judge is not None:
        events, judged = rejudge(events, judge)
        verdicts = [dict(j.data) for j in judged]
    grade = (grader or grader_for(CURRENT)).grade_episode(events)
    started = recorded[0].data if recorded else {}
    last = graded[-1] if graded else None
    recorded_score = last.score if last else row.score
    new_score = grade.score
    old_parts = {c.name: c.earned for c in last.components} if last else {}
    new_parts = {c.name: c.earned for c in grade.steps[-1].components} if grade.steps else {}
    moved: dict[str, dict[str, float]] = {}
    for name in sorted(set(old_parts) | set(new_parts)):
        before, after = old_parts.get(name, 0), new_parts.get(name, 0)
        if before != after:
            moved[name] = {"recorded": to_float(before), "new": to_float(after),
                           "delta": to_float(after - before)}
    old_pen = last.penalty_units if last else 0
    new_pen = grade.steps[-1].penalty_units if grade.steps else 0
    if old_pen != new_pen:
        moved["penalties"] = {"recorded": -to_float(old_pen), "new": -to_float(new_pen),
                              "delta": to_float(old_pen - new_pen)}
    steps_moved = [s.step for s, rec in zip(grade.steps, graded, strict=False)
                   if rec.reward_units != s.reward_units]
    return {
        "episode_id": row.episode_id, "task_id": row.task_id, "status": row.status,
        "recorded_score": recorded_score, "new_score": new_score,
        "delta": to_float(round((new_score - recorded_score) * 10_000)),
        "changed": recorded_score != new_score or bool(moved) or bool(steps_moved),
        "recorded_grader_version": (last.grader_version if last else None)
                                   or started.get("grader_version"),
        "components_moved": moved, "steps_moved": steps_moved,
        "judge": "llm" if judge is not None else "deterministic", "verdicts": verdicts,
    }


@dataclass
class _TaskTally:
    """One task's row of the report, added to an episode at a time (the report keeps no row per
    episode: a regrade of the whole log holds the same memory whatever its size). Sums run in
    the episodes' order, so the figures are those of summing a list of them."""

    episodes: int = 0
    changed: int = 0
    recorded: float = 0.0
    new: float = 0.0
    delta: float = 0.0
    min_delta: float | None = None
    max_delta: float | None = None
    components: dict[str, dict[str, Any]] = field(default_factory=dict)

    def add(self, r: dict[str, Any]) -> None:
        self.episodes += 1
        self.recorded += r["recorded_score"]
        self.new += r["new_score"]
        self.delta += r["delta"]
        self.min_delta = r["delta"] if self.min_delta is None else min(self.min_delta, r["delta"])
        self.max_delta = r["delta"] if self.max_delta is None else max(self.max_delta, r["delta"])
        if r["changed"]:
            self.changed += 1
            for name, move in r["components_moved"].items():
                entry = self.components.setdefault(name, {"episodes": 0, "total_delta": 0.0})
                entry["episodes"] += 1
                entry["total_delta"] = round(entry["total_delta"] + move["delta"], 4)

    def row(self, task_id: str) -> dict[str, Any]:
        n = self.episodes
        return {"task_id": task_id, "episodes": n, "changed": self.changed,
                "mean_recorded": round(self.recorded / n, 4), "mean_new": round(self.new / n, 4),
                "mean_delta": round(self.delta / n, 4), "min_delta": self.min_delta,
                "max_delta": self.max_delta, "components": self.components}


def regrade(auditor: Auditor, where: EpisodeFilter, *, dry_run: bool = False,
            progress: Callable[[int, int], None] | None = None,
            grader_version: str | None = None, judge: LLMJudge | None = None,
            changes: Collector | None = None) -> dict[str, Any]:
    """Regrade every matching episode with ``grader_version`` (default: the current grader);
    append records unless ``dry_run``. Returns the report. ``judge``: re-judge every reply with
    this LLM judge first (None: the recorded verdicts, if any).

    The log is read a page of episodes at a time and the per-task table is added up as it goes,
    so memory does not grow with the log. The report's ``changes`` lists every episode whose
    grade moved, which may be every episode: in a list, or in the collector given (the command
    line writes them to a file as they come)."""
    check_filter(where)
    try:
        grader = grader_for(grader_version or CURRENT)
    except UnknownGrader as exc:
        raise BadRequest(str(exc)) from None
    version = grader.version
    batch = "rg_" + secrets.token_hex(8)
    total = auditor.queries.count(where) if progress else 0
    tasks: dict[str, _TaskTally] = {}
    moved: Collector = [] if changes is None else changes
    episodes = changed = written = 0
    pending: list[NewRegrade] = []
    for row, recorded in auditor.queries.iter_with_events(where):
        result = regrade_episode(row, recorded, grader, judge)
        episodes += 1
        tasks.setdefault(result["task_id"], _TaskTally()).add(result)
        if result["changed"]:
            changed += 1
            moved.append(result)
        if not dry_run:
            pending.append(NewRegrade(row.episode_id, version, result["recorded_score"],
                                      result["new_score"],
                                      {"batch": batch,
                                       "recorded_grader_version": result["recorded_grader_version"],
                                       "components_moved": result["components_moved"],
                                       "steps_moved": result["steps_moved"],
                                       "judge": result["judge"], "verdicts": result["verdicts"]}))
            if len(pending) >= 200:
                written += auditor.regrades.append(pending)
                pending = []
        if progress:
            progress(episodes, total)
    if not dry_run:
        written += auditor.regrades.append(pending)
    return {
        "grader_version": version, "dry_run": dry_run, "batch": None if dry_run else batch,
        "judge": "deterministic" if judge is None else "llm",
        "judge_model": None if judge is None else judge.model,
        "filters": {"run_id": where.run_id, "task_id": where.task_id},
        "episodes": episodes, "changed": changed, "records_appended": written,
        "tasks": [tasks[task_id].row(task_id) for task_id in sorted(tasks)], "changes": moved,
    }
