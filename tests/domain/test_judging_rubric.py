"""The written judging rubric (domain/tasks/judging.json) is checked when the catalog loads:
one per case of every task, nothing else, and every {variable} it names exists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.tasks.catalog import default_catalog, load_catalog
from domain.tasks.judging import JUDGING_FILE


def test_every_case_of_every_task_has_a_filled_rubric() -> None:
    catalog = default_catalog()
    for spec in catalog.specs():
        for seed in (None, *range(12)):
            task = catalog.instance(spec.task_id, seed)
            rubric = catalog.judging_rubric(task)
            assert rubric is not None, (spec.task_id, task.case)
            assert "{" not in rubric.must + rubric.must_not, (spec.task_id, task.case)
    assert sum(len(c) for c in catalog.judging.values()) == sum(len(s.cases) for s in catalog.all_specs())


def _broken(tmp_path: Path, change: str) -> Path:
    data = json.loads(JUDGING_FILE.read_text(encoding="utf-8"))
    if change == "missing case":
        del data["task_hard_gdpr_deletion"]["legal_hold"]
    elif change == "unknown task":
        data["task_nope"] = data["task_easy_password"]
    elif change == "unknown variable":
        data["task_easy_password"]["default"]["must"] += " Mention {no_such_value}."
    elif change == "missing text":
        del data["task_easy_password"]["default"]["must_not"]
    path = tmp_path / "judging.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(("change", "message"), [
    ("missing case", "task_hard_gdpr_deletion has cases"),
    ("unknown task", "unknown tasks \\['task_nope'\\]"),
    ("unknown variable", "task_easy_password names the unknown variable 'no_such_value'"),
    ("missing text", "must_not"),
])
def test_a_broken_judging_file_fails_at_load(tmp_path: Path, change: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_catalog(judging_file=_broken(tmp_path, change))
