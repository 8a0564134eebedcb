"""Load and integrity: many concurrent sessions against a real server, then an audit of the log.

``python -m bench.load`` starts real servers on 127.0.0.1 (never anything else) and runs, for
each configuration, 64 concurrent sessions over ``/ws`` and 64 over stateful HTTP:

* SQLite file, one server worker;
* PostgreSQL, several workers (``--workers``; skipped with a note if PostgreSQL is unreachable).

Every session plays whole episodes of the gold (``bench.workload``), each opened by an
internal note that names the session and episode, so a step that lands in someone else's episode
cannot go unnoticed. Afterwards the log itself is audited (:func:`audit`): every acknowledged step
is in its own episode in the order sent, nothing is duplicated, nothing foreign is mixed in, every
step is whole (``ActionReceived`` ... ``StepGraded``), every hash chain verifies and every episode
replays consistently. Any integrity failure makes the run fail (exit status 1).

Bounded in count and time: each configuration stops starting episodes after ``--budget`` seconds
and every request has a timeout. Figures: steps/s and p50/p99 step latency per configuration.
The same drivers serve the crash-safety and worker tests (``tests/e2e/test_crash.py``,
``tests/e2e/test_workers*.py``), and the bench runner can call :func:`run`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import servers
from bench.common import Figure, log, percentile, table
from bench.workload import Plan, plans

TRANSPORTS = ("ws", "http")
REQUEST_TIMEOUT_S = 60.0


# ------------------------------------------------------------------------------- what was sent
@dataclass
class EpisodeLog:
    """One episode as its client saw it: the actions the server acknowledged, in order.

    ``pending`` is an action sent whose answer never came (the server died or the run stopped);
    after a crash it may or may not be in the log, but never half of it.
    """

    episode_id: str
    session: int
    acked: list[dict[str, Any]] = field(default_factory=list)
    pending: dict[str, Any] | None = None
    done: bool = False


@dataclass
class SessionResult:
    session: int
    transport: str
    episodes: list[EpisodeLog] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    error: str | None = None


@dataclass
class LoadResult:
    transport: str
    sessions: list[SessionResult]
    seconds: float

    @property
    def steps(self) -> int:
        return sum(len(s.latencies) for s in self.sessions)

    @property
    def episodes(self) -> list[EpisodeLog]:
        return [e for s in self.sessions for e in s.episodes]

    @property
    def errors(self) -> list[str]:
        return [f"session {s.session}: {s.error}" for s in self.sessions if s.error]

    def latency_ms(self, q: float) -> float:
        return percentile(sorted(x for s in self.sessions for x in s.latencies), q) * 1000


class Stop(Exception):
    """Raised inside a session when the run's ``should_stop`` hook says so."""


def marker(run: str, session: int, episode: int) -> dict[str, Any]:
    """The first action of every episode: a note no other session or episode sends."""
    return {"action_type": "add_internal_note",
            "note": f"load run {run}: session {session}, episode {episode}"}


def episode_actions(plan: Plan, run: str, session: int, episode: int) -> list[dict[str, Any]]:
    return [marker(run, session, episode), *plan.actions]


# ---------------------------------------------------------------------------------- drivers
async def _http_session(base: str, index: int, work: list[Plan], run: str, deadline: float,
                        on_ack: Callable[[], None], result: SessionResult) -> None:
    """Stateful HTTP. Even sessions route by cookie only (as cookie-keeping clients do), odd ones
    name the episode in the body."""
    import httpx

    by_cookie = index % 2 == 0
    async with httpx.AsyncClient(base_url=base, timeout=REQUEST_TIMEOUT_S) as client:
        for n, plan in enumerate(work):
            if time.monotonic() > deadline:
                return
            reply = await client.post("/reset", json={"task_id": plan.task_id, "seed": plan.seed})
            if reply.status_code != 200:
                raise RuntimeError(f"reset answered {reply.status_code}: {reply.text[:200]}")
            episode = EpisodeLog(reply.json()["episode_id"], index)
            result.episodes.append(episode)
            for step, action in enumerate(episode_actions(plan, run, index, n), start=1):
                body: dict[str, Any] = {"action": action}
                if not by_cookie:
                    body["episode_id"] = episode.episode_id
                episode.pending = action
                started = time.perf_counter()
                reply = await client.post("/step", json=body)
                if reply.status_code != 200:
                    raise RuntimeError(f"step answered {reply.status_code}: {reply.text[:200]}")
                if _acknowledged(reply.json(), episode, step, started, result, on_ack):
                    break


