"""Recorded wire exchanges replayed against a fresh real server: v20's (today's code) exactly; v19's, v18's,
v17's, v16's, v15's, v14's, v13's, v12's, v11's, v10's, v9's, v8's, v7's, v6's, v5's and v4's exactly
but for the grader version (3.15, 3.14, 3.13, 3.12, 3.11, 3.10, 3.9, 3.8, 3.7, 3.6, 3.5, 3.4, 3.3, 3.2, 3.1
and 3.0, now 3.16) and the chain hashes that cover it; v3's and v2's the same way (2.1 and 2.0, now
3.16), but for the conversations :data:`GRADED_ANEW_BY_3_0` names; v1's with the same statuses, error
messages and JSON bodies on v1's members, but for what the grader decides and what the back-office
release changed.

The conversations (both seeds' HTTP dialects, OpenEnv's wrapped steps and ``/ws`` protocol,
``/mcp`` JSON-RPC, the audit routes and the error answers with their messages) run in their
recorded order against ``python -m server.app`` on a fresh database of the run's backend. Random
episode ids, the hashes that depend on them, and timestamps are named rather than compared
(``tests/golden/wire.py``).

v1 was recorded with grader 1.1 and today's episodes are graded by 2.0. What is not
compared with v1, in one place each:

* :data:`GRADED`: members whose values the grader decides, and the payload and schema version of
  ``StepGraded`` events, and every chain hash (the chain covers the grades; hashes are named in
  every conversation, which still checks that the same hash comes back wherever v1 had the same).
* :data:`CHANGED`: members the back-office release's catalog changed on purpose (task digests, weights), and
  ``EpisodeStarted``'s schema version (v2 added ``reward_mode``).
* Members added since v1: today's bodies are compared on v1's members only
  (:func:`on_v1_members`); lists of :data:`LISTED` (the action types, the MCP tools, the
  observation schema's required members) on v1's items, in v1's order.
* :data:`REWORDED` and :func:`reworded`: v1's strings that name something the back-office release changed, as
  today's code words them (the reset fields, the allowed action types, the TicketLedger tasks'
  objectives): rewritten exactly, then compared.

In both versions, :func:`secured` rewrites the one answer the routing release changed on purpose: a request
that names no episode, with no episode to fall back on, is a 400 saying how to name one (it was a
404); what chosen ids changed is in ``tests/golden/wire.py``.

Everything else holds as recorded: statuses, media types, error messages, observations. v1's
recorded grades are checked where they belong, by replaying v1's episodes under grader 1.1
(``test_v1_episodes``, ``test_v1_sqlite_log``).
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.golden import wire
from tests.golden.changes import (
    BACK_OFFICE_ACTIONS,
    TICKETLEDGER_TASKS,
    before_gymnasium_members,
    with_back_office_actions,
)
from tests.golden.reference import Recorded, report
from tests.golden.seams import server

V1 = Recorded("v1")
V2 = Recorded("v2")
V3 = Recorded("v3")
V4 = Recorded("v4")
V5 = Recorded("v5")
RECORDED = {"v1": V1, "v2": V2, "v3": V3, "v4": V4, "v5": V5, "v6": Recorded("v6"), "v7": Recorded("v7"),
            "v8": Recorded("v8"), "v9": Recorded("v9"), "v10": Recorded("v10"),
            "v11": Recorded("v11"), "v12": Recorded("v12"), "v13": Recorded("v13"),
            "v14": Recorded("v14"), "v15": Recorded("v15"), "v16": Recorded("v16"),
            "v17": Recorded("v17"), "v18": Recorded("v18"), "v19": Recorded("v19"),
            "v20": Recorded("v20")}
EXACT = ("v20",)
TODAY = "ticketledger-grader/3.16"
"""The grader version today's code answers with."""
"""Versions recorded with today's code and grader: replayed exactly (v1 and v2 by the rules below)."""

GRADED = frozenset({"grader_version", "recorded_grader_version", "reward", "rewards", "score",
                    "task_score", "components", "reason", "reason_a", "reason_b"})
"""Members whose values the grader decides (rewards, scores, their components and the reasons
that explain them): compared as present, not by value."""

CHANGED = frozenset({"task_digest", "weights"})
"""Members whose values the back-office release's catalog changed (answer keys changed every task's
digest; the
three TicketLedger tasks have new weights): compared as present, not by value."""

