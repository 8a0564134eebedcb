"""The TRL adapter (``baseline/trl_env.py``), driven the way TRL drives it: a no-argument
instance, ``reset(**row)``, then its public methods as tools; here the gold player
(``service/gold.py``) plays instead of a model, in-process and against a live server.

TRL is not installed in the plain tier (it needs torch): these tests hold the adapter to the
contract its documentation states (every public method but ``reset`` and ``get_reward`` is a
tool, with typed arguments and an ``Args:`` section; an exception is what the model reads back).
The slow tier, which has the train extra, reads each tool's schema with transformers' own
``get_json_schema`` and runs the real GRPO training (``tests/baseline/test_grpo_training.py``).
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from baseline.trl_env import (
    END_TEXT,
    RETURNS,
    TicketLedgerToolEnv,
    changes,
    component_names,
    component_reward_funcs,
    end_open_episodes,
    environment_factory,
    finish_run,
    reward_func,
    training_rows,
)
from domain.tasks import default_catalog
from domain.vocabulary import ActionType, Priority
from service.audit_views import Auditor
from service.gold import gold
from service.tools import TOOLS_BY_NAME
from store import open_database
from store.eventstore import EventStore
from store.runs import RunStore
from tests.databases import sqlite_pass_only
from tests.servers import LiveServer, free_port, wait_healthy

pytestmark = sqlite_pass_only("the adapter's methods and messages"
                              "; the store is tested on both backends elsewhere")

CATALOG = default_catalog()
REPO = Path(__file__).resolve().parents[2]


def _play(env: TicketLedgerToolEnv, task_id: str, seed: int | None, **row: Any) -> list[str]:
    """Reset with a dataset row, then call one tool per scripted action, as TRL would."""
    answers = [env.reset(prompt=[{"role": "user", "content": "..."}], task_id=task_id, seed=seed, **row)]
    for action in gold(CATALOG.instance(task_id, seed)):
        fields = {k: v for k, v in action.items() if k != "action_type"}
        answers.append(getattr(env, action["action_type"])(**fields))
    return answers


def test_the_public_methods_are_reset_and_one_tool_per_action() -> None:
    env = environment_factory(database_url="sqlite:///unused.db")()
    public = {name for name in dir(env) if not name.startswith("_") and callable(getattr(env, name))}
    assert public == {"reset", "get_reward", *ActionType.allowed()}


def _trl_tools(env: TicketLedgerToolEnv) -> list[Any]:
    """The tools TRL 1.16's ``GRPOTrainer`` collects from an environment: the class's public
    functions but ``reset`` and ``get_reward``, bound to the instance."""
    return [getattr(env, name) for name, _ in inspect.getmembers(type(env), predicate=inspect.isfunction)
            if name not in ("reset", "get_reward") and not name.startswith("_")]


@pytest.mark.slow
def test_the_schema_trl_reads_from_each_tool_method_is_the_declared_one() -> None:
    """transformers' ``get_json_schema`` (what TRL renders the tools with) on each method: the
    tool's declared function (``service.tools.Tool.function``), its vocabularies as enums."""
    if importlib.util.find_spec("transformers") is None:
        message = "the train extra is not installed (transformers): pip install -e '.[train]'"
        if os.environ.get("CI"):
            pytest.fail(message + " (CI runs the slow tier with it)")
        pytest.skip(message)
    from transformers.utils import get_json_schema

    tools = _trl_tools(environment_factory(database_url="sqlite:///unused.db")())
    assert sorted(t.__name__ for t in tools) == sorted(ActionType.allowed())
    returns = {"type": "string", "description": RETURNS}
    for tool in tools:
        declared = TOOLS_BY_NAME[tool.__name__]
        assert get_json_schema(tool) == {"type": "function",
                                         "function": {**declared.function(), "return": returns}}
    priority = get_json_schema(TicketLedgerToolEnv().classify_priority)["function"]["parameters"]
    assert priority["properties"]["priority"]["enum"] == Priority.allowed()


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_a_scripted_expert_playing_through_the_tools_scores_one(database_url: str, task_id: str) -> None:
    cls = environment_factory(database_url=database_url)
    env = cls()
    answers = _play(env, task_id, 3)
    # TRL appends reset's text to the instruction: it starts on a line of its own
    assert answers[0].startswith("\n\nObservation:\n{") and '"task_id":"' + task_id in answers[0]
    assert all(a.startswith("reward=") for a in answers[1:])
    assert all("\nChanged:\n{" in a for a in answers[1:-1])  # compact: what changed
    assert answers[-1].endswith(END_TEXT)
    assert env.done and env.score == 1.0 and env.task_id == task_id
    assert env.reward == pytest.approx(1.0, abs=1e-6)  # dense rewards add up to the score
    assert env.get_reward() == env.reward
    assert reward_func([env, cls()]) == [env.reward, 0.0]


