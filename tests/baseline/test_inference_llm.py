"""LLM mode: the real ``openai`` client against a scripted OpenAI-compatible server on 127.0.0.1.

The scripted ``good`` model plays exactly like the built-in policy, so an LLM run that works must
reproduce the policy's scores; every failure mode must fall through the candidate chain to it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from baseline.config import load
from baseline.llm import ChatClient, LLMAgent
from baseline.policy import next_action
from domain.observation import Observation
from domain.tasks import default_catalog
from store import open_database
from store.runs import RunStore
from tests.baseline.fake_openai import FakeOpenAI
from tests.baseline.inference_helpers import Run, run_inference

CATALOG = default_catalog()
TASKS = ["task_easy_password", "task_medium_double_charge", "task_hard_account_email_change"]


def _policy_scores(service, tasks: list[str]) -> dict[str, float]:  # type: ignore[no-untyped-def]
    scores = {}
    for task_id in tasks:
        result = service.reset(task_id)
        while not result.done:
            result = service.step(result.episode_id, next_action(result.observation))
        scores[task_id] = result.state.score
    return scores


def _stored(database_url: str, run_id: str) -> tuple[Any, list[Any]]:
    db = open_database(database_url)
    try:
        store = RunStore(db)
        return store.get(run_id), store.episodes(run_id)
    finally:
        db.dispose()


REPLY_DEADLINE_S = 5
"""Each LLM call's hard limit in these runs: far above a fake reply's milliseconds, so a loaded CI
machine (the PostgreSQL pass beside the slow tier) never turns a good reply, or a 500 and its
client retry, into a timeout."""
SLOW_DEADLINE_S = 3
"""The limit in the failing chain's run, whose ``slow`` model answers only after twice that."""


def _llm_env(fake: FakeOpenAI, database_url: str, **extra: str) -> dict[str, str]:
    return {"API_KEY": "test-key-not-secret", "API_BASE_URL": fake.base_url, "DATABASE_URL": database_url,
            "LLM_TIMEOUT": str(REPLY_DEADLINE_S), **extra}


def test_good_models_play_every_step_with_routing_by_difficulty_and_task(
        database_url: str, tmp_path: Path, service) -> None:  # type: ignore[no-untyped-def]
    with FakeOpenAI({"good": "good", "fenced": "fenced", "sloppy": "lenient"}) as fake:
        run = run_inference(_llm_env(
            fake, database_url, TASKS=",".join(TASKS), MODEL_CANDIDATES="good",
            MODEL_CANDIDATES_MEDIUM="fenced", ACTION_SCHEMA_MODE="lenient",
            MODEL_CANDIDATES_TASK_TASK_HARD_ACCOUNT_EMAIL_CHANGE="sloppy"), cwd=tmp_path)
        calls = {m: fake.calls(m) for m in ("good", "fenced", "sloppy")}
    assert run.returncode == 0, run.stderr
    assert [(b.task, b.model) for b in run.blocks] == list(zip(TASKS, ["good", "fenced", "sloppy"],
                                                               strict=True))
    assert all(s.error is None for b in run.blocks for s in b.steps)
    assert calls == {"good": len(run.blocks[0].steps), "fenced": len(run.blocks[1].steps),
                     "sloppy": len(run.blocks[2].steps)}
    record, episodes = _stored(database_url, run.run_id)
    assert {e.task_id: e.score for e in episodes} == _policy_scores(service, TASKS)
    assert record.agent == "llm:good,fenced,sloppy"
    assert "test-key-not-secret" not in str(record.config) and record.config["api_key_set"]
    llm = record.summary["llm"]
    assert llm["calls"] == sum(calls.values()) and llm["failures"] == 0
    assert llm["prompt_tokens"] == 100 * llm["calls"] and llm["completion_tokens"] == 20 * llm["calls"]
    assert llm["latency_s_total"] > 0


@pytest.fixture(scope="module")
def failing_chain_run(default_database_env: str,
                      tmp_path_factory: pytest.TempPathFactory) -> tuple[Run, dict[str, int]]:
    """One run whose chain holds every kind of failing model before a good one."""
    behaviours = {"broken": "http_500", "prose": "not_json", "schema": "schema",
                  "slow": f"slow:{2 * SLOW_DEADLINE_S}", "good": "good"}
    with FakeOpenAI(behaviours) as fake:
        run = run_inference(_llm_env(fake, default_database_env,
                                     TASKS="task_easy_password,task_easy_refund_tag",
                                     MODEL_CANDIDATES="broken,prose,schema,slow,good",
                                     LLM_MAX_FAILURES="2", LLM_MAX_RETRIES="1",
                                     LLM_TIMEOUT=str(SLOW_DEADLINE_S)),
                            cwd=tmp_path_factory.mktemp("llm"))
        return run, {m: fake.calls(m) for m in behaviours}


