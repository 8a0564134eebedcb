"""``ticketledger compare``, ``noise``, ``bundle``, ``verify-bundle`` and ``regrade-bundle``: how far
a run's figures can be trusted, and result files anyone can check (docs/evaluation.md).

The figures are computed by ``service.results`` and ``service.bundle`` from the log (or the
bundle), so these commands answer what ``GET /runs/{id}`` and ``POST /bundles/verify`` answer.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from support.terminal import print_table


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("compare", help="two runs paired by instance and trial: the difference with "
                                       "its interval, a paired test, the verdicts that changed")
    p.add_argument("run_a")
    p.add_argument("run_b")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_compare)
    p = sub.add_parser("noise", help="a run's noise floor: the difference two runs of its size need "
                                     "before it means something, from its own trials")
    p.add_argument("run_id")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_noise)
    p = sub.add_parser("bundle", help="write a run as one self-contained file anyone can verify")
    p.add_argument("run_id")
    p.add_argument("-o", "--output", required=True, help="the bundle file to write (JSON)")
    p.set_defaults(func=cmd_bundle)
    p = sub.add_parser("verify-bundle", help="re-fold, re-grade and check a bundle offline; exit 1 "
                                             "naming every discrepancy")
    p.add_argument("file")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=cmd_verify_bundle)
    p = sub.add_parser("regrade-bundle", help="re-grade a (verified) bundle under another grader "
                                              "into a new report naming both versions")
    p.add_argument("file")
    p.add_argument("--grader-version", required=True, help="e.g. ticketledger-grader/3.1")
    p.add_argument("-o", "--output", help="write the report here (default: stdout, as JSON)")
    p.set_defaults(func=cmd_regrade_bundle)


def _auditor(args: argparse.Namespace) -> Any:
    from service.audit_views import Auditor
    from store import open_database

    return Auditor(open_database(args.settings.database_url, must_exist=True))


def _refuse(args: argparse.Namespace, exc: Exception) -> int:
    code = getattr(exc, "code", "error")
    if getattr(args, "json", False):
        print(json.dumps({"error": {"code": code, "message": str(exc)}}, indent=2))
    print(f"error: {exc}", file=sys.stderr)
    return 1


def _interval(fig: dict[str, Any] | None, digits: int = 4) -> str:
    if not fig:
        return "-"
    return f"{fig['value']:.{digits}f} [{fig['low']:.{digits}f}, {fig['high']:.{digits}f}]"


def cmd_compare(args: argparse.Namespace) -> int:
    from service.errors import ServiceError
    from service.results import compare_runs

    try:
        result = compare_runs(_auditor(args), args.run_a, args.run_b)
    except ServiceError as exc:
        return _refuse(args, exc)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"a = {result['run_a']}\nb = {result['run_b']}")
    print(f"paired: {result['units']} instances, {result['paired_episodes']} episode pairs "
          f"({result['trials']} trial(s) each); grader {', '.join(result['grader_versions'])}, "
          f"reward mode {', '.join(result['reward_modes'])}, split {result['split'] or '-'}")
    if result.get("note"):
        print(f"note: {result['note']}")
    rows = []
    for name, digits in (("mean_score", 4), ("success_rate", 2)):
        r = result[name]
        rows.append({"figure": name, "a": r["a"], "b": r["b"],
                     "a - b [95% interval]": _interval(r["difference"], digits),
                     "p (paired)": "< 0.0001" if r["p_value"] < 0.0001 else round(r["p_value"], 4),
                     "detectable": r["min_detectable_difference"],
                     "better/worse": f"{r['instances_better']}/{r['instances_worse']}"})
    print_table(rows, ["figure", "a", "b", "a - b [95% interval]", "p (paired)", "detectable",
                       "better/worse"])
    changed = result["changed_verdicts"]
    print(f"\n{len(changed)} verdict(s) changed ({result['changed_to_success']} to success in a, "
          f"{result['changed_to_failure']} to failure in a)")
    if changed:
        print_table([{"instance": c["unit"], "trial": c["trial"],
                      "a": "success" if c["a"] else "failure", "b": "success" if c["b"] else "failure",
                      "score a": c["score_a"], "score b": c["score_b"]} for c in changed],
                    ["instance", "trial", "a", "b", "score a", "score b"])
    print("\n'detectable': the smallest true difference these instances and trials find at the "
          "5% level 80% of the time; a difference below it, or with p >= 0.05, is not evidence.")
    return 0


def cmd_noise(args: argparse.Namespace) -> int:
    from service.errors import ServiceError
    from service.results import run_noise

    try:
        result = run_noise(_auditor(args), args.run_id)
    except ServiceError as exc:
        return _refuse(args, exc)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    floor = result["noise_floor"]
    print(f"run {result['run_id']}  {result['agent']}  {result['units']} instances, "
          f"{result['episodes']} episodes")
    print(f"mean score {_interval(result['mean_score'])}  success rate "
          f"{_interval(result['success_rate'], 2)}")
    if result["flip_rate"] is not None:
        print(f"flip rate over trials: {result['flip_rate']:.2f} ({result['flipped_units']} of "
              f"{result['repeated_units']} instances changed verdict between trials)")
    if not floor.get("known"):
        print(f"noise floor: unknown: {floor['reason']}")
        return 0
    print_table([{"figure": name, "trial sd": floor[name]["trial_sd"],
                  f"floor ({floor['units']} x {floor['trials']} trials)": floor[name]["this_size"],
                  f"floor ({floor['units']} x 1 trial)": floor[name]["single_trial"]}
                 for name in ("mean_score", "success_rate")],
                ["figure", "trial sd", f"floor ({floor['units']} x {floor['trials']} trials)",
                 f"floor ({floor['units']} x 1 trial)"])
    print("\nTwo runs of this agent this size differ by more than the floor only 5% of the time by "
          "chance; a smaller gap between two agents is not evidence that they differ.")
    return 0


def cmd_bundle(args: argparse.Namespace) -> int:
    from service.bundle import build_bundle, dump_bundle
    from service.errors import ServiceError

    try:
        bundle = build_bundle(_auditor(args), args.run_id)
    except ServiceError as exc:
        return _refuse(args, exc)
    Path(args.output).write_text(dump_bundle(bundle), encoding="utf-8")
    figs = bundle["reported"]["figures"]
    print(f"wrote {args.output}: run {args.run_id}, {len(bundle['episodes'])} episodes, grader "
          f"{bundle['grader']['version']}, mean score {_interval(figs.get('mean_score'))}")
    print(f"bundle digest {bundle['digest']} (publish it beside the file); check it with: "
          f"ticketledger verify-bundle {args.output}")
    return 0


def _read_bundle(path: str) -> Any:
    from service.bundle import BundleError, load_bundle

    try:
        return load_bundle(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise BundleError(f"cannot read {path}: {exc.strerror or exc}") from None


def cmd_verify_bundle(args: argparse.Namespace) -> int:
    from service.bundle import verify_bundle
    from service.errors import ServiceError

    try:
        report = verify_bundle(_read_bundle(args.file))
    except ServiceError as exc:
        return _refuse(args, exc)
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"bundle {args.file}: run {report['run_id']}, {report['episodes']} episodes, grader "
              f"{report['grader_version']}, digest {report['digest']}")
        for check in report["checks"]:
            print(f"  {'ok  ' if check['ok'] else 'FAIL'} {check['name']}: {check['detail']}")
        for problem in report["discrepancies"]:
            print(f"  - {problem['kind']}: {problem['message']}")
        print("verified: every check holds" if report["ok"] else
              f"NOT verified: {len(report['discrepancies'])} discrepancy(ies)")
    return 0 if report["ok"] else 1


def cmd_regrade_bundle(args: argparse.Namespace) -> int:
    from service.bundle import regrade_bundle
    from service.errors import ServiceError

    try:
        report = regrade_bundle(_read_bundle(args.file), args.grader_version)
    except ServiceError as exc:
        return _refuse(args, exc)
    text = json.dumps(report, indent=2)
    if args.output:
        Path(args.output).write_text(text + "\n", encoding="utf-8")
        old, new = report["original"], report["regraded"]
        print(f"wrote {args.output}: {old['grader_version']} mean score "
              f"{_interval(old['figures'].get('mean_score'))} -> {new['grader_version']} "
              f"{_interval(new['figures'].get('mean_score'))}; {report['changed']} episode(s) moved")
    else:
        print(text)
    return 0
