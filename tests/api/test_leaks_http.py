"""Agent-facing routes never leak the answer key; audit routes need the token when one is set.

A real server is walked through every agent-facing route (``/``, ``/health``, ``/metadata``,
``/schema``, ``/tasks``, ``/reset``, ``/step`` in both dialects, ``/state``, ``/ws`` messages, and
``/mcp`` ``tools/list`` and ``tools/call``) for every task and several seeds, with two agents: the
gold player (``service/gold.py``) and a wrong agent that never sends a right answer. Every
answer is searched for the variant's secrets:

* expected priority, queue, tags and resolution codes, until the agent itself has sent the value
  (an echo of the agent's own action is not a leak) and unless the ticket already says it;
* the case name, the ``variables`` keys, and the rubric phrasings not already in the ticket, the
  objective or a policy text, nor written by the agent itself;
* the grader's audit details (``StepGraded`` component ``detail`` strings read back from the log,
  where they differ from the public reason) and any ``(expected ...)``;
* members named ``expected``, ``variables``, ``case`` or ``rubric`` anywhere in an answer.

Public values are allowed: the seed dialect's reward object shows component values and
``StepGrade.public_reason`` only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from domain import events as ev
from domain.actions import ACTION_ADAPTER, ALL_FIELDS
from domain.observation import Observation, PublicAccount
from domain.tasks import default_catalog
from domain.tasks.spec import Rubric, TaskInstance
from domain.vocabulary import ActionType, PolicyId, Priority, Queue, ResolutionCode, Tag
from service.gold import gold
from tests.servers import LiveServer, episode_events, module_database, start_server

CATALOG = default_catalog()
SEEDS = (None, 1, 2)
TOKEN = "leak-test-audit-token"
FORBIDDEN_KEYS = {"expected", "variables", "case", "rubric", "answer_key"}
TRANSPORTS = ("wrapped", "bare", "ws", "mcp")


def _contains(text: str, phrase: str) -> bool:
    """Case-insensitive, whole words (underscores count as word characters)."""
    return re.search(rf"(?<![\w]){re.escape(phrase)}(?![\w])", text, re.IGNORECASE) is not None


FIXED_WORDS = " ".join([*ActionType.allowed(), *ALL_FIELDS, *Observation.model_fields,
                        *PublicAccount.model_fields])
"""Identifiers every task shows alike (action types and fields, observation and account fields):
public, even where one spells a needle (``place_legal_hold``, the account's ``legal_hold``, the
field ``new_email`` that shares its name with a variable)."""


def _public_text(task: TaskInstance) -> str:
    """What the agent is entitled to read: the ticket, the task's wording, every policy text, and
    the fixed vocabulary of actions and fields."""
    policies = " ".join(CATALOG.policy_text(p) for p in PolicyId)
    # the action schema every agent is given, descriptions included ("a password reset link")
    schema = json.dumps(ACTION_ADAPTER.json_schema())
    return " ".join([task.title, task.objective, json.dumps(task.ticket.model_dump(mode="json")),
                     policies, schema, FIXED_WORDS])


def _rubric_phrases(rubric: Rubric | None) -> list[str]:
    if rubric is None:
        return []
    return ([p for g in rubric.facts for p in g.any_of] + [g.name for g in rubric.facts]
            + [p for g in rubric.forbidden for p in g.any_of])


@dataclass
class Secrets:
    """One variant's answer key, as strings to look for."""

    task: TaskInstance
    echoable: list[str] = field(default_factory=list)  # may appear once the agent sent them
    never: list[str] = field(default_factory=list)  # may never appear (unless public anyway)

    @classmethod
    def of(cls, task: TaskInstance) -> Secrets:
        exp = task.expected
        echoable = [v.value for v in (exp.priority, exp.queue) if v is not None]
        echoable += [t.value for t in exp.tags]
        echoable += [c.value for c in exp.resolution_code if c is not None]
        echoable += _rubric_phrases(task.reply) + _rubric_phrases(task.note)
        echoable.append(task.case)  # a case may share its name with a tag (Legal_Hold) the agent sends
        never = list(task.variables)
        public = _public_text(task)
        return cls(task, [s for s in echoable if not _contains(public, s)],
                   [s for s in never if not _contains(public, s)])

    def leaks(self, answer: str, sent: str) -> list[str]:
        found = [s for s in self.never if _contains(answer, s)]
        found += [s for s in self.echoable if _contains(answer, s) and not _contains(sent, s)]
        if "(expected" in answer:
            found.append("(expected ...)")
        return found


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


