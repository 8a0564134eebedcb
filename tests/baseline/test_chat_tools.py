"""Tool calling and JSON answers: ``baseline/chat.py`` and the LLM agent's choice between them.

The agent talks to the scripted OpenAI-compatible server on 127.0.0.1 (``fake_openai.py``) with
the real ``openai`` client; the server answers with ``tool_calls`` when offered tools, ignores
them, or refuses them, per model.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baseline.agent import NO_ACTOR
from baseline.chat import (
    BadReply,
    action_from_reply,
    action_from_tool_call,
    render_messages,
    tool_definitions,
)
from baseline.config import load
from baseline.llm import ChatClient, LLMAgent
from baseline.policy import next_action
from domain.actions import IssueRefund, action_json, parse_action
from domain.observation import Observation
from domain.tasks import default_catalog
from domain.vocabulary import BACK_OFFICE_ACTIONS, ActionType
from service import EnvironmentService
from tests.baseline.fake_openai import FakeOpenAI
from tests.baseline.inference_helpers import run_inference
from tests.databases import sqlite_pass_only

pytestmark = sqlite_pass_only("chat rendering and tool-call parsing"
                              "; the store is tested on both backends elsewhere")

CATALOG = default_catalog()


def _observation(service: EnvironmentService, task_id: str = "task_easy_password") -> Observation:
    return service.reset(task_id).observation


def _agent(fake: FakeOpenAI, candidates: str, **env: str) -> tuple[LLMAgent, list[str]]:
    notes: list[str] = []
    config = load([], {"API_KEY": "k", "API_BASE_URL": fake.base_url, "MODEL_CANDIDATES": candidates,
                       "LLM_TIMEOUT": "2", "LLM_MAX_RETRIES": "0", **env})
    return LLMAgent(config, ChatClient(config), notify=notes.append), notes


# ------------------------------------------------------------------------- the definitions
def test_one_tool_per_action_type_back_office_included_each_standing_alone() -> None:
    tools = tool_definitions()
    names = [t["function"]["name"] for t in tools]
    assert names == ActionType.allowed() and len(names) == 19  # message_customer last
    assert set(BACK_OFFICE_ACTIONS) <= set(names)
    for tool in tools:
        assert tool["type"] == "function" and tool["function"]["description"]
        assert "$ref" not in json.dumps(tool)
        assert "action_type" not in json.dumps(tool["function"]["parameters"])
        assert tool["function"]["parameters"]["additionalProperties"] is False
    by_name = {t["function"]["name"]: t["function"]["parameters"] for t in tools}
    assert by_name["classify_priority"]["required"] == ["priority"]
    assert "urgent" in by_name["classify_priority"]["properties"]["priority"]["enum"]
    assert by_name["issue_refund"]["required"] == ["amount"]
    assert by_name["escalate_incident"]["properties"]["severity"]["enum"] == ["sev1", "sev2", "sev3"]
    assert by_name["send_password_reset_link"]["properties"] == {}
    assert by_name["message_customer"]["required"] == ["message"]


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_every_action_the_policy_takes_round_trips_through_a_tool_call(
        service: EnvironmentService, task_id: str) -> None:
    result = service.reset(task_id)
    while not result.done:
        action = next_action(result.observation)
        fields = {k: v for k, v in action.items() if k != "action_type"}
        parsed = action_from_tool_call(action["action_type"], json.dumps(fields))
        assert parsed.body == action
        assert [action_json(a) for a in parsed.actions] == parse_action(action).to_json()
        result = service.step(result.episode_id, parsed.body)


def test_a_tool_call_becomes_a_typed_action() -> None:
    parsed = action_from_tool_call("issue_refund", '{"amount": 49.99}')
    assert parsed.actions == (IssueRefund(amount=49.99),)
    assert action_from_tool_call("send_password_reset_link", "").body == {
        "action_type": "send_password_reset_link"}
    assert action_from_tool_call("add_tag", {"action_type": "add_tag", "tag": "Refund"}).body == {
        "action_type": "add_tag", "tag": "Refund"}
    assert action_from_tool_call("resolve", '{"resolution": "refund_issued"}', "lenient").body == {
        "action_type": "resolve_ticket", "resolution_code": "refund_issued"}


@pytest.mark.parametrize(("name", "arguments", "kind", "says"), [
    ("refund_everything", "{}", "bad_tool_call", "unknown tool 'refund_everything'; the tools are"),
    ("classify_priority", '{"priority": hi', "bad_tool_call",
     "tool classify_priority: the arguments are not JSON (Expecting value at character 13)"),
    ("classify_priority", '["high"]', "bad_tool_call", "the arguments are a JSON list, not an object"),
    ("classify_priority", '{"action_type": "assign_queue", "priority": "high"}', "bad_tool_call",
     "tool classify_priority was called with action_type='assign_queue'"),
    ("classify_priority", '{"priority": "super-urgent"}', "invalid_action",
     "priority='super-urgent' is not allowed; choose one of: low, medium, high, urgent"),
    ("classify_priority", '{"queue": "billing"}', "invalid_action",
     "field 'queue' does not belong to classify_priority"),
    ("draft_reply", "{}", "invalid_action", "draft_reply needs a non-empty 'reply_text'"),
    ("issue_refund", '{"amount": 1.234}', "invalid_action", "at most two decimals"),
])
def test_a_tool_call_that_cannot_be_used_says_what_is_wrong(
        name: str, arguments: str, kind: str, says: str) -> None:
    with pytest.raises(BadReply) as caught:
        action_from_tool_call(name, arguments)
    assert caught.value.kind == kind and says in str(caught.value), str(caught.value)


def test_a_json_reply_becomes_an_action_and_prose_does_not() -> None:
    parsed = action_from_reply('Sure.\n```json\n{"action_type": "assign_queue", "queue": "billing"}\n```')
    assert parsed.body == {"action_type": "assign_queue", "queue": "billing"}
    with pytest.raises(BadReply, match="no JSON object in the reply") as caught:
        action_from_reply("I would route it to billing.")
    assert caught.value.kind == "not_json"


def test_the_two_prompts_share_the_rules_and_differ_in_how_to_answer(service: EnvironmentService) -> None:
    obs = _observation(service).model_dump(mode="json")
    (json_system, json_user), (tools_system, tools_user) = (render_messages(obs, "json"),
                                                            render_messages(obs, "tools"))
    rules = str(tools_system["content"]).split("\n\nAnswer by calling")[0]
    assert str(json_system["content"]).startswith(rules)
    assert "Action JSON schema:" in str(json_system["content"])
    assert "Action JSON schema:" not in str(tools_system["content"])
    assert "exactly one of the tools" in str(tools_system["content"])
    assert json_user["content"].endswith("one JSON object.")  # type: ignore[union-attr]
    assert tools_user["content"].endswith("one tool call.")  # type: ignore[union-attr]
    assert str(json_user["content"]).split("\n\n")[0] == str(tools_user["content"]).split("\n\n")[0]


# ------------------------------------------------------------------------------ the agent
def test_a_model_that_calls_tools_plays_with_tools(service: EnvironmentService) -> None:
    obs = _observation(service)
    with FakeOpenAI({"caller": "good"}) as fake:
        agent, notes = _agent(fake, "caller")
        decision = agent.act(obs)
        requests = list(fake.requests)
    assert decision.chosen_by == "caller" and decision.error is None
    assert decision.action == next_action(obs)
    assert len(requests) == 1
    assert [t["function"]["name"] for t in requests[0]["tools"]] == ActionType.allowed()
    assert "Action JSON schema:" not in requests[0]["messages"][0]["content"]
    assert notes == [] and agent.modes.mode("caller") == "tools"


def test_a_model_that_ignores_tools_is_asked_for_json_from_then_on(service: EnvironmentService) -> None:
    obs = _observation(service)
    with FakeOpenAI({"texter": "json_only"}) as fake:
        agent, notes = _agent(fake, "texter")
        decisions = [agent.act(obs) for _ in range(3)]
        requests = list(fake.requests)
    assert [d.chosen_by for d in decisions] == ["texter"] * 3  # its JSON answer is used at once
    assert all(d.action == next_action(obs) and d.error is None for d in decisions)
    assert [r["tools"] is not None for r in requests] == [True, False, False]
    assert "Action JSON schema:" in requests[1]["messages"][0]["content"]
    assert notes == ["model texter: no tool calling (it answered without a tool call); "
                     "asking for JSON from now on"]


def test_an_endpoint_that_refuses_tools_gets_the_same_step_again_in_json(
        service: EnvironmentService) -> None:
    obs = _observation(service)
    with FakeOpenAI({"plain": "no_tools"}) as fake:
        agent, notes = _agent(fake, "plain", AGENT="llm")
        first, second = agent.act(obs), agent.act(obs)
        requests = list(fake.requests)
    assert first.chosen_by == second.chosen_by == "plain" and first.action == next_action(obs)
    assert [c.failure for c in first.calls] == ["http_400", None] and len(second.calls) == 1
    assert [r["tools"] is not None for r in requests] == [True, False, False]
    assert len(notes) == 1 and notes[0].startswith("model plain: no tool calling (HTTP 400 to tools:")
    assert not agent.health.skipped


@pytest.mark.parametrize(("behaviour", "says"), [
    ("bad_args", "bad_tool_call (tool classify_priority: the arguments are not JSON"),
    ("wrong_tool", "bad_tool_call (unknown tool 'refund_everything'"),
])
def test_a_malformed_tool_call_is_a_failed_step_that_says_why(
        service: EnvironmentService, behaviour: str, says: str) -> None:
    obs = _observation(service)
    with FakeOpenAI({"clumsy": behaviour}) as fake:
        agent, _ = _agent(fake, "clumsy", AGENT="llm")
        decision = agent.act(obs)
    assert decision.chosen_by == NO_ACTOR and decision.action == {"action_type": "noop"}
    assert decision.error is not None and decision.error.startswith(f"clumsy {says}"), decision.error
    assert "no model acted: failed step" in decision.error
    assert [c.failure for c in decision.calls] == ["bad_tool_call"]
    assert agent.modes.mode("clumsy") == "tools"  # it did call a tool: not a reason to drop tools


def test_inference_with_tools_json_and_a_refusing_endpoint_keeps_the_stdout_contract(
        database_url: str, tmp_path: Path, service: EnvironmentService) -> None:
    tasks = ["task_easy_password", "task_medium_double_charge", "task_hard_account_email_change"]
    with FakeOpenAI({"caller": "good", "texter": "json_only", "plain": "no_tools"}) as fake:
        run = run_inference({"API_KEY": "k", "API_BASE_URL": fake.base_url, "DATABASE_URL": database_url,
                             "AGENT": "llm", "TASKS": ",".join(tasks), "MODEL_CANDIDATES": "caller",
                             "MODEL_CANDIDATES_MEDIUM": "texter",
                             "MODEL_CANDIDATES_TASK_TASK_HARD_ACCOUNT_EMAIL_CHANGE": "plain"},
                            cwd=tmp_path)
        with_tools = {m: sum(1 for r in fake.requests if r["model"] == m and r["tools"])
                      for m in ("caller", "texter", "plain")}
    assert run.returncode == 0, run.stderr
    assert [(b.task, b.model) for b in run.blocks] == list(zip(tasks, ["caller", "texter", "plain"],
                                                               strict=True))
    assert all(s.error is None for b in run.blocks for s in b.steps)
    expected = {}
    for task_id in tasks:
        result = service.reset(task_id)
        while not result.done:
            result = service.step(result.episode_id, next_action(result.observation))
        expected[task_id] = result.state.score
    assert {b.task: b.score for b in run.blocks} == {t: f"{min(max(s, 0.01), 0.99):.2f}"
                                                     for t, s in expected.items()}
    assert with_tools == {"caller": len(run.blocks[0].steps), "texter": 1, "plain": 1}
    assert "model plain: no tool calling (HTTP 400 to tools" in run.stderr
