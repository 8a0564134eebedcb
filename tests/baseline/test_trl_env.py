"""The TRL adapter (``baseline/trl_env.py``), driven the way TRL drives it: a no-argument
instance, ``reset(**row)``, then its public methods as tools; here a scripted expert
(``service/scripted.py``) plays instead of a model, in-process and against a live server.

TRL itself is not installed (it needs torch); these tests hold the adapter to the contract its
documentation states: every public method but ``reset`` is a tool, with typed arguments and an
``Args:`` section, and an exception is what the model reads back.
"""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from baseline.chat import tool_definitions
from baseline.trl_env import TicketLedgerToolEnv, environment_factory, reward_func, training_rows
from domain.tasks import default_catalog
from domain.vocabulary import ActionType, PolicyId, Priority, Queue, ResolutionCode, Severity, Tag
from service.scripted import solution
from tests.databases import sqlite_pass_only
from tests.servers import LiveServer

pytestmark = sqlite_pass_only("the adapter's methods and messages"
                              "; the store is tested on both backends elsewhere")

CATALOG = default_catalog()
REPO = Path(__file__).resolve().parents[2]
VOCABULARIES = {"priority": Priority, "queue": Queue, "tag": Tag, "policy_id": PolicyId,
                "resolution_code": ResolutionCode, "severity": Severity}


def _play(env: TicketLedgerToolEnv, task_id: str, seed: int | None, **row: Any) -> list[str]:
    """Reset with a dataset row, then call one tool per scripted action, as TRL would."""
    answers = [env.reset(prompt=[{"role": "user", "content": "..."}], task_id=task_id, seed=seed, **row)]
    for action in solution(CATALOG.instance(task_id, seed)):
        fields = {k: v for k, v in action.items() if k != "action_type"}
        answers.append(getattr(env, action["action_type"])(**fields))
    return answers


def test_the_public_methods_are_reset_and_one_tool_per_action() -> None:
    env = environment_factory(database_url="sqlite:///unused.db")()
    public = {name for name in dir(env) if not name.startswith("_") and callable(getattr(env, name))}
    assert public == {"reset", *ActionType.allowed()}


@pytest.mark.parametrize("tool", tool_definitions(), ids=lambda t: t["function"]["name"])
def test_each_tool_method_is_typed_and_documented_like_its_tool_definition(tool: dict[str, Any]) -> None:
    name, parameters = tool["function"]["name"], tool["function"]["parameters"]
    method = getattr(TicketLedgerToolEnv, name)
    signature = inspect.signature(method)
    args = [p for p in signature.parameters.values() if p.name != "self"]
    assert [p.name for p in args] == list(parameters["properties"])
    assert [p.name for p in args if p.default is inspect.Parameter.empty] == parameters["required"]
    assert signature.return_annotation == "str"
    assert all(p.annotation in ("str", "float", "str | None") for p in args)
    doc = inspect.getdoc(method) or ""
    assert doc and "Returns:" in doc
    for param in args:
        assert re.search(rf"^\s+{param.name}: \S", doc, re.MULTILINE), (name, param.name)
        vocabulary = VOCABULARIES.get(param.name)
        if vocabulary is not None:  # the listed values are exactly the allowed ones, in order
            described = doc.split(f"{param.name}: ", 1)[1].split("Returns:")[0]
            listed = re.findall(r"[A-Za-z_0-9]+", re.split("(?i)one of: ", described, maxsplit=1)[1])
            assert [w for w in listed if w != "highest"] == vocabulary.allowed()


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_a_scripted_expert_playing_through_the_tools_scores_one(database_url: str, task_id: str) -> None:
    cls = environment_factory(database_url=database_url)
    env = cls()
    answers = _play(env, task_id, 3)
    assert answers[0].startswith("Observation:\n{") and '"task_id":"' + task_id in answers[0]
    assert all(a.startswith("reward=") for a in answers[1:])
    assert answers[-1].endswith("The episode is over: stop calling tools.")
    assert env.done and env.score == 1.0 and env.task_id == task_id
    assert env.reward == pytest.approx(1.0, abs=1e-6)  # dense rewards add up to the score
    assert reward_func([env, cls()]) == [env.reward, 0.0]


def test_reward_modes_come_from_the_row_and_a_second_episode_starts_clean(database_url: str) -> None:
    env = environment_factory(database_url=database_url, reward_mode="binary")()
    _play(env, "task_easy_password", 0)
    assert env.reward == 1.0 and env.score == 1.0
    first = env.episode_id
    _play(env, "task_easy_refund_tag", 1, reward_mode="sparse")
    assert env.episode_id != first and env.steps == len(solution(CATALOG.instance("task_easy_refund_tag", 1)))
    assert env.reward == pytest.approx(1.0)
    env.reset(task_id="task_easy_password", seed=2, reward_mode="sparse")
    assert (env.reward, env.done, env.steps, env.score) == (0.0, False, 0, None)
    assert env.classify_priority("high").startswith("reward=0.0000 done=false")  # sparse: paid at the end


def test_what_the_model_did_wrong_comes_back_as_an_exception_that_says_so(database_url: str) -> None:
    env = environment_factory(database_url=database_url)()
    with pytest.raises(ValueError, match=r"no episode: reset\(\) starts one"):
        env.noop()
    env.reset(task_id="task_easy_password", seed=None)
    with pytest.raises(ValueError, match="priority='asap' is not allowed; choose one of: low, medium"):
        env.classify_priority("asap")
    with pytest.raises(ValueError, match="at most two decimals"):
        env.issue_refund(1.234)
    assert env.steps == 0  # refused before the environment saw it: no step, no penalty
    answer = env.resolve_ticket("awaiting_customer_confirmation")  # a rule, not a malformed action
    assert not env.done and '"last_action_error":"' in answer and env.steps == 1
    for action in solution(CATALOG.instance("task_easy_password")):
        getattr(env, action["action_type"])(**{k: v for k, v in action.items() if k != "action_type"})
    assert env.done
    with pytest.raises(ValueError, match=r"the episode is over \(score 0\.\d+\); stop calling tools"):
        env.noop()


def test_against_a_live_server(live_server: LiveServer) -> None:
    env = environment_factory(base_url=live_server.url)()
    _play(env, "task_hard_refund_fraud_trap", 4)
    assert env.done and env.score == 1.0 and env.reward == pytest.approx(1.0, abs=1e-6)
    _play(env, "task_hard_gdpr_deletion", 5, reward_mode="binary")
    assert env.reward == 1.0


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
        observation = json.loads(answer.split("\n", 1)[1])
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
