"""Agent-facing run routes: create a run (getting its secret) and record how it ended.

``POST /runs`` records a new run on this server and answers its ``run_id`` and ``run_secret``, the
secret once (only its hash is stored, ``store/runs.py``). A client files its episodes under the run
by naming ``run_id`` in ``reset`` and sending the secret in the ``X-Run-Secret`` header
(``api.run_access``); ``POST /runs/{run_id}/finish`` with the same header stores the run's summary
and ends it, after which nobody files under it without the audit token. This is how
``inference.py`` with ``ENV_BASE_URL`` keeps its run record next to its episodes, on the server.

Reading runs (``GET /runs``, ``GET /runs/{run_id}``) stays an audit route (``api.routes_audit``).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any, Literal

from fastapi import APIRouter, FastAPI, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator

from api.deps import Env
from api.run_access import check_filing
from service.errors import RunEnded
from store.runs import new_run_id

router = APIRouter(tags=["Runs"])


def _storable(value: dict[str, Any]) -> dict[str, Any]:
    """JSON that reads back as sent: Python's parser takes ``NaN`` and ``Infinity``, which would be
    stored and then break every answer that shows the run."""
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        raise ValueError("numbers must be finite (no NaN or Infinity)") from None
    return value


class NewRun(BaseModel):
    model_config = ConfigDict(extra="forbid")
    agent: str = Field(min_length=1, max_length=200, description="Who plays: a model or policy name "
                       "(GET /runs shows it; the audit's model filter matches it)")
    config: dict[str, Any] = Field(default_factory=dict, description="Settings of the run worth "
                                   "keeping with it; no secrets (they are shown to auditors)")
    _finite = field_validator("config")(_storable)

    @field_validator("agent")
    @classmethod
    def _text(cls, value: str) -> str:
        """The agent is stored as text, and PostgreSQL text cannot hold NUL."""
        if "\x00" in value:
            raise ValueError("agent must be text without NUL characters (a model or policy name)")
        return value


class RunCreated(BaseModel):
    run_id: str
    run_secret: str = Field(description="Send it as the X-Run-Secret header on reset (and on "
                            "finish) to file episodes under this run; shown only now")
    started_at: dt.datetime


class RunEnd(BaseModel):
    model_config = ConfigDict(extra="forbid")
    status: Literal["finished", "degraded", "failed", "interrupted"] = "finished"
    summary: dict[str, Any] = Field(default_factory=dict, description="What only the client "
                                    "knows about the run (latency, tokens, errors); scores are "
                                    "read from its episodes")
    _finite = field_validator("summary")(_storable)


@router.post("/runs", status_code=201, response_model=RunCreated,
             summary="Start a run; answers its id and its secret (once)")
async def create_run(body: NewRun, env: Env) -> RunCreated:
    run_id = new_run_id()
    secret = await env.run(env.runs.start, run_id, body.agent, body.config)
    row = await env.run(env.runs.get, run_id)
    return RunCreated(run_id=run_id, run_secret=secret, started_at=row.started_at)


@router.post("/runs/{run_id}/finish", summary="End a run with its summary (X-Run-Secret header)")
async def finish_run(run_id: str, body: RunEnd, request: Request, env: Env) -> dict[str, Any]:
    await env.run(check_filing, env.runs, env.settings, request, run_id)
    if not await env.run(env.runs.finish, run_id, body.summary, body.status):
        raise RunEnded(f"run {run_id!r} has already ended")  # only the audit token gets here
    return (await env.run(env.runs.get, run_id)).to_json()


def install(app: FastAPI) -> None:
    app.include_router(router)
