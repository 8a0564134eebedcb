"""Helpers the core tests share: play a list of actions, compare logs with timestamps aside, and
module-wide databases.

Most core tests open their own episodes and never look at anyone else's, so one database per test
module is enough; on PostgreSQL that saves a CREATE DATABASE and a migration per test (about half a
second each). Tests that damage a database (dropping a trigger) keep a database of their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import pytest

from service import EnvironmentService, StepResult
from store import Database, open_database
from store.eventstore import RecordedEvent
from tests.databases import BACKEND, fresh_database


def module_url(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A generator fixtures drive: yields a fresh database URL of ``backend``; resuming it drops
    the PostgreSQL database."""
    with fresh_database(tmp_path_factory.mktemp("module-db"), "tl_test", backend) as url:
        yield url


@pytest.fixture(scope="module")
def module_database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One database of the run's backend (TICKETLEDGER_TEST_BACKEND) for the whole test module."""
    yield from module_url(BACKEND, tmp_path_factory)


@pytest.fixture(scope="module")
def module_service(module_database_url: str) -> Iterator[EnvironmentService]:
    db: Database = open_database(module_database_url)
    yield EnvironmentService(db)
    db.dispose()


def play(service: EnvironmentService, task_id: str | None, actions: Iterable[Any],
         seed: int | None = None, episode_id: str | None = None) -> list[StepResult]:
    """Reset, then step through ``actions`` until they run out or the episode ends.

    Returns the reset result followed by one result per step taken.
    """
    results = [service.reset(task_id, seed=seed, episode_id=episode_id)]
    for action in actions:
        if results[-1].done:
            break
        results.append(service.step(results[0].episode_id, action))
    return results


def final(results: list[StepResult]) -> StepResult:
    return results[-1]


def log_facts(recorded: list[RecordedEvent]) -> list[tuple[int, str, int, str, str, str]]:
    """Everything stored about each event except its timestamp and global position."""
    return [(r.seq, r.type, r.version, r.data_text, r.prev_hash, r.hash) for r in recorded]