def _wrong_agent(task: TaskInstance) -> list[dict[str, Any]]:
    """Plausible actions that are never the right answer (so no right value is ever echoed)."""
    exp = task.expected
    priority = next(p for p in Priority if p != exp.priority)
    queue = next(q for q in Queue if q != exp.queue)
    tag = next(t for t in Tag if t not in exp.tags)
    code = next(c for c in ResolutionCode if c not in exp.resolution_code)
    policy = next(p for p in PolicyId if p != exp.policy)
    return [
        {"action_type": "noop"},
        {"action_type": "classify_priority", "priority": priority.value},
        {"action_type": "assign_queue", "queue": queue.value},
        {"action_type": "add_tag", "tag": tag.value},
        {"action_type": "lookup_policy", "policy_id": policy.value},
        {"action_type": "draft_reply", "reply_text": "Hello. We got your message and are on it."},
        {"action_type": "add_internal_note", "note": "Looked at this one."},
        {"action_type": "resolve_ticket", "resolution_code": code.value},
        {"action_type": "close_ticket"},
    ]


class Walker:
    """Plays one episode over one transport, collecting every answer's text."""

    def __init__(self, base: str, transport: str):
        self.base = base
        self.transport = transport
        self.stack = ExitStack()
        self.http = self.stack.enter_context(httpx.Client(base_url=base, timeout=30))
        self.ws = (self.stack.enter_context(ws_connect(base.replace("http", "ws", 1) + "/ws"))
                   if transport == "ws" else None)
        self.answers: list[str] = []
        self.episode_id = ""

    def close(self) -> None:
        self.stack.close()

    def _keep(self, text: str) -> Any:
        self.answers.append(text)
        return json.loads(text)

    def _ws(self, message: dict[str, Any]) -> Any:
        assert self.ws is not None
        self.ws.send(json.dumps(message))
        return self._keep(self.ws.recv(timeout=30))

    def _mcp(self, name: str, arguments: dict[str, Any]) -> Any:
        reply = self.http.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                                             "params": {"name": name, "arguments": arguments}})
        assert reply.status_code == 200, reply.text
        return self._keep(reply.text)

    def reset(self, task_id: str, seed: int | None) -> None:
        body = {"task_id": task_id, "seed": seed}
        if self.transport == "ws":
            self.episode_id = self._ws({"type": "reset", "data": body})["data"]["episode_id"]
        elif self.transport == "mcp":
            self.episode_id = self._mcp("reset", body)["result"]["structuredContent"]["episode_id"]
        else:
            reply = self.http.post("/reset", json=body)
            assert reply.status_code == 200, reply.text
            self.episode_id = self._keep(reply.text)["episode_id"]

    def step(self, action: dict[str, Any]) -> bool:
        """One step and a state read; returns whether the episode is done (or refused the step)."""
        if self.transport == "ws":
            data = self._ws({"type": "step", "data": action})
            self._ws({"type": "state"})
            return data["type"] == "error" or data["data"]["done"]
        if self.transport == "mcp":
            args = {k: v for k, v in action.items() if k != "action_type"}
            data = self._mcp(action["action_type"], {**args, "episode_id": self.episode_id})
            self._mcp("state", {"episode_id": self.episode_id})
            result = data["result"]
            return result["isError"] or result["structuredContent"]["done"]
        if self.transport == "wrapped":
            reply = self.http.post("/step", json={"action": action, "episode_id": self.episode_id})
        else:  # the SupportOps seed's bare action, routed by header; reward object in the answer
            reply = self.http.post("/step", json=action, headers={"X-Episode-Id": self.episode_id})
        self._keep(reply.text)
        self._keep(self.http.get("/state", params={"episode_id": self.episode_id}).text)
        return reply.status_code != 200 or reply.json()["done"]


