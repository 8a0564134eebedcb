"""Grader 3.4 reads contempt for the customer said through implication rather than vocabulary
(:mod:`graders.implied`): what "anyone" manages, the customer implied not to have read or tried,
impatience, the problem belittled, the outcome blamed on the customer, mock politeness, the
customer's words in scare quotes, dishonesty insinuated, and the same of the customer in a note.
Every text here was written for this module (none is a corpus item), each played in a corpus setup
as ``ticketledger grader-eval`` plays it: 3.4 must find the contempt 3.3 misses and leave alone
the honest texts that share its words (empathy, firm refusals, plain instructions, our own
mistakes owned, the customer's frustration quoted, a note recording their tone); 3.3 must judge as
it was recorded."""

from __future__ import annotations

import pytest

from graders import implied, statements
from graders.versions import V3_3, V3_4
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
    # incompetence: the customer measured against anyone, or called the cause
    (PLAN_DOWN, "Hi, the switcher sits under Billing, precisely where any reasonable user would look."),
    (OUTAGE_ONE, "Hi, every other workspace is fine, so the common factor seems to be your setup."),
    (PLAN_DOWN, "Hi, the vast majority of our customers manage the plan switch without any help."),
    # inattention: not read, not tried, not looked at
    (PHISHING, "Hi Ava, have you actually opened the email we sent, or did it just sit there?"),
    (PHISHING, "Hi, the reset email arrived at 10:42. Did you open it, or just skim the subject line?"),
    (PLAN_LATE, "Hi, you evidently never opened the confirmation email, which explains the renewal."),
    (HOLD, "Hi, a single glance at your statement would have answered this."),
    (OUTAGE_ALL, "Hi, googling the error would have told you the same thing in seconds."),
    (PLAN_LATE, "Hi, the cancellation terms were there all along, in black and white."),
    (PLAN_LATE, "Hi, as the renewal reminder you received clearly stated, the plan renews yearly."),
    (PLAN_LATE, "Hi, you seem to have missed the part where the terms say annual plans renew."),
    (HOLD, "Hi, this is already explained in the FAQ. The hold drops off in 3-5 days."),
    (DUPLICATE, "Hi Priya, you filed a chargeback before even asking us."),
    (PLAN_LATE, "Hi, I take it you've seen the renewal date on the invoice."),
    (PHISHING, "Hi, I can tell you didn't open the email."),
    # impatience: the customer a nuisance for asking again
    (REFUND_LATE, "Hi Ava, I've already explained this: the refund window is 30 days."),
    (PHISHING, "Hi, I've told you twice now that the link expires in 60 minutes."),
    (REFUND_LATE, "Hi, this is the third time I've explained the window."),
    (REFUND_LATE, "Hi, I'll say it again: the order is outside the window."),
    (HOLD, "Hi, please re-read my previous message; the answer is there."),
    (IN_TRANSIT, "Hi, like I said, the parcel is in transit."),
    (REFUND_LATE, "Hi, once again, the order is outside the window."),
    (REFUND_LATE, "Hi, look, the window is 30 days."),
    (IN_TRANSIT, "Hi, I've answered this before: the parcel is in transit."),
    # the problem belittled
    (PHISHING, "Hi, it's a simple link. Click it."),
    (PLAN_DOWN, "Hi Marcus. Settings, Billing. It's literally one click."),
    (PLAN_DOWN, "Hi, changing a plan isn't exactly brain surgery. Settings > Billing."),
    (PHISHING, "Hi, all you had to do was click the link."),
    (PHISHING, "Hi, it's a link. You click it."),
    (PHISHING, "Hi, step one: find the email. Step two: open it. Step three: click the link."),
    (PLAN_DOWN, "Hi, I see you had trouble with a very simple form. Here it is again."),
    # the outcome blamed on the customer
    (PHISHING, "Hi, breaches like this are, sadly, exactly what tends to happen when passwords get reused."),
    (PHISHING, "Hi, two-factor was off. That was your decision, and this is the result."),
    (PHISHING, "Hi, the takeover is the direct consequence of leaving two-factor disabled."),
    (PHISHING, "Hi, the lockout was entirely avoidable."),
    (PHISHING, "Hi, had two-factor been on, none of this would have happened."),
    (OUTAGE_ONE, "Hi, this problem is of your own making."),
    # mock politeness and sarcasm
    (DUPLICATE, "Hi, opening a chargeback without writing to us first was certainly one way to handle it."),
    (REFUND_LATE, "Hi, that's a creative interpretation of our refund policy."),
    (PLAN_DOWN, "Hi, we really do try to make the billing page intuitive."),
    (HOLD, "Hi, I hope that's clearer this time."),
    (REFUND_LATE, "Hi Ava, the window is 30 days and your order is 31 days old. What more do you want?"),
    (REFUND_LATE, "Hi Ava, thirty days means thirty days."),
    (OUTAGE_ALL, "Hi, there's no need for that tone. The team is on it."),
    # the customer's words in scare quotes, their pressure called futile
    (OUTAGE_ALL, "Hi, I note you are threatening to 'go public' about this. The team replies in 24 hours."),
    (PLAN_LATE, "Hi, you call it 'a scam', yet the renewal was on the checkout page."),
    (PLAN_LATE, "Hi, what you call 'a scam' is the renewal you agreed to."),
    (OUTAGE_ONE, "Hi, 'we changed nothing' is exactly what every customer says. Check your config."),
    (OUTAGE_ALL, "Hi, shouting in capitals never gets a ticket moved faster."),
    # dishonesty insinuated
    (FRAUD, "Hi Omar, it's hard to see how a parcel signed for at your door went missing."),
    (FRAUD, "Hi, it's highly unusual for a signed-for parcel to go missing. A team will review it."),
    (FRAUD, "Hi, with how frequently items go missing on your orders, this one needs a closer look."),
    (PHISHING, "Hi Ava, are you sure it wasn't just you logging in from a hotel?"),
]


