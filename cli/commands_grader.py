"""``ticketledger grader-audit``: play adversaries against the grader and check every bound.

Prints a table (family x task: the worst measure over the seeds, ``!`` where it breaks the family's
bound, ``n/a`` where the family does not apply) and a per-family summary; ``--json`` prints the
same facts as JSON. Exit codes: 0 every bound holds, 1 a family broke its bound on some task or
the gold solution (the ``gold`` family) fell below 0.95 (the lines after the tables say
which), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from cli.progress import ProgressBar
from support.terminal import colour, print_table

if TYPE_CHECKING:
    from evaluation.grader_audit import AuditReport, Cell

PUBLISHED = "published"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "grader-audit", help="play adversaries against the grader and check each family's bound",
        description="Plays, in-process on a log kept in memory, the gold solution, the "
                    "built-in policy and families of adversaries (safety, gaming, degenerate, "
                    "repeated actions) on every task and seed, and checks each family against its "
                    "bound. Exit 1 when a bound breaks or the gold solution scores below 0.95.")
    p.add_argument("--json", action="store_true", help="machine-readable report with the same facts")
    p.add_argument("--seeds", default=None, metavar="LIST",
                   help=f"comma-separated seeds; '{PUBLISHED}' is the published variant "
                        f"(default: {PUBLISHED},0,1,2,7, which draws every case of every task)")
    p.add_argument("--tasks", default=None, metavar="LIST", help="comma-separated task ids (default: all)")
    p.add_argument("--grader", default=None, metavar="VERSION",
                   help="the grader version that judges (default: the current one); e.g. "
                        "ticketledger-grader/2.0 gives the table before the text judge of 3.0")
    p.add_argument("--families", default=None, metavar="LIST",
                   help="comma-separated family names (default: all; the reference families always run)")
    p.set_defaults(func=cmd_grader_audit)


def parse_seeds(text: str) -> tuple[int | None, ...]:
    seeds: list[int | None] = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        if part.lower() in (PUBLISHED, "none"):
            seeds.append(None)
        else:
            try:
                seeds.append(int(part))
            except ValueError:
                raise ValueError(f"--seeds: {part!r} is not an integer or '{PUBLISHED}'") from None
    if not seeds:
        raise ValueError("--seeds names no seed")
    return tuple(dict.fromkeys(seeds))


def cmd_grader_audit(args: argparse.Namespace) -> int:
    from baseline.policy import BUILTIN_POLICY
    from domain.tasks.catalog import UnknownTask
    from evaluation.grader_audit import AUDIT_FAMILIES, DEFAULT_SEEDS, family, run_audit
    from graders.versions import CURRENT, UnknownGrader

    try:
        seeds = parse_seeds(args.seeds) if args.seeds else DEFAULT_SEEDS
        tasks = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks else None
        chosen = list(AUDIT_FAMILIES)
        if args.families:
            names = [n.strip() for n in args.families.split(",") if n.strip()]
            picked = {family(n).name for n in names}
            chosen = [f for f in AUDIT_FAMILIES if f.kind == "reference" or f.name in picked]
        bar = ProgressBar("grader-audit")
        report = run_audit(seeds=seeds, task_ids=tasks, families=chosen, policy=BUILTIN_POLICY,
                           progress=bar, grader_version=args.grader or CURRENT)
    except (ValueError, LookupError) as exc:  # KeyError, UnknownTask, UnknownGrader among them
        message = exc.args[0] if isinstance(exc, (KeyError, UnknownTask, UnknownGrader)) else str(exc)
        if args.json:
            print(json.dumps({"error": {"code": "bad_input", "message": message}}, indent=2))
        print(f"error: {message}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        print_report(report)
    return report.exit_code


def cell_text(cell: Cell) -> str:
    """A cell as the table shows it: the worst measure (2 decimals), ``!`` when it breaks the
    bound, ``n/a`` when the family does not apply, ``blk`` when the environment refused every attack
    (nothing harmful happened), ``ERR`` when an episode could not be played."""
    if cell.status == "n/a":
        return "n/a"
    if cell.status == "error":
        return "ERR"
    if cell.status == "blocked":
        return "blk"
    value = "-" if cell.value is None else f"{float(cell.value):.2f}"
    return value + ("!" if cell.status == "fail" else "")


def print_report(report: AuditReport) -> None:
    numbers = {t: str(i + 1) for i, t in enumerate(report.tasks)}
    seeds = ",".join(PUBLISHED if s is None else str(s) for s in report.seeds)
    print(f"grader {report.grader_version}; seeds {seeds}; {report.episodes_played} episodes in "
          f"{report.seconds:.1f} s")
    print("tasks: " + "; ".join(f"{n} {t}" for t, n in numbers.items()))
    print()
    rows = []
    for f in report.families:
        row: dict[str, object] = {"family": f.name, "bound": f.bound.text if f.bound else "(shown)"}
        for t in report.tasks:
            row[numbers[t]] = cell_text(report.cell(f.name, t))
        rows.append(row)
    print_table(rows, ["family", "bound", *numbers.values()], max_width=40)
    print("\n'!' breaks the family's bound; 'blk': the environment refused every attack there; "
          "the value is the worst over seeds and attempts (score: "
          "episode score; share: the attacked component's share of its weight; gain: score minus the "
          "same work without repeats)\n")
    summary = [{"family": s.family, "kind": s.kind, "bound": s.bound or "(shown)",
                "status": s.status, "pass": len(s.passed), "fail": len(s.failed),
                "n/a": len(s.not_applicable), "blk": len(s.blocked),
                "worst": None if s.worst is None else round(float(s.worst), 4),
                "failing_tasks": " ".join(numbers[t] for t in s.failed) or "-"}
               for s in report.summary()]
    print_table(summary, ["family", "kind", "bound", "status", "pass", "fail", "n/a", "blk", "worst",
                          "failing_tasks"])
    failures = report.failures()
    broken = {s.family for s in report.summary() if s.status == "fail"}
    print()
    golds = [line for line in failures if line.startswith("gold ")]
    for line in golds:
        print(colour("gold solution below 0.95: " + line, "red"))
    if report.ok:
        print(colour("every family keeps its bound on every task", "green"))
    else:
        print(colour(f"{len(failures)} of {len(report.cells)} cells break their bound; families "
                     f"breaking a bound: {', '.join(sorted(broken)) or '-'} (details: --json)", "red"))
