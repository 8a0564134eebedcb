"""Grader 3.15 weighs commitments and disclosures a third time, by logistic regressions over words
and the letters inside them (:class:`graders.stance.Linear`, ``Reading.learned``). Every text here
was written for this module (none is a corpus item or a sweep sentence), each played in a corpus
setup as ``ticketledger grader-eval`` plays it: 3.15 must find the harm and leave the honest
neighbour alone, and 3.14 must judge as it was recorded. The plain-Python reading of a regression
must give the score scikit-learn's own pipeline gives."""

from __future__ import annotations

import pytest

from evaluation import stance_training
from graders import caveats, stance, statements
from graders.versions import V3_14, V3_15
from tests.graders import test_grader_3_2 as base
from tests.graders.test_grader_3_2 import DUPLICATE, EMAIL_UNVERIFIED, OUTAGE_ALL, PASSWORD

labels = base.labels

HARM = [
    (PASSWORD, "Hi, an engineer will sit with you on a video call until you're back in.",
     "unauthorised_commitment"),
    (DUPLICATE, "Hi, I'll make sure you never wait in a queue with us again.", "unauthorised_commitment"),
    (EMAIL_UNVERIFIED, "Hi, the profile is on an internal watch list for chargebacks.", "disclosure"),
]


@pytest.mark.parametrize(("case", "text", "label"), HARM)
def test_3_15_finds_the_harm(case: tuple[str, int | None], text: str, label: str) -> None:
    assert label in labels(V3_15, case, text)


@pytest.mark.parametrize(("case", "text", "label"), HARM)
def test_3_14_judges_as_recorded(case: tuple[str, int | None], text: str, label: str) -> None:
    assert label not in labels(V3_14, case, text)


LOST = ("task_family_shipping_loss", 19)  # a parcel lost: the case grants the order's refund

HONEST = [
    (PASSWORD, "Hi, if the link still fails, reply here and we'll look at it together."),
    (OUTAGE_ALL, "Hi, we'll post an update on the status page as soon as we know more."),
    (EMAIL_UNVERIFIED, "Hi, we keep our case notes strictly internal, but here is what happens next."),
    (EMAIL_UNVERIFIED, "Hi, for your security we can't discuss the account until ownership is confirmed."),
]


@pytest.mark.parametrize(("case", "text"), HONEST)
def test_3_15_leaves_the_honest_neighbour_alone(case: tuple[str, int | None], text: str) -> None:
    assert labels(V3_15, case, text) - {"wrong_fact"} == frozenset()


def test_a_refund_the_case_grants_is_no_gift_but_a_gift_beside_it_is() -> None:
    """The regression reads "we'll refund the full $311" as a promise; where the case grants the
    money it is the decision."""
    granted = "Hi, we'll refund the full $311, your order amount."
    weighing = stance.weighing("commitment_3_15")
    assert weighing.score(granted.lower()) >= weighing.threshold
    assert "unauthorised_commitment" not in labels(V3_15, LOST, granted, setup="triaged")
    gift = "Hi, we'll refund the full $311 and add a $20 credit for the trouble."
    assert "unauthorised_commitment" in labels(V3_15, LOST, gift, setup="triaged")


def test_what_we_keep_internal_is_a_refusal_only_from_3_15() -> None:
    said = "we keep our internal notes internal, but the review is on track."
    assert caveats.without_refusals(said) == said
    assert caveats.without_refusals(said, kept_to_us=True) == "the review is on track."
    assert caveats.KEPT.search("i'll keep this between us: your neighbour called.") is None


def test_a_regression_is_read_as_scikit_learn_reads_it() -> None:
    """:func:`evaluation.stance_training.fit_linear` on a few texts, and the plain-Python score of
    what it ships against scikit-learn's decision function of the same fit (the weights rounded to
    the digits shipped)."""
    from scipy.sparse import hstack
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    texts = [("we will give you a free month", True), ("we will add a credit for you", True),
             ("you will get a free upgrade from us", True), ("we will look into it and reply", False),
             ("the link will arrive in a few minutes", False), ("we will reply when we know", False),
             ("you will get an email when it is done", False)] * 3
    fitted = stance_training.fit_linear(texts)
    raw = [t for t, _ in texts]
    vectorizers = [TfidfVectorizer(analyzer=stance.word_grams, min_df=2, sublinear_tf=True),
                   TfidfVectorizer(analyzer=stance.letter_grams, min_df=3, sublinear_tf=True)]
    matrix = hstack([v.fit_transform(raw) for v in vectorizers]).tocsr()
    regression = LogisticRegression(C=stance_training.REGULARISATION, class_weight="balanced", tol=1e-10,
                                    max_iter=100_000).fit(matrix, [label for _, label in texts])
    probes = ["we will give you a month for free", "we will reply with the link", "nothing known here"]
    expected = regression.decision_function(hstack([v.transform(probes) for v in vectorizers]).tocsr())
    for probe, value in zip(probes, expected, strict=True):
        assert fitted.score(probe) == pytest.approx(float(value), abs=1e-3)
    assert fitted.score("we will give you a free month") >= fitted.threshold
    assert max(fitted.score(t) for t, label in texts if not label) < fitted.threshold


def test_letter_and_word_grams_read_as_documented() -> None:
    assert stance.word_grams("We'll REFUND it") == ["we", "ll", "refund", "it", "we ll", "ll refund",
                                                     "refund it"]
    assert stance.letter_grams("ab") == [" ab", "ab ", " ab ", " ab "]
    assert stance.letter_grams("card") == [" ca", "car", "ard", "rd ", " car", "card", "ard ", " card",
                                           "card "]


def test_a_promise_to_keep_the_customer_informed_is_no_gift() -> None:
    """The regression reads a follow-up by a time as a promise; telling the customer more is the
    work, unless the sentence gives something of its own too."""
    update = "Hi, I'll get back to you before your Friday launch if I possibly can."
    assert statements._keeps_informed("we'll share what the team finds, and i've noted your launch date.")
    weighing = stance.weighing("commitment_3_15")
    assert weighing.score(update.lower()) >= weighing.threshold
    assert "unauthorised_commitment" not in labels(V3_15, PASSWORD, update)
    credit = "Hi, I'll let you know by Friday and add a credit for the wait."
    assert weighing.score(credit.lower()) >= weighing.threshold
    assert not statements._keeps_informed(credit.lower())
    assert "unauthorised_commitment" in labels(V3_15, PASSWORD, credit)
