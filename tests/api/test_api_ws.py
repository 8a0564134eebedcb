"""``WS /ws`` against a real server: OpenEnv's own client, many sessions, every error code."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from api.app import create_app
from domain.tasks import default_catalog
from service import EnvironmentService
from service.gold import gold
from service.settings import read
from store import open_database
from tests.servers import LiveServer, episode_events, free_port, log_size, start_server

CATALOG = default_catalog()


def ws_url(server: LiveServer) -> str:
    return server.url.replace("http://", "ws://") + "/ws"


async def exchange(ws: Any, message: Any) -> dict[str, Any]:
    await ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))
    return json.loads(await asyncio.wait_for(ws.recv(), timeout=30))


async def play(server: LiveServer, task_id: str, seed: int) -> dict[str, Any]:
    """One full episode through OpenEnv's GenericEnvClient; what it saw, for checking."""
    # imported here: openenv.core loads gradio, seconds in every worker collecting this file
    from openenv.core.generic_client import GenericEnvClient

    task = CATALOG.instance(task_id, seed)
    plan = gold(task)
    async with GenericEnvClient(base_url=server.url) as env:
        first = await env.reset(task_id=task_id, seed=seed)
        rewards, result = [], first
        for action in plan:
            assert not result.done
            result = await env.step(action)
            rewards.append(result.reward)
        state = await env.state()
    return {"episode_id": first.observation["episode_id"], "plan": plan, "rewards": rewards,
            "done": result.done, "state": state, "first_reward": first.reward}


def test_openenv_client_runs_32_sessions_at_once_with_complete_separate_logs(
        live_server: LiveServer) -> None:
    jobs = [(CATALOG.task_ids[i % len(CATALOG.task_ids)], 100 + i) for i in range(32)]

    async def run_all() -> list[dict[str, Any]]:
        return await asyncio.gather(*(play(live_server, t, s) for t, s in jobs))

    runs = asyncio.run(run_all())
    assert len({r["episode_id"] for r in runs}) == 32
    for run in runs:
        assert run["first_reward"] is None and run["done"] is True
        assert round(sum(run["rewards"]), 4) == 1.0 == run["state"]["score"]
        assert run["state"]["episode_id"] == run["episode_id"]
        assert run["state"]["step_count"] == len(run["plan"])
        recorded = episode_events(live_server.database_url, run["episode_id"])
        assert [e.seq for e in recorded] == list(range(1, len(recorded) + 1))
        assert recorded[0].type == "EpisodeStarted" and recorded[-1].type == "StepGraded"
        assert {e.episode_id for e in recorded} == {run["episode_id"]}
        received = [e.data["actions"] for e in recorded if e.type == "ActionReceived"]
        assert received == [[action] for action in run["plan"]]
        assert recorded[-1].data["done"] is True and recorded[-1].hash == run["state"]["head_hash"]