LISTED = frozenset({"allowed", "oneOf", "required", "tools"})
"""Lists the back-office release added items to (the back-office action types in the allowed list and the
action
schema's ``oneOf``, their MCP tools, the observation's new required members)."""


def _objectives() -> dict[str, str]:
    """v1's objective of each TicketLedger task -> today's (from the v2 recording, made with the
    code that rewrote them); every seed of a task has one objective in each version."""
    out: dict[str, str] = {}
    for old in V1.episodes:
        if old["task_id"] in TICKETLEDGER_TASKS:
            new = V2.episode(old["name"])["reset"]["observation"]["objective"]
            assert out.setdefault(old["reset"]["observation"]["objective"], new) == new
    return out


REWORDED = {
    "unknown field 'taskid'; reset takes: task_id, seed, episode_id, run_id":
        "unknown field 'taskid'; reset takes: task_id, seed, episode_id, run_id, reward_mode",
    "action_type='fly' is not allowed; choose one of: classify_priority, assign_queue, add_tag, "
    "remove_tag, draft_reply, add_internal_note, lookup_policy, resolve_ticket, close_ticket, noop":
        with_back_office_actions(
            "action_type='fly' is not allowed; choose one of: classify_priority, assign_queue, "
            "add_tag, remove_tag, draft_reply, add_internal_note, lookup_policy, resolve_ticket, "
            "close_ticket, noop"),
    **_objectives(),
}
"""v1's strings that name something the back-office release changed, as today's code words them: the reset
fields (``reward_mode`` added), the allowed action types (the back-office ones added), the
objectives of the three TicketLedger tasks."""


