"""Ending an episode from outside a step over the wire, against a real server: ``POST /end`` (a
driver that stopped a rollout: ``cut_off``), and a private ``/ws`` session that ends with the
episode its reset opened still open (``disconnected``), driven by OpenEnv's own client."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any

import httpx
import websockets

from service.audit_views import Auditor
from store import open_database
from tests.servers import LiveServer, episode_events, log_size

TASK = "task_medium_double_charge"


def _ended_with(server: LiveServer, episode_id: str, timeout: float = 20.0) -> list[Any]:
    """The episode's log once its last event is an ``EpisodeEnded`` (a session's end is handled
    after the client has gone: wait for it), or as it is at the timeout."""
    deadline = time.monotonic() + timeout
    while True:
        recorded = episode_events(server.database_url, episode_id)
        if recorded[-1].type == "EpisodeEnded" or time.monotonic() > deadline:
            return recorded
        time.sleep(0.1)


def test_post_end_closes_the_routed_episode_with_cut_off_and_pays_nothing(
        live_server: LiveServer) -> None:
    with httpx.Client(base_url=live_server.url, timeout=30) as client:
        opened = client.post("/reset", json={"task_id": TASK, "seed": 1}).json()
        stepped = client.post("/step", json={"action": {"action_type": "classify_priority",
                                                        "priority": "high"}}).json()
        episode = opened["episode_id"]
        answer = client.post("/end", json={})  # the cookie routes it, as it routes a step
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert (body["done"], body["terminated"], body["truncated"], body["end_reason"]) == (
            True, False, True, "cut_off")
        assert body["reward"] is None and body["grade"] is None and body["episode_id"] == episode
        state = client.get("/state").json()
        assert state["done"] and state["truncated"] and state["end_reason"] == "cut_off"
        assert state["rewards"] == [stepped["reward"]] and state["head_hash"] == body["head_hash"]
        size = log_size(live_server.database_url)
        again = client.post("/end", json={"episode_id": episode})
        assert again.status_code == 409 and "already ended (cut_off)" in again.text
        assert client.post("/step", json={"action": {"action_type": "noop"}}).status_code == 409
        assert log_size(live_server.database_url) == size
    recorded = episode_events(live_server.database_url, episode)
    assert [r.type for r in recorded[-2:]] == ["StepGraded", "EpisodeEnded"]
    report = Auditor(open_database(live_server.database_url)).replay(episode)
    assert report["consistent"] and report["closing"]["reason"] == "cut_off"
    assert report["recorded_score"] == state["score"]  # the score its step earned, unchanged
    # the viewer (open on this loopback server) shows the closing as a row after the steps
    page = httpx.get(f"{live_server.url}/ui/episodes/{episode}", timeout=30).text
    assert 'data-closing="cut_off"' in page and "closed: cut_off (ended from outside a step)" in page
    assert "replay verified" in page


def test_post_end_reaches_only_the_callers_episode_and_says_what_it_takes(
        live_server: LiveServer) -> None:
    chosen = "mine-" + secrets.token_hex(4)
    owner = httpx.Client(base_url=live_server.url, timeout=30)
    other = httpx.Client(base_url=live_server.url, timeout=30)
    with owner, other:
        assert owner.post("/reset", json={"task_id": TASK, "episode_id": chosen}).status_code == 200
        size = log_size(live_server.database_url)
        # another client naming the same id reaches nothing: 404, as for a step
        assert other.post("/end", json={"episode_id": chosen}).status_code == 404
        assert other.post("/end", json={"episode_id": chosen},
                          headers={"X-Episode-Key": "k" * 20}).status_code == 404
        assert other.post("/end", json={}).status_code == 400  # it names none, and has none
        for bad, words in (({"reason": "disconnected"}, "reason must be cut_off"),
                           ({"reason": "max_steps"}, "reason must be cut_off"),
                           ({"why": "x"}, "unknown field 'why'; end takes: episode_id, reason"),
                           ({"episode_id": 7}, "episode_id must be a string")):
            refused = owner.post("/end", json=bad)
            assert refused.status_code == 422 and words in refused.text, (bad, refused.text)
        refused = owner.post("/end", content=b"{nope", headers={"Content-Type": "application/json"})
        assert refused.status_code == 422 and "not valid JSON" in refused.text
        assert log_size(live_server.database_url) == size
        assert owner.get("/state").json()["done"] is False
        assert owner.post("/end").json()["end_reason"] == "cut_off"  # no body: the defaults
    assert episode_events(live_server.database_url, chosen)[-1].data == {"reason": "cut_off"}


def test_a_ws_session_that_ends_with_its_episode_open_ends_it_as_disconnected(
        live_server: LiveServer) -> None:
    """OpenEnv's client resets, takes a step and leaves; the episode its session opened is ended
    as ``disconnected``. One the client finished, and one it only went on with by naming it, are
    left as they are."""
    with httpx.Client(base_url=live_server.url, timeout=30) as http:
        named = http.post("/reset", json={"task_id": TASK, "seed": 4}).json()["episode_id"]

    async def scenario() -> tuple[str, str]:
        # imported here: openenv.core loads gradio, seconds in every worker collecting this file
        from openenv.core.generic_client import GenericEnvClient

        async with GenericEnvClient(base_url=live_server.url) as env:
            first = await env.reset(task_id="task_easy_password", seed=0)
            for _ in range(first.observation["max_steps"]):  # runs out of steps: ends in a step
                result = await env.step({"action_type": "noop"})
            assert result.done
            left = await env.reset(task_id=TASK, seed=2)
            await env.step({"action_type": "classify_priority", "priority": "high"})
        return first.observation["episode_id"], left.observation["episode_id"]

    finished, left = asyncio.run(scenario())
    recorded = _ended_with(live_server, left)
    assert recorded[-1].type == "EpisodeEnded" and recorded[-1].data == {"reason": "disconnected"}
    assert [r.type for r in recorded[-2:]] == ["StepGraded", "EpisodeEnded"]
    assert Auditor(open_database(live_server.database_url)).replay(left)["consistent"]
    ends = [r.data for r in episode_events(live_server.database_url, finished)
            if r.type == "EpisodeEnded"]
    assert ends == [{"reason": "max_steps"}]

    async def follow_then_drop() -> None:
        """A raw connection that goes on with an episode it did not open, then drops without a
        close message."""
        url = live_server.url.replace("http://", "ws://") + "/ws"
        async with websockets.connect(url) as ws:
            await ws.send(json.dumps({"type": "step", "data": {"action_type": "noop",
                                                                "episode_id": named}}))
            await asyncio.wait_for(ws.recv(), timeout=30)
            own = {"type": "reset", "data": {"task_id": TASK, "seed": 6}}
            await ws.send(json.dumps(own))
            opened.append(json.loads(await asyncio.wait_for(ws.recv(), timeout=30)))

    opened: list[dict[str, Any]] = []
    asyncio.run(follow_then_drop())
    own = opened[0]["data"]["episode_id"]
    assert _ended_with(live_server, own)[-1].data == {"reason": "disconnected"}
    assert episode_events(live_server.database_url, named)[-1].type == "StepGraded"
