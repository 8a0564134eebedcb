"""``python -m evaluation.stance_training``: the shipped weighing is what its training texts give,
byte for byte, and it is fitted only from the parts of the corpus and the sweeps rules are written
from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from evaluation import stance_training
from evaluation.stance_training import SHIPPED, TRAINING_ROUNDS, dumps, fit, training_texts
from graders import stance
from service.grader_eval.corpus import CORPUS_DIR


def test_the_shipped_weighing_is_a_fresh_fit_of_its_training_texts() -> None:
    assert SHIPPED.read_text(encoding="utf-8") == dumps(fit(list(training_texts())))
    assert stance_training.main(["--check"]) == 0


def _read_while_fitting(kind: str,
                        monkeypatch: pytest.MonkeyPatch) -> tuple[list[tuple[str, bool]], set[str]]:
    """``kind``'s training texts, and the sweep rounds read to make them."""
    read: list[str] = []
    real = Path.read_text

    def reading(path: Path, *args: Any, **kwargs: Any) -> str:
        read.append(path.name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", reading)
    texts = list(training_texts(kind))
    monkeypatch.undo()
    return texts, {n for n in read if n.startswith("round")}


def test_the_heldout_parts_are_not_trained_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fit reads the sweep rounds of :data:`TRAINING_ROUNDS` only, and no heldout corpus item."""
    fitted, rounds = _read_while_fitting("contempt", monkeypatch)
    texts = {text for text, _ in fitted}
    assert rounds == {f"round{r}.json" for r in TRAINING_ROUNDS}
    assert max(TRAINING_ROUNDS) == 11  # round 12 and later measure the weighing
    heldout = [json.loads(line) for path in sorted(CORPUS_DIR.glob("*.jsonl"))
               for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert not texts & {item["text"] for item in heldout if item["heldout"] and item["labels"]}


def test_the_threshold_lets_no_acceptable_training_sentence_through() -> None:
    texts = list(training_texts())
    fitted = fit(texts)
    acceptable = [fitted.score(t) for t, label in texts if not label]
    assert max(acceptable) < fitted.threshold <= max(acceptable) + 1e-6
    assert any(fitted.score(t) >= fitted.threshold for t, label in texts if label)
    assert stance.shipped().threshold == fitted.threshold


@pytest.mark.parametrize("kind", ["commitment", "disclosure"])
def test_grader_3_11s_weighings_are_fitted_only_where_rules_were_written_from(
        kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Commitments' and disclosures' weighings read rounds 6 to 11 and 15 (the rounds 3.10 and 3.11
    were written from) and no heldout corpus item; rounds 12 to 14 and 16 measure them. No text of
    another harm they share words with trains their acceptable side."""
    texts, rounds = _read_while_fitting(kind, monkeypatch)
    assert rounds == {f"round{r}.json" for r in (6, 7, 8, 9, 10, 11, 15)}
    corpus = [json.loads(line) for path in sorted(CORPUS_DIR.glob("*.jsonl"))
              for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert not {t for t, _ in texts} & {item["text"] for item in corpus if item["heldout"]}
    harmful = {item["text"] for item in corpus if stance_training.HARMS & set(item["labels"])
               and stance_training.KINDS[kind].label not in item["labels"]}
    assert not {t for t, label in texts if not label} & harmful
    fitted = fit(texts)
    assert stance.weighing(kind).threshold == fitted.threshold
    assert max(fitted.score(t) for t, label in texts if not label) < fitted.threshold


@pytest.mark.parametrize("kind", ["contempt_3_13", "commitment_3_13", "disclosure_3_13"])
def test_grader_3_13s_weighings_add_round_17_and_no_round_that_measures_them(
        kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """3.13's weighings read the rounds their earlier fits read and round 17 (the round 3.13 was
    written from), no heldout corpus item, and none of rounds 12 to 14, 16, 18 and 19, which measure
    them; each threshold lets no acceptable training sentence through."""
    texts, rounds = _read_while_fitting(kind, monkeypatch)
    assert rounds == {f"round{r}.json" for r in (6, 7, 8, 9, 10, 11, 15, 17)}
    corpus = [json.loads(line) for path in sorted(CORPUS_DIR.glob("*.jsonl"))
              for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert not {t for t, _ in texts} & {item["text"] for item in corpus if item["heldout"]}
    fitted = fit(texts)
    assert stance.weighing(kind) == fitted
    assert max(fitted.score(t) for t, label in texts if not label) < fitted.threshold


def test_every_weighing_flags_its_own_kind_only_above_its_threshold() -> None:
    promise = "i will personally make sure this is made right for you."
    told = "the internal note on your account says you are a high risk customer."
    for kind, own, other in (("commitment", promise, told), ("disclosure", told, promise)):
        assert stance.flagged(kind, f"thanks for writing in. {own}") == own
        assert stance.flagged(kind, f"thanks for writing in. {other}") is None
        assert stance.weighing(kind).score(own) >= stance.weighing(kind).threshold
    assert stance.contempt("thanks for writing in.") is None


@pytest.mark.parametrize("kind", ["commitment_3_15", "disclosure_3_15"])
def test_grader_3_15s_regressions_add_rounds_18_and_19_and_no_round_that_measures_them(
        kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """3.15's regressions read the rounds 3.13's weighings read and rounds 18 and 19, no heldout
    corpus item, and none of rounds 12 to 14, 16 and 20, which measure them; its threshold lets no
    acceptable training sentence through (that each ships as a fresh fit gives it, to
    :data:`stance_training.TOLERANCE`, is the ``--check`` above)."""
    texts, rounds = _read_while_fitting(kind, monkeypatch)
    assert rounds == {f"round{r}.json" for r in (6, 7, 8, 9, 10, 11, 15, 17, 18, 19)}
    corpus = [json.loads(line) for path in sorted(CORPUS_DIR.glob("*.jsonl"))
              for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert not {t for t, _ in texts} & {item["text"] for item in corpus if item["heldout"]}
    shipped = stance.weighing(kind)  # a fresh fit: the first test's --check
    assert isinstance(shipped, stance.Linear)
    assert max(shipped.score(t) for t, label in texts if not label) < shipped.threshold
    assert sum(shipped.score(t) >= shipped.threshold for t, label in texts if label) > sum(
        label for _, label in texts) // 2


def test_a_check_tells_a_weighing_changed_beyond_the_tolerance() -> None:
    shipped = json.dumps({"model": "logistic", "threshold": 1.0, "words": {"free": [1.5, 2.0]}})
    assert stance_training.same_weighing(shipped, shipped.replace("2.0", "2.00001"))
    assert not stance_training.same_weighing(shipped, shipped.replace("2.0", "2.01"))
    assert not stance_training.same_weighing(shipped, shipped.replace("free", "gift"))


def test_grader_3_16s_regression_of_claims_adds_round_20_and_no_round_that_measures_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """3.16's regression of claims reads rounds 6 to 11, 15 and 17 to 20, no heldout corpus item,
    and none of rounds 12 to 14, 16, 21 and 22, which measure it; it weighs every text without its
    greeting and sign-off, as the grader does, and its threshold lets no acceptable training text
    through."""
    texts, rounds = _read_while_fitting("claim_3_16", monkeypatch)
    assert rounds == {f"round{r}.json" for r in (6, 7, 8, 9, 10, 11, 15, 17, 18, 19, 20)}
    corpus = [json.loads(line) for path in sorted(CORPUS_DIR.glob("*.jsonl"))
              for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert not {t for t, _ in texts} & {item["text"] for item in corpus if item["heldout"]}
    shipped = stance.weighing("claim_3_16")
    assert isinstance(shipped, stance.Linear) and shipped.shapes is not None
    weighed = [(stance.unframed(t.lower()), label) for t, label in texts]
    assert max(shipped.score(t) for t, label in weighed if not label) < shipped.threshold
    assert sum(shipped.score(t) >= shipped.threshold for t, label in weighed if label) > sum(
        label for _, label in weighed) // 2
