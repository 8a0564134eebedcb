"""OpenEnv's HTTP routes and stateful HTTP episodes in both seeds' dialects.

``/health``, ``/metadata`` and ``/schema`` have the stock OpenEnv server's shapes. ``/reset``,
``/step`` and ``/state`` are stateful (the stock server's HTTP is not): episodes live in the event
log, and ``api.routing`` picks the episode. ``POST /step`` answers in the dialect it was spoken
to: OpenEnv's wrapped body ``{"action": {...}}`` gets ``{"observation", "reward": <number>,
"done", ...}``; the SupportOps seed's bare action gets ``{"observation", "reward": {"score",
"components", "reason"}, "done", "info": {"task_score", ...}}``.

The service is blocking (SQLite/PostgreSQL); ``api.calls`` decides whether it runs on the event
loop or in the thread pool. Bodies are read and parsed once, without a second pydantic
validation of the action.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import HTMLResponse, JSONResponse

from api import calls, errors, mcp, ws
from api.limits import BodyLimit
from api.models import PublicState, ResetBody, WrappedStep, inline_refs
from api.protocol import (
    EMPTY_STATE,
    openenv_payload,
    parse_json,
    public_state,
    reset_args,
    reset_payload,
    seed_payload,
    split_step,
)
from api.routing import EpisodeRouter
from domain.actions import MAX_NOTE_CHARS, MAX_REPLY_CHARS, action_json_schema
from domain.observation import Observation
from service import EnvironmentService
from service.errors import EpisodeNotFound

T = TypeVar("T")
NAME = "ticketledger"
DESCRIPTION = ("Event-sourced customer-support environment: triage a ticket (priority, queue, "
               "tags), look up policies, draft the reply, resolve or close. Every action is an "
               "immutable, hash-chained event; rewards are dense and can be negative.")
JSON = "application/json"

router = APIRouter()


async def blocking(request: Request, fn: Callable[..., T], *args: Any) -> T:
    """Run a blocking service call the way ``Settings.blocking_calls`` says (``api.calls``)."""
    return await request.app.state.call(fn, *args)


def _service(request: Request) -> EnvironmentService:
    return request.app.state.service


def _router(request: Request) -> EpisodeRouter:
    return request.app.state.episodes


# ------------------------------------------------------------------------------- information
@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
async def root(request: Request) -> Response:
    """The Space's landing page (Spaces ping it): links to the API docs and the audit viewer."""
    if "text/html" in request.headers.get("accept", ""):
        limit = str(request.app.state.settings.max_body_bytes)
        return HTMLResponse(_LANDING.replace("{body}", limit))
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
async def schema(request: Request) -> Response:
    """JSON schemas of the action, the observation and the state."""
    return Response(request.app.state.schemas, media_type=JSON)


@router.get("/tasks", tags=["Environment"])
async def tasks(request: Request) -> dict[str, list[dict[str, Any]]]:
    return {"tasks": [{"task_id": s.task_id, "difficulty": s.difficulty.value, "title": s.title,
                       "objective": s.objective, "max_steps": s.max_steps,
                       "success_threshold": s.success_threshold}
                      for s in _service(request).catalog.specs()]}


# --------------------------------------------------------------------------------- episodes
@router.post("/reset", tags=["OpenEnv"], openapi_extra={"requestBody": {
    "required": False, "content": {JSON: {"schema": inline_refs(ResetBody.model_json_schema())}}}})
async def reset(request: Request) -> Response:
    """Start an episode. Body optional: ``{task_id?, seed?, episode_id?, run_id?}``. Sets a cookie that
    routes this client's next requests to the new episode."""
    args = reset_args(parse_json(await request.body(), what="reset body"))
    result = await blocking(request, args.apply, _service(request))
    response = Response(reset_payload(result), media_type=JSON)
    _router(request).started(response, result.episode_id)
    return response


_STEP_BODY = {
    "anyOf": [inline_refs(WrappedStep.model_json_schema()), inline_refs(action_json_schema())],
    "description": "OpenEnv's wrapped {action, episode_id?} or the SupportOps seed's bare action "
                   "(a combined CustomerSupportEnv action works in both)",
}


@router.post("/step", tags=["OpenEnv"], openapi_extra={"requestBody": {
    "required": True, "content": {JSON: {"schema": _STEP_BODY}}}})
async def step(request: Request) -> Response:
    """Apply one action. A wrapped body answers OpenEnv's shape; a bare action answers the
    SupportOps seed's shape (reward object and ``info.task_score``)."""
    action, explicit, wrapped = split_step(parse_json(await request.body(), what="step body"))
    episode_id = _router(request).resolve(request, explicit)
    result = await blocking(request, _service(request).step, episode_id, action)
    return Response(openenv_payload(result) if wrapped else seed_payload(result), media_type=JSON)


@router.get("/state", tags=["OpenEnv"], response_model=PublicState)
async def state(request: Request, episode_id: str | None = None) -> Response:
    """The public state of the routed episode (never the answer key)."""
    try:
        chosen = _router(request).resolve(request, episode_id)
    except EpisodeNotFound:
        return JSONResponse(EMPTY_STATE)  # nothing reset yet: OpenEnv's empty State
    return JSONResponse(await blocking(request, public_state, _service(request), chosen))


def _schemas() -> bytes:
    return json.dumps({"action": action_json_schema(),
                       "observation": Observation.model_json_schema(),
                       "state": PublicState.model_json_schema()}).encode()


def install(app: FastAPI) -> None:
    """Routes, WebSocket sessions, MCP, JSON errors and the body limit."""
    settings = app.state.settings
    app.state.episodes = EpisodeRouter()
    app.state.call = calls.runner(settings, app.state.service)
    app.state.schemas = _schemas()
    app.include_router(router)
    ws.install(app)
    mcp.install(app)
    errors.install(app)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)


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
