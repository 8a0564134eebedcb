"""The gold of every task, classic and family, is data that solves it: played through the real
service, the gold (:func:`service.gold.gold`, the answer key's actions with the ``gold.json`` texts)
covers every case, and the classic tasks' gold scores exactly 1.0 on the published variant and on
many seeds. That it scores at least 0.95 on every family instance, the case reached, is what
``tasks verify`` checks (its run over every instance is in ``tests/evaluation``'s slow tier).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from domain.tasks import default_catalog
from domain.tasks.gold import GoldTexts, check_gold, default_gold, gold_problems, load_gold
from service import EnvironmentService
from service.gold import gold

CATALOG = default_catalog()


def test_the_gold_covers_every_case_of_every_task() -> None:
    assert check_gold(CATALOG, default_gold()) == []
    assert {t for t in default_gold()} == {s.task_id for s in CATALOG.all_specs()}


def test_a_gold_file_that_misses_a_weighed_reply_is_reported(tmp_path: Path) -> None:
    spec = CATALOG.spec("task_hard_gdpr_deletion")
    partial = {spec.task_id: GoldTexts(replies={"scheduled": "Hi {first}."})}
    assert gold_problems(spec, partial) == [
        "task_hard_gdpr_deletion: case 'legal_hold' weighs a reply but has no gold reply"]
    (tmp_path / "gold.json").write_text('{"task_nope": {"replies": {}}}', encoding="utf-8")
    assert "gold for the unknown task 'task_nope'" in check_gold(
        CATALOG, load_gold(tmp_path / "gold.json", tmp_path))


def _play(service: EnvironmentService, task_id: str, seed: int | None) -> tuple[float, str]:
    result = service.reset(task_id, seed=seed)
    task = service.state(result.episode_id).task
    for action in gold(task):
        assert not result.done
        result = service.step(result.episode_id, action)
        assert result.observation.last_action_error is None, result.observation.last_action_error
    assert result.done
    return result.state.score, task.case


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_the_gold_scores_one_on_the_published_variant(service: EnvironmentService,
                                                      task_id: str) -> None:
    result = service.reset(task_id)
    for action in gold(service.state(result.episode_id).task):
        assert not result.done
        result = service.step(result.episode_id, action)
        assert result.observation.last_action_error is None, result.observation.last_action_error
    assert result.done
    assert result.state.score == 1.0
    assert sum(round(r * 10_000) for r in result.state.rewards) == 10_000


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_the_gold_scores_one_on_seeded_variants(service: EnvironmentService, task_id: str) -> None:
    cases = set()
    for seed in range(16):
        score, case = _play(service, task_id, seed)
        cases.add(case)
        assert score == 1.0, (task_id, seed, case)
    if len(CATALOG.spec(task_id).cases) > 1:
        assert len(cases) > 1, f"{task_id}: seeds never reach more than one case"
