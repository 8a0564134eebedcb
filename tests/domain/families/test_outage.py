"""The ``outage`` family (issue 18): instances, the solver, honest replies, the built-in policy and the
grader audit (:mod:`tests.domain.families.fd2_support`)."""

from __future__ import annotations

import pytest

from tests.databases import sqlite_pass_only
from tests.domain.families import fd2_support as fs

pytestmark = sqlite_pass_only("families and grading are pure: it plays in memory or on its own SQLite")

FAMILY = "outage"


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


def _ticket(**facts: str) -> dict[str, object]:
    return {"ticket": {"customer_name": "Ava Patel", "subject": "Quick question", "message": "It fails.",
                       "customer_tier": "enterprise", "facts": facts}}


@pytest.mark.parametrize(("facts", "case"), [
    # every user down while the status page still says operational: IR-1's first rule decides
    ({"affected_users": "all 12 of 12 users", "what_fails": "everything: the web app and the API",
      "status_page": "All systems operational (last updated 2 hours ago)"}, "all_down"),
    ({"affected_users": "5 of 15 users", "what_fails": "file uploads fail for some users; every other "
      "feature works", "status_page": "All systems operational"}, "degraded"),
    ({"affected_users": "all 9 of 9 users", "what_fails": "search is slow; every other feature works",
      "status_page": "Investigating: slow search results"}, "degraded"),
    ({"affected_users": "1 of 6 users (only the reporter)", "what_fails": "the dashboard does not load",
      "status_page": "All systems operational"}, "single_user"),
])
def test_the_solver_decides_from_the_facts(facts: dict[str, str], case: str) -> None:
    from baseline.solvers._steps import Ticket
    from baseline.solvers.outage import case_of

    assert case_of(Ticket.of(_ticket(**facts))) == case
