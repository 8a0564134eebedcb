"""The wire protocol shared by stateful HTTP, the WebSocket sessions and MCP tool calls.

Requests are parsed by the request models of ``api.models``: straight from the body's bytes with
pydantic's JSON parser over HTTP, from the decoded message over ``/ws`` and ``/mcp``. A mistake
becomes a ``BadRequest`` (422) worded as the API always has (``tests/golden/v1`` records the
sentences): what is wrong and what to send instead. Answers are the response models.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from pydantic import TypeAdapter, ValidationError
from pydantic_core import ErrorDetails, from_json

from api.models import (
    BareStep,
    EndBody,
    PublicState,
    ResetBody,
    ResetResponse,
    SeedInfo,
    SeedReward,
    SeedStepResponse,
    StepBody,
    StepResponse,
    WrappedStep,
)
from domain.ids import id_rule, is_id
from domain.observation import PublicAccount
from domain.rewards import REWARD_MODES
from domain.state import EpisodeState
from graders import to_float
from service import EnvironmentService, StepResult
from service.errors import BadRequest
from service.replay import public_fields

RESET_EXAMPLE = '{"task_id": "task_easy_password", "seed": 7}'
RUN_ID_RULE = id_rule("run_id")
RESET_BODY: TypeAdapter[ResetBody | None] = TypeAdapter(ResetBody | None)
STEP_BODY: TypeAdapter[WrappedStep | BareStep | None] = TypeAdapter(StepBody | None)
END_BODY: TypeAdapter[EndBody | None] = TypeAdapter(EndBody | None)


# ----------------------------------------------------------------------------------- requests
def parse_reset(raw: bytes) -> ResetBody:
    """A ``POST /reset`` body; empty or ``null`` means every default."""
    if not raw.strip():
        return ResetBody()
    try:
        body = RESET_BODY.validate_json(raw) or ResetBody()
    except ValidationError as exc:
        raise _reset_mistake(exc, raw) from None
    return _run_id_checked(body)


def reset_body(data: Any) -> ResetBody:
    """The data of a WebSocket ``reset`` message or the arguments of MCP's ``reset`` tool."""
    try:
        body = RESET_BODY.validate_python(data) or ResetBody()
    except ValidationError as exc:
        raise _reset_mistake(exc) from None
    return _run_id_checked(body)


def _run_id_checked(body: ResetBody) -> ResetBody:
    """A run id follows the rule of episode ids (``domain.ids``; the service checks those)."""
    if body.run_id is not None and not is_id(body.run_id):
        raise BadRequest(id_rule("run_id", body.run_id))
    return body


def parse_step(raw: bytes) -> WrappedStep | BareStep:
    """A ``POST /step`` body in either dialect."""
    try:
        body = STEP_BODY.validate_json(raw) if raw.strip() else None
    except ValidationError as exc:
        raise _step_mistake(exc, raw) from None
    if body is None:
        raise BadRequest('the step body is empty; send an action such as {"action_type": '
                         '"classify_priority", "priority": "high"} or {"action": {...}}')
    return body


def step_body(data: Any) -> WrappedStep | BareStep:
    """The data of a WebSocket ``step`` message (a JSON object)."""
    try:
        body = STEP_BODY.validate_python(data)
    except ValidationError as exc:
        raise _step_mistake(exc) from None
    assert body is not None, "a WebSocket step's data is an object"
    return body


def parse_end(raw: bytes) -> EndBody:
    """A ``POST /end`` body; empty or ``null`` means every default."""
    try:
        body = END_BODY.validate_json(raw) if raw.strip() else None
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        match error["type"], error["loc"]:
            case "json_invalid", _:
                raise _not_json(raw, "end body", error) from None
            case "extra_forbidden", (name, *_):
                raise BadRequest(f"unknown field {str(name)!r}; end takes: "
                                 f"{', '.join(EndBody.model_fields)}") from None
            case _, ("reason",):
                raise BadRequest("reason must be cut_off (an episode the agent's driver stopped; "
                                 "the server records disconnected itself)") from None
            case _, ("episode_id",):
                raise BadRequest("episode_id must be a string") from None
        raise _generic(error) from None
    return body or EndBody()


