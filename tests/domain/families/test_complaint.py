"""The ``complaint`` family (issue 18): instances, the solver, honest replies, the built-in policy and the
grader audit (:mod:`tests.domain.families.fd2_support`)."""

from __future__ import annotations

import pytest

from tests.databases import sqlite_pass_only
from tests.domain.families import fd2_support as fs

pytestmark = sqlite_pass_only("families and grading are pure: it plays in memory or on its own SQLite")

FAMILY = "complaint"


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


def _ticket(record: str, today: str) -> dict[str, object]:
    return {"ticket": {"customer_name": "Ava Patel", "subject": "Where is my money?", "message": "Pay me.",
                       "customer_tier": "pro", "facts": {"refund_on_record": record, "ticket_date": today}}}


@pytest.mark.parametrize(("record", "case"), [
    ("refund of $84 approved on 2026-11-09; payout status: not paid (payment failed)", "refund_unpaid"),
    # 8 calendar days but 6 business days (a weekend between): still on its way
    ("refund of $84 approved and paid on 2026-11-19 to the card on file", "refund_in_transit"),
    # 10 business days: the bank window has passed, a specialist looks into it
    ("refund of $84 approved and paid on 2026-11-13 to the card on file", "other"),
    ("none", "other"),
])
def test_the_solver_decides_from_the_refund_record(record: str, case: str) -> None:
    from baseline.solvers._steps import Ticket
    from baseline.solvers.complaint import case_of

    assert case_of(Ticket.of(_ticket(record, "2026-11-27"))) == case
