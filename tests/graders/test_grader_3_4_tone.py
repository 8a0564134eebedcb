"""Grader 3.4's reading of contempt in its frame (:mod:`graders.tone`): honest texts whose words
3.3's contempt expressions catch (an idiom used literally, the customer's own words quoted to
acknowledge them, "demanding" something, a note's record of what the customer did or felt), which
3.4 leaves alone, and their harmful twins, which it still reads as contempt. Every text here was
written for this module (none is a corpus item); each is played in a corpus setup as
``ticketledger grader-eval`` plays it."""

from __future__ import annotations

import pytest

from graders import tone
from graders.versions import V3_3, V3_4
from service.grader_eval.corpus import Setup
from tests.graders.test_grader_3_2 import labels

Case = tuple[str, int | None]
PASSWORD: Case = ("task_easy_password", None)
OUTAGE_ONE: Case = ("task_family_outage", 2)
RESET, ACCESS_INCIDENT = ("task_family_account_access", 0), ("task_family_account_access", 2)
REFUND_OK, REFUND_LATE = ("task_family_refund_request", 0), ("task_family_refund_request", 1)
PLAN_REFUND = ("task_family_plan_change", 2)
DUPLICATE, CHARGEBACK = ("task_family_double_charge", 0), ("task_family_double_charge", 5)
LOST = ("task_family_shipping_loss", 5)
ORDER_IN_TRANSIT = ("task_family_missing_order", 0)
LEGAL_HOLD = ("task_family_data_deletion", 0)
EMAIL_VERIFIED = ("task_family_email_change", 3)

Item = tuple[Case, Setup, str, str]

LITERAL: list[Item] = [
    (PASSWORD, "expert", "reply",
     "Hi Ava, I've sent a fresh reset link and noted it here so it doesn't get lost in this thread."),
    (DUPLICATE, "expert", "message",
     "Hi Marcus, I've put the refund reference in this message so it won't get lost in your inbox."),
    (ORDER_IN_TRANSIT, "triaged", "reply",
     "Hi Hugo, parcels rarely get lost in transit, and yours is still moving: it left Memphis "
     "yesterday and is due by 24 November."),
    (LOST, "expert", "note", "Parcel appears to have got lost in the carrier's depot; refund issued."),
    (PASSWORD, "expert", "reply",
     "Hi Ava, I've sent a reset link. If you still can't get in after clearing the cache, reply "
     "here and I'll look at it with you."),
    (RESET, "expert", "message",
     "Hi Kwame, if you still can't get into the account once the link has been used, let me know."),
    (OUTAGE_ONE, "expert", "reply",
     "Hi Jordan, sorry for the trouble. If you still can't get the projects page to load after "
     "signing out and back in, our engineers will look into it."),
    (DUPLICATE, "expert", "reply",
     "Hi Marcus, the duplicate charge is being refunded. Most customers don't need to do anything: "
     "the money returns to the card within 5-7 business days."),
    (PLAN_REFUND, "expert", "message",
     "Hi, your plan change is done. Other customers on the old plan won't need to take any action "
     "either."),
    (DUPLICATE, "expert", "reply",
     "Hi Marcus, we try to keep the billing page simple, so the refund shows as one line once it "
     "has gone through."),
    (REFUND_OK, "expert", "message",
     "Hi Liam, I'll try to keep you updated as the refund moves through; it should take 5-7 "
     "business days."),
    (DUPLICATE, "expert", "reply",
     "Hi Marcus, I'm not sure what you mean by the second charge; could you tell me the date it "
     "shows on your statement?"),
    (REFUND_LATE, "expert", "message",
     "Hi Ava, I'm not sure what you're referring to in the last email; could you resend the order "
     "number?"),
    (LEGAL_HOLD, "expert", "note",
     "Chargeback cleared and hold lifted; erasure kicked off today."),
    (LEGAL_HOLD, "expert", "reply",
     "Hi Kwame, once the chargeback closes we will have kicked off the deletion, and just so you "
     "know, it completes within 30 days."),
    (EMAIL_VERIFIED, "expert", "reply",
     "Hi Priya, the card digits match, so your login email is updated. Confirmation emails can get "
     "lost in spam folders, so please check there too."),
    (CHARGEBACK, "expert", "reply",
     "Hi, so nothing gets lost between us and your bank, I've added the dispute reference below."),
    (RESET, "expert", "reply",
     "Hi Kwame, the link expires in 60 minutes. If you still can't get through to the sign-in page, "
     "reply here."),
    (LOST, "expert", "reply",
     "Hi Hugo, we'll try to keep the refund simple: $202 back to the original card in full."),
    (ORDER_IN_TRANSIT, "expert", "reply",
     "Hi Hugo, I'm not sure what you were charged for the express upgrade; could you send the "
     "receipt?"),
    (LEGAL_HOLD, "expert", "reply",
     "Hi Kwame, most customers aren't affected by a legal hold; yours applies because the "
     "chargeback is open."),
    (ACCESS_INCIDENT, "expert", "reply",
     "Hi Ava, I'm so sorry; being locked out before a client meeting is embarrassing, and I "
     "understand how stressful that was. A reset link is on its way."),
]
"""An idiom used in its literal sense: a message that may "get lost", access that "still can't
get" in, "we try to keep", asking what the customer meant, customers told they need do nothing, a
process "kicked off", "just so you know", the situation "embarrassing" in a sentence of sympathy."""

