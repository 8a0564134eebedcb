"""``/ws``: many concurrent OpenEnv sessions from one client process, as a trainer runs them.

TicketLedger (``python -m server.app``, one worker) on a fresh SQLite file in the work directory
(durable, its default), 127.0.0.1 only. The client is OpenEnv's own ``GenericEnvClient`` (asyncio,
the ``websockets`` library underneath), one per session, all in this process's one event loop.
The sessions connect first (256 by default: the server's default cap,
``TICKETLEDGER_MAX_SESSIONS``); then, all at once, each plays scripted episodes
(``bench.workload.plans``: reset, then the expert's steps) until it has taken its share of steps,
finishing the episode in progress. Two ways:

* back to back, three rounds: each session sends its next message as soon as the last is
  answered. Figures: steps/s over the wall time of each round (resets included), errors, and
  p50/p99 step latency (which is then about sessions / throughput: the sessions queue behind
  each other).
* thinking, three rounds: ``THINK_S`` (0.5 s) between steps, as an agent's turn takes. The
  sessions' starts are spread evenly over one think time, as independent agents' are (started
  together, all 256 would step in the same instant every 0.5 s and measure that herd instead).
  Figures: p50/p99 step latency (bar: p99 at most 50 ms), the longest step (bar: no stall
  above 100 ms) and errors.

Both ways are played twice: with the scripted texts, which repeat from one episode to the next,
and with every episode's texts new (:func:`bench.workload.new_texts`), as an agent's are. The
judge remembers what it read of a text, so the first measures what a step costs besides reading
new words, the second what an agent's step costs.

An error is a connection refused, an error frame, a timeout or an episode that did not end; a
session stops at its first. Bounded in count (steps per session) and time (every message has
``MESSAGE_TIMEOUT_S``, each phase ``PHASE_TIMEOUT_S``). Client and server share the cores: the
client's CPU time is in the figures.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bench import servers
from bench.common import Figure, log, percentile, ratio, summary
from bench.workload import Plan, new_texts, plans

if TYPE_CHECKING:  # imported when a phase runs: openenv.core pulls in gradio (seconds)
    from openenv.core.generic_client import GenericEnvClient

SESSIONS = 256
THINK_S = 0.5
CONNECT_TIMEOUT_S = 30.0
MESSAGE_TIMEOUT_S = 30.0
PHASE_TIMEOUT_S = 300.0
P99_BAR_MS = 50.0
"""The bar for p99 step latency with 0.5 s of thinking (docs/performance.md)."""
STALL_BAR_MS = 100.0
"""The bar for the longest single step with 0.5 s of thinking: no stall above it."""


@dataclass(frozen=True)
class Shape:
    """How much one server configuration plays: ``sessions`` concurrent sessions, ``rounds`` rounds
    of each way, ``fast_steps`` (back to back) and ``slow_steps`` (thinking) steps per session a
    round. A round's p99 is over sessions x steps latencies, so fewer sessions want more steps."""

    sessions: int = SESSIONS
    rounds: int = 3
    fast_steps: int = 48
    slow_steps: int = 16


FULL = Shape()
QUICK = Shape(64, 1, 8, 4)


@dataclass
class Phase:
    """What the sessions of one phase saw."""

    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def steps(self) -> int:
        return len(self.latencies)

    def p(self, q: float) -> float:
        """The q-th percentile of step latency, in ms."""
        return percentile(sorted(self.latencies), q) * 1000

    @property
    def longest(self) -> float:
        """The longest step, in ms (0 for a phase with none)."""
        return max(self.latencies, default=0.0) * 1000


EPISODES = itertools.count()
"""Numbers the episodes played with new texts (:func:`bench.workload.new_texts`) over the whole run,
so no round repeats a text an earlier one sent."""


async def _session(client: GenericEnvClient, work: Sequence[Plan], steps: int, think_s: float,
                   phase: Phase, new: bool = False) -> None:
    """Play whole episodes of ``work`` in turn until ``steps`` steps are taken; with ``new``, each
    episode's texts made new (:func:`bench.workload.new_texts`)."""
    taken = n = 0
    while taken < steps:
        plan = work[n % len(work)]
        n += 1
        if new:
            plan = new_texts(plan, next(EPISODES))
        await client.reset(task_id=plan.task_id, seed=plan.seed)
        result = None
        for action in plan.actions:
            if think_s:
                await asyncio.sleep(think_s)
            started = time.perf_counter()
            result = await client.step(action)
            phase.latencies.append(time.perf_counter() - started)
        taken += len(plan.actions)
        if result is None or not result.done:
            raise RuntimeError(f"{plan.task_id} seed {plan.seed}: the episode did not end")


