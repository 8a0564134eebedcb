"""The work every section replays: full episodes of the scripted expert over every task.

The actions come from ``bench/scripted.py`` (the proof that every variant can score 1.0), so an
episode exercises every action type, the rubric and the terminal grade, and ends by itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bench.scripted import solution
from domain.tasks.catalog import Catalog, default_catalog


@dataclass(frozen=True)
class Plan:
    task_id: str
    seed: int | None
    actions: tuple[dict[str, Any], ...]


def plans(seeds: tuple[int | None, ...] = (None, 1, 2, 3), catalog: Catalog | None = None) -> list[Plan]:
    """One plan per (task, seed): the published variant and a few seeded ones by default."""
    catalog = catalog or default_catalog()
    return [Plan(task_id, seed, tuple(solution(catalog.instance(task_id, seed))))
            for seed in seeds for task_id in catalog.task_ids]


def steps_in(plan_list: list[Plan]) -> int:
    return sum(len(p.actions) for p in plan_list)
