"""Gymnasium's ending in every transport, and the allowed values in the observation.

Every step answer (OpenEnv's wrapped HTTP dialect, the SupportOps seed's bare one, ``/ws``, MCP
tool results) and the public state carry ``terminated`` (the ticket reached an end state:
resolved or closed), ``truncated`` (``max_steps`` cut the episode short) and ``end_reason``
beside ``done``, with ``done == terminated or truncated``. Played against a real server: one
episode solved to its end, one run out of steps, in each transport.
"""

from __future__ import annotations

import inspect
import itertools
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

import domain.decide
from domain.events import CLOSINGS, END_STATES, LIMITS
from domain.tasks import default_catalog
from domain.vocabulary import (
    BACK_OFFICE_ACTIONS,
    ActionType,
    PolicyId,
    Priority,
    Queue,
    ResolutionCode,
    Severity,
    Tag,
)
from service.gold import gold
from tests.servers import LiveServer

CATALOG = default_catalog()
TASK, SEED = "task_easy_password", 7
ENDING = ("terminated", "truncated", "end_reason")
Player = Callable[[LiveServer, list[dict[str, Any]]], list[dict[str, Any]]]
"""Plays the actions in a fresh episode of TASK; the answers' ending members, reset first."""

_ids = itertools.count()


def _ending(answer: dict[str, Any]) -> dict[str, Any]:
    assert answer["done"] == answer["observation"]["done"]
    return {"done": answer["done"], **{k: answer[k] for k in ENDING}}


def http_wrapped(server: LiveServer, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        out = [_ending(client.post("/reset", json={"task_id": TASK, "seed": SEED}).json())]
        for action in actions:
            answer = client.post("/step", json={"action": action}).json()
            out.append(_ending(answer))
        state = client.get("/state").json()
    assert {k: state[k] for k in ("done", *ENDING)} == out[-1]
    return out


def http_bare(server: LiveServer, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    episode = f"gym-bare-{next(_ids)}"
    headers = {"X-Episode-Key": "gym-fields-test-key-0001"}
    with httpx.Client(base_url=server.url, timeout=30, headers=headers) as client:
        out = [_ending(client.post("/reset", json={"task_id": TASK, "seed": SEED,
                                                  "episode_id": episode}).json())]
        for action in actions:
            answer = client.post("/step", json={**action, "episode_id": episode}).json()
            assert answer["info"]["end_reason"] == answer["end_reason"]
            out.append(_ending(answer))
    return out


def ws(server: LiveServer, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    with ws_connect(server.url.replace("http", "ws", 1) + "/ws") as conn:
        def send(message: dict[str, Any]) -> dict[str, Any]:
            conn.send(json.dumps(message))
            reply: dict[str, Any] = json.loads(conn.recv(timeout=30))
            return reply["data"]  # type: ignore[no-any-return]

        out = [_ending(send({"type": "reset", "data": {"task_id": TASK, "seed": SEED}}))]
        out += [_ending(send({"type": "step", "data": action})) for action in actions]
        state = send({"type": "state"})
    assert {k: state[k] for k in ("done", *ENDING)} == out[-1]
    return out


def mcp(server: LiveServer, actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
            reply = client.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                              "params": {"name": name, "arguments": args}}).json()
            result = reply["result"]
            assert not result["isError"], result
            assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
            return result["structuredContent"]  # type: ignore[no-any-return]

        out = [_ending(call("reset", {"task_id": TASK, "seed": SEED}))]
        for action in actions:
            args = {k: v for k, v in action.items() if k != "action_type"}
            out.append(_ending(call(action["action_type"], args)))
    return out


PLAYERS = {"http-wrapped": http_wrapped, "http-bare": http_bare, "ws": ws, "mcp": mcp}


@pytest.fixture(scope="module")
def server(live_server: LiveServer) -> Iterator[LiveServer]:
    yield live_server


@pytest.mark.parametrize("transport", sorted(PLAYERS))
def test_a_solved_episode_is_terminated_not_truncated(transport: str, server: LiveServer) -> None:
    plan = gold(CATALOG.instance(TASK, SEED))
    seen = PLAYERS[transport](server, plan)
    going = {"done": False, "terminated": False, "truncated": False, "end_reason": None}
    assert seen[:-1] == [going] * len(plan)
    last = seen[-1]
    assert last["done"] and last["terminated"] and not last["truncated"], last
    assert last["end_reason"] in END_STATES


@pytest.mark.parametrize("transport", sorted(PLAYERS))
def test_an_episode_out_of_steps_is_truncated_not_terminated(transport: str,
                                                             server: LiveServer) -> None:
    max_steps = CATALOG.instance(TASK, SEED).max_steps
    seen = PLAYERS[transport](server, [{"action_type": "noop"}] * max_steps)
    going = {"done": False, "terminated": False, "truncated": False, "end_reason": None}
    assert seen[:-1] == [going] * max_steps
    assert seen[-1] == {"done": True, "terminated": False, "truncated": True,
                        "end_reason": "max_steps"}
    assert "max_steps" in LIMITS


def test_every_end_reason_is_an_end_state_or_a_limit_never_both() -> None:
    """The reasons ``decide`` gives in a step, and those ``end`` takes from outside one (the
    closings), are split in two; ``domain.decide`` is the one place that ends episodes."""
    made = set(re.findall(r'EpisodeEnded\("(\w+)"\)', inspect.getsource(domain.decide)))
    assert made | CLOSINGS == END_STATES | LIMITS and not END_STATES & LIMITS
    assert CLOSINGS <= LIMITS and not made & CLOSINGS


def test_the_observation_lists_the_allowed_values_and_each_is_accepted(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        allowed = client.post("/reset", json={"task_id": TASK, "seed": SEED}).json()[
            "observation"]["allowed"]
        assert allowed == {
            "action_type": ActionType.allowed(), "back_office_actions": list(BACK_OFFICE_ACTIONS),
            "priority": Priority.allowed(), "queue": Queue.allowed(), "tag": Tag.allowed(),
            "resolution_code": ResolutionCode.allowed(), "policy_id": PolicyId.allowed(),
            "severity": Severity.allowed()}
        tries = [{"action_type": "classify_priority", "priority": p} for p in allowed["priority"]]
        tries += [{"action_type": "assign_queue", "queue": q} for q in allowed["queue"]]
        tries += [{"action_type": "add_tag", "tag": t} for t in allowed["tag"]]
        tries += [{"action_type": "lookup_policy", "policy_id": p} for p in allowed["policy_id"]]
        episode = None
        for n, action in enumerate(tries):
            if episode is None or n % 4 == 0:  # fresh episodes: max_steps is small
                episode = client.post("/reset", json={"task_id": TASK, "seed": SEED}).json()[
                    "episode_id"]
            answer = client.post("/step", json={"action": action, "episode_id": episode}).json()
            assert answer["observation"]["last_action_error"] is None, (action, answer)
        assert set(allowed["back_office_actions"]) <= set(allowed["action_type"])
