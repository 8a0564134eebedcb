"""The ``plan_change`` family (issue 18): instances, the solver, honest replies, the built-in policy and the
grader audit (:mod:`tests.domain.families.fd2_support`)."""

from __future__ import annotations

import pytest

from tests.databases import sqlite_pass_only
from tests.domain.families import fd2_support as fs

pytestmark = sqlite_pass_only("families and grading are pure: it plays in memory or on its own SQLite")

FAMILY = "plan_change"


def test_instances_are_distinct_and_every_case_is_drawn() -> None:
    fs.check_instances(FAMILY)


def test_the_subject_line_does_not_decide_the_case() -> None:
    fs.check_subject_does_not_decide(FAMILY)


def test_the_reply_answers_a_second_request_when_there_is_one() -> None:
    fs.check_second_request(FAMILY)


def test_solver_scores_at_least_095_on_two_seeds_per_case() -> None:
    fs.check_solver(FAMILY, fs.first_seed_per_case(FAMILY, 2))


@pytest.mark.slow
def test_solver_scores_at_least_095_on_seeds_0_to_119() -> None:
    fs.check_solver(FAMILY, fs.SEEDS)


def test_honest_replies_per_case_score_at_least_085() -> None:
    fs.check_honest(FAMILY, fs.first_seed_per_case(FAMILY, 2))


def test_builtin_policy_plays_the_family_to_the_end() -> None:
    fs.check_builtin_policy(FAMILY, fs.first_seed_per_case(FAMILY))


def test_grader_audit_bounds_hold_on_one_seed_per_case() -> None:
    fs.check_audit(FAMILY, fs.first_seed_per_case(FAMILY))


@pytest.mark.slow
def test_grader_audit_bounds_hold_on_seeds_0_to_11() -> None:
    fs.check_audit(FAMILY, range(12))


def _ticket(message: str, renewal: str, today: str) -> dict[str, object]:
    return {"ticket": {"customer_name": "Ava Patel", "subject": "Cancel subscription", "message": message,
                       "customer_tier": "pro",
                       "facts": {"current_plan": "Business, billed annually", "last_annual_renewal": renewal,
                                 "renewal_amount": "$480", "ticket_date": today}}}


@pytest.mark.parametrize(("message", "renewal", "case"), [
    ("Please downgrade us to Pro.", "2026-11-25", "downgrade"),  # the subject says cancel: it does not decide
    ("Please cancel our subscription.", "2026-11-16", "cancel_refund"),  # 14 days: within the window
    ("Please cancel our subscription.", "2026-11-15", "cancel_late"),  # 15 days: later than 14
])
def test_the_solver_decides_from_the_request_and_the_dates(message: str, renewal: str, case: str) -> None:
    from baseline.solvers._steps import Ticket
    from baseline.solvers.plan_change import case_of

    assert case_of(Ticket.of(_ticket(message, renewal, "2026-11-30"))) == case


def test_the_answer_key_draws_the_window_as_the_policy_states_it() -> None:
    """Cancellations up to and including day 14 after the renewal are refunded, later ones not;
    the seeds draw both sides of the boundary."""
    cat = fs.catalog(FAMILY)
    tasks = [cat.instance(fs.task_id(FAMILY), s) for s in fs.SEEDS]
    cases = {int(t.variables["days_since_purchase"]): t.case for t in tasks
             if t.variables["request"] == "cancel"}
    assert 14 in cases and 15 in cases
    assert all(case == ("cancel_refund" if days <= 14 else "cancel_late") for days, case in cases.items())