@pytest.fixture(scope="module")
def guarded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server with ``TICKETLEDGER_AUDIT_TOKEN`` set, on the run's backend."""
    with start_server(module_database(tmp_path_factory, "leaks"),
                      env={"TICKETLEDGER_AUDIT_TOKEN": TOKEN}) as server:
        yield server


def _plays() -> list[tuple[str, int | None, str, str]]:
    """(task, seed, agent, transport): every task and seed, both agents, transports in rotation."""
    out = []
    for n, (task_id, seed) in enumerate((t, s) for t in CATALOG.task_ids for s in SEEDS):
        for agent in ("expert", "wrong"):
            out.append((task_id, seed, agent, TRANSPORTS[(n + (agent == "wrong")) % len(TRANSPORTS)]))
    return out


def _audit_details(database_url: str, episode_id: str) -> list[str]:
    """The grader's audit-only strings for this episode, as the log recorded them."""
    details = []
    for r in episode_events(database_url, episode_id):
        if r.type == ev.StepGraded.type:
            for component in r.data["components"].values():
                if component["detail"] != component["public"]:
                    details.append(component["detail"])
    return details


@pytest.mark.slow
def test_no_agent_facing_answer_reveals_the_answer_key(guarded_server: LiveServer) -> None:
    base = guarded_server.url
    leaks: list[str] = []
    plays = _plays()
    assert {p[3] for p in plays} == set(TRANSPORTS) and len(plays) == 2 * len(SEEDS) * 12
    for task_id, seed, agent, transport in plays:
        task = CATALOG.instance(task_id, seed)
        secrets = Secrets.of(task)
        walker = Walker(base, transport)
        sent = ""
        try:
            walker.reset(task_id, seed)
            for action in (gold(task) if agent == "expert" else _wrong_agent(task)):
                sent += " " + " ".join(str(v) for v in action.values())
                before = len(walker.answers)
                done = walker.step(action)
                for answer in walker.answers[before:]:
                    leaks += [f"{task_id}/{seed}/{agent}/{transport}: {s}"
                              for s in secrets.leaks(answer, sent)]
                if done:
                    break
            # the answers before the first step (reset) must not leak either
            leaks += [f"{task_id}/{seed}/{agent}/{transport} reset: {s}"
                      for s in secrets.leaks(walker.answers[0], "")]
            details = _audit_details(guarded_server.database_url, walker.episode_id)
            assert details, "the grader wrote audit details to compare against"
            for answer in walker.answers:
                leaks += [f"{task_id}/{seed}/{agent}/{transport}: audit detail {d!r}"
                          for d in details if d in answer]
                bad = FORBIDDEN_KEYS & set(_keys(json.loads(answer)))
                leaks += [f"{task_id}/{seed}/{agent}/{transport}: member {k!r}" for k in bad]
        finally:
            walker.close()
    assert not leaks, "\n".join(sorted(set(leaks))[:40])


