"""Reward modes chosen at reset: dense (default), sparse, binary. Recorded in EpisodeStarted, handed
to the agent on every reset path, reproduced by replay; the task score is the same in every mode."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from baseline import config as cfg
from domain import events as ev
from domain.rewards import REWARD_MODES
from domain.tasks import default_catalog
from service import EnvironmentService
from service.audit_views import Auditor
from service.environment import to_domain
from service.errors import BadRequest
from service.gold import gold
from tests.servers import LiveServer

CATALOG = default_catalog()
TASK = "task_medium_double_charge"


def run(service: EnvironmentService, mode: str | None, actions: list[dict[str, Any]]) -> list[Any]:
    reset = service.reset(TASK) if mode is None else service.reset(TASK, reward_mode=mode)
    results = [reset]
    for action in actions:
        if results[-1].done:
            break
        results.append(service.step(reset.episode_id, action))
    return results


def expert() -> list[dict[str, Any]]:
    return gold(CATALOG.instance(TASK))


def test_the_modes_hand_out_the_same_grades_differently(service: EnvironmentService) -> None:
    dense = run(service, None, expert())
    sparse = run(service, "sparse", expert())
    binary = run(service, "binary", expert())
    assert dense[-1].done and dense[-1].state.score == 1.0
    grades = [r.grade.reward for r in dense[1:]]
    assert [r.reward for r in dense[1:]] == grades and sum(grades) == pytest.approx(1.0)
    assert [r.reward for r in sparse[1:]] == [0.0] * (len(grades) - 1) + [1.0]
    assert [r.reward for r in binary[1:]] == [0.0] * (len(grades) - 1) + [1.0]
    for results in (sparse, binary):  # the grade and the score are the mode-independent facts
        assert [r.grade.reward for r in results[1:]] == grades
        assert [r.state.score for r in results] == [r.state.score for r in dense]
        assert [r.observation.reward for r in results[1:]] == [r.reward for r in results[1:]]


def test_binary_pays_only_at_the_threshold_and_sparse_pays_the_score(service: EnvironmentService) -> None:
    # the expert's work with the wrong priority: done, above 0, below the threshold
    weak = [dict(a, priority="low") if a["action_type"] == "classify_priority" else a for a in expert()]
    weak = [dict(a, queue="technical") if a["action_type"] == "assign_queue" else a for a in weak]
    sparse = run(service, "sparse", weak)
    binary = run(service, "binary", weak)
    score = sparse[-1].state.score
    assert sparse[-1].done and 0 < score < CATALOG.instance(TASK).success_threshold
    assert [r.reward for r in sparse[1:]] == [0.0] * (len(sparse) - 2) + [score]
    assert [r.reward for r in binary[1:]] == [0.0] * (len(binary) - 1)


@pytest.mark.parametrize("mode", REWARD_MODES)
def test_the_mode_is_recorded_and_replay_reproduces_its_rewards(service: EnvironmentService,
                                                                mode: str) -> None:
    results = run(service, mode, expert())
    episode_id = results[0].episode_id
    opening = to_domain(service.load_events(episode_id)[0])
    assert isinstance(opening, ev.EpisodeStarted) and opening.reward_mode == mode
    fresh = EnvironmentService(service.db, service.catalog)  # folded from the log alone
    assert fresh.state(episode_id).rewards == tuple(r.reward for r in results[1:])
    report = Auditor(service.db).replay(episode_id)
    assert report["consistent"] and report["reward_mode"] == mode
    assert [s["agent_reward"] for s in report["steps"]] == [r.reward for r in results[1:]]


def test_a_bad_mode_is_refused_naming_the_allowed_ones(service: EnvironmentService) -> None:
    with pytest.raises(BadRequest, match="reward_mode must be one of dense, sparse, binary"):
        service.reset(TASK, reward_mode="shaped")


def test_a_v1_opening_event_reads_as_dense() -> None:
    variant = CATALOG.variant(TASK)
    data = {k: v for k, v in ev.EpisodeStarted("e", TASK, None, variant.digest, variant).data.items()
            if k != "reward_mode"}
    opened = ev.upcast("EpisodeStarted", 1, data)
    assert isinstance(opened, ev.EpisodeStarted) and opened.reward_mode == "dense"


def test_inference_takes_the_mode_from_a_flag_or_the_environment() -> None:
    assert cfg.REWARD_MODES == REWARD_MODES
    assert cfg.load([], {}).reward_mode == "dense"
    assert cfg.load([], {"REWARD_MODE": "Sparse"}).reward_mode == "sparse"
    assert cfg.load(["--reward-mode", "binary"], {"REWARD_MODE": "sparse"}).reward_mode == "binary"
    with pytest.raises(cfg.ConfigError, match="REWARD_MODE must be one of dense, sparse, binary"):
        cfg.load(["--reward-mode", "shaped"], {})


def test_every_reset_path_of_the_server_takes_the_mode(live_server: LiveServer) -> None:
    plan = expert()
    with httpx.Client(base_url=live_server.url) as http:
        # POST /reset, then both step dialects: OpenEnv's wrapped body and the seed's bare one
        first = http.post("/reset", json={"task_id": TASK, "reward_mode": "sparse"}).json()
        episode = first["episode_id"]
        wrapped = http.post("/step", json={"action": plan[0], "episode_id": episode}).json()
        bare = http.post("/step", json=plan[1], headers={"X-Episode-Id": episode}).json()
        assert wrapped["reward"] == 0.0 and wrapped["observation"]["reward"] == 0.0
        assert bare["reward"]["score"] == 0.0 and bare["info"]["task_score"] > 0
        for action in plan[2:]:
            last = http.post("/step", json={"action": action, "episode_id": episode}).json()
        assert last["done"] and last["reward"] == 1.0
        # absent: dense, as before
        dense = http.post("/reset", json={"task_id": TASK}).json()["episode_id"]
        step = http.post("/step", json={"action": plan[0], "episode_id": dense}).json()
        assert step["reward"] > 0  # dense: the first step's triage earns at once
        bad = http.post("/reset", json={"task_id": TASK, "reward_mode": "shaped"})
        assert bad.status_code == 422
        assert bad.json()["detail"] == "reward_mode must be one of dense, sparse, binary"
        # /mcp reset tool
        call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                "params": {"name": "reset", "arguments": {"task_id": TASK, "reward_mode": "binary"}}}
        made = http.post("/mcp", json=call).json()["result"]["structuredContent"]
        events = http.get(f"/episodes/{made['episode_id']}/events").json()["events"]
        assert events[0]["data"]["reward_mode"] == "binary"

    async def over_ws() -> tuple[dict[str, Any], dict[str, Any]]:
        async with websockets.connect(live_server.url.replace("http://", "ws://") + "/ws") as ws:
            await ws.send(json.dumps({"type": "reset", "data": {"task_id": TASK, "reward_mode": "sparse"}}))
            json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "step", "data": plan[0]}))
            stepped = json.loads(await ws.recv())
            await ws.send(json.dumps({"type": "reset", "data": {"reward_mode": "nope"}}))
            return stepped, json.loads(await ws.recv())

    stepped, refused = asyncio.run(over_ws())
    assert stepped["type"] == "observation" and stepped["data"]["reward"] == 0.0
    assert refused["type"] == "error" and "dense, sparse, binary" in refused["data"]["message"]
