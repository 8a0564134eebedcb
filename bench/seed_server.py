"""The yardstick: a minimal in-memory server with the SupportOps seed's routes and shapes.

TicketLedger's speed over stateful HTTP is stated as a ratio to the server it grew from, the
SupportOps seed's (its README lists the routes and models; its six tasks are below, with their
targets). That server keeps one episode in a dict and scores by keywords; this module does the
same, so a ratio against it says what TicketLedger's log, rules, grading and audit trail cost a
client, on the same machine, in the same run:

* ``GET /health``, ``GET /tasks``;
* ``POST /reset`` with an optional ``{"task_id": ...}``: the episode is one module-level dict (the
  seed had one environment for all clients, and so does this);
* ``POST /step`` with the seed's flat action (``action_type``, ``priority``, ``queue``,
  ``reply_text``, ``note``, ``resolution_code``, ``null`` where unused), validated by a pydantic
  model; the step updates the dict, scores ``0.25 priority + 0.25 queue + 0.30 share of reply
  keywords + 0.20 resolution`` and answers ``{"observation", "reward": {"score", "components",
  "reason"}, "done", "info": {"task_score", ...}}``;
* ``GET /state``: the episode's public fields.

Its penalties (a repeated action, a missing field, a no-op, resolving before triage and a reply)
and its end (an accepted resolve, or 8 steps) are the seed's. It writes nothing anywhere.

Served as TicketLedger's server is (``server.app.serve``): one uvicorn worker, no access log, no
``Server`` header, uvicorn's default event loop and HTTP parser. Its routes are ``async def``:
nothing in them blocks, so no call pays a thread-pool hand-off, which makes it the stricter
yardstick of the two ways the seed could have been written.

``python -m bench.seed_server --host 127.0.0.1 --port 7861``
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any, Literal

from fastapi import Body, FastAPI, HTTPException
from pydantic import BaseModel

Tier = Literal["free", "pro", "enterprise"]
Priority = Literal["low", "medium", "high", "urgent"]
Queue = Literal["billing", "technical", "account", "trust_and_safety", "general"]
ActionType = Literal["classify_priority", "assign_queue", "draft_reply", "add_internal_note",
                     "resolve_ticket", "noop"]
MAX_STEPS = 8
WEIGHTS = {"priority": 0.25, "queue": 0.25, "reply_quality": 0.30, "resolution": 0.20}
PENALTY = 0.05


class Ticket(BaseModel):
    ticket_id: str
    customer_name: str
    customer_tier: Tier
    subject: str
    message: str
    product_area: str


@dataclass(frozen=True)
class Task:
    task_id: str
    difficulty: str
    title: str
    objective: str
    ticket: Ticket
    priority: Priority
    queue: Queue
    resolution_code: str
    keywords: tuple[str, ...]


def _task(task_id: str, difficulty: str, title: str, objective: str,
          ticket: tuple[str, str, Tier, str, str, str], target: tuple[Priority, Queue, str],
          keywords: tuple[str, ...]) -> Task:
    ticket_id, name, tier, subject, message, area = ticket
    return Task(task_id, difficulty, title, objective,
                Ticket(ticket_id=ticket_id, customer_name=name, customer_tier=tier,
                       subject=subject, message=message, product_area=area),
                target[0], target[1], target[2], keywords)


TASKS: dict[str, Task] = {t.task_id: t for t in (
    _task("task_easy_password", "easy", "Password Reset Triage",
          "Route a simple account-access request and provide an actionable response.",
          ("CS-1001", "Ava Patel", "free", "Can't log in after password reset",
           "I reset my password but still can't sign in from my laptop. Can you help me regain "
           "access today?", "authentication"),
          ("medium", "account", "awaiting_customer_confirmation"),
          ("reset link", "clear cache", "confirm if resolved")),
    _task("task_easy_feature_question", "easy", "Feature Inquiry",
          "Answer a simple product question and direct user to documentation.",
          ("CS-1050", "Marcus Chen", "free", "How do I export my data?",
           "Hi, I want to download all my project data as a CSV file. Is this possible? I looked "
           "in settings but couldn't find it.", "data_export"),
          ("low", "general", "resolved_with_documentation"),
          ("export", "settings", "documentation")),
    _task("task_medium_double_charge", "medium", "Billing Double Charge",
          "Handle a billing dispute and set clear next actions for finance review.",
          ("CS-2044", "Jordan Rivera", "pro", "Charged twice for March subscription",
           "I was charged twice this month. I already sent screenshots to your bot and need this "
           "corrected before end of week.", "payments"),
          ("high", "billing", "billing_investigation_opened"),
          ("invoice", "refund", "24 hours")),
    _task("task_medium_api_rate_limit", "medium", "API Rate Limit Issue",
          "Diagnose a technical issue and provide workaround while investigating.",
          ("CS-2101", "Sarah Kim", "pro", "Getting 429 errors on API calls",
           "Our integration started getting rate limit errors yesterday. We haven't changed "
           "anything on our end. Our batch jobs are failing and we need this resolved for our "
           "Monday deployment.", "api"),
          ("high", "technical", "engineering_investigation"),
          ("rate limit", "monitoring", "workaround")),
    _task("task_hard_enterprise_outage", "hard", "Enterprise Production Outage",
          "Escalate a business-critical outage for an enterprise account and communicate incident "
          "handling.",
          ("CS-9988", "Nadia Stein", "enterprise", "All webhook deliveries failing in production",
           "Our payment workflows are down because webhook deliveries started failing 20 minutes "
           "ago. This is a production outage impacting checkout. We need an urgent update and "
           "incident bridge.", "integrations"),
          ("urgent", "technical", "incident_escalated"),
          ("incident", "war room", "next update in 15 minutes")),
    _task("task_hard_data_breach_report", "hard", "Potential Data Breach Report",
          "Handle a sensitive security report from an enterprise customer requiring immediate "
          "escalation to security team.",
          ("CS-9999", "David Park", "enterprise",
           "URGENT: Suspicious access to our organization data",
           "We detected unauthorized access attempts to our company workspace from IP addresses in "
           "a foreign country. Several admin accounts show login attempts we don't recognize. This "
           "may be a breach. We need your security team involved immediately and an audit log of "
           "all access to our account in the last 7 days.", "security"),
          ("urgent", "trust_and_safety", "security_incident_opened"),
          ("security team", "audit log", "immediately")),
)}


class Action(BaseModel):
    """The seed's flat action: one type and the optional fields it uses."""

    action_type: ActionType
    priority: Priority | None = None
    queue: Queue | None = None
    reply_text: str | None = None
    note: str | None = None
    resolution_code: str | None = None


