"""``ticketledger grader-eval``: measure the grader's text judge on the labelled corpus.

Prints, for the whole corpus and for its heldout part, a table per label kind (items labelled,
predicted, precision, recall), the violation recall, the false-violation rate, the exact label-set
accuracy and the fact recall and precision, a per channel breakdown, and the first misjudged items;
``--json`` prints the same facts as one JSON object. Exit codes: 0 measured; 1 with ``--floors``
when the heldout part is below the floors (``service.grader_eval.floors``); 2 bad input (a corpus
line, ``file:line: what to fix``; an unknown grader; an LLM judge that is not configured).

With ``--sweep FILE``, sentences are played end to end instead (:mod:`evaluation.sweep`): each one
in the gold reply and as a message, on every classic task at seeds 0-2 or, with ``--split``, on one
instance of every family case; the table counts per class the attack cells still above 0.2 and the
honest cells that fell below the gold episode's score.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from support.terminal import colour, print_table

if TYPE_CHECKING:
    from service.grader_eval import EvalReport, Metrics

SHOW_MISSES = 20
"""Misjudged items the table output lists unless ``--show-misses`` says otherwise."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "grader-eval", help="measure the grader's text judge on the labelled corpus",
        description="Plays every labelled text of the corpus offline in its setup (the expert's "
                    "actions, with or without the back-office ones), writes it on its channel and "
                    "compares what the grader found with the labels: per label precision and "
                    "recall, violation recall, false-violation rate, fact recall, for the whole "
                    "corpus and its heldout part. Exit 1 with --floors when the heldout part is "
                    "below the floors, 2 on bad input.")
    p.add_argument("--grader", default=None, metavar="VERSION",
                   help="the grader version that judges (default: the current one); e.g. "
                        "ticketledger-grader/3.0")
    p.add_argument("--judge", choices=("deterministic", "llm"), default="deterministic",
                   help="deterministic (default), or llm: the LLM reply judge configured by "
                        "JUDGE_MODEL, JUDGE_BASE_URL and JUDGE_API_KEY judges the reply drafts")
    p.add_argument("--heldout-only", action="store_true", help="judge the heldout items only")
    p.add_argument("--corpus", nargs="+", action="extend", type=Path, default=None, metavar="PATH",
                   help="corpus files or folders of *.jsonl files (default: the corpus the product "
                        "ships)")
    p.add_argument("--json", action="store_true", help="machine-readable report with the same facts")
    p.add_argument("--show-misses", type=int, default=None, metavar="N",
                   help=f"list at most N misjudged items (default: {SHOW_MISSES} in the tables, "
                        "all in --json)")
    p.add_argument("--sweep", nargs="+", action="extend", type=Path, default=None, metavar="PATH",
                   help="play sentence files (JSON lists of {kind, class, text}) or folders of them "
                        "end to end instead of judging the corpus; evaluation/sweeps holds the "
                        "product's sets")
    p.add_argument("--split", choices=("train", "dev", "test"), default=None,
                   help="with --sweep: play one instance of every family case of this split instead "
                        "of the classic tasks")
    p.add_argument("--floors", action="store_true",
                   help="exit 1 when the heldout part is below the product's floors (violation "
                        "recall, false-violation rate)")
    p.set_defaults(func=cmd_grader_eval)


def _bad_input(args: argparse.Namespace, code: str, message: str) -> int:
    if args.json:
        print(json.dumps({"error": {"code": code, "message": message}}, indent=2))
    print(f"error: {message}", file=sys.stderr)
    return 2


def cmd_grader_eval(args: argparse.Namespace) -> int:
    from domain.tasks.catalog import default_catalog
    from graders.versions import CURRENT, UnknownGrader
    from service.grader_eval import CorpusError, broken_floors, run_eval
    from service.judge import LLMJudge

    if args.show_misses is not None and args.show_misses < 0:
        return _bad_input(args, "bad_input", "--show-misses: N must be 0 or more")
    if args.split is not None and args.sweep is None:
        return _bad_input(args, "bad_input", "--split goes with --sweep")
    catalog = default_catalog()
    if args.sweep is not None:
        if args.judge != "deterministic" or args.corpus is not None or args.floors or args.heldout_only:
            return _bad_input(args, "bad_input", "--sweep plays sentences with the deterministic judge; "
                                                 "drop --judge, --corpus, --floors and --heldout-only")
        return _sweep(args, catalog, args.grader or CURRENT)
    llm = None
    if args.judge == "llm":
        llm = LLMJudge.from_settings(args.settings, catalog)
        if llm is None:
            return _bad_input(args, "no_llm_judge",
                              "--judge llm: no LLM judge is configured; set JUDGE_MODEL (an "
                              "OpenAI-compatible chat model), JUDGE_API_KEY (or OPENAI_API_KEY) "
                              "and, for another endpoint, JUDGE_BASE_URL")
    try:
        report = run_eval(args.corpus, grader_version=args.grader or CURRENT, llm=llm,
                          heldout_only=args.heldout_only, catalog=catalog)
    except CorpusError as exc:
        return _bad_input(args, "bad_corpus", str(exc))
    except UnknownGrader as exc:
        return _bad_input(args, "unknown_grader", str(exc.args[0]))
    broken = broken_floors(report.heldout) if args.floors else []
    if args.json:
        out = report.to_json(args.show_misses)
        if args.floors:
            out["floors"] = {"broken": broken, "ok": not broken}
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print_report(report, SHOW_MISSES if args.show_misses is None else args.show_misses)
        if args.floors:
            print()
            for line in broken:
                print(colour(line, "red"))
            if not broken:
                print(colour("the heldout part keeps the floors", "green"))
    return 1 if broken else 0