async def _phase(base: str, sessions: int, steps: int, think_s: float, new: bool = False) -> Phase:
    """Connect ``sessions`` clients, then let every one play ``steps`` steps at once (``new``: with
    new texts every episode)."""
    from openenv.core.generic_client import GenericEnvClient

    phase = Phase()
    work = plans()
    clients = [GenericEnvClient(base_url=base, connect_timeout_s=CONNECT_TIMEOUT_S,
                                message_timeout_s=MESSAGE_TIMEOUT_S) for _ in range(sessions)]
    connected = await asyncio.gather(*(c.connect() for c in clients), return_exceptions=True)
    ready = [c for c, outcome in zip(clients, connected, strict=True)
             if not isinstance(outcome, BaseException)]
    phase.errors += [f"connect: {outcome}" for outcome in connected if isinstance(outcome, BaseException)]

    async def one(index: int, client: GenericEnvClient) -> None:
        mine = [*work[index % len(work):], *work[:index % len(work)]]  # not all on the same task
        try:
            await asyncio.sleep(think_s * index / len(ready))  # spread the starts (docstring)
            await _session(client, mine, steps, think_s, phase, new)
        except Exception as exc:
            phase.errors.append(f"session {index}: {type(exc).__name__}: {exc}"[:300])

    started = time.perf_counter()
    try:
        await asyncio.wait_for(asyncio.gather(*(one(i, c) for i, c in enumerate(ready))),
                               PHASE_TIMEOUT_S)
    except TimeoutError:
        phase.errors.append(f"the phase took longer than {PHASE_TIMEOUT_S:.0f} s")
    phase.seconds = time.perf_counter() - started
    await asyncio.gather(*(c.close() for c in ready), return_exceptions=True)
    return phase


def back_to_back(base: str, sessions: int, steps: int, new: bool = False) -> Phase:
    return asyncio.run(_phase(base, sessions, steps, 0.0, new))


def thinking(base: str, sessions: int, steps: int, think_s: float = THINK_S, new: bool = False) -> Phase:
    return asyncio.run(_phase(base, sessions, steps, think_s, new))


def figures(key: str, name: str, sessions: int, fast: list[Phase],
            slow: list[Phase]) -> list[Figure]:
    """The back-to-back rounds' throughput and errors; the thinking rounds' p99 and errors."""
    label = f"/ws: {sessions} sessions, {name}"
    every = Phase(latencies=[x for phase in fast for x in phase.latencies])
    out = [
        Figure(f"ws.{key}.throughput", f"{label}, back to back (GenericEnvClient, one process)",
               "steps/s", [phase.steps / phase.seconds for phase in fast if phase.seconds],
               detail=f"p50 {every.p(50):.0f} ms, p99 {every.p(99):.0f} ms over every round "
                      f"({every.steps:,} steps)",
               extra={"errors": [e for phase in fast for e in phase.errors][:10]}),
        Figure(f"ws.{key}.errors", f"{label}, back to back: errors", "count",
               [float(len(phase.errors)) for phase in fast], target=0, higher=False),
        # Per round, for tables that show a row per configuration (bench.sessions); JSON only.
        Figure(f"ws.{key}.p50", f"{label}, back to back: p50 step latency", "ms",
               [phase.p(50) for phase in fast if phase.steps], higher=False, show=False),
        Figure(f"ws.{key}.p99", f"{label}, back to back: p99 step latency", "ms",
               [phase.p(99) for phase in fast if phase.steps], higher=False, show=False),
    ]
    if slow:
        p50 = Figure(f"ws.{key}.thinking_p50", f"{label}, {THINK_S:g} s thinking between steps: "
                     "p50 step latency", "ms", [phase.p(50) for phase in slow if phase.steps],
                     higher=False, show=False)
        out += [
            Figure(f"ws.{key}.thinking_p99", f"{label}, {THINK_S:g} s thinking between steps: p99 "
                   "step latency", "ms", [phase.p(99) for phase in slow if phase.steps],
                   target=P99_BAR_MS, higher=False, detail=f"p50 {summary(p50)}",
                   extra={"errors": [e for phase in slow for e in phase.errors][:10]}),
            Figure(f"ws.{key}.thinking_max", f"{label}, {THINK_S:g} s thinking between steps: the "
                   "longest step of every round", "ms",
                   [max(phase.longest for phase in slow)] if any(p.steps for p in slow) else [],
                   target=STALL_BAR_MS, higher=False,
                   detail="a stall holds every session; per round: "
                          + ", ".join(f"{phase.longest:.0f}" for phase in slow if phase.steps)),
            Figure(f"ws.{key}.thinking_errors", f"{label}, thinking: errors", "count",
                   [float(len(phase.errors)) for phase in slow], target=0, higher=False),
            p50,
        ]
    return out