class ResetRequest(BaseModel):
    task_id: str | None = None


class Observation(BaseModel):
    task_id: str
    difficulty: str
    objective: str
    step_count: int
    max_steps: int
    ticket: Ticket
    current_priority: Priority | None
    current_queue: Queue | None
    reply_draft: str | None
    last_action: str | None
    action_history: list[str]


class Reward(BaseModel):
    score: float
    components: dict[str, float]
    reason: str


class ResetResponse(BaseModel):
    observation: Observation
    done: bool


class StepResponse(BaseModel):
    observation: Observation
    reward: Reward
    done: bool
    info: dict[str, Any]


@dataclass
class Episode:
    """The one episode in play: the dict the seed's environment kept, as a typed record."""

    task: Task
    step_count: int = 0
    priority: Priority | None = None
    queue: Queue | None = None
    reply: str | None = None
    resolution_code: str | None = None
    notes: tuple[str, ...] = ()
    last_action: Action | None = None
    history: tuple[str, ...] = ()
    done: bool = False


def grade(episode: Episode) -> tuple[float, dict[str, float]]:
    """The seed's grader: weighted correctness of priority, queue, reply keywords, resolution."""
    task = episode.task
    reply = (episode.reply or "").lower()
    components = {
        "priority": float(episode.priority == task.priority),
        "queue": float(episode.queue == task.queue),
        "reply_quality": sum(k in reply for k in task.keywords) / len(task.keywords),
        "resolution": float(episode.resolution_code == task.resolution_code),
    }
    return sum(WEIGHTS[name] * value for name, value in components.items()), components