def _sweep(args: argparse.Namespace, catalog: Any, grader_version: str) -> int:
    from cli.progress import ProgressBar
    from evaluation.sweep import SweepError, run_sweep
    from graders.versions import GraderRetired, UnknownGrader

    try:
        report = run_sweep(args.sweep, grader_version=grader_version, catalog=catalog, split=args.split,
                           progress=ProgressBar("sweep"))
    except SweepError as exc:
        return _bad_input(args, "bad_sweep", str(exc))
    except (UnknownGrader, GraderRetired) as exc:
        return _bad_input(args, "unknown_grader", str(exc.args[0]))
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
        return 0
    where = f"the families' {args.split} split" if args.split else "the classic tasks at seeds 0-2"
    print(f"grader {report.grader_version}; {len(report.cells)} cells on {where}; "
          f"from {', '.join(report.files)}")
    rows: list[dict[str, Any]] = [{"class": k, "cells": n, "broken": b,
                                   "share": round(b / n, 4) if n else None,
                                   "means": "honest work lost" if k == "honest" else "harm still paid"}
                                  for k, (b, n) in report.by_class().items()]
    print_table(rows, ["class", "cells", "broken", "share", "means"])
    broken = [(k, b, n) for k, (b, n) in report.by_kind().items() if b]
    limit = SHOW_MISSES if args.show_misses is None else args.show_misses
    if broken and limit:
        print(f"\nsentences with broken cells: {len(broken)}"
              + (f" (the first {limit})" if len(broken) > limit else ""))
        print_table([{"kind": k, "broken": b, "cells": n} for k, b, n in broken[:limit]],
                    ["kind", "broken", "cells"])
    return 0


def _share(value: float | None, numerator: int, denominator: int) -> str:
    return "-" if value is None else f"{value:.4f} ({numerator}/{denominator})"


def print_part(name: str, m: Metrics) -> None:
    print(f"{name}: {m.items} items, {m.labelled} labelled with a violation, {m.acceptable} acceptable")
    rows: list[dict[str, Any]] = [{"label": s.label, "n": s.n, "predicted": s.predicted, "hits": s.hits,
                                   "precision": s.precision, "recall": s.recall} for s in m.labels]
    print_table(rows, ["label", "n", "predicted", "hits", "precision", "recall"])
    print(f"violation recall      {_share(m.violation_recall, m.caught, m.labelled)}")
    print(f"false-violation rate  {_share(m.false_violation_rate, m.false_alarms, m.acceptable)}")
    print(f"exact label sets      {_share(m.exact_accuracy, m.exact, m.items)}")
    print(f"fact recall           {_share(m.fact_recall, m.facts_hit, m.facts_expected)}")
    print(f"fact precision        {_share(m.fact_precision, m.facts_hit, m.facts_predicted)}")
    if m.channels:
        rows = [{"channel": c, "items": cm.items, "violation_recall": cm.violation_recall,
                 "false_violation_rate": cm.false_violation_rate, "exact": cm.exact_accuracy,
                 "fact_recall": cm.fact_recall, "fact_precision": cm.fact_precision}
                for c, cm in m.channels.items()]
        print_table(rows, ["channel", "items", "violation_recall", "false_violation_rate", "exact",
                           "fact_recall", "fact_precision"])


def print_report(report: EvalReport, show_misses: int) -> None:
    print(f"grader {report.grader_version}; judge {report.judge}; {len(report.judgements)} items "
          f"from {', '.join(report.files)}; {report.setups} setups; {report.seconds:.1f} s")
    for key, value in report.llm_calls().items():
        print(f"llm judge {key}: {value}")
    measured = report.llm_agreement()
    if measured is not None:
        agree, order = measured["agreement"], measured["order_consistency"]
        rate = _share(agree["rate"], agree["agree"], agree["compared"])
        print(f"llm judge agreement with the rules: {rate} on whether a draft breaks a rule a "
              f"verdict can name (kappa {agree['kappa']}); {agree['llm_only']} flagged by the model "
              f"only, {agree['rules_only']} by the rules only, {agree['same_label']} of "
              f"{agree['both_flag']} flagged by both with the same label")
        rate = _share(order["rate"], order["same_verdict"], order["compared"])
        print(f"llm judge order consistency: {rate} the same verdict with the prompt in another "
              f"order; facts share moved by {order['facts_mean_abs_change']} on average")
    unmapped = report.unmapped_rules()
    if unmapped:
        print(colour("rules with no label (counted as a violation): "
                     + ", ".join(f"{r} x{n}" for r, n in unmapped.items()), "yellow"))
    print()
    print_part("all", report.overall)
    print()
    print_part("heldout", report.heldout)
    wrong = report.misses
    if show_misses and wrong:
        print(f"\nmisjudged: {len(wrong)} of {len(report.judgements)}"
              + (f" (the first {show_misses})" if len(wrong) > show_misses else ""))
        rows = []
        for j in wrong[:show_misses]:
            row: dict[str, Any] = {"id": j.id, "channel": j.channel,
                                   "expected": ",".join(sorted(j.expected)) or "ok",
                                   "predicted": ",".join(sorted(j.predicted)) or "ok", "facts": "-"}
            if not j.facts_right:
                missed = sorted((j.expected_facts or frozenset()) - (j.predicted_facts or frozenset()))
                extra = sorted((j.predicted_facts or frozenset()) - (j.expected_facts or frozenset()))
                row["facts"] = "; ".join(p for p in (f"missed {', '.join(missed)}" if missed else "",
                                                     f"extra {', '.join(extra)}" if extra else "") if p)
            rows.append(row)
        print_table(rows, ["id", "channel", "expected", "predicted", "facts"], max_width=48)
    elif not wrong:
        print("\nno item misjudged")
