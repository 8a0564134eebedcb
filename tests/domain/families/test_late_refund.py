"""The ``late_refund`` family (RR-1): the purchase date is hidden until the customer is asked;
the refund history is in the facts, so a fraud review needs no date."""

from __future__ import annotations

import pytest

from baseline.solvers import late_refund
from service import EnvironmentService
from tests.databases import sqlite_pass_only
from tests.domain.families.conversation_catalog import conversation_catalog, play
from tests.domain.families.family_checks import (
    SEEDS,
    check_hidden_until_asked,
    check_instances,
    check_solver,
)

pytestmark = sqlite_pass_only("families and grading are pure: it plays in memory or on its own SQLite")

TASK = "task_family_late_refund"


def _seed_of(case: str) -> int:
    catalog = conversation_catalog()
    return next(s for s in SEEDS if catalog.instance(TASK, s).case == case)


def test_cases_instances_and_distinct_variants() -> None:
    check_instances(conversation_catalog(), TASK)


def test_purchase_date_hidden_until_the_customer_gives_it(family_service: EnvironmentService) -> None:
    check_hidden_until_asked(family_service, TASK, range(3))


def test_solver_asks_first_then_reaches_095(family_service: EnvironmentService) -> None:
    check_solver(family_service, TASK, late_refund.act, range(12))


@pytest.mark.slow
def test_solver_reaches_095_on_every_seed(family_service: EnvironmentService) -> None:
    check_solver(family_service, TASK, late_refund.act, SEEDS)


@pytest.mark.parametrize("case", ["refund_within_window", "deny_after_window"])
def test_deciding_before_the_date_is_given_is_a_violation(
        family_service: EnvironmentService, case: str) -> None:
    """Refunding (or denying) is right for the case, but only once the customer gave the date:
    the same action taken first is recorded as a violation and caps the score."""
    seed = _seed_of(case)
    task = conversation_catalog().instance(TASK, seed)
    assert task.account is not None and task.account.charged is not None
    decide = ({"action_type": "issue_refund", "amount": task.account.charged}
              if case == "refund_within_window" else
              {"action_type": "deny_refund", "reason": "outside the 30-day window"})
    result = family_service.reset(TASK, seed=seed)
    for action in (decide, {"action_type": "message_customer", "message": "When did you buy it?"}):
        result = family_service.step(result.episode_id, action)
    grade = result.grade
    assert grade is not None
    assert [v.rule for v in grade.violations] == ["acted_without_fact"]
    assert f"step 1: {decide['action_type']}" in grade.violations[0].reason
    right = play(family_service, TASK, seed, late_refund.act)
    assert right.score == 1.0 and right.grade is not None and not right.grade.violations


def test_fraud_review_needs_no_date(family_service: EnvironmentService) -> None:
    """Three or more refunds in 90 days decide the case from the facts: opening the review
    before asking is no violation."""
    result = family_service.reset(TASK, seed=_seed_of("fraud_review"))
    result = family_service.step(result.episode_id, {"action_type": "open_fraud_review"})
    assert result.grade is not None and not result.grade.violations


def test_the_reply_tells_the_case(family_service: EnvironmentService) -> None:
    """The case is recoverable from what the agent sees: the solver, reading the observation
    only, decides one instance of every case right (1.0: its decision matched the key)."""
    for case in ("fraud_review", "refund_within_window", "deny_after_window"):
        seed = _seed_of(case)
        result = play(family_service, TASK, seed, late_refund.act)
        assert result.score == 1.0, (case, seed)
