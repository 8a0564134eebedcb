"""Filing episodes under a run needs that run's secret or the audit token, on every transport
(the release that made recorded results tamper-evident): ``POST /reset``, MCP's ``reset`` tool and ``/ws``.

A real server with an audit token set, on the suite's backend. A refused reset writes nothing, and
answers alike for an unknown run, a wrong secret, an ended run and a run recorded before secrets.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import func, select, update

from service import EnvironmentService
from store import open_database
from store.runs import RunStore, secret_hash
from store.schema import episodes, runs
from tests.audit_helpers import live_server, scratch_database
from tests.play import play

TOKEN = "run-secrets-audit-token"
AUDIT = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with scratch_database(tmp_path_factory.mktemp("runsecrets")) as url:
        yield url


@pytest.fixture(scope="module")
def baseline_run(database_url: str) -> str:
    """A finished baseline run recorded in-process, before the server starts: the probe's target."""
    db = open_database(database_url)
    try:
        store = RunStore(db)
        store.start("run_baseline", "policy:builtin", {"trials": 1})
        service = EnvironmentService(db)
        for task_id in ("task_easy_password", "task_easy_refund_tag"):
            play(service, task_id, run_id="run_baseline")
        store.finish("run_baseline", {"episodes": 2})
    finally:
        db.dispose()
    return "run_baseline"


@pytest.fixture(scope="module")
def server(database_url: str, baseline_run: str,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("runsecrets-log") / "server.log"
    with live_server(database_url, log, TICKETLEDGER_AUDIT_TOKEN=TOKEN) as base:
        yield base


@pytest.fixture
def http(server: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server, timeout=30) as client:
        yield client


def _filed(database_url: str, run_id: str) -> int:
    db = open_database(database_url)
    try:
        with db.read() as conn:
            return int(conn.execute(select(func.count()).select_from(episodes)
                                    .where(episodes.c.run_id == run_id)).scalar_one())
    finally:
        db.dispose()


def _new_run(http: httpx.Client, agent: str = "policy:test") -> tuple[str, str]:
    created = http.post("/runs", json={"agent": agent, "config": {"trials": 1}})
    assert created.status_code == 201, created.text
    body = created.json()
    return body["run_id"], body["run_secret"]


def _refusal(response: httpx.Response, run_id: str) -> dict[str, Any]:
    """A refusal's body with the run id named generically, so refusals can be compared."""
    assert response.status_code == 403, response.text
    return json.loads(response.text.replace(run_id, "<run>"))


def test_post_runs_hands_out_a_secret_once_and_stores_only_its_hash(
        http: httpx.Client, database_url: str) -> None:
    run_id, secret = _new_run(http, "model:probe-test")
    other_id, other_secret = _new_run(http)
    assert run_id != other_id and secret != other_secret and len(secret) >= 40
    db = open_database(database_url)
    try:
        with db.read() as conn:
            row = conn.execute(select(runs).where(runs.c.run_id == run_id)).one()
    finally:
        db.dispose()
    assert row.secret_hash == secret_hash(secret) and secret not in json.dumps(
        [str(v) for v in row])
    assert row.agent == "model:probe-test" and row.status == "running"
    shown = http.get(f"/runs/{run_id}", headers=AUDIT).json()
    assert "secret" not in json.dumps(shown)
    assert http.post("/runs", json={"agent": ""}).status_code == 422
    assert http.post("/runs", json={"agent": "x", "run_secret": "mine"}).status_code == 422
    nan = http.post("/runs", content='{"agent": "x", "config": {"a": NaN}}',
                    headers={"Content-Type": "application/json"})
    assert nan.status_code == 422 and "finite" in nan.json()["detail"]


def test_reset_under_a_run_needs_its_secret_and_nothing_is_written_otherwise(
        http: httpx.Client, database_url: str) -> None:
    run_id, secret = _new_run(http)
    _, other_secret = _new_run(http)
    asked = {"task_id": "task_easy_password", "run_id": run_id}
    refusals = [
        _refusal(http.post("/reset", json=asked), run_id),
        _refusal(http.post("/reset", json=asked, headers={"X-Run-Secret": other_secret}), run_id),
        _refusal(http.post("/reset", json=asked, headers={"X-Run-Secret": secret[:-1]}), run_id),
        _refusal(http.post("/reset", json=asked, headers={"Authorization": "Bearer wrong"}), run_id),
        _refusal(http.post("/reset", json={**asked, "run_id": "run_nobody"},
                           headers={"X-Run-Secret": secret}), "run_nobody"),
    ]
    assert all(r == refusals[0] for r in refusals), refusals  # an unknown run answers alike
    assert refusals[0]["code"] == "run_forbidden" and "X-Run-Secret" in refusals[0]["detail"]
    assert _filed(database_url, run_id) == 0 and _filed(database_url, "run_nobody") == 0
    assert "set-cookie" not in http.post("/reset", json=asked).headers  # no episode to route to
    ok = http.post("/reset", json=asked, headers={"X-Run-Secret": secret})
    assert ok.status_code == 200, ok.text
    assert http.post("/reset", json=asked, headers=AUDIT).status_code == 200
    assert _filed(database_url, run_id) == 2
    plain = http.post("/reset", json={"task_id": "task_easy_password"})  # no run: as before
    assert plain.status_code == 200 and set(plain.json()) == {
        "observation", "reward", "done", "terminated", "truncated", "end_reason", "episode_id"}


def test_the_probe_cannot_move_a_recorded_runs_mean(http: httpx.Client, baseline_run: str,
                                                    database_url: str) -> None:
    """The issue's probe: cookie-less resets under a finished baseline run, then bad steps."""
    before = http.get(f"/runs/{baseline_run}", headers=AUDIT).json()
    for _ in range(3):
        assert http.post("/reset", json={"task_id": "task_easy_password",
                                         "run_id": baseline_run}).status_code == 403
    assert http.get(f"/runs/{baseline_run}", headers=AUDIT).json()["tasks"] == before["tasks"]
    assert _filed(database_url, baseline_run) == 2


def test_a_run_recorded_before_secrets_takes_only_the_audit_token(
        http: httpx.Client, database_url: str) -> None:
    run_id, secret = _new_run(http)
    db = open_database(database_url)
    try:
        with db.write() as conn:  # as revision 0006 leaves a run recorded before it
            conn.execute(update(runs).where(runs.c.run_id == run_id).values(secret_hash=None))
    finally:
        db.dispose()
    asked = {"task_id": "task_easy_password", "run_id": run_id}
    for headers in ({"X-Run-Secret": secret}, {"X-Run-Secret": ""}, {}):
        assert http.post("/reset", json=asked, headers=headers).status_code == 403
    assert _filed(database_url, run_id) == 0
    assert http.post("/reset", json=asked, headers=AUDIT).status_code == 200
    assert _filed(database_url, run_id) == 1


def test_mcp_reset_tool_needs_the_secret_too(http: httpx.Client, database_url: str) -> None:
    run_id, secret = _new_run(http)
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "reset", "arguments": {"task_id": "task_easy_password",
                                                      "run_id": run_id}}}
    refused = http.post("/mcp", json=call).json()["result"]
    assert refused["isError"] is True and refused["structuredContent"]["status"] == 403
    assert _filed(database_url, run_id) == 0
    allowed = http.post("/mcp", json=call, headers={"X-Run-Secret": secret}).json()["result"]
    assert allowed["isError"] is False, allowed
    assert _filed(database_url, run_id) == 1