async def _ws_session(base: str, index: int, work: list[Plan], run: str, deadline: float,
                      on_ack: Callable[[], None], result: SessionResult) -> None:
    import websockets

    url = base.replace("http://", "ws://", 1) + "/ws"
    async with websockets.connect(url, max_size=None, open_timeout=REQUEST_TIMEOUT_S) as ws:

        async def ask(message: dict[str, Any]) -> dict[str, Any]:
            await ws.send(json.dumps(message))
            reply = json.loads(await asyncio.wait_for(ws.recv(), REQUEST_TIMEOUT_S))
            if reply.get("type") != "observation":
                raise RuntimeError(f"{message['type']} answered {str(reply)[:200]}")
            data: dict[str, Any] = reply["data"]
            return data

        for n, plan in enumerate(work):
            if time.monotonic() > deadline:
                break
            data = await ask({"type": "reset", "data": {"task_id": plan.task_id, "seed": plan.seed}})
            episode = EpisodeLog(data["episode_id"], index)
            result.episodes.append(episode)
            for step, action in enumerate(episode_actions(plan, run, index, n), start=1):
                episode.pending = action
                started = time.perf_counter()
                payload = await ask({"type": "step", "data": action})
                if _acknowledged(payload, episode, step, started, result, on_ack):
                    break
        await ws.send(json.dumps({"type": "close"}))


def _acknowledged(payload: dict[str, Any], episode: EpisodeLog, step: int, started: float,
                  result: SessionResult, on_ack: Callable[[], None]) -> bool:
    """Book an answered step (same for every transport); True when it ended the episode."""
    _check_ack(payload, episode, step)
    result.latencies.append(time.perf_counter() - started)
    assert episode.pending is not None, "an answer came for no action sent"
    episode.acked.append(episode.pending)
    episode.pending = None
    on_ack()
    episode.done = bool(payload["done"])
    return episode.done


def _check_ack(payload: dict[str, Any], episode: EpisodeLog, step: int) -> None:
    """The answer must be about this client's episode, one step further (else: cross-wired)."""
    observation = payload["observation"]
    if payload.get("episode_id", observation["episode_id"]) != episode.episode_id or (
            observation["step_count"] != step):
        raise RuntimeError(f"cross-wired answer: expected episode {episode.episode_id} step {step}, "
                           f"got {observation['episode_id']} step {observation['step_count']}")


DRIVERS = {"http": _http_session, "ws": _ws_session}


async def drive(base: str, transport: str, sessions: int, episodes: int, *, budget_s: float = 60.0,
                work: Sequence[Plan] | None = None, run: str | None = None,
                should_stop: Callable[[int], bool] | None = None) -> LoadResult:
    """Run ``sessions`` concurrent sessions of up to ``episodes`` episodes each over ``transport``.

    ``should_stop(acked_steps)`` is called after every acknowledged step; when it returns True
    every session stops where it is (the crash test kills the server from there).
    """
    work = list(work or plans())
    run = run or secrets.token_hex(4)
    deadline = time.monotonic() + budget_s
    acked = 0
    results = [SessionResult(i, transport) for i in range(sessions)]
    stopping = asyncio.Event()

    def on_ack() -> None:
        nonlocal acked
        acked += 1
        if should_stop is not None and should_stop(acked):
            stopping.set()
        if stopping.is_set():
            raise Stop

    async def one(index: int) -> None:
        mine = [work[(index * episodes + n) % len(work)] for n in range(episodes)]
        try:
            await DRIVERS[transport](base, index, mine, run, deadline, on_ack, results[index])
        except Stop:
            pass
        except Exception as exc:
            results[index].error = f"{type(exc).__name__}: {exc}"[:300]

    started = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(sessions)))
    return LoadResult(transport, results, time.perf_counter() - started)


