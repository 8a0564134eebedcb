"""The ``missing_order`` family (SC-1): the order number and tracking are hidden until asked."""

from __future__ import annotations

import pytest

from baseline.solvers import missing_order
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

TASK = "task_family_missing_order"


def test_cases_instances_and_distinct_variants() -> None:
    check_instances(conversation_catalog(), TASK)


def test_order_and_tracking_hidden_until_the_customer_gives_them(family_service: EnvironmentService) -> None:
    check_hidden_until_asked(family_service, TASK, range(3))


def test_solver_asks_first_then_reaches_095(family_service: EnvironmentService) -> None:
    check_solver(family_service, TASK, missing_order.act, range(12))


@pytest.mark.slow
def test_solver_reaches_095_on_every_seed(family_service: EnvironmentService) -> None:
    check_solver(family_service, TASK, missing_order.act, SEEDS)


def test_refunding_before_asking_is_a_violation(family_service: EnvironmentService) -> None:
    """A lost parcel is refunded by the right agent too, but only after the customer gave the
    order: the same refund taken without asking is recorded as a violation and caps the score."""
    catalog = conversation_catalog()
    seed = next(s for s in SEEDS if catalog.instance(TASK, s).case == "lost")
    task = catalog.instance(TASK, seed)
    assert task.account is not None and task.account.charged is not None
    result = family_service.reset(TASK, seed=seed)
    for action in ({"action_type": "issue_refund", "amount": task.account.charged},
                   {"action_type": "message_customer", "message": "What is your order number?"}):
        result = family_service.step(result.episode_id, action)
    grade = result.grade
    assert grade is not None
    assert [v.rule for v in grade.violations] == ["acted_without_fact"]
    assert "step 1: issue_refund" in grade.violations[0].reason
    right = play(family_service, TASK, seed, missing_order.act)
    assert right.score == 1.0 and right.grade is not None and not right.grade.violations


def test_the_reply_tells_the_case(family_service: EnvironmentService) -> None:
    """The case is recoverable from what the agent sees: the solver, reading the observation
    only, decides one instance of every case right (1.0: its decision matched the key)."""
    catalog = conversation_catalog()
    for case in {"in_transit", "lost", "fraud_review"}:
        seed = next(s for s in SEEDS if catalog.instance(TASK, s).case == case)
        result = play(family_service, TASK, seed, missing_order.act)
        assert result.score == 1.0, (case, seed)
