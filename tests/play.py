"""Helpers the core tests share: play a list of actions, and compare logs with timestamps aside."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from service import EnvironmentService, StepResult
from store.eventstore import RecordedEvent


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
