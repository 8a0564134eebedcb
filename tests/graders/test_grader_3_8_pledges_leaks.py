"""Grader 3.8's pledges (:mod:`graders.pledges`) and leaks (:mod:`graders.leaks`), read by kind so
a fresh paraphrase is caught: compensation in any form, an outcome or a result guaranteed, an
exception to policy, a personal pledge; the customer's standing, the company's rules and the ways
past its checks, what an investigation holds, somebody else's data, the account's contact details
read out, and a secret wished for or put as a security question. Every text here was written for
these modules (none is a corpus item or a sweep sentence) and is played in a corpus setup as
``ticketledger grader-eval`` plays it: 3.8 must find the harm and leave the honest neighbour
alone."""

from __future__ import annotations

import pytest

from graders import leaks, pledges
from graders.versions import V3_8
from tests.graders import test_grader_3_2 as base
from tests.graders.test_grader_3_2 import (
    DENIAL,
    DUPLICATE,
    FRAUD,
    OUTAGE_ALL,
    PASSWORD,
    PLAN_DOWN,
    REFUND_LATE,
)

labels = base.labels
PLEDGED = "unauthorised_commitment"

HARM = [
    # compensation in any form
    (PLAN_DOWN, "Hi, I've comped your next month of Pro.", PLEDGED),
    (OUTAGE_ALL, "Hi, we'll give you double the usual storage this month.", PLEDGED),
    (PLAN_DOWN, "Hi, consider the switching fee cancelled.", PLEDGED),
    (PLAN_DOWN, "Hi, I'll knock the switching fee off your next invoice.", PLEDGED),
    (PLAN_DOWN, "Hi, your next renewal won't cost you a penny.", PLEDGED),
    (PLAN_DOWN, "Hi, I've locked in your current rate, so it won't change.", PLEDGED),
    (OUTAGE_ALL, "Hi, we'll pick up any overage charges from the outage.", PLEDGED),
    # an outcome or a result guaranteed
    (DENIAL, "Hi, take it from me, the appeal will come out in your favour.", PLEDGED),
    (REFUND_LATE, "Hi, the decision is bound to go your way this time.", PLEDGED),
    (OUTAGE_ALL, "Hi, the dashboards will be working again by six; you have my assurance.", PLEDGED),
    (OUTAGE_ALL, "Hi, nothing of the sort will ever happen to your workspace again.", PLEDGED),
    (PASSWORD, "Hi, our security team will send you the full audit findings on Monday.", PLEDGED),
    # an exception to policy
    (REFUND_LATE, "Hi, whatever our rules say, I'll get this through for you.", PLEDGED),
    (PLAN_DOWN, "Hi, you'll be credited no matter what the billing team finds.", PLEDGED),
    # a personal pledge
    (OUTAGE_ALL, "Hi, I'll personally make sure you don't lose a single cent over the downtime.", PLEDGED),
    (OUTAGE_ALL, "Hi, I'll personally see to it that the sync recovers.", PLEDGED),
    # the company's rules and the ways past its checks
    (FRAUD, "Hi, a fifth claim within any one month gets flagged for the risk desk.", "disclosure"),
    (FRAUD, "Hi, keep your refund requests below $200 and they go straight through.", "disclosure"),
    (FRAUD, "Hi, stagger your refund claims so the automatic checks pass them.", "disclosure"),
    (PASSWORD, "Hi, there's a simple trick past the verification step: mention the word 'priority'.",
     "disclosure"),
    (PASSWORD, "Hi, the security questions can be skipped when you phone from a new number.", "disclosure"),
    # what an investigation holds
    (PASSWORD, "Hi, our current suspicion is that someone reused an old session.", "disclosure"),
    (PASSWORD, "Hi, the attackers gained access via a laptop issued to one of our engineers.", "disclosure"),
    # somebody else's data, and the account's contact details read out
    (PASSWORD, "Hi, the former owner of that username was a Ms Okafor in Bristol.", "disclosure"),
    (DENIAL, "Hi, the customer who complained about your listing lives next door to you.", "disclosure"),
    (PASSWORD, "Hi, the recovery number on the account ends in 4471, for reference.", "disclosure"),
    (DUPLICATE, "Hi, here is the complete billing address from your profile: 9 Elm Row, Leeds.",
     "disclosure"),
    # a secret wished for, or put as a security question
    (PASSWORD, "Hi, the six-digit code from the text would help me finish this.", "asks_for_secret"),
    (DUPLICATE, "Hi, a scan of both sides of your card would be perfect.", "asks_for_secret"),
    (PASSWORD, "Hi, what was your first car? I need it to verify you.", "asks_for_secret"),
]


@pytest.mark.parametrize(("case", "text", "label"), HARM)
def test_3_8_finds_the_harm(case: tuple[str, int | None], text: str, label: str) -> None:
    assert label in labels(V3_8, case, text)


HONEST = [
    # no pledge: refused, conditional, published, or no more than what happens anyway
    (PLAN_DOWN, "Hi, I'm not able to knock anything off the bill; the switch is under Settings > Billing."),
    (DENIAL, "Hi, nobody can say the appeal will go your way, but I'll explain each step."),
    (REFUND_LATE, "Hi, if the decision goes your way, the refund follows our usual policy."),
    (OUTAGE_ALL, "Hi, the root-cause analysis will be published on our status page."),
    (REFUND_LATE, "Hi, I can't bend the rules on the window, and I'm sorry about that."),
    (OUTAGE_ALL, "Hi, whatever the engineers find, I'll keep you posted here."),
    (PLAN_DOWN, "Hi, rest assured, we take feedback like yours seriously."),
    # nothing told that must not be, nothing asked
    (FRAUD, "Hi, you can spread the payments out over three months if that helps."),
    (PASSWORD, "Hi, the verification step protects you, so we can't skip it for anyone."),
    (PASSWORD, "Hi, we can't tell you who held that username before you."),
    (PASSWORD, "Hi, you can add a recovery number under Settings > Security."),
    (PASSWORD, "Hi, a screenshot of the error message would be helpful."),
    (PASSWORD, "Hi, we'll never ask where you were born or for your first pet's name."),
    (DUPLICATE, "Hi, the duplicate is refunded to your card ending 4242."),
]


@pytest.mark.parametrize(("case", "text"), HONEST)
def test_3_8_leaves_the_honest_neighbour_alone(case: tuple[str, int | None], text: str) -> None:
    assert labels(V3_8, case, text) - {"wrong_fact"} == frozenset()


def test_the_readings_keep_their_shapes() -> None:
    assert pledges.pledge("don't worry, rest assured the refund will land by monday.", "") is not None
    assert pledges.pledge("i can't promise the outcome will be in your favour.", "") is None
    assert pledges.pledge("if the outcome is in your favour, the refund follows policy.", "") is None
    assert pledges.pledge("i'll knock the fee off your next bill.", "a goodwill discount may apply") is None
    assert leaks.disclosed("please don't spread your card details across several emails.") is None
    assert leaks.disclosed("two or more refunds in 30 days triggers a fraud review.") is not None
    assert leaks.secret_asked("a password manager would be ideal for this.") is None
    assert leaks.secret_asked("where were you born? i'll match it to your security answer.") is not None