def _reset_mistake(exc: ValidationError, raw: bytes | None = None) -> BadRequest:
    """The first mistake, in the order the API has always checked them: JSON, an object, unknown
    fields (by name), then each field in turn."""
    errors = exc.errors(include_url=False)
    unknown = sorted(str(e["loc"][0]) for e in errors if e["type"] == "extra_forbidden")
    error = errors[0]
    match error["type"], error["loc"]:
        case "json_invalid", _:
            return _not_json(raw or b"", "reset body", error)
        case _ if unknown:
            return BadRequest(f"unknown field {unknown[0]!r}; reset takes: "
                              f"{', '.join(ResetBody.model_fields)}")
        case "model_type", ():
            return BadRequest(f"the reset body must be a JSON object such as {RESET_EXAMPLE} "
                              "(every field optional)")
        case _, ("task_id",):
            return BadRequest("task_id must be a string; GET /tasks lists them")
        case _, ("seed",):
            return BadRequest("seed must be an integer")
        case _, ("episode_id",):
            return BadRequest("episode_id must be a string")
        case _, ("run_id",):
            return BadRequest(RUN_ID_RULE)
        case _, ("reward_mode",):
            return BadRequest(f"reward_mode must be one of {', '.join(REWARD_MODES)}")
    return _generic(error)


def _step_mistake(exc: ValidationError, raw: bytes | None = None) -> BadRequest:
    """The first mistake, in the order the API has always checked them: JSON, an object, a wrapped
    action that is not an object, unknown fields next to it (by name), the episode id."""
    errors = exc.errors(include_url=False)
    unknown = sorted(str(e["loc"][1]) for e in errors
                     if e["type"] == "extra_forbidden" and e["loc"][0] == "wrapped")
    error = errors[0]
    match error["type"], error["loc"]:
        case "json_invalid", _:
            return _not_json(raw or b"", "step body", error)
        case "model_type", ("bare",):
            return BadRequest("the step body must be a JSON object, not "
                              f"{type(error['input']).__name__}")
        case _, ("wrapped", "action"):
            return BadRequest("'action' must be a JSON object such as "
                              '{"action_type": "assign_queue", "queue": "billing"}')
        case _ if unknown:
            extras = sorted(set(WrappedStep.model_fields) - {"action"})
            return BadRequest(f"unknown field {unknown[0]!r} next to 'action'; a wrapped step "
                              f"takes: action, {', '.join(extras)}")
        case _, (_, "episode_id"):
            return BadRequest("episode_id must be a string")
    return _generic(error)


def _generic(error: ErrorDetails) -> BadRequest:
    where = ".".join(str(part) for part in error["loc"] if part not in ("wrapped", "bare"))
    return BadRequest(f"{where}: {error['msg']}" if where else error["msg"])


def _not_json(raw: bytes, what: str, error: ErrorDetails) -> BadRequest:
    """pydantic's parser also refuses what the standard library reads: nesting over its depth
    limit, lone surrogates. Those are said in pydantic's words."""
    return BadRequest(unreadable(raw, what, error["msg"].removeprefix("Invalid JSON: ")))


def unreadable(raw: bytes | str, what: str, reason: str) -> str:
    """Why pydantic's parser refused ``raw`` (``reason``), said as the API says it."""
    if "recursion limit exceeded" in reason:
        return f"the {what} is nested too deeply to read"
    return syntax_error(raw, what) or f"the {what} cannot be read: {reason}"


def syntax_error(raw: bytes | str, what: str) -> str | None:
    """What makes ``raw`` unreadable as JSON, in the standard library's words (the API's wording
    since v1), or ``None`` when the standard library reads it."""
    try:
        json.loads(raw)
    except (ValueError, RecursionError) as exc:
        return decode_error(exc, what)
    return None


