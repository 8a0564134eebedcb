"""Stateful HTTP, sequential: TicketLedger against the yardstick, the SupportOps seed's server.

Both servers run at once on 127.0.0.1: TicketLedger (``python -m server.app``) on a fresh SQLite
file in the work directory (durable, its default), and ``bench/seed_server.py`` (in memory, the
seed's routes, shapes and work). A plain ``httpx.Client`` per server, one request at a time
(keep-alive; cookies kept, so TicketLedger routes the steps by the cookie its ``/reset`` set),
plays the seed's own flow over its six tasks in turn: ``POST /reset {"task_id"}``, then four
``POST /step`` with the seed's flat action body (``bench.workload.seed_episodes``), identical bytes
to both servers. Every answer must be 200 and every episode must end.

The servers take turns episode by episode (which goes first alternates), so a slow moment of a
shared machine hits both alike. A round is ``episodes`` episodes on each; its figure per server is
steps/s: 4 steps per episode over the wall time of those whole episodes, resets included. The
ratio TicketLedger / yardstick is taken round by round; the table shows its median and spread
(the issue's goal: 1.2; it must not fall).

Client and server share the machine's cores, as on a single training box: the client's own CPU
time is in both servers' figures.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

from bench import servers
from bench.common import Figure, log, ratio
from bench.workload import Plan, seed_episodes

REQUEST_TIMEOUT_S = 30.0
GOAL = 1.2
"""Issue 14's goal for TicketLedger on durable SQLite / yardstick (it must not fall either)."""


def post(client: httpx.Client, path: str, body: object) -> dict[str, Any]:
    """POST JSON, insist on 200, return the JSON answer."""
    response = client.post(path, json=body)
    if response.status_code != 200:
        raise RuntimeError(f"POST {path} answered {response.status_code}: {response.text[:300]}")
    answer: dict[str, Any] = response.json()
    return answer


def play(client: httpx.Client, work: Sequence[Plan], episodes: int, start: int = 0) -> int:
    """Play ``episodes`` episodes of ``work`` in turn from ``start``; returns the steps taken."""
    steps = 0
    for n in range(start, start + episodes):
        plan = work[n % len(work)]
        post(client, "/reset", {"task_id": plan.task_id})
        answer: dict[str, Any] = {}
        for action in plan.actions:
            answer = post(client, "/step", action)
        if answer.get("done") is not True:
            raise RuntimeError(f"{plan.task_id}: the episode did not end after {len(plan.actions)} steps")
        steps += len(plan.actions)
    return steps


SERVERS = ("ticketledger", "yardstick")


def compare(ticketledger_url: str, yardstick_url: str, key: str, name: str, *, rounds: int,
            episodes: int) -> list[Figure]:
    """Both servers episode by episode; steps/s of each and their ratio, round by round.
    ``key`` names the figures (``http.<key>.*``), ``name`` TicketLedger's configuration."""
    work = seed_episodes()
    found: dict[str, list[float]] = {server: [] for server in SERVERS}
    with ExitStack() as stack:
        clients = {server: stack.enter_context(httpx.Client(base_url=url, timeout=REQUEST_TIMEOUT_S))
                   for server, url in zip(SERVERS, (ticketledger_url, yardstick_url), strict=True)}
        for client in clients.values():
            play(client, work, 2 * len(work))  # warm both: imports, first-use paths, page cache
        for n in range(rounds):
            steps = dict.fromkeys(SERVERS, 0)
            seconds = dict.fromkeys(SERVERS, 0.0)
            for k in range(n * episodes, (n + 1) * episodes):
                for server in SERVERS if k % 2 == 0 else SERVERS[::-1]:
                    started = time.perf_counter()
                    steps[server] += play(clients[server], work, 1, start=k)
                    seconds[server] += time.perf_counter() - started
            for server in SERVERS:
                found[server].append(steps[server] / seconds[server])
            log(f"  {name} round {n + 1}: TicketLedger {found['ticketledger'][-1]:,.0f}, yardstick "
                f"{found['yardstick'][-1]:,.0f} steps/s: "
                f"{found['ticketledger'][-1] / found['yardstick'][-1]:.2f}x")
    what = f"reset + 4 steps, one sequential httpx client, {episodes} episodes a round"
    ticketledger = Figure(f"http.{key}.ticketledger", f"HTTP: TicketLedger, {name}", "steps/s",
                          found["ticketledger"], detail=what)
    yardstick = Figure(f"http.{key}.yardstick", "HTTP: yardstick (SupportOps seed's work, in memory)",
                       "steps/s", found["yardstick"], detail=what)
    share = ratio(f"http.{key}.ratio", f"HTTP: TicketLedger ({name}) / yardstick", ticketledger,
                  yardstick, target=GOAL if key == "sqlite" else None,
                  note="goal 1.2, must not fall" if key == "sqlite" else "")
    share.detail = "episodes interleaved, a ratio per round"
    return [ticketledger, yardstick, share]


def measure(database_url: str, key: str, name: str, *, quick: bool,
            workers: int = 1) -> list[Figure]:
    """Start TicketLedger on ``database_url`` and the yardstick, compare them, stop both."""
    rounds, episodes = (2, 12) if quick else (25, 24)
    log(f"http: TicketLedger ({name}) against the yardstick, {rounds} rounds of {episodes} episodes")
    with servers.ticketledger(database_url, workers) as ticketledger, servers.yardstick() as yardstick:
        return compare(ticketledger.url, yardstick.url, key, name, rounds=rounds, episodes=episodes)


def run(workdir: Path, quick: bool = False) -> list[Figure]:
    url, drop = servers.sqlite_file(workdir, "http")
    try:
        return measure(url, "sqlite", "durable SQLite", quick=quick)
    finally:
        drop()
