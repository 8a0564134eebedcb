"""Audit subcommands: episodes, show, replay, verify, heads, diff, regrade, export, fork.

Each prints for people by default (aligned tables, colour on a terminal) and, with ``--json``, the
exact JSON the matching REST route answers (both call the same ``service`` functions). Exit codes:
0 fine, 1 a divergence or failed verification was found, 2 bad input or an unknown episode.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cli.progress import ProgressBar
from cli.spool import Spool, dump
from support.terminal import colour, print_table

if TYPE_CHECKING:  # imported where used: `ticketledger --help` stays light
    from service.audit_views import Auditor
    from store.queries import EpisodeFilter

Handler = Callable[[argparse.Namespace], int]


def _auditor(args: argparse.Namespace) -> Auditor:
    """The auditor over an existing log: these commands look at recorded episodes (regrade and fork
    add to them), so where there is no database they say so instead of creating an empty one."""
    from service.audit_views import Auditor
    from store import open_database

    return Auditor(open_database(args.settings.database_url, must_exist=True))


def _filter(args: argparse.Namespace) -> EpisodeFilter:
    from store.queries import EpisodeFilter

    return EpisodeFilter(task_id=getattr(args, "task", None), run_id=getattr(args, "run", None),
                         status=getattr(args, "status", None), min_score=getattr(args, "min_score", None),
                         max_score=getattr(args, "max_score", None), model=getattr(args, "model", None))


def _dump(data: Any) -> None:
    print(json.dumps(data, indent=2, ensure_ascii=False))


def _guarded(handler: Handler) -> Handler:
    """Service errors become one line on stderr (or a JSON error with --json) and exit code 2."""

    def run(args: argparse.Namespace) -> int:
        from service.errors import ServiceError

        try:
            return handler(args)
        except ServiceError as exc:
            if getattr(args, "json", False):
                _dump({"error": {"code": exc.code, "message": str(exc)}})
            print(f"error: {exc}", file=sys.stderr)
            return 2

    return run


def _parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, help_: str, handler: Handler,
            description: str | None = None) -> argparse.ArgumentParser:
    p = sub.add_parser(name, help=help_, description=description or help_)
    p.add_argument("--json", action="store_true", help="print the same JSON as the REST route")
    p.add_argument("--database-url", default=argparse.SUPPRESS,
                   help="SQLAlchemy URL of the event log (also accepted before the command)")
    p.set_defaults(func=_guarded(handler))
    return p


def _selection(p: argparse.ArgumentParser) -> None:
    p.add_argument("--run", metavar="RUN_ID", help="only this run's episodes")
    p.add_argument("--task", metavar="TASK_ID", help="only this task's episodes")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = _parser(sub, "episodes", "list recorded episodes, newest first", cmd_episodes)
    _selection(p)
    p.add_argument("--status", choices=["open", "ended"])
    p.add_argument("--model", help="only runs whose agent name contains this text")
    p.add_argument("--min-score", type=float, metavar="X")
    p.add_argument("--max-score", type=float, metavar="X")
    p.add_argument("--limit", type=int, default=50, help="page size, 1-500 (default 50)")
    p.add_argument("--cursor", help="next_cursor of the previous page")

    p = _parser(sub, "show", "one episode step by step: action, events, change, reward, reason",
                cmd_show)
    p.add_argument("episode")

    p = _parser(sub, "replay", "re-fold and re-grade an episode from its log and verify its hash "
                "chain; exit 1 on any divergence", cmd_replay)
    p.add_argument("episode")

    p = _parser(sub, "verify", "replay every episode (or a run's); with --heads also check the log "
                "against chain heads kept outside the database", cmd_verify)
    _selection(p)
    p.add_argument("--heads", metavar="FILE", type=Path,
                   help="heads file written earlier by `ticketledger heads` ('-' for stdin)")
    p.add_argument("--jobs", "-j", type=_positive, default=os.cpu_count() or 1, metavar="N",
                   help="replay in N worker processes (default: one per CPU, %(default)s here; "
                        "a log of 100 episodes or fewer, or an in-memory one, is replayed inline)")

    p = _parser(sub, "heads", "print every episode's chain head (a heads file for verify --heads)",
                cmd_heads,
                description="Print '<episode_id> <seq> <head_hash>' per episode. Keep the output "
                            "outside the database (e.g. `ticketledger heads > heads.txt`), and "
                            "later check the log with `ticketledger verify --heads heads.txt`.")
    _selection(p)

    p = _parser(sub, "diff", "compare two episodes step by step; show the first divergence", cmd_diff)
    p.add_argument("a", metavar="EPISODE_A")
    p.add_argument("b", metavar="EPISODE_B")

    p = _parser(sub, "regrade", "re-score recorded episodes with the current grader (or --grader); "
                "appends regrade records, never changes the log", cmd_regrade)
    _selection(p)
    p.add_argument("--dry-run", action="store_true", help="report only; append nothing")
    p.add_argument("--grader", metavar="VERSION", default=None,
                   help="grader version to re-score with (default: the current grader)")
    p.add_argument("--judge", choices=["deterministic", "llm"], default="deterministic",
                   help="deterministic (default): grade replies with the verdicts the log holds; "
                        "llm: judge every reply again with the LLM judge of JUDGE_MODEL, "
                        "JUDGE_BASE_URL and JUDGE_API_KEY (or OPENAI_API_KEY)")

    p = _parser(sub, "export", "write trajectories as a dataset (one episode per line)", cmd_export,
                description="Write one JSON object per episode per line: task, seed, steps "
                            "(observation, action, reward), final score, grader version. The output "
                            "is JSON Lines with or without --json.")
    _selection(p)
    p.add_argument("--format", default="jsonl", choices=["jsonl"])
    p.add_argument("--output", "-o", type=Path, help="write to this file instead of stdout")

    p = _parser(sub, "fork", "start a new episode from the first K steps of a recorded one", cmd_fork)
    p.add_argument("episode")
    p.add_argument("--at", type=int, required=True, metavar="K", help="keep steps 1..K (0 = reset)")
    p.add_argument("--episode-id", help="id for the new episode (default: a fresh random one)")
    p.add_argument("--customer", choices=("scripted", "llm"),
                   help="who answers message_customer in the fork (default: the original's)")


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:+.4f}".rstrip("0").rstrip(".")


def _short_action(action: Any) -> str:
    if isinstance(action, dict):
        kind = action.get("action_type", "?")
        rest = {k: v for k, v in action.items() if k != "action_type" and v is not None}
        if not rest:
            return str(kind)
        inner = ", ".join(f"{k}={v}" for k, v in rest.items())
        return f"{kind}({inner})"
    return json.dumps(action, ensure_ascii=False)


def cmd_episodes(args: argparse.Namespace) -> int:
    data = _auditor(args).list_episodes(_filter(args), args.limit, args.cursor)
    if args.json:
        _dump(data)
        return 0
    rows = [{**e, "steps": e["step_count"],
             "forked_from": (f"{e['forked_from']['episode_id']}@{e['forked_from']['at']}"
                             if e["forked_from"] else None),
             "created": (e["created_at"] or "")[:19]} for e in data["episodes"]]
    print_table(rows, ["episode_id", "task_id", "seed", "status", "steps", "score", "run_id",
                       "forked_from", "created"])
    if data["next_cursor"]:
        print(f"more: ticketledger episodes --cursor {data['next_cursor']}", file=sys.stderr)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    data = _auditor(args).show(args.episode)
    if args.json:
        _dump(data)
        return 0
    ep, task = data["episode"], data["task"]
    fork = ep["forked_from"]
    print(colour(f"episode {ep['episode_id']}", "bold"))
    print(f"  task     {task['task_id']} (seed {task['seed']}, case {task['case']}, "
          f"{task['difficulty']})")
    print(f"  status   {ep['status']} after {ep['step_count']} steps, score {ep['score']}")
    closing = data.get("closing")
    if closing:
        print(f"  closed   {closing['reason']} after step {closing['after_step']} (event "
              f"{closing['seq']}: ended from outside a step, nothing graded or paid)")
    print(f"  run      {ep['run_id'] or '-'}" + (f"   forked from {fork['episode_id']} at step "
                                                 f"{fork['at']}" if fork else ""))
    print(f"  head     {ep['head_hash']} (event {ep['last_seq']})")
    print(f"  grader   {data['grader_version']}")
    rows = []
    for s in data["steps"]:
        effects = [e for e in s["events"] if e not in ("ActionReceived", "StepGraded")]
        why = "; ".join(f"{m['component']} {_num(m['delta'])}: {m['detail']}" for m in s["moved"])
        rows.append({"step": s["step"], "action": " + ".join(_short_action(a) for a in s["actions"])
                     or _short_action(s["action"]),
                     "events": ",".join(effects) or "-",
                     "change": "; ".join(s["changes"]) or (s["error"] and f"error: {s['error']}"),
                     "reward": _num(s["reward"]), "score": s["score"], "reason": why or "no change"})
    print()
    print_table(rows, ["step", "action", "events", "change", "reward", "score", "reason"], max_width=48)
    if data["steps"]:
        from graders import to_float

        print("\nfinal grade:")
        for name, c in data["steps"][-1]["components"].items():
            print(f"  {name:<12} {to_float(c['earned']):.4f}/{to_float(c['weight']):.4f}  {c['detail']}")
    if data["violations"]:
        print(colour("\nsafety violations (score capped):", "red"))
        for v in data["violations"]:
            print(f"  {v['rule']}: {v['reason']}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    data = _auditor(args).replay(args.episode)
    if args.json:
        _dump(data)
        return 0 if data["consistent"] else 1
    chain = colour("ok", "green") if data["chain_ok"] else colour("BROKEN", "red")
    print(f"episode {data['episode_id']}  task {data['task_id']}  seed {data['seed']}  "
          f"events {data['events']}  chain {chain}  head {data['head_hash'][:16]}…")
    bad_steps = {d["step"] for d in data["divergences"]}
    rows = [{"step": s["step"], "recorded_reward": _num(s["recorded_reward"]),
             "recomputed_reward": _num(s["reward"]), "recorded_score": s["recorded_score"],
             "recomputed_score": s["score"],
             "match": "DIFF" if s["step"] in bad_steps else "ok"} for s in data["steps"]]
    print_table(rows, ["step", "recorded_reward", "recomputed_reward", "recorded_score",
                       "recomputed_score", "match"])
    print(f"grader {data['grader_version']} (recorded with {data['recorded_grader_version']})")
    if data["consistent"]:
        print(colour(f"consistent: score {data['recorded_score']} reproduced", "green"))
        return 0
    first = data["first_divergence"]
    where = f"step {first['step']}" if first["step"] is not None else f"event {first['seq']}"
    print(colour(f"DIVERGED at {where} ({first['kind']}): {first['message']}", "red"))
    for d in data["divergences"][1:]:
        print(f"  also step {d['step']} ({d['kind']}): {d['message']}")
    return 1


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def cmd_verify(args: argparse.Namespace) -> int:
    from service.verify import check_heads, parse_heads, verify

    auditor = _auditor(args)
    with Spool() as failures:
        data = verify(auditor, _filter(args), ProgressBar("verify"), jobs=args.jobs,
                      failures=failures)
        data["heads"] = None
        if args.heads is not None:
            text = sys.stdin.read() if str(args.heads) == "-" else args.heads.read_text(encoding="utf-8")
            data["heads"] = check_heads(auditor, parse_heads(text), ProgressBar("heads "))
            data["ok"] = data["ok"] and data["heads"]["ok"]
        if args.json:
            dump(data, sys.stdout)
            return 0 if data["ok"] else 1
        for f in failures:
            d = f["first_divergence"]
            where = (f"step {d['step']}" if d["step"] is not None else
                     f"event {d['seq']}" if d["seq"] is not None else "its index row")
            print(colour(f"FAIL {f['episode_id']} ({f['task_id']}) at {where}: {d['message']}", "red"))
            for m in f["index"]:
                print(colour(f"  index {m['column']}: {m['index']!r}, the log says {m['log']!r}", "red"))
    print(f"verified {data['episodes']} episodes: {data['consistent']} consistent, "
          f"{data['inconsistent']} inconsistent")
    heads = data["heads"]
    if heads is not None:
        for f in heads["failures"]:
            print(colour(f"HEAD {f['episode_id']} {f['problem']}: {f['message']}", "red"))
        print(f"heads: {heads['matched']} of {heads['checked']} match the log")
    print(colour("OK", "green") if data["ok"] else colour("FAILED", "red"))
    return 0 if data["ok"] else 1


def cmd_heads(args: argparse.Namespace) -> int:
    from service.verify import current_heads, format_heads

    heads = current_heads(_auditor(args), _filter(args))
    if args.json:
        _dump({"heads": [h.to_json() for h in heads]})
        return 0
    for line in format_heads(heads):
        sys.stdout.write(line)
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    data = _auditor(args).diff(args.a, args.b)
    if args.json:
        _dump(data)
        return 0
    if not data["same_task"]:
        print(colour(f"warning: different task variants ({data['task_a']} vs {data['task_b']})",
                     "yellow"), file=sys.stderr)
    print(f"A {data['episode_a']}: {data['steps_a']} steps, score {data['score_a']}")
    print(f"B {data['episode_b']}: {data['steps_b']} steps, score {data['score_b']}")
    first = data["first_divergence"]
    if first is None:
        print(colour("identical step by step", "green"))
        return 0
    print(colour(f"first divergence at step {first['step']}", "bold"))
    rows = [{"what": "action", "a": json.dumps(first["action_a"], ensure_ascii=False),
             "b": json.dumps(first["action_b"], ensure_ascii=False)}]
    rows += [{"what": f"state.{k}", "a": v["a"], "b": v["b"]}
             for k, v in first["state_differences"].items()]
    rows.append({"what": "reward", "a": first["reward_a"], "b": first["reward_b"]})
    rows.append({"what": "reason", "a": first["reason_a"], "b": first["reason_b"]})
    print_table(rows, ["what", "a", "b"], max_width=70)
    return 0


def cmd_regrade(args: argparse.Namespace) -> int:
    from domain.tasks.catalog import default_catalog
    from service.judge import LLMJudge
    from service.regrade import regrade

    judge = None
    if args.judge == "llm":
        judge = LLMJudge.from_settings(args.settings, default_catalog())
        if judge is None:
            print("error: --judge llm needs JUDGE_MODEL and a key (JUDGE_API_KEY or OPENAI_API_KEY)",
                  file=sys.stderr)
            return 2
    with Spool() as changes:
        data = regrade(_auditor(args), _filter(args), dry_run=args.dry_run,
                       progress=ProgressBar("regrade"), grader_version=args.grader, judge=judge,
                       changes=changes)
        if args.json:
            dump(data, sys.stdout)
            return 0
        _print_regrade(data, list(itertools.islice(changes, 20)))
    return 0


def _print_regrade(data: dict[str, Any], first: list[dict[str, Any]]) -> None:
    """The regrade report for people: the per-task table and the first changed episodes."""
    judged = f", replies judged by {data['judge_model']}" if data["judge"] == "llm" else ""
    print(f"grader {data['grader_version']}{judged}: {data['episodes']} episodes re-scored, "
          f"{data['changed']} changed")
    rows = [{**t, "components moved": ", ".join(f"{k} {_num(v['total_delta'])} ({v['episodes']})"
                                                for k, v in t["components"].items()) or "-"}
            for t in data["tasks"]]
    print_table(rows, ["task_id", "episodes", "changed", "mean_recorded", "mean_new", "mean_delta",
                       "min_delta", "max_delta", "components moved"])
    for c in first:
        moved = ", ".join(f"{k} {v['recorded']}->{v['new']}" for k, v in c["components_moved"].items())
        print(f"  {c['episode_id']} {c['task_id']}: {c['recorded_score']} -> {c['new_score']} "
              f"({moved or 'rewards moved at steps ' + str(c['steps_moved'])})")
    if data["dry_run"]:
        print("dry run: nothing appended")
    else:
        print(f"appended {data['records_appended']} regrade records (batch {data['batch']}); "
              "the log and recorded scores are unchanged")


def cmd_export(args: argparse.Namespace) -> int:
    from service.export import export_lines

    lines = export_lines(_auditor(args), _filter(args), args.format)
    count = 0
    if args.output is not None:
        with args.output.open("w", encoding="utf-8") as out:
            for line in lines:
                out.write(line)
                count += 1
    else:
        for line in lines:
            sys.stdout.write(line)
            count += 1
    print(f"exported {count} episodes", file=sys.stderr)
    return 0


def cmd_fork(args: argparse.Namespace) -> int:
    from service.fork import fork

    data = fork(_auditor(args), args.episode, args.at, args.episode_id,
                customer=getattr(args, "customer", None))
    if args.json:
        _dump(data)
        return 0
    print(f"forked {data['forked_from']['episode_id']} at step {data['forked_from']['at']} -> "
          f"{colour(data['episode_id'], 'bold')}")
    print(f"  {data['step_count']} steps copied, score {data['score']}, open for new steps")
    who = data.get("customer", {"fork": "scripted", "original": "scripted"})
    print(f"  the customer: {who['fork']} (the original's: {who['original']})")
    print(f"  continue it: POST /step with episode_id={data['episode_id']} "
          "(or EnvironmentService.step)")
    return 0
