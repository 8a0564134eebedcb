"""How every route, WebSocket session and MCP call reaches the environment: one dependency.

``Env`` (``Annotated[Environment, Depends(environment)]``) hands a route the app's
:class:`Environment`: the service, the settings, the HTTP episode routing and the auditor. The
service is blocking (SQLite/PostgreSQL); :meth:`Environment.run` runs its calls inline on the event
loop or in the service's own threads (:class:`ServiceThreads`), as ``Settings.blocking_calls``
says, so no route chooses. In the threads, steps that queue up while the threads are busy are
committed together.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import queue
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Annotated, Any, ParamSpec, TypeVar

from fastapi import Depends, HTTPException
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from api.episode_routing import EpisodeRouter, Opening, Target
from api.listening import listening_addresses, loopback_only
from api.models import PublicState, ResetBody
from api.protocol import public_state
from api.run_access import check_filing, is_audit_token
from domain.rewards import DEFAULT_REWARD_MODE
from service import EnvironmentService, ResetRequest, StepResult
from service.audit_views import Auditor
from service.errors import EpisodeNotFound
from service.settings import Settings
from store.runs import RunStore

P = ParamSpec("P")
T = TypeVar("T")

MODEL_THREADS = 8
"""How many steps may wait on a model (the LLM judge or customer) at once, per server process:
each holds a thread of the model lane for as long as the model takes (``JUDGE_TIMEOUT`` at most),
and none holds a thread a plain step needs."""


class ServiceThreads:
    """The threads the blocking service runs in, fed by the event loop through one queue.

    :meth:`call`, :meth:`reset` and :meth:`step` put the call on a thread-safe queue and await a
    future. Each of ``threads`` threads takes the oldest call; when it is a reset or a step, it
    takes the resets and steps queued right behind it too (up to ``most`` in all) and runs the
    resets as one ``EnvironmentService.reset_many`` and the steps as one ``step_many`` (a
    transaction, one commit, each: a group commit; a step alone as ``step``). Resets go with the
    steps because sessions that finish an episode reset while the others step: a reset that cut a
    batch short would cost the steps behind it a commit of their own. When the server is idle a
    call goes alone at once; under load, batches grow and a commit is shared. With several
    threads (:func:`service_threads` says how many), a slow call (a PostgreSQL commit) holds up
    one thread and its batch; the others go on.

    A step that would call a model (the LLM judge or customer: ``EnvironmentService.needs_model``)
    never runs in these threads: it goes to the model lane, a pool of at most ``model_threads``
    threads of its own, where it waits on the model and is committed alone. A model that takes
    its time therefore holds up only the steps that wait on it, never a step that needs no model,
    however many sessions wait on it at once; beyond ``model_threads`` such steps wait their turn
    in the lane.

    Steps that carry long texts (:func:`is_heavy`: :data:`HEAVY_CHARS` characters or more) go to a
    lane of their own, one more thread with its own queue: grading such a text costs up to a
    hundred times a plain step, and in the one queue a client sending them back to back made every
    other session's steps wait behind each of them. In their lane, heavy steps wait only for each
    other, and a plain step shares the processor with at most one of them at a time.

    Outcomes go back to the event loop with ``loop.call_soon_threadsafe``, each to its own caller:
    its result, or the error its call raised (a fault of a whole batch reaches every step in it);
    a caller that has gone meanwhile (a closed connection: its future cancelled) is skipped. The
    threads start on first use (a server that forks its workers forks none) and stop at
    :meth:`close` (the app's shutdown); they are daemon threads, so an app that is never shut down
    does not keep its process alive.

    With ``at_once`` (:func:`runs_at_once`), a reset or a plain step that finds the plain lane idle
    (nothing of it queued or running) runs at once on the event loop instead: the hand-off to a
    thread and back costs two thread wake-ups, and on a busy machine each of them waits for a core,
    which is most of what a sequential client waited for. At most one call a turn of the event loop
    runs so; calls that arrive together (sessions whose frames came in at once) find the turn taken
    and queue, so the threads still commit them in batches.
    """

    def __init__(self, service: EnvironmentService, threads: int = 4, most: int = 16,
                 model_threads: int = MODEL_THREADS, at_once: bool = False):
        self.service = service
        self.threads = threads
        self.most = most
        self.model_threads = model_threads
        self.at_once = at_once
        self._waiting = 0  # plain-lane resets and steps queued or running, counted on the loop
        self._turn_taken = False  # a call ran at once in this turn of the event loop
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._heavy_jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._running: list[tuple[threading.Thread, queue.SimpleQueue[_Job]]] = []
        self._lock = threading.Lock()
        self._models: ThreadPoolExecutor | None = None

    async def call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)`` in one of the threads."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._put(_Call(functools.partial(fn, *args, **kwargs), future, loop))
        return await future

    async def step(self, episode_id: str, action: dict[str, object]) -> StepResult:
        """``EnvironmentService.step(episode_id, action)`` in one of the threads, perhaps committed
        with other steps that queued meanwhile, or at once when the plain lane is idle (the class
        docstring)."""
        loop = asyncio.get_running_loop()
        heavy = is_heavy(action)
        if not heavy and self._may_run_at_once(loop):
            return self.service.step(episode_id, action)
        future: asyncio.Future[StepResult] = loop.create_future()
        self._put(_Step(episode_id, action, future, loop), heavy=heavy)
        return await (future if heavy else self._counted(future))

    async def reset(self, request: ResetRequest, check: Callable[[], None] | None = None
                    ) -> StepResult:
        """``EnvironmentService.reset`` of ``request`` in one of the threads, perhaps committed
        with other resets that queued meanwhile, or at once when the plain lane is idle (the class
        docstring); ``check``, when given, runs first, and its error is this reset's (a run
        filing refused, say)."""
        loop = asyncio.get_running_loop()
        if self._may_run_at_once(loop):
            if check is not None:
                check()
            return self.service.reset(**dataclasses.asdict(request))
        future: asyncio.Future[StepResult] = loop.create_future()
        self._put(_Reset(request, check, future, loop))
        return await self._counted(future)

    def _may_run_at_once(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Whether a reset or a plain step may run on the event loop now (the class docstring);
        if so, this turn of the loop is taken."""
        if not self.at_once or self._waiting or self._turn_taken:
            return False
        self._turn_taken = True
        loop.call_soon(self._next_turn)  # runs in the loop's next turn, not this one
        return True

    def _next_turn(self) -> None:
        self._turn_taken = False

    async def _counted(self, future: asyncio.Future[StepResult]) -> StepResult:
        """``future``'s result, counted among the plain lane's calls meanwhile."""
        self._waiting += 1
        try:
            return await future
        finally:
            self._waiting -= 1

    def close(self) -> None:
        """Stop the threads once the calls queued before this are done (a later call starts
        them again)."""
        with self._lock:
            running, self._running = self._running, []
            for _, jobs in running:
                jobs.put(_STOP)
        for thread, _ in running:
            thread.join()
        with self._lock:
            models, self._models = self._models, None
        if models is not None:
            models.shutdown(wait=True)

    def _put(self, job: _Call | _Reset | _Step, heavy: bool = False) -> None:
        if not self._running:
            self._start()
        (self._heavy_jobs if heavy else self._jobs).put(job)

    def _start(self) -> None:
        with self._lock:
            if self._running:
                return
            lanes = [self._jobs] * self.threads + [self._heavy_jobs]
            for n, jobs in enumerate(lanes):
                heavy = jobs is self._heavy_jobs
                name = "ticketledger-service-heavy" if heavy else f"ticketledger-service-{n}"
                thread = threading.Thread(target=self._serve, args=(jobs,), daemon=True, name=name)
                thread.start()
                self._running.append((thread, jobs))

    def _serve(self, jobs: queue.SimpleQueue[_Job]) -> None:
        """One thread: the calls of its queue one by one, resets and steps in batches, until
        :meth:`close` says stop."""
        job = jobs.get()
        while not isinstance(job, _Stop):
            if isinstance(job, _Call):
                try:
                    settled: _Settled = (job.future, job.fn(), None)
                except BaseException as exc:  # the caller's to handle, not this thread's
                    settled = (job.future, None, exc)
                _hand_back(job.loop, [settled])
                job = jobs.get()
                continue
            batch: list[_Reset | _Step] = [job]
            following: _Job | None = None
            while len(batch) < self.most:
                try:
                    following = jobs.get_nowait()
                except queue.Empty:
                    following = None
                    break
                if not isinstance(following, (_Reset, _Step)):
                    break  # the next job, once this batch is done
                batch.append(following)
                following = None
            if jobs is self._heavy_jobs:
                self._run_heavy(batch)
            else:
                self._run(batch)
            job = following if following is not None else jobs.get()

    def _run_heavy(self, batch: list[_Reset | _Step]) -> None:
        """:meth:`_run` of a heavy batch, with the interpreter's switch interval at
        :data:`HEAVY_SWITCH_INTERVAL` meanwhile: grading holds the GIL, and a plain step's thread
        (and the event loop) waiting for it would otherwise wait 5 ms at each of its turns."""
        usual = sys.getswitchinterval()
        sys.setswitchinterval(min(usual, HEAVY_SWITCH_INTERVAL))
        try:
            self._run(batch)
        finally:
            sys.setswitchinterval(usual)

    def _run(self, batch: list[_Reset | _Step]) -> None:
        """The batch's resets, then its steps; each group's callers get their outcomes as soon as
        that group is committed (a reset does not wait for the steps' commit)."""
        resets = [job for job in batch if isinstance(job, _Reset)]
        steps = [job for job in batch if isinstance(job, _Step)]
        if resets:
            _settle_jobs(resets, self._open(resets))
        steps = self._without_model_steps(steps)
        if steps:
            _settle_jobs(steps, self._step(steps))

    def _without_model_steps(self, steps: list[_Step]) -> list[_Step]:
        """``steps`` less those that would call a model, which go to the model lane (the class
        docstring)."""
        service = self.service
        if service.judge is None and service.customer is None:
            return steps
        plain: list[_Step] = []
        for job in steps:
            try:
                waits = service.needs_model(job.episode_id, job.action)
            except Exception:  # the step itself reports what is wrong, in this thread
                waits = False
            if waits:
                self._lane().submit(self._model_step, job)
            else:
                plain.append(job)
        return plain

    def _lane(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._models is None:
                self._models = ThreadPoolExecutor(max_workers=self.model_threads,
                                                  thread_name_prefix="ticketledger-model")
            return self._models

    def _model_step(self, job: _Step) -> None:
        """In the model lane: one step, alone (its model call, then its commit)."""
        outcome: StepResult | BaseException
        try:
            outcome = self.service.step(job.episode_id, job.action)
        except BaseException as exc:  # the caller's to handle, not this thread's
            outcome = exc
        _settle_jobs([job], [outcome])

    def _open(self, resets: list[_Reset]) -> list[StepResult | BaseException]:
        """Each reset's outcome: its check's error, or what one ``reset_many`` of the resets
        whose checks passed made of it (a fault of that call reaches every one of them)."""
        outcomes: list[StepResult | BaseException | None] = []
        for job in resets:
            try:
                if job.check is not None:
                    job.check()
                outcomes.append(None)
            except BaseException as exc:  # the caller's to handle, not this thread's
                outcomes.append(exc)
        admitted = [job.request for job, o in zip(resets, outcomes, strict=True) if o is None]
        opened: Sequence[StepResult | BaseException]
        try:
            opened = self.service.reset_many(admitted) if admitted else []
        except BaseException as exc:
            opened = [exc] * len(admitted)
        results = iter(opened)
        return [next(results) if o is None else o for o in outcomes]

    def _step(self, steps: list[_Step]) -> Sequence[StepResult | BaseException]:
        """Each step's outcome, from one ``step_many`` (``step`` for one alone); a fault of the
        whole batch reaches every step in it."""
        try:
            if len(steps) == 1:
                return [self.service.step(steps[0].episode_id, steps[0].action)]
            return self.service.step_many([(s.episode_id, s.action) for s in steps])
        except BaseException as exc:
            return [exc] * len(steps)


HEAVY_CHARS = 1_000
"""A step whose action carries this many characters of text or more is a heavy one
(:func:`is_heavy`). Grading costs about as much per character whatever the action, so the length
of the text a step brings is what tells a costly step from a plain one before it runs; honest
replies are mostly shorter, and one this long that waits waits only behind other long ones."""


HEAVY_SWITCH_INTERVAL = 0.001
"""The interpreter's switch interval (seconds) while a heavy step runs: how long another thread
waits for the GIL, at most, before the grading thread hands it over."""


def is_heavy(action: object) -> bool:
    """Whether the step ``action`` (the body's action, as parsed JSON) brings
    :data:`HEAVY_CHARS` characters of text or more, in any of its fields."""
    if not isinstance(action, dict):
        return False
    return sum(len(v) for k, v in action.items()
               if isinstance(v, str) and k != "action_type") >= HEAVY_CHARS


@dataclass(slots=True)
class _Call:
    fn: Callable[[], Any]
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop


@dataclass(slots=True)
class _Reset:
    request: ResetRequest
    check: Callable[[], None] | None
    future: asyncio.Future[StepResult]
    loop: asyncio.AbstractEventLoop


@dataclass(slots=True)
class _Step:
    episode_id: str
    action: dict[str, object]
    future: asyncio.Future[StepResult]
    loop: asyncio.AbstractEventLoop


class _Stop:
    """What :meth:`ServiceThreads.close` queues, once per thread."""


_STOP = _Stop()

_Job = _Call | _Reset | _Step | _Stop

_Settled = tuple[asyncio.Future[Any], Any, BaseException | None]
"""A caller's future and its outcome: the result, or the error (not None)."""


def _settle_jobs(jobs: Sequence[_Reset | _Step],
                 outcomes: Sequence[StepResult | BaseException]) -> None:
    """Hand each job's outcome back to its caller's event loop, one hand-off per loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[_Settled]] = {}
    for job, outcome in zip(jobs, outcomes, strict=True):
        by_loop.setdefault(job.loop, []).append(
            (job.future, None, outcome) if isinstance(outcome, BaseException)
            else (job.future, outcome, None))
    for loop, settled in by_loop.items():
        _hand_back(loop, settled)


def _hand_back(loop: asyncio.AbstractEventLoop, settled: list[_Settled]) -> None:
    with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits for these now
        loop.call_soon_threadsafe(_settle, settled)


def _settle(settled: list[_Settled]) -> None:
    """In the event loop: each caller's outcome, unless it has gone (its future cancelled)."""
    for future, result, error in settled:
        if future.done():
            continue
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)


