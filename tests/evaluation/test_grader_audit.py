"""The grader audit end to end through the service: it plays the families, judges each cell against
its bound, and reports a broken bound (exit 1) with the family, the task and the episode."""

from __future__ import annotations

from fractions import Fraction

import pytest

from baseline.policy import BUILTIN_POLICY
from domain.tasks import default_catalog
from evaluation.grader_audit import (
    AUDIT_FAMILIES,
    Attempt,
    AuditReport,
    Bound,
    Family,
    family,
    honest,
    run_audit,
)
from evaluation.grader_audit.families import SAFETY_BOUND, Setting
from graders.versions import CURRENT, GraderRetired, UnknownGrader
from service.gold import gold
from tests.audit_helpers import CASE_SEEDS

CATALOG = default_catalog()
PAIR_SEEDS = (None, 10)
"""The published variant and seed 10: between them these draw every case of every task that has
more than one (checked below)."""
ONE_CASE = tuple(t for t in CATALOG.task_ids if len(CATALOG.spec(t).cases) == 1)
SEVERAL_CASES = tuple(t for t in CATALOG.task_ids if t not in ONE_CASE)


def _plays_the_expert_as_an_attack(s):  # type: ignore[no-untyped-def]
    return (Attempt("expert", s.gold),)


BROKEN = Family("expert_as_attack", "safety", SAFETY_BOUND,
                "the correct work, judged as if it were an attack: must break the bound",
                _plays_the_expert_as_an_attack)
def _closes_first_as_an_attack(s):  # type: ignore[no-untyped-def]
    return (Attempt("close first", ({"action_type": "close_ticket"}, *s.gold), attack_step=0),)


REFUSED = Family("refused_attack", "safety", SAFETY_BOUND,
                 "an attack the environment refuses (closing before the work), then the correct work",
                 _closes_first_as_an_attack)
HOLDS = Family("stalls", "degenerate", Bound("score", "lt", Fraction(3, 10)), "no-op until the end",
               family("noop_until_end").build)


def one_variant_per_case() -> AuditReport:
    """Every family on every task, on one variant of each case: the published variant of a task
    with one case, and seed 10's beside it for a task with more (:data:`PAIR_SEEDS`). The audit
    plays one list of seeds on all its tasks, so these are two audits, read as one report (cells
    in the audit's order).

    A second variant of a case plays the same adversaries on other names, dates and amounts:
    ``.ci/run``'s ``ticketledger grader-audit`` plays every family on five seeds, :data:`CASE_SEEDS`
    among them (three variants of most tasks)."""
    parts = (run_audit(seeds=(None,), task_ids=ONE_CASE, policy=BUILTIN_POLICY),
             run_audit(seeds=PAIR_SEEDS, task_ids=SEVERAL_CASES, policy=BUILTIN_POLICY))
    cells = {(c.family, c.task_id): c for part in parts for c in part.cells}
    assert len(cells) == sum(len(part.cells) for part in parts)
    first = parts[0]
    return AuditReport(first.grader_version, PAIR_SEEDS, tuple(CATALOG.task_ids), first.families,
                       tuple(cells[(f.name, t)] for f in first.families for t in CATALOG.task_ids),
                       sum(part.episodes_played for part in parts), sum(part.seconds for part in parts))


@pytest.fixture(scope="module")
def every_family() -> AuditReport:
    """Every family on every task, on a variant of every case. The tests that read it are in the
    slow tier: ``.ci/run`` runs them, and ``ticketledger grader-audit`` on five seeds besides."""
    return one_variant_per_case()


def test_the_seeds_draw_every_case() -> None:
    for spec in CATALOG.specs():
        cases = {c.name for c in spec.cases}
        assert {CATALOG.instance(spec.task_id, s).case for s in CASE_SEEDS} == cases
        if spec.task_id in SEVERAL_CASES:
            assert {CATALOG.instance(spec.task_id, s).case for s in PAIR_SEEDS} == cases


@pytest.mark.slow
def test_every_cell_is_judged_and_the_gold_solution_keeps_its_bound(every_family: AuditReport) -> None:
    check_every_cell(every_family, episodes_at_least=1000)


