"""v1 wire exchanges replayed against a fresh real server: the same statuses and JSON bodies, but
for what the grader decides.

The conversations (both seeds' HTTP dialects, OpenEnv's wrapped steps and ``/ws`` protocol,
``/mcp`` JSON-RPC, the audit routes and the error answers with their messages) run in their
recorded order against ``python -m server.app`` on a fresh database of the run's backend. Random
episode ids, the hashes that depend on them, and timestamps are named rather than compared
(``tests/golden/wire.py``).

v1 was recorded with grader 1.1 and today's episodes are graded by a newer one (issue 15), so the
values the grader decides are not compared with v1's (:func:`ungraded`): the members in
:data:`GRADED` and every chain hash (the chain covers the grades, so hashes are named in every
conversation, which still checks that the same hash comes back wherever v1 had the same hash).
Everything else holds as recorded: statuses, media types, the members of every body, observations,
error messages. v1's recorded grades themselves are checked where they belong, by replaying v1's
episodes under grader 1.1 (``test_v1_episodes``, ``test_v1_sqlite_log``).
"""

from __future__ import annotations

from typing import Any

from tests.golden import wire
from tests.golden.reference import Recorded, report
from tests.golden.seams import server

V1 = Recorded("v1")

GRADED = frozenset({"grader_version", "recorded_grader_version"})
"""Members whose values the grader decides: compared as present, not by value."""


def ungraded(value: Any, key: str = "") -> Any:
    """``value`` with the members of :data:`GRADED` replaced by ``"<graded>"`` (at any depth)."""
    if key in GRADED:
        return "<graded>"
    if isinstance(value, dict):
        return {k: ungraded(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [ungraded(v) for v in value]
    return value


def comparable(exchanges: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Exchanges with every hash named (fresh names per conversation) and graded values blanked."""
    return ungraded(wire.Names(hashes=True).normalise(exchanges))  # type: ignore[no-any-return]


def test_every_conversation_replays_as_recorded_but_for_the_grades(database_url: str) -> None:
    problems = []
    with server(database_url) as url:
        for conversation in V1.conversations:
            now = wire.play(url, conversation)
            problems.append(report(conversation["name"], comparable(conversation["exchanges"]),
                                   comparable(now)))
    found = [p for p in problems if p]
    assert not found, (f"{len(found)} of {len(V1.conversations)} conversations departed from v1:\n"
                       + "\n".join(found))


def test_v1_wire_covers_both_dialects_ws_mcp_and_errors() -> None:
    by_name = {c["name"]: c for c in V1.conversations}
    assert V1.meta["exchanges"] == sum(len(c["exchanges"]) for c in V1.conversations)
    http = [x for c in V1.conversations if c["transport"] == "http" for x in c["exchanges"]]
    statuses = {x["response"]["status"] for x in http}
    assert {200, 201, 202, 404, 405, 409, 413, 422} <= statuses and max(statuses) < 500
    assert any(x["request"].get("json", {}) == {"add_tag": "Refund", "close_ticket": True}
               for x in by_name["customersupportenv-combined-action"]["exchanges"])
    flat_steps = [x for x in by_name["supportops-seed-dialect"]["exchanges"]
                  if x["request"]["path"] == "/step" and None in x["request"]["json"].values()]
    assert flat_steps and all("info" in x["response"]["body"] or x["response"]["status"] == 409
                              for x in flat_steps)
    called = {x["request"]["json"]["params"]["name"] for x in by_name["mcp-json-rpc"]["exchanges"]
              if isinstance(x["request"].get("json"), dict)
              and x["request"]["json"].get("method") == "tools/call"
              and isinstance(x["request"]["json"].get("params"), dict)}
    listed = next(x["response"]["body"]["result"]["tools"] for x in by_name["mcp-json-rpc"]["exchanges"]
                  if isinstance(x["request"].get("json"), dict)
                  and x["request"]["json"].get("method") == "tools/list")
    assert {t["name"] for t in listed} <= called
    ws = [x for c in V1.conversations if c["transport"] == "ws" for x in c["exchanges"]]
    kinds = {"closed" if "closed" in x["receive"] else x["receive"]["type"] for x in ws}
    assert kinds == {"observation", "state", "error", "closed"}
    codes = {x["receive"]["data"]["code"] for x in ws if x["receive"].get("type") == "error"}
    assert codes == {"INVALID_JSON", "UNKNOWN_TYPE", "VALIDATION_ERROR", "EXECUTION_ERROR"}
