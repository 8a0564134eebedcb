"""The ``data_deletion`` task family (data requests, DR-1): a request from another address than
the one on file is not acted on; an open billing dispute or chargeback puts the account under
legal hold; otherwise the deletion is scheduled and completes within 30 days.

Played through the real service on a SQLite file of this module; the checks are in
``data1_checks`` (shared by the four families of fam-data-1). The honest replies below were written
for this test from what an agent sees (ticket, facts, policy text), not copied from the solver or
the expert; their fields are the variant's variables and facts.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from baseline.solvers import data_deletion
from domain.tasks.catalog import Catalog
from service import EnvironmentService
from store import open_database
from tests.databases import sqlite_pass_only
from tests.domain.families import data1_checks as checks
from tests.domain.families import data1_harness as h

pytestmark = sqlite_pass_only("plays on a SQLite file of its own; grading is a pure function of "
                              "the events")

FAMILY = "data_deletion"

HONEST_REPLIES = {
    "scheduled": (
        "Hi {first_name},\n\nThanks for letting us know, and sorry to see you go. I've scheduled "
        "your account and personal data for deletion. The process finishes within 30 days, and "
        "we'll send you a short confirmation by email when it is complete.\n\nAll the best,\n"
        "Privacy Team"),
    "legal_hold": (
        "Hi {first_name},\n\nThank you for your request. Before anything is deleted, I need to let "
        "you know that your account still has an open billing dispute ({billing_disputes}). While "
        "it is open the account is under a legal hold, which means we have to keep its records for "
        "now. We will start the deletion as soon as the dispute is resolved, and it will then be "
        "finished within 30 days.\n\nKind regards,\nPrivacy Team"),
    "other_address": (
        "Hi {first_name},\n\nThanks for your message. Because deleting an account can't be undone, "
        "we only act on deletion requests that come from the email address registered to the "
        "account, and this one reached us from a different address. Could you send the same request "
        "from your registered email? We'll take care of it as soon as it arrives.\n\nBest "
        "regards,\nPrivacy Team"),
}

SECOND_REPLIES = {
    "scheduled": (
        "Hello {first_name},\n\nYour request is confirmed: the deletion of your account and all "
        "associated personal data has been scheduled. It will be fully completed within thirty days, "
        "after which nothing can be recovered.\n\nThank you for having been a customer, and best "
        "regards,\nPrivacy Team"),
    "legal_hold": (
        "Hi {first_name},\n\nThank you for getting in touch. Your account currently has an "
        "unresolved billing matter ({billing_disputes}), and while that's open we're legally required "
        "to keep the account on hold. As soon as the dispute has been resolved we'll go ahead with "
        "the deletion you asked for, which then takes up to 30 days.\n\nKind regards,\nPrivacy Team"),
    "other_address": (
        "Hello {first_name},\n\nThank you for your message. For security reasons we can only process "
        "a deletion request sent from the email address on file for your account, and this request "
        "came from another address. Please email us again from that address and we'll handle it "
        "promptly.\n\nBest regards,\nPrivacy Team"),
}

@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return h.catalog_of([FAMILY])


@pytest.fixture(scope="module")
def service(catalog: Catalog, tmp_path_factory: pytest.TempPathFactory) -> Iterator[EnvironmentService]:
    db = open_database(f"sqlite:///{Path(tmp_path_factory.mktemp(FAMILY)) / 'family.db'}")
    yield EnvironmentService(db, catalog)
    db.dispose()


def test_spec_and_judging_agree(catalog: Catalog) -> None:
    checks.check_spec(catalog, FAMILY)


def test_audit_attack_texts_fit_every_case(catalog: Catalog) -> None:
    checks.check_attack_texts(catalog, FAMILY)


def test_instances_are_distinct_and_cases_balanced(catalog: Catalog) -> None:
    checks.check_instances(catalog, FAMILY)


def test_solver_scores_on_every_case(service: EnvironmentService) -> None:
    checks.check_solver(service, FAMILY, checks.FAST_SEEDS)


def test_builtin_policy_plays_it(service: EnvironmentService) -> None:
    checks.check_builtin_policy_runs(service, FAMILY, range(0, 6))


def test_expert_scores_one(service: EnvironmentService, catalog: Catalog) -> None:
    checks.check_expert(service, catalog, FAMILY)


def test_honest_replies_score(service: EnvironmentService, catalog: Catalog) -> None:
    checks.check_honest(service, catalog, FAMILY,
                        {c: (r, SECOND_REPLIES[c]) for c, r in HONEST_REPLIES.items()})


def test_only_an_open_dispute_holds() -> None:
    def seen(disputes: str) -> data_deletion.Seen:
        return data_deletion.Seen("Ava", "ava.home@example.com", "", "", "free",
                                  {"billing_disputes": disputes, "email_on_file": "ava.home@example.com"}, {})
    assert data_deletion.open_dispute(seen("chargeback CB-1 filed 2026-10-28, awaiting the bank's decision"))
    assert not data_deletion.open_dispute(seen("dispute DSP-1 closed on 2026-05-14"))
    assert not data_deletion.open_dispute(seen("none"))
    assert data_deletion.from_address_on_file(seen("none"))

@pytest.mark.slow
def test_solver_on_seeds_0_to_119(service: EnvironmentService) -> None:
    scores = checks.check_solver(service, FAMILY, h.SEEDS)
    assert min(scores) >= checks.SOLVER_FLOOR
    checks.check_builtin_policy_runs(service, FAMILY, h.SEEDS)


@pytest.mark.slow
def test_grader_audit_bounds() -> None:
    checks.check_audit(FAMILY)



def test_own_phrasings_are_not_foreign_to_a_family_task() -> None:
    """A family task's own points ("legal hold", "30 days") are not other tickets' points to it,
    though the classic GDPR task shares them (an honest reply making them is no shotgun)."""
    from graders.lexicon import foreign_groups

    assert "legal hold" not in [p for g in foreign_groups(h.task_id(FAMILY)) for p in g]
    assert "legal hold" in [p for g in foreign_groups("task_hard_refund_fraud_trap") for p in g]