# ------------------------------------------------------------------------------------ audit
@dataclass
class Integrity:
    episodes: int = 0
    acked_steps: int = 0
    recorded_steps: int = 0
    in_flight_recorded: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_json(self) -> dict[str, Any]:
        return {"episodes": self.episodes, "acked_steps": self.acked_steps,
                "recorded_steps": self.recorded_steps,
                "in_flight_recorded": self.in_flight_recorded, "problems": self.problems[:20]}


def audit(database_url: str, episodes: Sequence[EpisodeLog], *, crashed: bool = False,
          whole_log: bool = True) -> Integrity:
    """Check the log against what the clients saw (see the module docstring).

    ``crashed``: an action in flight when the server died may be recorded (whole) or not.
    ``whole_log``: the database holds only these episodes, so any other step is foreign.
    """
    from sqlalchemy import func, select

    from domain import events as ev
    from domain.tasks import default_catalog
    from service.replay import replay
    from store import open_database
    from store.eventstore import EventStore
    from store.schema import events

    catalog = default_catalog()
    db = open_database(database_url, migrate_schema=False)
    store = EventStore(db)
    report = Integrity(episodes=len(episodes))
    try:
        for episode in episodes:
            report.acked_steps += len(episode.acked)
            recorded = store.load(episode.episode_id)
            problems = _episode_problems(episode, recorded, crashed, catalog, replay, ev)
            report.problems += [f"{episode.episode_id}: {p}" for p in problems]
            steps = sum(1 for r in recorded if r.type == ev.ActionReceived.type)
            report.recorded_steps += steps
            report.in_flight_recorded += max(0, steps - len(episode.acked))
            if recorded:
                row = store.episode(episode.episode_id)
                if (row.last_seq, row.head_hash, row.step_count) != (
                        recorded[-1].seq, recorded[-1].hash, steps):
                    report.problems.append(f"{episode.episode_id}: index row disagrees with its log")
        if whole_log:
            with db.read() as conn:
                total = conn.execute(select(func.count()).select_from(events)
                                     .where(events.c.type == ev.ActionReceived.type)).scalar_one()
            if total != report.recorded_steps:
                report.problems.append(f"the log holds {total} steps, the clients' episodes "
                                       f"{report.recorded_steps}: steps landed elsewhere")
    finally:
        db.dispose()
    return report


def _episode_problems(episode: EpisodeLog, recorded: list[Any], crashed: bool, catalog: Any,
                      replay: Any, ev: Any) -> list[str]:
    if not recorded:
        return ["acknowledged by the server but absent from the log"]
    problems = []
    if [r.seq for r in recorded] != list(range(1, len(recorded) + 1)):
        problems.append("sequence numbers have gaps or duplicates")
    if recorded[0].type != ev.EpisodeStarted.type:
        problems.append("does not start with EpisodeStarted")
    groups: list[list[Any]] = []
    for r in recorded[1:]:
        if (r is recorded[-1] and r.type == ev.EpisodeEnded.type
                and (not groups or groups[-1][-1].type == ev.StepGraded.type)):
            break  # a closing (a /ws session that ended with its episode open): no step
        if r.type == ev.ActionReceived.type:
            groups.append([r])
        elif groups:
            groups[-1].append(r)
        else:
            problems.append(f"event {r.seq} ({r.type}) before any action")
    for number, group in enumerate(groups, start=1):
        if group[-1].type != ev.StepGraded.type or group[0].data.get("step") != number or sum(
                1 for r in group if r.type == ev.StepGraded.type) != 1:
            problems.append(f"step {number} is not whole (ActionReceived ... StepGraded)")
    raws = [g[0].data["raw"] for g in groups]
    if raws[:len(episode.acked)] != episode.acked:
        problems.append(f"recorded actions differ from the {len(episode.acked)} acknowledged "
                        "(lost, reordered or cross-wired)")
    extra = raws[len(episode.acked):]
    if extra and not (crashed and episode.pending is not None and extra == [episode.pending]):
        problems.append(f"{len(extra)} recorded step(s) no client sent to this episode")
    report = replay(recorded, catalog)
    if not report.consistent:
        problems.append(f"replay diverges: {report.first_divergence.message}")
    return problems


