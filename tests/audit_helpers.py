"""Helpers for the audit, CLI and UI tests: the variants that draw every case, a weak policy beside
the expert, and a live server.

``weak_policy`` is a deliberately simple agent of our own that reads only what the observation
shows (no answer key); ``service.gold.gold`` is the gold (:func:`tests.play.play` plays
it by default). Together they give episodes of the same task that part ways, which is what diff,
the viewer and regrade need to show.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from service import EnvironmentService, StepResult
from tests.databases import fresh_database
from tests.play import play
from tests.servers import start_server

CASE_SEEDS = (None, 0, 7)
"""The published variant and seeds 0 and 7: between them they draw every case of every classic task
(``tests/evaluation/test_grader_audit.py`` checks it), the fewest variants an audit can play and
still judge each case."""


def weak_policy(customer_name: str, message: str) -> list[dict[str, Any]]:
    """Guess a priority from the message, send a generic reply, close. Reads what the observation
    shows of the ticket only (the customer's name and message), no answer key; the close comes before
    a queue is assigned, so the environment refuses it and the episode stays open."""
    urgent = any(word in message.lower() for word in ("urgent", "asap", "outage", "down", "breach",
                                                      "immediately"))
    first = customer_name.split()[0]
    return [
        {"action_type": "classify_priority", "priority": "high" if urgent else "medium"},
        {"action_type": "draft_reply",
         "reply_text": f"Hi {first}, thanks for contacting us. We are looking into this and will get "
                       "back to you shortly. Best regards, Support"},
        {"action_type": "close_ticket"},
    ]


def play_weak(service: EnvironmentService, task_id: str, *, seed: int | None = None,
              run_id: str | None = None) -> list[StepResult]:
    """The weak policy's episode of (task, seed) (:func:`tests.play.play`)."""
    ticket = service.catalog.instance(task_id, seed).ticket
    return play(service, task_id, weak_policy(ticket.customer_name, ticket.message), seed=seed,
                run_id=run_id)


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
