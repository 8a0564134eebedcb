"""Every task, in its published variant and in many seeded variants, can score exactly 1.0."""

from __future__ import annotations

import pytest

from domain.tasks import default_catalog
from service.scripted import solution

CATALOG = default_catalog()


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_scripted_solution_scores_one_on_published_variant(service, task_id: str) -> None:
    result = service.reset(task_id)
    for action in solution(service.state(result.episode_id).task):
        assert not result.done
        result = service.step(result.episode_id, action)
        assert result.observation.last_action_error is None, result.observation.last_action_error
    assert result.done
    assert result.state.score == 1.0
    assert sum(round(r * 10_000) for r in result.state.rewards) == 10_000


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_scripted_solution_scores_one_on_seeded_variants(service, task_id: str) -> None:
    cases = set()
    for seed in range(16):
        result = service.reset(task_id, seed=seed)
        task = service.state(result.episode_id).task
        cases.add(task.case)
        for action in solution(task):
            result = service.step(result.episode_id, action)
        assert result.state.score == 1.0, (task_id, seed, task.case)
    if len(CATALOG.spec(task_id).cases) > 1:
        assert len(cases) > 1, f"{task_id}: seeds never reach more than one case"
