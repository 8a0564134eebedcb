"""OpenEnv 0.10's own ``MCPToolClient`` in production mode against a real server (issue 17).

``openenv`` 0.10 and ``openenv-core`` 0.3 (the runtime dependency) cannot share a virtual
environment, so this test makes one of its own with ``openenv==0.10.0`` (pip, from the index pip
is configured with) and runs the client there, in a child process: it creates a session with
``openenv/session/create``, resets over ``/ws?session_id=``, lists and calls the tools over HTTP
``/mcp`` with the session id, reads the state over ``/ws`` and closes the session. Every tool call
must act on the episode the ``/ws`` reset opened, to its resolved end.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from domain.tasks import default_catalog
from service.scripted import solution
from tests.databases import sqlite_pass_only
from tests.servers import module_database, start_server

pytestmark = [pytest.mark.slow,
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


@pytest.fixture(scope="module")
def openenv_010(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a fresh virtual environment holding openenv 0.10.0."""
    venv = tmp_path_factory.mktemp("openenv-0.10") / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "openenv==0.10.0"], check=True,
                   timeout=900)
    return python


def test_openenv_010_mcp_tool_client_plays_in_production_mode(
        openenv_010: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    plan = solution(default_catalog().instance(TASK, SEED))
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