def test_every_protocol_error_gets_its_code_and_the_session_carries_on(
        live_server: LiveServer) -> None:
    async def scenario() -> dict[str, Any]:
        seen: dict[str, Any] = {}
        async with websockets.connect(ws_url(live_server)) as ws:
            seen["state_before"] = await exchange(ws, {"type": "state"})
            seen["step_before"] = await exchange(ws, {"type": "step", "data": {"action_type": "noop"}})
            seen["bad_json"] = await exchange(ws, "{not json")
            seen["bad_utf8"] = await exchange(ws, b"\xff\xfe")
            seen["not_object"] = await exchange(ws, "[1, 2]")
            seen["unknown_type"] = await exchange(ws, {"type": "teleport"})
            seen["bad_data"] = await exchange(ws, {"type": "reset", "data": [1]})
            seen["unknown_task"] = await exchange(ws, {"type": "reset", "data": {"task_id": "nope"}})
            seen["reset"] = await exchange(ws, {"type": "reset", "data": {"task_id": "task_easy_password"}})
            episode = seen["reset"]["data"]["episode_id"]
            seen["log_before"] = len(episode_events(live_server.database_url, episode))
            seen["bad_action"] = await exchange(ws, {"type": "step", "data": {
                "action_type": "classify_priority", "priority": "sky-high"}})
            seen["too_long"] = await exchange(ws, {"type": "step", "data": {
                "action_type": "draft_reply", "reply_text": "x" * 4001}})
            seen["huge"] = await exchange(ws, {"type": "step", "data": {
                "action_type": "draft_reply", "reply_text": "x" * 70_000}})
            seen["log_after"] = len(episode_events(live_server.database_url, episode))
            seen["wrapped"] = await exchange(ws, {"type": "step", "data": {"action": {
                "action_type": "resolve_ticket", "resolution_code": "awaiting_customer_confirmation"}}})
            seen["state"] = await exchange(ws, {"type": "state"})
            await ws.send(json.dumps({"type": "close"}))
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), timeout=10)
        return seen

    seen = asyncio.run(scenario())
    codes = {k: v["data"].get("code") for k, v in seen.items()
             if isinstance(v, dict) and v.get("type") == "error"}
    assert codes == {"step_before": "EXECUTION_ERROR", "bad_json": "INVALID_JSON",
                     "bad_utf8": "INVALID_JSON", "not_object": "VALIDATION_ERROR",
                     "unknown_type": "UNKNOWN_TYPE", "bad_data": "VALIDATION_ERROR",
                     "unknown_task": "VALIDATION_ERROR", "bad_action": "VALIDATION_ERROR",
                     "too_long": "VALIDATION_ERROR", "huge": "VALIDATION_ERROR"}
    assert seen["state_before"] == {"type": "state", "data": seen["state_before"]["data"]}
    assert seen["state_before"]["data"]["episode_id"] is None
    assert seen["state_before"]["data"]["step_count"] == 0
    assert "reset" in seen["step_before"]["data"]["message"]
    assert "task_easy_password" in seen["unknown_task"]["data"]["message"]
    assert seen["bad_action"]["data"]["field"] == "priority"
    assert "low" in seen["bad_action"]["data"]["allowed"]
    assert seen["too_long"]["data"]["field"] == "reply_text"
    assert "4000" in seen["too_long"]["data"]["message"]
    assert "limit" in seen["huge"]["data"]["message"]
    assert seen["log_before"] == seen["log_after"]
    assert seen["wrapped"]["type"] == "observation"
    assert seen["state"]["data"]["step_count"] == 1
    assert httpx.get(live_server.url + "/health").json() == {"status": "healthy"}


def test_a_step_after_the_end_is_an_execution_error_and_logs_nothing(live_server: LiveServer) -> None:
    task = CATALOG.instance("task_easy_refund_tag", None)

    async def scenario() -> tuple[dict[str, Any], int, int]:
        async with websockets.connect(ws_url(live_server)) as ws:
            reply = await exchange(ws, {"type": "reset", "data": {"task_id": task.task_id}})
            for action in gold(task):
                reply = await exchange(ws, {"type": "step", "data": action})
            assert reply["data"]["done"] is True
            before = log_size(live_server.database_url)
            late = await exchange(ws, {"type": "step", "data": {"action_type": "noop"}})
            return late, before, log_size(live_server.database_url)

    late, before, after = asyncio.run(scenario())
    assert late["data"]["code"] == "EXECUTION_ERROR" and late["data"]["status"] == 409
    assert "ended" in late["data"]["message"] and before == after


def test_the_default_server_holds_256_sessions(live_server: LiveServer) -> None:
    async def scenario() -> list[dict[str, Any]]:
        sockets = [await websockets.connect(ws_url(live_server)) for _ in range(256)]
        try:
            return [await exchange(ws, {"type": "state"}) for ws in sockets]
        finally:
            await asyncio.gather(*(ws.close() for ws in sockets))

    replies = asyncio.run(scenario())
    assert all(r["type"] == "state" for r in replies)


@pytest.fixture(scope="module")
def small_server(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path_factory.mktemp('small') / 'small.db'}"
    with start_server(url, env={"TICKETLEDGER_MAX_SESSIONS": "2",
                                "TICKETLEDGER_SESSION_IDLE_TIMEOUT": "3"}) as server:
        yield server


async def reset_once_a_slot_is_free(server: LiveServer) -> dict[str, Any]:
    """A reset on a new session, tried again while the server is still freeing a closed session's
    slot (it does so after the close handshake, so no fixed wait is long enough). A refused session
    answers with CAPACITY_REACHED or is already closed; any other reply is returned."""
    reply: dict[str, Any] = {}
    for _ in range(100):
        async with websockets.connect(ws_url(server)) as ws:
            try:
                reply = await exchange(ws, {"type": "reset", "data": {}})
            except websockets.ConnectionClosed:
                reply = {"type": "error", "data": {"code": "CAPACITY_REACHED"}}
        if reply.get("data", {}).get("code") != "CAPACITY_REACHED":
            return reply
        await asyncio.sleep(0.05)
    return reply