def test_information_routes_reveal_no_case_variable_or_rubric(guarded_server: LiveServer) -> None:
    """``/``, ``/health``, ``/metadata``, ``/schema``, ``/tasks`` and MCP ``tools/list``: the
    vocabulary is public there, no variant's case, variables or rubric phrasing is."""
    with httpx.Client(base_url=guarded_server.url, timeout=30) as http:
        answers = [http.get(path).text for path in ("/", "/health", "/metadata", "/schema", "/tasks")]
        answers.append(http.get("/", headers={"Accept": "text/html"}).text)
        listed = http.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        answers.append(listed.text)
        answers.append(http.post("/mcp", json={"jsonrpc": "2.0", "id": 2, "method": "initialize",
                                               "params": {}}).text)
    assert "classify_priority" in listed.text  # the walk really saw the tools
    public = " ".join(_public_text(CATALOG.instance(t, None)) for t in CATALOG.task_ids)
    secrets: set[str] = set()
    for task_id in CATALOG.task_ids:
        for seed in SEEDS:
            task = CATALOG.instance(task_id, seed)
            secrets |= {task.case, *task.variables, *_rubric_phrases(task.reply),
                        *_rubric_phrases(task.note)}
    # The vocabulary is public here (the schema lists it) and single common words ("default",
    # "tier") cannot be told apart from prose; identifiers and phrases can.
    vocabulary = {v.value.lower() for enum in (Priority, Queue, Tag, ResolutionCode, PolicyId)
                  for v in enum}
    secrets = {s for s in secrets if not _contains(public, s) and s.lower() not in vocabulary
               and ("_" in s or " " in s)}
    assert {"prior_refunds", "outside_window"} <= secrets
    found = sorted({s for s in secrets for a in answers if _contains(a, s)})
    assert not found, found
    for answer in answers:
        assert "(expected" not in answer
    for answer in answers[:5] + answers[6:]:
        bad = FORBIDDEN_KEYS & set(_keys(json.loads(answer)))
        assert not bad, bad


# --------------------------------------------------------------------------- the audit token
def _audit_operations(base: str) -> list[tuple[str, str]]:
    spec = httpx.get(base + "/openapi.json", timeout=30).json()
    ops = [(method.upper(), path) for path, item in spec["paths"].items()
           for method, op in item.items() if "audit" in (op.get("tags") or [])]
    assert len(ops) >= 10, ops
    return ops


def _call(base: str, method: str, path: str, headers: dict[str, str]) -> httpx.Response:
    concrete = re.sub(r"\{[^}]+\}", "ep_does_not_exist", path)
    return httpx.request(method, base + concrete, headers=headers, timeout=30,
                         json={} if method == "POST" else None)


def test_every_audit_route_needs_the_token_when_one_is_set(guarded_server: LiveServer) -> None:
    base = guarded_server.url
    operations = _audit_operations(base) + [("GET", "/ui"), ("GET", "/ui/")]
    for method, path in operations:
        assert _call(base, method, path, {}).status_code == 401, (method, path)
        wrong = _call(base, method, path, {"Authorization": "Bearer not-the-token"})
        assert wrong.status_code == 401, (method, path)
        right = _call(base, method, path, {"Authorization": f"Bearer {TOKEN}"})
        assert right.status_code != 401 and right.status_code < 500, (method, path, right.text)
    # the agent-facing routes stay open
    with httpx.Client(base_url=base, timeout=30) as http:
        for path in ("/", "/health", "/metadata", "/schema", "/tasks", "/state"):
            assert http.get(path).status_code == 200, path
        assert http.post("/reset", json={}).status_code == 200
        assert http.post("/step", json={"action": {"action_type": "noop"}}).status_code == 200
        assert http.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
                         ).status_code == 200


def test_audit_routes_are_open_without_a_token(live_server: LiveServer) -> None:
    for method, path in _audit_operations(live_server.url) + [("GET", "/ui")]:
        reply = _call(live_server.url, method, path, {})
        assert reply.status_code != 401 and reply.status_code < 500, (method, path, reply.text)


def test_the_detector_finds_the_key_where_it_is_allowed(guarded_server: LiveServer) -> None:
    """The audit routes do show the key: the same detector must find it there (it is not blind)."""
    task = CATALOG.instance("task_hard_account_email_change", 2)
    walker = Walker(guarded_server.url, "wrapped")
    try:
        walker.reset(task.task_id, 2)
        for action in _wrong_agent(task)[:8]:
            if walker.step(action):
                break
    finally:
        walker.close()
    replay = httpx.get(f"{guarded_server.url}/episodes/{walker.episode_id}/replay",
                       headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)
    assert replay.status_code == 200, replay.text
    assert Secrets.of(task).leaks(replay.text, sent=""), "the audit answer shows expected values"


