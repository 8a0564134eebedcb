"""The verifiers-free part of the verifiers plugin (``baseline/verifiers_env.py``), in-process on a
real SQLite file: the turns a model sees, its answers as recorded steps, the recorded score.
verifiers itself drives it in the slow tier (``tests/e2e/test_verifiers_env.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baseline.verifiers_env import Episode, connect, instances
from domain.tasks import default_catalog
from service import EnvironmentService
from service.gold import gold
from store import open_database


def test_splits_are_the_manifest_instances() -> None:
    dev = instances("dev")
    refs = default_catalog().split("dev")
    assert [(i.task_id, i.seed) for i in dev] == [(r.task_id, r.seed) for r in refs]
    assert [i.index for i in dev] == list(range(len(refs)))
    with pytest.raises(ValueError, match="train, dev, test"):
        instances("validation")


def test_expert_answers_score_what_the_log_records(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'vf.db'}"
    plan = gold(default_catalog().instance("task_easy_password", 7))
    episode = Episode(connect(database_url=url), "task_easy_password", 7)
    turn = episode.start()
    assert turn.startswith("Observation:\n") and turn.endswith("one JSON object.")
    for action in plan:
        assert turn is not None
        turn = episode.act(json.dumps(action))
    assert turn is None and episode.done
    outcome = episode.outcome()
    state = EnvironmentService(open_database(url)).state(outcome.episode_id)
    assert outcome.score == state.score == 1.0
    assert outcome.steps == state.step_count == len(plan) and outcome.malformed == 0
    assert sum(outcome.components.values()) == pytest.approx(1.0)


def test_an_answer_that_is_not_an_action_is_a_recorded_noop(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'vf.db'}"
    ref = instances("train")[3]
    episode = Episode(connect(database_url=url), ref.task_id, ref.seed)
    episode.start()
    turn = episode.act("I would set the priority to high.")
    assert turn is not None and turn.startswith("Your last answer was not an action: ")
    turn = episode.act('{"action_type": "classify_priority", "priority": "asap"}')
    assert turn is not None and "asap" in turn.split("Observation:")[0]
    assert episode.malformed == 2
    state = EnvironmentService(open_database(url)).state(episode.episode_id or "")
    assert [a.action_type for s in state.steps for a in s.actions] == ["noop", "noop"]
    assert json.loads(state.steps[0].raw.text)["metadata"]["malformed_action"] == (
        "I would set the priority to high.")
    assert state.score < 0.0 or state.penalty_units > 0