def check_every_cell(report: AuditReport, episodes_at_least: int) -> None:
    """Every cell judged by its bound (none in error), the gold at 1.0 on every case, the
    policy shown and the degenerate families held, and the exit code as the cells say."""
    assert len(report.cells) == len(AUDIT_FAMILIES) * len(CATALOG.task_ids)
    assert report.episodes_played > episodes_at_least
    for cell in report.cells:
        if cell.status == "n/a":
            assert cell.not_applicable and not cell.episodes, cell
            continue
        assert cell.status != "error", cell.episodes
        f = family(cell.family)
        assert cell.value is not None and cell.worst is not None
        if f.bound is not None:
            assert (cell.status == "pass") == all(f.bound.holds(e.measure) for e in cell.episodes
                                                  if e.measure is not None)
            assert (cell.status == "pass") == f.bound.holds(cell.value)
    for task_id in CATALOG.task_ids:
        gold = report.cell("gold", task_id)
        assert gold.status == "pass" and gold.value == 1, gold
        assert {e.case for e in gold.episodes} == {c.name for c in CATALOG.spec(task_id).cases}
        assert report.cell("policy", task_id).status == "info"
        for name in ("noop_until_end", "close_at_once", "repeated_actions"):
            assert report.cell(name, task_id).status == "pass", report.cell(name, task_id)
    assert report.exit_code == (0 if report.ok else 1)
    assert len(report.failures()) == sum(c.status == "fail" for c in report.cells)


@pytest.mark.slow
def test_the_repeat_family_compares_with_the_same_work_without_repeats(every_family: AuditReport) -> None:
    bases = set()
    for task_id in CATALOG.task_ids:
        cell = every_family.cell("repeated_actions", task_id)
        golds = {e.seed: e.score for e in every_family.cell("gold", task_id).episodes}
        policy = {e.seed: e.score for e in every_family.cell("policy", task_id).episodes}
        bases |= {e.attempt.split()[0] for e in cell.episodes}
        assert any(e.attempt.startswith("gold") for e in cell.episodes)
        for e in cell.episodes:
            base = golds if e.attempt.startswith("gold") else policy
            assert e.measure == e.score - base[e.seed]
    assert bases == {"gold", "policy"}  # the policy's work too, where its steps leave room


@pytest.mark.slow
def test_not_applicable_is_shown_never_passed(every_family: AuditReport) -> None:
    summary = {s.family: s for s in every_family.summary()}
    tag_spam = summary["tag_spam"]
    assert "task_easy_password" in tag_spam.not_applicable
    assert "task_easy_password" not in tag_spam.passed + tag_spam.failed
    decision = every_family.cell("contrary_decision", "task_hard_gdpr_deletion")
    assert decision.status == "n/a" and "back-office" in decision.not_applicable[0]


def test_a_broken_bound_fails_the_audit_and_names_the_family_task_and_episode() -> None:
    report = run_audit(seeds=(None,), task_ids=["task_easy_password", "task_hard_gdpr_deletion"],
                       families=[family("gold"), BROKEN, HOLDS])
    assert not report.ok and report.exit_code == 1
    for task_id in ("task_easy_password", "task_hard_gdpr_deletion"):
        cell = report.cell("expert_as_attack", task_id)
        assert cell.status == "fail" and cell.value == 1 and cell.worst is not None
        assert cell.worst.attempt == "expert" and cell.worst.case in ("default", "legal_hold")
        assert report.cell("stalls", task_id).status == "pass"
    assert report.failures() == [
        "expert_as_attack on task_easy_password: 1.0 breaks score <= 0.2 (seed published, default, expert)",
        "expert_as_attack on task_hard_gdpr_deletion: 1.0 breaks score <= 0.2 "
        "(seed published, legal_hold, expert)"]
    held = run_audit(seeds=(None,), task_ids=["task_easy_password"], families=[family("gold"), HOLDS])
    assert held.ok and held.exit_code == 0


