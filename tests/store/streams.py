"""What the store tests share: events to append, a stream opened, and writers racing on one head."""

from __future__ import annotations

import itertools
from typing import Any

from service.replay import verify_chain
from store import Conflict
from store.protocol import EventLog
from store.records import NewEvent, Projection

OPEN = Projection("open", 0, 0.0)
ROUNDS = 4
_IDS = itertools.count(1)


def fresh_id() -> str:
    """An episode id no other test of this process uses (the SQL backends share a module database)."""
    return f"ep-{next(_IDS)}"


def event(n: int) -> NewEvent:
    return NewEvent("ActionReceived", 1, {"n": n})


def open_stream(store: EventLog, episode_id: str) -> tuple[int, str]:
    recorded = store.create(episode_id, "task_easy_password", None, [event(0)], OPEN)
    return recorded[-1].seq, recorded[-1].hash


def row(store: EventLog, episode_id: str) -> tuple[Any, ...]:
    r = store.episode(episode_id)
    return r.last_seq, r.head_hash, r.status, r.step_count, r.score


def race_rounds(store: EventLog, episode_id: str, me: int, barrier: Any, rounds: int) -> list[bool]:
    """Every writer reads the head, waits for the others, then appends after that head."""
    won = []
    for _ in range(rounds):
        seq, head = store.head(episode_id)
        barrier.wait(timeout=60)
        try:
            store.append(episode_id, seq, head, [event(me), event(me)], Projection("open", seq, 0.0))
            won.append(True)
        except Conflict:
            won.append(False)
        barrier.wait(timeout=60)  # nobody reads the next head before every append has finished
    return won


def check_race(store: EventLog, episode_id: str, wins: list[list[bool]]) -> None:
    for round_index in range(ROUNDS):
        assert sum(w[round_index] for w in wins) == 1, f"round {round_index}: {wins}"
    loaded = store.load(episode_id)
    assert [r.seq for r in loaded] == list(range(1, 2 + 2 * ROUNDS))  # no gaps, no duplicates
    assert verify_chain(loaded) is None
    for first, second in zip(loaded[1::2], loaded[2::2], strict=True):
        assert first.data == second.data  # a step's events are never interleaved with another's
    assert store.head(episode_id) == (loaded[-1].seq, loaded[-1].hash)
