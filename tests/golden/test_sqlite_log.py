"""The v1 SQLite log (``v1/log.sql``, written by the store of grader 1.1's code) read by today's code.

The dump is loaded into a fresh SQLite file, which is then opened the way users open an old log:
``ticketledger verify``, ``replay`` and ``export``, and the environment service. Everything must
check out (no divergence, the chain intact; every episode re-graded under grader 1.1, the version
it recorded, to exactly its recorded rewards and scores), and what the log says must be what the
v1 episodes recorded: events, rewards, scores, observations, the folded state. One episode was left
open in the log; the current code finishes it under 1.1, and its steps must come out as v1 recorded
them (their grades in today's ``StepGraded`` shape). This is the
proof that logs written before a codec, chain or schema change keep reading after it.

Issue 15's deliberate changes are named in ``tests/golden/changes.py``: observations are compared
on v1's members (``account`` and ``available_actions`` are new), and today's code shows the
current SLA-1 and BD-2 policy texts (it does not log the text a lookup showed) so those two texts
are left out; the folded state's new members must fold to no back-office actions and no
violations for a v1 episode.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.golden import episodes
from tests.golden.changes import ADDED_TO_OBSERVATIONS, v1_folded, v1_members
from tests.golden.reference import Recorded, report
from tests.golden.seams import cli_json, cli_lines, environment, sqlite_pass_only

pytestmark = sqlite_pass_only("the log under test is an SQLite file")

V1 = Recorded("v1")
IN_LOG = V1.meta["in_log"]
OPEN = V1.meta["open_in_log"]


def load(directory: Path) -> str:
    """The v1 dump loaded into a new SQLite file in ``directory``; its URL."""
    path = directory / "v1.db"
    connection = sqlite3.connect(path)
    try:
        connection.executescript(V1.log_sql())
    finally:
        connection.close()
    return f"sqlite:///{path}"


@pytest.fixture(scope="module")
def log_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The loaded log, shared by the tests that only read it."""
    return load(tmp_path_factory.mktemp("golden-v1-log"))


def by_id(episode_id: str) -> dict[str, Any]:
    return next(e for e in V1.episodes if e["episode_id"] == episode_id)


def logged_steps(episode_id: str) -> list[dict[str, Any]]:
    """The recorded steps the log holds (refused ones were never written)."""
    steps = by_id(episode_id)["steps"]
    if episode_id in OPEN:
        steps = steps[:OPEN[episode_id]]
    return [s for s in steps if "refused" not in s]


def test_the_log_lists_the_v1_episodes(log_url: str) -> None:
    code, data = cli_json("--database-url", log_url, "episodes", "--limit", "500")
    assert code == 0
    assert sorted(e["episode_id"] for e in data["episodes"]) == sorted(IN_LOG)
    assert len(IN_LOG) == V1.meta["episodes_in_log"]
    for row in data["episodes"]:
        steps = logged_steps(row["episode_id"])
        assert (row["step_count"], row["score"], row["head_hash"]) == (
            len(steps), steps[-1]["score"], steps[-1]["head_hash"]), row["episode_id"]
        assert row["status"] == ("open" if row["episode_id"] in OPEN else "ended")


def test_verify_finds_every_v1_episode_consistent(log_url: str) -> None:
    code, data = cli_json("--database-url", log_url, "verify", "--jobs", "1")
    assert data["failures"] == []
    assert (code, data["ok"], data["episodes"], data["consistent"]) == (0, True, len(IN_LOG),
                                                                         len(IN_LOG))


def test_replay_reproduces_every_recorded_reward_and_score(log_url: str) -> None:
    problems = []
    for episode_id in IN_LOG:
        steps = logged_steps(episode_id)
        code, data = cli_json("--database-url", log_url, "replay", episode_id)
        recorded = {"exit": 0, "consistent": True, "chain_ok": True, "divergences": [],
                    "head_hash": steps[-1]["head_hash"], "grader_version": V1.meta["grader_version"],
                    "recorded_grader_version": V1.meta["grader_version"],
                    "recorded_score": steps[-1]["score"], "recomputed_score": steps[-1]["score"],
                    "recorded_rewards": [s["reward"] for s in steps],
                    "recomputed_rewards": [s["reward"] for s in steps],
                    "recorded_scores": [s["score"] for s in steps],
                    "recomputed_scores": [s["score"] for s in steps]}
        now = {"exit": code, **{k: data[k] for k in recorded if k in data},
               "recorded_rewards": [s["recorded_reward"] for s in data["steps"]],
               "recomputed_rewards": [s["reward"] for s in data["steps"]],
               "recorded_scores": [s["recorded_score"] for s in data["steps"]],
               "recomputed_scores": [s["score"] for s in data["steps"]]}
        problems.append(report(episode_id, recorded, now))
    found = [p for p in problems if p]
    assert not found, "\n".join(found)