FAILED_THEN_GOOD = re.compile(
    r"^broken http_500 \(scripted 500 for broken\); prose not_json \(.+\); schema invalid_action "
    r"\(priority='super-urgent' is not allowed.*\); slow timeout "
    rf"\(no reply within {SLOW_DEADLINE_S}s\); used good$")
SKIPPED_THEN_GOOD = "skipped after repeated failures: broken, prose, schema, slow; used good"


def test_failures_fall_through_the_chain_and_say_so_in_the_error_field(
        failing_chain_run: tuple[Run, dict[str, int]], default_database_env: str,
        service) -> None:  # type: ignore[no-untyped-def]
    run, calls = failing_chain_run
    assert run.returncode == 0, run.stderr
    steps = [s for b in run.blocks for s in b.steps]
    assert FAILED_THEN_GOOD.match(steps[0].error or ""), steps[0].error
    assert FAILED_THEN_GOOD.match(steps[1].error or ""), steps[1].error
    assert all(s.error == SKIPPED_THEN_GOOD for s in steps[2:]), [s.error for s in steps[2:]]
    _, episodes = _stored(default_database_env, run.run_id)
    tasks = ["task_easy_password", "task_easy_refund_tag"]
    assert {e.task_id: e.score for e in episodes} == _policy_scores(service, tasks)
    assert calls["good"] == len(steps)


def test_a_model_that_keeps_failing_is_skipped_for_the_rest_of_the_run(
        failing_chain_run: tuple[Run, dict[str, int]], default_database_env: str) -> None:
    run, calls = failing_chain_run
    assert calls["prose"] == 2 and calls["schema"] == 2  # two failed replies each, then never again
    assert 2 <= calls["broken"] <= 4  # two calls, each with at most one client retry
    assert 2 <= calls["slow"] <= 4
    for model in ("broken", "prose", "schema", "slow"):
        assert f"model {model} skipped for the rest of the run" in run.stderr
    record, _ = _stored(default_database_env, run.run_id)
    llm = record.summary["llm"]
    assert llm["failures_by_kind"] == {"http_500": 2, "not_json": 2, "invalid_action": 2, "timeout": 2}
    assert sorted(llm["skipped_models"]) == ["broken", "prose", "schema", "slow"]


# ------------------------------------------------------------------ the agent, in-process
def _observation(service, task_id: str = "task_easy_password") -> Observation:  # type: ignore[no-untyped-def]
    return service.reset(task_id).observation


def _agent(fake: FakeOpenAI, candidates: str, **env: str) -> tuple[LLMAgent, list[str]]:
    notes: list[str] = []
    config = load([], {"API_KEY": "k", "API_BASE_URL": fake.base_url, "MODEL_CANDIDATES": candidates,
                       "LLM_TIMEOUT": "0.5", **env})
    return LLMAgent(config, ChatClient(config), notify=notes.append), notes


def test_a_socket_that_never_goes_quiet_is_cut_at_the_hard_deadline(service) -> None:  # type: ignore[no-untyped-def]
    with FakeOpenAI({"drip": "drip:3"}) as fake:
        agent, _ = _agent(fake, "drip", LLM_MAX_RETRIES="0")
        decision = agent.act(_observation(service))
    assert [c.failure for c in decision.calls] == ["timeout"]
    assert decision.chosen_by == "builtin-policy"
    assert decision.error == "drip timeout (no reply within 0.5s); used builtin-policy"


def test_an_unknown_model_is_skipped_at_once(service) -> None:  # type: ignore[no-untyped-def]
    with FakeOpenAI({"good": "good"}) as fake:
        agent, notes = _agent(fake, "missing,good", LLM_MAX_FAILURES="5")
        first = agent.act(_observation(service))
        second = agent.act(_observation(service))
        assert fake.calls("missing") == 1
    assert first.chosen_by == second.chosen_by == "good"
    assert first.error is not None and first.error.startswith("missing http_404")
    assert second.error == "skipped after repeated failures: missing; used good"
    assert len(notes) == 1 and "model missing skipped" in notes[0]


