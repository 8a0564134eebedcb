"""Stateful HTTP against a real server: OpenEnv routes, both dialects, episode routing, isolation."""

from __future__ import annotations

import json
import secrets

import httpx
import pytest

from api.models import PublicState
from domain.actions import action_json_schema
from domain.observation import ALLOWED, Observation
from domain.tasks import default_catalog
from service.gold import gold
from tests.servers import LiveServer, episode_events, log_size

CATALOG = default_catalog()
RESET_KEYS = {"observation", "reward", "done", "terminated", "truncated", "end_reason", "episode_id"}


def client(server: LiveServer) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=30)


def new_id(prefix: str = "t") -> str:
    return f"{prefix}_{secrets.token_hex(8)}"


def test_health_metadata_and_schema_have_the_stock_shapes(live_server: LiveServer) -> None:
    with client(live_server) as http:
        assert http.get("/health").json() == {"status": "healthy"}
        meta = http.get("/metadata").json()
        assert isinstance(meta["name"], str) and isinstance(meta["description"], str)
        assert isinstance(meta["version"], str)
        schema = http.get("/schema").json()
    assert schema["action"] == action_json_schema()
    assert schema["observation"] == Observation.model_json_schema()
    assert schema["state"] == PublicState.model_json_schema()
    assert {"episode_id", "step_count"} <= set(schema["state"]["properties"])


def test_root_answers_with_links_to_docs_and_viewer(live_server: LiveServer) -> None:
    with client(live_server) as http:
        plain = http.get("/")
        page = http.get("/", headers={"accept": "text/html"})
        assert http.head("/").status_code == 200 and http.head("/health").status_code == 200
    assert plain.status_code == 200 and plain.json()["links"]["docs"] == "/docs"
    assert plain.json()["links"]["ui"] == "/ui"
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'href="/docs"' in page.text and 'href="/ui"' in page.text


def test_tasks_lists_the_catalog(live_server: LiveServer) -> None:
    with client(live_server) as http:
        tasks = http.get("/tasks").json()["tasks"]
    assert [t["task_id"] for t in tasks] == CATALOG.task_ids
    for row in tasks:
        spec = CATALOG.spec(row["task_id"])
        assert (row["difficulty"], row["title"], row["objective"], row["max_steps"]) == (
            spec.difficulty.value, spec.title, spec.objective, spec.max_steps)


@pytest.mark.parametrize("body", [None, b"", b"{}", b"null"], ids=["none", "empty", "object", "null"])
def test_reset_body_is_optional(live_server: LiveServer, body: bytes | None) -> None:
    with client(live_server) as http:
        response = http.post("/reset", content=body)
    assert response.status_code == 200, response.text
    payload = response.json()
    assert set(payload) == RESET_KEYS
    assert payload["reward"] is None and payload["done"] is False
    assert payload["observation"]["task_id"] == CATALOG.pick_task_id(None)
    assert response.cookies["ticketledger_episode"] == payload["episode_id"]


def test_reset_picks_the_task_from_the_seed(live_server: LiveServer) -> None:
    with client(live_server) as http:
        for seed in (1, 2, 3):
            observation = http.post("/reset", json={"seed": seed}).json()["observation"]
            assert observation["task_id"] == CATALOG.pick_task_id(seed)


def test_openenv_dialect_plays_a_whole_episode(live_server: LiveServer) -> None:
    task = CATALOG.instance("task_hard_refund_policy_denial", 5)
    episode = new_id()
    with client(live_server) as http:
        reset = http.post("/reset", json={"task_id": task.task_id, "seed": 5, "episode_id": episode})
        assert reset.json()["episode_id"] == episode
        rewards = []
        for action in gold(task):
            payload = http.post("/step", json={"action": action}).json()
            assert set(payload) >= {"observation", "reward", "done", "episode_id", "head_hash"}
            assert isinstance(payload["reward"], float)
            rewards.append(payload["reward"])
        state = http.get("/state").json()
    assert payload["done"] is True
    assert payload["observation"]["done"] is True
    assert state["episode_id"] == episode and state["step_count"] == len(rewards)
    assert state["score"] == 1.0 and round(sum(rewards), 4) == 1.0
    recorded = episode_events(live_server.database_url, episode)
    assert payload["head_hash"] == recorded[-1].hash == state["head_hash"]


