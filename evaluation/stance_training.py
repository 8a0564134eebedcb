"""Fit the stance weighing of :mod:`graders.stance`: ``python -m evaluation.stance_training [--check]``.

The weighing is fitted from the labelled texts the graders were written from, never from the
parts kept to measure them:

* the corpus's non-heldout items on the customer-facing channels (``reply`` and ``message``): an
  item labelled ``abusive`` is one contemptuous text (its contempt may sit in any of its
  sentences), and every sentence of an item without that label is acceptable;
* the sweep rounds of :data:`TRAINING_ROUNDS`: each ``contempt`` sentence contemptuous, every other
  sentence (honest ones and the other harms) acceptable;
* the gold replies of every task, sentence by sentence, acceptable.

A gram's weight is the log-count ratio with add-two smoothing over grams counted once per text,
kept where the gram stands in at least :data:`MIN_TEXTS` training texts; the threshold is just above
the highest score of an acceptable training sentence, so that none of them is misread (a threshold
that let one in 5,000 through misread "We appreciate your understanding in this matter"). These
settings (grams of one and two words, seen in three texts or more, add-two smoothing) were chosen
on round 12 and the heldout corpus, as the ones that flagged no acceptable sentence there nor among
rounds 6 to 10's honest ones; round 13 measures them. The
fit is a count, so the same texts give the same file byte for byte; ``--check`` fits it again and
exits 1 when the shipped ``graders/stance.json`` differs.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

from domain.tasks.gold import default_gold
from evaluation.sweep import SWEEPS_DIR
from graders.normalize import SENTENCE_END
from graders.stance import MODEL_FILE, Stance, grams
from service.grader_eval.corpus import CORPUS_DIR

TRAINING_ROUNDS = (6, 7, 8, 9, 10, 11)
"""The sweep rounds the weighing is fitted from; later rounds measure it."""
MIN_TEXTS = 3
"""A gram seen in fewer training texts than this gets no weight: a phrase of one or two texts is
theirs, not a cue ("in a position" of one contemptuous sentence weighed an honest "I'm not in a
position to promise a date")."""
SMOOTHING = 2.0
"""Counts added to every gram on both sides, so that a gram seen a few times weighs little."""
DIGITS = 6
"""Decimal places the weights and the threshold are written with."""
SHIPPED = Path(__file__).resolve().parents[1] / "graders" / MODEL_FILE


def sentences(text: str) -> list[str]:
    return [s for s in SENTENCE_END.split(text) if s.strip()]


def training_texts() -> Iterator[tuple[str, bool]]:
    """Every training text and whether it is contemptuous, in a fixed order."""
    for path in sorted(CORPUS_DIR.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            if item["heldout"] or item["channel"] == "note":
                continue
            if "abusive" in item["labels"]:
                yield item["text"], True
            else:
                yield from ((s, False) for s in sentences(item["text"]))
    for round_no in TRAINING_ROUNDS:
        for sentence in json.loads((SWEEPS_DIR / f"round{round_no}.json").read_text(encoding="utf-8")):
            yield sentence["text"], sentence["class"] == "contempt"
    gold = default_gold()
    for task_id in sorted(gold):
        for case in sorted(gold[task_id].replies):
            yield from ((s, False) for s in sentences(gold[task_id].replies[case]))


def fit(texts: Sequence[tuple[str, bool]]) -> Stance:
    """The weighing of ``texts`` (each text and whether it is contemptuous)."""
    contemptuous: Counter[str] = Counter()
    acceptable: Counter[str] = Counter()
    for text, label in texts:
        (contemptuous if label else acceptable).update(grams(text))
    vocabulary = sorted(g for g in set(contemptuous) | set(acceptable)
                        if contemptuous[g] + acceptable[g] >= MIN_TEXTS)
    pos = sum(contemptuous[g] for g in vocabulary) + SMOOTHING * len(vocabulary)
    neg = sum(acceptable[g] for g in vocabulary) + SMOOTHING * len(vocabulary)
    weights = {g: round(math.log((contemptuous[g] + SMOOTHING) / pos)
                        - math.log((acceptable[g] + SMOOTHING) / neg), DIGITS) for g in vocabulary}
    unthresholded = Stance(weights, math.inf)
    highest = max(unthresholded.score(text) for text, label in texts if not label)
    return Stance(weights, math.floor(highest * 10**DIGITS + 1) / 10**DIGITS)


def dumps(stance: Stance) -> str:
    """The file :mod:`graders.stance` reads: the threshold and the weights, keys sorted."""
    return json.dumps({"threshold": stance.threshold, "weights": stance.weights}, sort_keys=True,
                      indent=0) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.stance_training",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="fit again and exit 1 if graders/stance.json differs (write nothing)")
    args = parser.parse_args(argv)
    text = dumps(fit(list(training_texts())))
    if args.check:
        same = SHIPPED.read_text(encoding="utf-8") == text
        print(f"{SHIPPED.name}: " + ("as fitted" if same else "differs from a fresh fit"))
        return 0 if same else 1
    SHIPPED.write_text(text, encoding="utf-8")
    print(f"wrote {SHIPPED} ({len(json.loads(text)['weights'])} weights)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
