"""Several server processes on one PostgreSQL, and SQLite refusing several workers.

Cross-worker routing is made deterministic by running separate server processes on different
ports over one database (what ``--workers N`` does behind one port, where the kernel picks the
worker): an episode opened on one is stepped through the others over stateful HTTP. Concurrent
steps on one episode through two servers give exactly one winner and a 409 for the other, or,
when the two requests did not overlap, two successes with consecutive step counts; either way the
log has no gap, no duplicate, and exactly the steps that were answered 200.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from bench.load import audit, drive
from domain.tasks import default_catalog
from service.gold import gold
from service.replay import replay
from tests.databases import fresh_pg_database
from tests.servers import ROOT, LiveServer, episode_events, free_port, launch

pytestmark = pytest.mark.slow

TASK = "task_hard_gdpr_deletion"  # 10 steps allowed: room for many pairs per episode


@pytest.fixture(scope="module")
def shared_pg_url() -> Iterator[str]:
    """One fresh PostgreSQL database for this module's servers (tests make their own episodes)."""
    with fresh_pg_database("tl_workers") as url:
        yield url


@pytest.fixture(scope="module")
def pg_servers(shared_pg_url: str) -> Iterator[list[LiveServer]]:
    """Three separate server processes sharing one PostgreSQL database."""
    servers: list[LiveServer] = []
    try:
        for _ in range(3):  # one after the other: each picks its free port while the last listens
            servers.append(launch(shared_pg_url))
        yield servers
    finally:
        for server in servers:
            server.process.terminate()
        for server in servers:
            server.stop()


def test_sqlite_with_several_workers_is_refused_at_start_up(sqlite_url: str) -> None:
    for command in (["-m", "server.app"], ["-m", "cli.main", "serve"]):
        done = subprocess.run(
            [sys.executable, *command, "--host", "127.0.0.1", "--port", str(free_port()),
             "--workers", "2"],
            cwd=ROOT, env={**os.environ, "DATABASE_URL": sqlite_url}, capture_output=True, text=True,
            timeout=60)
        assert done.returncode != 0, done.stdout
        assert "PostgreSQL" in done.stderr and "--workers 1" in done.stderr, done.stderr


@pytest.mark.postgres
def test_episode_opened_on_one_server_is_stepped_through_the_others(
        pg_servers: list[LiveServer], shared_pg_url: str) -> None:
    catalog = default_catalog()
    clients = [httpx.Client(base_url=s.url, timeout=30) for s in pg_servers]
    try:
        for task_id in ("task_easy_password", "task_hard_refund_fraud_trap"):
            opened = clients[0].post("/reset", json={"task_id": task_id, "seed": 3})
            assert opened.status_code == 200
            eid = opened.json()["episode_id"]
            actions = gold(catalog.instance(task_id, 3))
            for index, action in enumerate(actions):
                client = clients[(index + 1) % len(clients)]
                how = index % 2
                if how == 0:  # episode id in the body (OpenEnv's wrapped dialect)
                    reply = client.post("/step", json={"action": action, "episode_id": eid})
                else:  # X-Episode-Id header (the SupportOps seed's bare dialect)
                    reply = client.post("/step", json=action, headers={"X-Episode-Id": eid})
                assert reply.status_code == 200, reply.text
                observation = reply.json()["observation"]
                assert observation["episode_id"] == eid and observation["step_count"] == index + 1
            states = [c.get("/state", headers={"X-Episode-Id": eid}).json() for c in clients]
            assert {s["score"] for s in states} == {1.0} and {s["done"] for s in states} == {True}
            recorded = episode_events(shared_pg_url, eid)
            assert replay(recorded, catalog).consistent
    finally:
        for c in clients:
            c.close()


def _fire_pair(clients: list[httpx.Client], eid: str, pair: int) -> list[tuple[int, Any, dict]]:
    """Two steps on one episode through two servers, released together by a barrier."""
    barrier = threading.Barrier(2)
    out: list[tuple[int, Any, dict]] = [None, None]  # type: ignore[list-item]

    def go(side: int) -> None:
        action = {"action_type": "add_internal_note", "note": f"pair {pair} side {side}"}
        barrier.wait(timeout=10)
        reply = clients[side].post("/step", json={"action": action, "episode_id": eid})
        out[side] = (reply.status_code, reply.json(), action)

    threads = [threading.Thread(target=go, args=(side,)) for side in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return out


@pytest.mark.postgres
def test_concurrent_steps_through_two_servers_have_one_winner(
        pg_servers: list[LiveServer], shared_pg_url: str) -> None:
    catalog = default_catalog()
    clients = [httpx.Client(base_url=s.url, timeout=30) for s in pg_servers[:2]]
    answered: dict[str, list[dict]] = {}
    conflicts = sequential = 0
    try:
        for c in clients:  # warm connections so both requests leave at the same moment
            c.get("/health")
        eid, steps = None, 0
        for pair in range(24):
            if eid is None or steps >= 8:
                eid = clients[0].post("/reset", json={"task_id": TASK}).json()["episode_id"]
                answered[eid], steps = [], 0
            results = _fire_pair(clients, eid, pair)
            codes = sorted(r[0] for r in results)
            won = [r for r in results if r[0] == 200]
            if codes == [200, 409]:
                conflicts += 1
                loser = next(r for r in results if r[0] == 409)[1]
                assert loser["code"] == "conflict", loser
                assert won[0][1]["observation"]["step_count"] == steps + 1
            else:
                assert codes == [200, 200], results
                sequential += 1
                counts = sorted(r[1]["observation"]["step_count"] for r in won)
                assert counts == [steps + 1, steps + 2], "non-overlapping steps are consecutive"
                won.sort(key=lambda r: r[1]["observation"]["step_count"])
            answered[eid] += [r[2] for r in won]
            steps += len(won)
    finally:
        for c in clients:
            c.close()
    print(f"{conflicts} pairs overlapped (one 409), {sequential} ran one after the other")
    assert conflicts + sequential == 24
    for eid, actions in answered.items():
        recorded = episode_events(shared_pg_url, eid)
        assert [r.seq for r in recorded] == list(range(1, len(recorded) + 1)), "gap or duplicate"
        logged = [r.data["raw"] for r in recorded if r.type == "ActionReceived"]
        assert logged == actions, "the log holds exactly the answered steps, in order"
        assert replay(recorded, catalog).consistent


@pytest.mark.postgres
def test_serve_with_four_workers_on_postgres(pg_url: str) -> None:
    """``--workers 4`` comes up on PostgreSQL; fresh connections (spread over the workers by the
    kernel) all act on episodes any worker opened."""
    server = launch(pg_url, args=["--workers", "4"])
    try:
        result = asyncio.run(drive(server.url, "http", sessions=16, episodes=1, budget_s=60))
        assert not result.errors, result.errors
        eid = result.episodes[0].episode_id
        for _ in range(8):  # a new connection per request: different workers answer
            state = httpx.get(server.url + "/state", params={"episode_id": eid}, timeout=30)
            assert state.status_code == 200 and state.json()["episode_id"] == eid
    finally:
        server.stop()
    integrity = audit(pg_url, result.episodes)
    assert integrity.ok, integrity.problems
