"""How every route, WebSocket session and MCP call reaches the environment: one dependency.

``Env`` (``Annotated[Environment, Depends(environment)]``) hands a route the app's
:class:`Environment`: the service, the settings, the HTTP episode routing and the auditor. The
service is blocking (SQLite/PostgreSQL); :meth:`Environment.run` runs its calls inline on the event
loop or in the thread pool, as ``Settings.blocking_calls`` says, so no route chooses. In the thread
pool, steps that queue up while the writers are busy are committed together (:class:`StepBatcher`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, ParamSpec, TypeVar

from fastapi import Depends, HTTPException
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from api.episode_routing import EpisodeRouter, Opening, Target
from api.models import PublicState, ResetBody
from api.protocol import public_state
from api.run_access import check_filing, is_audit_token
from domain.rewards import DEFAULT_REWARD_MODE
from service import EnvironmentService, StepResult
from service.audit_views import Auditor
from service.errors import EpisodeNotFound
from service.settings import Settings
from store.runs import RunStore

P = ParamSpec("P")
T = TypeVar("T")


class StepBatcher:
    """A few writers that take steps in arrival order; whatever queued up while they were busy
    goes in one batch (a group commit).

    Each of ``writers`` tasks takes the oldest waiting step and every step that queued behind it
    (up to ``most``) and runs them in the thread pool as ``EnvironmentService.step_many`` (one
    transaction, one commit; a batch of one as ``step``). When the server is idle a step goes
    alone at once; under load, batches grow and a commit is shared. A slow commit holds up one
    writer and its batch; the other writers go on.
    """

    def __init__(self, service: EnvironmentService, writers: int = 4, most: int = 16):
        self.service = service
        self.writers = writers
        self.most = most
        self.queue: asyncio.Queue[tuple[str, dict[str, object], asyncio.Future[StepResult]]] | None = None
        self.tasks: set[asyncio.Task[None]] = set()

    async def step(self, episode_id: str, action: dict[str, object]) -> StepResult:
        if self.queue is None:  # started on first use, in the serving event loop
            self.queue = asyncio.Queue()
            self.tasks = {asyncio.create_task(self._writer(self.queue)) for _ in range(self.writers)}
        result: asyncio.Future[StepResult] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((episode_id, action, result))
        return await result

    async def _writer(self, queue: asyncio.Queue[tuple[str, dict[str, object],
                                                      asyncio.Future[StepResult]]]) -> None:
        while True:
            batch = [await queue.get()]
            while not queue.empty() and len(batch) < self.most:
                batch.append(queue.get_nowait())
            await self._run(batch)

    async def _run(self, batch: list[tuple[str, dict[str, object], asyncio.Future[StepResult]]]) -> None:
        try:
            if len(batch) == 1:
                episode_id, action, _ = batch[0]
                outcomes: list[StepResult | Exception] = [
                    await run_in_threadpool(_outcome, self.service.step, episode_id, action)]
            else:
                outcomes = await run_in_threadpool(self.service.step_many,
                                                   [(eid, action) for eid, action, _ in batch])
        except Exception as exc:  # a fault of the whole batch reaches every step in it
            outcomes = [exc] * len(batch)
        for (_, _, result), outcome in zip(batch, outcomes, strict=True):
            if result.done():
                continue  # its caller has gone (a closed connection)
            if isinstance(outcome, Exception):
                result.set_exception(outcome)
            else:
                result.set_result(outcome)


def _outcome(fn: Callable[P, StepResult], *args: P.args, **kwargs: P.kwargs) -> StepResult | Exception:
    try:
        return fn(*args, **kwargs)
    except Exception as exc:
        return exc


class Environment:
    """The environment service as the API uses it, one per app."""

    def __init__(self, service: EnvironmentService, settings: Settings):
        self.service = service
        self.settings = settings
        self.episodes = EpisodeRouter()
        self.auditor = Auditor(service.db, service.catalog)
        self.runs = RunStore(service.db)
        # An LLM judge is a network call inside a step: never on the event loop, whatever
        # TICKETLEDGER_BLOCKING_CALLS says.
        self.inline = settings.blocking_calls == "inline" and service.judge is None
        self.batcher = StepBatcher(service)

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)``, on the event loop or in the thread pool (module docstring)."""
        if self.inline:
            return fn(*args, **kwargs)
        return await run_in_threadpool(fn, *args, **kwargs)

    async def reset(self, body: ResetBody, opening: Opening,
                    connection: HTTPConnection | None) -> StepResult:
        """Open the episode ``opening`` says (``api.episode_routing``: a scoped id for an id the
        client chose, whose opening event records the id as chosen), for the client of
        ``connection`` (an HTTP request or a WebSocket handshake; None inside this process):
        filed under ``body.run_id`` only if it may (``api.run_access``), else nothing is written."""
        if body.run_id is not None:
            await self.run(check_filing, self.runs, self.settings, connection, body.run_id)
        return await self.run(self.service.reset, body.task_id, body.seed, opening.stored,
                              run_id=body.run_id, reward_mode=body.reward_mode or DEFAULT_REWARD_MODE,
                              public_id=opening.public, split=body.split, index=body.index)

    async def step(self, target: Target, action: dict[str, object]) -> StepResult:
        """Step the first of the target's stored ids that exists. When none does, the error is
        the last one's, the name as given: an unknown id and someone else's answer alike."""
        for stored in target.stored[:-1]:
            try:
                return await self._step(stored, action)
            except EpisodeNotFound:
                continue
        return await self._step(target.stored[-1], action)

    async def _step(self, episode_id: str, action: dict[str, object]) -> StepResult:
        if self.inline:
            return self.service.step(episode_id, action)
        return await self.batcher.step(episode_id, action)

    async def state(self, target: Target) -> PublicState:
        for stored in target.stored[:-1]:
            try:
                return await self.run(public_state, self.service, stored)
            except EpisodeNotFound:
                continue
        return await self.run(public_state, self.service, target.stored[-1])


