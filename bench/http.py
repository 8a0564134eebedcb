"""Stateful HTTP, sequential: TicketLedger against the yardstick, the SupportOps seed's server.

Both servers run at once on 127.0.0.1: TicketLedger (``python -m server.app``) on a fresh SQLite
file in the work directory (durable, its default), and ``bench/seed_server.py`` (in memory, the
seed's routes, shapes and work). A plain ``httpx.Client`` per server (the instrument the speed
bar is stated with, rather than the project's own client: a lighter client would change every
figure and the ratio with it), one request at a time
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
"""The goal for TicketLedger on durable SQLite / yardstick (the bar is 1.0; it must not fall either)."""


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


def compare(urls: dict[str, str], key: str, name: str, *, rounds: int,
            episodes: int) -> list[Figure]:
    """The servers at ``urls`` (``ticketledger``, ``yardstick`` and perhaps ``baseline``) episode by
    episode; steps/s of each and their ratios, round by round. ``key`` names the figures
    (``http.<key>.*``), ``name`` TicketLedger's configuration."""
    work = seed_episodes()
    order = list(urls)
    found: dict[str, list[float]] = {server: [] for server in order}
    with ExitStack() as stack:
        clients = {server: stack.enter_context(httpx.Client(base_url=url, timeout=REQUEST_TIMEOUT_S))
                   for server, url in urls.items()}
        for client in clients.values():
            play(client, work, 2 * len(work))  # warm each: imports, first-use paths, page cache
        for n in range(rounds):
            steps = dict.fromkeys(order, 0)
            seconds = dict.fromkeys(order, 0.0)
            for k in range(n * episodes, (n + 1) * episodes):
                for server in order if k % 2 == 0 else order[::-1]:
                    started = time.perf_counter()
                    steps[server] += play(clients[server], work, 1, start=k)
                    seconds[server] += time.perf_counter() - started
            for server in order:
                found[server].append(steps[server] / seconds[server])
            log(f"  {name} round {n + 1}: " + ", ".join(
                f"{server} {found[server][-1]:,.0f}" for server in order) + " steps/s: "
                f"{found['ticketledger'][-1] / found['yardstick'][-1]:.2f}x the yardstick")
    what = f"reset + 4 steps, one sequential httpx client, {episodes} episodes a round"
    rates = {server: Figure(f"http.{key}.{server}", f"HTTP: {LABELS[server]}"
                            + (f", {name}" if server != "yardstick" else ""), "steps/s",
                            found[server], detail=what) for server in order}
    share = ratio(f"http.{key}.ratio", f"HTTP: TicketLedger ({name}) / yardstick",
                  rates["ticketledger"], rates["yardstick"], target=GOAL if key == "sqlite" else None,
                  note="goal 1.2, must not fall" if key == "sqlite" else "")
    figures = [*rates.values(), share]
    if "baseline" in rates:
        figures += [
            ratio(f"http.{key}.baseline_ratio", f"HTTP: baseline ({name}) / yardstick",
                  rates["baseline"], rates["yardstick"]),
            ratio(f"http.{key}.vs_baseline", f"HTTP: TicketLedger / baseline ({name})",
                  rates["ticketledger"], rates["baseline"], note="after / before"),
        ]
    for figure in figures[len(rates):]:
        figure.detail = "episodes interleaved, a ratio per round"
    return figures


LABELS = {"ticketledger": "TicketLedger", "baseline": "TicketLedger baseline (--baseline)",
          "yardstick": "yardstick (SupportOps seed's work, in memory)"}


def measure(database_url: str, key: str, name: str, *, quick: bool, workers: int = 1,
            baseline: tuple[Path, str] | None = None) -> list[Figure]:
    """Start TicketLedger on ``database_url`` and the yardstick (and, given ``baseline``, the code
    at its root on its database), compare them, stop them."""
    rounds, episodes = (2, 12) if quick else (25, 24)
    log(f"http: TicketLedger ({name}) against the yardstick, {rounds} rounds of {episodes} episodes"
        + (f", and the baseline at {baseline[0]}" if baseline else ""))
    with ExitStack() as stack:
        urls = {"ticketledger": stack.enter_context(servers.ticketledger(database_url, workers)).url}
        if baseline is not None:
            root, url = baseline
            urls["baseline"] = stack.enter_context(servers.ticketledger(url, workers, root=root)).url
        urls["yardstick"] = stack.enter_context(servers.yardstick()).url
        return compare(urls, key, name, rounds=rounds, episodes=episodes)


def run(workdir: Path, quick: bool = False, baseline: Path | None = None) -> list[Figure]:
    """``baseline``: the root of a checkout of other TicketLedger code, measured alongside."""
    with ExitStack() as stack:
        url, drop = servers.sqlite_file(workdir, "http")
        stack.callback(drop)
        other = None
        if baseline is not None:
            other_url, other_drop = servers.sqlite_file(workdir, "http-baseline")
            stack.callback(other_drop)
            other = (baseline, other_url)
        return measure(url, "sqlite", "durable SQLite", quick=quick, baseline=other)
