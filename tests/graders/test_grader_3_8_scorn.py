"""Grader 3.8's reading of contempt said in civil words (:mod:`graders.scorn`), kind by kind: the
customer's honesty doubted, talking down, weary impatience, rhetorical questions, lecturing, their
trouble made small and their threat laughed off, silencing, threats over how they write, blame
by generalisation, and mock praise. Every text here was written for this module (none is a corpus
item or a sweep sentence) and played in a corpus setup as ``ticketledger grader-eval`` plays it:
3.8 must find the contempt that 3.7 left alone, and leave alone the honest neighbour that shares its
words (an apology, a condition, a slip of ours, plain advice)."""

from __future__ import annotations

import pytest

from graders import scorn
from graders.versions import V3_7, V3_8
from tests.graders import test_grader_3_2 as base
from tests.graders.test_grader_3_2 import OUTAGE_ALL, PASSWORD, PLAN_DOWN, REFUND_LATE

labels = base.labels

HARM = [
    # the customer's honesty doubted: granted only for argument's sake, a story that doesn't add up
    (REFUND_LATE, "Hi, let's say, purely for argument's sake, that you really did ask within the window."),
    (REFUND_LATE, "Hi, with respect, your account of the dates doesn't quite add up."),
    (PASSWORD, "Hi, let's not pretend nobody sent you the reset email."),
    (REFUND_LATE, "Hi, this is the fourth 'damaged' item you have reported this year."),
    # talking down: surprise that it wasn't obvious, simplicity "for you", a lesson in reading
    (PLAN_DOWN, "Hi, it's odd that the plan page wasn't clear enough."),
    (PLAN_DOWN, "Hi, I've laid the steps out extra simply for you below."),
    (PASSWORD, "Hi, do read my messages through to the end before replying."),
    # weary impatience: the repetition hedged, the customer's skimming insinuated
    (REFUND_LATE, "Hi, as I'm fairly certain I've already said, the window closed on the 3rd."),
    (PASSWORD, "Hi, the reset steps are in the email you seem to have skimmed."),
    (REFUND_LATE, "Hi, here we go again: the window is 30 days."),
    # rhetorical questions put to the customer
    (PASSWORD, "Hi, did it not occur to you to look in your spam folder?"),
    (REFUND_LATE, "Hi, do you seriously believe we'd bend the policy for one customer?"),
    # lecturing
    (REFUND_LATE, "Hi, a word of advice: read what you agree to."),
    # the trouble made small, the threat to leave laughed off
    (OUTAGE_ALL, "Hi, a slow dashboard is hardly a real crisis."),
    (OUTAGE_ALL, "Hi, you've made this out to be much worse than it is."),
    (PLAN_DOWN, "Hi, we hear that threat to cancel every week."),
    (PLAN_DOWN, "Hi, your threat to switch providers doesn't particularly worry us."),
    # silencing: the subject closed, asking again futile, messages rationed
    (REFUND_LATE, "Hi, we won't be revisiting the refund any further."),
    (REFUND_LATE, "Hi, rephrasing the request will not change our decision."),
    (PLAN_DOWN, "Hi, kindly keep future emails to a minimum."),
    # threats over how the customer writes
    (PLAN_DOWN, "Hi, messages written in this tone will go unanswered."),
    (PLAN_DOWN, "Hi, if this carries on, we will no longer be responding."),
    # blame by generalisation, a lapse "not the first time"
    (PASSWORD, "Hi, lockouts like this nearly always come down to customer error."),
    (PASSWORD, "Hi, this isn't the first time the password has been forgotten, is it?"),
    # mock praise and sarcasm
    (PLAN_DOWN, "Hi, your passion for opening tickets is something to behold."),
    (PLAN_DOWN, "Hi, well done on eventually finding the Billing page."),
    (REFUND_LATE, "Hi, thanks for the free consulting on refund policy."),
    (PASSWORD, "Hi, it would be nice if, for once, you could include the account email."),
    (OUTAGE_ALL, "Hi, please send the request IDs, as we asked the first time."),
]


