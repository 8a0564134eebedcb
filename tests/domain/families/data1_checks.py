"""The checks every family of ``fam-data-1`` must pass, written once; each ``test_<family>.py``
calls them with its family and its own honest replies.

What they hold a family to (issue 18 and the families contract): the spec and judging rubric load
and agree; seeds 0..119 draw 120 distinct instances and every case at least 10% of them; the
subject line alone never tells the case; the family's solver, reading only the observation,
scores at least 0.95 and ends within the step budget; the built-in policy plays it without
crashing; an honest reply written for each case (not the solver's) scores at least 0.85 played with
the expert's other actions; and the grader audit's adversaries stay within their bounds.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence

from baseline.policy import next_action as builtin_policy
from domain.tasks.catalog import Catalog, default_catalog
from evaluation.grader_audit import texts
from evaluation.grader_audit.disguise import spans
from evaluation.grader_audit.families import fill
from evaluation.grader_audit.runner import run_audit
from service import EnvironmentService
from service.scripted import solution
from tests.domain.families import data1_harness as h

SOLVER_FLOOR = 0.95
HONEST_FLOOR = 0.85
MIN_CASE_SHARE = 0.10
FAST_SEEDS = range(0, 12)
"""Seeds the fast tier plays (every case of every family of fam-data-1 is among them)."""


def seeds_per_case(catalog: Catalog, family: str, seeds: Iterable[int] = h.SEEDS,
                   per_case: int = 3) -> dict[str, list[int]]:
    """The first ``per_case`` seeds that draw each case."""
    found: dict[str, list[int]] = defaultdict(list)
    for seed in seeds:
        case = catalog.instance(h.task_id(family), seed).case
        if len(found[case]) < per_case:
            found[case].append(seed)
    return dict(found)


def check_spec(catalog: Catalog, family: str) -> None:
    spec, judging = h.load_family(family)
    assert spec.task_id == h.task_id(family) and spec.source == "ticketledger"
    assert sorted(judging) == sorted(c.name for c in spec.cases)
    assert len(spec.cases) >= 3
    shapes = {(tuple(r.action for r in c.expected.required_actions),
               tuple(sorted(r.action for r in c.expected.forbidden_actions))) for c in spec.cases}
    assert len(shapes) == len(spec.cases), "cases must differ in required or forbidden actions"
    for case in spec.cases:
        required = {r.action for r in case.expected.required_actions}
        assert not required & {r.action for r in case.expected.forbidden_actions}, case.name
    for seed in (None, 0):
        task = catalog.instance(spec.task_id, seed)
        rubric = catalog.judging_rubric(task)
        assert rubric is not None and "{" not in rubric.must + rubric.must_not


def check_attack_texts(catalog: Catalog, family: str) -> None:
    """The grader audit's attack texts for the family: a contradiction per case (and the families'
    secret request and insult), each with one marked span, filling for every variant of seeds
    0..11."""
    tid = h.task_id(family)
    for seed in FAST_SEEDS:
        task = catalog.instance(tid, seed)
        found = [*texts.CONTRADICTIONS[(tid, task.case)], texts.FAMILY_SECRET_REQUEST, texts.FAMILY_ABUSE]
        for template in found:
            assert len(spans(template)) == 1, template
            assert "{" not in fill(template, task)


def check_instances(catalog: Catalog, family: str) -> None:
    """120 distinct instances, every case at least 10% of them, and no subject line that tells
    the case by itself (a keyword matcher on the subject cannot solve the family)."""
    tid = h.task_id(family)
    tasks = [catalog.instance(tid, s) for s in h.SEEDS]
    texts = {json.dumps(catalog.variant(tid, s).json_form()["ticket"], sort_keys=True) for s in h.SEEDS}
    assert len(texts) == len(tasks)
    cases = Counter(t.case for t in tasks)
    assert set(cases) == {c.name for c in catalog.spec(tid).cases}
    assert min(cases.values()) >= MIN_CASE_SHARE * len(tasks), cases
    by_subject: dict[str, set[str]] = defaultdict(set)
    for t in tasks:
        by_subject[t.ticket.subject.split(" ")[0]].add(t.case)
    assert all(len(c) > 1 for c in by_subject.values()), by_subject


LIMIT = re.compile(r"\b\d+(?:-\d+)? (?:business days|days|hours)\b")
"""A time limit a reply quotes ('5-7 business days', '30 days')."""


def check_solver(service: EnvironmentService, family: str, seeds: Iterable[int]) -> list[float]:
    """The solver ends every episode with at least 0.95, and every time limit its reply quotes is
    one the family's policy text states (the solver knows the policy; it invents no promise)."""
    scores = []
    for seed in seeds:
        result = h.play_agent(service, h.task_id(family), seed, h.solver(family))
        assert result.done and result.state.status != "open", (family, seed)
        assert result.score >= SOLVER_FLOOR, (family, seed, result.grade and result.grade.audit_reason())
        policy = default_catalog().policy_text(result.state.variant.task.policies[0]).lower()
        for limit in LIMIT.findall(result.state.reply_draft or ""):
            assert limit in policy, (family, seed, limit)
        scores.append(result.score)
    return scores


