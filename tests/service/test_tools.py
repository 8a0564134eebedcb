"""The tools' one declaration (``service/tools.py``) against the action models it is read from,
and the renderings made from it: MCP's tool list, the chat schema, the TRL adapter's methods.

The chat schema is checked the way a model's arguments meet it: every action the gold player
takes on every task validates against its tool's parameters (``jsonschema``), and what the
domain's parser refuses (a value outside a vocabulary, a text over its limit, a field the action
does not take) the schema refuses too.
"""

from __future__ import annotations

import inspect
from typing import Any

import jsonschema
import pytest

from api.mcp import EPISODE_ARG
from api.mcp import TOOLS as MCP_TOOLS
from baseline.chat import tool_definitions
from baseline.trl_env import RETURNS, TicketLedgerToolEnv
from domain.actions import (
    ACTION_FIELDS,
    MAX_MESSAGE_CHARS,
    MAX_NOTE_CHARS,
    MAX_REASON_CHARS,
    MAX_REPLY_CHARS,
    REQUIRED,
    VOCABULARY,
    InvalidAction,
    parse_action,
)
from domain.tasks import default_catalog
from domain.vocabulary import ActionType
from service.gold import gold
from service.tools import TOOLS, TOOLS_BY_NAME

CATALOG = default_catalog()
CHAT = {t["function"]["name"]: t["function"] for t in tool_definitions()}


def test_one_tool_per_action_type_with_the_action_models_fields() -> None:
    assert [t.name for t in TOOLS] == ActionType.allowed()
    for tool in TOOLS:
        assert tuple(p.name for p in tool.parameters) == ACTION_FIELDS[tool.name]
        assert tool.required == ([REQUIRED[tool.name]] if tool.name in REQUIRED else [])
        assert tool.description and "\n" not in tool.description and "``" not in tool.description
        for p in tool.parameters:
            assert p.choices == (VOCABULARY[p.name].allowed() if p.name in VOCABULARY else None)
            assert p.description and "\n" not in p.description


@pytest.mark.parametrize(("tool", "field", "limit"), [
    ("draft_reply", "reply_text", MAX_REPLY_CHARS), ("add_internal_note", "note", MAX_NOTE_CHARS),
    ("deny_refund", "reason", MAX_REASON_CHARS), ("message_customer", "message", MAX_MESSAGE_CHARS)])
def test_a_texts_limit_comes_from_its_model_into_the_schema_and_the_words(
        tool: str, field: str, limit: int) -> None:
    parameter = next(p for p in TOOLS_BY_NAME[tool].parameters if p.name == field)
    assert parameter.limits()["maxLength"] == limit
    assert CHAT[tool]["parameters"]["properties"][field]["maxLength"] == limit
    assert parameter.description.endswith(f"(at most {limit} characters).")


def _arguments(action: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in action.items() if k != "action_type"}


@pytest.mark.parametrize("task_id", CATALOG.task_ids)
def test_every_action_the_expert_takes_fits_its_chat_tool(task_id: str) -> None:
    for action in gold(CATALOG.instance(task_id, 1)):
        jsonschema.validate(_arguments(action), CHAT[action["action_type"]]["parameters"])


@pytest.mark.parametrize(("tool", "arguments"), [
    ("classify_priority", {"priority": "asap"}),
    ("escalate_incident", {"severity": "sev0"}),
    ("close_ticket", {"resolution_code": "fixed"}),
    ("draft_reply", {"reply_text": "x" * (MAX_REPLY_CHARS + 1)}),
    ("draft_reply", {"reply_text": ""}),
    ("issue_refund", {"amount": 0}),
    ("update_account_email", {"new_email": "not an address"}),
    ("assign_queue", {"queue": "billing", "priority": "high"}),
])
def test_what_the_domain_refuses_or_penalises_the_chat_schema_refuses(
        tool: str, arguments: dict[str, Any]) -> None:
    try:
        refused = parse_action({"action_type": tool, **arguments}).rejection is not None
    except InvalidAction:
        refused = True
    assert refused  # refused outright, or recorded as a rejected (penalised) step
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(arguments, CHAT[tool]["parameters"])


def test_mcp_lists_the_declared_tools_with_the_action_models_schemas() -> None:
    actions = [t for t in MCP_TOOLS if t["name"] not in ("reset", "state")]
    assert sorted(t["name"] for t in actions) == sorted(TOOLS_BY_NAME)
    for listed in actions:
        tool = TOOLS_BY_NAME[listed["name"]]
        properties = dict(listed["inputSchema"]["properties"])
        assert properties.pop("episode_id") == EPISODE_ARG
        assert list(properties) == [p.name for p in tool.parameters]
        assert properties == {p.name: p.schema for p in tool.parameters}
        assert listed["inputSchema"]["required"] == tool.required


def test_the_trl_methods_carry_the_declared_signature_and_docstring() -> None:
    for tool in TOOLS:
        method = getattr(TicketLedgerToolEnv, tool.name)
        assert method.__name__ == tool.name and inspect.isfunction(method)
        signature = inspect.signature(method)
        assert [(p.name, p.annotation, p.default) for p in signature.parameters.values()][1:] == [
            (p.name, p.hint(), inspect.Parameter.empty if p.required else None) for p in tool.parameters]
        assert signature.return_annotation is str
        doc = inspect.getdoc(method) or ""
        assert doc.startswith(tool.description + "\n") and doc.endswith("Returns:\n    " + RETURNS)
        for p in tool.parameters:
            assert f"\n    {p.name}: " in doc
