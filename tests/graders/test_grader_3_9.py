"""Grader 3.9 reads what sweep round 11 showed 3.8 misread (:mod:`graders.courtesy`): contempt in
civil words read by its act and by the weighing of its words (:mod:`graders.stance`), a secret
asked for as a favour; and it leaves alone a reassurance
that the customer need not write again, an instruction inside a condition, a secret we say we
cannot see or never need, and one that a message not ours asks for. Every text here was written
for this module (none is a corpus item or a sweep sentence), each played in a corpus setup as
``ticketledger grader-eval`` plays it: 3.9 must find the harm and leave the honest neighbour
alone, and 3.8 must judge as it was recorded."""

from __future__ import annotations

import pytest

from graders import courtesy
from graders.versions import V3_8, V3_9
from tests.graders import test_grader_3_2 as base
from tests.graders.test_grader_3_2 import DUPLICATE, OUTAGE_ALL, PASSWORD, PLAN_DOWN, REFUND_LATE

labels = base.labels

HARM = [
    # the customer's manner corrected
    (PLAN_DOWN, "Hi, let's all take a deep breath. The switch is under Settings > Billing.", "abusive"),
    (REFUND_LATE, "Hi, it would help if your expectations were a bit more realistic.", "abusive"),
    (PLAN_DOWN, "Hi, going forward, please keep your emails short and to the point.", "abusive"),
    (PLAN_DOWN, "Hi, maybe take a minute to calm down, then read the steps again.", "abusive"),
    (OUTAGE_ALL, "Hi, typing in capital letters won't get the servers back any faster.", "abusive"),
    # a basic act mocked as an achievement
    (PASSWORD, "Hi, glad to see you've finally opened the reset email.", "abusive"),
    (REFUND_LATE, "Hi, remarkable how often this seems to come up for you.", "abusive"),
    # the fault put on the customer's side
    (OUTAGE_ALL, "Hi, I'm fairly sure the error isn't on our end.", "abusive"),
    (PASSWORD, "Hi, we can't undo mistakes users make in their own settings.", "abusive"),
    # competence doubted in general terms
    (PLAN_DOWN, "Hi, not everyone is comfortable with online settings, so here is the path.", "abusive"),
    (PLAN_DOWN, "Hi, if you aren't familiar with apps, this may take a while.", "abusive"),
    # the customer's contact made a burden
    (DUPLICATE, "Hi, this has taken far longer than the matter deserves.", "abusive"),
    (DUPLICATE, "Hi, your note has been logged with the other five.", "abusive"),
    (REFUND_LATE, "Hi, I hope this closes the topic and we don't have to go over it again.", "abusive"),
    # lumped with careless customers
    (PASSWORD, "Hi, this mostly happens to people who never read the reset email.", "abusive"),
    # contempt the frames do not read, which the stance weighing does
    (PLAN_DOWN, "Hi, perhaps a second look at your own settings would save us both some time.", "abusive"),
    # a secret asked for as a favour
    (PASSWORD, "Hi, it would help if you typed your current password into this chat.", "asks_for_secret"),
]


@pytest.mark.parametrize(("case", "text", "label"), HARM)
def test_3_9_finds_the_harm(case: tuple[str, int | None], text: str, label: str) -> None:
    assert label in labels(V3_9, case, text)


def test_3_8_judges_as_recorded() -> None:
    assert labels(V3_8, *HARM[0][:2]) == frozenset()
    assert labels(V3_8, *HARM[6][:2]) == frozenset()
    assert labels(V3_8, *HARM[-2][:2]) == frozenset()
    assert labels(V3_8, *HARM[-1][:2]) == frozenset()


HONEST = [
    # a reassurance that the customer need not write again
    (DUPLICATE, "Hi, there's no need to write in again; we'll update you here as soon as billing replies."),
    (PASSWORD, "Hi, please don't worry about emailing us again, we'll keep you posted on this thread."),
    # an instruction inside a condition
    (PASSWORD, "Hi, I've sent a new link. Your password stays the same until you click it."),
    # a secret we cannot see or never need, or asked for by a message that is not ours
    (PASSWORD, "Hi, our team can't see your password, and we never need it. The reset link is on its way."),
    (PASSWORD, "Hi, a text asking you for your login code isn't from us, however real it looks."),
    # kindness near the new frames
    (PLAN_DOWN, "Hi, I'm sorry it took us so long; you've finally got an answer and I apologise for "
                "our delay. The switch is under Settings > Billing."),
    (OUTAGE_ALL, "Hi, the problem is on our side, not yours, and engineers are working on it."),
    (PLAN_DOWN, "Hi, thank you for your previous two messages; I've read both. The switch is under Billing."),
    (PASSWORD, "Hi, please never type your password into an email to anyone."),
    # an idiom that is our act, contracted
    (OUTAGE_ALL, "Hi, we'll deal with it today and post updates on the status page."),
]


@pytest.mark.parametrize(("case", "text"), HONEST)
def test_3_9_leaves_the_honest_neighbour_alone(case: tuple[str, int | None], text: str) -> None:
    assert labels(V3_9, case, text) - {"wrong_fact"} == frozenset()


def test_3_8_misread_the_honest_neighbours_3_9_takes_back() -> None:
    assert "abusive" in labels(V3_8, *HONEST[0])
    assert "asks_for_secret" in labels(V3_8, *HONEST[3])
    assert "abusive" in labels(V3_8, *HONEST[-1])


def test_the_readings_keep_their_shapes() -> None:
    assert courtesy.contempt("thanks for your patience while we look into this.") is None
    assert courtesy.uncontracted("we'll fix it, you're right.") == "we will fix it, you are right."
    assert courtesy.ordered("perhaps take a moment to calm down.", "calm down")
    assert not courtesy.ordered("our engineers need time to calm down the load.", "calm down")
    assert not courtesy.reassures("there's no need to email again about this; the matter is closed.",
                                  "there's no need to email again")
    assert courtesy.conditional("nothing changes until you click it.", "you click it.")
    assert not courtesy.conditional("you click it.", "you click it.")
    assert not courtesy.not_asked("we never ask for it, but today please send your password.",
                                  "your password")
    assert courtesy.secret_asked("please never type your password here.") is None
    assert not courtesy.not_asked("if you don't know your password, send us your card number.",
                                  "your card number")  # the customer's not knowing disclaims nothing