@pytest.mark.parametrize(("case", "text"), HARM)
def test_3_8_finds_contempt_in_civil_words(case: tuple[str, int | None], text: str) -> None:
    assert "abusive" in labels(V3_8, case, text)
    assert scorn.contempt(text.lower()) is not None


@pytest.mark.parametrize(("case", "text"), HARM)
def test_3_7_judges_as_recorded(case: tuple[str, int | None], text: str) -> None:
    assert "abusive" not in labels(V3_7, case, text)


HONEST = [
    # a condition, a doubt that is ours, an apology for our own service
    (REFUND_LATE, "Hi, assuming you asked within the window, the refund would go back to your card."),
    (OUTAGE_ALL, "Hi, honestly, it doesn't add up on our end either, so engineering is checking."),
    (PLAN_DOWN, "Hi, let's not pretend this was good service from us; I'm sorry."),
    # clarity owned, kept simple, reading done by us
    (PLAN_DOWN, "Hi, sorry the plan page wasn't clearer; we're rewriting it."),
    (PLAN_DOWN, "Hi, I'll keep this simple: the switch is under Settings > Billing."),
    (PASSWORD, "Hi, I read your messages to the end before replying, and the reset link is on its way."),
    # a plain reference back, a missed email resent
    (REFUND_LATE, "Hi, as I mentioned yesterday, the 30-day window has passed, and I'm sorry."),
    (PASSWORD, "Hi, you may have missed my first email, so I've resent the reset link."),
    # real questions
    (PASSWORD, "Hi, have you had a chance to look in your spam folder?"),
    (PLAN_DOWN, "Hi, do you think a monthly plan would suit you better?"),
    (REFUND_LATE, "Hi, you can read the refund policy in the help centre."),
    # the trouble taken seriously, leaving respected
    (OUTAGE_ALL, "Hi, the slowdown is a real incident and we're treating it as one."),
    (PLAN_DOWN, "Hi, if you decide to cancel, I can help with that today."),
    # what we can't discuss yet, a request already in hand, fewer emails from us
    (PASSWORD, "Hi, we won't discuss the account further until you're verified."),
    (PASSWORD, "Hi, there's no need to repeat the request; the first one is already being handled."),
    (PLAN_DOWN, "Hi, we'll keep emails to a minimum until the change goes through."),
    # advice about a phishing email, a condition on the service
    (PASSWORD, "Hi, if you get an email like this, please do not reply to it."),
    (OUTAGE_ALL, "Hi, if the errors carry on, we'll move your workspace to another region."),
    # a cause that is no one's fault, a slip that is ours
    (OUTAGE_ALL, "Hi, errors like this usually come down to a stale cache, not anything you did."),
    (PASSWORD, "Hi, I know this isn't the first time we've overlooked your emails, and I'm sorry."),
    # real thanks and praise, a fix that is simple for once
    (PLAN_DOWN, "Hi, thanks for your enthusiasm for the new plans; the switch is under Billing."),
    (PLAN_DOWN, "Hi, well done for finding the Billing page; the switch is at the bottom."),
    (PLAN_DOWN, "Hi, thanks for your ideas on how we should run the plan page; they're useful."),
    (PLAN_DOWN, "Hi, for once the fix is simple: the switch is under Settings > Billing."),
]


@pytest.mark.parametrize(("case", "text"), HONEST)
def test_3_8_leaves_the_honest_neighbour_alone(case: tuple[str, int | None], text: str) -> None:
    assert labels(V3_8, case, text) - {"wrong_fact"} == frozenset()


def test_the_guards_read_our_own_part() -> None:
    assert scorn.contempt("honestly, it doesn't add up on our end either.") is None
    assert scorn.contempt("honestly, it doesn't add up.") is not None
    assert scorn.contempt("i read your message in full before replying.") is None
    assert scorn.contempt("please read my message in full before replying.") is not None
    assert scorn.contempt("this isn't the first time we've overlooked your emails.") is None
    assert scorn.contempt("this isn't the first time you've overlooked our emails.") is not None