def test_strict_mode_refuses_a_sloppy_reply_that_lenient_mode_repairs(service) -> None:  # type: ignore[no-untyped-def]
    obs = _observation(service)
    with FakeOpenAI({"sloppy": "lenient"}) as fake:
        strict, _ = _agent(fake, "sloppy", ACTION_SCHEMA_MODE="strict", LLM_MAX_FAILURES="9")
        lenient, _ = _agent(fake, "sloppy", ACTION_SCHEMA_MODE="lenient")
        refused = strict.act(obs)
        repaired = lenient.act(obs)
    assert refused.chosen_by == "builtin-policy"
    assert refused.error is not None and "sloppy invalid_action" in refused.error
    assert repaired.chosen_by == "sloppy" and repaired.error is None
    assert repaired.action == refused.action == next_action(obs)


def test_one_failure_does_not_get_a_model_skipped(service) -> None:  # type: ignore[no-untyped-def]
    obs = _observation(service)
    with FakeOpenAI({"flaky": ["http_500", "good", "http_500", "good"]}) as fake:
        agent, notes = _agent(fake, "flaky", LLM_MAX_RETRIES="0", LLM_MAX_FAILURES="2")
        decisions = [agent.act(obs) for _ in range(4)]
    assert [d.chosen_by for d in decisions] == ["builtin-policy", "flaky", "builtin-policy", "flaky"]
    assert notes == [] and not agent.health.skipped


def test_the_prompt_holds_the_observation_and_the_action_schema(service) -> None:  # type: ignore[no-untyped-def]
    from baseline.chat import render_messages

    obs = _observation(service, "task_hard_refund_fraud_trap").model_dump(mode="json")
    system, user = render_messages(obs)
    assert '"action_type"' in system["content"] and "lookup_policy" in system["content"]
    assert obs["ticket"]["message"] in user["content"]
    assert "refunds_last_90_days" in user["content"]
    state = service.state(obs["episode_id"])
    # the variant's case name is part of the key; as a word of its own, for "fraud_review" is also
    # a part of the action name "open_fraud_review", which every observation lists
    assert not re.search(rf"(?<![a-z_]){re.escape(state.task.case)}(?![a-z_])", user["content"])


# ------------------------------------------------------------------------------ honest runs
def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _runs_show(database_url: str, run_id: str) -> str:
    import contextlib
    import io

    from cli.main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["--database-url", database_url, "runs", "show", run_id]) == 0
    return out.getvalue()


def test_a_dead_endpoint_under_auto_plays_the_policy_but_marks_the_run_degraded(
        database_url: str, tmp_path: Path, service) -> None:  # type: ignore[no-untyped-def]
    """The seeds' fallback stays, but the run no longer passes for the model's: its status is
    degraded, every step is the policy's in the record, and the exit status is 3."""
    run = run_inference({"API_KEY": "k", "API_BASE_URL": f"http://127.0.0.1:{_closed_port()}/v1",
                         "DATABASE_URL": database_url, "MODEL_NAME": "gone", "LLM_TIMEOUT": "2",
                         "LLM_MAX_RETRIES": "0", "TASKS": "task_easy_password"}, cwd=tmp_path)
    assert run.returncode == 3, run.stderr
    steps = run.blocks[0].steps
    assert run.blocks[0].model == "gone"  # the stdout contract is unchanged
    assert steps[0].error is not None and steps[0].error.startswith("gone connection")
    assert all((s.error or "").endswith("used builtin-policy") for s in steps)
    record, episodes = _stored(database_url, run.run_id)
    assert record.status == "degraded"
    assert episodes[0].score == _policy_scores(service, ["task_easy_password"])["task_easy_password"]
    actors = record.summary["actors"]
    assert actors["by_actor"] == {"builtin-policy": len(steps)} and actors["model_steps"] == 0
    assert record.summary["episodes"][0]["actors"] == ["builtin-policy"] * len(steps)
    assert f"Who acted: builtin-policy {len(steps)} (100%)" in run.stderr
    assert "DEGRADED: no configured model (gone) acted in any step; exit 3" in run.stderr
    shown = _runs_show(database_url, run.run_id)
    assert "degraded" in shown and f"who acted: builtin-policy {len(steps)} (100%)" in shown


