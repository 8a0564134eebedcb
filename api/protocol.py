"""The wire protocol shared by stateful HTTP, the WebSocket sessions and MCP tool calls.

Requests: one JSON parse, then plain checks with messages that say what to fix; actions go to the
service as plain dicts (``domain.actions.parse_action`` validates them exactly once).
Responses: the observation is serialised by pydantic straight to JSON and spliced into the
envelope, so a step never turns the observation into Python dicts and back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from api.models import PublicState
from domain.actions import MAX_REPLY_CHARS
from graders import to_float
from service import EnvironmentService, StepResult
from service.audit import public_fields
from service.environment import EPISODE_ID
from service.errors import BadRequest

RESET_FIELDS = ("task_id", "seed", "episode_id", "run_id")
WRAPPED_EXTRAS = frozenset({"episode_id", "timeout_s", "request_id"})


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)  # built once, not per call


def _dumps(value: Any) -> bytes:
    return _ENCODER.encode(value).encode()


@lru_cache(maxsize=256)
def _member(name: str) -> bytes:
    """``"name":`` (member names are a handful of constants: encoded once each)."""
    return _dumps(name) + b":"


def envelope(**parts: Any) -> bytes:
    """A JSON object from its members; ``bytes`` values are already-encoded JSON, spliced as is."""
    body = b",".join(_member(name) + (value if isinstance(value, bytes) else _dumps(value))
                     for name, value in parts.items())
    return b"{" + body + b"}"


# ----------------------------------------------------------------------------------- requests
def parse_json(raw: bytes, *, what: str) -> Any:
    """The decoded body; an empty body is ``None``. Malformed JSON is a 422 that shows where."""
    if not raw.strip():
        return None
    try:
        return json.loads(raw)
    except UnicodeDecodeError:
        raise BadRequest(f"the {what} must be UTF-8 encoded JSON") from None
    except json.JSONDecodeError as exc:
        raise BadRequest(f"the {what} is not valid JSON: {exc.msg} at line {exc.lineno} "
                         f"column {exc.colno}") from None


@dataclass(frozen=True)
class ResetArgs:
    task_id: str | None = None
    seed: int | None = None
    episode_id: str | None = None
    run_id: str | None = None

    def apply(self, service: EnvironmentService) -> StepResult:
        return service.reset(self.task_id, self.seed, self.episode_id, run_id=self.run_id)


def reset_args(data: Any) -> ResetArgs:
    """The arguments of a reset body (``None`` or ``{}`` mean defaults)."""
    if data is None:
        return ResetArgs()
    if not isinstance(data, dict):
        raise BadRequest("the reset body must be a JSON object such as "
                         '{"task_id": "task_easy_password", "seed": 7} (every field optional)')
    unknown = sorted(set(data) - set(RESET_FIELDS))
    if unknown:
        raise BadRequest(f"unknown field {unknown[0]!r}; reset takes: {', '.join(RESET_FIELDS)}")
    task_id, seed, episode_id, run_id = (data.get(k) for k in RESET_FIELDS)
    if task_id is not None and not isinstance(task_id, str):
        raise BadRequest("task_id must be a string; GET /tasks lists them")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise BadRequest("seed must be an integer")
    if episode_id is not None and not isinstance(episode_id, str):
        raise BadRequest("episode_id must be a string")
    if run_id is not None and (not isinstance(run_id, str) or not EPISODE_ID.match(run_id)):
        raise BadRequest("run_id must be 1-64 characters of letters, digits, '_', '-', '.', ':'")
    return ResetArgs(task_id, seed, episode_id, run_id)


def split_step(data: Any) -> tuple[dict[str, Any], str | None, bool]:
    """``(action, episode_id, wrapped)`` from a step body in either dialect.

    OpenEnv wraps the action: ``{"action": {...}, "episode_id"?}``. The SupportOps seed sends the
    action itself (the CustomerSupportEnv combined action too); an ``episode_id`` member is taken
    out of it for routing.
    """
    if data is None:
        raise BadRequest('the step body is empty; send an action such as {"action_type": '
                         '"classify_priority", "priority": "high"} or {"action": {...}}')
    if not isinstance(data, dict):
        raise BadRequest(f"the step body must be a JSON object, not {type(data).__name__}")
    if "action" in data:
        action = data["action"]
        if not isinstance(action, dict):
            raise BadRequest("'action' must be a JSON object such as "
                             '{"action_type": "assign_queue", "queue": "billing"}')
        unknown = sorted(set(data) - WRAPPED_EXTRAS - {"action"})
        if unknown:
            raise BadRequest(f"unknown field {unknown[0]!r} next to 'action'; a wrapped step "
                             f"takes: action, {', '.join(sorted(WRAPPED_EXTRAS))}")
        episode_id = data.get("episode_id")
        wrapped = True
    else:
        action = dict(data)
        episode_id = action.pop("episode_id", None)
        wrapped = False
    if episode_id is not None and not isinstance(episode_id, str):
        raise BadRequest("episode_id must be a string")
    return action, episode_id, wrapped


# ---------------------------------------------------------------------------------- responses
def reset_payload(result: StepResult) -> bytes:
    return envelope(observation=result.observation.model_dump_json().encode(), reward=None,
                    done=result.done, episode_id=result.episode_id)


def openenv_payload(result: StepResult) -> bytes:
    """OpenEnv's step shape (reward a number), plus the episode id and its hash-chain head."""
    return envelope(observation=result.observation.model_dump_json().encode(),
                    reward=result.reward, done=result.done, episode_id=result.episode_id,
                    head_hash=result.head_hash)