def runs_at_once(service: EnvironmentService, settings: Settings) -> bool:
    """Whether an idle server runs a reset or a plain step at once on the event loop
    (``ServiceThreads``' ``at_once``): under ``TICKETLEDGER_BLOCKING_CALLS=auto``, where the server
    runs one service thread (:func:`service_threads`: SQLite with no LLM judge or customer).

    Why only there: such a call is the processor's work (deciding, grading, hashing) and a commit
    that writes the WAL without waiting for the disk (``synchronous=NORMAL``; the fsync is the
    checkpoint's, in a thread of its own), and the one thread would hold every other call up for
    as long anyway; the loop is held about as long as that thread would hold the interpreter's
    lock. Where calls wait without the GIL (a PostgreSQL commit, a model's answer) they wait in
    the threads, so that a slow one holds up no other session."""
    return settings.blocking_calls == "auto" and service_threads(service) == 1


def service_threads(service: EnvironmentService) -> int:
    """How many service threads an app runs: one on SQLite with no LLM judge or customer, four
    otherwise.

    Why: SQLite takes one writer at a time, and a step's deciding, grading and statements hold the
    GIL, so a second thread adds no throughput, only a convoy: threads queueing for the GIL at every
    statement while the one holding the write turn waits its turn too. Measured with 256 ``/ws``
    sessions on a 2-core machine, one run each way: 1 thread 1,005 steps/s back to back and a p99
    of 44 ms with 0.5 s of thinking; 2 threads 969 and 87 ms; 4 threads 869 and 85 ms. The WAL
    checkpoint, the one slow database call, runs in a thread of its own (``store.checkpoint``).
    PostgreSQL's commits and an LLM's answers wait on a disk or a network without the GIL, so
    there four threads overlap them. A step that waits on a model runs in the model lane, not in
    these threads (:class:`ServiceThreads`)."""
    llm = service.judge is not None or service.customer is not None
    return 1 if service.db.dialect == "sqlite" and not llm else 4


