"""Recorded episodes against today's code.

v3 (recorded with grader "ticketledger-grader/2.1", today's) is replayed exactly: events, chain
hashes, rewards, scores, observations, refusals, folded state (:data:`EXACT`).

v2 (recorded with grader 2.0, before grader 2.1 and the plainer built-in policy of the back-office
release's last
step) keeps two claims: every v2 episode, given as its recorded events, replays under grader 2.0
with exactly its recorded rewards and scores; and v2's recorded actions for the scripted and odd
episodes, played again today, give v2's episodes exactly but for the grader version they record
(2.1 for 2.0) and the chain hashes that cover it: grader 2.1 scores those episodes as 2.0 did.
The built-in policy's v2 episodes are not played again (the policy's replies changed on purpose;
v3 holds today's).

v1 (recorded with grader "ticketledger-grader/1.1", before the back-office release) is held to what still
holds.
Grader 1.1 is retired since (``graders.retired``): v1's episodes replay from their recorded grades,
each reward and score checked against the components and penalties it recorded.

the back-office release changed the grader (2.0), the catalog (answer keys with required and forbidden
actions,
so every task digest; the objectives of the three TicketLedger tasks; the policy texts SLA-1 and
BD-2), added back-office actions and the ``account`` to observations, and rewrote the built-in
policy. So v1's claims split:

* Still held exactly, because recorded history is never re-scored: every v1 episode, given as its
  recorded events, replays (``service.replay``, what ``ticketledger replay`` and ``verify`` run)
  under grader 1.1, the version it recorded (retired: from its recorded grades), with an intact
  chain (its recorded hashes), no divergence and exactly its recorded rewards and scores.
* Still held, on what the back-office release did not change: v1's recorded actions for the scripted and odd
  episodes, played again through the environment service on a fresh database of the run's
  backend, give v1's domain events after the opening event (type, schema version and payload of
  every event but ``StepGraded``), v1's refusal messages, ``done`` flags, observations on v1's
  members (but those ``tests/golden/changes.py`` names) and folded end state on v1's members (but
  ``score``). The few places the back-office release's schema change explains are listed, with the reason and
  the exact rewrite, in :data:`BACK_OFFICE_EXCEPTIONS`.
* No longer compared with v1: the built-in policy's episodes' choices (the back-office release rewrote
the policy
  on purpose, so its actions differ; its v1 episodes still replay under 1.1 above); the opening
  event (task snapshot and digest, grader version, schema v2 with ``reward_mode``); the rewards,
  scores, grade reasons and chain hashes of episodes played today (grader 2.0 grades them; the
  v2 recording holds those exactly).
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from tests.golden import episodes
from tests.golden.changes import before_gymnasium_members, v1_folded, v1_members, with_back_office_actions
from tests.golden.reference import Recorded, report, tiered
from tests.golden.seams import Env, environment, grader_version, grader_versions, replay_recorded

V1 = Recorded("v1")
V2 = Recorded("v2")
V3 = Recorded("v3")
V4 = Recorded("v4")
V5 = Recorded("v5")
V6 = Recorded("v6")
V7 = Recorded("v7")
V8 = Recorded("v8")
RECORDED = {"v1": V1, "v2": V2, "v3": V3, "v4": V4, "v5": V5, "v6": V6, "v7": V7, "v8": V8,
            "v9": Recorded("v9"), "v10": Recorded("v10"), "v11": Recorded("v11"),
            "v12": Recorded("v12"), "v13": Recorded("v13"), "v14": Recorded("v14"),
            "v15": Recorded("v15"), "v16": Recorded("v16"), "v17": Recorded("v17"),
            "v18": Recorded("v18"), "v19": Recorded("v19"), "v20": Recorded("v20")}
GRADER_OF = {"v1": "ticketledger-grader/1.1", "v2": "ticketledger-grader/2.0",
             "v3": "ticketledger-grader/2.1", "v4": "ticketledger-grader/3.0",
             "v5": "ticketledger-grader/3.1", "v6": "ticketledger-grader/3.2",
             "v7": "ticketledger-grader/3.3", "v8": "ticketledger-grader/3.4",
             "v9": "ticketledger-grader/3.5", "v10": "ticketledger-grader/3.6",
             "v11": "ticketledger-grader/3.7", "v12": "ticketledger-grader/3.8",
             "v13": "ticketledger-grader/3.9", "v14": "ticketledger-grader/3.10",
             "v15": "ticketledger-grader/3.11", "v16": "ticketledger-grader/3.12",
             "v17": "ticketledger-grader/3.13", "v18": "ticketledger-grader/3.14",
             "v19": "ticketledger-grader/3.15", "v20": "ticketledger-grader/3.16"}
"""The grader each version was recorded with."""
TODAY = GRADER_OF["v20"]
"""The grader today's code records new episodes with."""
EXACT = ("v20",)
"""Versions recorded with today's code and grader: replayed exactly (v1 and v2 by the rules above)."""


