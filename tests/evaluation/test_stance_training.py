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


def test_the_heldout_parts_are_not_trained_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fit reads the sweep rounds of :data:`TRAINING_ROUNDS` only, and no heldout corpus item."""
    read: list[str] = []
    real = Path.read_text

    def reading(path: Path, *args: Any, **kwargs: Any) -> str:
        read.append(path.name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", reading)
    texts = {text for text, _ in training_texts()}
    assert {n for n in read if n.startswith("round")} == {f"round{r}.json" for r in TRAINING_ROUNDS}
    assert max(TRAINING_ROUNDS) == 11  # round 12 and later measure the weighing
    monkeypatch.undo()
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