def test_seed_dialect_answers_with_a_reward_object_and_info(live_server: LiveServer) -> None:
    with client(live_server) as http:
        http.post("/reset", json={"task_id": "task_easy_password"})
        first = http.post("/step", json={"action_type": "classify_priority", "priority": "medium",
                                         "queue": None, "reply_text": None, "note": None,
                                         "resolution_code": None}).json()
        wrong = http.post("/step", json={"action_type": "assign_queue", "queue": "billing"}).json()
    assert set(first) == {"observation", "reward", "done", "terminated", "truncated", "end_reason", "info",
                          "grade"}
    assert set(first["reward"]) == {"score", "components", "reason"}
    assert first["reward"]["score"] == 0.25
    assert first["reward"]["components"]["priority"] == 0.25
    assert first["info"]["task_score"] == 0.25 and first["info"]["step_count"] == 1
    assert first["info"]["head_hash"]
    # The public reason says a choice is wrong, never what the right one is.
    assert "queue: not correct" in wrong["reward"]["reason"]
    assert "account" not in wrong["reward"]["reason"] and "account" not in str(wrong["grade"])


def test_agent_facing_routes_never_show_the_answer_key(live_server: LiveServer) -> None:
    task = CATALOG.instance("task_easy_password", None)
    secrets_in_key = [task.expected.resolution_code[0].value, *task.reply.facts[0].any_of]
    with client(live_server) as http:
        reset = http.post("/reset", json={"task_id": task.task_id}).text
        stepped = http.post("/step", json={"action_type": "noop"}).text
        wrapped = http.post("/step", json={"action": {"action_type": "noop"}}).text
        state = http.get("/state")
    assert set(state.json()) == set(PublicState.model_fields)
    for text in (reset, stepped, wrapped, state.text):
        lowered = _without_vocabulary(text).lower()
        for secret in secrets_in_key:
            assert secret.lower() not in lowered
        for key_field in ('"expected"', '"variables"', '"case"', '"rubric"'):
            assert key_field not in lowered


def _without_vocabulary(text: str) -> str:
    """An answer without its observation's ``allowed`` member: every value of every enumerated
    field (the expected resolution code among them). It is checked here to be the one constant
    list of the vocabularies, the same for every task, so it tells nothing of the answer key."""
    body = json.loads(text)
    observation = body.get("observation")
    if isinstance(observation, dict):
        assert observation.pop("allowed") == ALLOWED.model_dump(mode="json")
    return json.dumps(body)


def test_combined_action_works_in_both_dialects(live_server: LiveServer) -> None:
    with client(live_server) as http:
        http.post("/reset", json={"task_id": "task_medium_angry_escalation"})
        bare = http.post("/step", json={"reassign_queue": "escalations", "add_tag": None,
                                        "reply": None, "close_ticket": False}).json()
        wrapped = http.post("/step", json={"action": {"reply": "We are sorry; a specialist will "
                                                                "contact you within 24 hours."}}).json()
        state = http.get("/state").json()
    assert bare["observation"]["current_queue"] == "escalations" and "info" in bare
    assert isinstance(wrapped["reward"], float)
    assert state["queue"] == "escalations" and state["reply_draft"].startswith("We are sorry")


def test_episode_routing_body_then_header_then_cookie(live_server: LiveServer) -> None:
    """One client's requests reach its episodes by the id in the body, else the header, else the
    cookie of its latest reset."""
    ids = {name: new_id(name) for name in ("body", "header", "cookie")}
    with client(live_server) as owner:
        for name in ("body", "header", "cookie"):  # the last reset's cookie routes bare requests
            owner.post("/reset", json={"task_id": "task_easy_password", "episode_id": ids[name]})
        owner.post("/step", json={"action_type": "classify_priority", "priority": "low",
                                  "episode_id": ids["body"]},
                   headers={"X-Episode-Id": ids["header"]})  # the body wins over the header
        owner.post("/step", json={"action": {"action_type": "classify_priority", "priority": "high"}},
                   headers={"X-Episode-Id": ids["header"]})
        owner.post("/step", json={"action_type": "classify_priority", "priority": "urgent"})
        chosen = {}
        for name, episode in ids.items():
            state = owner.get("/state", params={"episode_id": episode}).json()
            chosen[name] = (state["episode_id"], state["step_count"], state["priority"])
    assert chosen == {"body": (ids["body"], 1, "low"), "header": (ids["header"], 1, "high"),
                      "cookie": (ids["cookie"], 1, "urgent")}