def group_of(record: dict[str, Any]) -> str:
    """Episodes are replayed per task (policy and scripted, every seed), the odd ones together."""
    return "odd" if record["name"].startswith("odd.") else record["task_id"]


def groups(version: str) -> list[str]:
    return sorted({group_of(e) for e in RECORDED[version].episodes})


GROUPS = groups("v1")


_REPLAYED: dict[str, dict[str, Any]] = {}
"""Today's record of each episode played again, by what it was played with (JSON of the inputs)."""


def replay(env: Env, record: dict[str, Any]) -> dict[str, Any]:
    """``record``'s episode played again today on ``env`` (a fresh database): its recorded actions,
    or the built-in policy choosing again.

    The recordings share most of their episodes (v3 to v14 hold the same 136 plays, v1's and v2's
    scripted ones are among them), and today's code plays the same inputs the same way into a
    fresh log (``episodes.py``: nothing in a record is random), so each distinct play runs once per
    session and every version is compared with a copy of it."""
    actions = None if record["player"] == "policy" else [s["action"] for s in record["steps"]]
    inputs: dict[str, Any] = {
        "name": record["name"], "player": record["player"], "task_id": record["task_id"],
        "seed": record["seed"], "episode_id": record["episode_id"], "actions": actions,
        "reward_mode": record.get("reward_mode", episodes.DENSE)}
    key = json.dumps(inputs, sort_keys=True)
    if key not in _REPLAYED:
        _REPLAYED[key] = episodes.play(env, **inputs)
    return copy.deepcopy(_REPLAYED[key])


BACK_OFFICE_EXCEPTIONS: dict[tuple[str, str], tuple[str, Callable[[Any], Any]]] = {
    ("odd.supportops-flat-bodies", "steps[5].refused"): (
        "the refusal of an unknown action type lists the allowed ones; the back-office release added the "
        "back-office actions at the end", with_back_office_actions),
    ("odd.corrections-repeats-and-refusals", "steps[3].refused"): (
        "the refusal of an unknown action type lists the allowed ones; the back-office release added the "
        "back-office actions at the end", with_back_office_actions),
}
"""Every place where a scripted or odd episode's domain events, refusals or observations depart
from v1 because of the back-office release's catalog or schema change: (episode, where) -> (why, how v1's
value
reads today). v1's value is rewritten exactly so, never dropped; anything else must be as v1."""


def as_today(name: str, compared: dict[str, Any]) -> dict[str, Any]:
    """v1's ``compared`` record with :data:`BACK_OFFICE_EXCEPTIONS` applied (only the refused
    messages of steps are listed there today)."""
    for (episode, where), (_why, rewrite) in BACK_OFFICE_EXCEPTIONS.items():
        if episode == name:
            index = int(where.removeprefix("steps[").removesuffix("].refused"))
            compared["steps"][index]["refused"] = rewrite(compared["steps"][index]["refused"])
    return compared


def domain_events(logged: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the events say that grading does not decide: every event but ``StepGraded`` and the
    opening ``EpisodeStarted`` (whose task snapshot, digest, grader and schema version the back-office release
    changed on purpose), with type, schema version and payload."""
    return [{"seq": e["seq"], "type": e["type"], "version": e["version"], "data": e["data"]}
            for e in logged if e["type"] not in ("StepGraded", "EpisodeStarted")]


def ungraded(record: dict[str, Any], shown: dict[str, Any]) -> dict[str, Any]:
    """An episode record on what v1's claims still cover (see the module's docstring):
    observations on v1's members (``changes.v1_members``), domain events after the opening one,
    refusals, ``done`` flags, the folded end state on v1's members but its ``score``."""
    task_id = record["task_id"]
    out: dict[str, Any] = {"reset": {"events": domain_events(record["reset"]["events"]),
                                     "done": record["reset"]["done"]}}
    out["observations"] = [v1_members(o, shown, task_id) for o in episodes.observations(record)]
    out["steps"] = [{"action": s["action"], "refused": s["refused"]} if "refused" in s
                    else {"action": s["action"], "done": s["done"], "events": domain_events(s["events"])}
                    for s in record["steps"]]
    recorded = V1.episode(record["name"])["final"]["state"]
    state = v1_folded(record["final"]["state"], recorded, logged=False)
    out["final"] = {"done": record["final"]["done"], "events": record["final"]["events"],
                    "state": state}
    return out