def test_past_the_session_limit_a_connection_gets_capacity_reached(small_server: LiveServer) -> None:
    async def scenario() -> tuple[dict[str, Any], int | None, dict[str, Any]]:
        first = await websockets.connect(ws_url(small_server))
        second = await websockets.connect(ws_url(small_server))
        try:
            await exchange(first, {"type": "state"})
            await exchange(second, {"type": "state"})
            async with websockets.connect(ws_url(small_server)) as third:
                refused = json.loads(await asyncio.wait_for(third.recv(), timeout=10))
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(third.recv(), timeout=10)
            await first.close()
            again = await reset_once_a_slot_is_free(small_server)
        finally:
            await first.close()
            await second.close()
        return refused, closed.value.rcvd.code if closed.value.rcvd else None, again

    refused, close_code, again = asyncio.run(scenario())
    assert refused["type"] == "error" and refused["data"]["code"] == "CAPACITY_REACHED"
    assert refused["data"]["max_sessions"] == 2 and "TICKETLEDGER_MAX_SESSIONS" in refused["data"]["message"]
    assert close_code == 1013
    assert again["type"] == "observation"


def test_an_idle_session_times_out(small_server: LiveServer) -> None:
    async def scenario() -> dict[str, Any]:
        async with websockets.connect(ws_url(small_server)) as ws:
            await exchange(ws, {"type": "reset", "data": {"episode_id": "idle_" + secrets.token_hex(4)}})
            notice = json.loads(await asyncio.wait_for(ws.recv(), timeout=15))
            with pytest.raises(websockets.ConnectionClosed):
                await asyncio.wait_for(ws.recv(), timeout=10)
            return notice

    notice = asyncio.run(scenario())
    assert notice["data"]["code"] == "SESSION_ERROR" and "idle" in notice["data"]["message"]


def test_a_session_can_go_on_with_a_recorded_episode_by_naming_it(live_server: LiveServer) -> None:
    """E.g. a fork made through the audit routes, or an episode reset over HTTP: the step names the
    episode (a server-made id; a chosen one is scoped to its client's key), the session follows."""
    episode = httpx.post(live_server.url + "/reset", json={"task_id": "task_easy_password"}).json()[
        "episode_id"]

    async def scenario() -> list[dict[str, Any]]:
        async with websockets.connect(ws_url(live_server)) as ws:
            return [
                await exchange(ws, {"type": "step", "data": {"action_type": "noop",
                                                             "episode_id": "ep_not_there"}}),
                await exchange(ws, {"type": "step", "data": {"action_type": "classify_priority",
                                                             "priority": "medium",
                                                             "episode_id": episode}}),
                await exchange(ws, {"type": "step", "data": {"action": {
                    "action_type": "assign_queue", "queue": "account"}}}),
                await exchange(ws, {"type": "state"}),
            ]

    missing, first, second, state = asyncio.run(scenario())
    assert missing["data"]["code"] == "EXECUTION_ERROR" and missing["data"]["status"] == 404
    assert first["data"]["episode_id"] == second["data"]["episode_id"] == episode
    assert state["data"]["step_count"] == 2 and state["data"]["queue"] == "account"


def test_a_frame_past_the_transport_cap_closes_only_that_connection(live_server: LiveServer) -> None:
    """Frames over 4x the body limit (at least 1 MiB) are refused by the server's WebSocket layer."""
    async def scenario() -> int | None:
        async with websockets.connect(ws_url(live_server), max_size=None) as ws:
            with pytest.raises(websockets.ConnectionClosed) as closed:  # while sending, or after
                await ws.send("x" * (2 << 20))
                await asyncio.wait_for(ws.recv(), timeout=10)
            return closed.value.rcvd.code if closed.value.rcvd else None

    assert asyncio.run(scenario()) == 1009  # message too big
    assert httpx.get(live_server.url + "/health").json() == {"status": "healthy"}


