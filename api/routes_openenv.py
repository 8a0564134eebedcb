"""OpenEnv's HTTP routes and stateful HTTP episodes in both seeds' dialects.

``/health``, ``/metadata`` and ``/schema`` have the stock OpenEnv server's shapes. ``/reset``,
``/step`` and ``/state`` are stateful (the stock server's HTTP is not): episodes live in the event
log, and ``api.episode_routing`` picks the episode. ``POST /step`` answers in the dialect it was spoken
to: OpenEnv's wrapped body ``{"action": {...}}`` gets ``{"observation", "reward": <number>,
"done", ...}``; the SupportOps seed's bare action gets ``{"observation", "reward": {"score",
"components", "reason"}, "done", "info": {"task_score", ...}}``.

``/reset`` and ``/step`` read their body themselves and parse it with the request models
(``api.protocol``), whatever its content type: the seeds' scripts post JSON with ``curl -d``, which
says it sends a form. Their ``openapi_extra`` documents the models, as FastAPI's docs show for a
body a route parses itself. Answers are the response models, serialised by pydantic.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel
from pydantic_core import to_json

from api import errors, mcp, ws
from api.deps import Env, Environment
from api.episode_routing import NoEpisodeNamed
from api.limits import BodyLimit
from api.models import (
    ACTION_SCHEMA,
    EndBody,
    PublicState,
    ResetBody,
    ResetResponse,
    SeedStepResponse,
    StepResponse,
    WrappedStep,
)
from api.protocol import answer, openenv_answer, parse_end, parse_reset, parse_step, reset_answer
from domain.actions import MAX_NOTE_CHARS, MAX_REPLY_CHARS, action_json_schema
from domain.observation import Observation
from support.schemas import inline_refs

NAME = "ticketledger"
DESCRIPTION = ("Event-sourced customer-support environment: triage a ticket (priority, queue, "
               "tags), look up policies, draft the reply, resolve or close. Every action is an "
               "immutable, hash-chained event; rewards are dense and can be negative.")
JSON = "application/json"
SCHEMAS = {"action": action_json_schema(), "observation": Observation.model_json_schema(),
           "state": PublicState.model_json_schema()}

router = APIRouter()


# --------------------------------------------------------------------------------- episodes
# First in the router: a request is matched against the routes in order, and these are the ones an
# agent sends all the time.
@router.post("/reset", tags=["OpenEnv"], response_model=ResetResponse, openapi_extra={
    "requestBody": {"required": False,
                    "content": {JSON: {"schema": inline_refs(ResetBody.model_json_schema())}}}})
async def reset(request: Request, env: Env) -> Response:
    """Start an episode. Body optional: ``{task_id?, seed?, episode_id?, run_id?}``. Sets a cookie that
    routes this client's next requests to the new episode; an ``episode_id`` of your own is
    scoped to your ``X-Episode-Key`` (returned when the server made it)."""
    body = parse_reset(await request.body())
    opening = env.episodes.opening(request, body.episode_id)
    result = await env.reset(body, opening, request)
    response = _json(reset_answer(result))
    env.episodes.started(response, opening, result.episode_id, result.state.episode_id)
    return response


@router.post("/step", tags=["OpenEnv"], response_model=StepResponse | SeedStepResponse,
             openapi_extra={"requestBody": {
    "required": True, "content": {JSON: {"schema": {
        "anyOf": [inline_refs(WrappedStep.model_json_schema()), ACTION_SCHEMA],
        "description": "OpenEnv's wrapped {action, episode_id?} or the SupportOps seed's bare "
                       "action (a combined CustomerSupportEnv action works in both)"}}}}})
async def step(request: Request, env: Env) -> Response:
    """Apply one action. A wrapped body answers OpenEnv's shape; a bare action answers the
    SupportOps seed's shape (reward object and ``info.task_score``)."""
    body = parse_step(await request.body())
    result = await env.step(env.episodes.resolve(request, body.episode_id), body.action)
    return _json(answer(result, body))


@router.post("/end", tags=["Environment"], response_model=StepResponse, openapi_extra={
    "requestBody": {"required": False,
                    "content": {JSON: {"schema": inline_refs(EndBody.model_json_schema())}}}})
async def end(request: Request, env: Env) -> Response:
    """End the routed episode from outside a step (``{episode_id?, reason?: "cut_off"}``): for a
    driver that stops a rollout the model left open, so the log says why it stopped. Nothing is
    graded or paid (``reward`` null, no ``grade``); ``truncated`` is true. 409 if it has ended."""
    body = parse_end(await request.body())
    result = await env.end(env.episodes.resolve(request, body.episode_id), body.reason)
    return _json(openenv_answer(result))


