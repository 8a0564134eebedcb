"""``POST /bundles/verify``, ``GET /runs/{id}``'s figures and the run page's figures, against a
real uvicorn on 127.0.0.1 with the audit token set."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from cli.main import main
from tests.results.runs import hard_test_run, resealed
from tests.servers import LiveServer, start_server

TOKEN = "bundle-audit-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, str, dict[str, Any]]]:
    where = tmp_path_factory.mktemp("bundle_api")
    url = f"sqlite:///{where / 'log.db'}"
    run_id = hard_test_run(url, where)
    path = where / "bundle.json"
    assert main(["--database-url", url, "bundle", run_id, "-o", str(path)]) == 0
    with start_server(url, env={"TICKETLEDGER_AUDIT_TOKEN": TOKEN}, log_dir=where) as server:
        yield server, run_id, json.loads(path.read_text())


def post(server: LiveServer, body: bytes, headers: dict[str, str] | None = None) -> httpx.Response:
    return httpx.post(f"{server.url}/bundles/verify", content=body, timeout=60,
                      headers={"Content-Type": "application/json", **(headers or {})})


def test_a_bundle_verifies_over_http_beyond_the_ordinary_body_limit(
        served: tuple[LiveServer, str, dict[str, Any]]) -> None:
    server, run_id, bundle = served
    body = json.dumps(bundle).encode()
    assert len(body) > 64 * 1024  # larger than any other route takes
    answer = post(server, body, AUTH)
    assert answer.status_code == 200, answer.text
    report = answer.json()
    assert report["ok"] and report["run_id"] == run_id and report["episodes"] == 12
    assert [c["name"] for c in report["checks"]] == ["digest", "chains and re-grade", "heads",
                                                     "episodes", "membership", "figures"]


def test_a_tampered_bundle_is_reported_not_verified(served: tuple[LiveServer, str, dict[str, Any]]) -> None:
    server, _, bundle = served
    edited = resealed({**bundle, "episodes": bundle["episodes"][:-1]})
    report = post(server, json.dumps(edited).encode(), AUTH).json()
    assert report["ok"] is False
    assert {"missing", "head", "figures"} <= {d["kind"] for d in report["discrepancies"]}


def test_the_route_needs_the_audit_token_and_a_bundle(served: tuple[LiveServer, str, dict[str, Any]]) -> None:
    server, _, bundle = served
    refused = post(server, json.dumps(bundle).encode())
    assert refused.status_code == 401 and "TICKETLEDGER_AUDIT_TOKEN" in refused.text
    wrong = post(server, b'{"format": "something else"}', AUTH)
    assert wrong.status_code == 422 and "ticketledger bundle RUN -o FILE" in wrong.json()["detail"]
    broken = post(server, b"{not json", AUTH)
    assert broken.status_code == 422 and "not JSON" in broken.json()["detail"]
    shaped = post(server, json.dumps({**bundle, "episodes": [{"episode_id": 3}]}).encode(), AUTH)
    assert shaped.status_code == 422 and "episodes[0].episode_id must be str" in shaped.json()["detail"]


def test_the_run_route_and_page_show_the_intervals(served: tuple[LiveServer, str, dict[str, Any]]) -> None:
    server, run_id, bundle = served
    run = httpx.get(f"{server.url}/runs/{run_id}", headers=AUTH, timeout=30).json()
    figures = run["figures"]
    assert figures == bundle["reported"]["figures"]  # the server reports what the bundle carries
    mean = figures["mean_score"]
    assert mean["low"] <= mean["value"] <= mean["high"] and figures["flip_rate"] == 0.0
    page = httpx.get(f"{server.url}/ui/runs/{run_id}", headers=AUTH, timeout=30).text
    assert "<h2>Figures</h2>" in page
    assert f"[{mean['low']:.4f}, {mean['high']:.4f}]" in page and "Noise floor" in page


def test_an_unknown_run_is_a_404(served: tuple[LiveServer, str, dict[str, Any]]) -> None:
    server, _, _ = served
    answer = httpx.get(f"{server.url}/runs/run_nope", headers=AUTH, timeout=30)
    assert answer.status_code == 404
