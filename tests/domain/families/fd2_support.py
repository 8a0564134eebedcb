"""Shared by the fam-data-2 family tests (outage, security_report, plan_change, complaint): a
catalog holding one family, its solver played through the real service (a SQLite file), honest
replies played in its place, and the grader audit run on the family alone.
"""

from __future__ import annotations

import importlib
import json
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from domain.tasks.catalog import Catalog, default_catalog
from domain.tasks.judging import JudgingRubric
from domain.tasks.spec import TaskInstance, TaskSpec
from evaluation.grader_audit import run_audit
from evaluation.grader_audit.report import AuditReport
from graders.safety import violations
from service.environment import EnvironmentService
from store import open_database
from tests.domain.families.honest_fd2 import HONEST

FAMILIES_DIR = Path(__file__).resolve().parents[3] / "domain" / "tasks" / "families"
Agent = Callable[[dict[str, Any]], dict[str, Any]]


def task_id(family: str) -> str:
    return f"task_family_{family}"


@cache
def catalog(family: str) -> Catalog:
    """A catalog holding only ``family``'s spec, with the packaged policies and its judging rubric."""
    folder = FAMILIES_DIR / family
    spec = TaskSpec.model_validate_json((folder / "spec.json").read_text(encoding="utf-8"))
    raw = json.loads((folder / "judging.json").read_text(encoding="utf-8"))
    judging = {spec.task_id: {case: JudgingRubric.model_validate(r) for case, r in raw.items()}}
    return Catalog([spec], default_catalog().policies, judging)


OTHER_TASK = {"outage": "task_medium_angry_escalation", "security_report": "task_medium_angry_escalation",
              "plan_change": "task_medium_angry_escalation", "complaint": "task_hard_enterprise_outage"}
"""A classic task in the audit's catalog, so that the reply-copier attack has another ticket's
reply to send. Not the angry escalation for complaints: its holding reply (sorry, a specialist
within 24 hours) is the right reply to a complaint about anything else (CM-1), not a copied one;
nor the enterprise outage for outages (an incident with 15-minute updates is right there)."""


def audit_catalog(family: str) -> Catalog:
    """:func:`catalog` plus one classic task (not audited: the copier's source)."""
    own = catalog(family)
    classic = default_catalog()
    other = OTHER_TASK[family]
    return Catalog([*own.specs(), classic.spec(other)], classic.policies,
                   {**own.judging, other: classic.judging[other]})


def solver(family: str) -> Agent:
    act: Agent = importlib.import_module(f"baseline.solvers.{family}").act
    return act


def play(service: EnvironmentService, family: str, seed: int, agent: Agent | None = None,
         reply: str | None = None) -> tuple[TaskInstance, Any]:
    """Play the family solver (or ``agent``) on ``seed`` to the end; with ``reply``, its reply is
    swapped for that text. Returns the task and the last step's result."""
    act = agent or solver(family)
    result = service.reset(task_id(family), seed=seed)
    task = service.state(result.episode_id).task
    assert task is not None
    while not result.done:
        action = act(result.observation.model_dump(mode="json"))
        if reply is not None and action.get("action_type") == "draft_reply":
            action = {"action_type": "draft_reply", "reply_text": reply}
        result = service.step(result.episode_id, action)
    return task, result


@contextmanager
def scratch_service(family: str) -> Iterator[EnvironmentService]:
    with tempfile.TemporaryDirectory(prefix=f"fd2-{family}-") as tmp:
        db = open_database(f"sqlite:///{Path(tmp) / 'episodes.db'}")
        try:
            yield EnvironmentService(db, catalog(family))
        finally:
            db.dispose()


def run_family_audit(family: str, seeds: Sequence[int | None], policy: Agent | None = None) -> AuditReport:
    """The grader audit on ``family`` over ``seeds``: the adversaries build on the family solver's
    episode (the audit's default for a task family), the contradictions are the family's own
    (:data:`evaluation.grader_audit.texts.CONTRADICTIONS`), the secret request and the insult the
    families' generic ones; one classic task is in the catalog as the reply-copier's source."""
    return run_audit(catalog=audit_catalog(family), task_ids=[task_id(family)], seeds=seeds, policy=policy)


# ----------------------------------------------------------------------------- shared checks
SEEDS = range(120)
MIN_SOLVER = 0.95
MIN_HONEST = 0.85
MIN_CASE_SHARE = 0.10


def cases_by_seed(family: str, seeds: Sequence[int] = SEEDS) -> dict[int, str]:
    cat = catalog(family)
    return {seed: cat.instance(task_id(family), seed).case for seed in seeds}


def first_seed_per_case(family: str, per_case: int = 1) -> list[int]:
    """The first ``per_case`` seeds (of 0..119) drawing each case of the family, in seed order."""
    chosen: dict[str, list[int]] = {}
    for seed, case in cases_by_seed(family).items():
        if len(chosen.setdefault(case, [])) < per_case:
            chosen[case].append(seed)
    return sorted(s for seeds in chosen.values() for s in seeds)