def test_reward_modes_come_from_the_row_and_a_second_episode_starts_clean(database_url: str) -> None:
    env = environment_factory(database_url=database_url, reward_mode="binary")()
    _play(env, "task_easy_password", 0)
    assert env.reward == 1.0 and env.score == 1.0
    first = env.episode_id
    _play(env, "task_easy_refund_tag", 1, reward_mode="sparse")
    assert env.episode_id != first and env.steps == len(gold(CATALOG.instance("task_easy_refund_tag", 1)))
    assert env.reward == pytest.approx(1.0)
    env.reset(task_id="task_easy_password", seed=2, reward_mode="sparse")
    assert (env.reward, env.done, env.steps, env.score) == (0.0, False, 0, None)
    assert env.classify_priority("high").startswith("reward=0.0000 done=false")  # sparse: paid at the end


def test_what_the_model_did_wrong_comes_back_as_an_exception_that_says_so(database_url: str) -> None:
    env = environment_factory(database_url=database_url)()
    with pytest.raises(ValueError, match=r"no episode: reset\(\) starts one"):
        env.noop()
    env.reset(task_id="task_easy_password", seed=None)
    with pytest.raises(ValueError, match="resolution_code='bogus' is not allowed"):
        env.close_ticket("bogus")  # without its argument it would be a valid close: not recorded
    assert env.steps == 0 and env.malformed_calls == 1
    # a malformed argument of an action with a required field costs the step it took
    with pytest.raises(ValueError, match=r"(?s)priority='asap' is not allowed; choose one of: low, "
                                         r"medium.*Recorded as a rejected step:\nreward=-"):
        env.classify_priority("asap")
    with pytest.raises(ValueError, match="at most two decimals"):
        env.issue_refund(1.234)
    assert env.steps == 2 and env.malformed_calls == 3 and env.reward < 0
    answer = env.resolve_ticket("awaiting_customer_confirmation")  # a rule, not a malformed action
    assert not env.done and '"history+":["step 3: resolve_ticket' in answer and env.steps == 3
    for action in gold(CATALOG.instance("task_easy_password")):
        getattr(env, action["action_type"])(**{k: v for k, v in action.items() if k != "action_type"})
    assert env.done
    with pytest.raises(ValueError, match=r"the episode is over \(score 0\.\d+\); stop calling tools"):
        env.noop()
    assert env.calls_after_end == 1
    rejected = [e.data["reason"] for e in EventStore(open_database(database_url)).load(env.episode_id or "")
                if e.type == "ActionRejected"]
    assert rejected[:2] == ["classify_priority needs a non-empty 'priority'",  # the malformed calls
                            "issue_refund needs a non-empty 'amount'"]