def check_builtin_policy_runs(service: EnvironmentService, family: str, seeds: Iterable[int]) -> None:
    for seed in seeds:
        result = h.play_agent(service, h.task_id(family), seed, builtin_policy)
        assert result.done, (family, seed)


def check_honest(service: EnvironmentService, catalog: Catalog, family: str,
                 replies: Mapping[str, Sequence[str]],
                 notes: Mapping[str, Sequence[str]] | None = None) -> None:
    """Each case's honest replies (and notes, paired in order), each on three seeds of the case,
    score at least 0.85, and the reply and note components keep at least 0.85 of their weight."""
    tid = h.task_id(family)
    assert set(replies) == {c.name for c in catalog.spec(tid).cases}
    for case, seeds in seeds_per_case(catalog, family).items():
        for k, seed in itertools.product(range(len(replies[case])), seeds):
            task = catalog.instance(tid, seed)
            reply = h.fill(replies[case][k], task)
            note = h.fill(notes[case][k % len(notes[case])], task) if notes else None
            result = h.play_actions(service, tid, seed, h.with_texts(task, reply, note))
            grade = result.grade
            assert grade is not None
            why = grade.audit_reason()
            assert result.score >= HONEST_FLOOR, (family, case, k, seed, why)
            for c in grade.components:
                if c.name in ("reply", "note"):
                    assert c.earned >= HONEST_FLOOR * c.weight, (family, case, k, seed, why)


def check_expert(service: EnvironmentService, catalog: Catalog, family: str) -> None:
    """The scripted expert (the audit's reference) scores 1.0 on every case."""
    tid = h.task_id(family)
    for seeds in seeds_per_case(catalog, family, per_case=1).values():
        result = h.play_actions(service, tid, seeds[0], solution(catalog.instance(tid, seeds[0])))
        assert result.score == 1.0, result.grade and result.grade.audit_reason()


def check_audit(family: str) -> None:
    """Every adversary of the grader audit within its bound on seeds 0..11; the scripted expert
    passes; only the seed tasks' contrary_decision family does not apply, and unrequested_action
    where the case's answer key names every harmful action itself. The catalog holds the
    four families, so the reply copier has another task's reply to copy."""
    report = run_audit(catalog=h.catalog_of(), task_ids=[h.task_id(family)], seeds=range(0, 12),
                       policy=builtin_policy)
    bad = [(c.family, c.worst.detail if c.worst else "") for c in report.cells
           if c.status in ("fail", "error")]
    assert not bad, bad
    not_applicable = {c.family for c in report.cells if c.status == "n/a"}
    assert not_applicable <= {"contrary_decision", "unrequested_action"}, not_applicable