async def _ws_reset(server: str, run_id: str, headers: dict[str, str]) -> dict[str, Any]:
    url = server.replace("http://", "ws://") + "/ws"
    async with websockets.connect(url, additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "reset", "data": {"task_id": "task_easy_password",
                                                            "run_id": run_id}}))
        answer: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), timeout=30))
        return answer


def test_ws_reset_needs_the_secret_on_the_handshake(server: str, http: httpx.Client,
                                                    database_url: str) -> None:
    run_id, secret = _new_run(http)
    refused = asyncio.run(_ws_reset(server, run_id, {}))
    assert refused["type"] == "error" and refused["data"]["status"] == 403, refused
    assert _filed(database_url, run_id) == 0
    allowed = asyncio.run(_ws_reset(server, run_id, {"X-Run-Secret": secret}))
    assert allowed["type"] == "observation", allowed
    assert _filed(database_url, run_id) == 1


def test_finish_ends_the_run_and_closes_it_to_new_episodes(http: httpx.Client,
                                                           database_url: str) -> None:
    run_id, secret = _new_run(http)
    mine = {"X-Run-Secret": secret}
    assert http.post("/reset", json={"task_id": "task_easy_password", "run_id": run_id},
                     headers=mine).status_code == 200
    assert http.post(f"/runs/{run_id}/finish", json={"status": "finished"}).status_code == 403
    done = http.post(f"/runs/{run_id}/finish", json={"status": "finished",
                                                     "summary": {"wall_s": 1.5}}, headers=mine)
    assert done.status_code == 200, done.text
    assert done.json()["status"] == "finished" and done.json()["summary"] == {"wall_s": 1.5}
    # ended: the secret files nothing more and cannot rewrite the summary
    assert http.post("/reset", json={"task_id": "task_easy_password", "run_id": run_id},
                     headers=mine).status_code == 403
    assert http.post(f"/runs/{run_id}/finish", json={"summary": {}}, headers=mine).status_code == 403
    again = http.post(f"/runs/{run_id}/finish", json={"summary": {}}, headers=AUDIT)
    assert again.status_code == 409 and again.json()["code"] == "run_ended"
    assert http.post(f"/runs/{run_id}/finish", json={"status": "running"},
                     headers=mine).status_code == 422
    assert _filed(database_url, run_id) == 1


def test_run_store_secret_rules(tmp_path: Path) -> None:
    """The rule itself, in-process: only the live run's own secret passes."""
    db = open_database(f"sqlite:///{tmp_path / 'runs.db'}")
    try:
        store = RunStore(db)
        secret = store.start("run_one", "policy:x", {})
        other = store.start("run_two", "policy:x", {})
        assert store.may_file("run_one", secret)
        assert not store.may_file("run_one", other) and not store.may_file("run_one", None)
        assert not store.may_file("run_one", "") and not store.may_file("run_none", secret)
        assert store.finish("run_one", {}) and not store.finish("run_one", {})
        assert not store.may_file("run_one", secret)
        with pytest.raises(ValueError):
            store.finish("run_two", {}, status="running")
    finally:
        db.dispose()