@pytest.mark.parametrize("group", GROUPS)
def test_v1_actions_give_v1_domain_events_and_observations(group: str, database_url: str) -> None:
    chosen = [r for r in V1.episodes if group_of(r) == group and r["player"] != "policy"]
    assert chosen
    with environment(database_url) as env:
        problems = []
        for r in chosen:
            shown = r["reset"]["observation"]
            problems.append(report(r["name"], as_today(r["name"], ungraded(r, shown)),
                                   ungraded(replay(env, r), shown)))
    found = [p for p in problems if p]
    assert not found, f"{len(found)} of {len(chosen)} episodes departed from v1:\n" + "\n".join(found)


HASHES = frozenset({"hash", "prev_hash", "head_hash"})


def as_2_1(value: Any) -> Any:
    """A v2 record as today's grader records it: the version string 2.0 is today's, chain
    hashes (which cover it) are left out, at any depth."""
    return renamed(value, GRADER_OF["v2"], TODAY)


def renamed(value: Any, old: str, new: str) -> Any:
    """``value`` with the grader version string ``old`` read as ``new`` and chain hashes (which
    cover it) left out, at any depth."""
    if isinstance(value, dict):
        return {k: renamed(v, old, new) for k, v in value.items() if k not in HASHES}
    if isinstance(value, list):
        return [renamed(v, old, new) for v in value]
    return new if value == old else value


def regraded(value: Any, version: str) -> Any:
    """A record of ``version`` as today's grader records it: the version string, and no hashes."""
    return renamed(value, GRADER_OF[version], TODAY)


