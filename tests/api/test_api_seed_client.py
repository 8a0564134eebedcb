"""A client written the way the SupportOps seed's ``inference.py`` talks, against a real server.

It keeps no cookies and sends no episode id (like that script's module-level ``requests.post``):
the server routes its steps to the most recent reset. It reads ``/tasks``,
sends bare actions, and reads ``reward.score``, ``done`` and ``info.task_score``.
"""

from __future__ import annotations

import httpx

from domain.tasks import default_catalog
from service.gold import gold
from tests.servers import LiveServer

CATALOG = default_catalog()


class CookielessClient:
    """One connection for speed, but no cookie survives a request (as with ``requests.post``)."""

    def __init__(self, base: str):
        self.http = httpx.Client(base_url=base, timeout=30)

    def post(self, path: str, body: dict[str, object]) -> dict:  # type: ignore[type-arg]
        response = self.http.post(path, json=body)
        self.http.cookies.clear()
        response.raise_for_status()
        return response.json()


def run_task(env: CookielessClient, task_id: str) -> dict[str, object]:
    observation = env.post("/reset", {"task_id": task_id})["observation"]
    plan = gold(CATALOG.instance(observation["task_id"], None))
    rewards: list[float] = []
    done, info = False, {}
    for action in plan:
        body = {"action_type": None, "priority": None, "queue": None, "reply_text": None,
                "note": None, "resolution_code": None} | {k: v for k, v in action.items()
                                                          if k != "policy_id" and k != "tag"}
        if "policy_id" in action or "tag" in action:  # fields the SupportOps model lacks
            body = action
        step = env.post("/step", body)
        rewards.append(step["reward"]["score"])
        done, info = step["done"], step["info"]
        if done:
            break
    return {"done": done, "task_score": info["task_score"], "rewards": rewards,
            "steps": len(rewards), "max_steps": observation["max_steps"]}


def test_a_supportops_style_client_completes_every_task(live_server: LiveServer) -> None:
    tasks = httpx.get(f"{live_server.url}/tasks").json()["tasks"]
    assert {t["task_id"] for t in tasks} >= {
        "task_easy_password", "task_easy_feature_question", "task_medium_double_charge",
        "task_medium_api_rate_limit", "task_hard_enterprise_outage", "task_hard_data_breach_report"}
    env = CookielessClient(live_server.url)
    for task in tasks:
        result = run_task(env, task["task_id"])
        assert result["done"] is True, task["task_id"]
        assert result["task_score"] == 1.0, (task["task_id"], result)
        assert round(sum(result["rewards"]), 4) == result["task_score"]  # type: ignore[arg-type]
        assert result["steps"] <= result["max_steps"]  # type: ignore[operator]
