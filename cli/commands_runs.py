"""``ticketledger runs`` and ``ticketledger runs show <id>``: the baseline runs stored in the database.

Per-episode figures come from the episode index (a projection of the log) when the episodes live in
this database; the run's own summary fills in what only the runner knew (success, errors, LLM use)
and stands in for episodes that ran on a remote server.
"""

from __future__ import annotations

import argparse
import contextlib
import json
from typing import Any

from support.terminal import colour, print_table


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("runs", help="list baseline runs (python inference.py); 'runs show ID' for one")
    p.add_argument("--limit", type=int, default=20, help="how many of the latest runs (default 20)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_runs)
    runs_sub = p.add_subparsers(dest="runs_command", metavar="RUNS_COMMAND")
    show = runs_sub.add_parser("show", help="one run, per task and per episode")
    show.add_argument("run_id")
    show.add_argument("--json", action="store_true", help="machine-readable output")
    show.set_defaults(func=cmd_runs_show)


def _store(args: argparse.Namespace) -> Any:
    from store import open_database
    from store.runs import RunStore

    return RunStore(open_database(args.settings.database_url, must_exist=True))


def _overview(run: Any) -> dict[str, Any]:
    summary = run.summary or {}
    return {"run_id": run.run_id, "started_at": run.started_at.isoformat(timespec="seconds"),
            "status": run.status, "agent": run.agent,
            "episodes": len(summary.get("episodes", [])) if run.summary else None,
            "mean_score": summary.get("mean_score"),
            "success_rate": summary.get("success_rate"),
            "pass^k": (f"{summary['pass_k']['overall']} (k={summary['pass_k']['k']})"
                       if summary.get("pass_k") else None),
            "acted": _acted(run.actor_steps())}


def _acted(steps: dict[str, int]) -> str | None:
    """Each actor's share of the steps, most first: ``m1 81%, builtin-policy 19%``."""
    total = sum(steps.values())
    if not total:
        return None
    return ", ".join(f"{actor} {n / total:.0%}"
                     for actor, n in sorted(steps.items(), key=lambda kv: -kv[1]))


def cmd_runs(args: argparse.Namespace) -> int:
    rows = [_overview(r) for r in _store(args).list(limit=max(1, args.limit))]
    if args.json:
        print(json.dumps({"runs": rows}, indent=2))
    elif not rows:
        print("no runs yet; start one with: python inference.py")
    else:
        print_table(rows, ["run_id", "started_at", "status", "agent", "episodes", "mean_score",
                           "success_rate", "pass^k", "acted"])
    return 0


def _episodes(store: Any, run: Any) -> list[dict[str, Any]]:
    """The run's episodes: the runner's record merged with the log's projection (which wins).

    Episodes played on a server that did not take the run id are found by their ids."""
    from store import NotFound
    from store.eventstore import EventStore

    recorded = {e["episode_id"]: dict(e) for e in (run.summary or {}).get("episodes", [])
                if e.get("episode_id")}
    linked = {row.episode_id: row for row in store.episodes(run.run_id)}
    events = EventStore(store.db)
    for episode_id in recorded.keys() - linked.keys():
        with contextlib.suppress(NotFound):  # else: played against another server's database
            linked[episode_id] = events.episode(episode_id)
    rows = []
    for episode_id in list(recorded) + [e for e in linked if e not in recorded]:
        entry = recorded.get(episode_id) or {"task_id": linked[episode_id].task_id,
                                             "seed": linked[episode_id].seed}
        row = linked.get(episode_id)
        if row is not None:
            entry.update(episode_id=episode_id, steps=row.step_count, score=row.score,
                         status=row.status, head_hash=row.head_hash)
        rows.append({**entry, "in_database": row is not None})
    return rows


def _figures(store: Any, run: Any) -> dict[str, Any]:
    """The run's figures with their intervals from its episodes in this database (none there:
    0 units, and the runner's record stands in)."""
    from service.audit_views import Auditor
    from service.results import run_figures

    return run_figures(Auditor(store.db), run.run_id)


def cmd_runs_show(args: argparse.Namespace) -> int:
    from store import NotFound

    store = _store(args)
    try:
        run = store.get(args.run_id)
    except NotFound:
        print(f"no run {args.run_id!r}; list them with: ticketledger runs")
        return 1
    episodes = _episodes(store, run)
    figures = _figures(store, run)
    if args.json:
        print(json.dumps({**run.to_json(), "figures": figures, "episodes": episodes}, indent=2,
                         default=str))
        return 0
    summary = run.summary or {}
    ended = run.ended_at.isoformat(timespec="seconds") if run.ended_at else "-"
    print(colour(f"run {run.run_id}", "bold") + f"  {run.status}  {run.agent}")
    print(f"started {run.started_at.isoformat(timespec='seconds')}  ended {ended}  "
          f"env {run.config.get('env', '-')}")
    if summary:
        from baseline.summary import actors_line, figures_line, noise_lines, task_rows

        pk = summary["pass_k"]
        shown = {**summary, "uncertainty": figures if figures.get("units") else
                 summary.get("uncertainty")}
        print(f"{pk.get('variants', '?')} variant(s) x {pk['k']} trial(s) per task  "
              f"{figures_line(shown)}")
        for line in noise_lines(shown):
            print(line)
        print(f"who acted: {actors_line(run.actor_steps())}")
        llm = summary.get("llm") or {}
        if llm.get("calls"):
            print(f"LLM: {llm['calls']} calls, {llm['failures']} failed, mean latency "
                  f"{llm['latency_s_mean']} s, tokens in/out {llm.get('prompt_tokens')}/"
                  f"{llm.get('completion_tokens')}, skipped {llm.get('skipped_models') or 'none'}")
        print()
        columns, rows = task_rows(summary)
        print_table(rows, columns)
    print()
    rows = [{"task_id": e.get("task_id"), "seed": "published" if e.get("seed") is None else e["seed"],
             "trial": e.get("trial"), "episode_id": e["episode_id"], "steps": e.get("steps"),
             "score": e.get("score"), "success": e.get("success"), "errors": e.get("error_count"),
             "acted": _acted(e.get("chosen_by") or {}), "head": (e.get("head_hash") or "-")[:16]}
            for e in episodes]
    print_table(rows, ["task_id", "seed", "trial", "episode_id", "steps", "score", "success",
                       "errors", "acted", "head"])
    if rows:
        print(f"\nreplay one: ticketledger replay {rows[0]['episode_id']}")
    return 0