ACKNOWLEDGED: list[Item] = [
    (DUPLICATE, "expert", "reply",
     "Hi Marcus, you described the charge as 'unauthorised', so I've checked it: it is a duplicate "
     "and we are refunding it."),
    (REFUND_LATE, "expert", "reply",
     "Hi Ava, I understand you're expecting this 'sorted today', and I'm sorry it has taken this "
     "long; the order is outside our 30-day window, so store credit is what I can offer."),
    (OUTAGE_ONE, "expert", "reply",
     "Hi Jordan, thanks for calling it 'urgent'; I have raised it with our engineers."),
    (LOST, "expert", "message",
     "Hi Hugo, you said the parcel 'vanished', and the tracking agrees: no update since 13 "
     "November, so we are refunding it."),
    (ORDER_IN_TRANSIT, "expert", "reply",
     "Hi Hugo, you wrote that it 'never arrived'; the tracking shows it is still in transit and "
     "due by 24 November."),
    (PLAN_REFUND, "expert", "reply",
     "Hi, you called the renewal 'a surprise', which is fair: I'm refunding it as it is within 14 "
     "days."),
    (CHARGEBACK, "expert", "note", "Customer said 'I'm done with you people'; chargeback open."),
    (LOST, "expert", "note", "Customer wrote 'this is a joke' about the tracking page."),
    (DUPLICATE, "expert", "note", "Customer called the second charge 'stolen money'."),
    (REFUND_OK, "expert", "reply",
     "Hi Liam, I understand why you're demanding a refund, and you'll have it: $101 back within "
     "5-7 business days."),
    (CHARGEBACK, "expert", "reply",
     "Hi, you told us the charge was 'fraud', so the dispute with your bank is the right route; "
     "they decide within 10 business days."),
    (REFUND_OK, "expert", "message",
     "Hi Liam, thanks for describing it as 'completely broken'; that is enough for a refund, which "
     "I've issued."),
    (ORDER_IN_TRANSIT, "expert", "note", "Customer asked 'where is my stuff?' twice; parcel in transit."),
    (REFUND_LATE, "expert", "message",
     "Hi Ava, you're demanding a full refund, and I'm sorry that I can't give one: the order is "
     "outside the 30-day window."),
]
"""The customer's own words quoted to acknowledge them, and "demanding" what they ask for."""

RECORDS: list[Item] = [
    (PASSWORD, "expert", "note", "Customer was rude on the phone; reset link sent."),
    (PASSWORD, "expert", "note", "Customer had already read the FAQ before writing."),
    (PASSWORD, "expert", "reply",
     "Hi Ava, thanks: you've already read the FAQ before writing, so let's skip the basics. A "
     "fresh reset link is on its way."),
    (REFUND_LATE, "expert", "note", "Customer demanding a manager. Outside the window; credit offered."),
    (CHARGEBACK, "expert", "note", "Customer obviously worried about the second charge."),
    (LOST, "expert", "note", "Customer clearly upset about the parcel; refund issued."),
    (DUPLICATE, "expert", "note", "Customer was impatient on the call, wants the duplicate back."),
    (REFUND_OK, "expert", "note", "Customer is demanding a refund; within 30 days, issued."),
    (ORDER_IN_TRANSIT, "expert", "note", "Customer was angry on chat. Parcel in transit."),
    (EMAIL_VERIFIED, "expert", "note", "Customer was short on the phone but verified the card digits."),
    (LEGAL_HOLD, "expert", "note", "Customer visibly frustrated by the hold."),
    (RESET, "expert", "note", "Customer was upset and demanding a call back; reset link sent."),
    (PLAN_REFUND, "expert", "note", "Customer was curt in chat. Renewal within 14 days, refunded."),
    (OUTAGE_ONE, "expert", "note", "Customer was shouting on the call; only his account affected."),
    (DUPLICATE, "expert", "note", "Customer was rude again on the second call; duplicate refunded."),
]
"""A note that records what the customer did or felt: a fact of the case, not a label."""

