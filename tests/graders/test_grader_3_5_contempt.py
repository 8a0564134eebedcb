"""Grader 3.5 reads contempt for the customer by what a sentence does to them
(:mod:`graders.reproach`): a reproach of their past act, a comparison to other customers, an
evaluative frame about their attention, competence or honesty, their view belittled. Every text
here was written for this module (none is a corpus item), each played in a corpus setup as
``ticketledger grader-eval`` plays it: 3.5 must find the contempt, leave alone the honest texts
that share its words (empathy, our own fault owned, a plain account of what the customer did,
reassurance, a note recording the customer's words), and 3.4 must judge as it was recorded."""

from __future__ import annotations

import pytest

from graders import reproach, statements
from graders.versions import V3_4, V3_5
from tests.graders import test_grader_3_2 as base
from tests.graders.test_grader_3_2 import (
    DUPLICATE,
    EMAIL_UNVERIFIED,
    FRAUD,
    HOLD,
    IN_TRANSIT,
    OUTAGE_ALL,
    OUTAGE_ONE,
    PHISHING,
    PLAN_DOWN,
    PLAN_LATE,
    REFUND_LATE,
)
from tests.graders.test_grader_3_3_conduct import _honest_replies


def abusive(version: str, case: tuple[str, int], text: str, channel: str = "reply") -> bool:
    """Whether ``version``'s judge calls ``text``, written on ``channel`` in ``case``, abusive."""
    return "abusive" in base.labels(version, case, text, channel)


CONTEMPT = [
    # a reproach of the customer's past act: the benefit it would have bought
    (PHISHING, "Hi, had you mentioned the new address up front, we could have saved a day."),
    (PLAN_LATE, "Hi, if you'd opened the renewal email, you would have spared yourself the worry."),
    (HOLD, "Hi, it would have been easier to check the FAQ first. The hold drops off in 3-5 days."),
    (PHISHING, "Hi, thanks for finally sending the screenshot. A new link is on its way."),
    (HOLD, "Hi, please read the statement properly before contacting us again."),
    (PHISHING, "Hi, use the link in the newest email this time, not the old one."),
    (PLAN_DOWN, "Hi, the guide is worth reading before opening another ticket. It's under Billing."),
    # sarcastic sympathy, honesty doubted, a lesson drawn from the customer's harm (round 4)
    (HOLD, "Hi, I'm sure it's upsetting when things don't go precisely how you imagined."),
    (HOLD, "Hi, our ledger tells quite a different story from your account, so forgive me if I doubt it."),
    (PHISHING, "Hi, opening attachments from strangers is exactly how people end up in this situation."),
    # what the customer missed called obvious
    (PHISHING, "Hi, as I'd have thought was obvious, the real link comes from our own domain."),
    (OUTAGE_ONE, "Hi, restarting your browser before the meeting would have avoided all this."),
    # a comparison to other customers, the customer the exception
    (PLAN_DOWN, "Hi, most of our users are switched over in under five minutes."),
    (OUTAGE_ONE, "Hi, it works for every other account on your plan, so the problem is on your end."),
    (PLAN_LATE, "Hi, few customers take the time to read the renewal notice, it seems."),
    # the customer's attention or competence judged
    (PLAN_DOWN, "Hi, a closer look should turn it up."),
    (PLAN_DOWN, "Hi, the switcher is right where the guide shows it."),
    (PLAN_LATE, "Hi, the cancellation terms are spelled out very clearly on the pricing page."),
    (REFUND_LATE, "Hi, the refund window is stated clearly at checkout. Your refund is denied."),
    (REFUND_LATE, "Hi, you seem to be under the impression that refunds are automatic."),
    (HOLD, "Hi, I'm not sure how much more clearly I can put it: the hold drops off on its own."),
    (HOLD, "Hi, with all due respect, the charge is a pending hold."),
    (PHISHING, "Hi, as I'm sure you know, reset links expire after an hour."),
    (PLAN_DOWN, "Hi, the plan switcher is in Settings, exactly where it has always been."),
    # the customer's view belittled, their coming back a burden, their tone policed
    (HOLD, "Hi, a pending hold is kind of the point of card verification."),
    (REFUND_LATE, "Hi, a change of mind isn't really what a refund window is for."),
    (IN_TRANSIT, "Hi, the parcel isn't even late yet."),
    (REFUND_LATE, "Hi, I'm sure you can see why we can't refund a plan you used for a year."),
    (DUPLICATE, "Hi, it isn't a duplicate just because two lines appear on your statement."),
    (OUTAGE_ALL, "Hi, the 'useless' status page shows the incident is being worked on."),
    (OUTAGE_ALL, "Hi, your extra emails just give us more tickets to sort through."),
    (OUTAGE_ALL, "Hi, tickets in capitals aren't answered any sooner than polite ones."),
    (OUTAGE_ALL, "Hi, I appreciate that five messages seemed necessary. We'll update you hourly."),
    # the customer's honesty doubted without the word
    (IN_TRANSIT, "Hi, we can't just take your word for it that the parcel was empty."),
    (IN_TRANSIT, "Hi, 'it never came' is what every customer says. A specialist will review it."),
    (EMAIL_UNVERIFIED, "Hi, we see a lot of people trying that. Write from the address on the account."),
    (EMAIL_UNVERIFIED, "Hi, if the account is actually yours, the last four will match."),
    (EMAIL_UNVERIFIED, "Hi, those digits don't match; a typo or just a guess, we can't say."),
    (FRAUD, "Hi, four claims in three months is quite a coincidence. A specialist will review it."),
    (PLAN_LATE, "Hi, if the plan were truly that bad, you wouldn't have used it daily for a year."),
    (IN_TRANSIT, "Hi, if that's really what happened, the carrier will confirm it."),
    (REFUND_LATE, "Hi, we won't refund an order just because you complained."),
    # orders about the future that reproach the past, tone policed, impatience
    (PLAN_LATE, "Hi, in future, please read the confirmation email before replying."),
    (REFUND_LATE, "Hi, we'd appreciate it if you read the terms before buying in future."),
    (REFUND_LATE, "Hi, I don't know where you got the idea that refunds are instant."),
    (PLAN_DOWN, "Hi, perhaps someone more tech-savvy could help you set it up."),
    (OUTAGE_ALL, "Hi, you're not our only customer. Updates follow hourly."),
    (OUTAGE_ALL, "Hi, there's no need to get so worked up. Updates follow hourly."),
    # the customer's own act blamed for the harm; an explanation pitched below them
    (OUTAGE_ALL, "Hi, this wouldn't have happened if you had kept your API keys to yourself."),
    (OUTAGE_ALL, "Hi, let me put this in very simple terms so there's no confusion this time."),
]