def test_two_cookie_keeping_clients_interleave_without_cross_talk(live_server: LiveServer) -> None:
    tasks = [CATALOG.instance("task_medium_double_charge", 11),
             CATALOG.instance("task_hard_account_email_change", 12)]
    plans = [gold(t) for t in tasks]
    with client(live_server) as first, client(live_server) as second:
        clients = (first, second)
        episodes = [c.post("/reset", json={"task_id": t.task_id, "seed": t.seed}).json()["episode_id"]
                    for c, t in zip(clients, tasks, strict=True)]
        last = [None, None]
        for index in range(max(len(p) for p in plans)):
            for who in (0, 1):
                if index < len(plans[who]):
                    last[who] = clients[who].post("/step", json=plans[who][index]).json()
        states = [c.get("/state").json() for c in clients]
    for who in (0, 1):
        assert last[who]["done"] is True and last[who]["info"]["task_score"] == 1.0
        assert states[who]["episode_id"] == episodes[who]
        assert states[who]["step_count"] == len(plans[who])
        recorded = episode_events(live_server.database_url, episodes[who])
        actions = [a for e in recorded if e.type == "ActionReceived" for a in e.data["actions"]]
        assert [a["action_type"] for a in actions] == [p["action_type"] for p in plans[who]]


def test_reset_files_the_episode_under_a_run(live_server: LiveServer) -> None:
    """With the run's secret (``POST /runs`` hands it out); ``tests/api/test_run_secrets.py`` has
    the refusals."""
    with client(live_server) as http:
        created = http.post("/runs", json={"agent": "policy:test"}).json()
        run = created["run_id"]
        episode = http.post("/reset", json={"task_id": "task_easy_password", "run_id": run},
                            headers={"X-Run-Secret": created["run_secret"]}).json()
    started = episode_events(live_server.database_url, episode["episode_id"])[0]
    assert started.data["run_id"] == run


def test_state_reports_the_reset_id_and_steps_since_reset(live_server: LiveServer) -> None:
    episode = new_id()
    with client(live_server) as http:
        http.post("/reset", json={"task_id": "task_easy_feature_question", "episode_id": episode})
        assert http.get("/state").json()["step_count"] == 0
        for _ in range(3):
            http.post("/step", json={"action": {"action_type": "lookup_policy",
                                                "policy_id": "support_sla"}})
        state = http.get("/state").json()
    assert (state["episode_id"], state["step_count"]) == (episode, 3)


def test_a_missing_field_is_a_recorded_penalised_step(live_server: LiveServer) -> None:
    """The SupportOps seed's rule: a known action without its field is a step, penalised."""
    with client(live_server) as http:
        episode = http.post("/reset", json={"task_id": "task_easy_password"}).json()["episode_id"]
        before = len(episode_events(live_server.database_url, episode))
        payload = http.post("/step", json={"action_type": "classify_priority", "priority": None}).json()
    assert payload["reward"]["score"] < 0
    assert "priority" in payload["info"]["last_action_error"]
    assert len(episode_events(live_server.database_url, episode)) > before


def test_responses_are_json_and_the_log_is_durable(live_server: LiveServer) -> None:
    with client(live_server) as http:
        size = log_size(live_server.database_url)
        response = http.post("/reset", json={"task_id": "task_easy_refund_tag"})
    assert response.headers["content-type"] == "application/json"
    assert json.loads(response.content)["observation"]["ticket_id"]
    assert log_size(live_server.database_url) > size