def measure(bases: dict[str, str], key: str, name: str, *, quick: bool,
            think: bool = True, shape: Shape | None = None, new: bool = False) -> list[Figure]:
    """Back-to-back rounds, then (unless ``think`` is False) thinking rounds, against the servers
    at ``bases``: ``ticketledger`` and perhaps ``baseline`` (other code), taking turns round by
    round, with their ratios. ``shape``: how much to play (default :data:`FULL`, or :data:`QUICK`
    with ``quick``); ``new``: every episode's texts new, as an agent's are."""
    shape = shape or (QUICK if quick else FULL)
    sessions, rounds, fast_steps, slow_steps = (shape.sessions, shape.rounds, shape.fast_steps,
                                                shape.slow_steps)
    order = list(bases)
    fast: dict[str, list[Phase]] = {server: [] for server in order}
    slow: dict[str, list[Phase]] = {server: [] for server in order}
    for n in range(rounds):
        for server in order if n % 2 == 0 else order[::-1]:
            phase = back_to_back(bases[server], sessions, fast_steps, new)
            fast[server].append(phase)
            log(f"  {name}, {server}, round {n + 1}: {sessions} sessions back to back: "
                f"{phase.steps:,} steps in {phase.seconds:.1f} s, {phase.steps / phase.seconds:,.0f} "
                f"steps/s, p99 {phase.p(99):.0f} ms, {len(phase.errors)} errors")
    for n in range(rounds if think else 0):
        for server in order if n % 2 == 0 else order[::-1]:
            phase = thinking(bases[server], sessions, slow_steps, new=new)
            slow[server].append(phase)
            log(f"  {name}, {server}, round {n + 1}: {sessions} sessions, {THINK_S:g} s thinking: "
                f"{phase.steps:,} steps, p50 {phase.p(50):.1f} ms, p99 {phase.p(99):.1f} ms, "
                f"longest {phase.longest:.1f} ms, {len(phase.errors)} errors")
    for error in [e for server in order for phase in fast[server] + slow[server]
                  for e in phase.errors][:5]:
        log(f"  error: {error}")
    out = figures(key, name, sessions, fast["ticketledger"], slow["ticketledger"])
    if "baseline" not in bases:
        return out
    other = figures(f"{key}_baseline", f"{name}, baseline (--baseline)", sessions,
                    fast["baseline"], slow["baseline"])
    mine = {f.key.removeprefix(f"ws.{key}."): f for f in out}
    theirs = {f.key.removeprefix(f"ws.{key}_baseline."): f for f in other}
    out += [*other, ratio(f"ws.{key}.vs_baseline", f"/ws back to back: TicketLedger / baseline "
                          f"({name})", mine["throughput"], theirs["throughput"],
                          note="after / before")]
    if think:
        out.append(ratio(f"ws.{key}.thinking_p99_vs_baseline", f"/ws thinking p99: TicketLedger / "
                         f"baseline ({name})", mine["thinking_p99"], theirs["thinking_p99"],
                         higher=False, note="after / before"))
    for figure in out[-2 if think else -1:]:
        figure.detail = "the servers take turns round by round, a ratio per round"
    return out


def run(workdir: Path, quick: bool = False, baseline: Path | None = None) -> list[Figure]:
    """``baseline``: the root of a checkout of other TicketLedger code, measured alongside."""
    log("ws: TicketLedger on durable SQLite, concurrent OpenEnv sessions"
        + (f", and the baseline at {baseline}" if baseline else ""))
    with ExitStack() as stack:
        url, drop = servers.sqlite_file(workdir, "ws")
        stack.callback(drop)
        bases = {"ticketledger": stack.enter_context(servers.ticketledger(url)).url}
        if baseline is not None:
            other_url, other_drop = servers.sqlite_file(workdir, "ws-baseline")
            stack.callback(other_drop)
            bases["baseline"] = stack.enter_context(servers.ticketledger(other_url, root=baseline)).url
        return (measure(bases, "sqlite", "durable SQLite", quick=quick)
                + measure(bases, "sqlite_new", "durable SQLite, new texts every episode", quick=quick,
                          new=True))
