"""Helpers the core tests share: play an episode through a real service (a list of actions, an
agent or the gold player), compare logs with timestamps aside, and module-wide databases (the
fixtures built on them are in ``tests/conftest.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, cast

import pytest

from baseline.agent import Agent
from service import EnvironmentService, StepResult
from service.gold import gold
from store import Database, open_database
from store.eventstore import RecordedEvent
from tests.databases import fresh_database


def module_url(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A generator fixtures drive: yields a fresh database URL of ``backend``; resuming it drops
    the PostgreSQL database."""
    with fresh_database(tmp_path_factory.mktemp("module-db"), "tl_test", backend) as url:
        yield url


def module_database(backend: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """A generator fixtures drive: yields an open database of ``backend``; resuming it closes the
    database and drops it on PostgreSQL."""
    urls = module_url(backend, tmp_path_factory)
    database = open_database(next(urls))
    yield database
    database.dispose()
    next(urls, None)


def play(service: EnvironmentService, task_id: str | None, actions: Iterable[Any] | Agent | None = None,
         seed: int | None = None, episode_id: str | None = None, *,
         run_id: str | None = None) -> list[StepResult]:
    """Reset, then step until the episode ends or ``actions`` run out: ``actions`` is a list of
    actions, an agent (:class:`baseline.agent.Agent`) asked for every action until the episode
    ends (or its step budget), or None for the gold player's solution of the variant drawn.

    Returns the reset result followed by one result per step taken.
    """
    results = [service.reset(task_id, seed=seed, episode_id=episode_id, run_id=run_id)]
    if hasattr(actions, "act"):
        agent = cast(Agent, actions)
        while not results[-1].done:
            decision = agent.act(results[-1].observation)
            results.append(service.step(results[0].episode_id, decision.action))
        return results
    if actions is None:
        task = service.state(results[0].episode_id).task
        assert task is not None
        actions = gold(task)
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
