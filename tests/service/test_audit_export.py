"""Export round trip: every exported step matches the log and what the agent saw; the file loads
with common dataset tools (pandas here, Hugging Face ``datasets`` when installed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from service import EnvironmentService
from service.audit_views import Auditor
from service.errors import BadRequest
from service.export import export_lines
from service.fork import fork
from store.queries import EpisodeFilter
from tests.audit_helpers import play_weak
from tests.play import play

pytestmark = pytest.mark.fresh_database  # reads the whole log: a database per test


@pytest.fixture
def recorded(service: EnvironmentService):  # type: ignore[no-untyped-def]
    """Episodes of two tasks and two policies, one with a seed, one forked and left open."""
    runs = {
        "expert": play(service, "task_easy_password", run_id="run_x"),
        "weak": play_weak(service, "task_easy_password", run_id="run_x"),
        "seeded": play(service, "task_hard_refund_policy_denial", seed=7, run_id="run_y"),
    }
    made = fork(Auditor(service.db), runs["weak"][0].episode_id, 1)
    service.step(made["episode_id"], {"action_type": "noop"})
    return runs


def _lines(service: EnvironmentService, **filters: str) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in export_lines(Auditor(service.db), EpisodeFilter(**filters))]


def test_every_exported_step_matches_the_log(service: EnvironmentService, recorded) -> None:  # type: ignore[no-untyped-def]
    records = {r["episode_id"]: r for r in _lines(service)}
    assert len(records) == 4  # 3 played + the fork
    keys = {tuple(r) for r in records.values()}
    assert len(keys) == 1, "every line has the same keys"
    for name in ("expert", "weak", "seeded"):
        results = recorded[name]
        record = records[results[0].episode_id]
        assert record["task_id"] == results[0].state.task.task_id
        assert record["seed"] == results[0].state.task.seed
        assert record["final_score"] == results[-1].state.score
        assert record["grader_version"] == results[-1].grade.grader_version
        assert record["num_steps"] == len(results) - 1 == len(record["steps"])
        log = service.store.load(results[0].episode_id)
        received = [r.data for r in log if r.type == "ActionReceived"]
        graded = [r.data for r in log if r.type == "StepGraded"]
        for index, step in enumerate(record["steps"]):
            # what the agent saw before acting is exactly what reset/step returned to it
            assert step["observation"] == results[index].observation.model_dump(mode="json")
            assert step["action"] == received[index]["raw"]
            assert step["reward"] == graded[index]["reward"] == results[index + 1].reward
            assert step["score"] == graded[index]["score"]
            assert step["done"] == results[index + 1].done
        assert record["head_hash"] == log[-1].hash
        if results[-1].done:
            assert sum(s["reward"] for s in record["steps"]) == pytest.approx(record["final_score"])


def test_export_filters_and_fork_origin(service: EnvironmentService, recorded) -> None:  # type: ignore[no-untyped-def]
    assert {r["run_id"] for r in _lines(service, run_id="run_x")} == {"run_x"}
    assert {r["task_id"] for r in _lines(service, task_id="task_hard_refund_policy_denial")} == {
        "task_hard_refund_policy_denial"}
    forked = [r for r in _lines(service) if r["forked_from"]]
    assert len(forked) == 1 and forked[0]["fork_step"] == 1
    assert forked[0]["forked_from"] == recorded["weak"][0].episode_id
    with pytest.raises(BadRequest):
        export_lines(Auditor(service.db), EpisodeFilter(), "csv")


def test_export_loads_with_dataset_tools(service: EnvironmentService, recorded, tmp_path: Path,  # type: ignore[no-untyped-def]
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    path = tmp_path / "episodes.jsonl"
    path.write_text("".join(export_lines(Auditor(service.db), EpisodeFilter())), encoding="utf-8")
    pandas = pytest.importorskip("pandas")
    frame = pandas.read_json(path, lines=True)
    assert len(frame) == 4 and {"task_id", "seed", "steps", "final_score"} <= set(frame.columns)
    datasets = pytest.importorskip("datasets")
    loaded = datasets.load_dataset("json", data_files=str(path), split="train",
                                   cache_dir=str(tmp_path / "hf-cache"))
    assert loaded.num_rows == 4
    by_id = {row["episode_id"]: row for row in loaded}
    expert = recorded["expert"]
    row = by_id[expert[0].episode_id]
    assert [s["reward"] for s in row["steps"]] == [r.reward for r in expert[1:]]
    assert row["steps"][0]["observation"]["customer_message"] == expert[0].observation.customer_message
