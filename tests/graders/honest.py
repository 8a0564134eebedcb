"""Honest replies played through the real service: the episodes ``test_honest_replies.py`` and
``test_honest_family_replies.py`` check, and the score table this module prints. The replies, how
their templates are filled and how they go into the correct work are the product's
(:mod:`evaluation.grader_audit.honest`).

Run ``python -m tests.graders.honest`` for the table of today's scores per task, case and reply,
and the built-in policy's beside them (on a throwaway SQLite file).
"""

from __future__ import annotations

import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.tasks import default_catalog
from domain.tasks.spec import TaskInstance
from evaluation.grader_audit.honest import (
    DATA_FILE,
    FAMILY_DATA_FILE,
    HONEST_THRESHOLD,
    MIN_PER_CASE,
    CaseTexts,
    MalformedReplies,
    fill,
    load,
    placeholders,
)
from evaluation.grader_audit.honest import actions as honest_actions
from service import EnvironmentService
from service.gold import gold
from tests.play import play

__all__ = ["DATA_FILE", "FAMILY_DATA_FILE", "HONEST_THRESHOLD", "MIN_PER_CASE", "CaseTexts",
           "MalformedReplies", "fill", "load", "placeholders"]

FAMILY_SEEDS_PER_CASE = 2
SEEDS: tuple[int | None, ...] = (None, 0, 1, 2, 3, 4, 5, 6, 7)
"""The published variant and seeds 0-7: together they reach every case of every task (a test checks
it), and both identity bundles of each case of the email-change task."""


def actions(task: TaskInstance, reply: str, note: str | None) -> list[dict[str, Any]]:
    """The gold player's actions for this variant with the honest reply (and note) in place."""
    return honest_actions(gold(task), reply, note)


@dataclass(frozen=True)
class Played:
    task_id: str
    case: str
    index: int
    seed: int | None
    score: float
    reply_share: float | None  # earned / weight of the reply component, None when not weighed
    note_share: float | None
    errors: tuple[str, ...]  # last_action_error of any step (an honest episode has none)
    done: bool


def honest_episode(service: EnvironmentService, task_id: str, seed: int | None, index: int,
                   texts: dict[tuple[str, str], CaseTexts]) -> Played:
    """One correct episode of (task, seed) with honest reply ``index`` (and note ``index``, cycling
    when a case has fewer notes than replies)."""
    task = service.catalog.instance(task_id, seed)
    case = texts[(task_id, task.case)]
    reply = fill(case.replies[index], task)
    note = fill(case.notes[index % len(case.notes)], task) if case.notes else None
    work = actions(task, reply, note)
    results = play(service, task_id, work, seed=seed)
    errors = [f"{action['action_type']}: {result.observation.last_action_error}"
              for action, result in zip(work, results[1:], strict=False)
              if result.observation.last_action_error]
    if len(results) - 1 < len(work):
        errors.append(f"episode ended before {work[len(results) - 1]['action_type']}")
    result = results[-1]
    shares: dict[str, float] = {}
    if result.grade is not None:
        for component in result.grade.components:
            if component.weight:
                shares[component.name] = component.earned / component.weight
    return Played(task_id, task.case, index, seed, result.state.score, shares.get("reply"),
                  shares.get("note"), tuple(errors), result.done)


def seeds_of(task_id: str, case: str) -> list[int | None]:
    """The seeds of ``SEEDS`` whose variant of ``task_id`` falls in ``case`` (a classic task), or
    :func:`family_seeds` (a task family)."""
    catalog = default_catalog()
    if task_id.startswith("task_family_"):
        return list(family_seeds(task_id, case))
    return [s for s in SEEDS if catalog.instance(task_id, s).case == case]


def family_seeds(task_id: str, case: str) -> tuple[int, ...]:
    """The first :data:`FAMILY_SEEDS_PER_CASE` instances of the family's test split in ``case``."""
    refs = [r for r in default_catalog().split("test") if r.task_id == task_id and r.case == case]
    return tuple(r.seed for r in refs[:FAMILY_SEEDS_PER_CASE])