def decode_error(exc: ValueError | RecursionError, what: str) -> str:
    """Why the standard library could not read a JSON text, said for the client to fix."""
    if isinstance(exc, UnicodeDecodeError):
        return f"the {what} must be UTF-8 encoded JSON"
    if isinstance(exc, json.JSONDecodeError):
        return f"the {what} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
    if isinstance(exc, RecursionError):
        return f"the {what} is nested too deeply to read"
    # Python refuses to convert an integer string this long (CVE-2020-10735)
    return (f"the {what} holds a number of more than {sys.get_int_max_str_digits()} digits; "
            "numbers here are 64-bit integers or decimals")


def read_json(raw: bytes | str, what: str) -> Any:
    """A ``/ws`` message or ``/mcp`` body, read by the parser that reads HTTP bodies (pydantic's):
    the same nesting depth, number range and Unicode rules on every transport, and never a
    ``RecursionError``. A mistake is a ``BadRequest`` in the words of :func:`syntax_error`."""
    try:
        return from_json(raw, allow_inf_nan=False)
    except ValueError as exc:
        raise BadRequest(unreadable(raw, what, str(exc))) from None


# ---------------------------------------------------------------------------------- responses
# Answers name the episode as its client does: ``state.episode_id``, from the opening event (for a
# client-chosen id, the id chosen; ``result.episode_id`` is the stored, scoped one).
# Every answer says how the episode ended as Gymnasium does, from the state (``EpisodeState``'s
# ``terminated`` and ``truncated`` read the one mapping of end reasons, in ``domain.events``).
def ending(state: EpisodeState) -> dict[str, Any]:
    """``terminated``, ``truncated`` and ``end_reason`` of an answer about ``state``."""
    return {"terminated": state.terminated, "truncated": state.truncated,
            "end_reason": state.end_reason}


def reset_answer(result: StepResult) -> ResetResponse:
    return ResetResponse(observation=result.observation, done=result.done,
                         episode_id=result.state.episode_id, **ending(result.state))


def openenv_answer(result: StepResult) -> StepResponse:
    return StepResponse(observation=result.observation, reward=result.reward, done=result.done,
                        episode_id=result.state.episode_id, head_hash=result.head_hash,
                        **ending(result.state), grade=result.public_grade)


def seed_answer(result: StepResult) -> SeedStepResponse:
    grade = result.grade
    assert grade is not None, "a step result always carries its grade"
    state = result.state
    return SeedStepResponse(
        observation=result.observation,
        reward=SeedReward(score=result.reward if result.reward is not None else grade.reward,
                          components={c.name: to_float(c.earned) for c in grade.components},
                          reason=grade.public_reason()),
        done=result.done, **ending(state),
        info=SeedInfo(task_score=state.score, episode_id=state.episode_id,
                      step_count=state.step_count, max_steps=result.observation.max_steps,
                      last_action_error=result.observation.last_action_error,
                      end_reason=state.end_reason, head_hash=result.head_hash),
        grade=result.public_grade)


def answer(result: StepResult, body: WrappedStep | BareStep) -> StepResponse | SeedStepResponse:
    """A step's answer in the dialect it was asked in."""
    return openenv_answer(result) if isinstance(body, WrappedStep) else seed_answer(result)


def public_state(service: EnvironmentService, episode_id: str) -> PublicState:
    """The public view of an episode's state: never the answer key."""
    state = service.state(episode_id)
    _, head = service.head(episode_id)
    task = state.task
    assert task is not None
    fields = public_fields(state)
    last = state.last_step
    return PublicState(
        episode_id=state.episode_id, step_count=state.step_count, task_id=task.task_id,
        title=task.title, difficulty=task.difficulty.value, max_steps=task.max_steps,
        status=fields["status"], done=fields["done"], **ending(state),
        score=fields["score"], rewards=list(state.rewards), priority=fields["priority"],
        queue=fields["queue"], tags=fields["tags"], reply_draft=fields["reply_draft"],
        internal_notes=fields["internal_notes"], policies_viewed=fields["policies_viewed"],
        resolution_code=fields["resolution_code"], account=PublicAccount.of(state.account),
        last_action_error=last.error if last else None,
        head_hash=head)