@contextlib.contextmanager
def serving_in_this_process(app: Any) -> Iterator[str]:
    """``app`` on a real uvicorn on 127.0.0.1, in a thread of this process (so a test can reach
    into its service); yields the ``/ws`` URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=2) as http:
            for _ in range(200):
                if server.started:
                    assert http.get("/health").status_code == 200
                    break
                time.sleep(0.05)
        assert server.started
        yield f"ws://127.0.0.1:{port}/ws"
    finally:
        server.should_exit = True
        thread.join(30)


def test_one_sessions_slow_write_does_not_stall_another_session(sqlite_url: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Session A's step is held inside its database write (its append waits for the test); session
    B resets and steps meanwhile and gets its answers; then A's step completes. Nothing is timed:
    if A's write held up the server, B's answer could only come after A's release.

    With the threads a server runs where calls wait without the GIL (PostgreSQL, an LLM judge or
    customer: ``api.deps.service_threads``). On SQLite with neither, one thread takes every call
    (a second would only queue for the GIL and the one write turn), and the one slow database
    call, the WAL checkpoint, runs in a thread of its own (``tests/store``)."""
    monkeypatch.setattr("api.deps.service_threads", lambda service: 4)
    settings = read({"DATABASE_URL": sqlite_url})
    service = EnvironmentService(open_database(sqlite_url))
    real_append = service.store.append
    held: list[str] = []
    inside, release = threading.Event(), threading.Event()

    def held_append(episode_id: str, *args: Any, **kwargs: Any) -> Any:
        if episode_id in held:
            inside.set()
            assert release.wait(60)
        return real_append(episode_id, *args, **kwargs)

    monkeypatch.setattr(service.store, "append", held_append)
    reset = {"type": "reset", "data": {"task_id": "task_easy_password"}}
    step = {"type": "step", "data": {"action_type": "classify_priority", "priority": "high"}}

    async def scenario(url: str) -> None:
        async with websockets.connect(url) as a, websockets.connect(url) as b:
            held.append((await exchange(a, reset))["data"]["episode_id"])
            await a.send(json.dumps(step))
            assert await asyncio.to_thread(inside.wait, 30)  # A is inside its write now
            try:
                b_reset = await exchange(b, reset)
                b_step = await exchange(b, step)
                assert not release.is_set()
            finally:
                release.set()
            assert b_step["type"] == "observation" and b_step["data"]["observation"]["step_count"] == 1
            assert b_step["data"]["episode_id"] == b_reset["data"]["episode_id"] != held[0]
            a_step = json.loads(await asyncio.wait_for(a.recv(), timeout=30))
            assert a_step["type"] == "observation" and a_step["data"]["episode_id"] == held[0]

    try:
        with serving_in_this_process(create_app(settings, service)) as url:
            asyncio.run(scenario(url))
    finally:
        release.set()
        service.db.dispose()


def test_steps_that_queue_while_the_threads_are_busy_are_committed_together(
        sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With its one thread busy (a step held inside the service), the steps of several sessions
    queue up and then go to the service as one ``step_many`` (one commit); each gets its own
    outcome, a second step of one episode its 409."""
    from api.deps import Environment, ServiceThreads
    from api.episode_routing import target
    from service import EpisodeBusy

    service = EnvironmentService(open_database(sqlite_url))
    env = Environment(service, read({"DATABASE_URL": sqlite_url}))
    env.threads = ServiceThreads(service, threads=1)
    ids = [service.reset("task_easy_password", seed=n).episode_id for n in range(4)]
    busy, ids = ids[0], ids[1:]
    batches: list[list[str]] = []
    real_step, real_step_many = service.step, service.step_many
    inside, release = threading.Event(), threading.Event()

    def held_step(episode_id: str, action: Any) -> Any:
        inside.set()
        assert release.wait(30)
        return real_step(episode_id, action)

    def recorded_step_many(steps: Any) -> Any:
        batches.append([eid for eid, _ in steps])
        return real_step_many(steps)

    monkeypatch.setattr(service, "step", held_step)
    monkeypatch.setattr(service, "step_many", recorded_step_many)
    noop = {"action_type": "noop"}

    async def together() -> list[Any]:
        first = asyncio.ensure_future(env.step(target(busy, None), noop))  # the thread takes it alone
        assert await asyncio.to_thread(inside.wait, 30)  # and holds it
        rest = asyncio.gather(*(env.step(target(eid, None), noop) for eid in [*ids, ids[0]]),
                              return_exceptions=True)
        for _ in range(3):
            await asyncio.sleep(0)  # each of them queues its step
        release.set()
        assert (await first).state.step_count == 1
        return await rest

    try:
        outcomes = asyncio.run(together())
    finally:
        release.set()
        env.close()
        service.db.dispose()
    assert batches == [[*ids, ids[0]]]
    assert [o.state.step_count for o in outcomes[:3]] == [1, 1, 1]
    assert [o.episode_id for o in outcomes[:3]] == ids
    assert isinstance(outcomes[3], EpisodeBusy) and outcomes[3].status == 409
