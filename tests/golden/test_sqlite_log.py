"""The recorded SQLite logs (``<version>/log.sql``) read by today's code: v20's (grader 3.16, today's),
v18's (3.14), v17's (3.13), v16's (3.12), v15's (3.11), v14's (3.10), v13's (3.9), v12's (3.8), v11's
(3.7), v10's (3.6), v9's (3.5), v8's (3.4), v7's (3.3), v6's (3.2), v5's (3.1), v4's (3.0), v3's (2.1)
and v2's (2.0) exactly, v1's (written by the store of grader 1.1's code) on what the back-office
release left alone.

The dump is loaded into a fresh SQLite file, which is then opened the way users open an old log:
``ticketledger verify``, ``replay`` and ``export``, and the environment service. Everything must
check out (no divergence, the chain intact; every episode re-graded under the grader it recorded,
2.0 or 2.1, or for v1, whose grader 1.1 is retired, its recorded grades checked, to exactly its
recorded rewards and scores), and what the log says must be what the version's episodes recorded:
events, rewards, scores, observations, the folded state. One episode was left open in each log; the
current code finishes it under its own grader, and its steps must come out as recorded (v1's is
refused: nothing new is graded under a retired grader). This is the proof that logs written before
a codec, chain or schema change keep reading after it.

Logs recorded before the Gymnasium release (v1, v2) are compared without the observation members it added
(``changes.before_gymnasium_members``). For v1, the back-office release's deliberate changes are named in
``tests/golden/changes.py``: observations are compared on v1's members (``account`` and
``available_actions`` are new), and today's code shows the current SLA-1 and BD-2 policy texts (it
does not log the text a lookup showed) so those two texts are left out; the folded state's new
members must fold to no back-office actions and no violations for a v1 episode."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.golden import episodes
from tests.golden.changes import (
    ADDED_TO_OBSERVATIONS,
    before_gymnasium_members,
    v1_folded,
    v1_members,
    with_customer_vocabulary,
)
from tests.golden.reference import Recorded, report, tiered
from tests.golden.seams import cli_json, cli_lines, environment, grader_version

BEFORE_GYMNASIUM = frozenset({"v1", "v2"})
"""Versions recorded before the Gymnasium release added members to observations
(``changes.before_gymnasium_members``):
today's observations are compared without those."""
EXACT = frozenset({"v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12",
                   "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20"})
"""Versions whose log today's code reads exactly (v2 under grader 2.0, v3 under 2.1, v4 under 3.0,
v5 under 3.1, v6 under 3.2, v7 under 3.3, v8 under 3.4, v9 under 3.5, v10 under 3.6, v11 under
3.7, v12 under 3.8, v13 under 3.9, v14 under 3.10, v15 under 3.11, v16 under 3.12, v17 under
3.13, v18 under 3.14, v19 under 3.15, v20 under 3.16: each episode under the grader it recorded).
v1's log is compared on what the back-office release left alone (``tests/golden/changes.py``)."""


class Log:
    """One version's recorded log and the episodes it holds."""

    def __init__(self, version: str):
        self.version = version
        self.recorded = Recorded(version)
        self.exact = version in EXACT
        self.before_gymnasium = version in BEFORE_GYMNASIUM
        self.in_log: list[str] = self.recorded.meta["in_log"]
        self.open: dict[str, int] = self.recorded.meta["open_in_log"]
        self.grader = self.recorded.meta["grader_version"]

    def load(self, directory: Path) -> str:
        """The dump loaded into a new SQLite file in ``directory``; its URL."""
        path = directory / f"{self.version}.db"
        connection = sqlite3.connect(path)
        try:
            connection.executescript(self.recorded.log_sql())
        finally:
            connection.close()
        return f"sqlite:///{path}"

    def by_id(self, episode_id: str) -> dict[str, Any]:
        return next(e for e in self.recorded.episodes if e["episode_id"] == episode_id)

    def logged_steps(self, episode_id: str) -> list[dict[str, Any]]:
        """The recorded steps the log holds (refused ones were never written)."""
        steps = self.by_id(episode_id)["steps"]
        if episode_id in self.open:
            steps = steps[:self.open[episode_id]]
        return [s for s in steps if "refused" not in s]


LOGS = {v: Log(v) for v in ("v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10", "v11", "v12",
                            "v13", "v14", "v15", "v16", "v17", "v18", "v19", "v20")}


@pytest.fixture(scope="module", params=[tiered(v) for v in sorted(LOGS)])
def log(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Log, str]:
    """A version's loaded log and its URL, shared by the tests that only read it."""
    chosen = LOGS[request.param]
    return chosen, chosen.load(tmp_path_factory.mktemp(f"golden-{chosen.version}-log"))


