"""How every route, WebSocket session and MCP call reaches the environment: one dependency.

``Env`` (``Annotated[Environment, Depends(environment)]``) hands a route the app's
:class:`Environment`: the service, the settings, the HTTP episode routing and the auditor. The
service is blocking (SQLite/PostgreSQL); :meth:`Environment.run` runs its calls inline on the event
loop or in the thread pool, as ``Settings.blocking_calls`` says, so no route chooses.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Annotated, ParamSpec, TypeVar

from fastapi import Depends, HTTPException
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from api.models import PublicState, ResetBody
from api.protocol import public_state
from api.routing import EpisodeRouter
from service import EnvironmentService, StepResult
from service.auditor import Auditor
from service.settings import Settings

P = ParamSpec("P")
T = TypeVar("T")


class Environment:
    """The environment service as the API uses it, one per app."""

    def __init__(self, service: EnvironmentService, settings: Settings):
        self.service = service
        self.settings = settings
        self.episodes = EpisodeRouter()
        self.auditor = Auditor(service.db, service.catalog)
        self.inline = settings.blocking_calls == "inline"

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)``, on the event loop or in the thread pool (module docstring)."""
        if self.inline:
            return fn(*args, **kwargs)
        return await run_in_threadpool(fn, *args, **kwargs)

    async def reset(self, body: ResetBody) -> StepResult:
        return await self.run(self.service.reset, body.task_id, body.seed, body.episode_id,
                              run_id=body.run_id)

    async def step(self, episode_id: str, action: dict[str, object]) -> StepResult:
        return await self.run(self.service.step, episode_id, action)

    async def state(self, episode_id: str) -> PublicState:
        return await self.run(public_state, self.service, episode_id)


async def environment(connection: HTTPConnection) -> Environment:
    """The app's :class:`Environment` (``create_app`` puts it on ``app.state``); for HTTP routes
    and WebSocket sessions alike."""
    env: Environment = connection.app.state.environment
    return env


Env = Annotated[Environment, Depends(environment)]

_bearer = HTTPBearer(auto_error=False)


async def require_audit_token(
    env: Env, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """Audit routes need ``Authorization: Bearer $TICKETLEDGER_AUDIT_TOKEN`` when one is set."""
    expected = env.settings.audit_token
    if not expected:
        return
    given = credentials.credentials if credentials else ""
    if not secrets.compare_digest(given.encode(), expected.encode()):
        raise HTTPException(
            status_code=401,
            detail="audit routes need 'Authorization: Bearer <TICKETLEDGER_AUDIT_TOKEN>'",
            headers={"WWW-Authenticate": "Bearer"},
        )