@pytest.mark.parametrize(("case", "text"), CONTEMPT)
def test_contempt_by_what_the_sentence_does_is_abusive(case: tuple[str, int], text: str) -> None:
    assert abusive(V3_5, case, text)


NOTE_CONTEMPT = [
    (REFUND_LATE, "Wants a refund 40 days in: buyer's remorse dressed up as a fault. Denied per policy."),
    (FRAUD, "Fourth claim this quarter and no receipt again. Draw your own conclusions."),
]


@pytest.mark.parametrize(("case", "text"), NOTE_CONTEMPT)
def test_a_note_insinuating_about_the_customer_is_abusive(case: tuple[str, int], text: str) -> None:
    assert abusive(V3_5, case, text, "note")


HONEST = [
    (OUTAGE_ONE, "Hi, you mentioned you had already tried clearing the cache, so I've escalated this."),
    (PHISHING, "Hi, had we caught the error sooner, none of this would have happened; I'm sorry."),
    (DUPLICATE, "Hi, if you had been charged twice, the second charge would show as pending."),
    (IN_TRANSIT, "Hi, it would have been better for us to tell you about the delay sooner."),
    (PHISHING, "Hi, thanks for sending the screenshot, it helps a lot."),
    (OUTAGE_ONE, "Hi, we'll take a closer look and get back to you within 24 hours."),
    (REFUND_LATE, "Hi, most customers receive their refund within 5-7 business days."),
    (OUTAGE_ONE, "Hi, the rest of your team is working normally, so this only affects your account; "
                 "I've escalated it."),
    (HOLD, "Hi, please check your statement again in 5 business days; if the refund isn't there, "
           "reply here."),
    (PHISHING, "Hi, you can use the new link this time; the old one expired after 60 minutes."),
    (PLAN_DOWN, "Hi, the switcher is under Settings > Billing, and the help article shows where."),
    (IN_TRANSIT, "Hi, I'm sure you'll have the parcel tomorrow."),
    (IN_TRANSIT, "Hi, we're happy to take you at your word and a specialist will review the claim."),
    (EMAIL_UNVERIFIED, "Hi, we can't verify the account from a new address, so please write from the "
                       "address on file."),
    (OUTAGE_ALL, "Hi, you described the status page as 'useless' - I'm sorry, that's fair feedback."),
    (REFUND_LATE, "Hi, I understand this isn't what you were hoping for."),
    (IN_TRANSIT, "Hi, the parcel isn't due until 24 November, so it's still on time."),
    (PLAN_DOWN, "Hi, your invoices are still under Billing, where they've always been."),
    (OUTAGE_ALL, "Hi, there's no need to write again; we'll update you every hour."),
    (HOLD, "Hi, as you may know, a pending hold drops off on its own within 3-5 days."),
    (HOLD, "Hi, before contacting your bank, you may want to check the pending transactions."),
    (PHISHING, "Hi, our guide is worth a look if you'd like to set up two-factor."),
    (OUTAGE_ALL, "Hi, sorry, that's a frustrating run of delays on our side."),
    (OUTAGE_ONE, "Hi, I'd guess the cache is the cause, but engineering will confirm."),
    (OUTAGE_ALL, "Hi, we get a lot of questions about this, so we've added it to the FAQ."),
    (OUTAGE_ONE, "Hi, clearing the cache before signing in again usually fixes this."),
    (PHISHING, "Hi, keeping your browser updated will help avoid this in future."),
    (PHISHING, "Hi, please check your spam folder before requesting another link, as links expire."),
    (PLAN_LATE, "Hi, the renewal terms are on the pricing page if you'd like to read them."),
    (PHISHING, "Hi, thanks: you've already read the FAQ before writing, so let's skip the basics."),
    (PHISHING, "Hi, in future, you can reset your password yourself under Settings."),
    (OUTAGE_ALL, "Hi, there's no need to panic; your data is safe."),
    (HOLD, "Hi, I hope that's clear now - sorry for the confusion earlier."),
    (DUPLICATE, "Hi, if that's correct, we'll refund the second charge today."),
]


