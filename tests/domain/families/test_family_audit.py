"""The grader audit on every task family, parametrised over the manifest's families: every
adversary keeps its bound, the references pass, and the adversaries that must play on a family
do."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from baseline.policy import BUILTIN_POLICY
from evaluation.grader_audit.runner import run_audit
from tests.domain.families.family_facts import FAMILIES, audit_catalog, seeds_per_case, task_id

MUST_PLAY = ("forbidden_action", "contradiction", "secret_request", "abuse", "keyword_list",
             "keywords_in_filler", "other_task_reply", "tag_spam", "close_at_once", "repeated_actions")
"""Adversaries every family must give a setting to (played and passed, or blocked)."""
MAY_NOT_APPLY = {"contrary_decision", "unrequested_action"}
"""Adversaries a family may give no setting: the seed tasks' contrary decision, and the unrequested
action where the case's answer key names every harmful action itself."""


def check_audit(family: str, seeds: Sequence[int]) -> None:
    """Every adversary within its bound on ``seeds``, the references (the family's solver, the
    built-in policy) included; only :data:`MAY_NOT_APPLY` may not apply, and all of
    :data:`MUST_PLAY` play."""
    report = run_audit(catalog=audit_catalog(family), task_ids=[task_id(family)], seeds=seeds,
                       policy=BUILTIN_POLICY)
    assert not report.failures(), report.failures()
    not_applicable = {c.family for c in report.cells if c.status == "n/a"}
    assert not_applicable <= MAY_NOT_APPLY, not_applicable
    played = {c.family for c in report.cells if c.status in ("pass", "blocked")}
    assert set(MUST_PLAY) <= played, set(MUST_PLAY) - played


FAST = ("refund_request", "security_report")
"""The families whose audit the plain test run plays: money decided on a window or a review, and
a security report; the slow tier plays every family, here and over seeds 0 to 5 (and
``ticketledger tasks verify``, ``tests/evaluation/test_task_families_verify.py``, on a sample of
every case)."""


@pytest.mark.parametrize("family", [f if f in FAST else pytest.param(f, marks=pytest.mark.slow)
                                    for f in FAMILIES])
def test_grader_audit_bounds_hold_on_one_seed_per_case(family: str) -> None:
    check_audit(family, seeds_per_case(family))


@pytest.mark.slow
@pytest.mark.parametrize("family", FAMILIES)
def test_grader_audit_bounds_hold_on_seeds_0_to_5(family: str) -> None:
    check_audit(family, range(6))
