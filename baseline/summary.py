"""Aggregating a run: per-task scores, pass^k, LLM usage, and the summary printed to stderr.

pass^k (tau-bench's reliability metric) is the chance that all k trials of a task succeed. With
exactly k trials per task its estimate is 1 when every trial succeeded and 0 otherwise; the
overall figure is the mean over tasks.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from baseline.decision import LLMCall
from baseline.stdout import printed_score

VIEWER_URL = "http://127.0.0.1:7860/ui/runs/{run_id}"
MAX_ERRORS_KEPT = 40


@dataclass
class EpisodeResult:
    task_id: str
    difficulty: str
    seed: int | None
    trial: int
    threshold: float
    model: str
    episode_id: str | None = None
    steps: int = 0
    rewards: list[float] = field(default_factory=list)
    score: float = 0.0
    success: bool = False
    head_hash: str | None = None
    errors: list[str] = field(default_factory=list)
    exception: str | None = None
    chosen_by: Counter[str] = field(default_factory=Counter)
    calls: list[LLMCall] = field(default_factory=list)
    wall_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "task_id": self.task_id, "difficulty": self.difficulty, "seed": self.seed,
            "trial": self.trial, "episode_id": self.episode_id, "model": self.model,
            "steps": self.steps, "score": self.score, "printed_score": float(printed_score(self.score)),
            "success": self.success, "success_threshold": self.threshold,
            "rewards": self.rewards, "head_hash": self.head_hash,
            "errors": self.errors[:MAX_ERRORS_KEPT], "error_count": len(self.errors),
            "exception": self.exception, "chosen_by": dict(self.chosen_by),
            "llm": llm_usage(self.calls), "wall_s": round(self.wall_s, 4),
        }


def llm_usage(calls: Sequence[LLMCall]) -> dict[str, Any]:
    """Calls, failures by kind, latency and token totals (tokens only when the server reported them)."""
    if not calls:
        return {"calls": 0}
    latencies = [c.latency_s for c in calls]
    prompt = [c.prompt_tokens for c in calls if c.prompt_tokens is not None]
    completion = [c.completion_tokens for c in calls if c.completion_tokens is not None]
    return {
        "calls": len(calls),
        "failures": sum(not c.ok for c in calls),
        "failures_by_kind": dict(Counter(c.failure for c in calls if c.failure)),
        "latency_s_total": round(sum(latencies), 3),
        "latency_s_mean": round(statistics.fmean(latencies), 3),
        "latency_s_max": round(max(latencies), 3),
        "prompt_tokens": sum(prompt) if prompt else None,
        "completion_tokens": sum(completion) if completion else None,
        "by_model": {m: {"calls": sum(c.model == m for c in calls),
                         "failures": sum(c.model == m and not c.ok for c in calls)}
                     for m in dict.fromkeys(c.model for c in calls)},
    }


def summarise(results: Sequence[EpisodeResult], trials: int) -> dict[str, Any]:
    """The run record's summary: every episode, per-task aggregates, overall figures."""
    tasks: dict[str, list[EpisodeResult]] = {}
    for r in results:
        tasks.setdefault(r.task_id, []).append(r)
    rows: list[dict[str, Any]] = []
    for task_id, group in tasks.items():
        rows.append({
            "task_id": task_id, "difficulty": group[0].difficulty, "trials": len(group),
            "mean_score": round(statistics.fmean(r.score for r in group), 4),
            "successes": sum(r.success for r in group),
            "pass_k": 1.0 if all(r.success for r in group) else 0.0,
            "mean_steps": round(statistics.fmean(r.steps for r in group), 2),
            "success_threshold": group[0].threshold,
        })
    scores = [r.score for r in results]
    return {
        "episodes": [r.to_json() for r in results],
        "tasks": rows,
        "mean_score": round(statistics.fmean(scores), 4) if scores else 0.0,
        "success_rate": round(sum(r.success for r in results) / len(results), 4) if results else 0.0,
        "pass_k": {"k": trials,
                   "overall": round(statistics.fmean(t["pass_k"] for t in rows), 4) if rows else 0.0},
        "exceptions": sum(r.exception is not None for r in results),
        "llm": llm_usage([c for r in results for c in r.calls]),
    }


def print_summary(run_id: str, summary: dict[str, Any], *, status: str, wall_s: float,
                  out: TextIO | None = None) -> None:
    """The human summary on stderr: a table per task, how to look further, every chain head."""
    from cli.output import print_table

    out = out or sys.stderr
    k = summary["pass_k"]["k"]
    print(f"\n[baseline] run {run_id} {status} in {wall_s:.2f} s: {len(summary['episodes'])} episodes, "
          f"mean score {summary['mean_score']:.4f}, success rate {summary['success_rate']:.2f}, "
          f"pass^{k} {summary['pass_k']['overall']:.2f}", file=out)
    rows = [{**t, "pass^k": t["pass_k"], "successes": f"{t['successes']}/{t['trials']}"}
            for t in summary["tasks"]]
    print_table(rows, ["task_id", "difficulty", "trials", "mean_score", "successes", "pass^k",
                       "mean_steps"], file=out)
    llm = summary["llm"]
    if llm.get("calls"):
        print(f"LLM: {llm['calls']} calls, {llm['failures']} failed {llm['failures_by_kind'] or ''}, "
              f"mean latency {llm['latency_s_mean']:.2f} s, tokens in/out "
              f"{llm['prompt_tokens'] or '?'}/{llm['completion_tokens'] or '?'}", file=out)
    print("\nLook at it:", file=out)
    print(f"  ticketledger runs show {run_id}", file=out)
    first = next((e["episode_id"] for e in summary["episodes"] if e["episode_id"]), None)
    if first:
        print(f"  ticketledger replay {first}      (any episode id below)", file=out)
    print(f"  ticketledger serve, then open {VIEWER_URL.format(run_id=run_id)}", file=out)
    print("\nHash-chain heads (a heads file: keep a copy outside the database and check the log "
          "against it with `ticketledger verify --heads FILE`):", file=out)
    for e in summary["episodes"]:
        seed = "published" if e["seed"] is None else e["seed"]
        print(f"  {e['episode_id'] or '-'} {e['head_hash'] or 'unknown'}  # {e['task_id']} "
              f"seed={seed} score={e['score']:.4f}", file=out)
    out.flush()
