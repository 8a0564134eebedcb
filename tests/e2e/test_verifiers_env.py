"""Prime Intellect's ``verifiers`` 0.4 evaluates TicketLedger (``vf-eval ticketledger-verifiers``).

verifiers 0.4 pins ``openai<3`` and ``mcp==2.0.0`` while the dev environment holds newer ones, so
this module makes a virtual environment of its own: ``verifiers==0.4.0``, this project built from a
copy of its Docker build context WITH its runtime dependencies (the two resolve together; no dev
extra), and ``uv``, which verifiers' ``null`` chat harness runs its chat program with. The dev
extra's ``uv`` installs them. Then the
real ``vf-eval`` runs a few instances of a split with the model calls going, through verifiers'
interception proxy, to the loopback fake OpenAI server (``tests/baseline/fake_openai.py``, which
streams as the real API does), in-process and against a running ``ticketledger serve``. Every
reward must be the score TicketLedger recorded for that episode, and every step the model's
answer as the proxy relayed it.

The index being unreachable skips the module locally with the reason and fails it under CI.
"""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from service import EnvironmentService
from store import open_database
from tests.baseline.fake_openai import FakeOpenAI
from tests.build_context import copy_context
from tests.databases import sqlite_pass_only
from tests.servers import module_database, start_server

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1500),
              sqlite_pass_only("the plugin speaks the environment's own interfaces, the same over "
                               "either backend")]

VERIFIERS = "verifiers==0.4.0"


@pytest.fixture(scope="module")
def vf_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bin directory of a fresh virtual environment holding verifiers 0.4.0 and this project."""
    root = tmp_path_factory.mktemp("verifiers-0.4")
    venv, context = root / "venv", root / "context"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    context.mkdir()
    copy_context(context)
    install = subprocess.run([sys.executable, "-m", "uv", "pip", "install", "-q", "--python",
                              str(venv / "bin" / "python"), VERIFIERS, "uv", str(context)],
                             capture_output=True, text=True, timeout=1200)
    if install.returncode != 0:
        reason = f"could not install {VERIFIERS} and the project: {install.stderr[-2000:]}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return venv / "bin"


def vf_eval(vf_bin: Path, run_dir: Path, fake: FakeOpenAI, model: str, database_url: str,
            *args: str) -> list[dict[str, Any]]:
    """Run ``vf-eval ticketledger-verifiers`` and return its traces (one per rollout)."""
    env = {**os.environ, "PATH": f"{vf_bin}{os.pathsep}{os.environ['PATH']}",
           "DATABASE_URL": database_url, "FAKE_OPENAI_KEY": "sk-loopback"}
    run = subprocess.run(
        [str(vf_bin / "vf-eval"), "ticketledger-verifiers", "--model", model,
         "--client.base-url", fake.base_url, "--client.api-key-var", "FAKE_OPENAI_KEY",
         "--no-push", "--no-rich", "-o", str(run_dir), *args],
        capture_output=True, text=True, timeout=900, env=env, cwd=run_dir.parent)
    assert run.returncode == 0, run.stderr[-4000:]
    (traces_file,) = glob.glob(str(run_dir / "*" / "traces.jsonl"))
    episodes = [json.loads(line) for line in Path(traces_file).read_text().splitlines()]
    assert all(e["ok"] and not e["errors"] for e in episodes), [e["errors"] for e in episodes]
    return [trace for e in episodes for trace in e["traces"]]


def assert_recorded(traces: list[dict[str, Any]], database_url: str, split: str) -> list[float]:
    """Each trace's reward is the score TicketLedger recorded for its episode, on the split's
    instance, with one recorded step per model answer; the scores, in task order."""
    from domain.tasks import default_catalog

    service = EnvironmentService(open_database(database_url))
    scores = []
    for trace in sorted(traces, key=lambda t: t["task"]["data"]["index"]):
        data, seen = trace["task"]["data"], trace["info"]["ticketledger"]
        ref = default_catalog().split_instance(split, data["index"])
        state = service.state(seen["episode_id"])
        assert state.task is not None
        assert (state.task.task_id, state.task.seed) == (ref.task_id, ref.seed) == (
            data["task_id"], data["seed"])
        assert state.done and seen["done"]
        assert trace["rewards"] == {"ticketledger": {"score": state.score, "weight": 1.0}}
        assert trace["metrics"]["steps"] == state.step_count
        assert {k for k in trace["metrics"] if k.startswith("component_")} >= {
            "component_priority", "component_resolution"}
        scores.append(state.score)
    return scores


def test_vf_eval_in_process_rewards_are_the_recorded_scores(
        vf_bin: Path, tmp_path: Path) -> None:
    database_url = f"sqlite:///{tmp_path / 'vf.db'}"
    with FakeOpenAI({"good": "good", "sloppy": ["not_json", "good"]}) as fake:
        traces = vf_eval(vf_bin, tmp_path / "good", fake, "good", database_url,
                         "--env.taskset.split", "dev", "-n", "3")
        assert len(traces) == 3
        # Every model call went through verifiers' proxy to the fake, one per recorded step.
        assert fake.calls("good") == sum(t["metrics"]["steps"] for t in traces)
        sloppy = vf_eval(vf_bin, tmp_path / "sloppy", fake, "sloppy", database_url,
                         "--env.taskset.split", "dev", "-n", "1")
    scores = assert_recorded(traces, database_url, "dev")
    assert max(scores) > 0.0
    # An answer that is not an action is a recorded, penalised no-op, and the rollout goes on.
    (trace,) = sloppy
    assert trace["metrics"]["malformed"] == 1.0
    assert_recorded(sloppy, database_url, "dev")
    service = EnvironmentService(open_database(database_url))
    first = service.state(trace["info"]["ticketledger"]["episode_id"]).steps[0]
    assert [a.action_type for a in first.actions] == ["noop"]
    assert json.loads(first.raw.text)["metadata"]["malformed_action"].startswith(
        "I would set the priority")


def test_vf_eval_against_a_running_server(
        vf_bin: Path, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    database_url = module_database(tmp_path_factory, "verifiers")
    with start_server(database_url) as server, FakeOpenAI({"good": "good"}) as fake:
        traces = vf_eval(vf_bin, tmp_path / "remote", fake, "good", f"sqlite:///{tmp_path / 'unused.db'}",
                         "--env.taskset.split", "test", "-n", "2",
                         "--env.taskset.base-url", server.url)
    assert {t["info"]["ticketledger"]["where"] for t in traces} == {server.url}
    assert not (tmp_path / "unused.db").exists()
    assert_recorded(traces, database_url, "test")
