"""The ``security_report`` family (issue 18): instances, the solver, honest replies, the built-in
policy and the grader audit (:mod:`tests.domain.families.fd2_support`)."""

from __future__ import annotations

import pytest

from tests.databases import sqlite_pass_only
from tests.domain.families import fd2_support as fs

pytestmark = sqlite_pass_only("families and grading are pure: it plays in memory or on its own SQLite")

FAMILY = "security_report"


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


def _ticket(message: str, **facts: str) -> dict[str, object]:
    return {"ticket": {"customer_name": "Ava Patel", "subject": "Have I been hacked?", "message": message,
                       "customer_tier": "pro", "facts": facts}}


USUAL = "only the customer's usual devices in the last 30 days"


@pytest.mark.parametrize(("message", "facts", "case"), [
    # the customer fears a hack, but nobody signed in and nothing changed: a look-alike email
    ("Got a message saying my account will be suspended. Have I been hacked?",
     {"reporter": "the account owner", "recent_sign_ins": USUAL,
      "account_changes": "none in the last 30 days"},
     "phishing"),
    # a phishing email they answered, followed by a sign-in from a new device: a takeover
    ("I clicked a link in an email and typed my password.",
     {"reporter": "the account owner", "recent_sign_ins": "2026-11-30 06:02 UTC from a new browser",
      "account_changes": "none"}, "account_takeover"),
    ("A new API key showed up.",
     {"reporter": "the account owner", "recent_sign_ins": USUAL,
      "account_changes": "API key created by an unrecognised session"}, "account_takeover"),
    ("Your password reset page does not limit requests.",
     {"reporter": "an external security researcher (not a user of this account)",
      "recent_sign_ins": "not applicable", "account_changes": "not applicable"}, "researcher"),
])
def test_the_solver_decides_from_the_facts(message: str, facts: dict[str, str], case: str) -> None:
    from baseline.solvers._steps import Ticket
    from baseline.solvers.security_report import case_of

    assert case_of(Ticket.of(_ticket(message, **facts))) == case
