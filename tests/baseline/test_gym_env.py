"""``gymnasium.make("TicketLedger-v0", ...)`` and its vector form, on a real SQLite file.

Held to Gymnasium's own checker (``check_env``), to the environment service (a gold episode played
as text scores what the log records, step by step), and to the adapter's promises: a malformed
action is a recorded, penalised step, never an exception; a seeded reset replays; the vector
environment steps its episodes with one ``step_many`` a round.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

gym = pytest.importorskip("gymnasium", reason="Gymnasium is the gym extra: pip install -e '.[gym]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from baseline.gym_env import (  # noqa: E402
    ENV_ID,
    OBSERVATION_MAX_CHARS,
    TicketLedgerEnv,
    TicketLedgerVectorEnv,
    service_for,
)
from domain.tasks import default_catalog  # noqa: E402
from service import EnvironmentService  # noqa: E402
from service.gold import gold as gold_actions  # noqa: E402
from tests.servers import ROOT  # noqa: E402

CATALOG = default_catalog()


@pytest.fixture
def url(module_database_url: str) -> str:
    return module_database_url


@pytest.fixture
def service(url: str) -> EnvironmentService:
    """The service ``gymnasium.make(..., database_url=url)`` uses (one per URL and process)."""
    return service_for(url)


def gold(service: EnvironmentService, episode_id: str) -> list[dict[str, Any]]:
    state = service.state(episode_id)
    assert state.task is not None
    return gold_actions(state.task)


def received(service: EnvironmentService, episode_id: str) -> list[dict[str, Any]]:
    """The bodies the log recorded for the episode's steps, in order."""
    return [json.loads(r.data_text)["raw"] for r in service.store.load(episode_id)
            if r.type == "ActionReceived"]


@pytest.mark.parametrize("kwargs", [{"task_id": "task_medium_double_charge"}, {"split": "dev"},
                                    {"split": "train", "index": 5}, {}])
def test_gymnasium_checker_passes(url: str, kwargs: dict[str, Any]) -> None:
    env = gym.make(ENV_ID, database_url=url, **kwargs)
    check_env(env.unwrapped)
    assert isinstance(env.observation_space, gym.spaces.Text)
    assert isinstance(env.action_space, gym.spaces.Text)
    env.close()


