"""Fuzz the HTTP API from its own OpenAPI schema (schemathesis) against a real server.

Every operation the server documents gets schema-valid and schema-violating requests (a bounded,
derandomized run: the same examples every time). No answer may be a 5xx, the server stays
healthy, and a bystander episode's events are byte-for-byte what they were before the run.
Audit routes are fuzzed with the token set and sent, so the generator reaches past the guard.
The inputs that once made 5xx (deep nesting, long numbers, ids with a newline, forged cursors) are
also probed by name in the fast tier: ``tests/api/test_hostile_input.py``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error

from service.gold import gold
from tests.servers import LiveServer, episode_events, module_database, start_server

pytestmark = pytest.mark.slow

TOKEN = "fuzz-audit-token"
EXAMPLES_PER_OPERATION = 20


@pytest.fixture(scope="module")
def fuzz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(module_database(tmp_path_factory, "fuzz"),
                      env={"TICKETLEDGER_AUDIT_TOKEN": TOKEN}) as server:
        yield server


@pytest.fixture(scope="module")
def bystander(fuzz_server: LiveServer) -> dict[str, Any]:
    """A half-played episode nobody else may touch, and its log before the fuzzing."""
    from domain.tasks import default_catalog

    task = default_catalog().instance("task_hard_refund_fraud_trap", 4)
    with httpx.Client(base_url=fuzz_server.url, timeout=30) as http:
        eid = http.post("/reset", json={"task_id": task.task_id, "seed": 4}).json()["episode_id"]
        for action in gold(task)[:3]:
            assert http.post("/step", json={"action": action, "episode_id": eid}).status_code == 200
        http.post("/reset", json={})  # the fuzzer's cookie-less steps go to this one, not ours
    return {"episode_id": eid, "log": _log(fuzz_server, eid)}


def _log(server: LiveServer, episode_id: str) -> list[tuple[Any, ...]]:
    return [(r.seq, r.type, r.version, r.data_text, r.prev_hash, r.hash, r.recorded_at)
            for r in episode_events(server.database_url, episode_id)]


def _operations() -> list[Any]:
    """The operations of the server's own OpenAPI document (built in memory, no server needed)."""
    import warnings

    from api.app import create_app
    from service.settings import Settings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # FastAPI warns about GET+HEAD sharing an operation id
        spec = create_app(Settings(database_url="sqlite://")).openapi()
    return [result.ok() for result in schemathesis.openapi.from_dict(spec).get_all_operations()]


def _has_inputs(operation: Any) -> bool:
    return len(operation.body) > 0 or any(p.name != "Authorization"
                                          for p in operation.iter_parameters())


OPERATIONS = _operations()
STATUSES: dict[str, list[int]] = defaultdict(list)
"""Every answer's status per operation, for the closing test's check that the run got through."""
CASES = [(op, mode) for op in OPERATIONS
         for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
         if mode == GenerationMode.POSITIVE or _has_inputs(op)]  # nothing to violate otherwise


@pytest.mark.parametrize(("operation", "mode"), CASES,
                         ids=[f"{op.label} {mode.value}" for op, mode in CASES])
def test_no_request_gets_a_server_error(operation: Any, mode: GenerationMode, fuzz_server: LiveServer,
                                        bystander: dict[str, Any]) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}

    @settings(max_examples=EXAMPLES_PER_OPERATION, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck), database=None)
    @given(case=operation.as_strategy(generation_mode=mode))
    def fuzz(case: Any) -> None:
        response = case.call(base_url=fuzz_server.url, headers=auth, timeout=30)
        STATUSES[case.operation.label].append(response.status_code)
        case.validate_response(response, checks=[not_a_server_error])

    fuzz()


def test_after_the_fuzzing_the_server_is_healthy_and_the_bystander_untouched(
        fuzz_server: LiveServer, bystander: dict[str, Any]) -> None:
    sent = sum(len(v) for v in STATUSES.values())
    if sent:  # the fuzzing ran in this session (not deselected): it reached past validation
        assert sent >= 300, sent
        assert 200 in STATUSES["POST /reset"] and 200 in STATUSES["POST /step"]
        assert 200 in STATUSES["GET /episodes"], "the audit token got the fuzzer past the guard"
    assert fuzz_server.process.poll() is None, fuzz_server.log()
    assert httpx.get(fuzz_server.url + "/health", timeout=30).json() == {"status": "healthy"}
    assert _log(fuzz_server, bystander["episode_id"]) == bystander["log"]
    assert "Traceback" not in fuzz_server.log(), fuzz_server.log()[-3000:]
