"""``EnvironmentService``: reset, step and state over the event log.

Each step: take the episode's folded state, ``decide``, grade, and append everything in one
transaction that states the sequence number it follows. The folded state is cached per episode, but
the cache is only ever a fold of the log: the append is conditional on the cached head, so a cache
that another process made stale is caught by the append itself (nothing is written), refreshed from
the log, and the step decided once more on the fresh state. Only a step that loses that second
race too is refused (409). Reads (``state``, ``head``) check the stored head first.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from domain import events as ev
from domain.actions import ActionPlan, InvalidAction, parse_action
from domain.decide import EpisodeFinished, UnknownClosing, decide, scripted_answer, start
from domain.decide import end as end_episode
from domain.ids import id_rule, is_id
from domain.observation import Observation, PublicGrade, observe
from domain.rewards import DEFAULT_REWARD_MODE, UnknownRewardMode, check_reward_mode
from domain.state import EMPTY, EpisodeState, evolve, fold
from domain.tasks.catalog import Catalog, UnknownTask, default_catalog
from graders import to_float
from graders.safety import CAP_UNITS
from graders.versions import CURRENT, GraderRetired, StepGradeView, grader_of
from service import customer as customers
from service import judge as judging
from service.errors import (
    BadRequest,
    EpisodeBusy,
    EpisodeEnded,
    EpisodeNotFound,
    GraderRetiredError,
    ServiceError,
)
from store import Conflict, Database, NotFound, open_database
from store.eventstore import EventStore
from store.memory import MemoryEventStore
from store.protocol import EventLog
from store.records import Append, Create, Projection, RecordedEvent

CACHE_SIZE = 1024
"""Folded states kept per process, the least recently used dropped first (a dropped episode is
folded from its log when next used, about a millisecond). Four times a worker's default session
cap (``TICKETLEDGER_MAX_SESSIONS``, 256): the episodes in play and those just ended, whose state a
client often reads once more. Not more, because every cached state is some 40 objects that each of
the garbage collector's full collections walks while the event loop serving every session waits:
with 4,096 states a full collection took over 100 ms on a 2-core machine."""
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1
"""The episode index stores the seed as a signed 64-bit integer (BIGINT)."""


def new_episode_id() -> str:
    """Random, unguessable episode ids (not sequence numbers)."""
    return "ep_" + secrets.token_hex(16)  # 128 random bits


def check_episode_id(episode_id: str) -> str:
    """A client-chosen episode id (reset, fork, the audit routes) follows ``domain.ids``."""
    if not is_id(episode_id):
        raise BadRequest(id_rule("episode_id", episode_id))
    return episode_id


def to_domain(recorded: RecordedEvent) -> ev.Event:
    return ev.upcast(recorded.type, recorded.version, recorded.data)


class _Cached(NamedTuple):
    state: EpisodeState
    seq: int
    head: str


class _Opening(NamedTuple):
    """A reset decided but not yet written: the opening state and the stream to create."""

    state: EpisodeState
    create: Create


@dataclass(frozen=True, slots=True)
class ResetRequest:
    """One episode to open: what :meth:`EnvironmentService.reset` takes, as one item of
    :meth:`EnvironmentService.reset_many` (a ``(task_id, seed)`` pair is one with the defaults)."""

    task_id: str | None = None
    seed: int | None = None
    episode_id: str | None = None
    run_id: str | None = None
    reward_mode: str = DEFAULT_REWARD_MODE
    public_id: str | None = None
    split: str | None = None
    index: int | None = None


class _Decided(NamedTuple):
    """A step decided and graded but not yet written (named tuples, like the store's records: one
    of these is built per step)."""

    state: EpisodeState
    grade: StepGradeView
    append: Append


class _Item(NamedTuple):
    """One step of a ``step_many`` batch to decide: its place in the batch, the state it is decided
    on (``unchecked``: the cached one, not read from the log first), and the judge verdicts and
    customer replies it already obtained (kept for a second decision, as :meth:`step` keeps them)."""

    place: int
    episode_id: str
    plan: ActionPlan
    base: _Cached
    unchecked: bool
    verdicts: dict[str, Any]


_ITEM_ERRORS = (ServiceError, InvalidAction, UnknownTask)
"""What a batch returns in an item's place: the errors :meth:`EnvironmentService.step` and
``reset`` raise for bad input (anything else is a fault and propagates)."""

_UNKNOWN: Any = (-1, "")
"""A batch's head lookup found no such episode."""

