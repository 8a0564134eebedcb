"""Every audit route and view over every kind of episode, and diff over every pairing of them.

Kinds: a plain episode, one with a customer conversation (``message_customer``), a fork that carries
the conversation, a fork of the plain one, and a regraded episode (filed under a run, then
regraded). Against a real server on 127.0.0.1 (its audit surface open on loopback): the REST
routes, the ``/ui`` pages, and the CLI (``ticketledger``, in this process, on the server's own
SQLite file). Any 5xx, or the CLI raising, fails. Diff of an episode with a conversation against
one without used to raise ``KeyError: 'conversation'`` on all three; a cursor of 2,500 ``[`` used to
be a RecursionError (500) on ``/ui``.
"""

from __future__ import annotations

import base64
import itertools
import json
from collections.abc import Iterator

import httpx
import pytest

from cli.main import main
from domain.tasks import default_catalog
from service.gold import gold
from tests.servers import LiveServer, module_database, start_server

TASK, SEED = "task_easy_password", 4
ASK = {"action_type": "message_customer", "message": "Could you tell me which device you use?"}
KINDS = ("plain", "conversation", "fork_with_conversation", "fork_plain", "regraded")
DEEP_CURSOR = base64.urlsafe_b64encode(b"[" * 2500).decode().rstrip("=")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with start_server(module_database(tmp_path_factory, "audit_pairings")) as live:
        yield live


def _play(http: httpx.Client, actions: list[dict[str, object]], *, headers: dict[str, str] | None
          = None, run_id: str | None = None) -> str:
    body: dict[str, object] = {"task_id": TASK, "seed": SEED}
    if run_id:
        body["run_id"] = run_id
    reset = http.post("/reset", json=body, headers=headers)
    assert reset.status_code == 200, reset.text
    episode_id: str = reset.json()["episode_id"]
    for action in actions:
        stepped = http.post("/step", json={"episode_id": episode_id, "action": action})
        assert stepped.status_code == 200, stepped.text
        if stepped.json()["done"]:
            break
    return episode_id


def _fork(http: httpx.Client, episode_id: str, at: int, then: list[dict[str, object]]) -> str:
    forked = http.post(f"/episodes/{episode_id}/fork", json={"at": at})
    assert forked.status_code == 201, forked.text
    fork_id: str = forked.json()["episode_id"]
    for action in then:
        assert http.post("/step", json={"episode_id": fork_id, "action": action}).status_code == 200
    return fork_id


@pytest.fixture(scope="module")
def episodes(server: LiveServer) -> dict[str, str]:
    plan = gold(default_catalog().instance(TASK, SEED))
    with httpx.Client(base_url=server.url, timeout=60) as http:
        plain = _play(http, plan)
        talked = _play(http, [ASK, *plan])
        run = http.post("/runs", json={"agent": "pairings"}).json()
        regraded = _play(http, [ASK, *plan[:2]], run_id=run["run_id"],
                         headers={"X-Run-Secret": run["run_secret"]})
        done = http.post("/regrade", json={"run_id": run["run_id"]})
        assert done.status_code == 200 and done.json()["records_appended"] == 1, done.text
        kinds = {"plain": plain, "conversation": talked,
                 "fork_with_conversation": _fork(http, talked, 1, plan[:1]),
                 "fork_plain": _fork(http, plain, 2, [ASK]),
                 "regraded": regraded}
    return kinds


def _cli(server: LiveServer, *args: str) -> tuple[int, str]:
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(["--database-url", server.database_url, *args])
    return code, out.getvalue()


@pytest.mark.parametrize(("a", "b"), list(itertools.product(KINDS, KINDS)),
                         ids=[f"{a}-vs-{b}" for a, b in itertools.product(KINDS, KINDS)])
def test_diff_of_every_pairing(server: LiveServer, episodes: dict[str, str], a: str, b: str) -> None:
    first, second = episodes[a], episodes[b]
    with httpx.Client(base_url=server.url, timeout=60) as http:
        rest = http.get(f"/episodes/{first}/diff/{second}")
        assert rest.status_code == 200, rest.text
        page = http.get("/ui/diff", params={"a": first, "b": second})
        assert page.status_code == 200, page.text[:2000]
    data = rest.json()
    assert data["identical"] == (first == second)
    talked = {"conversation", "fork_with_conversation", "fork_plain", "regraded"}
    if (a in talked) != (b in talked):  # one spoke with the customer, the other never did
        differing = {k for row in data["steps"] for k in row["state_differences"]}
        assert "conversation" in differing, data["steps"]
    code, out = _cli(server, "diff", first, second, "--json")
    assert code == 0 and json.loads(out) == data
    code, out = _cli(server, "diff", first, second)
    assert code == 0 and (("identical step by step" in out) == data["identical"])


@pytest.mark.parametrize("kind", KINDS)
def test_every_audit_view_of_every_kind(server: LiveServer, episodes: dict[str, str],
                                        kind: str) -> None:
    episode_id = episodes[kind]
    with httpx.Client(base_url=server.url, timeout=60) as http:
        for path in ("", "/steps", "/events", "/events?limit=1", "/replay", "/state",
                     "/state?step=1"):
            reply = http.get(f"/episodes/{episode_id}{path}")
            assert reply.status_code == 200, (path, reply.text[:500])
        cursor = http.get(f"/episodes/{episode_id}/events?limit=1").json()["next_cursor"]
        assert http.get(f"/episodes/{episode_id}/events",
                        params={"cursor": cursor}).status_code == 200
        assert http.get(f"/ui/episodes/{episode_id}").status_code == 200
        summary = http.get(f"/episodes/{episode_id}").json()
        assert (kind == "regraded") == bool(summary["regrades"])
        assert (kind.startswith("fork")) == (summary["forked_from"] is not None)
    for command in ("show", "replay"):
        code, out = _cli(server, command, episode_id, "--json")
        assert code == 0 and json.loads(out), command
        code, _ = _cli(server, command, episode_id)
        assert code == 0, command


@pytest.mark.parametrize("path", ["/ui", "/ui/runs", "/episodes", "/runs"])
def test_a_cursor_nested_past_the_parsers_depth_is_refused_saying_what_to_pass(
        server: LiveServer, path: str) -> None:
    """The viewer reads the cursor (a RecursionError before); REST refuses one this long first."""
    reply = httpx.get(server.url + path, params={"cursor": DEEP_CURSOR}, timeout=60)
    assert reply.status_code == 422, reply.text[:500]
    assert ("next_cursor" if path.startswith("/ui") else "at most 400 characters") in reply.text


def test_the_cli_refuses_a_cursor_nested_past_the_parsers_depth(server: LiveServer) -> None:
    code, out = _cli(server, "episodes", "--cursor", DEEP_CURSOR, "--json")
    assert code == 2 and "next_cursor" in json.loads(out)["error"]["message"]


def test_the_listings_verify_and_export_take_every_kind(server: LiveServer,
                                                        episodes: dict[str, str]) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as http:
        listed = http.get("/episodes", params={"task": TASK, "limit": 500}).json()["episodes"]
        assert set(episodes.values()) <= {e["episode_id"] for e in listed}
        assert http.get("/ui", params={"task": TASK}).status_code == 200
        verified = http.get("/verify", params={"task": TASK})
        assert verified.status_code == 200 and verified.json()["inconsistent"] == 0, verified.text
        exported = http.get("/export", params={"task": TASK})
        assert exported.status_code == 200
        ids = {json.loads(line)["episode_id"] for line in exported.text.splitlines() if line}
        assert set(episodes.values()) <= ids
