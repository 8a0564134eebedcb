"""Helpers for the audit, CLI and UI tests: two policies to make real episodes, and a live server.

``weak_policy`` is a deliberately simple agent of our own that reads only the observation (no
answer key); ``service.scripted.solution`` is the expert. Together they give episodes of the same
task that part ways, which is what diff, the viewer and regrade need to show.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from service import EnvironmentService, StepResult
from service.scripted import solution
from tests.databases import fresh_database
from tests.servers import start_server


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


@contextmanager
def live_server(database_url: str, log_path: Path, **env: str) -> Iterator[str]:
    """A real server on a free 127.0.0.1 port (``tests.servers``); yields its base URL.

    The audit token is off unless ``env`` sets it, whatever the calling environment says."""
    with start_server(database_url, env={"TICKETLEDGER_AUDIT_TOKEN": "", **env},
                      log_dir=log_path.parent) as server:
        yield server.url


@contextmanager
def scratch_database(directory: Path) -> Iterator[str]:
    """A fresh database on the suite's backend that outlives one test (for module-scoped servers):
    an SQLite file in ``directory``, or a new PostgreSQL database dropped afterwards."""
    with fresh_database(directory, "tl_mod") as url:
        yield url