def test_export_shows_the_recorded_observations_actions_and_rewards(log_url: str) -> None:
    code, lines = cli_lines("--database-url", log_url, "export")
    assert code == 0
    assert sorted(line["episode_id"] for line in lines) == sorted(IN_LOG)
    problems = []
    for line in lines:
        record = by_id(line["episode_id"])
        steps = logged_steps(line["episode_id"])
        seen = episodes.observations(record)  # after reset, then after each logged step
        members = list(seen[0])
        recorded = {"task_id": record["reset"]["observation"]["task_id"], "seed": record["seed"],
                    "num_steps": len(steps), "final_score": steps[-1]["score"],
                    "head_hash": steps[-1]["head_hash"],
                    "grader_version": V1.meta["grader_version"],
                    "steps": [{"step": i + 1, "observation": v1_members(seen[i], members, None),
                               "action": s["action"],
                               "reward": s["reward"], "score": s["score"], "done": s["done"]}
                              for i, s in enumerate(steps)]}
        now = {**{k: line[k] for k in recorded if k != "steps"},
               "steps": [{**{k: s[k] for k in ("step", "action", "reward", "score", "done")},
                          "observation": v1_members(s["observation"], members, None)}
                         for s in line["steps"]]}
        problems.append(report(line["episode_id"], recorded, now))
    found = [p for p in problems if p]
    assert not found, "\n".join(found)


def test_the_service_reads_the_recorded_events_and_folds_the_recorded_state(log_url: str) -> None:
    problems = []
    with environment(log_url) as env:
        for episode_id in IN_LOG:
            record = by_id(episode_id)
            steps = logged_steps(episode_id)
            recorded: dict[str, Any] = {
                "events": record["reset"]["events"] + [e for s in steps for e in s["events"]]}
            now: dict[str, Any] = {"events": env.events(episode_id)}
            if episode_id not in OPEN:
                recorded["state"] = record["final"]["state"]
                now["state"] = v1_folded(env.folded_state(episode_id), recorded["state"],
                                         logged=True)
            problems.append(report(episode_id, recorded, now))
    found = [p for p in problems if p]
    assert not found, "\n".join(found)


def as_v1_wrote(event: dict[str, Any]) -> dict[str, Any]:
    """A stored event as v1's code would have written it: ``StepGraded`` payloads are v2 now
    (``violations`` added; grader 1.1 judges none), everything else is unchanged. Chain links are
    left out: they cover the payload bytes, so they differ from the first grade appended today."""
    out = {"seq": event["seq"], "type": event["type"], "version": event["version"], "data": event["data"]}
    if event["type"] == "StepGraded" and event["version"] == 2:
        assert event["data"]["violations"] == []
        out["version"] = 1
        out["data"] = {k: v for k, v in event["data"].items() if k != "violations"}
    return out


def test_an_open_v1_episode_goes_on_as_recorded(tmp_path: Path) -> None:
    """Today's code appends to the old log under the episode's own grader, 1.1: the remaining
    steps' rewards, scores, observations and event payloads are v1's (grades in today's
    ``StepGraded`` shape), and the continued chain verifies."""
    assert OPEN
    url = load(tmp_path)
    with environment(url) as env:
        for episode_id, prefix in OPEN.items():
            record = by_id(episode_id)
            logged = env.events(episode_id)
            observation = episodes.observations({**record, "steps": record["steps"][:prefix]})[-1]
            steps = []
            for recorded_step in record["steps"][prefix:]:
                step, logged, observation = episodes.take(env, episode_id, recorded_step["action"],
                                                          logged, observation)
                steps.append(step)

            def compared(taken: list[dict[str, Any]]) -> list[dict[str, Any]]:
                return [{k: ([as_v1_wrote(e) for e in v] if k == "events" else
                             {m: d for m, d in v.items() if m not in ADDED_TO_OBSERVATIONS}
                             if k == "observation" else v)
                         for k, v in s.items() if k != "head_hash"} for s in taken]

            played = {**record, "steps": record["steps"][:prefix] + steps}
            final = episodes.final(env, episode_id, played)
            final.pop("head_hash")
            final["state"] = v1_folded(final["state"], record["final"]["state"], logged=True)
            recorded_final = {k: v for k, v in record["final"].items() if k != "head_hash"}
            problem = report(episode_id, {"steps": compared(record["steps"][prefix:]),
                                          "final": recorded_final},
                             {"steps": compared(steps), "final": final})
            assert problem is None, problem
    code, data = cli_json("--database-url", url, "verify", "--jobs", "1")
    assert (code, data["failures"], data["consistent"]) == (0, [], len(IN_LOG))
