"""Playing an episode in-process and writing down everything observable about it, as plain JSON.

The recorder and the replay tests use the same :func:`play`, so a recording and a replay of the
same episode are the same dict exactly when the code behaves the same. Episode ids are fixed (the
reset names them), so nothing in a record is random: the stored events' hashes included, since
the chain covers neither the episode's row id nor any timestamp (``store/chain.py``).

A record::

    {"name", "player", "task_id", "seed", "episode_id", ["reward_mode" when not dense,]
     "reset": {"observation": {...full...}, "reward", "done", "score", "head_hash", "events": [...]},
     "steps": [{"action", "reward", "done", "score", "head_hash", "events": [...],
                "observation": {<top-level fields that changed since the previous observation>}}
               | {"action", "refused": "<message>"}, ...],
     "final": {"score", "done", "events", "head_hash", "state": {...folded state...}}}

``events`` are the ones the reset or step appended: ``seq``, ``type``, ``version``, ``data``,
``prev_hash``, ``hash``. Observations after a step are kept as the fields that changed (the full
observation is the previous one updated with them): a whole observation per step would make the
file several times larger and say nothing more.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tests.golden.seams import Env, policy_action

JSONDict = dict[str, Any]
DENSE = "dense"
"""The default reward mode; v1's episodes were all played in it."""
POLICY_STEP_LIMIT = 64
"""A policy that never ends its episode is stopped here (every task has fewer steps)."""


def changed(before: JSONDict, after: JSONDict) -> JSONDict:
    """The top-level fields of ``after`` that differ from ``before`` as JSON (``1`` and ``1.0``
    differ); a field that vanished is recorded as ``"<absent>"``."""
    out = {k: v for k, v in after.items() if k not in before or _json(before[k]) != _json(v)}
    out.update({k: "<absent>" for k in before if k not in after})
    return out


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def updated(before: JSONDict, delta: JSONDict) -> JSONDict:
    out = {**before, **delta}
    return {k: v for k, v in out.items() if v != "<absent>"}


def play(env: Env, *, name: str, player: str, task_id: str | None, seed: int | None,
         episode_id: str, actions: Sequence[Any] | None = None,
         reward_mode: str = DENSE) -> JSONDict:
    """Reset (in ``reward_mode``), then take ``actions`` (every one, also after the episode
    ended: a refused step is part of the record), or the built-in policy's actions when
    ``actions`` is None."""
    first = env.reset(task_id, seed, episode_id, reward_mode)
    logged = env.events(episode_id)
    observation = first["observation"]
    record: JSONDict = {
        "name": name, "player": player, "task_id": task_id, "seed": seed, "episode_id": episode_id,
        "reset": {**first, "events": logged},
        "steps": [],
    }
    if reward_mode != DENSE:  # the records of the default mode keep v1's shape
        record["reward_mode"] = reward_mode
    todo = list(actions) if actions is not None else None
    while True:
        if todo is not None:
            if not todo:
                break
            action = todo.pop(0)
        else:
            if observation["done"] or len(record["steps"]) >= POLICY_STEP_LIMIT:
                break
            action = policy_action(observation)
        step, logged, observation = take(env, episode_id, action, logged, observation)
        record["steps"].append(step)
        if todo is None and "refused" in step:
            break  # the policy would only ask again with the same observation
    record["final"] = final(env, episode_id, record)
    return record


def take(env: Env, episode_id: str, action: Any, logged: list[JSONDict],
         observation: JSONDict) -> tuple[JSONDict, list[JSONDict], JSONDict]:
    """One step's record, given the events and observation before it; and those after it."""
    result = env.step(episode_id, action)
    if "refused" in result:
        return {"action": action, "refused": result["refused"]}, logged, observation
    now = env.events(episode_id)
    step = {"action": action, **{k: v for k, v in result.items() if k != "observation"},
            "events": now[len(logged):], "observation": changed(observation, result["observation"])}
    return step, now, result["observation"]


def final(env: Env, episode_id: str, record: JSONDict) -> JSONDict:
    """The episode's outcome as the log tells it after the recorded steps."""
    logged = env.events(episode_id)
    scores = [record["reset"]["score"]] + [s["score"] for s in record["steps"] if "score" in s]
    return {"score": scores[-1], "done": observations(record)[-1]["done"], "events": len(logged),
            "head_hash": logged[-1]["hash"], "state": env.folded_state(episode_id)}


def observations(record: JSONDict) -> list[JSONDict]:
    """The full observation after the reset and after each recorded (not refused) step."""
    current = record["reset"]["observation"]
    out = [current]
    for step in record["steps"]:
        if "observation" in step:
            current = updated(current, step["observation"])
            out.append(current)
    return out


def rewards(record: JSONDict) -> list[float]:
    return [s["reward"] for s in record["steps"] if "reward" in s]
