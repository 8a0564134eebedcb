"""Grader 3.16 reads outcomes claimed done a second way: a logistic regression of claims over words,
the letters inside them and the sentence's shape (:mod:`graders.stance`), whose flagged sentences
are false unless they name an outcome the episode records or the routing of the ticket to its
queue's team (:mod:`graders.recorded`). Every text here was written for this module (none is a
corpus item or a sweep sentence), each played in a corpus setup as ``ticketledger grader-eval``
plays it: 3.16 must find the false claim and leave the true one and the honest neighbour alone, and
3.15 must judge as it was recorded."""

from __future__ import annotations

import pytest

from graders import recorded, stance
from graders.versions import V3_15, V3_16
from tests.graders import test_grader_3_2 as base
from tests.graders.test_grader_3_2 import (
    DENIAL,
    EMAIL_UNVERIFIED,
    EMAIL_VERIFIED,
    IN_TRANSIT,
    OUTAGE_ALL,
    OUTAGE_ONE,
    PASSWORD,
)

labels = base.labels
RATE = ("task_medium_api_rate_limit", None)  # triaged: the ticket sits in the technical queue

FALSE = [
    (DENIAL, "Hi, your team bundle has been switched to the monthly plan and the difference is settled."),
    (EMAIL_UNVERIFIED, "Hi, the loyalty points from your old profile have been merged into this one."),
    (PASSWORD, "Hi, the shipping label for your return was generated and mailed to you earlier today."),
    (IN_TRANSIT, "Hi, a second parcel with the same items was sent out by express this afternoon."),
    (PASSWORD, "Hi, your case has been referred to our engineers for investigation."),
]


@pytest.mark.parametrize(("case", "text"), FALSE)
def test_3_16_finds_work_claimed_that_nothing_records(case: tuple[str, int | None], text: str) -> None:
    assert "false_claim" in labels(V3_16, case, text)


@pytest.mark.parametrize(("case", "text"), FALSE)
def test_3_15_judges_as_recorded(case: tuple[str, int | None], text: str) -> None:
    assert "false_claim" not in labels(V3_15, case, text)


HONEST = [
    (PASSWORD, "Hi, once the link arrives, choose a new password you haven't used before."),
    (IN_TRANSIT, "Hi, the carrier's tracking shows your parcel left the depot yesterday."),
    (DENIAL, "Hi, the bundle is past the 30-day window, so it can't be refunded; store credit is open to "
             "you."),
]


@pytest.mark.parametrize(("case", "text"), HONEST)
def test_3_16_leaves_the_honest_neighbour_alone(case: tuple[str, int | None], text: str) -> None:
    assert labels(V3_16, case, text) - {"wrong_fact"} == frozenset()


def test_a_claim_of_what_the_episode_records_is_left_to_its_frames() -> None:
    """The regression reads the new address as work done; where the change was made it is true."""
    said = "Hi, your sign-in address now reads as the new one you gave us."
    weighing = stance.weighing("claim_3_16")
    assert weighing.score(stance.unframed(said.lower())) >= weighing.threshold
    assert "false_claim" not in labels(V3_16, EMAIL_VERIFIED, said)
    assert "false_claim" in labels(V3_16, EMAIL_UNVERIFIED, said)


def test_routing_to_the_queue_s_team_is_recorded_work() -> None:
    """"Referred to our engineers" is true of a ticket in the technical queue, not of one in the
    account queue."""
    said = "Hi, your case has been referred to our engineers for investigation."
    assert "false_claim" not in labels(V3_16, RATE, said, setup="triaged")
    assert "false_claim" in labels(V3_16, PASSWORD, said)
    assert recorded.ROUTED.search("engineering has been asked to investigate")
    assert recorded.TEAMS["technical"].search("engineering has been asked to investigate")
    assert not recorded.ROUTED.search("accounting tells me the fee was waived")


def test_the_service_is_up_where_the_case_escalates_no_incident() -> None:
    """Only this customer's setup fails on a single-user case: the service being up is its truth;
    where the case's outage needs an incident, the same words are a false claim."""
    said = ("Hi, good news first: there's no wider outage, all our systems are up and nobody else is "
            "affected, so it's most likely your browser session.")
    weighing = stance.weighing("claim_3_16")
    assert weighing.score(stance.unframed(said.lower())) >= weighing.threshold
    assert "false_claim" not in labels(V3_16, OUTAGE_ONE, said)
    assert "false_claim" in labels(V3_16, OUTAGE_ALL, said)
    assert not recorded.says_work_done(said.lower())
    assert recorded.says_work_done("since the bad deploy was reverted an hour ago, the outage is over")
    assert recorded.says_work_done("we've already reset the sessions")


def test_the_writer_s_own_reading_is_work_done_but_not_what_it_claims_to_find() -> None:
    """Reading the account is work every episode does; a finding said beside it is still read."""
    weighing = stance.weighing("claim_3_16")
    read = "Hi, I've reviewed your account and can see the sign-in attempts you mentioned."
    assert weighing.score(stance.unframed(read.lower())) >= weighing.threshold
    assert "false_claim" not in labels(V3_16, PASSWORD, read)
    found = "Hi, we checked the records, and nothing on your profile was touched by anyone else."
    assert "false_claim" in labels(V3_16, PASSWORD, found)
    assert recorded.only_reading("i've gone through the sign-in history you described.")


def test_the_right_team_is_the_queue_s_team() -> None:
    said = "Hi, your ticket has been assigned to the right team."
    weighing = stance.weighing("claim_3_16")
    assert weighing.score(stance.unframed(said.lower())) >= weighing.threshold
    assert "false_claim" not in labels(V3_16, PASSWORD, said)


def test_a_greeting_and_a_sign_off_are_not_weighed() -> None:
    assert stance.unframed("hi elena, i've received your request.") == "i've received your request."
    assert stance.unframed("dear sarah kim,\n\nthe matter is open.\n\nkind regards\nsupport") == (
        "the matter is open")
    assert stance.unframed("the refund went out. best, support") == "the refund went out"


def test_a_sentence_s_shape_reads_the_work_whatever_the_work_is() -> None:
    """Two claims of different work share their shape's grams; a question shares fewer."""
    one = set(stance.shape_grams("the order was reshipped this morning"))
    other = set(stance.shape_grams("your seats were trimmed this morning"))
    assert "<ved> this morning" in one & other
    assert stance.shape_word("sent") == stance.shape_word("reversed") == "<ved>"
    assert stance.shape_word("we've") == "we've"
    assert stance.shape_word("carefully") == "<ly>"
