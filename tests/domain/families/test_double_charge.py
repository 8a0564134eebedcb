"""The ``double_charge`` task family (charge disputes, CD-1): a captured duplicate is refunded
once, a pending second charge is a hold that drops off by itself, a chargeback already filed
leaves the decision to the bank.

Played through the real service on a SQLite file of this module; the checks are in
``data1_checks`` (shared by the four families of fam-data-1). The honest replies below were written
for this test from what an agent sees (ticket, facts, policy text), not copied from the solver or
the expert; their fields are the variant's variables and facts.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from baseline.solvers import double_charge
from domain.tasks.catalog import Catalog
from service import EnvironmentService
from store import open_database
from tests.databases import sqlite_pass_only
from tests.domain.families import data1_checks as checks
from tests.domain.families import data1_harness as h

pytestmark = sqlite_pass_only("plays on a SQLite file of its own; grading is a pure function of "
                              "the events")

FAMILY = "double_charge"

HONEST_REPLIES = {
    "duplicate": (
        "Hi {first_name},\n\nThanks for flagging this, and sorry for the hassle. You're right: order "
        "{order_id} was charged twice, ${amount}.00 each time, on {charge_date}. I've refunded the "
        "second payment, so ${amount}.00 is on its way back to the card you paid with. Refunds "
        "usually take 5 to 7 business days to show on your statement.\n\nKind regards,\nThe Billing "
        "team"),
    "hold": (
        "Hi {first_name},\n\nI can see why two payments on your statement would be alarming, so let "
        "me explain. Only one payment for order {order_id} actually went through. The second entry "
        "is a temporary authorisation hold that your bank placed while the payment was processed, "
        "and it was never collected. Holds like this fall off on their own, normally within three "
        "to five business days, and you don't need to do anything.\n\nIf it is still showing after "
        "that, just reply here and we'll look again.\n\nBest wishes,\nBilling Support"),
    "chargeback": (
        "Hi {first_name},\n\nSorry about the trouble with order {order_id}. I can see that a "
        "chargeback for this payment has already been raised with your bank. Since the bank is now "
        "handling the dispute, its process decides the outcome and any money comes back to you "
        "through the chargeback; banks usually reach a decision within 10 business days. We've "
        "opened an investigation on our side and will give the bank anything it asks for.\n\nThanks "
        "for your patience,\nBilling Support"),
}


SECOND_REPLIES = {
    "duplicate": (
        "Hello {first_name},\n\nApologies for the double charge on order {order_id}. Both payments "
        "of ${amount}.00 went through, which shouldn't have happened, so I have refunded one of the "
        "charges in full. Depending on your bank, it takes five to seven business days to reach your "
        "account.\n\nThanks,\nSupport"),
    "hold": (
        "Hello {first_name},\n\nThank you for checking with us, and I'm sorry for the confusion. "
        "The second ${amount}.00 entry for order {order_id} is still pending: it's an authorization "
        "hold rather than a completed charge, so no money was taken twice. Your bank will release it "
        "automatically within 3-5 business days.\n\nKind regards,\nBilling"),
    "chargeback": (
        "Hello {first_name},\n\nThank you for letting us know, and I understand how annoying a "
        "double payment is. As you've already opened a dispute with your bank for order {order_id}, "
        "the outcome now sits with the bank rather than with us. Their process normally concludes "
        "within ten business days, and if they rule in your favour the money goes back to your card "
        "through them.\n\nBest regards,\nBilling team"),
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


def test_solver_reads_the_charges_not_the_subject() -> None:
    """The pair with the same order and amount decides, whatever else the charges list holds."""
    line = ("CH-1: $12.00 for order A-1 on 2026-10-02, captured; CH-2: $49.00 for order A-2 on "
            "2026-11-03, captured; CH-3: $49.00 for order A-2 on 2026-11-03, pending")
    pair = double_charge.duplicate_pair(double_charge.charges(line))
    assert pair is not None and pair[0].order == "A-2" and pair[1].status == "pending"
    assert double_charge.chargeback_filed("chargeback filed by the cardholder on 2026-11-04")
    assert not double_charge.chargeback_filed("none")


@pytest.mark.slow
def test_solver_on_seeds_0_to_119(service: EnvironmentService) -> None:
    scores = checks.check_solver(service, FAMILY, h.SEEDS)
    assert min(scores) >= checks.SOLVER_FLOOR
    checks.check_builtin_policy_runs(service, FAMILY, h.SEEDS)


@pytest.mark.slow
def test_grader_audit_bounds() -> None:
    checks.check_audit(FAMILY)
