"""Aggregating a run: per-task scores, pass^k, who acted, LLM usage, and the summary on stderr.

pass^k (tau-bench's reliability metric) is the chance that k trials of the same variant all
succeed. From n trials with c successes the unbiased estimate is C(c,k)/C(n,k) (tau2-bench's
``agent_metrics``), for every k from 1 to n; a task's figure is the mean over its variants, the
run's the mean over tasks. pass^1 is the success rate.

Beside every figure the summary keeps its uncertainty (``uncertainty``, :func:`results.figures.figures`):
a 95% bootstrap interval over task instances, the share of instances whose trials flip verdict,
and the run's noise floor; each task row keeps its own flip rate.

Who acted is counted per step (a model, the built-in policy, or nobody in a failed step), so a run
says how much of it the configured model played, and the runner marks one where it played no step
as degraded.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from baseline.agent import NO_ACTOR, LLMCall
from baseline.config import POLICY_NAME
from baseline.stdout import printed_score
from results.figures import Outcome, figures
from results.stats import pass_hat
from support.terminal import print_table

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
    actors: list[str] = field(default_factory=list)
    """Who acted in each step, in order: a model, the built-in policy, or ``NO_ACTOR``."""
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
            "exception": self.exception, "actors": self.actors,
            "chosen_by": dict(Counter(self.actors)),
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


def pass_hat_by_k(groups: Sequence[Sequence[bool]], k_max: int) -> dict[str, float]:
    """pass^1..k_max over variants (each a list of trial outcomes): the mean over the variants
    that had at least k trials (a run cut short may have fewer); a k none reached is left out."""
    out: dict[str, float] = {}
    for k in range(1, k_max + 1):
        values = [pass_hat(len(g), sum(g), k) for g in groups if len(g) >= k]
        if values:
            out[str(k)] = round(statistics.fmean(values), 4)
    return out


def actor_steps(results: Sequence[EpisodeResult], models: Sequence[str]) -> dict[str, Any]:
    """Steps per actor over the run, their shares, and how many the configured models took."""
    by_actor = Counter(a for r in results for a in r.actors)
    total = sum(by_actor.values())
    return {
        "steps": total,
        "by_actor": dict(by_actor.most_common()),
        "share": {a: round(n / total, 4) for a, n in by_actor.most_common()} if total else {},
        "model_steps": sum(n for a, n in by_actor.items() if a in models),
        "policy_steps": by_actor.get(POLICY_NAME, 0),
        "failed_steps": by_actor.get(NO_ACTOR, 0),
    }


def summarise(results: Sequence[EpisodeResult], trials: int, *, variants: int = 1,
              models: Sequence[str] = ()) -> dict[str, Any]:
    """The run record's summary: every episode, per-task aggregates, overall figures.

    ``trials`` is k (trials per variant), ``models`` the configured models (whose steps count as
    the models' in ``actors``)."""
    tasks: dict[str, dict[int | None, list[EpisodeResult]]] = {}
    for r in results:
        tasks.setdefault(r.task_id, {}).setdefault(r.seed, []).append(r)
    rows: list[dict[str, Any]] = []
    for task_id, by_variant in tasks.items():
        group = [r for trials_of_variant in by_variant.values() for r in trials_of_variant]
        by_k = pass_hat_by_k([[r.success for r in v] for v in by_variant.values()], trials)
        rows.append({
            "task_id": task_id, "difficulty": group[0].difficulty, "variants": len(by_variant),
            "trials": min(map(len, by_variant.values())),  # per variant (fewer if cut short)
            "episodes": len(group),
            "mean_score": round(statistics.fmean(r.score for r in group), 4),
            "successes": sum(r.success for r in group),
            "pass_hat": by_k,
            "pass_k": by_k.get(str(trials)),
            "mean_steps": round(statistics.fmean(r.steps for r in group), 2),
            "success_threshold": group[0].threshold,
        })
    scores = [r.score for r in results]
    uncertainty = figures([Outcome(r.task_id, r.seed, r.trial, r.score, r.success) for r in results],
                          trials)
    for row in rows:
        row["flip_rate"] = uncertainty.get("task_flip_rates", {}).get(row["task_id"])
    overall = {str(k): round(statistics.fmean(t["pass_hat"][str(k)] for t in rows
                                              if str(k) in t["pass_hat"]), 4)
               for k in range(1, trials + 1) if any(str(k) in t["pass_hat"] for t in rows)}
    return {
        "episodes": [r.to_json() for r in results],
        "tasks": rows,
        "mean_score": round(statistics.fmean(scores), 4) if scores else 0.0,
        "success_rate": round(sum(r.success for r in results) / len(results), 4) if results else 0.0,
        "pass_k": {"k": trials, "variants": variants, "overall": overall.get(str(trials)),
                   "by_k": overall},
        "uncertainty": uncertainty,
        "actors": actor_steps(results, models),
        "exceptions": sum(r.exception is not None for r in results),
        "llm": llm_usage([c for r in results for c in r.calls]),
    }


def pass_line(pass_k: Mapping[str, Any], uncertainty: Mapping[str, Any] | None = None) -> str:
    """``pass^1 0.92, pass^2 0.90`` (every k of the run), or the single pass^k of an older record;
    with the run's ``uncertainty``, each with its interval: ``pass^1 0.92 [0.85, 0.97]``."""
    by_k = pass_k.get("by_k") or {str(pass_k["k"]): pass_k["overall"]}
    intervals = (uncertainty or {}).get("pass_hat") or {}
    return ", ".join(f"pass^{k} {'-' if v is None else format(float(v), '.2f')}"
                     f"{bounds(intervals.get(k), 2)}" for k, v in by_k.items())


def bounds(interval: Mapping[str, Any] | None, digits: int = 4) -> str:
    """`` [0.8891, 0.9254]``: an interval's ends after its figure (nothing for a record without)."""
    if not interval:
        return ""
    return f" [{interval['low']:.{digits}f}, {interval['high']:.{digits}f}]"


def figures_line(summary: Mapping[str, Any]) -> str:
    """``mean score 0.9078 [0.8891, 0.9254], success rate 0.92 [0.85, 0.97], pass^1 0.92 [...]``:
    each figure with its 95% interval (a record older than intervals shows the figures alone)."""
    u = summary.get("uncertainty") or {}
    return (f"mean score {summary['mean_score']:.4f}{bounds(u.get('mean_score'))}, "
            f"success rate {summary['success_rate']:.2f}{bounds(u.get('success_rate'), 2)}, "
            f"{pass_line(summary['pass_k'], u)}")


def noise_lines(summary: Mapping[str, Any]) -> list[str]:
    """How far to trust the figures: the interval's method, the flip rate over trials, the noise
    floor (empty for a record older than intervals)."""
    u = summary.get("uncertainty") or {}
    if not u.get("units"):
        return []
    lines = [f"95% intervals: percentile bootstrap over {u['units']} task instance(s), "
             f"{u['method']['resamples']} resamples, seed {u['method']['seed']}"]
    if u.get("flip_rate") is None:
        lines.append("flip rate over trials: - (one trial per instance)")
    else:
        lines.append(f"flip rate over trials: {u['flip_rate']:.2f} ({u['flipped_units']} of "
                     f"{u['repeated_units']} instances changed verdict between trials)")
    floor = u.get("noise_floor") or {}
    if floor.get("known"):
        score, rate = floor["mean_score"], floor["success_rate"]
        lines.append(f"noise floor: two runs of this size ({floor['units']} instances x "
                     f"{floor['trials']} trial(s)) must differ by more than {score['this_size']:.4f} "
                     f"in mean score or {rate['this_size']:.2f} in success rate to mean something "
                     f"(single-trial runs: {score['single_trial']:.4f}, {rate['single_trial']:.2f})")
    elif floor:
        lines.append(f"noise floor: unknown ({floor['reason']})")
    return lines


def actors_line(actors: Mapping[str, int]) -> str:
    """Each actor's steps and share, most steps first: ``m1 30 (81%), builtin-policy 7 (19%)``;
    nobody's steps (failed steps) are named as such."""
    total = sum(actors.values())
    if not total:
        return "no steps"
    return ", ".join(f"{'nobody (failed steps)' if a == NO_ACTOR else a} {n} ({n / total:.0%})"
                     for a, n in sorted(actors.items(), key=lambda kv: -kv[1]))


def task_rows(summary: Mapping[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """The per-task table of a run (stderr's and ``runs show``'s): columns and rows, one pass^k
    column per k (an older record has its one pass^k)."""
    ks = list((summary["pass_k"].get("by_k") or {str(summary["pass_k"]["k"]): None}).keys())
    rows = []
    for t in summary["tasks"]:
        by_k = t.get("pass_hat") or {str(summary["pass_k"]["k"]): t["pass_k"]}
        rows.append({**t, **{f"pass^{k}": by_k.get(k) for k in ks},
                     "variants": t.get("variants", "-"),
                     "successes": f"{t['successes']}/{t.get('episodes', t['trials'])}",
                     "flip_rate": "-" if t.get("flip_rate") is None else t["flip_rate"]})
    columns = ["task_id", "difficulty", "variants", "trials", "mean_score", "successes",
               *(f"pass^{k}" for k in ks)]
    if "uncertainty" in summary:
        columns.append("flip_rate")
    return columns, rows


def print_summary(run_id: str, summary: dict[str, Any], *, status: str, wall_s: float,
                  out: TextIO | None = None) -> None:
    """The human summary on stderr: a table per task, how to look further, every chain head."""
    out = out or sys.stderr
    pk = summary["pass_k"]
    print(f"\n[baseline] run {run_id} {status} in {wall_s:.2f} s: {len(summary['episodes'])} episodes "
          f"({pk['variants']} variant(s) x {pk['k']} trial(s) per task), "
          f"{figures_line(summary)}", file=out)
    for line in noise_lines(summary):
        print(f"[baseline] {line}", file=out)
    columns, rows = task_rows(summary)
    print_table(rows, [*columns, "mean_steps"], file=out)
    print(f"Who acted: {actors_line(summary['actors']['by_actor'])}", file=out)
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