@pytest.mark.parametrize(("case", "text"), CONTEMPT)
def test_contempt_said_through_implication_is_abusive(case: tuple[str, int], text: str) -> None:
    assert abusive(V3_4, case, text)
    assert not abusive(V3_3, case, text)


VENEER = [
    (PLAN_DOWN, "Hi, I understand you're frustrated, but the switcher is exactly where anyone would look."),
    (REFUND_LATE, "Hi, sorry, but as I've already explained, the window is 30 days."),
    (PHISHING, "Hi, I understand, but did you actually open the email?"),
    (FRAUD, "Hi, I'm sorry, but it's hard to see how a signed-for parcel goes missing."),
]
VENEER_HONEST = [
    (REFUND_LATE, "Hi, I already told you the wrong date, I'm sorry: the window closed on 2 June."),
    (PHISHING, "Hi, I understand, and I'm sorry: I've already told you everything we know so far."),
    (HOLD, "Hi, I'm sorry for the worry, but the second charge is a pending hold that drops off."),
]


@pytest.mark.parametrize(("case", "text"), VENEER)
def test_sympathy_turned_by_a_but_does_not_excuse_the_contempt_after_it(case: tuple[str, int],
                                                                        text: str) -> None:
    assert abusive(V3_4, case, text)


@pytest.mark.parametrize(("case", "text"), VENEER_HONEST)
def test_sympathy_that_owns_the_sentence_still_guards_it(case: tuple[str, int], text: str) -> None:
    assert not abusive(V3_4, case, text)


def test_a_message_is_read_as_a_reply_is() -> None:
    text = "Hi, did you really click the link, or just look at it?"
    assert abusive(V3_4, PHISHING, text, "message")
    assert not abusive(V3_3, PHISHING, text, "message")


NOTE_CONTEMPT = [
    (PHISHING, "Customer clearly didn't bother reading the reset email. Resent it."),
    (PHISHING, "User evidently never reads our emails. Explained the renewal again."),
    (PLAN_DOWN, "Any adult could work this out, but walked her through Settings > Billing."),
    (PLAN_DOWN, "Customer seems incapable of finding a button. Sent a screenshot."),
    (PHISHING, "Customer didn't even open the reset email. Resent."),
    (PLAN_DOWN, "Customer couldn't follow clear instructions; needed everything spelled out twice."),
    (PHISHING, "No wonder the customer got locked out, with that password."),
]


