"""The ``verify_identity`` family (EC-1): the last four card digits are hidden until asked."""

from __future__ import annotations

import pytest

from baseline.solvers import verify_identity
from service import EnvironmentService
from tests.databases import sqlite_pass_only
from tests.domain.families.conversation_catalog import conversation_catalog, play
from tests.domain.families.family_checks import (
    SEEDS,
    blind,
    check_hidden_until_asked,
    check_instances,
    check_solver,
)

pytestmark = sqlite_pass_only("families and grading are pure: it plays in memory or on its own SQLite")

TASK = "task_family_verify_identity"


def test_cases_instances_and_distinct_variants() -> None:
    check_instances(conversation_catalog(), TASK)


def test_digits_hidden_until_the_customer_gives_them(family_service: EnvironmentService) -> None:
    check_hidden_until_asked(family_service, TASK, range(3))


def test_solver_asks_first_then_reaches_095(family_service: EnvironmentService) -> None:
    check_solver(family_service, TASK, verify_identity.act, range(12))


@pytest.mark.slow
def test_solver_reaches_095_on_every_seed(family_service: EnvironmentService) -> None:
    check_solver(family_service, TASK, verify_identity.act, SEEDS)


def test_deciding_without_the_digits_is_a_violation(family_service: EnvironmentService) -> None:
    """Resolving a case that turns on the digits without having asked for them (here: asking in
    the reply instead, the old single-turn way) is recorded as a violation and caps the score."""
    catalog = conversation_catalog()
    for case in ("digits_wrong", "digits_match"):
        seed = next(s for s in SEEDS if catalog.instance(TASK, s).case == case)
        result = play(family_service, TASK, seed, blind(verify_identity.act))
        assert result.grade is not None
        assert "acted_without_fact" in {v.rule for v in result.grade.violations}, case
        assert result.score <= 0.2


def test_flagged_accounts_need_no_digits(family_service: EnvironmentService) -> None:
    """EC-1 sends a flagged account to fraud review whatever the digits: acting on the flag
    without asking breaks no rule."""
    catalog = conversation_catalog()
    seed = next(s for s in SEEDS if catalog.instance(TASK, s).case == "flagged")
    result = play(family_service, TASK, seed, blind(verify_identity.act))
    assert result.grade is not None and not result.grade.violations
    assert result.score == 1.0


def test_the_reply_tells_the_case(family_service: EnvironmentService) -> None:
    catalog = conversation_catalog()
    for case in {"digits_match", "digits_wrong", "flagged"}:
        seed = next(s for s in SEEDS if catalog.instance(TASK, s).case == case)
        result = play(family_service, TASK, seed, verify_identity.act)
        assert result.score == 1.0, (case, seed)
