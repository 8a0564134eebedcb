"""v1 episodes, replayed in-process: the same events, rewards, scores and observations as recorded.

Each recorded episode is played again through the environment service on a fresh database of the
run's backend, with the recorded actions (the scripted and odd episodes) or with the built-in policy
choosing again (the policy episodes: its choices are part of what is compared). Its record must
equal the recorded one exactly: every stored event's type, version, payload and chain hashes, every
reward, score, ``done`` and observation, every refusal message, the folded end state.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.golden import episodes
from tests.golden.reference import Recorded, report
from tests.golden.seams import Env, environment, grader_version

V1 = Recorded("v1")


def group_of(record: dict[str, Any]) -> str:
    """Episodes are replayed per task (policy and scripted, every seed), the odd ones together."""
    return "odd" if record["name"].startswith("odd.") else record["task_id"]


GROUPS = sorted({group_of(e) for e in V1.episodes})


def replay(env: Env, record: dict[str, Any]) -> dict[str, Any]:
    actions = None if record["player"] == "policy" else [s["action"] for s in record["steps"]]
    return episodes.play(env, name=record["name"], player=record["player"],
                         task_id=record["task_id"], seed=record["seed"],
                         episode_id=record["episode_id"], actions=actions)


@pytest.mark.parametrize("group", GROUPS)
def test_episodes_replay_exactly_as_recorded(group: str, database_url: str) -> None:
    chosen = [r for r in V1.episodes if group_of(r) == group]
    assert chosen
    with environment(database_url) as env:
        problems = [report(r["name"], r, replay(env, r)) for r in chosen]
    found = [p for p in problems if p]
    assert not found, f"{len(found)} of {len(chosen)} episodes departed from v1:\n" + "\n".join(found)


def test_v1_covers_every_task_seed_case_and_player() -> None:
    """The recording is what its README claims: made by grader 1.1, every task over every seed by
    both players, every case of the seed-dependent tasks, the odd sequences."""
    assert V1.meta["grader_version"] == "ticketledger-grader/1.1"
    assert V1.meta["episodes"] == len(V1.episodes)
    seeds = V1.meta["seeds"]
    played = Counter((r["player"], r["task_id"], r["seed"]) for r in V1.episodes
                     if r["player"] != "odd" and r["task_id"])
    tasks = {r["task_id"] for r in V1.episodes if r["task_id"]}
    assert len(tasks) == 12
    for task_id in tasks:
        for seed in seeds:
            assert played[("policy", task_id, seed)] >= 1 and played[("scripted", task_id, seed)] >= 1
    cases = {(r["task_id"], r["reset"]["events"][0]["data"]["task"]["case"]) for r in V1.episodes}
    for task_id, both in (("task_hard_refund_policy_denial", {"outside_window", "inside_window"}),
                          ("task_hard_account_email_change", {"verified", "not_verified"}),
                          ("task_hard_refund_fraud_trap", {"fraud_review", "normal_refund"}),
                          ("task_hard_gdpr_deletion", {"legal_hold", "scheduled"})):
        assert {c for t, c in cases if t == task_id} == both
    assert all(r["final"]["done"] for r in V1.episodes)
    assert sum(1 for r in V1.episodes if r["player"] == "odd") >= 8
    graded = {e["data"]["grader_version"] for r in V1.episodes for s in r["steps"]
              for e in s.get("events", []) if e["type"] == "StepGraded"}
    assert graded == {V1.meta["grader_version"]}


def test_today_grader_is_the_one_v1_was_recorded_with() -> None:
    """When the grader's version moves on, v1's rewards no longer apply as they are: record a v2
    with the new grader and decide, in the v1 tests, which of v1's episodes still hold."""
    assert grader_version() == V1.meta["grader_version"]