def test_make_finds_the_environment_by_module_and_id(database_url: str) -> None:
    """In a fresh interpreter: ``ticketledger.gym:TicketLedger-v0`` imports the module, which
    registers the id for later ``make`` calls."""
    script = (
        "import gymnasium, json\n"
        "assert 'TicketLedger-v0' not in gymnasium.registry\n"
        f"env = gymnasium.make('ticketledger.gym:TicketLedger-v0', task_id='task_easy_password', "
        f"database_url={database_url!r})\n"
        "again = gymnasium.make('TicketLedger-v0', split='test', index=3, "
        f"database_url={database_url!r})\n"
        "obs, info = again.reset(seed=1)\n"
        "print(json.dumps([info['split'], info['index'], json.loads(obs)['task_id']]))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    ref = CATALOG.split_instance("test", 3)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == ["test", 3, ref.task_id]


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_gold_episode_as_text_scores_what_the_log_records(service: EnvironmentService,
                                                          task_id: str) -> None:
    env = TicketLedgerEnv(task_id=task_id, service=service)
    obs, info = env.reset(seed=11)
    assert info["task_id"] == task_id and info["seed"] == 11
    assert json.loads(obs)["task_id"] == task_id
    assert env.episode_id is not None
    total, terminated, truncated, step_info = 0.0, False, False, {}
    for action in gold(service, env.episode_id):
        assert not terminated
        obs, reward, terminated, truncated, step_info = env.step(json.dumps(action))
        assert obs in env.observation_space and "action_error" not in step_info
        total += reward
    state = service.state(env.episode_id)
    assert terminated and not truncated and state.done and state.end_reason in ("resolved", "closed")
    assert step_info["score"] == state.score == 1.0 and abs(total - 1.0) < 1e-9
    assert step_info["end_reason"] == state.end_reason
    assert set(step_info["components"]) == {c["name"] for c in step_info["grade"]["components"]}
    weights = {c["name"]: c["weight"] for c in step_info["grade"]["components"]}
    assert step_info["components"] == pytest.approx(weights)  # every component earned in full
    assert "resolution" in step_info["reason"]


def test_malformed_actions_are_recorded_penalised_steps(service: EnvironmentService) -> None:
    env = TicketLedgerEnv(task_id="task_easy_password", service=service)
    env.reset(seed=2)
    assert env.episode_id is not None
    sent = ["classify priority high", "[1, 2]",
            json.dumps({"action_type": "classify_priority", "priority": "asap"}),
            json.dumps({"action_type": "fly_to_the_moon"}), "\ud800 lone surrogate"]
    errors = []
    for step, action in enumerate(sent, start=1):
        _, reward, terminated, truncated, info = env.step(action)
        assert reward < 0 and not terminated and not truncated
        assert info["step"] == step and info["grade"]["penalties"]
        errors.append(info["action_error"])
    assert "not JSON" in errors[0] and "not a JSON list" in errors[1]
    assert "priority='asap' is not allowed; choose one of: low, medium, high, urgent" in errors[2]
    assert "action_type='fly_to_the_moon' is not allowed" in errors[3]
    state = service.state(env.episode_id)
    assert state.step_count == len(sent) and state.score == 0.0
    bodies = received(service, env.episode_id)
    assert [b["action_type"] for b in bodies] == ["noop"] * len(sent)
    assert [b["metadata"]["malformed_action"] for b in bodies[:4]] == sent[:4]
    assert bodies[2]["metadata"]["error"] == errors[2]
    # a well-formed action still counts after them
    _, reward, *_ = env.step(json.dumps({"action_type": "classify_priority", "priority": "medium"}))
    assert reward > 0


def test_a_missing_field_is_the_environments_own_penalised_step(service: EnvironmentService) -> None:
    env = TicketLedgerEnv(task_id="task_easy_password", service=service)
    env.reset(seed=2)
    _, reward, _, _, info = env.step(json.dumps({"action_type": "draft_reply"}))
    assert "action_error" not in info
    assert [p["rule"] for p in info["grade"]["penalties"]] == ["missing_field"] and reward < 0


def test_the_step_budget_truncates(service: EnvironmentService) -> None:
    env = TicketLedgerEnv(task_id="task_easy_refund_tag", service=service)
    _, info = env.reset(seed=0)
    outcomes = [env.step(json.dumps({"action_type": "add_internal_note", "note": f"looked {i}"}))
                for i in range(info["max_steps"])]
    assert [o[2] for o in outcomes] == [False] * info["max_steps"]
    assert [o[3] for o in outcomes] == [False] * (info["max_steps"] - 1) + [True]
    assert outcomes[-1][4]["end_reason"] == "max_steps"
    with pytest.raises(gym.error.ResetNeeded, match="has ended"):
        env.step(json.dumps({"action_type": "noop"}))


def test_longest_observations_stay_in_the_space(service: EnvironmentService) -> None:
    """Every step a note at its length limit in characters JSON escapes to twelve, on the task
    with the largest step budget: the observation still fits ``OBSERVATION_MAX_CHARS``."""
    longest = max(CATALOG.all_specs(), key=lambda s: s.max_steps)
    env = TicketLedgerEnv(task_id=longest.task_id, service=service)
    obs, _ = env.reset(seed=0)
    done, first, size = False, len(obs), len(obs)
    while not done:
        obs, _, terminated, truncated, _ = env.step(json.dumps(
            {"action_type": "add_internal_note", "note": "\U0001f600" * 2000}))
        done, size = terminated or truncated, max(size, len(obs))
        assert obs in env.observation_space
    assert 10 * first < size < OBSERVATION_MAX_CHARS


def test_seeded_resets_replay(service: EnvironmentService) -> None:
    env = TicketLedgerEnv(split="train", service=service)
    first = env.reset(seed=42)
    later = [env.reset() for _ in range(3)]
    assert env.reset(seed=42) == first and [env.reset() for _ in range(3)] == later
    assert len({info["index"] for _, info in [first, *later]}) > 1  # the index is drawn
    ref = CATALOG.split_instance("train", first[1]["index"])
    assert (first[1]["task_id"], first[1]["seed"]) == (ref.task_id, ref.seed)
    plain = TicketLedgerEnv(task_id="task_hard_refund_fraud_trap", service=service)
    assert plain.reset(seed=5)[1]["seed"] == 5
    assert len({plain.reset(seed=s)[0] for s in range(8)}) > 1  # the seed picks the variant


def test_reset_options_choose_one_episode(service: EnvironmentService) -> None:
    env = TicketLedgerEnv(task_id="task_easy_password", service=service)
    _, info = env.reset(seed=1, options={"split": "dev", "index": 2, "reward_mode": "binary"})
    assert (info["split"], info["index"], info["reward_mode"]) == ("dev", 2, "binary")
    assert env.reset(seed=1)[1]["task_id"] == "task_easy_password"
    with pytest.raises(ValueError, match="unknown reset option 'colour'"):
        env.reset(options={"colour": "red"})


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"task_id": "task_nope"}, "unknown task_id 'task_nope'"),
    ({"task_id": "task_easy_password", "split": "dev"}, "not both"),
    ({"split": "holdout"}, "unknown split 'holdout'"),
    ({"split": "dev", "index": 10_000}, "index"),
    ({"index": 3}, "index needs a split"),
    ({"reward_mode": "lottery"}, "lottery"),
])
def test_bad_arguments_say_what_to_pass(url: str, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        gym.make(ENV_ID, database_url=url, **kwargs)


def test_vector_env_steps_every_episode_with_one_step_many(url: str, service: EnvironmentService,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = service.step_many

    def counted(steps: Any) -> Any:
        calls.append(len(steps))
        return real(steps)

    monkeypatch.setattr(service, "step_many", counted)
    envs = gym.make_vec(ENV_ID, 3, vectorization_mode="vector_entry_point",
                        task_id="task_medium_double_charge", database_url=url)
    assert isinstance(envs.unwrapped, TicketLedgerVectorEnv)
    obs, infos = envs.reset(seed=100)
    assert list(infos["seed"]) == [100, 101, 102] and len(obs) == 3
    ids = list(envs.unwrapped.episode_ids)
    plans = [gold(service, eid) for eid in ids]
    malformed_round = 1
    rounds = max(len(p) for p in plans) + 1
    totals = [0.0, 0.0, 0.0]
    finished: dict[int, dict[str, Any]] = {}
    for r in range(rounds):
        calls.clear()
        actions = []
        for i, plan in enumerate(plans):
            k = r - (1 if i == 0 and r > malformed_round else 0)
            if i == 0 and r == malformed_round:
                actions.append("{not json")
            elif i in finished or k >= len(plan):
                actions.append(json.dumps({"action_type": "noop"}))
            else:
                actions.append(json.dumps(plan[k]))
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        assert len(obs) == 3 and not truncated.any()
        assert len(calls) == 1  # one batch, whatever the mix of good and malformed actions
        if r == malformed_round:
            assert infos["_action_error"][0] and not infos["_action_error"][1:].any()
            assert "not JSON" in infos["action_error"][0]
        for i in range(3):
            if i not in finished:
                totals[i] += rewards[i]
                if terminated[i]:
                    finished[i] = {"score": infos["score"][i], "round": r}
        if len(finished) == 3:
            break
    assert all(service.state(eid).done for eid in ids)
    assert [finished[i]["score"] for i in range(3)] == [service.state(e).score for e in ids]
    assert finished[1]["score"] == finished[2]["score"] == 1.0 and finished[0]["score"] < 1.0
    assert totals[1] == pytest.approx(1.0) and totals[0] == pytest.approx(finished[0]["score"])
    # sub-environment 0 ended last: the next step resets it (its action ignored, reward 0) and
    # steps the others, which were reset when it ended
    assert finished[0]["round"] > finished[1]["round"]
    before = list(envs.unwrapped.episode_ids)
    _, rewards, terminated, _, infos = envs.step(["{not json"] * 3)
    assert rewards[0] == 0.0 and rewards[1] < 0 and rewards[2] < 0 and not terminated.any()
    after = envs.unwrapped.episode_ids
    assert after[0] != before[0] and after[1:] == before[1:]
    assert list(infos["_task_id"]) == [True, False, False]
    assert list(infos["_action_error"]) == [False, True, True]
    envs.close()
