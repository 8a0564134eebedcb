"""Helpers for the audit, CLI and UI tests: two policies to make real episodes, and a live server.

``weak_policy`` is a deliberately simple agent of our own that reads only the observation (no
answer key); ``tests.scripted.solution`` is the expert. Together they give episodes of the same
task that part ways, which is what diff, the viewer and regrade need to show.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

from service import EnvironmentService, StepResult
from tests.databases import fresh_database
from tests.scripted import solution

ROOT = Path(__file__).resolve().parent.parent


def weak_policy(observation: Any) -> list[dict[str, Any]]:
    """Guess a priority from the message, send a generic reply, close. Reads the observation only."""
    message = observation.customer_message.lower()
    urgent = any(word in message for word in ("urgent", "asap", "outage", "down", "breach", "immediately"))
    first = observation.ticket.customer_name.split()[0]
    return [
        {"action_type": "classify_priority", "priority": "high" if urgent else "medium"},
        {"action_type": "draft_reply",
         "reply_text": f"Hi {first}, thanks for contacting us. We are looking into this and will get "
                       "back to you shortly. Best regards, Support"},
        {"action_type": "close_ticket"},
    ]


def play(service: EnvironmentService, task_id: str, actions: list[dict[str, Any]] | None = None, *,
         seed: int | None = None, run_id: str | None = None) -> list[StepResult]:
    """Reset and take ``actions`` (default: the scripted solution) until done; all results."""
    results = [service.reset(task_id, seed=seed, run_id=run_id)]
    episode_id = results[0].episode_id
    if actions is None:
        actions = solution(service.state(episode_id).task)  # type: ignore[arg-type]
    for action in actions:
        if results[-1].done:
            break
        results.append(service.step(episode_id, action))
    return results


def play_weak(service: EnvironmentService, task_id: str, *, seed: int | None = None,
              run_id: str | None = None) -> list[StepResult]:
    reset = service.reset(task_id, seed=seed, run_id=run_id)
    results = [reset]
    for action in weak_policy(reset.observation):
        if results[-1].done:
            break
        results.append(service.step(reset.episode_id, action))
    return results


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def live_server(database_url: str, log_path: Path, **env: str) -> Iterator[str]:
    """A real uvicorn serving ``api.app:create_app`` on a free 127.0.0.1 port; yields its base URL."""
    port = free_port()
    environ = {**os.environ, "DATABASE_URL": database_url, **env}
    if "TICKETLEDGER_AUDIT_TOKEN" not in env:
        environ.pop("TICKETLEDGER_AUDIT_TOKEN", None)
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "api.app:create_app", "--factory", "--host", "127.0.0.1",
             "--port", str(port), "--log-level", "warning"],
            cwd=ROOT, env=environ, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                if proc.poll() is not None:
                    raise RuntimeError(f"uvicorn exited: {log_path.read_text(errors='replace')[-2000:]}")
                try:
                    if httpx.get(base + "/openapi.json", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                if time.monotonic() > deadline:
                    raise RuntimeError("uvicorn did not answer within 30 s")
                time.sleep(0.1)
            yield base
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


@contextmanager
def scratch_database(directory: Path) -> Iterator[str]:
    """A fresh database on the suite's backend that outlives one test (for module-scoped servers):
    an SQLite file in ``directory``, or a new PostgreSQL database dropped afterwards."""
    with fresh_database(directory, "tl_mod") as url:
        yield url
