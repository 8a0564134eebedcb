"""A run's figures with their uncertainty, and the paired comparison of two runs.

An :class:`Outcome` is one episode: its task, the seed of its variant (a task at a seed is a
*unit*, an instance), its trial number, its exact score and whether it succeeded. The figures
are the run's mean score, success rate and pass^1..k, each with a 95% percentile-bootstrap interval
over units (:mod:`results.stats`), the share of units whose trials flip verdict (overall and
per task), and the run's noise floor. Estimates are computed exactly as the run summary computes
them (``baseline.summary``): mean score and success rate over episodes, pass^k as the mean over
tasks of the mean over each task's variants.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from results import stats

Unit = tuple[str, int | None]
"""A task at a seed (None: the task's published variant)."""


@dataclass(frozen=True)
class Outcome:
    task_id: str
    seed: int | None
    trial: int
    score: float
    success: bool

    @property
    def unit(self) -> Unit:
        return (self.task_id, self.seed)


def unit_name(unit: Unit) -> str:
    """``task_id@seed`` (``@published`` for the published variant)."""
    return f"{unit[0]}@{'published' if unit[1] is None else unit[1]}"


def by_unit(outcomes: Iterable[Outcome]) -> dict[Unit, list[Outcome]]:
    """Each unit's outcomes in trial order, units in first-seen order."""
    units: dict[Unit, list[Outcome]] = {}
    for o in outcomes:
        units.setdefault(o.unit, []).append(o)
    return {u: sorted(os, key=lambda o: o.trial) for u, os in units.items()}


def method() -> dict[str, Any]:
    """How the intervals were computed, stated beside them."""
    return {"interval": "percentile bootstrap over task instances (each with all its trials)",
            "level": stats.LEVEL, "resamples": stats.RESAMPLES, "seed": stats.SEED}


@dataclass(frozen=True)
class _Unit:
    task_id: str
    score_sum: float
    episodes: int
    successes: int
    pass_hat: tuple[float | None, ...]
    """pass^1..k of the unit (None where the unit has fewer than j trials)."""


def _units(units: Mapping[Unit, Sequence[Outcome]], k: int) -> list[_Unit]:
    """The units with their sums and their own pass^1..k estimates."""
    out = []
    for (task_id, _), trials in units.items():
        n, c = len(trials), sum(o.success for o in trials)
        out.append(_Unit(task_id, sum(o.score for o in trials), n, c,
                         tuple(stats.pass_hat(n, c, j) if n >= j else None
                               for j in range(1, k + 1))))
    return out


def _pass_hat(sample: Sequence[_Unit], j: int) -> float | None:
    """The run's pass^(j+1) over a (re)sample: the mean over tasks of the mean over that task's
    units in the sample. Grouping is done on the sample itself, so a resample that draws one
    task's units more often still averages within [0, 1]."""
    per_task: dict[str, list[float]] = {}
    for u in sample:
        if (v := u.pass_hat[j]) is not None:
            per_task.setdefault(u.task_id, []).append(v)
    if not per_task:
        return None
    return math.fsum(math.fsum(vs) / len(vs) for vs in per_task.values()) / len(per_task)


def _estimates(sample: Sequence[_Unit], k: int) -> tuple[float, float, list[float | None]]:
    """Mean score, success rate and pass^1..k of a (re)sample of units."""
    episodes = sum(u.episodes for u in sample)
    mean = sum(u.score_sum for u in sample) / episodes
    rate = sum(u.successes for u in sample) / episodes
    return mean, rate, [_pass_hat(sample, j) for j in range(k)]


def figures(outcomes: Sequence[Outcome], trials: int) -> dict[str, Any]:
    """The run's figures with intervals, flip rates and noise floor (module docstring).
    ``trials`` is k, the trials each variant was meant to get."""
    units = by_unit(outcomes)
    if not units:
        return {"units": 0, "episodes": 0, "method": method()}
    k = max(1, trials)
    compact = _units(units, k)
    mean, rate, passes = _estimates(compact, k)
    reps: list[tuple[float, float, list[float | None]]] = [
        _estimates([compact[i] for i in draw], k)
        for draw in stats.bootstrap_indices(len(compact))]
    pass_hat: dict[str, Any] = {}
    for j, value in enumerate(passes):
        if value is not None:
            column = [r[2][j] for r in reps]
            pass_hat[str(j + 1)] = stats.percentile_interval(
                value, [v for v in column if v is not None]).to_json()
    outcomes_by_unit = [[o.success for o in trials_] for trials_ in units.values()]
    flips = [stats.flipped(u) for u in outcomes_by_unit if len(u) >= 2]
    return {
        "units": len(units), "episodes": len(outcomes), "trials": k, "method": method(),
        "mean_score": stats.percentile_interval(mean, [r[0] for r in reps]).to_json(),
        "success_rate": stats.percentile_interval(rate, [r[1] for r in reps]).to_json(),
        "pass_hat": pass_hat,
        "flip_rate": _round(stats.flip_rate(outcomes_by_unit)),
        "flipped_units": sum(flips), "repeated_units": len(flips),
        "task_flip_rates": task_flip_rates(units),
        "noise_floor": noise(units),
    }


def task_flip_rates(units: Mapping[Unit, Sequence[Outcome]]) -> dict[str, float | None]:
    """Per task, the share of its variants whose trials flip verdict (None: one trial each)."""
    per_task: dict[str, list[list[bool]]] = {}
    for (task_id, _), trials in units.items():
        per_task.setdefault(task_id, []).append([o.success for o in trials])
    return {t: _round(stats.flip_rate(u)) for t, u in per_task.items()}


def noise(units: Mapping[Unit, Sequence[Outcome]]) -> dict[str, Any]:
    """The run's noise floor from its own trials: for the mean score and the success rate, the
    trial-to-trial standard deviation of one unit and the difference two runs of the same agent
    exceed by chance only 5% of the time, for runs of this size and for single-trial runs of as
    many units. Unknown (with the reason) when no unit was played twice."""
    repeated = [t for t in units.values() if len(t) >= 2]
    n = len(units)
    k = min((len(t) for t in units.values()), default=0)
    if not repeated:
        return {"known": False, "reason": "every instance was played once; run with --trials 2 "
                                          "or more to measure how much trials of one agent differ"}
    out: dict[str, Any] = {"known": True, "units": n, "trials": k, "level": stats.LEVEL}
    for name, values in (("mean_score", [[o.score for o in t] for t in units.values()]),
                         ("success_rate", [[float(o.success) for o in t] for t in units.values()])):
        variance = stats.within_variance(values) or 0.0
        out[name] = {"trial_sd": round(variance ** 0.5, 4),
                     "this_size": round(stats.noise_floor(variance, n, k), 4),
                     "single_trial": round(stats.noise_floor(variance, n, 1), 4)}
    return out


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


# --------------------------------------------------------------------------------- compare
class NotComparable(ValueError):
    """Two runs whose figures cannot be compared pair by pair; the message says why."""


@dataclass(frozen=True)
class RunFacts:
    """What must agree for two runs to be compared: the episodes' outcomes and how they were
    made (the split and its digest, grader versions, reward modes)."""

    name: str
    outcomes: tuple[Outcome, ...]
    split: str | None = None
    split_digest: str | None = None
    grader_versions: tuple[str, ...] = ()
    reward_modes: tuple[str, ...] = ()


def comparability(a: RunFacts, b: RunFacts) -> list[str]:
    """Every reason ``a`` and ``b`` cannot be compared (empty: they can)."""
    problems = []
    ua, ub = set(by_unit(a.outcomes)), set(by_unit(b.outcomes))
    if ua != ub:
        only_a, only_b = sorted(ua - ub, key=str), sorted(ub - ua, key=str)
        problems.append(
            f"different task sets: {len(only_a)} instance(s) only in {a.name}"
            f"{_some(only_a)}, {len(only_b)} only in {b.name}{_some(only_b)}")
    for what, x, y in (("splits", a.split, b.split), ("split digests", a.split_digest, b.split_digest),
                       ("grader versions", a.grader_versions, b.grader_versions),
                       ("reward modes", a.reward_modes, b.reward_modes)):
        if x != y:
            problems.append(f"different {what}: {a.name} has {_show(x)}, {b.name} has {_show(y)}")
    return problems


def _some(units: Sequence[Unit]) -> str:
    if not units:
        return ""
    shown = ", ".join(unit_name(u) for u in units[:3])
    return f" ({shown}{', ...' if len(units) > 3 else ''})"


def _show(value: str | tuple[str, ...] | None) -> str:
    if isinstance(value, tuple):
        return ", ".join(value) or "none"
    return value or "none"


def compare(a: RunFacts, b: RunFacts) -> dict[str, Any]:
    """``a`` minus ``b``, paired by unit and trial: the difference of mean score and success rate
    with a bootstrap interval over units, the paired sign-flip test's p-value, the minimum
    detectable difference, and every (unit, trial) whose verdict changed. Raises
    :class:`NotComparable` naming every reason the runs cannot be paired."""
    problems = comparability(a, b)
    if problems:
        raise NotComparable("; ".join(problems))
    units_a, units_b = by_unit(a.outcomes), by_unit(b.outcomes)
    pairs: dict[Unit, list[tuple[Outcome, Outcome]]] = {
        u: list(zip(units_a[u], units_b[u], strict=False)) for u in units_a}
    trials = {len(p) for p in pairs.values()}
    changed = [{"unit": unit_name(u), "task_id": u[0], "seed": u[1], "trial": x.trial,
                a.name: x.success, b.name: y.success, f"score_{a.name}": x.score,
                f"score_{b.name}": y.score}
               for u, ps in pairs.items() for x, y in ps if x.success != y.success]
    out: dict[str, Any] = {
        "a": a.name, "b": b.name, "units": len(pairs), "paired_episodes": sum(map(len, pairs.values())),
        "trials": min(trials), "method": {**method(), "test": "paired sign-flip permutation test "
                                          "over instances (exact up to 16 differing instances)",
                                          "power": stats.POWER},
        "changed_verdicts": changed,
        "changed_to_success": sum(1 for c in changed if c[a.name]),
        "changed_to_failure": sum(1 for c in changed if not c[a.name]),
    }
    if len(trials) > 1:
        out["note"] = (f"the runs have different numbers of trials per instance; each instance's "
                       f"first {min(trials)} to {max(trials)} trials are paired")
    for name, value in (("mean_score", lambda o: o.score), ("success_rate", lambda o: float(o.success))):
        diffs = [statistics.fmean(value(x) - value(y) for x, y in ps) for ps in pairs.values()]
        mean_a = statistics.fmean(value(x) for ps in pairs.values() for x, _ in ps)
        mean_b = statistics.fmean(value(y) for ps in pairs.values() for _, y in ps)
        sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
        out[name] = {
            a.name: round(mean_a, 4), b.name: round(mean_b, 4),
            "difference": stats.mean_interval(diffs).to_json(),
            "p_value": round(stats.sign_flip_p_value(diffs), 6),
            "min_detectable_difference": round(stats.min_detectable_difference(sd, len(diffs)), 4),
            "instances_better": sum(d > 0 for d in diffs), "instances_worse": sum(d < 0 for d in diffs),
        }
    return out
