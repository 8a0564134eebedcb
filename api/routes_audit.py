"""REST audit routes: listings, step tables, replay, state at a step, diff, runs, regrade, export, fork.

Every route answers the same JSON as the matching ``ticketledger ... --json`` command (both call
``service.audit_views`` and friends). They show grading detail and the expected end state, so they are
for auditors only: when ``TICKETLEDGER_AUDIT_TOKEN`` is set each one needs it as a bearer token;
without one they are served only by a loopback-only server, and answer 403 elsewhere
(``api.deps.audit_off_message``, ``api.deps.require_audit_token``). Episodes are addressed by their
stored id (a client-chosen id is stored scoped: ``api.episode_routing``).
Listings are keyset-paginated (``limit`` + ``cursor``; the answer's ``next_cursor`` is None on the
last page) and the export streams one episode per line.
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from api.deps import Env, require_audit_token
from service.audit_views import MAX_PAGE, Auditor, check_filter
from service.errors import ServiceError
from store.queries import EpisodeFilter

router = APIRouter(tags=["audit"], dependencies=[Depends(require_audit_token)])

Limit = Query(50, ge=1, le=MAX_PAGE, description=f"page size, 1-{MAX_PAGE}")
Cursor = Query(None, max_length=400, description="next_cursor of the previous page")
Run = Query(None, max_length=64, description="only this run's episodes")
Task = Query(None, max_length=64, description="only this task's episodes")


async def auditor(env: Env) -> Auditor:
    """The app's auditor, over the same database and catalog as the environment service."""
    return env.auditor


class ForkBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    at: int = Field(ge=0, description="keep the original's steps 1..at (0 = right after reset)")
    episode_id: str | None = Field(None, description="id for the new episode (default: random)")
    customer: Literal["scripted", "llm"] | None = Field(
        None, description="who answers message_customer in the fork: the scripted customer or a "
                          "fresh LLM call (default: the original's); the answer says which")


class RegradeBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    run_id: str | None = Field(default=None, max_length=64)
    task_id: str | None = Field(default=None, max_length=64)
    dry_run: bool = False
    grader_version: str | None = Field(default=None, max_length=64,
                                       description="grader to re-score with; default the current one")


@router.get("/episodes", summary="List episodes (filters; keyset pagination)")
def list_episodes(a: Auditor = Depends(auditor), task: str | None = Task, run: str | None = Run,
                  status: str | None = Query(None, pattern="^(open|ended)$"),
                  min_score: float | None = Query(None, ge=0, le=1),
                  max_score: float | None = Query(None, ge=0, le=1),
                  model: str | None = Query(None, max_length=200,
                                            description="text in the run's agent name"),
                  limit: int = Limit, cursor: str | None = Cursor) -> dict[str, Any]:
    where = EpisodeFilter(task, run, status, min_score, max_score, model)
    return a.list_episodes(where, limit, cursor)


@router.get("/episodes/{episode_id}", summary="Episode summary (task, seed, status, score, head)")
def episode(episode_id: str, a: Auditor = Depends(auditor)) -> dict[str, Any]:
    return a.summary(episode_id)


@router.get("/episodes/{episode_id}/steps", summary="Step table: action, events, change, reward, reason")
def show(episode_id: str, a: Auditor = Depends(auditor)) -> dict[str, Any]:
    return a.show(episode_id)


@router.get("/episodes/{episode_id}/events", summary="The raw hash-chained events (paginated)")
def events(episode_id: str, a: Auditor = Depends(auditor), limit: int = Query(100, ge=1, le=MAX_PAGE),
           cursor: str | None = Query(None, max_length=20)) -> dict[str, Any]:
    return a.events(episode_id, limit, cursor)


@router.get("/episodes/{episode_id}/replay", summary="Re-fold, re-grade and verify the chain")
def replay(episode_id: str, a: Auditor = Depends(auditor)) -> dict[str, Any]:
    return a.replay(episode_id)


@router.get("/episodes/{episode_id}/state", summary="The state after step k (default: latest)")
def state(episode_id: str, a: Auditor = Depends(auditor),
          step: int | None = Query(None, ge=0)) -> dict[str, Any]:
    return a.state(episode_id, step)


@router.get("/episodes/{a_id}/diff/{b_id}", summary="Two episodes step by step; the first divergence")
def diff(a_id: str, b_id: str, a: Auditor = Depends(auditor)) -> dict[str, Any]:
    return a.diff(a_id, b_id)


@router.post("/episodes/{episode_id}/fork", status_code=201,
             summary="A new episode from the first k steps; /step and /ws accept its id")
def fork(episode_id: str, body: ForkBody, a: Auditor = Depends(auditor)) -> dict[str, Any]:
    from service.fork import fork as make_fork

    return make_fork(a, episode_id, body.at, body.episode_id, customer=body.customer)


@router.get("/runs", summary="Runs, newest first (paginated)")
def runs(a: Auditor = Depends(auditor), limit: int = Limit, cursor: str | None = Cursor) -> dict[str, Any]:
    return a.list_runs(limit, cursor)


@router.get("/runs/{run_id}", summary="One run with its per-task score table")
def run(run_id: str, a: Auditor = Depends(auditor)) -> dict[str, Any]:
    return a.run(run_id)


@router.post("/regrade", summary="Re-score with a grader (default the current); appends regrade records")
def regrade(body: RegradeBody | None = None, a: Auditor = Depends(auditor)) -> dict[str, Any]:
    from service.regrade import regrade as run_regrade

    body = body or RegradeBody()
    return run_regrade(a, EpisodeFilter(task_id=body.task_id, run_id=body.run_id), dry_run=body.dry_run,
                       grader_version=body.grader_version)


@router.get("/export", summary="Trajectories as JSON Lines (streamed)")
def export(a: Auditor = Depends(auditor), run: str | None = Run, task: str | None = Task,
           format: str = Query("jsonl")) -> StreamingResponse:
    from service.export import export_lines

    lines = export_lines(a, EpisodeFilter(task_id=task, run_id=run), format)
    return StreamingResponse(lines, media_type="application/x-ndjson",
                             headers={"Content-Disposition": 'attachment; filename="episodes.jsonl"'})


@router.get("/verify", summary="Replay every episode (or a run's) and summarise")
def verify(a: Auditor = Depends(auditor), run: str | None = Run, task: str | None = Task) -> dict[str, Any]:
    from service.verify import verify as run_verify

    return run_verify(a, EpisodeFilter(task_id=task, run_id=run))


@router.get("/heads", summary="Chain heads as a heads file (keep it outside the database)",
            response_class=PlainTextResponse)
def heads(a: Auditor = Depends(auditor), run: str | None = Run, task: str | None = Task) -> StreamingResponse:
    from service.verify import current_heads, format_heads

    where = check_filter(EpisodeFilter(task_id=task, run_id=run))  # before the answer starts
    lines = format_heads(current_heads(a, where))
    return StreamingResponse(lines, media_type="text/plain; charset=utf-8")


async def _service_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ServiceError)
    return JSONResponse({"detail": str(exc), "code": exc.code, "status": exc.status},
                        status_code=exc.status)


def install(app: FastAPI) -> None:
    app.include_router(router)
    if ServiceError not in app.exception_handlers:  # the OpenEnv routes normally install api.errors
        app.add_exception_handler(ServiceError, _service_error)
