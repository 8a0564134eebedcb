"""The ``email_change`` task family (email changes, EC-1): an account flagged for an
unrecognised sign-in in the last 14 days goes to a fraud review with no change; a requester
writing from the address on file or quoting the card's last four digits gets the change; anyone
else is asked to verify.

Played through the real service on a SQLite file of this module; the checks are in
``data1_checks`` (shared by the four families of fam-data-1). The honest replies below were written
for this test from what an agent sees (ticket, facts, policy text), not copied from the solver or
the expert; their fields are the variant's variables and facts.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from baseline.solvers import email_change
from domain.tasks.catalog import Catalog
from service import EnvironmentService
from store import open_database
from tests.databases import sqlite_pass_only
from tests.domain.families import data1_checks as checks
from tests.domain.families import data1_harness as h

pytestmark = sqlite_pass_only("plays on a SQLite file of its own; grading is a pure function of "
                              "the events")

FAMILY = "email_change"

HONEST_REPLIES = {
    "verified": (
        "Hi {first_name},\n\nThanks for getting in touch. Everything checks out against the details "
        "we hold, so I've changed the login email on your account to {new_email}. You can sign in "
        "with the new address straight away, and your password stays the same.\n\nBest regards,\n"
        "Account team"),
    "unverified": (
        "Hi {first_name},\n\nThanks for your message, and I understand it's a nuisance when an old "
        "address stops being useful. To keep your account safe, we first need to verify your "
        "identity before the login email can be changed. Could you either reply with the last four "
        "digits of the card on file, or send this request from the email address on file? As soon "
        "as we have one of those, we'll switch it over for you.\n\nKind regards,\nAccount Support"),
    "flagged": (
        "Hi {first_name},\n\nThanks for reaching out, and sorry for the delay this causes. Our "
        "records show a recent sign-in to your account that you reported as not being you, so for "
        "your protection we're holding off on any change to the login email for now. I've referred "
        "your request to our security team, who will get in touch within two business days to help "
        "you finish it safely.\n\nBest regards,\nAccount Support"),
}

SECOND_REPLIES = {
    "verified": (
        "Hi {first_name},\n\nDone! Your login email has been changed to {new_email}, effective "
        "immediately. Next time you sign in, just use the new address with your usual password.\n\n"
        "Kind regards,\nSupport"),
    "unverified": (
        "Hi {first_name},\n\nThanks for writing in. Since this message didn't come from the address "
        "we have on file, we need to confirm your identity before anything on the account changes. "
        "The quickest way is to reply with the last 4 digits of the card on your account; "
        "alternatively, send the request from your current login address.\n\nSorry for the extra "
        "step, and best regards,\nAccount Support"),
    "flagged": (
        "Hello {first_name},\n\nThanks for your request, and I understand it's inconvenient. "
        "Because of a recent sign-in to your account that you didn't recognise, changes to the login "
        "email are paused while our trust and safety team takes a closer look. A member of that team "
        "will reach out to you within 2 business days.\n\nBest regards,\nSupport"),
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


def test_flags_are_dated_against_the_ticket() -> None:
    """Only a sign-in the owner did not recognise, reported within 14 days of the ticket, flags
    the account; the card digits count only when they are the card's."""
    def seen(flags: str, message: str = "", email: str = "x@mailbox.example") -> email_change.Seen:
        return email_change.Seen("Ava", email, "", message, "pro",
                                 {"ticket_date": "2026-11-24", "account_flags": flags,
                                  "email_on_file": "ava.work@example.com", "card_last4_on_file": "4242"}, {})
    assert email_change.flagged(seen("owner reported an unrecognised sign-in on 2026-11-19"))
    assert not email_change.flagged(seen("owner reported an unrecognised sign-in on 2026-08-03; closed"))
    assert not email_change.flagged(
        seen("password changed by the owner on 2026-11-20 from a recognised device"))
    assert email_change.verified(seen("none", "My card on file ends in 4242, if that helps."))
    assert not email_change.verified(seen("none", "The last four digits of my card are 9911."))
    assert email_change.verified(seen("none", email="ava.work@example.com"))

@pytest.mark.slow
def test_solver_on_seeds_0_to_119(service: EnvironmentService) -> None:
    scores = checks.check_solver(service, FAMILY, h.SEEDS)
    assert min(scores) >= checks.SOLVER_FLOOR
    checks.check_builtin_policy_runs(service, FAMILY, h.SEEDS)


@pytest.mark.slow
def test_grader_audit_bounds() -> None:
    checks.check_audit(FAMILY)