_PENDING: Any = object()
"""Placeholder in a batch's results for an item whose write is still to come."""


def _status(state: EpisodeState) -> str:
    """The episode index's status of ``state`` (``store.eventstore.Projection``)."""
    return "ended" if state.done else "open"


def settle(before: EpisodeState, step_events: Sequence[ev.Event], after: EpisodeState
           ) -> tuple[EpisodeState, StepGradeView, tuple[ev.Event, ...]]:
    """Grade a decided step (``before`` -> ``step_events`` -> ``after``) and fold its grade in:
    the state after the step, its grade and every event the step records. The one place a step
    is graded (grader-eval grades its branches of a kept state here too)."""
    grade = grader_of(before).grade_step(before, list(step_events), after)
    graded = grade.to_event()
    return evolve(after, graded), grade, (*step_events, graded)


def resolve_split(catalog: Catalog, split: str | None, index: int | None,
                  task_id: str | None = None, seed: int | None = None) -> tuple[str, int]:
    """The ``(task_id, seed)`` of instance ``index`` of ``split`` (the committed manifest); a
    BadRequest says the valid splits or index range, or that task_id and seed do not go with it."""
    if task_id is not None or seed is not None:
        raise BadRequest("split and index choose the task and seed; send either split and index or "
                         "task_id and seed, not both")
    if split is None or index is None:
        raise BadRequest("split and index go together: name a split (train, dev or test) and an "
                         "index in it, from 0")
    try:
        ref = catalog.split_instance(split, index)
    except ValueError as exc:
        raise BadRequest(str(exc)) from None
    return ref.task_id, ref.seed


@dataclass(frozen=True)
class StepResult:
    """What reset and step return. ``grade`` is None after reset. ``reward`` is in the episode's
    reward mode (``domain.rewards``); ``grade.reward`` is always the dense bookkeeping."""

    episode_id: str
    observation: Observation
    reward: float | None
    done: bool
    state: EpisodeState
    grade: StepGradeView | None
    seq: int
    head_hash: str

    @property
    def score(self) -> float:
        return self.state.score

    @cached_property
    def public_grade(self) -> PublicGrade | None:
        """Why the step earned its reward, as the agent may see it (None after reset): the one
        place a step's public grade is built, which every transport answers with
        (``api.protocol``, ``baseline.envs``)."""
        if self.grade is None:
            return None
        return PublicGrade.of(self.grade.to_event(), self.grade.public_reason(),
                              to_float(CAP_UNITS))