@router.get("/state", tags=["OpenEnv"])
async def state(request: Request, env: Env, episode_id: str | None = None) -> PublicState:
    """The public state of the routed episode (never the answer key)."""
    try:
        chosen = env.episodes.resolve(request, episode_id)
    except NoEpisodeNamed:
        return PublicState()  # nothing named and nothing to fall back on: OpenEnv's empty State
    return await env.state(chosen)


# ------------------------------------------------------------------------------- information
@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
async def root(request: Request, env: Env) -> Response:
    """The Space's landing page (Spaces ping it): links to the API docs and the audit viewer."""
    if "text/html" in request.headers.get("accept", ""):
        return HTMLResponse(_LANDING.replace("{body}", str(env.settings.max_body_bytes)))
    return JSONResponse({"name": NAME, "status": "healthy", "description": DESCRIPTION,
                         "links": {"docs": "/docs", "ui": "/ui", "tasks": "/tasks",
                                   "health": "/health", "schema": "/schema"}})


@router.api_route("/health", methods=["GET", "HEAD"], tags=["OpenEnv"])
async def health() -> dict[str, str]:
    return {"status": "healthy"}


@router.get("/metadata", tags=["OpenEnv"])
async def metadata(request: Request) -> dict[str, str]:
    return {"name": NAME, "description": DESCRIPTION, "version": request.app.version,
            "author": "TicketLedger", "documentation_url": "/docs"}


@router.get("/schema", tags=["OpenEnv"])
async def schema() -> dict[str, Any]:
    """JSON schemas of the action, the observation and the state."""
    return SCHEMAS


@router.get("/tasks", tags=["Environment"])
async def tasks(env: Env, split: str | None = None, family: str | None = None) -> dict[str, Any]:
    """The classic tasks; with ``split`` (train, dev, test) or ``family``, the task families'
    instances instead (docs/tasks.md): what ``reset`` takes as ``split`` and ``index``."""
    if split is not None or family is not None:
        return _instances(env, split, family)
    return {"tasks": [{"task_id": s.task_id, "difficulty": s.difficulty.value, "title": s.title,
                       "objective": s.objective, "max_steps": s.max_steps,
                       "success_threshold": s.success_threshold}
                      for s in env.service.catalog.specs()]}


def _instances(env: Environment, split: str | None, family: str | None) -> dict[str, Any]:
    from service.errors import BadRequest

    catalog = env.service.catalog
    try:
        refs = catalog.split(split) if split is not None else catalog.family_instances(family or "")
        if split is not None and family is not None:
            catalog.family_instances(family)  # an unknown family is refused here
            refs = tuple(r for r in refs if r.family == family.removeprefix("task_family_"))
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    index = {r.id: k for k, r in enumerate(catalog.split(split))} if split is not None else {}
    out: dict[str, Any] = {"split": split, "family": family}
    if split is not None and catalog.manifest is not None:
        out["digest"] = catalog.manifest.split_digests[split]
    out["instances"] = [{"index": index.get(r.id), "instance_id": r.id, "task_id": r.task_id,
                         "seed": r.seed, "split": r.split} for r in refs]
    return out


def _json(answer: BaseModel) -> Response:
    """An answer serialised by pydantic in one pass and handed to FastAPI ready to send. Returned
    as a model, it would be validated against the route's ``response_model`` again first, which
    shows on a sequential step; the model still documents the answer in OpenAPI."""
    return Response(to_json(answer), media_type=JSON)


def install(app: FastAPI) -> None:
    """Routes, WebSocket sessions, MCP, JSON errors and the body limit."""
    app.include_router(router)
    ws.install(app)
    mcp.install(app)
    errors.install(app)
    settings = _environment(app).settings
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes, timeout_s=settings.body_timeout_s)


def _environment(app: FastAPI) -> Environment:
    env: Environment = app.state.environment
    return env


_LANDING = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>TicketLedger</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: system-ui, sans-serif; max-width: 42rem; margin: 3rem auto; line-height: 1.5">
<h1>TicketLedger</h1>
<p>{DESCRIPTION}</p>
<ul>
<li><a href="/ui">Audit viewer</a>: episodes, their event logs, replays and diffs</li>
<li><a href="/docs">HTTP API</a> (OpenAPI), <a href="/tasks">tasks</a>, <a href="/schema">schemas</a>,
<a href="/health">health</a></li>
<li>OpenEnv clients connect to <code>ws://&lt;this host&gt;/ws</code></li>
</ul>
<p>Limits: request body {{body}} bytes, reply draft {MAX_REPLY_CHARS} characters, internal note
{MAX_NOTE_CHARS} characters.</p>
</body></html>"""
