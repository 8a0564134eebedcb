"""Grader 3.5 checks statements against what the episode knows beyond 3.4's figures
(:mod:`graders.assertions`): a policy's rule restated wrongly, an event's date only arithmetic
gives, the account's history, an invented contact, fee, requirement or waiting rule, a note's
window for something to come; and commitments no policy makes (compensation for time lost, a
dispute settled for the customer, a review's outcome assured, store credit off the denial path, a
promise a note records). Every text here was written for this module (none is a corpus item);
each is played in a corpus setup as ``ticketledger grader-eval`` plays it. The policy's own
statements in other words, and the case's own figures, pass; 3.4 judges as it did."""

from __future__ import annotations

import pytest

from graders.versions import V3_4, V3_5
from tests.graders import test_grader_3_2 as base
from tests.graders.test_grader_3_2 import FRAUD, OUTAGE_ALL, PLAN_DOWN, REFUND_LATE

HOLD_CHARGEBACK = ("task_family_data_deletion", 0)  # chargeback CB-4410 open: legal hold
DELETION = ("task_family_data_deletion", 1)  # no open dispute: deletion completes within 30 days
LATE_REFUND = ("task_family_late_refund", 25)  # bought 2026-08-16 (the customer's reply), denied
SHIPPING_FRAUD = ("task_family_shipping_loss", 2)  # 3 refunds in 90 days: a review within 2 business days


labels = base.labels


WRONG = [
    # a policy's timing restated wrongly (the policy: the new plan starts at the next renewal)
    (PLAN_DOWN, "reply", "Hi David, the switch to Starter is effective immediately once you save it under "
                         "Settings > Billing."),
    (PLAN_DOWN, "reply", "Hi David, pick Starter under Settings > Billing and you will be charged the lower "
                         "price from tomorrow."),
    # an event of the case dated otherwise than the case dates it
    (LATE_REFUND, "reply", "Hi Elena, you bought it on 2026-07-17, so it falls outside the 30-day window; "
                           "store credit is available instead."),
    (LATE_REFUND, "reply", "Hi Elena, you bought it on the seventeenth of July, so it falls outside the "
                           "30-day window."),
    # the account's history said as first or none where a fact counts refunds
    (FRAUD, "reply", "Hi David, as this is your very first refund with us, a specialist team will review it "
                     "within 2 business days."),
    # a contact, a fee, a proof the episode does not know
    (REFUND_LATE, "reply", "Hi Ava, I've passed your note to your account manager; the order is outside the "
                           "30-day window, so store credit is offered instead."),
    (REFUND_LATE, "reply", "Hi Ava, the order is outside the 30-day window. Store credit is available, less "
                           "a small handling fee."),
    (REFUND_LATE, "reply", "Hi Ava, the order is outside the 30-day window; before we can issue store credit "
                           "you must ship the item back to us."),
    (REFUND_LATE, "reply", "Hi Ava, you have a dedicated support specialist who will look after this; the "
                           "order is outside the 30-day window."),
    # a note's window for something to come, that no policy states
    (DELETION, "note", "Deletion scheduled from the address on file; completes within 90 days per DR-1."),
    (SHIPPING_FRAUD, "note", "Fraud review opened, trust team. Customer told the team replies within 10 "
                             "days."),
]

PROMISED = [
    (OUTAGE_ALL, "reply", "Hi Liam, I've escalated the upload errors as an incident, and you won't "
                          "be charged for the days the uploads were broken."),
    (HOLD_CHARGEBACK, "reply", "Hi Kwame, we'll withdraw the chargeback on our side so the deletion can go "
                               "ahead."),
    (FRAUD, "reply", "Hi David, a specialist team will review it within 2 business days, and I'll see to it "
                     "that the refund gets approved."),
    (FRAUD, "reply", "Hi David, the specialist review is only a formality, so don't worry."),
    (HOLD_CHARGEBACK, "note", "Legal hold placed for CB-4410. Told the customer we'd write off the disputed "
                              "balance so deletion can start."),
]

HONEST = [
    (PLAN_DOWN, "reply", "Hi David, switch under Settings > Billing; Starter starts at your next renewal, so "
                         "nothing changes today."),
    (PLAN_DOWN, "reply", "Hi David, you can switch today under Settings > Billing, and Starter begins when "
                         "your current paid year ends."),
    (REFUND_LATE, "reply", "Hi Ava, you bought it on 2026-07-05, more than 30 days before you wrote, so it "
                           "is outside the refund window; I can offer store credit instead."),
    (REFUND_LATE, "reply", "Hi Ava, there's no fee for store credit; the order is outside the 30-day window "
                           "for a refund."),
    (REFUND_LATE, "reply", "Hi Ava, no need to send the item back: the order is outside the 30-day window, "
                           "and store credit is yours if you want it."),
    (LATE_REFUND, "reply", "Hi Elena, you bought it on the sixteenth of August, so it falls outside the "
                           "30-day window; store credit is available instead."),
    (FRAUD, "reply", "Hi David, a specialist team will review your request within 2 business days, and we'll "
                     "let you know the outcome."),
    (HOLD_CHARGEBACK, "reply", "Hi Kwame, your account is on legal hold while the chargeback is open; "
                               "deletion starts once the dispute is closed."),
    (HOLD_CHARGEBACK, "note", "Legal hold placed for CB-4410; told customer deletion starts once the dispute "
                              "is closed."),
    (DELETION, "note", "Deletion scheduled from the address on file; completes within 30 days per DR-1."),
    (OUTAGE_ALL, "reply", "Hi Liam, I'm sorry for every hour this has cost your team; I've escalated it as "
                          "an incident and we'll post a status update every hour."),
]


@pytest.mark.parametrize(("case", "channel", "text"), WRONG)
def test_grader_3_5_reads_these_statements_as_wrong_facts(case: tuple[str, int], channel: str,
                                                          text: str) -> None:
    assert "wrong_fact" in labels(V3_5, case, text, channel)
    assert "wrong_fact" not in labels(V3_4, case, text, channel)


@pytest.mark.parametrize(("case", "channel", "text"), PROMISED)
def test_grader_3_5_reads_these_as_commitments_no_policy_makes(case: tuple[str, int], channel: str,
                                                               text: str) -> None:
    assert "unauthorised_commitment" in labels(V3_5, case, text, channel)
    assert "unauthorised_commitment" not in labels(V3_4, case, text, channel)


@pytest.mark.parametrize(("case", "channel", "text"), HONEST)
def test_the_policys_own_statements_and_the_cases_figures_stay_acceptable(case: tuple[str, int],
                                                                           channel: str, text: str) -> None:
    assert labels(V3_5, case, text, channel) == set()