def check_instances(family: str) -> None:
    """120 distinct instances; every case at least 10% of them; the judging rubric fills."""
    cat = catalog(family)
    tid = task_id(family)
    variants = [cat.variant(tid, seed) for seed in SEEDS]
    assert len({v.json_text for v in variants}) == len(variants)
    counts: dict[str, int] = {}
    for v in variants:
        counts[v.task.case] = counts.get(v.task.case, 0) + 1
        assert cat.judging_rubric(v.task) is not None
    names = [c.name for c in cat.spec(tid).cases]
    assert sorted(counts) == sorted(names), counts
    assert min(counts.values()) >= MIN_CASE_SHARE * len(variants), counts
    required = {case.name: {r.describe() for r in case.expected.required_actions}
                for case in cat.spec(tid).cases}
    forbidden = {case.name: {r.describe() for r in case.expected.forbidden_actions}
                 for case in cat.spec(tid).cases}
    shapes = {(frozenset(required[n]), frozenset(forbidden[n])) for n in names}
    assert len(shapes) == len(names), "cases must differ in required or forbidden actions"


def check_subject_does_not_decide(family: str) -> None:
    """A distractor: some subject line is drawn with different cases, so it cannot decide."""
    cat = catalog(family)
    seen: dict[str, set[str]] = {}
    for seed in SEEDS:
        task = cat.instance(task_id(family), seed)
        seen.setdefault(task.ticket.subject, set()).add(task.case)
    assert max(len(c) for c in seen.values()) == len(cat.spec(task_id(family)).cases), seen


def check_solver(family: str, seeds: Sequence[int]) -> list[float]:
    """The solver, reading only the observation, scores at least 0.95 within max_steps."""
    scores = []
    with scratch_service(family) as service:
        for seed in seeds:
            task, result = play(service, family, seed)
            assert result.state.step_count <= task.max_steps
            assert result.state.status != "open", (seed, task.case)
            assert result.state.score >= MIN_SOLVER, (seed, task.case, result.grade.audit_reason())
            scores.append(result.state.score)
    return scores


def honest_texts(family: str, task: TaskInstance) -> list[str]:
    return [t.format(first=task.first_name, **task.variables) for t in HONEST[family][task.case]]


def check_honest(family: str, seeds: Sequence[int]) -> None:
    """Natural replies written for the case (not the solver's) score at least 0.85 in an episode
    with the solver's other actions, with no violation."""
    with scratch_service(family) as service:
        for seed in seeds:
            task = catalog(family).instance(task_id(family), seed)
            for text in honest_texts(family, task):
                _, result = play(service, family, seed, reply=text)
                assert not violations(result.state), violations(result.state)
                assert result.state.score >= MIN_HONEST, (seed, task.case, result.grade.audit_reason())


def check_builtin_policy(family: str, seeds: Sequence[int]) -> float:
    """The built-in policy plays the family to the end without an error (its score may be low)."""
    from baseline.policy import next_action

    scores = []
    with scratch_service(family) as service:
        for seed in seeds:
            task, result = play(service, family, seed, agent=next_action)
            assert result.done and result.state.step_count <= task.max_steps
            scores.append(result.state.score)
    return sum(scores) / len(scores)


def check_audit(family: str, seeds: Sequence[int]) -> None:
    """Every adversary family of the grader audit keeps its bound; the reference is the solver."""
    report = run_family_audit(family, seeds)
    assert not report.failures(), report.failures()
    applied = {c.family for c in report.cells if c.status in ("pass", "blocked")}
    for name in ("forbidden_action", "contradiction", "secret_request", "abuse", "keyword_list",
                 "keywords_in_filler", "other_task_reply", "tag_spam", "close_at_once",
                 "repeated_actions"):
        assert name in applied, f"{name} did not play on {family}"


SECOND_TOPICS: dict[str, dict[str, str]] = {
    "outage": {"invoice": "invoice", "dark_mode": "dark mode"},
    "security_report": {"two_factor": "two-factor", "admin": "admin"},
    "plan_change": {"invoice": "invoice", "address": "billing address"},
    "complaint": {"manager": "account manager", "export": "export"},
}
"""The word the solver's reply uses to answer each second request a ticket may carry."""


def check_second_request(family: str) -> None:
    """A second request in the ticket (one the case does not change) is answered in the reply, and
    a ticket without one gets no such answer."""
    topics = SECOND_TOPICS[family]
    cat = catalog(family)
    with scratch_service(family) as service:
        for seed in range(24):
            task = cat.instance(task_id(family), seed)
            _, result = play(service, family, seed)
            reply = (result.state.reply_draft or "").lower()
            topic = str(task.variables["second_topic"])
            for name, word in topics.items():
                assert (word in reply) == (name == topic), (seed, topic, reply)
