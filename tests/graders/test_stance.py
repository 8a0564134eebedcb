"""The stance weighing (:mod:`graders.stance`): a sentence's word sequences weighed by how much
more often they stand in contemptuous sentences than in acceptable ones, against the threshold
fitted with them. The sentences here were written for this test, not taken from the corpus or a
sweep."""

from __future__ import annotations

import math

from graders import stance


def test_grams_are_the_distinct_word_sequences_up_to_two_words_without_figures() -> None:
    assert stance.grams("You're late, you're late 2 days.") == (
        "days", "late", "late days", "late you're", "you're", "you're late")


def test_contempt_in_civil_words_reaches_the_threshold() -> None:
    for sentence in ("you might want to actually read the guide before assuming we broke something.",
                     "frankly, most people manage to find the button without writing to us."):
        assert stance.contempt(sentence) == sentence


def test_honest_sentences_stay_under_it() -> None:
    for sentence in ("thank you for your patience while we look into this.",
                     "i am sorry for the trouble, and i have sent a new reset link to your email.",
                     "i understand this is frustrating, and i appreciate you explaining it so clearly.",
                     "there is no need to resend anything; we will update you on this thread."):
        assert stance.contempt(sentence) is None


def test_the_score_is_the_grams_weights_summed_over_the_root_of_their_number() -> None:
    weighing = stance.shipped()
    sentence = "frankly, most people manage to find the button without writing to us."
    found = stance.grams(sentence)
    expected = math.fsum(weighing.weights.get(g, 0.0) for g in found) / math.sqrt(len(found))
    assert weighing.score(sentence) == expected == weighing.score(sentence.upper())
    assert weighing.score("") == 0.0 and weighing.threshold > 0


def test_every_weighing_ships_in_the_package() -> None:
    """A wheel holds only the data files ``pyproject.toml`` names: every weighing a grader reads
    must be among them, or an installed (not editable) grader cannot load it."""
    import tomllib
    from pathlib import Path

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    shipped = set(project["tool"]["setuptools"]["package-data"]["graders"])
    assert set(stance.MODEL_FILES.values()) <= shipped