def seed_payload(result: StepResult) -> bytes:
    """The SupportOps seed's step shape: a reward object and an ``info`` with the task score.

    ``reason`` is the grader's public reason; the audit detail (which names expected values) is
    only on the audit routes.
    """
    grade = result.grade
    assert grade is not None, "a step result always carries its grade"
    state = result.state
    reward = {
        "score": grade.reward,
        "components": {c.name: to_float(c.earned) for c in grade.components},
        "reason": grade.public_reason(),
    }
    info = {
        "task_score": state.score,
        "episode_id": result.episode_id,
        "step_count": state.step_count,
        "max_steps": result.observation.max_steps,
        "last_action_error": result.observation.last_action_error,
        "end_reason": state.end_reason,
        "head_hash": result.head_hash,
    }
    return envelope(observation=result.observation.model_dump_json().encode(), reward=reward,
                    done=result.done, info=info)


def public_state(service: EnvironmentService, episode_id: str) -> dict[str, Any]:
    """The public view of an episode's state (``PublicState``): never the answer key."""
    state = service.state(episode_id)
    _, head = service.head(episode_id)
    task = state.task
    assert task is not None
    fields = public_fields(state)
    last = state.last_step
    return {
        "episode_id": state.episode_id,
        "step_count": state.step_count,
        "task_id": task.task_id,
        "title": task.title,
        "difficulty": task.difficulty.value,
        "max_steps": task.max_steps,
        "status": fields["status"],
        "done": fields["done"],
        "end_reason": state.end_reason,
        "score": fields["score"],
        "rewards": list(state.rewards),
        "priority": fields["priority"],
        "queue": fields["queue"],
        "tags": fields["tags"],
        "reply_draft": fields["reply_draft"],
        "internal_notes": fields["internal_notes"],
        "policies_viewed": fields["policies_viewed"],
        "resolution_code": fields["resolution_code"],
        "last_action_error": last.error if last else None,
        "head_hash": head,
    }


EMPTY_STATE: dict[str, Any] = PublicState().model_dump(mode="json")
"""The state of a session that has not reset yet (OpenEnv's ``State`` defaults)."""

LIMITS_TEXT = f"a reply draft holds at most {MAX_REPLY_CHARS} characters"