class EnvironmentService:
    """Many episodes at once, safe to call from several threads."""

    def __init__(self, db: Database | None = None, catalog: Catalog | None = None,
                 *, store: EventLog | None = None, cache_size: int = CACHE_SIZE,
                 judge: judging.LLMJudge | None = None,
                 customer: customers.LLMCustomer | None = None):
        """``db``: the SQL database the log is kept in (default: the configured one, ``DATABASE_URL``).
        ``store``: a log of another backend instead, such as :meth:`in_memory`'s; the service steps
        the same on any :class:`~store.protocol.EventLog`."""
        if store is not None and db is not None:
            raise ValueError("give the service a database or a store, not both")
        self._db = db if db is not None or store is not None else open_database()
        self.store: EventLog = store if store is not None else EventStore(self.db)
        self.catalog = catalog if catalog is not None else default_catalog()
        self.judge = judge
        """The LLM reply judge new episodes get (None: the deterministic judge only)."""
        self.customer = customer
        """The LLM customer new episodes get (None: the scripted customer only)."""
        self._cache: OrderedDict[str, _Cached] = OrderedDict()
        self._cache_size = cache_size
        self._guard = threading.Lock()
        self._busy: set[str] = set()

    @classmethod
    def in_memory(cls, catalog: Catalog | None = None) -> EnvironmentService:
        """A service whose log is kept in the process (:class:`~store.memory.MemoryEventStore`),
        written nowhere and gone with the service: what offline play runs on (the grader audit,
        ``tasks verify``, ``evaluation.play``), so it plays exactly the step every client gets.
        The deterministic judge and the scripted customer, as on a server without models."""
        return cls(catalog=catalog, store=MemoryEventStore())

    @property
    def db(self) -> Database:
        """The SQL database the log is kept in; a service on another store has none (the audit
        views, runs and regrades read a database)."""
        if self._db is None:
            raise TypeError("this service keeps its log in a store without a database "
                            f"({type(self.store).__name__})")
        return self._db

    # ------------------------------------------------------------------ reset
    def reset(self, task_id: str | None = None, seed: int | None = None,
              episode_id: str | None = None, *, run_id: str | None = None,
              reward_mode: str = DEFAULT_REWARD_MODE, public_id: str | None = None,
              split: str | None = None, index: int | None = None) -> StepResult:
        """Start a new episode. Without ``task_id`` the task is picked from ``seed``.
        ``split`` and ``index``: instance ``index`` of a frozen split of the task families
        (train, dev, test; :func:`resolve_split`), instead of ``task_id`` and ``seed``.
        ``reward_mode`` (``domain.rewards``): dense (default), sparse or binary. ``public_id``:
        the id the client knows the episode by when it is stored under another
        (``api.episode_routing``: a client-chosen id, scoped); the opening event, and so the
        state and every observation, carry it."""
        outcome = self.reset_many([ResetRequest(task_id, seed, episode_id, run_id, reward_mode,
                                                public_id, split, index)])[0]
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def reset_many(self, requests: Sequence[ResetRequest | tuple[str | None, int | None]], *,
                   run_id: str | None = None) -> list[StepResult | Exception]:
        """Start several episodes with ONE commit for all of them: each a :class:`ResetRequest`
        (what :meth:`reset` takes) or a ``(task_id, seed)`` pair; ``run_id`` files every item
        that names no run of its own.

        The vector form of :meth:`reset` (see :meth:`step_many`); the API's service threads open
        the resets that queue up together this way. Each item's outcome is its own: a result, or
        the error :meth:`reset` would have raised for it (returned, not raised).
        """
        out: list[StepResult | Exception] = []
        openings: list[_Opening] = []
        for item in requests:
            r = item if isinstance(item, ResetRequest) else ResetRequest(*item)
            try:
                task_id, seed = r.task_id, r.seed
                if r.split is not None or r.index is not None:
                    task_id, seed = resolve_split(self.catalog, r.split, r.index, task_id, seed)
                openings.append(self._open(task_id, seed, r.episode_id,
                                           r.run_id if r.run_id is not None else run_id,
                                           r.reward_mode, r.public_id))
                out.append(_PENDING)
            except _ITEM_ERRORS as exc:
                out.append(exc)
        written = iter(self.store.create_many([o.create for o in openings]))
        pending = iter(openings)
        for index, outcome in enumerate(out):
            if outcome is _PENDING:
                try:
                    out[index] = self._opened(next(pending), next(written))
                except EpisodeBusy as exc:
                    out[index] = exc
        return out

    def _open(self, task_id: str | None, seed: int | None, episode_id: str | None,
              run_id: str | None, reward_mode: str = DEFAULT_REWARD_MODE,
              public_id: str | None = None) -> _Opening:
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise BadRequest("seed must be an integer")
        if seed is not None and not SEED_MIN <= seed <= SEED_MAX:
            raise BadRequest(f"seed must be a 64-bit integer, between {SEED_MIN} and {SEED_MAX}")
        try:
            mode = check_reward_mode(reward_mode)
        except UnknownRewardMode as exc:
            raise BadRequest(str(exc)) from None
        chosen = task_id if task_id is not None else self.catalog.pick_task_id(seed)
        variant = self.catalog.variant(chosen, seed)  # UnknownTask -> 404 in the API
        episode_id = check_episode_id(episode_id) if episode_id is not None else new_episode_id()
        first = start(public_id or episode_id, variant, run_id=run_id, grader_version=CURRENT,
                      judge="llm" if self.judge is not None else "deterministic", reward_mode=mode,
                      customer="llm" if self.customer is not None else "scripted")
        return _Opening(evolve(EMPTY, first),
                        Create(episode_id, first.task_id, seed, (first,),
                               Projection("open", 0, 0.0), run_id))

    def _opened(self, opening: _Opening, recorded: list[RecordedEvent] | Conflict) -> StepResult:
        if isinstance(recorded, Conflict):
            # worded with the id the client chose, which the opening event holds
            raise EpisodeBusy(f"episode id {opening.state.episode_id!r} is already in use; omit "
                              "episode_id to get a fresh one")
        episode_id, state = opening.create.episode_id, opening.state
        self._remember(episode_id, _Cached(state, recorded[-1].seq, recorded[-1].hash))
        return StepResult(episode_id, observe(state, self.catalog), None, False, state, None,
                          recorded[-1].seq, recorded[-1].hash)

    # ------------------------------------------------------------------- step
    def step(self, episode_id: str, action: Any) -> StepResult:
        """Apply one action. Raises InvalidAction (422), EpisodeEnded / EpisodeBusy (409),
        EpisodeNotFound (404). Nothing is written unless the whole step is recorded."""
        plan = parse_action(action)
        self._claim(episode_id)
        verdicts: dict[str, Any] = {}
        try:
            cached = self._cached(episode_id)
            decided = self._decide(episode_id, plan, cached or self._current(episode_id), verdicts)
            recorded = self._append(decided)
            if isinstance(recorded, Conflict) and cached is not None:
                # Decided on a cache another process made stale: once more, from the log.
                self._forget(episode_id)
                decided = self._decide(episode_id, plan, self._current(episode_id), verdicts)
                recorded = self._append(decided)
            return self._stepped(decided, recorded)
        finally:
            self._release(episode_id)

    def end(self, episode_id: str, reason: str) -> StepResult:
        """End an open episode from outside a step, with ``reason`` (``domain.events.CLOSINGS``:
        ``cut_off``, ``disconnected``): the closing ``domain.decide.end`` decides, appended as a
        step is (chained to the head it was decided on, claimed like a step, decided once more on
        the log's state if another process moved the head). Nothing is graded or paid: the
        episode keeps its score, and ``truncated`` is true. Raises EpisodeEnded (409) when it has
        already ended, EpisodeNotFound (404), EpisodeBusy (409) and BadRequest for another reason.
        The answer is a reset's shape: no reward, no grade."""
        self._claim(episode_id)
        try:
            cached = self._cached(episode_id)
            after, recorded = self._close(episode_id, cached or self._current(episode_id), reason)
            if isinstance(recorded, Conflict) and cached is not None:
                # Decided on a cache another process made stale: once more, from the log.
                self._forget(episode_id)
                after, recorded = self._close(episode_id, self._current(episode_id), reason)
            if isinstance(recorded, Conflict):
                self._forget(episode_id)
                raise EpisodeBusy(str(recorded))
            self._remember(episode_id, _Cached(after, recorded[-1].seq, recorded[-1].hash))
            return StepResult(episode_id, observe(after, self.catalog), None, True, after, None,
                              recorded[-1].seq, recorded[-1].hash)
        finally:
            self._release(episode_id)

    def _close(self, episode_id: str, cached: _Cached, reason: str
               ) -> tuple[EpisodeState, list[RecordedEvent] | Conflict]:
        """Decide the closing of ``cached``'s episode and append it on ``cached``'s head: the
        state after it, and what the store said."""
        try:
            events = end_episode(cached.state, reason)
        except EpisodeFinished as exc:
            raise EpisodeEnded(str(exc)) from None
        except UnknownClosing as exc:
            raise BadRequest(str(exc)) from None
        after = fold(events, cached.state)
        try:
            return after, self.store.append(
                episode_id, cached.seq, cached.head, events,
                Projection(_status(after), after.step_count, after.score),
                expected_status=_status(cached.state))
        except Conflict as exc:
            return after, exc

    def needs_model(self, episode_id: str, action: Any) -> bool:
        """Whether stepping ``episode_id`` with ``action`` now would call a model: the LLM
        customer for a message it must answer, or the LLM judge for a prompt it has not answered.
        Writes nothing and claims nothing; a step that would fail needs no model (it fails at
        once). The API runs the steps that do outside the threads plain steps need
        (``api.deps.ServiceThreads``), so a slow model holds up only the steps that wait on it."""
        if self.judge is None and self.customer is None:
            return False
        try:
            plan = parse_action(action)
            cached = self._cached(episode_id) or self._current(episode_id)
            step_events = decide(cached.state, plan)
        except (EpisodeFinished, *_ITEM_ERRORS):
            return False
        before = cached.state
        if (self.customer is not None and before.customer != "scripted"
                and any(isinstance(e, ev.CustomerMessaged) for e in step_events)):
            return True
        if self.judge is None or before.judge != "llm":
            return False
        return judging.needed(fold(step_events, before), self.catalog, self.judge.model) is not None

    def _append(self, decided: _Decided) -> list[RecordedEvent] | Conflict:
        a = decided.append
        try:
            return self.store.append(a.episode_id, a.expected_seq, a.prev_hash, a.new, a.projection,
                                     expected_status=a.expected_status)
        except Conflict as exc:
            return exc

    def step_many(self, steps: Sequence[tuple[str, Any]]) -> list[StepResult | Exception]:
        """Step several episodes, ``(episode_id, action)`` each, with ONE commit for all of them.

        The vector form of :meth:`step`, for trainers that run a batch of episodes side by side
        (Gymnasium's vector environments): every step is decided, graded and recorded exactly as
        :meth:`step` would, and the batch is appended in one transaction, so a durable log costs
        one commit per batch instead of one per step. No result is returned before that commit.
        Each item's outcome is its own: a result, or the error :meth:`step` would have raised for
        it (returned, not raised); an episode may appear once per batch.

        As in :meth:`step`, a step is decided on the episode's cached state without reading its
        head first (the append states the head it follows); a step that another process's append
        made stale is decided once more on the log's state and written in a second transaction,
        and only one that loses that race too is refused. Episodes not cached here are read in
        one query.
        """
        out: list[StepResult | Exception | _Decided] = []
        claimed: list[str] = []
        try:
            found: list[tuple[int, str, ActionPlan, _Cached | None]] = []
            for episode_id, action in steps:
                try:
                    plan = parse_action(action)
                    self._claim(episode_id)
                    claimed.append(episode_id)
                    found.append((len(out), episode_id, plan, self._cached(episode_id)))
                    out.append(_PENDING)
                except _ITEM_ERRORS as exc:
                    out.append(exc)
            heads = self.store.heads([eid for _, eid, _, cached in found
                                      if cached is None and is_id(eid)])
            to_decide: list[_Item] = []
            for index, episode_id, plan, cached in found:
                try:
                    base = cached or self._current(episode_id, heads.get(episode_id, _UNKNOWN))
                    to_decide.append(_Item(index, episode_id, plan, base, cached is not None, {}))
                except _ITEM_ERRORS as exc:
                    out[index] = exc
            written = self._write_many(to_decide, out)
            again: list[_Item] = []
            for item in to_decide:
                if item.unchecked and isinstance(written.get(item.place), Conflict):
                    # Decided on a cache another process made stale: once more, from the log.
                    self._forget(item.episode_id)
                    try:
                        again.append(item._replace(base=self._current(item.episode_id),
                                                   unchecked=False))
                    except _ITEM_ERRORS as exc:
                        out[item.place] = exc
            written.update(self._write_many(again, out))
            results: list[StepResult | Exception] = []
            for index, outcome in enumerate(out):
                if isinstance(outcome, _Decided):
                    try:
                        results.append(self._stepped(outcome, written[index]))
                    except ServiceError as exc:
                        results.append(exc)
                else:
                    results.append(outcome)
            return results
        finally:
            for episode_id in claimed:
                self._release(episode_id)

    def _write_many(self, items: Sequence[_Item], out: list[StepResult | Exception | _Decided]
                    ) -> dict[int, list[RecordedEvent] | Conflict]:
        """Decide ``items`` (into their places in ``out``) and append the decided ones in one
        transaction; what the store said of each, by index in ``out``."""
        for index, outcome in self._decide_each(items):
            out[index] = outcome
        decided = [(item.place, d) for item in items if isinstance(d := out[item.place], _Decided)]
        written = self.store.append_many([d.append for _, d in decided])
        return {index: w for (index, _), w in zip(decided, written, strict=True)}

    def _decide_each(self, items: Sequence[_Item]) -> list[tuple[int, _Decided | Exception]]:
        """:meth:`_decide` for each item of a batch. With an LLM judge, in threads, so the batch
        waits for its slowest judge call rather than the sum of them (the steps are of different
        episodes, each claimed; deciding reads nothing shared but the cache, which is locked)."""
        def one(item: _Item) -> tuple[int, _Decided | Exception]:
            try:
                return item.place, self._decide(item.episode_id, item.plan, item.base, item.verdicts)
            except _ITEM_ERRORS as exc:
                return item.place, exc

        if (self.judge is None and self.customer is None) or len(items) < 2:
            return [one(item) for item in items]
        with ThreadPoolExecutor(max_workers=min(len(items), 16),
                                thread_name_prefix="judge-batch") as pool:
            return list(pool.map(one, items))

    def _decide(self, episode_id: str, plan: ActionPlan, cached: _Cached,
                verdicts: dict[str, Any] | None = None) -> _Decided:
        """Everything of a step but the write: the events, the grade and the state after them,
        decided on ``cached`` (the append states its head). ``verdicts``: judge verdicts already
        obtained for this step, by prompt digest (:meth:`_judged`)."""
        try:
            step_events = decide(cached.state, plan)
        except EpisodeFinished as exc:
            raise EpisodeEnded(str(exc)) from None
        try:
            grader_of(cached.state)
        except GraderRetired as exc:  # before a customer or judge is asked anything
            raise GraderRetiredError(f"episode {episode_id} cannot be continued: {exc}") from None
        step_events = self._customer_replied(cached.state, plan, step_events,
                                             {} if verdicts is None else verdicts)
        after = fold(step_events, cached.state)
        judged = self._judged(after, {} if verdicts is None else verdicts)
        if judged is not None:
            step_events = [*step_events, judged]
            after = evolve(after, judged)
        after, grade, events = settle(cached.state, step_events, after)
        projection = Projection(_status(after), after.step_count, after.score)
        return _Decided(after, grade, Append(episode_id, cached.seq, cached.head, events, projection,
                                             _status(cached.state)))

    def _judged(self, after: EpisodeState, verdicts: dict[str, Any]) -> ev.ReplyJudged | None:
        """The LLM judge's verdict on the reply draft of ``after`` (the state a step leads to), to
        be recorded with that step; None when the episode is not judged by an LLM or the verdict
        on record already answers the same prompt (``service.judge.needed``).

        Why in the step's own append, after ``decide`` and before grading: the verdict is a fact
        about the state the step leads to, so the step's grade is computed with it, and replay,
        which folds the step's events in order and grades them, computes the same grade without
        calling a model. The call is made here, before anything is written: it is outside the
        write transaction (a slow judge holds no lock and no connection) and, since the API runs
        the service in its service threads, off the event loop. The append that follows is
        conditional on the head the step was decided on, as every step's is, so a judge that
        answered on a state another process has since moved past writes nothing: the step is
        decided again on the fresh state, and the judge asked again only if its prompt differs
        (``verdicts`` keeps what this step already asked, by prompt digest). A failed call is
        recorded as a fallback and the step goes on; it is never the step's error.
        """
        if after.judge != "llm":
            return None
        judge = self.judge
        pending = judging.needed(after, self.catalog, judge.model if judge else "-")
        if pending is None:
            return None
        if pending.prompt_digest in verdicts:
            found: ev.ReplyJudged = verdicts[pending.prompt_digest]
            return found
        if judge is None:
            judged = judging.unavailable(pending, "-", "unavailable: this process has no LLM judge "
                                                       "configured (JUDGE_MODEL)")
        else:
            judged = judge.judge(pending)
        verdicts[pending.prompt_digest] = judged
        return judged

    def _customer_replied(self, before: EpisodeState, plan: ActionPlan, step_events: list[ev.Event],
                          asked: dict[str, Any]) -> list[ev.Event]:
        """``step_events`` with the LLM customer's reply right after a ``CustomerMessaged`` that
        ``decide`` left unanswered (an episode whose customer is ``llm``); unchanged otherwise.

        Like the judge's verdict, the reply is asked for before anything is written, outside the
        write transaction, and recorded in the step's own append, so replay folds it and never
        calls the model. What it reveals is the scripted rules' decision; without a configured
        model (a fork continued on a server without one) the scripted reply is recorded with a
        ``fallback`` saying so. ``asked``: replies already obtained in this step, by prompt
        digest, so a step decided again after a conflict does not ask twice."""
        if before.customer == "scripted":
            return step_events
        index = next((i for i, e in enumerate(step_events) if isinstance(e, ev.CustomerMessaged)), None)
        if index is None or (index + 1 < len(step_events)
                             and isinstance(step_events[index + 1], ev.CustomerReplied)):
            return step_events
        sent = step_events[index]
        assert isinstance(sent, ev.CustomerMessaged)
        planned = scripted_answer(before, sent.text)
        llm = self.customer
        if llm is None:
            reply = customers.fallback(planned, None, None, "unavailable: this process has no LLM "
                                       "customer configured (CUSTOMER_MODEL)")
        else:
            pending = llm.request(before, sent.text, planned)
            key = "customer:" + pending.prompt_digest
            reply = asked[key] if key in asked else llm.reply(pending)
            asked[key] = reply
        return [*step_events[:index + 1], reply, *step_events[index + 1:]]

    def _stepped(self, decided: _Decided, recorded: list[RecordedEvent] | Conflict) -> StepResult:
        episode_id, after, grade = decided.append.episode_id, decided.state, decided.grade
        if isinstance(recorded, Conflict):
            self._forget(episode_id)
            raise EpisodeBusy(str(recorded))
        self._remember(episode_id, _Cached(after, recorded[-1].seq, recorded[-1].hash))
        reward = after.rewards[-1]  # in the episode's reward mode; the grade keeps the dense one
        return StepResult(episode_id, observe(after, self.catalog, reward), reward,
                          after.done, after, grade, recorded[-1].seq, recorded[-1].hash)

    # ------------------------------------------------------------------ state
    def state(self, episode_id: str) -> EpisodeState:
        """The folded state of an episode (includes the answer key: not for agents)."""
        return self._current(episode_id).state

    def observation(self, episode_id: str) -> Observation:
        state = self.state(episode_id)
        return observe(state, self.catalog, state.rewards[-1] if state.rewards else None)

    def head(self, episode_id: str) -> tuple[int, str]:
        cached = self._current(episode_id)
        return cached.seq, cached.head

    def load_events(self, episode_id: str) -> list[RecordedEvent]:
        try:
            self.store.head(episode_id)
        except NotFound:
            raise EpisodeNotFound(self.unknown(episode_id)) from None
        return self.store.load(episode_id)

    # -------------------------------------------------------------- internals
    @staticmethod
    def unknown(episode_id: str) -> str:
        return f"no episode {episode_id!r}; call reset to start one"

    def _claim(self, episode_id: str) -> None:
        """One step per episode at a time in this process; a concurrent one gets 409 at once."""
        with self._guard:
            if episode_id in self._busy:
                raise EpisodeBusy(f"another step on episode {episode_id} is in progress; retry after it")
            self._busy.add(episode_id)

    def _release(self, episode_id: str) -> None:
        with self._guard:
            self._busy.discard(episode_id)

    def _cached(self, episode_id: str) -> _Cached | None:
        """The episode's cached state as it is, unchecked against the log (a step's append checks
        it); None if there is none or the id is malformed (then :meth:`_current` says why)."""
        if not isinstance(episode_id, str):
            return None
        with self._guard:
            cached = self._cache.get(episode_id)
            if cached is not None:
                self._cache.move_to_end(episode_id)
        return cached

    def _current(self, episode_id: str, known: tuple[int, str] | None = None) -> _Cached:
        """The episode's state at the stored head, folding only events not yet seen here.
        ``known``: the stored head, already read by the caller (``_UNKNOWN``: no such episode)."""
        if not is_id(episode_id):
            raise EpisodeNotFound(f"malformed episode id {str(episode_id)[:80]!r}")
        try:
            if known is _UNKNOWN:
                raise NotFound(episode_id)
            seq, head = known if known is not None else self.store.head(episode_id)
        except NotFound:
            raise EpisodeNotFound(self.unknown(episode_id)) from None
        with self._guard:
            cached = self._cache.get(episode_id)
            if cached is not None:
                self._cache.move_to_end(episode_id)
        if cached is not None and cached.seq == seq and cached.head == head:
            return cached
        base = cached if cached is not None and cached.seq < seq else None
        recorded = self.store.load(episode_id, after_seq=base.seq if base else 0)
        if not recorded:
            raise EpisodeNotFound(self.unknown(episode_id))
        state = fold((to_domain(r) for r in recorded), base.state if base else EMPTY)
        fresh = _Cached(state, recorded[-1].seq, recorded[-1].hash)
        self._remember(episode_id, fresh)
        return fresh

    def _remember(self, episode_id: str, entry: _Cached) -> None:
        with self._guard:
            self._cache[episode_id] = entry
            self._cache.move_to_end(episode_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def _forget(self, episode_id: str) -> None:
        with self._guard:
            self._cache.pop(episode_id, None)