def test_against_a_live_server(live_server: LiveServer) -> None:
    cls = environment_factory(base_url=live_server.url, model="tiny-lm")
    env, other = cls(), cls()
    _play(env, "task_hard_refund_fraud_trap", 4)
    assert env.done and env.score == 1.0 and env.reward == pytest.approx(1.0, abs=1e-6)
    first = env.episode_id
    _play(env, "task_hard_gdpr_deletion", 5, reward_mode="binary")
    assert env.reward == 1.0
    other.reset(task_id="task_easy_password", seed=0)  # another connection joins the same run
    assert cls.run_id is not None
    runs = RunStore(open_database(live_server.database_url))
    assert runs.get(cls.run_id).agent == "trl-grpo:tiny-lm"
    assert {e.episode_id for e in runs.episodes(cls.run_id)} == {first, env.episode_id, other.episode_id}
    finish_run(cls, {"steps": 0})
    assert runs.get(cls.run_id).status == "finished"


@pytest.mark.parametrize("where", ["in_process", "server"])
def test_a_rollout_the_trainer_cut_off_is_ended_at_the_next_reset_and_at_teardown(
        where: str, request: pytest.FixtureRequest) -> None:
    """TRL stops a rollout at its tool-call or token budget without telling the environment;
    the next ``reset`` of the pooled instance ends that episode as ``cut_off`` (a limit: the
    score it earned stays, nothing is paid), and ``finish_run`` ends what the last batch left."""
    if where == "server":
        server: LiveServer = request.getfixturevalue("live_server")
        cls, url = environment_factory(base_url=server.url), server.database_url
    else:
        url = request.getfixturevalue("database_url")
        cls = environment_factory(database_url=url)
    env = cls()
    env.reset(task_id="task_medium_double_charge", seed=3)
    env.classify_priority("high")
    env.assign_queue("billing")
    store, auditor = EventStore(open_database(url)), Auditor(open_database(url))
    cut, reward = env.episode_id, env.get_reward()
    assert cut is not None and not env.done
    score_before = store.episode(cut).score
    env.reset(task_id="task_easy_password", seed=0)
    recorded = store.load(cut)
    assert [r.type for r in recorded[-2:]] == ["StepGraded", "EpisodeEnded"]
    assert recorded[-1].data == {"reason": "cut_off"}
    report = auditor.replay(cut)
    assert report["consistent"] and report["closing"]["reason"] == "cut_off"
    assert report["recorded_score"] == report["recomputed_score"] == score_before
    assert sum(s["agent_reward"] for s in report["steps"]) == pytest.approx(reward)
    row = store.episode(cut)
    assert (row.status, row.step_count) == ("ended", 2)
    # an episode the model finished is not ended again
    for action in gold(CATALOG.instance("task_easy_password", 0)):
        getattr(env, action["action_type"])(**{k: v for k, v in action.items() if k != "action_type"})
    finished = env.episode_id
    assert env.done and finished is not None
    env.reset(task_id="task_easy_password", seed=1)
    ends = store.load(finished)
    assert ends[-1].type == "StepGraded" and [r.type for r in ends].count("EpisodeEnded") == 1
    # teardown: the pool's open episodes, and only those
    idle = cls()
    left = env.episode_id
    assert end_open_episodes(cls) == 1 and end_open_episodes(cls) == 0 and idle.episode_id is None
    assert store.load(left or "")[-1].data == {"reason": "cut_off"} and env.done


def test_against_a_server_without_post_end_a_cut_off_rollout_stays_open_and_it_is_said_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old_db, port, log_path = f"sqlite:///{tmp_path / 'old.db'}", free_port(), tmp_path / "old.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "tests.baseline.old_server", str(port)],
                                   cwd=REPO, env={**os.environ, "DATABASE_URL": old_db},
                                   stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_healthy(f"http://127.0.0.1:{port}", process, log_path)
        env = environment_factory(base_url=f"http://127.0.0.1:{port}")()
        cut = []
        for seed in range(3):
            env.reset(task_id="task_easy_password", seed=seed)
            env.noop()
            cut.append(env.episode_id or "")
        env.reset(task_id="task_easy_password", seed=4)  # training goes on
    finally:
        process.terminate()
        process.wait(timeout=10)
    notes = [line for line in capsys.readouterr().err.splitlines() if "cannot end episodes" in line]
    assert len(notes) == 1 and "POST /end" in notes[0] and "stays open in its log" in notes[0]
    store = EventStore(open_database(old_db))
    assert all(store.episode(e).status == "open" for e in cut)


