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
from typing import Any

from domain.events import StepGraded
from graders import to_float
from graders.versions import CURRENT, Grader, UnknownGrader, grader_for
from service.audit_views import Auditor, check_filter
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


def _task_table(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    tasks: dict[str, list[dict[str, Any]]] = {}
    for r in results:
        tasks.setdefault(r["task_id"], []).append(r)
    table = []
    for task_id in sorted(tasks):
        rows = tasks[task_id]
        changed = [r for r in rows if r["changed"]]
        deltas = [r["delta"] for r in rows]
        components: dict[str, dict[str, Any]] = {}
        for r in changed:
            for name, move in r["components_moved"].items():
                entry = components.setdefault(name, {"episodes": 0, "total_delta": 0.0})
                entry["episodes"] += 1
                entry["total_delta"] = round(entry["total_delta"] + move["delta"], 4)
        table.append({
            "task_id": task_id, "episodes": len(rows), "changed": len(changed),
            "mean_recorded": round(sum(r["recorded_score"] for r in rows) / len(rows), 4),
            "mean_new": round(sum(r["new_score"] for r in rows) / len(rows), 4),
            "mean_delta": round(sum(deltas) / len(rows), 4),
            "min_delta": min(deltas), "max_delta": max(deltas), "components": components,
        })
    return table


def regrade(auditor: Auditor, where: EpisodeFilter, *, dry_run: bool = False,
            progress: Callable[[int, int], None] | None = None,
            grader_version: str | None = None, judge: LLMJudge | None = None) -> dict[str, Any]:
    """Regrade every matching episode with ``grader_version`` (default: the current grader);
    append records unless ``dry_run``. Returns the report. ``judge``: re-judge every reply with
    this LLM judge first (None: the recorded verdicts, if any)."""
    check_filter(where)
    try:
        grader = grader_for(grader_version or CURRENT)
    except UnknownGrader as exc:
        raise BadRequest(str(exc)) from None
    version = grader.version
    batch = "rg_" + secrets.token_hex(8)
    total = auditor.queries.count(where) if progress else 0
    results: list[dict[str, Any]] = []
    pending: list[NewRegrade] = []
    written = 0
    for row, recorded in auditor.queries.iter_with_events(where):
        result = regrade_episode(row, recorded, grader, judge)
        results.append(result)
        pending.append(NewRegrade(row.episode_id, version, result["recorded_score"],
                                  result["new_score"],
                                  {"batch": batch,
                                   "recorded_grader_version": result["recorded_grader_version"],
                                   "components_moved": result["components_moved"],
                                   "steps_moved": result["steps_moved"],
                                   "judge": result["judge"], "verdicts": result["verdicts"]}))
        if not dry_run and len(pending) >= 200:
            written += auditor.regrades.append(pending)
            pending = []
        if progress:
            progress(len(results), total)
    if not dry_run:
        written += auditor.regrades.append(pending)
    return {
        "grader_version": version, "dry_run": dry_run, "batch": None if dry_run else batch,
        "judge": "deterministic" if judge is None else "llm",
        "judge_model": None if judge is None else judge.model,
        "filters": {"run_id": where.run_id, "task_id": where.task_id},
        "episodes": len(results), "changed": sum(1 for r in results if r["changed"]),
        "records_appended": written, "tasks": _task_table(results),
        "changes": [r for r in results if r["changed"]],
    }
