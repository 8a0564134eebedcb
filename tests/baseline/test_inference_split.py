"""``python inference.py --split``: the split's instances, in split order, under the stdout contract;
and the TRL adapter's reset by split and index."""

from __future__ import annotations

from pathlib import Path

import pytest

from baseline.trl_env import environment_factory
from domain.tasks import default_catalog
from service.errors import BadRequest
from tests.baseline.inference_helpers import run_inference
from tests.baseline.split_table import cell, split_scores
from tests.databases import sqlite_pass_only

pytestmark = sqlite_pass_only("the run's plan and stdout; the store is tested on both backends elsewhere")

CATALOG = default_catalog()


def test_split_runs_its_instances_in_order_with_the_task_id_on_each_line(tmp_path: Path) -> None:
    run = run_inference({"DATABASE_URL": f"sqlite:///{tmp_path / 'split.db'}", "SPLIT": "test"},
                        "--agent", "policy", "--limit", "4", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    refs = CATALOG.split("test")[:4]
    assert [b.task for b in run.blocks] == [r.task_id for r in refs]
    for ref in refs:  # the seed of each instance went to reset
        assert f"{ref.task_id} seed={ref.seed} " in run.stderr


@pytest.mark.parametrize(("args", "words"), [
    (("--split", "holdout"), "SPLIT"),
    (("--split", "test", "--seed", "3"), "SEED and VARIANTS do not go with it"),
    (("--limit", "3"), "set SPLIT too"),
    (("--split", "test", "--tasks", "task_easy_password"), "no instance in a split"),
])
def test_split_settings_that_cannot_be_used_are_refused(tmp_path: Path, args: tuple[str, ...],
                                                         words: str) -> None:
    run = run_inference({"DATABASE_URL": f"sqlite:///{tmp_path / 'bad.db'}"}, "--agent", "policy",
                        *args, cwd=tmp_path, contract=False)
    assert run.returncode == 2 and words in run.stderr and run.stdout == ""


def test_trl_reset_by_split_and_index(tmp_path: Path) -> None:
    env = environment_factory(database_url=f"sqlite:///{tmp_path / 'trl.db'}")()
    ref = CATALOG.split_instance("train", 2)
    first = env.reset(split="train", index=2)
    assert env.task_id == ref.task_id and first.startswith("\n\nObservation:")
    assert CATALOG.instance(ref.task_id, ref.seed).ticket.subject in first
    with pytest.raises(BadRequest, match="from 0 to"):
        env.reset(split="train", index=10**6)


def _docs_table() -> dict[str, dict[str, str]]:
    text = (Path(__file__).resolve().parents[2] / "docs" / "tasks.md").read_text(encoding="utf-8")
    section = text.split("## The built-in policy on the families", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return {row.split("|")[1].strip().strip("`"): dict(zip(("train", "dev", "test"),
            (c.strip() for c in row.split("|")[2:5]), strict=True)) for row in rows}


@pytest.mark.slow
def test_the_docs_table_of_the_test_split_is_what_inference_prints(tmp_path: Path) -> None:
    scores = split_scores("test", tmp_path)
    table = _docs_table()
    assert set(table) == set(scores) == {t.removeprefix("task_family_") for t in CATALOG.family_ids}, \
        "regenerate the table of docs/tasks.md: python -m tests.baseline.split_table"
    for family, values in scores.items():
        assert table[family]["test"] == cell(values), family