def test_agent_llm_never_plays_the_policy_a_step_no_model_took_fails(
        database_url: str, tmp_path: Path) -> None:
    with FakeOpenAI({"down": "http_500"}) as fake:
        run = run_inference(_llm_env(fake, database_url, AGENT="llm", MODEL_CANDIDATES="down",
                                     LLM_MAX_RETRIES="0", TASKS="task_easy_password"), cwd=tmp_path)
        calls = fake.calls("down")
    assert run.returncode == 3, run.stderr
    block = run.blocks[0]
    assert len(block.steps) == CATALOG.spec("task_easy_password").max_steps  # nobody resolved it
    assert all(s.action == {"action_type": "noop"} for s in block.steps)
    first, rest = block.steps[0], block.steps[2:]
    assert first.error is not None and first.error.startswith("down http_500 (scripted 500 for down); "
                                                                "no model acted: failed step, sent noop")
    assert all((s.error or "").startswith("skipped after repeated failures: down; no model acted")
               for s in rest)
    assert not block.success and calls == 2  # skipped after two failures, as before
    record, _ = _stored(database_url, run.run_id)
    assert record.status == "degraded"
    assert record.summary["actors"]["by_actor"] == {"none": len(block.steps)}
    assert record.summary["actors"]["failed_steps"] == len(block.steps)
    assert record.config["uses_fallback"] is False
    assert "builtin-policy" not in str(record.summary["episodes"])
    assert f"Who acted: nobody (failed steps) {len(block.steps)} (100%)" in run.stderr


def test_agent_llm_with_fallback_builtin_plays_the_policy_and_says_so(
        database_url: str, tmp_path: Path, service) -> None:  # type: ignore[no-untyped-def]
    with FakeOpenAI({"down": "http_500"}) as fake:
        run = run_inference(_llm_env(fake, database_url, AGENT="llm", MODEL_CANDIDATES="down",
                                     FALLBACK="builtin", LLM_MAX_RETRIES="0",
                                     TASKS="task_easy_password"), cwd=tmp_path)
    assert run.returncode == 3, run.stderr
    steps = run.blocks[0].steps
    assert all((s.error or "").endswith("used builtin-policy") for s in steps)
    record, episodes = _stored(database_url, run.run_id)
    assert episodes[0].score == _policy_scores(service, ["task_easy_password"])["task_easy_password"]
    assert record.summary["actors"]["by_actor"] == {"builtin-policy": len(steps)}
    assert record.config["fallback"] == "builtin" and record.config["uses_fallback"] is True


def test_each_actors_share_is_in_the_record_runs_and_the_viewer(live_server, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A model that answers every other call: it acts in half the steps, the policy in the rest;
    the run is not degraded, and every view gives the same shares."""
    import httpx

    with FakeOpenAI({"flaky": ["good", "http_500"] * 20}) as fake:
        run = run_inference(_llm_env(fake, live_server.database_url, MODEL_CANDIDATES="flaky",
                                     LLM_MAX_RETRIES="0", LLM_MAX_FAILURES="5",
                                     TASKS="task_easy_password"), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    steps = run.blocks[0].steps
    mine = [s.error is None for s in steps]
    assert mine == [i % 2 == 0 for i in range(len(steps))]
    record, _ = _stored(live_server.database_url, run.run_id)
    assert record.status == "finished"
    flaky, policy = sum(mine), len(steps) - sum(mine)
    assert record.summary["episodes"][0]["actors"] == ["flaky" if m else "builtin-policy" for m in mine]
    assert record.summary["actors"]["model_steps"] == flaky
    share = f"{flaky / len(steps):.0%}"
    assert f"Who acted: flaky {flaky} ({share})" in run.stderr
    assert f"flaky {flaky} ({share})" in _runs_show(live_server.database_url, run.run_id)
    page = httpx.get(f"{live_server.url}/ui/runs/{run.run_id}", timeout=30).text
    assert f"flaky: {flaky} steps ({share})" in page
    assert f"builtin-policy: {policy} steps" in page


def test_an_upstream_401_echoing_the_key_is_recorded_redacted(database_url: str, tmp_path: Path) -> None:
    """A model server whose 401 echoes the Authorization header (and the key as a JSON field and
    in a URL): the run's stdout, its log and its stored records name the failure, never the key."""
    key = "zz-agent-key-5e1b0c"
    with FakeOpenAI({"leaky": "echo_401"}) as fake:
        run = run_inference(_llm_env(fake, database_url, API_KEY=key, AGENT="llm",
                                     MODEL_CANDIDATES="leaky", LLM_MAX_RETRIES="0",
                                     TASKS="task_easy_password"), cwd=tmp_path)
        assert fake.calls("leaky") >= 1
    assert run.returncode == 3, run.stderr
    first = run.blocks[0].steps[0]
    assert first.error is not None and first.error.startswith("leaky http_401 (invalid credentials.")
    record, episodes = _stored(database_url, run.run_id)
    stored = json.dumps([record.summary, record.config, [str(e) for e in episodes]], default=str)
    shown = _runs_show(database_url, run.run_id)
    for text in (run.stdout, run.stderr, stored, shown):
        assert key not in text
    assert "Bearer ***" in run.stdout or "Bearer ***" in run.stderr