def test_the_log_lists_the_recorded_episodes(log: tuple[Log, str]) -> None:
    recorded, url = log
    code, data = cli_json("--database-url", url, "episodes", "--limit", "500")
    assert code == 0
    assert sorted(e["episode_id"] for e in data["episodes"]) == sorted(recorded.in_log)
    assert len(recorded.in_log) == recorded.recorded.meta["episodes_in_log"]
    for row in data["episodes"]:
        steps = recorded.logged_steps(row["episode_id"])
        assert (row["step_count"], row["score"], row["head_hash"]) == (
            len(steps), steps[-1]["score"], steps[-1]["head_hash"]), row["episode_id"]
        assert row["status"] == ("open" if row["episode_id"] in recorded.open else "ended")


def test_verify_finds_every_recorded_episode_consistent(log: tuple[Log, str]) -> None:
    recorded, url = log
    code, data = cli_json("--database-url", url, "verify", "--jobs", "1")
    assert data["failures"] == []
    assert (code, data["ok"], data["episodes"], data["consistent"]) == (
        0, True, len(recorded.in_log), len(recorded.in_log))


def graded(steps: list[dict[str, Any]]) -> list[float]:
    """The rewards the grader recorded in the steps' ``StepGraded`` events (dense; the agent was
    given its reward mode's, the same in the default dense mode)."""
    return [e["data"]["reward"] for s in steps for e in s["events"] if e["type"] == "StepGraded"]


def test_replay_reproduces_every_recorded_reward_and_score(log: tuple[Log, str]) -> None:
    """Under the grader each episode recorded (1.1 for v1, 2.0 for v2, 2.1 for v3, 3.0 for v4, 3.1
    for v5, 3.2 for v6, 3.3 for v7, 3.4 for v8, 3.5 for v9, 3.6 for v10, 3.7 for v11,
    3.8 for v12, 3.9 for v13, 3.10 for v14, 3.11 for v15, 3.12 for v16, 3.13 for v17, 3.14 for v18,
    3.15 for v19, 3.16 for v20)."""
    log_of, url = log
    problems = []
    for episode_id in log_of.in_log:
        steps = log_of.logged_steps(episode_id)
        code, data = cli_json("--database-url", url, "replay", episode_id)
        recorded = {"exit": 0, "consistent": True, "chain_ok": True, "divergences": [],
                    "head_hash": steps[-1]["head_hash"], "grader_version": log_of.grader,
                    "recorded_grader_version": log_of.grader,
                    "recorded_score": steps[-1]["score"], "recomputed_score": steps[-1]["score"],
                    "agent_rewards": [s["reward"] for s in steps],
                    "recorded_rewards": graded(steps), "recomputed_rewards": graded(steps),
                    "recorded_scores": [s["score"] for s in steps],
                    "recomputed_scores": [s["score"] for s in steps]}
        now = {"exit": code, **{k: data[k] for k in recorded if k in data},
               "agent_rewards": [s["agent_reward"] for s in data["steps"]],
               "recorded_rewards": [s["recorded_reward"] for s in data["steps"]],
               "recomputed_rewards": [s["reward"] for s in data["steps"]],
               "recorded_scores": [s["recorded_score"] for s in data["steps"]],
               "recomputed_scores": [s["score"] for s in data["steps"]]}
        problems.append(report(episode_id, recorded, now))
    found = [p for p in problems if p]
    assert not found, "\n".join(found)


def test_export_shows_the_recorded_observations_actions_and_rewards(log: tuple[Log, str]) -> None:
    """Exactly for an exact version; for v1, observations on v1's members but those the back-office release
    changed (``changes.v1_members``)."""
    log_of, url = log
    code, lines = cli_lines("--database-url", url, "export")
    assert code == 0
    assert sorted(line["episode_id"] for line in lines) == sorted(log_of.in_log)
    problems = []
    for line in lines:
        record = log_of.by_id(line["episode_id"])
        steps = log_of.logged_steps(line["episode_id"])
        seen = episodes.observations(record)  # after reset, then after each logged step
        members = list(seen[0])

        def shown(observation: dict[str, Any], members: list[str] = members) -> dict[str, Any]:
            return observation if log_of.exact else v1_members(observation, members, None)

        recorded = {"task_id": record["reset"]["observation"]["task_id"], "seed": record["seed"],
                    "num_steps": len(steps), "final_score": steps[-1]["score"],
                    "head_hash": steps[-1]["head_hash"], "grader_version": log_of.grader,
                    "steps": [{"step": i + 1, "observation": shown(seen[i]), "action": s["action"],
                               "reward": s["reward"], "score": s["score"], "done": s["done"]}
                              for i, s in enumerate(steps)]}
        now = {**{k: line[k] for k in recorded if k != "steps"},
               "steps": [{**{k: s[k] for k in ("step", "action", "reward", "score", "done")},
                          "observation": shown(s["observation"])} for s in line["steps"]]}
        problems.append(report(line["episode_id"], recorded,
                               before_gymnasium_members(recorded, now) if log_of.before_gymnasium else now))
    found = [p for p in problems if p]
    assert not found, "\n".join(found)