async def environment(connection: HTTPConnection) -> Environment:
    """The app's :class:`Environment` (``create_app`` puts it on ``app.state``); for HTTP routes
    and WebSocket sessions alike."""
    env: Environment = connection.app.state.environment
    return env


Env = Annotated[Environment, Depends(environment)]

_bearer = HTTPBearer(auto_error=False)

AUDIT_OFF = ("the audit surface is off: this server listens on {host} and TICKETLEDGER_AUDIT_TOKEN "
             "is not set, and these routes show the answer key. Set TICKETLEDGER_AUDIT_TOKEN (then "
             "send 'Authorization: Bearer <token>', or open /ui?token=<token>), or serve on "
             "127.0.0.1 only (--host 127.0.0.1)")
"""Why the audit surface answers 403, and how to turn it on; also the start-up log line."""


def audit_off_message(settings: Settings) -> str | None:
    """The refusal for every audit request, or ``None`` when the audit surface is served
    (``Settings.audit_surface`` decides; this is the one place that reads it for a request)."""
    if settings.audit_surface == "off":
        return AUDIT_OFF.format(host=settings.host)
    return None


async def require_audit_token(
    env: Env, credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """Audit routes: refused while the audit surface is off; with ``TICKETLEDGER_AUDIT_TOKEN``
    set, they need ``Authorization: Bearer $TICKETLEDGER_AUDIT_TOKEN``."""
    refused = audit_off_message(env.settings)
    if refused:
        raise HTTPException(status_code=403, detail=refused)
    if not env.settings.audit_token:
        return
    if not is_audit_token(credentials.credentials if credentials else "", env.settings):
        raise HTTPException(
            status_code=401,
            detail="audit routes need 'Authorization: Bearer <TICKETLEDGER_AUDIT_TOKEN>'",
            headers={"WWW-Authenticate": "Bearer"},
        )