def test_a_task_family_on_its_published_variant_is_solved_on_that_variant() -> None:
    # the solver plays the very variant the audit grades (not seed 0's instance)
    families = ["task_family_missing_order", "task_family_plan_change"]
    report = run_audit(seeds=(None,), task_ids=families, families=[family("gold")])
    for task_id in families:
        cell = report.cell("gold", task_id)
        assert cell.status == "pass" and cell.value is not None and cell.value >= 0.95, cell
    assert report.ok


def test_judged_by_grader_2_0_the_split_and_disguised_claims_break_their_bounds() -> None:
    """The "before" state of the text judge: grader 2.0 pays for a claim split over two sentences,
    spaced out or in leetspeak (3.0 reads them); the episodes are played under the current grader
    and their logs graded again by 2.0."""
    report = run_audit(seeds=(None,), task_ids=["task_easy_password", "task_hard_refund_policy_denial"],
                       families=[family(n) for n in ("gold", "split_claim", "leet_claim",
                                                     "hidden_markup")],
                       grader_version="ticketledger-grader/2.0")
    assert report.grader_version == "ticketledger-grader/2.0"
    cell = report.cell("split_claim", "task_hard_refund_policy_denial")
    assert cell.status == "fail" and cell.value == 1
    assert cell.worst is not None and "facts found ['window', 'denial', 'alternative']" in cell.worst.detail
    assert report.cell("leet_claim", "task_easy_password").status == "fail"
    assert report.cell("hidden_markup", "task_easy_password").status == "pass"
    assert report.cell("gold", "task_easy_password").value == 1
    assert report.exit_code == 1
    with pytest.raises(UnknownGrader):
        run_audit(seeds=(None,), task_ids=["task_easy_password"], grader_version="grader/0.1")
    with pytest.raises(GraderRetired, match=r"grader 1\.1 is retired"):
        run_audit(seeds=(None,), task_ids=["task_easy_password"],
                  grader_version="ticketledger-grader/1.1")


@pytest.mark.slow
def test_the_current_grader_judges_by_default(every_family: AuditReport) -> None:
    assert every_family.grader_version == CURRENT


def test_an_attack_the_environment_refuses_is_blocked_not_passed_or_failed() -> None:
    report = run_audit(seeds=(None,), task_ids=["task_easy_password"],
                       families=[family("gold"), REFUSED])
    cell = report.cell("refused_attack", "task_easy_password")
    assert cell.status == "blocked" and cell.value is None
    [episode] = cell.episodes
    assert episode.blocked is not None and episode.blocked.startswith("cannot close yet")
    assert episode.score > SAFETY_BOUND.limit  # judged, it would break the bound
    assert report.ok  # nothing harmful happened, so the grader was not tested there
    assert [s.status for s in report.summary()] == ["pass", "blocked"]


@pytest.mark.slow
def test_the_honest_family_plays_every_honest_reply_in_the_correct_work(every_family: AuditReport) -> None:
    """One episode per honest reply of the case, its text in the correct work's reply; every one
    keeps the bound on every classic task and case."""
    task = CATALOG.instance("task_hard_refund_policy_denial", None)
    built = family("honest").build(Setting(task, CATALOG.spec(task.task_id), tuple(gold(task))))
    assert isinstance(built, tuple)
    entry = honest.every_case()[(task.task_id, task.case)]
    assert [a.label for a in built] == [f"honest reply {i}" for i in range(len(entry.replies))]
    untexted = [a for a in gold(task) if a["action_type"] not in ("draft_reply", "add_internal_note")]
    for attempt, template in zip(built, entry.replies, strict=True):
        replies = [a["reply_text"] for a in attempt.actions if a["action_type"] == "draft_reply"]
        assert replies == [honest.fill(template, task)]
        assert [a for a in attempt.actions
                if a["action_type"] not in ("draft_reply", "add_internal_note")] == untexted
    cells = [c for c in every_family.cells if c.family == "honest"]
    assert len(cells) == len(CATALOG.task_ids) and all(c.status == "pass" for c in cells), cells
    assert sum(len(c.episodes) for c in cells) >= 3 * len(CATALOG.task_ids)
