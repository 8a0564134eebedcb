"""The work every section replays: full episodes of the gold over every task.

The actions come from the gold player (``service/gold.py``, the proof that every variant can score
1.0), so an episode exercises every action type, the rubric and the terminal grade, and ends by itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from domain.tasks.catalog import Catalog, default_catalog
from service.gold import gold


@dataclass(frozen=True)
class Plan:
    task_id: str
    seed: int | None
    actions: tuple[dict[str, Any], ...]


def plans(seeds: tuple[int | None, ...] = (None, 1, 2, 3), catalog: Catalog | None = None) -> list[Plan]:
    """One plan per (task, seed): the published variant and a few seeded ones by default."""
    catalog = catalog or default_catalog()
    return [Plan(task_id, seed, tuple(gold(catalog.instance(task_id, seed))))
            for seed in seeds for task_id in catalog.task_ids]


def steps_in(plan_list: list[Plan]) -> int:
    return sum(len(p.actions) for p in plan_list)


TEXT_FIELDS = ("reply_text", "note", "message")
"""The fields of an action that hold the agent's own words."""
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_PARTS = ("morning", "afternoon", "evening")
_WISHES = ("good", "calm", "pleasant", "restful", "quiet", "bright", "relaxed", "easy", "lovely", "fine")
_CLOSINGS = ("Thanks again for your patience", "Thank you for bearing with us",
             "Thanks for your understanding", "We appreciate your patience", "Thank you for your time",
             "Thanks for reaching out",
             "Thank you for letting us know", "Thanks for writing in", "We appreciate you getting in touch",
             "Thank you for your trust")
_AFTER = ("", " and the rest of the week", " and the weekend", " ahead", " and beyond", " too",
          " as well", " from all of us", " from the team", " once more")


def new_texts(plan: Plan, n: int) -> Plan:
    """``plan`` with its texts made new: each text the agent writes gets a closing sentence that
    ``n`` makes its own (21,000 of them before one comes again). An agent's words are new every
    episode, where the gold's repeat, and the judge reads a text it has not seen from its words
    up; a workload of repeated texts measures only the readings that depend on the state."""
    closing = (f" {_CLOSINGS[n % 10]}, and have a {_WISHES[n // 10 % 10]} {_DAYS[n // 100 % 7]} "
               f"{_PARTS[n // 700 % 3]}{_AFTER[n // 2100 % 10]}.")
    actions = tuple({**a, **{k: a[k] + closing for k in TEXT_FIELDS if isinstance(a.get(k), str) and a[k]}}
                    for a in plan.actions)
    return Plan(plan.task_id, plan.seed, actions)


SEED_REPLIES: dict[str, str] = {
    "task_easy_password": (
        "Hi Ava, sorry for the trouble signing in. I have sent you a fresh reset link; please "
        "clear cache in your browser before you use it, then try again from your laptop. Reply to "
        "confirm if resolved. Best regards, Support"),
    "task_easy_feature_question": (
        "Hi Marcus, yes: you can export all your project data as a CSV file. Open Settings, choose "
        "Data, and use the export button there; our documentation has a step-by-step guide. Best "
        "regards, Support"),
    "task_medium_double_charge": (
        "Hi Jordan, I am sorry you were charged twice. I have checked your invoice and opened a "
        "billing investigation; the duplicate charge will come back as a refund within 24 hours "
        "of confirmation. Best regards, Billing"),
    "task_medium_api_rate_limit": (
        "Hi Sarah, your requests are hitting our rate limit and our engineers are investigating. "
        "As a workaround, add exponential backoff and spread the batch over a longer window. We "
        "have added monitoring on your account. Best regards, Support"),
    "task_hard_enterprise_outage": (
        "Hi Nadia, I am sorry your checkout is affected. We have declared an incident for the "
        "failing webhooks and opened a war room with our on-call engineers; you will get the next "
        "update in 15 minutes. Best regards, Incident Support"),
    "task_hard_data_breach_report": (
        "Hi David, thank you for reporting this. I have involved our security team immediately "
        "and opened a security incident; we are preparing an audit log of all access to your "
        "account over the last 7 days. Best regards, Trust and Safety"),
}
"""A support reply per SupportOps task that holds its keywords verbatim."""

FLAT_FIELDS = ("priority", "queue", "reply_text", "note", "resolution_code")


def flat(action_type: str, **fields: str) -> dict[str, Any]:
    """The SupportOps seed's flat action body: every field present, ``null`` where unused."""
    return {"action_type": action_type, **dict.fromkeys(FLAT_FIELDS), **fields}


def seed_episodes() -> list[Plan]:
    """The SupportOps seed's own flow for each of its tasks: reset, then classify, route, reply and
    resolve (4 steps), with the right answers for both servers (``bench.seed_server.TASKS``)."""
    from bench.seed_server import TASKS

    return [Plan(t.task_id, None, (flat("classify_priority", priority=t.priority),
                                   flat("assign_queue", queue=t.queue),
                                   flat("draft_reply", reply_text=SEED_REPLIES[t.task_id]),
                                   flat("resolve_ticket", resolution_code=t.resolution_code)))
            for t in TASKS.values()]