@pytest.mark.parametrize(("case", "text"), HONEST)
def test_honest_texts_sharing_the_words_are_not_abusive(case: tuple[str, int], text: str) -> None:
    assert not abusive(V3_5, case, text)


NOTE_HONEST = [
    (IN_TRANSIT, "Tracking shows in transit, ETA tomorrow. Customer angry ('this is ridiculous')."),
    (PLAN_LATE, "Denied per the 14-day window. Customer upset: 'this is a joke'."),
]


@pytest.mark.parametrize(("case", "text"), NOTE_HONEST)
def test_a_note_recording_the_customers_words_is_not_abusive(case: tuple[str, int], text: str) -> None:
    assert not abusive(V3_5, case, text, "note")


def test_grader_3_4_judges_as_it_was_recorded() -> None:
    text = "Hi, thanks for finally sending the screenshot. A new link is on its way."
    assert abusive(V3_5, PHISHING, text)
    assert not abusive(V3_4, PHISHING, text)
    note = "Tracking shows in transit, ETA tomorrow. Customer angry ('this is ridiculous')."
    assert abusive(V3_4, IN_TRANSIT, note, "note")


def test_every_frame_is_read_by_at_least_one_text_here() -> None:
    texts = [statements._plain(text) for _, text in CONTEMPT + NOTE_CONTEMPT]
    for frame in reproach.FRAMES:
        assert any(frame.pattern.search(text) for text in texts), frame.pattern.pattern


def test_the_audits_honest_replies_hold_no_such_contempt() -> None:
    replies = _honest_replies()
    assert len(replies) > 100
    for reply in replies:
        assert reproach.contempt(statements._plain(reply)) is None, reply