def score_table(service: EnvironmentService) -> list[Played]:
    """Every honest reply of every task and case, played on every seed of ``SEEDS`` in its case."""
    texts = load()
    rows: list[Played] = []
    for (task_id, case), entry in texts.items():
        for index in range(len(entry.replies)):
            for seed in seeds_of(task_id, case):
                rows.append(honest_episode(service, task_id, seed, index, texts))
    return rows


def policy_scores(service: EnvironmentService) -> dict[tuple[str, str], list[float]]:
    """The built-in policy's final scores per (task, case) over the same seeds, for comparison: it
    is meant to land between the adversaries and these replies."""
    from baseline.policy import BUILTIN_POLICY

    out: dict[tuple[str, str], list[float]] = {}
    for task_id in default_catalog().task_ids:
        for seed in SEEDS:
            state = play(service, task_id, BUILTIN_POLICY, seed=seed)[-1].state
            assert state.task is not None
            out.setdefault((task_id, state.task.case), []).append(state.score)
    return out


def format_policy_table(rows: list[Played], policy: dict[tuple[str, str], list[float]]) -> str:
    """Per (task, case): the honest replies' lowest and mean score beside the built-in policy's."""
    lines = ["| task | case | honest min | honest mean | policy min | policy mean |",
             "|---|---|---|---|---|---|"]
    for (task_id, case), scores in policy.items():
        honest = [r.score for r in rows if (r.task_id, r.case) == (task_id, case)]
        lines.append(f"| {task_id} | {case} | {min(honest):.4f} | {sum(honest) / len(honest):.4f} | "
                     f"{min(scores):.4f} | {sum(scores) / len(scores):.4f} |")
    return "\n".join(lines)


def format_table(rows: list[Played], grader_version: str) -> str:
    """One line per (task, case, reply index): the lowest and mean final score over its seeds and
    the lowest reply (and note) share, as a markdown table."""
    groups: dict[tuple[str, str, int], list[Played]] = {}
    for row in rows:
        groups.setdefault((row.task_id, row.case, row.index), []).append(row)
    lines = [f"Honest replies under {grader_version} (threshold {HONEST_THRESHOLD})", "",
             "| task | case | reply | seeds | min score | mean score | min reply share "
             "| min note share | >= threshold |",
             "|---|---|---|---|---|---|---|---|---|"]
    passed = 0
    for (task_id, case, index), group in groups.items():
        scores = [r.score for r in group]
        low = min(scores)
        passed += low >= HONEST_THRESHOLD
        reply = [r.reply_share for r in group if r.reply_share is not None]
        note = [r.note_share for r in group if r.note_share is not None]
        lines.append(
            f"| {task_id} | {case} | {index} | {len(group)} | {low:.4f} | "
            f"{sum(scores) / len(scores):.4f} | {f'{min(reply):.2f}' if reply else '-'} | "
            f"{f'{min(note):.2f}' if note else '-'} | {'yes' if low >= HONEST_THRESHOLD else 'no'} |")
    lines += ["", f"{passed}/{len(groups)} replies reach {HONEST_THRESHOLD} on every seed; "
              f"{len(rows)} episodes, mean score {sum(r.score for r in rows) / len(rows):.4f}"]
    return "\n".join(lines)


def main() -> int:
    """Print today's score table, played on a throwaway SQLite file."""
    from graders.versions import CURRENT
    from store import open_database

    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(f"sqlite:///{Path(tmp) / 'honest.db'}")
        try:
            service = EnvironmentService(db)
            rows = score_table(service)
            policy = policy_scores(service)
        finally:
            db.dispose()
    print(format_table(rows, CURRENT))
    print()
    print(format_policy_table(rows, policy))
    bad = [r for r in rows if r.errors or not r.done]
    for r in bad:
        print(f"episode error: {r.task_id} seed={r.seed} reply={r.index}: {r.errors}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