@dataclass
class ConfigResult:
    name: str
    results: list[LoadResult]
    integrity: Integrity


def run_config(name: str, database_url: str, workers: int, sessions: int, episodes: int,
               budget_s: float) -> ConfigResult:
    """One server configuration: every transport in turn, then one audit of the whole log."""
    server = servers.ticketledger(database_url, workers)
    try:
        results = [asyncio.run(drive(server.url, transport, sessions, episodes, budget_s=budget_s))
                   for transport in TRANSPORTS]
    finally:
        server.stop()
    integrity = audit(database_url, [e for r in results for e in r.episodes])
    for r in results:
        integrity.problems += [f"{r.transport} {e}" for e in r.errors]
    return ConfigResult(name, results, integrity)


def figures(configs: Sequence[ConfigResult]) -> list[Figure]:
    out: list[Figure] = []
    for config in configs:
        for r in config.results:
            key = f"load.{config.name}.{r.transport}"
            label = f"{len(r.sessions)} sessions over {r.transport}, {config.name}"
            extra = {"steps": r.steps, "seconds": round(r.seconds, 2),
                     "integrity": config.integrity.to_json()}
            out.append(Figure(f"{key}.throughput", label, "steps/s", [r.steps / r.seconds],
                              extra=extra))
            out.append(Figure(f"{key}.p50", f"{label}, p50 step latency", "ms", [r.latency_ms(50)]))
            out.append(Figure(f"{key}.p99", f"{label}, p99 step latency", "ms", [r.latency_ms(99)]))
        out.append(Figure(f"load.{config.name}.integrity_problems",
                          f"lost, duplicated or cross-wired steps, {config.name}", "count",
                          [float(len(config.integrity.problems))], target=0, higher=False))
    return out


def run_all(workdir: Path, *, sessions: int = 64, episodes: int = 2, pg_workers: int = 4,
            budget_s: float = 60.0) -> list[ConfigResult]:
    workdir.mkdir(parents=True, exist_ok=True)
    configs = []
    sqlite_path = workdir / f"load-{secrets.token_hex(4)}.db"
    log(f"load: SQLite, 1 worker, {sessions} sessions x {episodes} episodes per transport")
    try:
        configs.append(run_config("sqlite-1-worker", f"sqlite:///{sqlite_path}", 1, sessions,
                                  episodes, budget_s))
    finally:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{sqlite_path}{suffix}").unlink(missing_ok=True)
    pg = servers.postgres_database()
    if pg is not None:
        url, drop = pg
        log(f"load: PostgreSQL, {pg_workers} workers, {sessions} sessions x {episodes} episodes")
        try:
            configs.append(run_config(f"postgres-{pg_workers}-workers", url, pg_workers, sessions,
                                      episodes, budget_s))
        finally:
            drop()
    return configs


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    """The bench runner's entry point (``bench.__main__``)."""
    configs = run_all(workdir / "load", episodes=1 if quick else 3, budget_s=30 if quick else 90)
    return figures(configs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", type=int, default=64, help="concurrent sessions (default 64)")
    parser.add_argument("--episodes", type=int, default=3, help="episodes per session (default 3)")
    parser.add_argument("--workers", type=int, default=4, help="server workers on PostgreSQL")
    parser.add_argument("--budget", type=float, default=90.0,
                        help="seconds per transport after which no new episode starts (default 90)")
    parser.add_argument("--workdir", type=Path, default=Path(__file__).resolve().parent / "results"
                        / "work", help="where the SQLite file goes")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    configs = run_all(args.workdir, sessions=args.sessions, episodes=args.episodes,
                      pg_workers=args.workers, budget_s=args.budget)
    found = figures(configs)
    if args.json:
        print(json.dumps([f.to_json() for f in found], indent=2, default=str))
    else:
        print(table(found))
    for config in configs:
        i = config.integrity
        log(f"{config.name}: audited {i.episodes} episodes, {i.acked_steps} acknowledged steps, "
            f"{i.recorded_steps} recorded, {len(i.problems)} problems")
    bad = [c for c in configs if not c.integrity.ok]
    for config in bad:
        log(f"{config.name}: INTEGRITY PROBLEMS: {config.integrity.problems[:10]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