class Environment:
    """The environment service as the API uses it, one per app."""

    def __init__(self, service: EnvironmentService, settings: Settings):
        self.service = service
        self.settings = settings
        self.episodes = EpisodeRouter()
        self.auditor = Auditor(service.db, service.catalog)
        self.runs = RunStore(service.db)
        # An LLM judge or customer is a network call inside a step: never on the event loop,
        # whatever TICKETLEDGER_BLOCKING_CALLS says.
        self.inline = (settings.blocking_calls == "inline" and service.judge is None
                       and service.customer is None)
        self.threads = ServiceThreads(service, threads=service_threads(service),
                                      at_once=runs_at_once(service, settings))

    def close(self) -> None:
        """Stop the service threads (the app's shutdown)."""
        self.threads.close()

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)``, on the event loop or in the service threads (module docstring)."""
        if self.inline:
            return fn(*args, **kwargs)
        return await self.threads.call(fn, *args, **kwargs)

    async def reset(self, body: ResetBody, opening: Opening,
                    connection: HTTPConnection | None) -> StepResult:
        """Open the episode ``opening`` says (``api.episode_routing``: a scoped id for an id the
        client chose, whose opening event records the id as chosen), for the client of
        ``connection`` (an HTTP request or a WebSocket handshake; None inside this process):
        filed under ``body.run_id`` only if it may (``api.run_access``), else nothing is written."""
        request = ResetRequest(body.task_id, body.seed, opening.stored, body.run_id,
                               body.reward_mode or DEFAULT_REWARD_MODE, opening.public,
                               body.split, body.index)
        check = (None if body.run_id is None else
                 functools.partial(check_filing, self.runs, self.settings, connection, body.run_id))
        if self.inline:
            if check is not None:
                check()
            return self.service.reset(**dataclasses.asdict(request))
        return await self.threads.reset(request, check)

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
        return await self.threads.step(episode_id, action)

    async def end(self, target: Target, reason: str) -> StepResult:
        """End the first of the target's stored ids that exists from outside a step
        (``EnvironmentService.end``), as :meth:`step` picks it."""
        for stored in target.stored[:-1]:
            try:
                return await self.run(self.service.end, stored, reason)
            except EpisodeNotFound:
                continue
        return await self.run(self.service.end, target.stored[-1], reason)

    async def state(self, target: Target) -> PublicState:
        """The public state of the first of the target's stored ids that exists (as :meth:`step`)."""
        return await self.run(self._state, target)

    def _state(self, target: Target) -> PublicState:
        for stored in target.stored[:-1]:
            try:
                return public_state(self.service, stored)
            except EpisodeNotFound:
                continue
        return public_state(self.service, target.stored[-1])


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
"""Why the audit surface answers 403, and how to turn it on; also the server's log line."""

