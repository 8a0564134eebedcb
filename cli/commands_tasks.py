"""``ticketledger tasks``: the task families' instances, splits, manifest and verification.

``tasks --split S`` / ``--family F`` list instances; ``tasks build-manifest`` regenerates the
committed manifest (offline; the runtime only reads it); ``tasks verify`` plays instances in
memory with their gold, their family's solver and the grader audit's adversaries (docs/tasks.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from support.terminal import print_table


def register_tasks(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="tasks_command", metavar="TASKS_COMMAND")
    b = sub.add_parser("build-manifest", help="regenerate the task families' manifest (instances, "
                                              "case shares, splits, digests) and write it")
    b.add_argument("--check", action="store_true",
                   help="write nothing; exit 1 when the committed manifest is stale")
    b.add_argument("--output", type=Path, default=None,
                   help="where to write (default: the packaged domain/tasks/families/manifest.json)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_build_manifest)
    v = sub.add_parser("verify", help="play the task families' instances in memory: the gold and "
                                      "the family solver (each >= 0.95, case reached) and the "
                                      "grader audit's adversaries (within their bounds)")
    v.add_argument("--sample", type=int, default=None, metavar="N",
                   help="verify N instances per family (a deterministic sample covering every "
                        "case) instead of all")
    v.add_argument("--family", default=None, metavar="FAMILY", help="verify one family only")
    v.add_argument("--no-audit", action="store_true", help="skip the grader audit's adversaries")
    v.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                   help="families verified side by side in N processes (default: the CPU count)")
    v.add_argument("--json", action="store_true")
    v.set_defaults(func=cmd_verify)


def cmd_instances(args: argparse.Namespace) -> int:
    from domain.tasks import default_catalog

    catalog = default_catalog()
    try:
        refs = list(catalog.split(args.split) if args.split else catalog.family_instances(args.family))
        if args.split and args.family:
            family = args.family.removeprefix("task_family_")
            catalog.family_instances(family)  # an unknown family fails here
            refs = [r for r in refs if r.family == family]
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    offset = {r.id: k for k, r in enumerate(catalog.split(args.split))} if args.split else {}
    rows = [{"index": offset.get(r.id), "instance": r.id, "family": r.family, "task_id": r.task_id,
             "seed": r.seed, "case": r.case, "split": r.split, "digest": r.digest} for r in refs]
    if args.json:
        manifest = catalog.manifest
        assert manifest is not None
        extra = {"split": args.split, "digest": manifest.split_digests[args.split]} if args.split else {}
        print(json.dumps({**extra, "instances": rows}, indent=2))
    else:
        columns = ["index", "instance", "task_id", "seed", "case"] if args.split else \
            ["instance", "task_id", "seed", "case", "split"]
        print_table(rows, columns)
    return 0


def cmd_build_manifest(args: argparse.Namespace) -> int:
    from domain.tasks.catalog import load_catalog
    from domain.tasks.generate import ManifestError, build_manifest
    from domain.tasks.manifest import MANIFEST_FILE

    target: Path = args.output or MANIFEST_FILE
    try:
        manifest = build_manifest(load_catalog(manifest_file=None))
    except ManifestError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    text = manifest.text()
    current = target.read_text(encoding="utf-8") if target.exists() else None
    summary = {"manifest": str(target), "generator_digest": manifest.generator_digest,
               "families": len(manifest.families), "instances": len(manifest.instances),
               "splits": {s: {"instances": len(manifest.split(s)), "digest": d}
                          for s, d in manifest.split_digests.items()},
               "up_to_date": current == text}
    if args.check:
        if args.json:
            print(json.dumps(summary, indent=2))
        elif current == text:
            print(f"{target.name} is up to date ({len(manifest.instances)} instances)")
        else:
            print(f"{target.name} is stale; rebuild it with `ticketledger tasks build-manifest`",
                  file=sys.stderr)
        return 0 if current == text else 1
    if current != text:
        target.write_text(text, encoding="utf-8")
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        for name, f in manifest.families.items():
            shares = ", ".join(f"{c} {n}" for c, n in f.cases.items())
            print(f"{name}: {f.instances} instances ({shares})")
        splits = ", ".join(f"{s} {len(manifest.split(s))} ({d})" for s, d in manifest.split_digests.items())
        print(f"{len(manifest.instances)} instances in {len(manifest.families)} families; splits: "
              f"{splits}; generator {manifest.generator_digest}")
        print(f"{'wrote' if current != text else 'unchanged'} {target}")
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from domain.tasks import default_catalog
    from evaluation.task_families import verify

    catalog = default_catalog()
    if catalog.manifest is None:
        print("error: no task-family manifest; build it with `ticketledger tasks build-manifest`",
              file=sys.stderr)
        return 2
    try:
        report = verify(catalog, per_family=args.sample, family=args.family,
                        audit=not args.no_audit, workers=max(1, args.workers))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    failures = [{"instance": c.ref.id, "case": c.ref.case, "player": c.player,
                 "score": round(c.score, 4), "problem": c.problem} for c in report.failures]
    families = report.by_family()
    verified = sum(row["instances"] for row in families.values())
    if args.json:
        print(json.dumps({"ok": report.ok, "instances": verified,
                          "families": families, "gold_by_split": report.gold_by_split(),
                          "failures": failures, "gold_problems": report.gold_problems,
                          "audited_instances": report.audited_instances,
                          "audit_episodes": report.audit.episodes_played if report.audit else 0,
                          "audit_failures": report.audit_failures,
                          "seconds": round(report.seconds, 2)}, indent=2))
    else:
        rows = [{"family": f, **row} for f, row in families.items()]
        print_table(rows, ["family", "instances", "gold_passed", "gold_min_score", "gold_mean_score",
                           "solver_passed", "solver_min_score", "solver_mean_score"])
        splits = [{"family": f, "split": split, **row}
                  for f, by_split in report.gold_by_split().items()
                  for split, row in sorted(by_split.items())]
        print("gold by split:")
        print_table(splits, ["family", "split", "instances", "passed", "min_score", "mean_score"])
        for f in failures:
            print(f"FAIL {f['instance']} ({f['case']}, {f['player']}): {f['problem']}")
        for problem in report.gold_problems:
            print(f"FAIL gold file: {problem}")
        if report.audit is not None:
            print(f"grader audit: {report.audit.episodes_played} adversary episodes on "
                  f"{report.audited_instances} instances, "
                  f"{len(report.audit_failures)} families out of bounds")
            for line in report.audit_failures:
                print(f"FAIL audit {line}")
        print(f"{'ok' if report.ok else 'FAILED'}: {verified} instances verified in "
              f"{report.seconds:.1f} s")
    return 0 if report.ok else 1