# ------------------------------------------------------------- the audit surface off by default
OFF_HOST = "127.0.0.2"
"""A loopback address the audit rule does not count as loopback-only (it names 127.0.0.1, ::1 and
localhost): this server stands for one serving on 0.0.0.0 without a token, without leaving
loopback."""


@pytest.fixture(scope="module")
def exposed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server on a non-loopback-only address without ``TICKETLEDGER_AUDIT_TOKEN``."""
    with start_server(module_database(tmp_path_factory, "exposed"), host=OFF_HOST,
                      env={"TICKETLEDGER_ALLOWED_HOSTS": OFF_HOST,
                           "TICKETLEDGER_AUDIT_TOKEN": ""}) as server:
        yield server


def test_without_a_token_off_loopback_the_audit_surface_is_off(exposed_server: LiveServer) -> None:
    base = exposed_server.url
    operations = _audit_operations(base) + [("GET", "/ui"), ("GET", "/ui/"), ("GET", "/ui/runs")]
    assert {("GET", "/episodes/{episode_id}/state"), ("POST", "/episodes/{episode_id}/fork"),
            ("POST", "/regrade"), ("GET", "/export"), ("GET", "/runs"), ("GET", "/verify")} <= set(
        operations)
    episode = httpx.post(base + "/reset", json={}, timeout=30).json()["episode_id"]
    for method, path in operations:
        concrete = re.sub(r"\{[^}]+\}", episode, path)
        reply = httpx.request(method, base + concrete, timeout=30,
                              json={"at": 0} if method == "POST" else None)
        assert reply.status_code == 403, (method, path, reply.text)
        detail = reply.json()["detail"]
        assert "TICKETLEDGER_AUDIT_TOKEN" in detail and "127.0.0.1" in detail, detail
        assert "expected" not in reply.text
    # TICKETLEDGER_ALLOWED_HOSTS replaces the default list: here even localhost is refused
    assert httpx.get(base + "/health", headers={"Host": "localhost"}, timeout=30).status_code == 400
    # the start-up log says so, once
    lines = [line for line in exposed_server.log().splitlines() if "audit surface is off" in line]
    assert len(lines) == 1 and OFF_HOST in lines[0], exposed_server.log()


def test_the_agent_routes_serve_off_loopback_and_never_the_answer_key(
        exposed_server: LiveServer) -> None:
    """Every agent-facing transport plays on the exposed server; no answer has a key member."""
    task = CATALOG.instance("task_hard_gdpr_deletion", 3)
    for transport in TRANSPORTS:
        walker = Walker(exposed_server.url, transport)
        try:
            walker.reset(task.task_id, 3)
            for action in gold(task):
                if walker.step(action):
                    break
        finally:
            walker.close()
        assert len(walker.answers) > 4, transport
        secrets = Secrets.of(task)
        for answer in walker.answers:
            assert not FORBIDDEN_KEYS & set(_keys(json.loads(answer))), (transport, answer[:200])
            assert not secrets.leaks(answer, json.dumps(gold(task))), transport


def test_a_token_opens_the_audit_surface_off_loopback(tmp_path_factory: pytest.TempPathFactory
                                                      ) -> None:
    with start_server(module_database(tmp_path_factory, "exposed_token"), host=OFF_HOST,
                      env={"TICKETLEDGER_ALLOWED_HOSTS": OFF_HOST,
                           "TICKETLEDGER_AUDIT_TOKEN": TOKEN}) as server:
        assert httpx.get(server.url + "/runs", timeout=30).status_code == 401
        opened = httpx.get(server.url + "/runs", headers={"Authorization": f"Bearer {TOKEN}"},
                           timeout=30)
        assert opened.status_code == 200, opened.text
        assert "audit surface is off" not in server.log()
