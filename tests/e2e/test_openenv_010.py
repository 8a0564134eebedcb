"""OpenEnv 0.10's own clients against a real server.

``openenv`` 0.10 and ``openenv-core`` 0.3 (the runtime dependency) cannot share a virtual
environment (both install the ``openenv`` package), so this module makes one of its own with
``openenv==0.10.0``, the project's other runtime dependencies, and this project built from a
copy of its Docker build context with ``--no-deps``: the two installs docs/training.md tells an
``openenv`` 0.10 user to make with pip, made by the dev extra's ``uv pip`` from the package
index. The clients run there, in child processes:

* ``MCPToolClient`` in production mode: it creates a session with ``openenv/session/create``,
  resets over ``/ws?session_id=``, lists and calls the tools over HTTP ``/mcp`` with the session
  id, reads the state over ``/ws`` and closes the session. Every tool call must act on the episode
  the ``/ws`` reset opened, to its resolved end.
* ``AutoEnv.from_env("ticketledger", base_url=...)``: discovery finds the installed
  ``openenv-ticketledger`` distribution, reads the packaged ``openenv.yaml`` and returns the typed
  client, which plays an episode to its end.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from domain.tasks import default_catalog
from service.gold import gold
from tests.build_context import copy_context
from tests.databases import sqlite_pass_only
from tests.servers import ROOT, module_database, start_server

# The module's first test also pays for the virtual environment (downloads included).
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200),
              sqlite_pass_only("the client speaks the wire protocol, the same over either backend")]

TASK, SEED = "task_easy_password", 7
PLAY = '''
import asyncio, json, sys
from importlib.metadata import version
from openenv.core.mcp_client import MCPToolClient

async def main(url, plan):
    async with MCPToolClient(base_url=url) as env:  # production mode: session, then /ws
        first = await env.reset(task_id=sys.argv[3], seed=int(sys.argv[4]))
        tools = [t.name for t in await env.list_tools()]
        results = [await env.call_tool(a.pop("action_type"), **a) for a in plan]
        state = await env.state()
        session_id = env._production_session_id
    print(json.dumps({"version": version("openenv"), "reset_done": first.done, "tools": tools,
                      "results": results, "session_id": session_id,
                      "state": {"episode_id": state.episode_id, "step_count": state.step_count}}))

asyncio.run(main(sys.argv[1], json.loads(sys.argv[2])))
'''


DISCOVER = '''
import json, sys
from importlib.metadata import version
from openenv import AutoEnv

env = AutoEnv.from_env("ticketledger", base_url=sys.argv[1])
with env.sync() as session:
    first = session.reset(task_id=sys.argv[3], seed=int(sys.argv[4]))
    results = [session.step(action) for action in json.loads(sys.argv[2])]
    state = session.state()
print(json.dumps({"version": version("openenv"), "installed": version("openenv-ticketledger"),
                  "client": f"{type(env).__module__}.{type(env).__name__}",
                  "first": first.observation.model_dump(mode="json"),
                  "rewards": [r.reward for r in results], "done": [r.done for r in results],
                  "state": state.model_dump(mode="json")}))
'''


@pytest.fixture(scope="module")
def openenv_010(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a fresh virtual environment holding openenv 0.10.0 and this project."""
    root = tmp_path_factory.mktemp("openenv-0.10")
    venv, context = root / "venv", root / "context"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    others = [r for r in project["dependencies"] if Requirement(r).name != "openenv-core"]
    assert len(others) == len(project["dependencies"]) - 1
    install = [sys.executable, "-m", "uv", "pip", "install", "-q", "--python", str(python)]
    subprocess.run([*install, "openenv==0.10.0", *others], check=True, timeout=900)
    context.mkdir()
    copy_context(context)
    subprocess.run([*install, "--no-deps", str(context)], check=True, timeout=600)
    return python


def test_openenv_010_mcp_tool_client_plays_in_production_mode(
        openenv_010: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    plan = gold(default_catalog().instance(TASK, SEED))
    with start_server(module_database(tmp_path_factory, "openenv010")) as server:
        run = subprocess.run([str(openenv_010), "-c", PLAY, server.url, json.dumps(plan), TASK,
                              str(SEED)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    assert seen["version"] == "0.10.0" and seen["reset_done"] is False
    assert {"reset", "state", "classify_priority", "resolve_ticket"} <= set(seen["tools"])
    answers = [r["structuredContent"] for r in seen["results"]]
    assert not any(r["isError"] for r in seen["results"])
    assert {a["episode_id"] for a in answers} == {seen["state"]["episode_id"]}
    assert seen["state"]["step_count"] == len(plan)
    last = answers[-1]
    assert (last["done"], last["terminated"], last["truncated"], last["end_reason"]) == (
        True, True, False, "resolved")
    assert len(seen["session_id"]) >= 43


def test_openenv_010_autoenv_from_env_finds_ticketledger_and_plays(
        openenv_010: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    task = default_catalog().instance(TASK, SEED)
    plan = gold(task)
    cache = tmp_path_factory.mktemp("xdg-cache")  # openenv 0.10 caches what it discovered there
    with start_server(module_database(tmp_path_factory, "autoenv010")) as server:
        run = subprocess.run([str(openenv_010), "-c", DISCOVER, server.url, json.dumps(plan), TASK,
                              str(SEED)], capture_output=True, text=True, timeout=300,
                             env={"PATH": str(openenv_010.parent), "HOME": str(cache),
                                  "XDG_CACHE_HOME": str(cache)}, cwd=cache)
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout)
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert (seen["version"], seen["installed"]) == ("0.10.0", version)
    assert seen["client"] == "ticketledger.client.TicketLedgerEnv"
    assert seen["first"]["task_id"] == TASK and seen["first"]["step_count"] == 0
    assert seen["first"]["ticket"]["customer_name"] == task.ticket.customer_name
    assert seen["done"] == [False] * (len(plan) - 1) + [True]
    assert seen["state"]["episode_id"] == seen["first"]["episode_id"]
    assert seen["state"]["step_count"] == len(plan) and seen["state"]["done"] is True
    assert round(sum(seen["rewards"]), 4) == seen["state"]["score"] >= 0.95
