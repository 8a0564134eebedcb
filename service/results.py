"""A run's outcomes as the log records them, its figures with their uncertainty, and comparisons.

Every figure here is computed from the episodes the log holds for the run (the same source as
``verify`` and a bundle), not from what the runner wrote into its summary: an episode succeeded
when its score reaches the success threshold its ``EpisodeStarted`` records. The trial number of
an episode is the runner's when its record names it, else its place among its instance's episodes
in the order they were opened. The statistics are :mod:`results`'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain import events as ev
from results.figures import NotComparable, Outcome, RunFacts, compare, figures, noise
from results.figures import by_unit as group_units
from service.errors import BadRequest, RunNotFound, check_run_id
from store.errors import NotFound
from store.eventstore import EpisodeRow, RecordedEvent
from store.runs import RunRow

if TYPE_CHECKING:
    from service.audit_views import Auditor


@dataclass(frozen=True)
class EpisodeFact:
    """One episode of a run as its log states it."""

    episode_id: str
    task_id: str
    seed: int | None
    trial: int
    score: float
    success: bool
    threshold: float
    grader_version: str
    reward_mode: str

    def outcome(self) -> Outcome:
        return Outcome(self.task_id, self.seed, self.trial, self.score, self.success)


def opening(recorded: Sequence[RecordedEvent]) -> ev.EpisodeStarted:
    """The episode's ``EpisodeStarted``; ValueError when the log does not start with one."""
    if not recorded:
        raise ValueError("the episode has no events")
    first = recorded[0]
    started = ev.upcast(first.type, first.version, first.data)
    if not isinstance(started, ev.EpisodeStarted):
        raise ValueError("an episode log starts with EpisodeStarted")
    return started


def recorded_trials(run: RunRow) -> dict[str, int]:
    """The trial number the runner's record gives each episode id."""
    episodes = (run.summary or {}).get("episodes")
    out: dict[str, int] = {}
    for e in episodes if isinstance(episodes, list) else []:
        if isinstance(e, dict) and e.get("episode_id") and isinstance(e.get("trial"), int):
            out[str(e["episode_id"])] = e["trial"]
    return out


def episode_facts(loaded: Iterable[tuple[str, float, Sequence[RecordedEvent]]],
                  trials: dict[str, int] | None = None) -> list[EpisodeFact]:
    """Facts of ``(episode_id, score, events)`` in the order the episodes were opened; an
    episode the ``trials`` map does not name is the next trial of its instance."""
    trials = trials or {}
    seen: dict[tuple[str, int | None], int] = {}
    out = []
    for episode_id, score, recorded in loaded:
        started = opening(recorded)
        unit = (started.task_id, started.seed)
        trial = trials.get(episode_id, seen.get(unit, 0))
        seen[unit] = max(seen.get(unit, 0), trial + 1)
        threshold = started.task.task.success_threshold
        out.append(EpisodeFact(episode_id, started.task_id, started.seed, trial, score,
                               score >= threshold, threshold, started.grader_version or "",
                               started.reward_mode))
    return out


def run_row(auditor: Auditor, run_id: str) -> RunRow:
    check_run_id(run_id)
    try:
        return auditor.runs.get(run_id)
    except NotFound:
        raise RunNotFound(f"no run {run_id!r}; list them with GET /runs or `ticketledger runs`") from None


def run_episodes(auditor: Auditor, run_id: str) -> list[tuple[EpisodeRow, list[RecordedEvent]]]:
    """The run's episodes with their events, in the order they were opened."""
    rows = auditor.runs.episodes(run_id)
    out = []
    for start in range(0, len(rows), 100):
        page = rows[start:start + 100]
        loaded = auditor.queries.events_of([r.episode_id for r in page])
        out += [(r, loaded[r.episode_id]) for r in page]
    return out


def planned_trials(run: RunRow, facts: Sequence[EpisodeFact]) -> int:
    """k: the trials per instance the run was configured with, else the most any instance got."""
    configured = run.config.get("trials")
    if isinstance(configured, int) and configured >= 1:
        return configured
    counts = group_units(f.outcome() for f in facts)
    return max((len(v) for v in counts.values()), default=1)


def run_facts(auditor: Auditor, run_id: str, name: str | None = None) -> tuple[RunRow, RunFacts]:
    """The run and what must agree for it to be compared with another (``name``: how the
    comparison calls it, default the run id)."""
    run = run_row(auditor, run_id)
    loaded = run_episodes(auditor, run_id)
    facts = episode_facts(((r.episode_id, r.score, events) for r, events in loaded),
                          recorded_trials(run))
    return run, RunFacts(name or run_id, tuple(f.outcome() for f in facts),
                         run.config.get("split"), run.config.get("split_digest"),
                         tuple(sorted({f.grader_version for f in facts})),
                         tuple(sorted({f.reward_mode for f in facts})))


def run_figures(auditor: Auditor, run_id: str) -> dict[str, Any]:
    """The run's figures with intervals, flip rates and noise floor, from its episodes in the
    log (``results.figures.figures``); 0 units for a run whose episodes are elsewhere."""
    run, facts = run_facts(auditor, run_id)
    k = planned_trials(run, [])
    if not facts.outcomes:
        return {"units": 0, "episodes": 0, "note": "no episode of this run is in this database"}
    return figures(facts.outcomes, k)


def run_noise(auditor: Auditor, run_id: str) -> dict[str, Any]:
    """The run's noise floor and flip rates (``ticketledger noise``)."""
    run, facts = run_facts(auditor, run_id)
    units = group_units(facts.outcomes)
    out = figures(facts.outcomes, planned_trials(run, [])) if facts.outcomes else {}
    return {"run_id": run_id, "agent": run.agent, "units": len(units),
            "episodes": len(facts.outcomes), "noise_floor": noise(units),
            "flip_rate": out.get("flip_rate"), "flipped_units": out.get("flipped_units"),
            "repeated_units": out.get("repeated_units"),
            "task_flip_rates": out.get("task_flip_rates", {}),
            "mean_score": out.get("mean_score"), "success_rate": out.get("success_rate")}


class RunsNotComparable(BadRequest):
    code = "not_comparable"


def compare_runs(auditor: Auditor, run_a: str, run_b: str) -> dict[str, Any]:
    """``run_a`` minus ``run_b``, paired by instance and trial (:func:`results.figures.compare`);
    :class:`RunsNotComparable` (400) naming every reason when they cannot be paired."""
    _, a = run_facts(auditor, run_a, "a")
    _, b = run_facts(auditor, run_b, "b")
    if not a.outcomes or not b.outcomes:
        empty = run_a if not a.outcomes else run_b
        raise RunsNotComparable(f"run {empty!r} has no episodes in this database to compare")
    try:
        result = compare(a, b)
    except NotComparable as exc:
        raise RunsNotComparable(f"runs {run_a} (a) and {run_b} (b) are not comparable: {exc}") from None
    return {"run_a": run_a, "run_b": run_b, "split": a.split, "split_digest": a.split_digest,
            "grader_versions": list(a.grader_versions), "reward_modes": list(a.reward_modes),
            **result}