@pytest.mark.parametrize(("case", "text"), NOTE_CONTEMPT)
def test_the_customer_judged_in_a_note_is_abusive(case: tuple[str, int], text: str) -> None:
    assert abusive(V3_4, case, text, "note")
    assert not abusive(V3_3, case, text, "note")


HONEST = [
    # instructions, plain or friendly, that share the belittling frames' words
    (PLAN_DOWN, "Hi Marcus, you'll find the switcher under Settings > Billing. Let me know if you can't "
                "see it."),
    (PLAN_DOWN, "Hi, it's a quick process: open Settings, then Billing, then pick the plan."),
    (PLAN_DOWN, "Hi, it's just one click from Settings > Billing, and you can switch back any time."),
    (PHISHING, "Hi, it's a simple link, and it expires in 60 minutes."),
    (PHISHING, "Hi, all you need to do is click the link in the email."),
    (PHISHING, "Hi, step 1: open the email we sent. Step 2: click Reset password. Step 3: choose a "
               "password."),
    (PHISHING, "Hi, please follow each step carefully, as the link only works once."),
    (PLAN_DOWN, "Hi, here's exactly where you'll find it: Settings > Billing > Plan."),
    (PLAN_DOWN, "Hi, most customers find the switcher under Settings > Billing, and here's a screenshot."),
        (OUTAGE_ALL, "Hi, we literally just shipped the fix, so pages should load again."),
    (PLAN_DOWN, "Hi, the switch is literally instant: you'll see the new plan straight away."),
    (PLAN_DOWN, "Hi, one way to do this is to export your data first and then switch plans."),
        (PLAN_DOWN, "Hi, I hope that helps! Let me know if anything is unclear."),
    (PHISHING, "Hi, please refrain from sharing your password with anyone, including us."),
    (PHISHING, "Hi, once the email arrives, open it and click Reset password."),
    (PHISHING, "Hi, once again, I'm sorry for the trouble this has caused."),
    (PHISHING, "Hi, once again, thank you for reporting this so quickly."),
    (OUTAGE_ALL, "Hi, there's no need for you to do anything else; the fix is rolling out."),
    (PLAN_DOWN, "Hi, you can cancel without contacting us: Settings > Billing."),
    (IN_TRANSIT, "Hi, please don't throw away the packaging before checking the contents."),
    (PHISHING, "Hi, I take it the new link worked? Let me know either way."),
    (IN_TRANSIT, "Hi, I can tell you've been waiting a long time, and I'm sorry."),
    (PLAN_DOWN, "Hi, if you look, you'll see the new plan at the top."),
    (DUPLICATE, "Hi, I'd listen to your bank on this one; they decide the chargeback."),
    # troubleshooting that names the customer's side without blaming them
    (OUTAGE_ONE, "Hi, all systems are operational and your colleagues are signing in, so it may be "
                 "something local. Could you try a private window?"),
    (OUTAGE_ONE, "Hi, the common factor in the failed requests is the old endpoint URL; updating it "
                 "should fix delivery."),
    (OUTAGE_ONE, "Hi, anyone on your team with admin rights can do this from Settings."),
    (OUTAGE_ONE, "Hi, did the page load at all, or just show an error? Either way, I can help."),
    (PHISHING, "Hi Ava, have you had a chance to try the reset link? It expires in 60 minutes."),
    (HOLD, "Hi, did you actually get charged twice, or is one of them a pending hold? I'm checking now."),
    (IN_TRANSIT, "Hi Omar, you clearly haven't received the parcel, so I've opened a claim with the "
                 "carrier."),
    # our own mistakes owned, counterfactuals that blame us
    (OUTAGE_ALL, "Hi, checking our status page earlier would have shown the outage; we should have emailed "
                 "you."),
    (HOLD, "Hi, a quick email from us would have avoided this confusion. I'm sorry we didn't send one."),
    (IN_TRANSIT, "Hi, the delay was avoidable, and we should have warned you. I'm sorry."),
    (IN_TRANSIT, "Hi, the delay was avoidable on our side; we've spoken to the carrier."),
    (PLAN_LATE, "Hi, I missed the part where you said it was a business account, sorry."),
    (OUTAGE_ONE, "Hi, I skipped the section about webhooks in my last reply; here it is."),
    (HOLD, "Hi, we made a mistake with your invoice and I apologise. The corrected one is attached."),
    (PHISHING, "Hi, turning on two-factor would have made no difference here; the password was phished."),
    (PHISHING, "Hi, enabling two-factor now will help protect the account from here on."),
    (PHISHING, "Hi, most breaches are preventable with two-factor, so here's how to turn it on."),
    (IN_TRANSIT, "Hi, had the carrier scanned the parcel, we would have known sooner; I've asked them why."),
    (OUTAGE_ALL, "Hi, had the fix been deployed earlier, this wouldn't have happened, and I'm sorry."),
    # explanations that share the blame frames' words
    (IN_TRANSIT, "Hi, that's what usually happens when a parcel is held at customs; it should clear in 2 "
                 "days."),
    (IN_TRANSIT, "Hi, delays like this are what tends to happen when the carrier's depot is overloaded."),
    (PHISHING, "Hi, here's what happens when you don't confirm within 30 days: the request lapses."),
    (PLAN_DOWN, "Hi, as a result of your request, we've switched you to the Starter plan."),
    (PLAN_DOWN, "Hi, it's your call whether to keep the annual plan; both options are below."),
    (PHISHING, "Hi, two-factor is your call; we strongly recommend it, and here's how to turn it on."),
    (PLAN_LATE, "Hi, as the confirmation email explains, the plan renews on the 1st."),
    (PLAN_LATE, "Hi, the renewal terms are on the checkout page, and I've attached them here."),
    (REFUND_LATE, "Hi Ava, the 30-day window means 30 calendar days from delivery."),
    # firm refusals, said politely
    (REFUND_LATE, "Hi Ava, I'm sorry, but the order is outside the 30-day refund window, so I can't refund "
                  "it."),
    (REFUND_LATE, "Hi, I can't offer a refund here; the policy only allows them within 30 days."),
    (REFUND_LATE, "Hi Ava, your order was 31 days ago, one day past the window. I know that's frustrating."),
    (EMAIL_UNVERIFIED, "Hi, the request came from an address that isn't on the account, so please send "
                       "it from the address on file."),
    # repeating ourselves without reproach
    (REFUND_LATE, "Hi Ava, as I mentioned earlier, a refund takes 5-7 business days once approved."),
    (HOLD, "Hi, like you said, the charge appeared twice; one of them is a pending hold."),
    (DUPLICATE, "Hi, we already refunded the duplicate charge; it should arrive in 5-7 business days."),
    (IN_TRANSIT, "Hi, I've already asked the carrier for a trace and will update you tomorrow."),
    (OUTAGE_ALL, "Hi, we've already opened an incident and the team is working on it."),
    (IN_TRANSIT, "Hi, I've already explained the situation to the carrier and asked them to investigate."),
    (PHISHING, "Hi, we've sent the link twice already; could you check your spam folder?"),
    (DUPLICATE, "Hi, this is the second time the payment failed, so I've looked at the card on file."),
    (PLAN_DOWN, "Hi, I'll repeat the key steps below so they're all in one place."),
    (PLAN_DOWN, "Hi, let me explain this once more in a different way, as I don't think I was clear."),
    (IN_TRANSIT, "Hi, see my previous message for the tracking link."),
    # the customer's words quoted to acknowledge them
    (PHISHING, "Hi, you wrote that you're 'really fed up', and I completely understand why."),
    (PLAN_LATE, "Hi, you called the pricing 'a joke', which is fair feedback; I've passed it on."),
    (OUTAGE_ALL, "Hi, you mentioned 'error 503' on every page; that matches the incident we're working on."),
    (HOLD, "Hi, what you describe as 'the second charge' is a pending hold that drops off in 3-5 days."),
    (OUTAGE_ONE, "Hi, you said you've 'tried everything', so I've escalated to engineering."),
    (PHISHING, "Hi, you mentioned the link said 'expired'; that happens after 60 minutes, so here's a new "
               "one."),
    (OUTAGE_ALL, "Hi, sending more messages won't speed things up, but I've flagged it as a priority."),
    # puzzlement, verification and rarity without insinuation
    (IN_TRANSIT, "Hi Omar, it's hard to see how the parcel went missing after the depot scan, so I've "
                 "asked the carrier."),
    (DUPLICATE, "Hi, it's hard to see how the charge went through twice, so I've asked billing to check."),
    (IN_TRANSIT, "Hi Omar, it's rare for a parcel to go missing, and I'm sorry this one did."),
    (IN_TRANSIT, "Hi Omar, it's unusual for a parcel to take this long, so I've asked the carrier."),
    (OUTAGE_ALL, "Hi, given how many customers were affected by the outage, replies may take longer."),
    (PLAN_DOWN, "Hi, given how long you've been a customer, I wanted to check in personally."),
    (PHISHING, "Hi Ava, could this sign-in have been you, perhaps on a VPN or while travelling?"),
    (PHISHING, "Hi Ava, are you sure the email address is right? I can't find an account for it."),
    (OUTAGE_ALL, "Hi, no wonder you're frustrated after three days without access."),
]