def test_the_service_reads_the_recorded_events_and_folds_the_recorded_state(
        log: tuple[Log, str]) -> None:
    """Exactly for an exact version; for v1, the folded state on v1's members, its new members
    checked for what a v1 episode folds to (``changes.v1_folded``)."""
    log_of, url = log
    problems = []
    with environment(url) as env:
        for episode_id in log_of.in_log:
            record = log_of.by_id(episode_id)
            steps = log_of.logged_steps(episode_id)
            recorded: dict[str, Any] = {
                "events": record["reset"]["events"] + [e for s in steps for e in s["events"]]}
            now: dict[str, Any] = {"events": env.events(episode_id)}
            if episode_id not in log_of.open:
                recorded["state"] = record["final"]["state"]
                folded = env.folded_state(episode_id)
                now["state"] = folded if log_of.exact else v1_folded(folded, recorded["state"],
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


def continue_open_episodes(log_of: Log, url: str) -> list[str]:
    """Today's code appends the rest of each open episode's recorded steps to the loaded log;
    for each, how it departs from the record (exactly, for an exact version)."""
    problems = []
    with environment(url) as env:
        for episode_id, prefix in log_of.open.items():
            record = log_of.by_id(episode_id)
            logged = env.events(episode_id)
            observation = with_customer_vocabulary(
                episodes.observations({**record, "steps": record["steps"][:prefix]})[-1])
            steps = []
            for recorded_step in record["steps"][prefix:]:
                step, logged, observation = episodes.take(env, episode_id, recorded_step["action"],
                                                          logged, observation)
                steps.append(step)
            played = {**record, "steps": record["steps"][:prefix] + steps}
            final = episodes.final(env, episode_id, played)
            if log_of.exact:
                expected: dict[str, Any] = {"steps": record["steps"][prefix:], "final": record["final"]}
                now: dict[str, Any] = {"steps": steps, "final": final}
            else:
                expected = as_v1_saw(record["steps"][prefix:], record["final"])
                now = as_v1_saw(steps, {**final, "state": v1_folded(
                    final["state"], record["final"]["state"], logged=True)})
            problem = report(episode_id, expected,
                             before_gymnasium_members(expected, now) if log_of.before_gymnasium else now)
            if problem:
                problems.append(problem)
    return problems


def as_v1_saw(steps: list[dict[str, Any]], final: dict[str, Any]) -> dict[str, Any]:
    """Steps and outcome of a continued v1 episode without chain hashes (the grades appended today
    are v2 ``StepGraded`` payloads, see :func:`as_v1_wrote`) and without the observation members
    the back-office release added."""
    return {"steps": [{k: ([as_v1_wrote(e) for e in v] if k == "events" else
                           {m: d for m, d in v.items() if m not in ADDED_TO_OBSERVATIONS}
                           if k == "observation" else v)
                       for k, v in s.items() if k != "head_hash"} for s in steps],
            "final": {k: v for k, v in final.items() if k != "head_hash"}}


@pytest.mark.parametrize("version", [tiered(v) for v in sorted(LOGS) if v != "v1"])
def test_an_open_episode_goes_on_as_recorded(version: str, tmp_path: Path) -> None:
    """Today's code appends to the old log under the episode's own grader: the remaining steps'
    rewards, scores, observations and event payloads are as recorded (for v2, everything, hashes
    included), and the continued chain verifies."""
    log_of = LOGS[version]
    assert log_of.open
    url = log_of.load(tmp_path)
    problems = continue_open_episodes(log_of, url)
    assert not problems, "\n".join(problems)
    code, data = cli_json("--database-url", url, "verify", "--jobs", "1")
    assert (code, data["failures"], data["consistent"]) == (0, [], len(log_of.in_log))


def test_an_open_v1_episode_is_not_continued_under_its_retired_grader(tmp_path: Path) -> None:
    """Grader 1.1 is retired (``graders.retired``): the open v1 episode's next recorded step is
    refused with a message naming the policy and nothing is appended; the log still verifies, and
    the episode is re-graded under today's grader like any other."""
    log_of = LOGS["v1"]
    url = log_of.load(tmp_path)
    with environment(url) as env:
        for episode_id, prefix in log_of.open.items():
            before = env.events(episode_id)
            action = log_of.by_id(episode_id)["steps"][prefix]["action"]
            refused = env.step(episode_id, action)
            assert set(refused) == {"refused"}, refused
            assert refused["refused"].startswith(f"episode {episode_id} cannot be continued: "
                                                 "grader 1.1 is retired")
            assert env.events(episode_id) == before
    code, data = cli_json("--database-url", url, "verify", "--jobs", "1")
    assert (code, data["failures"], data["consistent"]) == (0, [], len(log_of.in_log))
    code, data = cli_json("--database-url", url, "regrade", "--dry-run")
    assert code == 0 and data["episodes"] == len(log_of.in_log)
    assert data["grader_version"] == grader_version()