log = logging.getLogger("ticketledger.api")
_announced: list[str] = []
"""The off message this process has logged (at most one: the log says it once)."""


def announce_audit_off(host: str) -> None:
    """Log, once per process, that the audit surface is off on ``host``: ``ticketledger serve``
    does at start-up when it binds a non-loopback address without a token, and a request refused
    for it does, when nothing has said so yet (``uvicorn server.app:app --host 0.0.0.0``)."""
    if not _announced:
        _announced.append(host)
        log.warning(AUDIT_OFF.format(host=host))


def audit_off_message(settings: Settings, connection: HTTPConnection) -> str | None:
    """The refusal for an audit request on ``connection``, or ``None`` when the audit surface is
    served to it: with ``TICKETLEDGER_AUDIT_TOKEN`` set (the routes then ask for it), or when the
    server listens on loopback addresses only and the connection arrived on one
    (``api.listening``: the sockets really bound, never ``HOST``). The one place the rule is
    applied to a request."""
    if settings.audit_token:
        return None
    local = connection.scope.get("server")
    if loopback_only(local):
        return None
    port = local[1] if local and len(local) == 2 and isinstance(local[1], int) else None
    bound = listening_addresses(port) if port is not None else None
    host = ", ".join(sorted(bound)) if bound else (str(local[0]) if local else "an unknown address")
    announce_audit_off(host)
    return AUDIT_OFF.format(host=host)


async def require_audit_token(
    env: Env, connection: HTTPConnection,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """Audit routes: refused while the audit surface is off for this connection; with
    ``TICKETLEDGER_AUDIT_TOKEN`` set, they need ``Authorization: Bearer $TICKETLEDGER_AUDIT_TOKEN``."""
    refused = audit_off_message(env.settings, connection)
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