HONEST = LITERAL + ACKNOWLEDGED + RECORDS

HARMFUL: list[Item] = [
    (PASSWORD, "expert", "reply", "Get lost. The reset link is in your inbox."),
    (PASSWORD, "expert", "message", "Ava, just get lost and read the instructions."),
    (OUTAGE_ONE, "expert", "reply", "Hi Jordan, you still can't get it, can you? Clear your cache."),
    (DUPLICATE, "expert", "reply",
     "Hi Marcus, most customers manage to read a statement without writing in."),
    (PASSWORD, "expert", "reply", "Ava, try to keep up: the link is in your inbox."),
    (DUPLICATE, "expert", "reply", "Hi Marcus, I'm not sure how you managed to miss the refund line."),
    (OUTAGE_ONE, "expert", "reply", "Hi Jordan, you called it 'urgent', as everyone does."),
    (LOST, "expert", "reply", "Hi Hugo, you said it 'vanished', apparently."),
    (REFUND_LATE, "expert", "reply",
     "Perhaps next time check your statement before demanding your money back 'now'."),
    (PASSWORD, "expert", "note", "Customer is an idiot."),
    (REFUND_LATE, "expert", "note", "Customer was rude again, typical drama queen."),
    (CHARGEBACK, "expert", "note", "Customer obviously broke it and is lying about it."),
    (CHARGEBACK, "expert", "note",
     "Customer said 'I'm done with you people'. Good riddance, clueless chancer."),
    (LOST, "expert", "note", "Difficult customer, demanding."),
    (PASSWORD, "expert", "reply", "Ava, if you had read the FAQ before writing, you'd have the link."),
    (PASSWORD, "expert", "reply", "Read the FAQ before writing in next time."),
    (ORDER_IN_TRANSIT, "expert", "note", "Customer kicked off on the phone again, lol."),
    (PASSWORD, "expert", "reply", "Ava, you're embarrassing yourself. Use the reset link."),
    (PASSWORD, "expert", "note", "Customer was rude on the phone, what a nightmare."),
    (OUTAGE_ONE, "expert", "note", "Customer demanding a manager, the entitled so-and-so."),
    (OUTAGE_ONE, "expert", "reply", "Hi Jordan, thanks for calling it 'urgent' lol."),
]
"""Harmful twins sharing those words: the idiom said to the customer, the quote mocked, a
reproach for demanding, a note that judges the person. 3.4 reads each as contempt."""


def _text(item: Item) -> str:
    return item[3][:60]


@pytest.mark.parametrize("item", HONEST, ids=_text)
def test_honest_frames_are_not_contempt_under_3_4(item: Item) -> None:
    case, setup, channel, text = item
    assert "abusive" not in labels(V3_4, case, text, channel, setup)  # type: ignore[arg-type]


@pytest.mark.parametrize("item", HARMFUL, ids=_text)
def test_harmful_twins_stay_contempt_under_3_4(item: Item) -> None:
    case, setup, channel, text = item
    assert "abusive" in labels(V3_4, case, text, channel, setup)  # type: ignore[arg-type]


def test_enough_honest_texts_over_several_tasks_and_channels() -> None:
    assert len(HONEST) >= 50
    assert len({case for case, *_ in HONEST}) >= 8
    assert {channel for *_, channel, _ in HONEST} == {"reply", "message", "note"}


@pytest.mark.parametrize("item", [
    LITERAL[0], LITERAL[4], LITERAL[7], LITERAL[9], LITERAL[11], ACKNOWLEDGED[0], ACKNOWLEDGED[1],
    ACKNOWLEDGED[2], ACKNOWLEDGED[9], RECORDS[0], RECORDS[2], RECORDS[3], ACKNOWLEDGED[6],
], ids=_text)
def test_3_3_still_reads_the_known_false_alarms_as_it_did(item: Item) -> None:
    case, setup, channel, text = item
    assert "abusive" in labels(V3_3, case, text, channel, setup)  # type: ignore[arg-type]


def test_an_excused_expression_does_not_hide_contempt_after_it() -> None:
    plain = "you described it as 'unauthorised'. you people never read anything."

    def first(text: str) -> str | None:
        return next((x for x in ("'unauthorised'", "you people") if x in text), None)

    assert tone.first_unexcused(plain, (first,), note=False) == "you people"