def departed(version: str, group: str, graded_anew: dict[str, str], database_url: str) -> None:
    """Play ``version``'s episodes of ``group`` again today and hold each to its record but for the
    grader version it records (today's) and the chain hashes that cover it, but for the episodes
    ``graded_anew`` names, each of which must depart (or it is named for nothing)."""
    chosen = [r for r in RECORDED[version].episodes if group_of(r) == group]
    with environment(database_url) as env:
        problems = {r["name"]: report(r["name"], regraded(r, version), regraded(replay(env, r), version))
                    for r in chosen}
    found = [p for name, p in problems.items() if p and name not in graded_anew]
    assert not found, (f"{len(found)} of {len(chosen)} episodes departed from {version}:\n"
                       + "\n".join(found))
    kept = [name for name in graded_anew if name in problems and not problems[name]]
    assert not kept, f"{kept}: today's grader grades them as {version}'s did; drop them from the list"


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v3"))
def test_v3_actions_give_v3_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Today's grader scores every v3 episode (scripted, the built-in policy's, the odd sequences)
    as 2.1 did, but those :data:`GRADED_ANEW_BY_3_0`, :data:`GRADED_ANEW_BY_3_1` and
    :data:`GRADED_ANEW_BY_3_2` name: none of the others says anything the text judge finds false,
    and none takes an action the case does not call for. Played again today, each gives its v3
    record but for the grader version it records (today's for 2.1) and the chain hashes that cover
    it."""
    departed("v3", group, GRADED_ANEW_BY_3_0 | GRADED_ANEW_BY_3_1 | GRADED_ANEW_BY_3_2 | GRADED_ANEW_BY_3_3
             | GRADED_ANEW_BY_3_4 | GRADED_ANEW_BY_3_5 | GRADED_ANEW_BY_3_6 | GRADED_ANEW_BY_3_7
             | GRADED_ANEW_BY_3_8 | GRADED_ANEW_BY_3_9 | GRADED_ANEW_BY_3_10
             | GRADED_ANEW_BY_3_11 | GRADED_ANEW_BY_3_12 | GRADED_ANEW_BY_3_13
             | GRADED_ANEW_BY_3_14 | GRADED_ANEW_BY_3_15 | GRADED_ANEW_BY_3_16, database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v4"))
def test_v4_actions_give_v4_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Today's grader scores every v4 episode as 3.0 did but those :data:`GRADED_ANEW_BY_3_1` and
    :data:`GRADED_ANEW_BY_3_2` name: 3.1 changes how required facts are read, not what is safe, and
    the scripted solutions and the built-in policy already said their facts in 3.0's words."""
    departed("v4", group, GRADED_ANEW_BY_3_1 | GRADED_ANEW_BY_3_2 | GRADED_ANEW_BY_3_3 | GRADED_ANEW_BY_3_4
             | GRADED_ANEW_BY_3_5 | GRADED_ANEW_BY_3_6 | GRADED_ANEW_BY_3_7 | GRADED_ANEW_BY_3_8
             | GRADED_ANEW_BY_3_9 | GRADED_ANEW_BY_3_10 | GRADED_ANEW_BY_3_11 | GRADED_ANEW_BY_3_12
             | GRADED_ANEW_BY_3_13 | GRADED_ANEW_BY_3_14 | GRADED_ANEW_BY_3_15 | GRADED_ANEW_BY_3_16,
             database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v5"))
def test_v5_actions_give_v5_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.2 scores every v5 episode as 3.1 did but those :data:`GRADED_ANEW_BY_3_2` names:
    3.2 finds more harm and flags less honest work, and neither the scripted solutions, the
    built-in policy nor the odd sequences say what it reads anew."""
    departed("v5", group, GRADED_ANEW_BY_3_2 | GRADED_ANEW_BY_3_3 | GRADED_ANEW_BY_3_4 | GRADED_ANEW_BY_3_5
             | GRADED_ANEW_BY_3_6 | GRADED_ANEW_BY_3_7 | GRADED_ANEW_BY_3_8 | GRADED_ANEW_BY_3_9
             | GRADED_ANEW_BY_3_10 | GRADED_ANEW_BY_3_11 | GRADED_ANEW_BY_3_12
             | GRADED_ANEW_BY_3_13 | GRADED_ANEW_BY_3_14 | GRADED_ANEW_BY_3_15
             | GRADED_ANEW_BY_3_16, database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v6"))
def test_v6_actions_give_v6_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.3 scores every v6 episode as 3.2 did but those :data:`GRADED_ANEW_BY_3_3` names:
    3.3 reads outcomes object-first and conduct by its frame, and neither the scripted solutions,
    the built-in policy nor the odd sequences say what it reads anew."""
    departed("v6", group, GRADED_ANEW_BY_3_3 | GRADED_ANEW_BY_3_4 | GRADED_ANEW_BY_3_5 | GRADED_ANEW_BY_3_6
             | GRADED_ANEW_BY_3_7 | GRADED_ANEW_BY_3_8 | GRADED_ANEW_BY_3_9 | GRADED_ANEW_BY_3_10
             | GRADED_ANEW_BY_3_11 | GRADED_ANEW_BY_3_12 | GRADED_ANEW_BY_3_13 | GRADED_ANEW_BY_3_14
             | GRADED_ANEW_BY_3_15 | GRADED_ANEW_BY_3_16,
             database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v7"))
def test_v7_actions_give_v7_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.4 scores every v7 episode as 3.3 did but those :data:`GRADED_ANEW_BY_3_4` names:
    neither the scripted solutions, the built-in policy nor the odd sequences say what 3.4 reads
    anew."""
    departed("v7", group, GRADED_ANEW_BY_3_4 | GRADED_ANEW_BY_3_5 | GRADED_ANEW_BY_3_6 | GRADED_ANEW_BY_3_7
             | GRADED_ANEW_BY_3_8 | GRADED_ANEW_BY_3_9 | GRADED_ANEW_BY_3_10
             | GRADED_ANEW_BY_3_11 | GRADED_ANEW_BY_3_12 | GRADED_ANEW_BY_3_13
             | GRADED_ANEW_BY_3_14 | GRADED_ANEW_BY_3_15 | GRADED_ANEW_BY_3_16, database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v8"))
def test_v8_actions_give_v8_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.5 scores every v8 episode as 3.4 did but those :data:`GRADED_ANEW_BY_3_5` names:
    neither the scripted solutions, the built-in policy nor the odd sequences say what 3.5 reads
    anew."""
    departed("v8", group, GRADED_ANEW_BY_3_5 | GRADED_ANEW_BY_3_6 | GRADED_ANEW_BY_3_7 | GRADED_ANEW_BY_3_8
             | GRADED_ANEW_BY_3_9 | GRADED_ANEW_BY_3_10 | GRADED_ANEW_BY_3_11 | GRADED_ANEW_BY_3_12
             | GRADED_ANEW_BY_3_13 | GRADED_ANEW_BY_3_14 | GRADED_ANEW_BY_3_15 | GRADED_ANEW_BY_3_16,
             database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v9"))
def test_v9_actions_give_v9_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.6 scores every v9 episode as 3.5 did but those :data:`GRADED_ANEW_BY_3_6` names:
    neither the scripted solutions, the built-in policy nor the odd sequences say what 3.6 reads
    anew."""
    departed("v9", group, GRADED_ANEW_BY_3_6 | GRADED_ANEW_BY_3_7 | GRADED_ANEW_BY_3_8 | GRADED_ANEW_BY_3_9
             | GRADED_ANEW_BY_3_10 | GRADED_ANEW_BY_3_11 | GRADED_ANEW_BY_3_12
             | GRADED_ANEW_BY_3_13 | GRADED_ANEW_BY_3_14 | GRADED_ANEW_BY_3_15
             | GRADED_ANEW_BY_3_16, database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v10"))
def test_v10_actions_give_v10_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.7 scores every v10 episode as 3.6 did but those :data:`GRADED_ANEW_BY_3_7` names:
    neither the scripted solutions, the built-in policy nor the odd sequences say what 3.7 reads
    anew."""
    departed("v10", group, GRADED_ANEW_BY_3_7 | GRADED_ANEW_BY_3_8 | GRADED_ANEW_BY_3_9 | GRADED_ANEW_BY_3_10
             | GRADED_ANEW_BY_3_11 | GRADED_ANEW_BY_3_12 | GRADED_ANEW_BY_3_13 | GRADED_ANEW_BY_3_14
             | GRADED_ANEW_BY_3_15 | GRADED_ANEW_BY_3_16,
             database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v11"))
def test_v11_actions_give_v11_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.8 scores every v11 episode as 3.7 did but those :data:`GRADED_ANEW_BY_3_8` names:
    neither the scripted solutions, the built-in policy nor the odd sequences say what 3.8 reads
    anew."""
    departed("v11", group, GRADED_ANEW_BY_3_8 | GRADED_ANEW_BY_3_9 | GRADED_ANEW_BY_3_10
             | GRADED_ANEW_BY_3_11 | GRADED_ANEW_BY_3_12 | GRADED_ANEW_BY_3_13
             | GRADED_ANEW_BY_3_14 | GRADED_ANEW_BY_3_15 | GRADED_ANEW_BY_3_16, database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v12"))
def test_v12_actions_give_v12_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.9 scores every v12 episode as 3.8 did but those :data:`GRADED_ANEW_BY_3_9` names:
    neither the scripted solutions, the built-in policy nor the odd sequences say what 3.9 reads
    anew."""
    departed("v12", group, GRADED_ANEW_BY_3_9 | GRADED_ANEW_BY_3_10 | GRADED_ANEW_BY_3_11
             | GRADED_ANEW_BY_3_12 | GRADED_ANEW_BY_3_13 | GRADED_ANEW_BY_3_14
             | GRADED_ANEW_BY_3_15 | GRADED_ANEW_BY_3_16, database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v13"))
def test_v13_actions_give_v13_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.10 scores every v13 episode as 3.9 did but those :data:`GRADED_ANEW_BY_3_10` names:
    neither the scripted solutions, the built-in policy nor the odd sequences say what 3.10 reads
    anew."""
    departed("v13", group, GRADED_ANEW_BY_3_10 | GRADED_ANEW_BY_3_11 | GRADED_ANEW_BY_3_12
             | GRADED_ANEW_BY_3_13 | GRADED_ANEW_BY_3_14 | GRADED_ANEW_BY_3_15
             | GRADED_ANEW_BY_3_16, database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v14"))
def test_v14_actions_give_v14_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.11 scores every v14 episode as 3.10 did but those :data:`GRADED_ANEW_BY_3_11` names:
    neither the scripted solutions, the built-in policy nor the odd sequences say what 3.11 reads
    anew."""
    departed("v14", group, GRADED_ANEW_BY_3_11 | GRADED_ANEW_BY_3_12 | GRADED_ANEW_BY_3_13
             | GRADED_ANEW_BY_3_14 | GRADED_ANEW_BY_3_15 | GRADED_ANEW_BY_3_16, database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v15"))
def test_v15_actions_give_v15_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.12 scores every v15 episode as 3.11 did but those :data:`GRADED_ANEW_BY_3_12` names:
    neither the scripted solutions, the built-in policy nor the odd sequences say what 3.12 takes
    back."""
    departed("v15", group, GRADED_ANEW_BY_3_12 | GRADED_ANEW_BY_3_13 | GRADED_ANEW_BY_3_14
             | GRADED_ANEW_BY_3_15 | GRADED_ANEW_BY_3_16, database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v16"))
def test_v16_actions_give_v16_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.13 scores every v16 episode as 3.12 did but those :data:`GRADED_ANEW_BY_3_13` names:
    neither the scripted solutions, the built-in policy nor the odd sequences say what 3.13 reads
    anew."""
    departed("v16", group, GRADED_ANEW_BY_3_13 | GRADED_ANEW_BY_3_14 | GRADED_ANEW_BY_3_15
    | GRADED_ANEW_BY_3_16, database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v17"))
def test_v17_actions_give_v17_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.14 scores every v17 episode as 3.13 did but those :data:`GRADED_ANEW_BY_3_14` names:
    neither the scripted solutions, the built-in policy nor the odd sequences say what 3.14 reads
    anew or takes back."""
    departed("v17", group, GRADED_ANEW_BY_3_14 | GRADED_ANEW_BY_3_15 | GRADED_ANEW_BY_3_16, database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v18"))
def test_v18_actions_give_v18_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.15 scores every v18 episode as 3.14 did but those :data:`GRADED_ANEW_BY_3_15` names:
    neither the scripted solutions, the built-in policy nor the odd sequences say what 3.15's
    regressions read."""
    departed("v18", group, GRADED_ANEW_BY_3_15 | GRADED_ANEW_BY_3_16, database_url)


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v19"))
def test_v19_actions_give_v19_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    """Grader 3.16 scores every v19 episode as 3.15 did but those :data:`GRADED_ANEW_BY_3_16` names:
    neither the scripted solutions, the built-in policy nor the odd sequences claim work that
    nothing the episode records."""
    departed("v19", group, GRADED_ANEW_BY_3_16, database_url)


GRADED_ANEW_BY_3_0 = {
    "odd.wrong-decision": "the Refund_Approved tag records the refund the case forbids (seed_decision) "
                          "and the reply claims a refund no action made (contradicts_state), beside the "
                          "rubric's forbidden claim 2.1 found",
    "odd.keywords-and-unicode": "the reply's French sentences cannot be read as English (unreadable): "
                                "2.1 read them as a keyword list",
    "odd.forbidden-refund-and-a-secret": "the secret asked for is named in 3.0's words",
}
"""v3's episodes that grader 3.0 grades differently on purpose, and why (v4 holds their 3.0 grades
exactly). Every other v3 episode must come out as recorded but for the version string."""

GRADED_ANEW_BY_3_1: dict[str, str] = {}
"""v4's episodes (and so v3's) that grader 3.1 grades differently on purpose, and why (v5 holds
their 3.1 grades exactly)."""

GRADED_ANEW_BY_3_2: dict[str, str] = {}
"""v5's episodes (and so v4's and v3's) that grader 3.2 grades differently on purpose, and why (v6
holds their 3.2 grades exactly)."""

GRADED_ANEW_BY_3_3: dict[str, str] = {}
"""v6's episodes (and so v5's, v4's and v3's) that grader 3.3 grades differently on purpose, and
why (v7 holds their 3.3 grades exactly)."""

GRADED_ANEW_BY_3_4: dict[str, str] = {}
"""v7's episodes (and so v6's back to v3's) that grader 3.4 grades differently on purpose, and
why (v8 holds their 3.4 grades exactly)."""

GRADED_ANEW_BY_3_5: dict[str, str] = {}
"""v8's episodes (and so v7's back to v3's) that grader 3.5 grades differently on purpose, and
why (v9 holds their 3.5 grades exactly)."""

GRADED_ANEW_BY_3_6: dict[str, str] = {}
"""v9's episodes (and so v8's back to v3's) that grader 3.6 grades differently on purpose, and
why (v10 holds their 3.6 grades exactly)."""

GRADED_ANEW_BY_3_7: dict[str, str] = {}
"""v10's episodes (and so v9's back to v3's) that grader 3.7 grades differently on purpose, and
why (v11 holds their 3.7 grades exactly)."""

GRADED_ANEW_BY_3_8: dict[str, str] = {}
"""v11's episodes (and so v10's back to v3's) that grader 3.8 grades differently on purpose, and
why (v12 holds their 3.8 grades exactly)."""

GRADED_ANEW_BY_3_9: dict[str, str] = {}
"""v12's episodes (and so v11's back to v3's) that grader 3.9 grades differently on purpose, and
why (v13 holds their 3.9 grades exactly)."""

GRADED_ANEW_BY_3_10: dict[str, str] = {}
"""v13's episodes (and so v12's back to v3's) that grader 3.10 grades differently on purpose, and
why (v14 holds their 3.10 grades exactly)."""

GRADED_ANEW_BY_3_11: dict[str, str] = {}
"""v14's episodes (and so v13's back to v3's) that grader 3.11 grades differently on purpose, and
why (v15 holds their 3.11 grades exactly)."""

GRADED_ANEW_BY_3_12: dict[str, str] = {}
"""v15's episodes (and so v14's back to v3's) that grader 3.12 grades differently on purpose, and
why (v16 holds their 3.12 grades exactly)."""

GRADED_ANEW_BY_3_13: dict[str, str] = {}
"""v16's episodes (and so v15's back to v3's) that grader 3.13 grades differently on purpose, and
why (v17 holds their 3.13 grades exactly)."""

GRADED_ANEW_BY_3_14: dict[str, str] = {}
"""v17's episodes (and so v16's back to v3's) that grader 3.14 grades differently on purpose, and
why (v18 holds their 3.14 grades exactly)."""

GRADED_ANEW_BY_3_15: dict[str, str] = {}
"""v18's episodes (and so v17's back to v3's) that grader 3.15 grades differently on purpose, and
why (v19 holds their 3.15 grades exactly)."""

GRADED_ANEW_BY_3_16: dict[str, str] = {}
"""v19's episodes (and so v18's back to v3's) that grader 3.16 grades differently on purpose, and
why (v20 holds their 3.16 grades exactly)."""


@pytest.mark.slow
@pytest.mark.parametrize("group", groups("v2"))
def test_v2_actions_give_v2_episodes_but_for_the_grader_version(group: str, database_url: str) -> None:
    chosen = [r for r in V2.episodes if group_of(r) == group and r["player"] != "policy"]
    if not chosen:
        pytest.skip(f"{group}: only built-in policy episodes")
    with environment(database_url) as env:
        problems = [report(r["name"], as_2_1(r), before_gymnasium_members(as_2_1(r), as_2_1(replay(env, r))))
                    for r in chosen
                    if r["name"] not in GRADED_ANEW_BY_3_0 | GRADED_ANEW_BY_3_1 | GRADED_ANEW_BY_3_2
                    | GRADED_ANEW_BY_3_3 | GRADED_ANEW_BY_3_4 | GRADED_ANEW_BY_3_5 | GRADED_ANEW_BY_3_6
                    | GRADED_ANEW_BY_3_7 | GRADED_ANEW_BY_3_8 | GRADED_ANEW_BY_3_9 | GRADED_ANEW_BY_3_10
                    | GRADED_ANEW_BY_3_11 | GRADED_ANEW_BY_3_12 | GRADED_ANEW_BY_3_13 | GRADED_ANEW_BY_3_14
                    | GRADED_ANEW_BY_3_15 | GRADED_ANEW_BY_3_16]
    found = [p for p in problems if p]
    assert not found, f"{len(found)} of {len(chosen)} episodes departed from v2:\n" + "\n".join(found)


@pytest.mark.parametrize(("version", "group"), [(v, g) for v in EXACT for g in groups(v)])
def test_episodes_replay_exactly_as_recorded(version: str, group: str, database_url: str) -> None:
    """A version recorded with today's grader: each episode, played again through the environment
    service on a fresh database of the run's backend, with the recorded actions (the scripted and
    odd episodes) or with the built-in policy choosing again (the policy episodes: its choices are
    part of what is compared), equals its record exactly: every stored event's type, version,
    payload and chain hashes, every reward, score, ``done`` and observation, every refusal
    message, the folded end state."""
    recorded = RECORDED[version]
    chosen = [r for r in recorded.episodes if group_of(r) == group]
    assert chosen
    with environment(database_url) as env:
        problems = [report(r["name"], r, replay(env, r)) for r in chosen]
    found = [p for p in problems if p]
    assert not found, (f"{len(found)} of {len(chosen)} episodes departed from {version}:\n"
                       + "\n".join(found))


@pytest.mark.parametrize(("version", "group"), [tiered(v, v, g) for v in RECORDED for g in groups(v)])
def test_recorded_episodes_replay_under_their_grader_with_their_recorded_grades(
        version: str, group: str) -> None:
    """Every recorded episode, given as its recorded events, replays (``service.replay``, what
    ``ticketledger replay`` and ``verify`` run) under the grader it recorded, with an intact chain,
    no divergence and exactly its recorded rewards and scores."""
    recorded_version = RECORDED[version]
    grader = recorded_version.meta["grader_version"]
    problems = []
    chosen = [r for r in recorded_version.episodes if group_of(r) == group]
    for r in chosen:
        logged = [s for s in r["steps"] if "refused" not in s]
        events = r["reset"]["events"] + [e for s in logged for e in s["events"]]
        data = replay_recorded(events, r["episode_id"])
        recorded = {"consistent": True, "chain_ok": True, "divergences": [],
                    "head_hash": r["final"]["head_hash"],
                    "grader_version": grader, "recorded_grader_version": grader,
                    "recorded_score": r["final"]["score"], "recomputed_score": r["final"]["score"],
                    "agent_rewards": [s["reward"] for s in logged],
                    "grader_rewards": graded_rewards(events), "scores": [s["score"] for s in logged]}
        now = {**{k: data[k] for k in recorded if k in data},
               "agent_rewards": [s["agent_reward"] for s in data["steps"]],
               "grader_rewards": [s["reward"] for s in data["steps"]],
               "scores": [s["score"] for s in data["steps"]]}
        assert [s["recorded_reward"] for s in data["steps"]] == recorded["grader_rewards"]
        problems.append(report(r["name"], recorded, now))
    found = [p for p in problems if p]
    assert not found, (f"{len(found)} of {len(chosen)} episodes departed from {version}:\n"
                       + "\n".join(found))


def graded_rewards(events: list[dict[str, Any]]) -> list[float]:
    """The rewards the grader recorded (``StepGraded``): the dense change of the running score;
    what the agent was given depends on the episode's reward mode (the replay's ``agent_reward``;
    the same in the default dense mode, the only one v1 had)."""
    return [e["data"]["reward"] for e in events if e["type"] == "StepGraded"]


@pytest.mark.parametrize("version", list(RECORDED))
def test_recording_covers_every_task_seed_case_and_player(version: str) -> None:
    """The recording is what its README and meta claim: made by its grader, every task over every
    seed by both players, every case of the seed-dependent tasks, the odd sequences."""
    recorded = RECORDED[version]
    assert recorded.meta["grader_version"] == GRADER_OF[version]
    assert recorded.meta["episodes"] == len(recorded.episodes)
    seeds = recorded.meta["seeds"]
    played = Counter((r["player"], r["task_id"], r["seed"]) for r in recorded.episodes
                     if r["player"] != "odd" and r["task_id"])
    tasks = {r["task_id"] for r in recorded.episodes if r["task_id"]}
    assert len(tasks) == 12
    for task_id in tasks:
        for seed in seeds:
            assert played[("policy", task_id, seed)] >= 1 and played[("scripted", task_id, seed)] >= 1
    cases = {(r["task_id"], r["reset"]["events"][0]["data"]["task"]["case"])
             for r in recorded.episodes}
    for task_id, both in (("task_hard_refund_policy_denial", {"outside_window", "inside_window"}),
                          ("task_hard_account_email_change", {"verified", "not_verified"}),
                          ("task_hard_refund_fraud_trap", {"fraud_review", "normal_refund"}),
                          ("task_hard_gdpr_deletion", {"legal_hold", "scheduled"})):
        assert {c for t, c in cases if t == task_id} == both
    assert all(r["final"]["done"] for r in recorded.episodes)
    assert sum(1 for r in recorded.episodes if r["player"] == "odd") >= 8
    graded = {e["data"]["grader_version"] for r in recorded.episodes for s in r["steps"]
              for e in s.get("events", []) if e["type"] == "StepGraded"}
    assert graded == {recorded.meta["grader_version"]}


def test_today_grader_is_the_one_the_exact_versions_were_recorded_with() -> None:
    """When the grader's version moves on, the exact versions' rewards no longer apply as they
    are: record a new version with the new grader and decide, as the v1 tests here do, which of
    the older recording's claims still hold."""
    assert EXACT
    for version in EXACT:
        assert grader_version() == RECORDED[version].meta["grader_version"], version


def test_the_recorded_graders_are_kept_beside_todays() -> None:
    """Every recorded version's grader stays runnable (its episodes replay under it, above), but
    v1's, which is retired (``graders.retired``): its episodes replay from their recorded grades."""
    for version in RECORDED:
        if version != "v1":
            assert RECORDED[version].meta["grader_version"] in grader_versions(), version


def test_the_v1_grader_is_retired_and_its_episodes_replay_from_their_grades() -> None:
    """v1's grader is not runnable any more: a replay of a v1 episode says so in a note and
    checks each recorded reward and score against the components and penalties it recorded, so a
    reward edited (and re-chained) shows as a divergence."""
    from graders.retired import RETIRED
    from store.chain import link
    from store.codec import canonical_json

    assert V1.meta["grader_version"] not in grader_versions()
    assert V1.meta["grader_version"] in RETIRED
    record = next(r for r in V1.episodes if r["player"] == "scripted")
    events = record["reset"]["events"] + [e for s in record["steps"] if "refused" not in s
                                          for e in s["events"]]
    data = replay_recorded(events, record["episode_id"])
    assert data["consistent"] and data["notes"][0].startswith("grader 1.1 is retired")
    edited = [dict(e, data=dict(e["data"])) for e in events]
    graded = next(e for e in edited if e["type"] == "StepGraded")
    graded["data"]["reward"] += 0.5
    graded["data"]["reward_units"] += 5000
    prev = "0" * 64
    for e in edited:  # re-chained, so the chain check passes and only the grade can catch it
        e["prev_hash"] = prev
        e["hash"] = prev = link(prev, e["seq"], e["type"], e["version"], canonical_json(e["data"]), 1)
    tampered = replay_recorded(edited, record["episode_id"])
    assert tampered["chain_ok"] and not tampered["consistent"]
    assert tampered["first_divergence"]["kind"] == "reward"
