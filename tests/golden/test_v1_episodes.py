"""v1 episodes (recorded with grader "ticketledger-grader/1.1") against today's code.

Grader 2.0 grades new episodes differently on purpose (issue 15), so v1's claims split in two:

* Still held exactly, because grading does not touch them: v1's actions, played again through the
  environment service on a fresh database of the run's backend (the recorded actions for the
  scripted and odd episodes; the built-in policy choosing again for the policy episodes, whose
  choices are part of what is compared), give v1's domain events (type, schema version and payload
  of every event but ``StepGraded``; the opening ``EpisodeStarted`` without its grader version and
  the fields added after v1), v1's refusal messages, ``done`` flags, observations (every field v1
  showed, except ``reward``) and folded end state (except ``score``).
* Still held exactly, because recorded history is never re-scored: every v1 episode, given as its
  recorded events, replays (``service.replay``, what ``ticketledger replay`` and ``verify`` run)
  under grader 1.1, the version it recorded, with an intact chain, no divergence and exactly its
  recorded rewards and scores.
* No longer compared with v1: the rewards, scores, grade reasons and the chain hashes (which cover
  the grades) of episodes played today, since those are graded by 2.0. A v2 recording made with
  2.0 holds them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.golden import episodes
from tests.golden.reference import Recorded, report
from tests.golden.seams import Env, environment, grader_version, grader_versions, replay_recorded

V1 = Recorded("v1")
V1_OPENING_FIELDS = frozenset({"episode_id", "task_id", "seed", "task_digest", "task", "run_id",
                               "forked_from"})
"""``EpisodeStarted`` payload members v1 recorded that grading does not decide (its
``grader_version`` names the grader, which has moved on)."""


def group_of(record: dict[str, Any]) -> str:
    """Episodes are replayed per task (policy and scripted, every seed), the odd ones together."""
    return "odd" if record["name"].startswith("odd.") else record["task_id"]


GROUPS = sorted({group_of(e) for e in V1.episodes})


def replay(env: Env, record: dict[str, Any]) -> dict[str, Any]:
    actions = None if record["player"] == "policy" else [s["action"] for s in record["steps"]]
    return episodes.play(env, name=record["name"], player=record["player"],
                         task_id=record["task_id"], seed=record["seed"],
                         episode_id=record["episode_id"], actions=actions)


def domain_event(event: dict[str, Any]) -> dict[str, Any] | None:
    """What an event says that grading does not decide (None for a ``StepGraded``)."""
    if event["type"] == "StepGraded":
        return None
    if event["type"] == "EpisodeStarted":
        return {"seq": event["seq"], "type": event["type"],
                "data": {k: v for k, v in event["data"].items() if k in V1_OPENING_FIELDS}}
    return {"seq": event["seq"], "type": event["type"], "version": event["version"],
            "data": event["data"]}


def ungraded(record: dict[str, Any], shown: dict[str, Any]) -> dict[str, Any]:
    """An episode record without what the grader decides; observations keep the fields of
    ``shown`` (v1's first observation: fields added since are not v1's to judge)."""
    fields = [k for k in shown if k != "reward"]

    def events(logged: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [e for e in map(domain_event, logged) if e is not None]

    seen = iter(episodes.observations(record))
    out: dict[str, Any] = {"reset": {"events": events(record["reset"]["events"]),
                                     "done": record["reset"]["done"]}}
    observed = [{k: o.get(k, "<absent>") for k in fields} for o in seen]
    out["observations"] = observed
    out["steps"] = [{"action": s["action"], "refused": s["refused"]} if "refused" in s
                    else {"action": s["action"], "done": s["done"], "events": events(s["events"])}
                    for s in record["steps"]]
    state = dict(record["final"]["state"])
    state["state"] = {k: v for k, v in state["state"].items() if k != "score"}
    out["final"] = {"done": record["final"]["done"], "events": record["final"]["events"],
                    "state": state}
    return out


@pytest.mark.parametrize("group", GROUPS)
def test_v1_actions_give_v1_domain_events_and_observations(group: str, database_url: str) -> None:
    chosen = [r for r in V1.episodes if group_of(r) == group]
    assert chosen
    with environment(database_url) as env:
        problems = []
        for r in chosen:
            shown = r["reset"]["observation"]
            problems.append(report(r["name"], ungraded(r, shown), ungraded(replay(env, r), shown)))
    found = [p for p in problems if p]
    assert not found, f"{len(found)} of {len(chosen)} episodes departed from v1:\n" + "\n".join(found)


@pytest.mark.parametrize("group", GROUPS)
def test_v1_recorded_episodes_replay_under_1_1_with_their_recorded_grades(group: str) -> None:
    problems = []
    chosen = [r for r in V1.episodes if group_of(r) == group]
    for r in chosen:
        logged = [s for s in r["steps"] if "refused" not in s]
        events = r["reset"]["events"] + [e for s in logged for e in s["events"]]
        data = replay_recorded(events, r["episode_id"])
        recorded = {"consistent": True, "chain_ok": True, "divergences": [],
                    "head_hash": r["final"]["head_hash"],
                    "grader_version": V1.meta["grader_version"],
                    "recorded_grader_version": V1.meta["grader_version"],
                    "recorded_score": r["final"]["score"], "recomputed_score": r["final"]["score"],
                    "rewards": [s["reward"] for s in logged], "scores": [s["score"] for s in logged]}
        now = {**{k: data[k] for k in recorded if k in data},
               "rewards": [s["reward"] for s in data["steps"]],
               "scores": [s["score"] for s in data["steps"]]}
        assert [s["recorded_reward"] for s in data["steps"]] == recorded["rewards"]
        problems.append(report(r["name"], recorded, now))
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


def test_the_v1_grader_is_kept_beside_todays() -> None:
    """v1's grader stays runnable (its episodes replay under it, above); new episodes record a
    newer one, so v1's rewards are not today's and a v2 recording holds those."""
    assert V1.meta["grader_version"] in grader_versions()
    assert grader_version() != V1.meta["grader_version"]
    assert grader_version() in grader_versions()