def test_training_rows_carry_the_tools_prompt_and_what_reset_reads() -> None:
    rows = training_rows(["task_easy_password", "task_hard_gdpr_deletion"], range(3), "binary")
    assert [(r["task_id"], r["seed"]) for r in rows] == [
        (t, s) for t in ("task_easy_password", "task_hard_gdpr_deletion") for s in range(3)]
    assert all(r["reward_mode"] == "binary" for r in rows)
    system = rows[0]["prompt"][0]
    assert system["role"] == "system" and "exactly one of the tools" in system["content"]
    assert len(training_rows()) == len(CATALOG.task_ids)


def test_split_rows_reset_to_the_instances_of_that_split(database_url: str) -> None:
    rows = training_rows(split="dev", reward_mode="binary")
    dev = CATALOG.split("dev")
    assert [(r["split"], r["index"]) for r in rows] == [("dev", i) for i in range(len(dev))]
    assert all("task_id" not in r and r["reward_mode"] == "binary" for r in rows)
    env = environment_factory(database_url=database_url)()
    for row in (rows[0], rows[-1]):
        answer = env.reset(**row)
        observation = json.loads(answer.split("\n", 3)[3])
        ref = dev[row["index"]]
        assert observation["task_id"] == ref.task_id  # the manifest's instance, not a classic task
    with pytest.raises(ValueError, match="unknown split 'holdout'; one of train, dev, test"):
        training_rows(split="holdout")


def test_the_module_imports_no_trl_and_the_example_needs_it_only_to_train() -> None:
    code = ("import sys, baseline.trl_env; "
            "assert not any(m == 'trl' or m.startswith('trl.') for m in sys.modules), 'trl imported'")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60, cwd=REPO)
    helped = subprocess.run([sys.executable, str(REPO / "examples" / "train_grpo.py"), "--help"],
                            capture_output=True, text=True, timeout=60, cwd=REPO)
    assert helped.returncode == 0, helped.stderr
    assert "--env-base-url" in helped.stdout and "--model" in helped.stdout


TOKEN = re.compile(r"\w+|[^\w\s]")
"""A tokenizer-free token estimate: each word and each punctuation mark one token. On these JSON
texts it over-counts a BPE tokenizer's tokens a little (it puts the full observation's gold
episodes at a median of about 4,300 where Qwen3's tokenizer counts about 4,000)."""
BUDGET = 4096
"""examples/train_grpo.py's default --max-completion-length."""


def _episode_tokens(cls: type[TicketLedgerToolEnv], task_id: str, seed: int) -> tuple[int, int]:
    """(reset text, completion) tokens of a gold episode: the completion is what TRL counts
    against the budget, each tool call (as a JSON name and arguments) and each tool answer."""
    env = cls()
    first = env.reset(task_id=task_id, seed=seed)
    completion = 0
    for action in gold(CATALOG.instance(task_id, seed)):
        fields = {k: v for k, v in action.items() if k != "action_type"}
        completion += len(TOKEN.findall(json.dumps({"name": action["action_type"], "arguments": fields})))
        completion += len(TOKEN.findall(getattr(env, action["action_type"])(**fields)))
    assert env.done and env.score == 1.0
    return len(TOKEN.findall(first)), completion


