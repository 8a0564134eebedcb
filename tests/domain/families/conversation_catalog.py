"""The multi-turn families (``missing_order``, ``verify_identity``, ``late_refund``) in a catalog
of their own, with the packaged policies, until the family loader (fam-core, issue 18) serves them;
and a helper that plays a solver through a real ``EnvironmentService``."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from domain.tasks.catalog import Catalog, default_catalog
from domain.tasks.judging import JudgingRubric
from domain.tasks.spec import TaskSpec
from service import EnvironmentService
from service.environment import StepResult

FAMILIES_DIR = Path(__file__).resolve().parents[3] / "domain" / "tasks" / "families"
CONVERSATION_FAMILIES = ("missing_order", "verify_identity", "late_refund")


def family_spec(family: str) -> tuple[TaskSpec, dict[str, JudgingRubric]]:
    folder = FAMILIES_DIR / family
    spec = TaskSpec.model_validate_json((folder / "spec.json").read_text(encoding="utf-8"))
    raw = json.loads((folder / "judging.json").read_text(encoding="utf-8"))
    return spec, {case: JudgingRubric.model_validate(r) for case, r in raw.items()}


@cache
def conversation_catalog() -> Catalog:
    """The classic policies with the multi-turn families' specs and judging rubrics."""
    specs, judging = [], {}
    for family in CONVERSATION_FAMILIES:
        spec, rubric = family_spec(family)
        specs.append(spec)
        judging[spec.task_id] = rubric
    return Catalog(specs, default_catalog().policies, judging)


Solver = Callable[[Mapping[str, Any]], dict[str, Any]]


def play(service: EnvironmentService, task_id: str, seed: int, act: Solver) -> StepResult:
    """One episode of ``task_id`` at ``seed``, every action chosen by ``act`` from the observation
    as JSON (what a remote agent gets)."""
    result = service.reset(task_id, seed=seed)
    while not result.done:
        result = service.step(result.episode_id, act(result.observation.model_dump(mode="json")))
    return result