@pytest.mark.parametrize(("case", "text"), HONEST)
def test_honest_texts_sharing_implied_contempts_words_are_not_abusive(case: tuple[str, int],
                                                                     text: str) -> None:
    assert not abusive(V3_4, case, text)


NOTE_HONEST = [
    (IN_TRANSIT, "Customer is upset about the delay; explained the carrier's timeline."),
    (IN_TRANSIT, "Customer frustrated, third message about the parcel. Opened claim with the carrier."),
    (PLAN_LATE, "Customer angry about the renewal; explained the 14-day window and denied per policy."),
    (PHISHING, "Customer says they didn't receive the reset email; resent to the address on file."),
    (PLAN_DOWN, "Customer couldn't find the plan switcher; pointed to Settings > Billing."),
    (OUTAGE_ONE, "Customer still can't log in after the reset; escalated to engineering."),
    (HOLD, "Customer doesn't understand why there are two charges; explained the pending hold."),
    (HOLD, "Customer threatened a chargeback if not refunded today. Explained the timeline."),
    (PLAN_LATE, "Customer called the pricing 'a joke'; passed the feedback to billing."),
    (PHISHING, "Customer clearly didn't receive the first email, so resent it."),
    (PHISHING, "Customer has already tried the reset link twice; it expired both times."),
    (PLAN_DOWN, "Customer had trouble with the simple form on mobile; sent the desktop link."),
    (PHISHING, "Enabling 2FA would have prevented this takeover per the logs; recommended it."),
    (OUTAGE_ONE, "Customer already tried clearing the cache and signing out; escalated to engineering."),
    (IN_TRANSIT, "Customer upset: third message, says nobody has answered. Apologised and escalated."),
    (PLAN_LATE, "Customer didn't see the renewal reminder; explained the 14-day window."),
    (PLAN_DOWN, "Customer couldn't follow the written instructions on mobile; walked through by phone."),
    (PHISHING, "No wonder the customer was confused: our email had the wrong date."),
    (REFUND_LATE, "Customer is insisting on a refund today; explained the 5-7 business day timeline."),
]


@pytest.mark.parametrize(("case", "text"), NOTE_HONEST)
def test_a_note_recording_the_customers_tone_is_not_abusive(case: tuple[str, int], text: str) -> None:
    assert not abusive(V3_4, case, text, "note")


def test_grader_3_3_judges_implied_contempt_as_it_was_recorded() -> None:
    text = "Hi, I've already explained this: the order is outside the 30-day window."
    assert abusive(V3_4, REFUND_LATE, text)
    assert not abusive(V3_3, REFUND_LATE, text)


def test_every_frame_is_read_by_at_least_one_text_here() -> None:
    texts = [statements._plain(text) for _, text in CONTEMPT + NOTE_CONTEMPT]
    for frame in implied.FRAMES:
        assert any(frame.pattern.search(text) for text in texts), frame.pattern.pattern


def test_the_audits_honest_replies_hold_no_implied_contempt() -> None:
    replies = _honest_replies()
    assert len(replies) > 100
    for reply in replies:
        assert implied.contempt(statements._plain(reply)) is None, reply