def reworded(value: Any) -> Any:
    """v1's ``value`` with the strings of :data:`REWORDED` as today's code words them."""
    if isinstance(value, dict):
        return {k: reworded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [reworded(v) for v in value]
    return REWORDED.get(value, value) if isinstance(value, str) else value


NO_EPISODE_BEFORE = ("no episode to act on: call POST /reset first (its cookie routes later "
                     "requests), or name one with episode_id in the body or the X-Episode-Id header")


CONVERSATION_DESCRIBED = ("it showed before issue 18)", "it showed before the customer could be messaged)")
"""The end of the observation schema's description of ``conversation``, as the recordings up to v5
hold it and as it reads now (it named an issue; history lives in git)."""


def redescribed(value: Any) -> Any:
    """``value`` with :data:`CONVERSATION_DESCRIBED`'s recorded wording as it reads now, at any depth."""
    if isinstance(value, dict):
        return {k: redescribed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [redescribed(v) for v in value]
    if isinstance(value, str) and value.endswith(CONVERSATION_DESCRIBED[0]):
        return value.removesuffix(CONVERSATION_DESCRIBED[0]) + CONVERSATION_DESCRIBED[1]
    return value


def secured(exchanges: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Recorded exchanges with the answers changed on purpose since as they are now: the one the
    routing release changed (module docstring), and the schema's description of ``conversation``
    (:func:`redescribed`)."""
    from api.episode_routing import NO_EPISODE

    out = []
    for exchange in redescribed(exchanges):
        response = exchange.get("response", {})
        body = response.get("body")
        if isinstance(body, dict) and body.get("detail") == NO_EPISODE_BEFORE:
            body = {**body, "detail": NO_EPISODE, "code": "no_episode_named", "status": 400}
            exchange = {**exchange, "response": {**response, "status": 400, "body": body}}
        out.append(exchange)
    return out


def with_json_text(value: Any) -> Any:
    """``value`` with MCP ``content`` texts that hold a JSON object parsed (``{"json": ...}``), so
    their members are compared like the structured content's."""
    if isinstance(value, dict):
        out = {k: with_json_text(v) for k, v in value.items()}
        text = out.get("text")
        if out.get("type") == "text" and isinstance(text, str) and text.startswith("{"):
            out["text"] = {"json": json.loads(text)}
        return out
    if isinstance(value, list):
        return [with_json_text(v) for v in value]
    return value


def _key(item: Any) -> Any:
    return item["name"] if isinstance(item, dict) and "name" in item else json.dumps(item, sort_keys=True)


def on_v1_members(recorded: Any, now: Any, key: str = "") -> Any:
    """Today's ``now`` on the members ``recorded`` (v1's) has, at any depth: members of dicts v1
    did not have are left out, and lists of :data:`LISTED` keep the items v1 had (by ``name`` or
    value), in today's order. Other lists are paired item by item."""
    if isinstance(recorded, dict) and isinstance(now, dict):
        return {k: on_v1_members(recorded[k], v, k) if k in recorded else v
                for k, v in now.items() if k in recorded}
    if isinstance(recorded, list) and isinstance(now, list):
        if key in LISTED:
            old = {_key(i): i for i in recorded}
            now = [i for i in now if _key(i) in old]
            return [on_v1_members(old[_key(i)], i) for i in now]
        return [on_v1_members(r, n) for r, n in zip(recorded, now, strict=False)] + now[len(recorded):]
    return now


def ungraded(value: Any, key: str = "", parent: str = "") -> Any:
    """``value`` with the members of :data:`GRADED` and :data:`CHANGED`, the payload and version of
    every ``StepGraded`` event and the version of every ``EpisodeStarted`` event replaced by a
    placeholder (at any depth). A JSON schema's ``properties`` of the same names are schemas, not
    grades: they are compared."""
    if parent != "properties":
        if key in GRADED:
            return "<graded>"
        if key in CHANGED:
            return "<changed by the back-office release>"
    if isinstance(value, dict):
        if value.get("type") == "StepGraded" and "data" in value:
            return {k: "<graded>" if k in ("data", "version") else ungraded(v, k, key)
                    for k, v in value.items()}
        if value.get("type") == "EpisodeStarted" and "version" in value:
            return {k: "<v1 or v2>" if k == "version" else ungraded(v, k, key)
                    for k, v in value.items()}
        return {k: ungraded(v, k, key) for k, v in value.items()}
    if isinstance(value, list):
        return [ungraded(v, "", key) for v in value]
    return value


_PLAYED: dict[str, list[list[dict[str, Any]]]] = {}
"""What a fresh server answered to each distinct sequence of conversations, by their requests."""


def played(recorded: Recorded, database_url: str) -> list[list[dict[str, Any]]]:
    """The exchanges of each of ``recorded``'s conversations, played in their recorded order
    against a fresh ``python -m server.app`` on ``database_url``.

    Versions that send the same requests in the same order (v2 and v3 do, and v4 to v20) are
    answered alike by today's code: random ids are named in the exchanges, and nothing else in
    them depends on the play (``tests/golden/wire.py``). So each distinct sequence is played once
    per session, on a server of its own, and each version is compared with a copy of its answers."""
    key = json.dumps([{**{k: v for k, v in c.items() if k != "exchanges"},
                       "sent": [{k: x[k] for k in ("request", "send") if k in x}
                                for x in c["exchanges"]]}
                      for c in recorded.conversations], sort_keys=True)
    if key not in _PLAYED:
        with server(database_url) as url:
            _PLAYED[key] = [wire.play(url, c) for c in recorded.conversations]
    return copy.deepcopy(_PLAYED[key])


def comparable(exchanges: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Exchanges with every hash named (fresh names per conversation) and graded values blanked."""
    return ungraded(wire.Names(hashes=True).normalise(exchanges))  # type: ignore[no-any-return]


def test_every_v1_conversation_replays_as_recorded_but_for_the_grades(database_url: str) -> None:
    problems = []
    for conversation, answered in zip(V1.conversations, played(V1, database_url), strict=True):
        recorded = reworded(with_json_text(secured(conversation["exchanges"])))
        now = on_v1_members(recorded, with_json_text(answered))
        problems.append(report(conversation["name"], comparable(recorded), comparable(now)))
    found = [p for p in problems if p]
    assert not found, (f"{len(found)} of {len(V1.conversations)} conversations departed from v1:\n"
                       + "\n".join(found))


def renamed(value: Any, old: str) -> Any:
    """A recorded value as today's code answers: the grader version ``old`` reads today's (at any
    depth)."""
    if isinstance(value, dict):
        return {k: renamed(v, old) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, old) for v in value]
    return TODAY if value == old else value


def as_2_1(value: Any) -> Any:
    """A v2 value as today's code answers: the grader version 2.0 reads today's."""
    return renamed(value, "ticketledger-grader/2.0")


@pytest.mark.slow
def test_every_v2_conversation_replays_as_recorded_but_for_the_grader_version(database_url: str) -> None:
    """Hashes are named (fresh names per conversation), so the same hash must still come back
    wherever v2 had the same; everything else as recorded, with 2.1 for 2.0, but for the members
    the Gymnasium release added (``changes.before_gymnasium_members``; MCP's JSON texts are compared
    parsed for that)."""
    problems: dict[str, str | None] = {}
    for conversation, answered in zip(V2.conversations, played(V2, database_url), strict=True):
        recorded = as_2_1(wire.Names(hashes=True).normalise(
            with_json_text(secured(conversation["exchanges"]))))
        now = before_gymnasium_members(recorded, wire.Names(hashes=True).normalise(
            with_json_text(answered)))
        problems[conversation["name"]] = report(conversation["name"], recorded, now)
    found = departures("v2", V2, problems)
    assert not found, (f"{len(found)} of {len(V2.conversations)} conversations departed from v2:\n"
                       + "\n".join(found))


def as_3_0(value: Any) -> Any:
    """A v3 value as today's code answers: the grader version 2.1 reads today's."""
    return renamed(value, "ticketledger-grader/2.1")


GRADED_ANEW_BY_3_0 = {
    "back-office-and-reward-modes": "the reply asking for the password is named in 3.0's words",
    "mcp-back-office": "a fraud review the case does not call for is a violation from its step "
                       "(unrequested_action), where 2.1 found the email change's later",
}
"""Conversations grader 3.0 answers differently on purpose, and why (v4 holds them exactly)."""


def departures(version: str, recorded: Recorded, problems: dict[str, str | None]) -> list[str]:
    """The departures of ``problems`` (conversation -> report) that :data:`GRADED_ANEW_BY_3_0`
    does not explain; each named conversation must depart, or it is named for nothing."""
    named_for_nothing = [n for n in GRADED_ANEW_BY_3_0 if n in problems and not problems[n]]
    assert not named_for_nothing, f"{named_for_nothing} replay as {version} recorded them"
    return [p for n, p in problems.items() if p is not None and p and n not in GRADED_ANEW_BY_3_0]


@pytest.mark.slow
def test_every_v3_conversation_replays_as_recorded_but_for_the_grader_version(database_url: str) -> None:
    """Grader 3.0 answers v3's conversations as 2.1 did: hashes are named (fresh names per
    conversation), so the same hash must still come back wherever v3 had the same; everything else
    as recorded, with 3.0 for 2.1."""
    problems: dict[str, str | None] = {}
    for conversation, answered in zip(V3.conversations, played(V3, database_url), strict=True):
        recorded = as_3_0(wire.Names(hashes=True).normalise(
            with_json_text(secured(conversation["exchanges"]))))
        now = wire.Names(hashes=True).normalise(with_json_text(answered))
        problems[conversation["name"]] = report(conversation["name"], recorded, now)
    found = departures("v3", V3, problems)
    assert not found, (f"{len(found)} of {len(V3.conversations)} conversations departed from v3:\n"
                       + "\n".join(found))


@pytest.mark.slow
@pytest.mark.parametrize(("version", "grader"), [("v4", "ticketledger-grader/3.0"),
                                                 ("v5", "ticketledger-grader/3.1"),
                                                 ("v6", "ticketledger-grader/3.2"),
                                                 ("v7", "ticketledger-grader/3.3"),
                                                 ("v8", "ticketledger-grader/3.4"),
                                                 ("v9", "ticketledger-grader/3.5"),
                                                 ("v10", "ticketledger-grader/3.6"),
                                                 ("v11", "ticketledger-grader/3.7"),
                                                 ("v12", "ticketledger-grader/3.8"),
                                                 ("v13", "ticketledger-grader/3.9"),
                                                 ("v14", "ticketledger-grader/3.10"),
                                                 ("v15", "ticketledger-grader/3.11"),
                                                 ("v16", "ticketledger-grader/3.12"),
                                                 ("v17", "ticketledger-grader/3.13"),
                                                 ("v18", "ticketledger-grader/3.14")])
def test_every_v4_to_v18_conversation_replays_as_recorded_but_for_the_grader_version(
        version: str, grader: str, database_url: str) -> None:
    """Today's grader answers v4's conversations as 3.0 did, v5's as 3.1, v6's as 3.2, v7's as 3.3, v8's as
    3.4, v9's as 3.5, v10's as 3.6, v11's as 3.7, v12's as 3.8, v13's as 3.9, v14's as 3.10, v15's as
    3.11, v16's as 3.12, v17's as 3.13 and v18's as 3.14 did: hashes are named (fresh names per
    conversation), so the same hash must still come back wherever the record had the same; everything
    else as recorded, with today's version for the recorded one (3.1 reads required facts by value and
    meaning, 3.2 harm by its concept; the recorded conversations said their facts in 3.0's words and
    nothing harmful)."""
    problems = []
    recorded_version = RECORDED[version]
    for conversation, answered in zip(recorded_version.conversations,
                                      played(recorded_version, database_url), strict=True):
        recorded = renamed(wire.Names(hashes=True).normalise(
            with_json_text(secured(conversation["exchanges"]))), grader)
        now = wire.Names(hashes=True).normalise(with_json_text(answered))
        problems.append(report(conversation["name"], recorded, now))
    found = [p for p in problems if p]
    assert not found, (f"{len(found)} of {len(recorded_version.conversations)} conversations departed "
                       f"from {version}:\n" + "\n".join(found))


@pytest.mark.parametrize("version", EXACT)
def test_every_conversation_of_an_exact_version_replays_as_recorded(version: str,
                                                                    database_url: str) -> None:
    """A version recorded with today's code: every status and JSON body as recorded."""
    recorded = RECORDED[version]
    problems = []
    for conversation, now in zip(recorded.conversations, played(recorded, database_url), strict=True):
        problems.append(report(conversation["name"], secured(conversation["exchanges"]), now))
    found = [p for p in problems if p]
    assert not found, (f"{len(found)} of {len(recorded.conversations)} conversations departed from "
                       f"{version}:\n" + "\n".join(found))


@pytest.mark.parametrize("version", sorted(RECORDED))
def test_wire_covers_both_dialects_ws_mcp_and_errors(version: str) -> None:
    recorded = RECORDED[version]
    by_name = {c["name"]: c for c in recorded.conversations}
    assert recorded.meta["exchanges"] == sum(len(c["exchanges"]) for c in recorded.conversations)
    http = [x for c in recorded.conversations if c["transport"] == "http" for x in c["exchanges"]]
    statuses = {x["response"]["status"] for x in http}
    assert {200, 201, 202, 404, 405, 409, 413, 422} <= statuses and max(statuses) < 500
    assert any(x["request"].get("json", {}) == {"add_tag": "Refund", "close_ticket": True}
               for x in by_name["customersupportenv-combined-action"]["exchanges"])
    flat_steps = [x for x in by_name["supportops-seed-dialect"]["exchanges"]
                  if x["request"]["path"] == "/step" and None in x["request"]["json"].values()]
    assert flat_steps and all("info" in x["response"]["body"] or x["response"]["status"] == 409
                              for x in flat_steps)
    called = {x["request"]["json"]["params"]["name"]
              for c in recorded.conversations if c["name"].startswith("mcp-") for x in c["exchanges"]
              if isinstance(x["request"].get("json"), dict)
              and x["request"]["json"].get("method") == "tools/call"
              and isinstance(x["request"]["json"].get("params"), dict)}
    listed = next(x["response"]["body"]["result"]["tools"] for x in by_name["mcp-json-rpc"]["exchanges"]
                  if isinstance(x["request"].get("json"), dict)
                  and x["request"]["json"].get("method") == "tools/list")
    assert {t["name"] for t in listed} <= called
    if version != "v1":  # the back-office release's back-office actions over every transport, reward modes
        sent = {json.dumps(x.get("request", {}).get("json") or x.get("send"), sort_keys=True)
                for c in recorded.conversations for x in c["exchanges"]}
        for action in BACK_OFFICE_ACTIONS:
            assert any(f'"action_type": "{action}"' in m or f'"name": "{action}"' in m
                       for m in sent), action
        assert {m for m in ("sparse", "binary", "lumpy") if any(f'"reward_mode": "{m}"' in x
                                                                 for x in sent)} == {
            "sparse", "binary", "lumpy"}
    ws = [x for c in recorded.conversations if c["transport"] == "ws" for x in c["exchanges"]]
    kinds = {"closed" if "closed" in x["receive"] else x["receive"]["type"] for x in ws}
    assert kinds == {"observation", "state", "error", "closed"}
    codes = {x["receive"]["data"]["code"] for x in ws if x["receive"].get("type") == "error"}
    assert codes == {"INVALID_JSON", "UNKNOWN_TYPE", "VALIDATION_ERROR", "EXECUTION_ERROR"}