def test_gold_episodes_fit_the_default_completion_budget_with_room_to_spare(database_url: str) -> None:
    compact = environment_factory(database_url=database_url)
    full = environment_factory(database_url=database_url, observation_mode="full")
    episodes = [(t, s) for t in CATALOG.task_ids for s in range(3)]
    small = [_episode_tokens(compact, t, s) for t, s in episodes]
    large = [_episode_tokens(full, t, s) for t, s in episodes[:12]]
    longest = max(c for _, c in small)
    assert longest <= BUDGET // 2, longest  # half the budget or less: room for the model's slack
    assert max(r for r, _ in small) < 600  # the first observation, without the vocabularies
    # the full observation every step is what did not fit: several times longer
    assert sorted(c for _, c in large)[6] > 3 * sorted(c for _, c in small[:12])[6]


def test_compact_answers_show_what_changed_and_the_full_observation_stays_available(
        database_url: str) -> None:
    env = environment_factory(database_url=database_url)()
    first = json.loads(env.reset(task_id="task_hard_refund_fraud_trap", seed=0).split("\n", 3)[3])
    assert not {"available_actions", "allowed", "available_policies"} & first.keys()
    assert env.observation is not None and "allowed" in env.observation  # the full one
    answer = env.lookup_policy("refund_abuse")
    changed = json.loads(answer.split("Changed:\n", 1)[1])
    assert set(changed) == {"policies", "history+", "step_count"}
    assert list(changed["policies"]) == ["refund_abuse"] and changed["step_count"] == 1
    assert env.observation["policies"].keys() == {"refund_abuse"} and env.observation["step_count"] == 1
    assert changes({"tags": ["A"], "account": {"x": 1, "y": 2}, "reward": 0.1},
                   {"tags": ["B"], "account": {"x": 1, "y": 3}, "reward": 0.2}) == {
        "tags": ["B"], "account": {"y": 3}}  # a list that lost an item is shown whole
    full = environment_factory(database_url=database_url, observation_mode="full")()
    full.reset(task_id="task_easy_password", seed=0)
    assert '"allowed":{' in full.noop()
    with pytest.raises(ValueError, match="observation_mode='terse'; one of compact, full"):
        environment_factory(observation_mode="terse")


def test_component_rewards_report_each_episodes_grade_beside_the_total(database_url: str) -> None:
    cls = environment_factory(database_url=database_url)
    done, fresh, broken = cls(), cls(), cls()
    _play(done, "task_hard_refund_fraud_trap", 0)
    fresh.reset(task_id="task_easy_password", seed=0)
    broken.reset(task_id="task_hard_refund_fraud_trap", seed=0)
    broken.issue_refund(10.0)  # the refund abuse policy forbids it: a safety violation
    funcs = component_reward_funcs()
    names = [f.__name__ for f in funcs]
    assert names == [f"component_{n}" for n in component_names()] + ["violations", "malformed_calls"]
    table = {f.__name__: f([done, fresh, broken]) for f in funcs}
    earned = [table[f"component_{n}"][0] for n in component_names()]
    assert sum(e for e in earned if e is not None) == pytest.approx(done.score)
    assert all(table[f"component_{n}"][1] is None for n in component_names())  # nothing graded yet
    assert table["violations"] == [0.0, 0.0, 1.0]
    assert table["component_outcome"][2] == 0.0


def test_training_episodes_are_filed_under_a_run_that_names_the_model(database_url: str) -> None:
    cls = environment_factory(database_url=database_url, model="tiny-lm", run_config={"seed": 7})
    first, second = cls(), cls()
    first.reset(task_id="task_easy_password", seed=0)
    second.reset(task_id="task_easy_password", seed=1)
    assert cls.run_id is not None
    runs = RunStore(open_database(database_url))
    run = runs.get(cls.run_id)
    assert run.agent == "trl-grpo:tiny-lm" and run.config["model"] == "tiny-lm" and run.config["seed"] == 7
    assert {e.episode_id for e in runs.episodes(cls.run_id)} == {first.episode_id, second.episode_id}
    finish_run(cls, {"steps": 2})
    assert runs.get(cls.run_id).status == "finished"
    assert environment_factory(database_url=database_url, model="other").run_id is None  # a run per class