def apply(episode: Episode, action: Action) -> str | None:
    """Update the episode with ``action``; returns why it is penalised, if it is."""
    if action == episode.last_action:
        return "repeated the previous action"
    match action.action_type:
        case "classify_priority" if action.priority is not None:
            episode.priority = action.priority
        case "assign_queue" if action.queue is not None:
            episode.queue = action.queue
        case "draft_reply" if action.reply_text:
            episode.reply = action.reply_text
        case "add_internal_note" if action.note:
            episode.notes += (action.note,)
        case "resolve_ticket" if action.resolution_code:
            if episode.priority is None or episode.queue is None or not episode.reply:
                return "resolved before triage and a reply"
            episode.resolution_code = action.resolution_code
            episode.done = True
        case "noop":
            return "no-op"
        case _:
            return f"{action.action_type} is missing its field"
    return None


def observe(episode: Episode) -> Observation:
    task = episode.task
    return Observation(task_id=task.task_id, difficulty=task.difficulty, objective=task.objective,
                       step_count=episode.step_count, max_steps=MAX_STEPS, ticket=task.ticket,
                       current_priority=episode.priority, current_queue=episode.queue,
                       reply_draft=episode.reply,
                       last_action=episode.last_action.action_type if episode.last_action else None,
                       action_history=list(episode.history))


app = FastAPI(title="SupportOps seed yardstick")
current: Episode | None = None


@app.get("/health")
async def health() -> dict[str, str]:
    return {"status": "healthy"}


@app.get("/tasks")
async def tasks() -> dict[str, list[dict[str, str]]]:
    return {"tasks": [{"task_id": t.task_id, "difficulty": t.difficulty, "title": t.title}
                      for t in TASKS.values()]}


@app.post("/reset")
async def reset(request: ResetRequest | None = Body(default=None)) -> ResetResponse:
    global current
    task_id = request.task_id if request and request.task_id else next(iter(TASKS))
    if task_id not in TASKS:
        raise HTTPException(404, f"unknown task {task_id!r}")
    current = Episode(TASKS[task_id])
    return ResetResponse(observation=observe(current), done=False)


@app.post("/step")
async def step(action: Action) -> StepResponse:
    episode = current
    if episode is None:
        raise HTTPException(400, "call /reset first")
    before, _ = grade(episode)
    penalty = apply(episode, action)
    episode.step_count += 1
    episode.last_action = action
    episode.history += (action.action_type,)
    episode.done = episode.done or episode.step_count >= MAX_STEPS
    score, components = grade(episode)
    reward = max(0.0, min(1.0, score - before - (PENALTY if penalty else 0.0)))
    return StepResponse(observation=observe(episode),
                        reward=Reward(score=round(reward, 4), components=components,
                                      reason=penalty or "progress"),
                        done=episode.done,
                        info={"task_score": round(score, 4), "step_count": episode.step_count})


@app.get("/state")
async def state() -> dict[str, Any]:
    if current is None:
        return {"episode_id": None, "step_count": 0}
    score, _ = grade(current)
    return {"task_id": current.task.task_id, "step_count": current.step_count, "done": current.done,
            "score": round(score, 4), **observe(current).model_dump()}


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    parser = argparse.ArgumentParser(prog="python -m bench.seed_server", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=7861)
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args(argv)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, access_log=False,
                server_header=False)


if __name__ == "__main__":
    main()
