"""REST audit routes against a real uvicorn on 127.0.0.1: the same JSON as the CLI, pagination,
streamed export, fork ids that /step accepts, clear 4xx errors, and the audit token."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from cli.main import main
from service import EnvironmentService
from store import open_database
from store.runs import RunStore
from tests.audit_helpers import live_server, play_weak, scratch_database
from tests.play import play

TOKEN = "s3cret-audit-token"


@pytest.fixture(scope="module")
def database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One database for the module (the suite's backend), so one server serves all its tests."""
    with scratch_database(tmp_path_factory.mktemp("rest")) as url:
        yield url


@pytest.fixture(scope="module")
def recorded(database_url: str) -> dict[str, str]:
    db = open_database(database_url)
    service = EnvironmentService(db)
    RunStore(db).start("run_rest", "policy:test", {"trials": 1})
    made = {"expert": play(service, "task_easy_password", run_id="run_rest")[0].episode_id,
            "weak": play_weak(service, "task_easy_password", run_id="run_rest")[0].episode_id,
            "other": play(service, "task_medium_double_charge", run_id="run_rest")[0].episode_id}
    RunStore(db).finish("run_rest", {"episodes": 3})
    db.dispose()
    return made


@pytest.fixture(scope="module")
def server(database_url: str, recorded, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    with live_server(database_url, tmp_path_factory.mktemp("rest-log") / "server.log") as base:
        yield base


def _cli_json(database_url: str, capsys: pytest.CaptureFixture[str], *args: str) -> object:
    main(["--database-url", database_url, *args, "--json"])
    return json.loads(capsys.readouterr().out)


def test_same_json_as_the_cli(server: str, recorded, database_url: str, capsys) -> None:  # type: ignore[no-untyped-def]
    expert, weak = recorded["expert"], recorded["weak"]
    with httpx.Client(base_url=server, timeout=30) as http:
        pairs = [
            ("/episodes?run=run_rest&limit=50", ("episodes", "--run", "run_rest")),
            (f"/episodes/{expert}/steps", ("show", expert)),
            (f"/episodes/{expert}/replay", ("replay", expert)),
            (f"/episodes/{expert}/diff/{weak}", ("diff", expert, weak)),
        ]
        for path, argv in pairs:
            response = http.get(path)
            assert response.status_code == 200, response.text
            assert response.json() == _cli_json(database_url, capsys, *argv), path
        summary = http.get(f"/episodes/{expert}").json()
        assert {"task_id", "seed", "status", "step_count", "score", "run_id", "head_hash",
                "forked_from"} <= set(summary)
        replay = http.get(f"/episodes/{expert}/replay").json()
        assert replay["consistent"] is True and replay["first_divergence"] is None
        diff = http.get(f"/episodes/{expert}/diff/{weak}").json()
        assert diff["first_divergence"]["step"] >= 1
        state = http.get(f"/episodes/{expert}/state", params={"step": 1}).json()
        assert state["step"] == 1 and state["state"]["step_count"] == 1 and "expected" in state


def test_pagination_runs_export_regrade_fork(server: str, recorded) -> None:  # type: ignore[no-untyped-def]
    with httpx.Client(base_url=server, timeout=30) as http:
        seen, cursor = [], None
        while True:
            params = {"run": "run_rest", "limit": 1, **({"cursor": cursor} if cursor else {})}
            page = http.get("/episodes", params=params).json()
            seen += [e["episode_id"] for e in page["episodes"]]
            cursor = page["next_cursor"]
            if not cursor:
                break
        assert sorted(seen) == sorted(recorded.values())
        events = http.get(f"/episodes/{recorded['expert']}/events", params={"limit": 5}).json()
        assert [e["seq"] for e in events["events"]] == [1, 2, 3, 4, 5] and events["next_cursor"] == "5"

        runs = http.get("/runs").json()["runs"]
        assert [r["run_id"] for r in runs] == ["run_rest"] and runs[0]["episodes"] == 3
        run = http.get("/runs/run_rest").json()
        assert {t["task_id"]: t["episodes"] for t in run["tasks"]} == {
            "task_easy_password": 2, "task_medium_double_charge": 1}

        with http.stream("GET", "/export", params={"run": "run_rest"}) as response:
            assert response.status_code == 200
            assert response.headers["content-type"].startswith("application/x-ndjson")
            lines = [json.loads(line) for line in response.iter_lines() if line]
        assert {r["episode_id"] for r in lines} == set(recorded.values())

        regrade = http.post("/regrade", json={"run_id": "run_rest", "dry_run": True}).json()
        assert regrade["episodes"] == 3 and regrade["records_appended"] == 0

        made = http.post(f"/episodes/{recorded['weak']}/fork", json={"at": 1})
        assert made.status_code == 201, made.text
        fork_id = made.json()["episode_id"]
        assert http.get(f"/episodes/{fork_id}").json()["forked_from"] == {
            "episode_id": recorded["weak"], "at": 1}
        step = http.post("/step", json={"action": {"action_type": "noop"}, "episode_id": fork_id})
        if step.status_code != 404 or "no such route" not in step.text:  # the OpenEnv routes are there
            assert step.status_code == 200, step.text
            assert http.get(f"/episodes/{fork_id}").json()["step_count"] == 2
        assert http.get(f"/episodes/{fork_id}/replay").json()["consistent"]
        heads = http.get("/heads", params={"run": "run_rest"}).text.splitlines()
        assert heads[0].startswith("# ticketledger heads") and len(heads) == 4
        assert http.get("/verify").json()["ok"]


@pytest.mark.parametrize("method, path, body, status", [
    ("GET", "/episodes/ep_unknown", None, 404),
    ("GET", "/episodes/bad id!", None, 422),
    ("GET", "/episodes?limit=0", None, 422),
    ("GET", "/episodes?limit=abc", None, 422),
    ("GET", "/episodes?cursor=garbage", None, 422),
    ("GET", "/episodes?min_score=3", None, 422),
    ("GET", "/episodes?status=maybe", None, 422),
    ("GET", "/episodes/{expert}/state?step=99", None, 422),
    ("GET", "/episodes/{expert}/events?cursor=x", None, 422),
    ("GET", "/episodes/{expert}/diff/ep_unknown", None, 404),
    ("GET", "/runs/run_unknown", None, 404),
    ("GET", "/export?format=csv", None, 422),
    ("POST", "/episodes/{expert}/fork", {"at": 99}, 422),
    ("POST", "/episodes/{expert}/fork", {"at": "x"}, 422),
    ("POST", "/episodes/{expert}/fork", {}, 422),
    ("POST", "/regrade", {"run": "typo"}, 422),
])
def test_clear_4xx(server: str, recorded, method: str, path: str, body, status: int) -> None:  # type: ignore[no-untyped-def]
    response = httpx.request(method, server + path.format(**recorded), json=body, timeout=30)
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert detail and isinstance(detail, str)


def test_audit_token_is_required_when_set(database_url: str, recorded, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Last in the module: a second server with the token set, over the same database."""
    with live_server(database_url, tmp_path / "server.log", TICKETLEDGER_AUDIT_TOKEN=TOKEN) as base:
        for path in ("/episodes", f"/episodes/{recorded['expert']}/replay", "/runs", "/export"):
            assert httpx.get(base + path, timeout=30).status_code == 401
            wrong = httpx.get(base + path, headers={"Authorization": "Bearer nope"}, timeout=30)
            assert wrong.status_code == 401
            right = httpx.get(base + path, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)
            assert right.status_code == 200, right.text
        assert httpx.post(base + "/regrade", json={}, timeout=30).status_code == 401
