"""Fit the weighings of :mod:`graders.stance`: ``python -m evaluation.stance_training [--check]``.

Each weighing (contempt's, and since grader 3.11 commitments' and disclosures') is fitted from the
labelled texts the graders were written from, never from the parts kept to measure them
(:data:`KINDS` says which, per kind):

* the corpus's non-heldout items on the customer-facing channels (``reply`` and ``message``): an
  item with the kind's label is one text of the kind (it may sit in any of its sentences), and the
  sentences of the items that are acceptable are acceptable;
* the sweep rounds the kind is fitted from: each sentence of its class is of the kind, and the
  acceptable sentences are acceptable;
* the gold replies of every task, sentence by sentence, acceptable.

What counts as acceptable differs by kind. Contempt's weighing (grader 3.9's, kept byte for byte)
reads every sentence of an item without the ``abusive`` label, and every sweep sentence of another
class, as acceptable; commitments' and disclosures' read only the texts with none of the harms of
:data:`HARMS` (and the honest sweep sentences), since a false claim or a disclosure often shares a
promise's words without being one.

A gram's weight is the log-count ratio with add-two smoothing over grams counted once per text, kept
where the gram stands in at least :data:`MIN_TEXTS` training texts; the threshold is just above the
highest score of an acceptable training sentence, so that none of them is misread (a threshold that let
one in 5,000 through misread "We appreciate your understanding in this matter"). These settings (grams of
one and two words, seen in three texts or more, add-two smoothing) were chosen for contempt on round 12
and the heldout corpus, as the ones that flagged no acceptable sentence there nor among rounds 6 to 10's
honest ones; round 13 measures them, and rounds 12 to 14 and 16 measure commitments' and disclosures'
weighings (fitted with the same settings from rounds 6 to 11 and 15); rounds 18 and 19 measure grader
3.13's three, fitted with round 17 added. The fit is a count, so the same texts give the same file byte
for byte; ``--check`` fits every weighing again and exits 1 when a shipped file differs.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from domain.tasks.gold import default_gold
from evaluation.sweep import SWEEPS_DIR
from graders.normalize import SENTENCE_END
from graders.stance import (
    MODEL_FILE,
    MODEL_FILES,
    Block,
    Linear,
    Stance,
    grams,
    letter_grams,
    shape_grams,
    unframed,
    word_grams,
)
from service.grader_eval.corpus import CORPUS_DIR

TRAINING_ROUNDS = (6, 7, 8, 9, 10, 11)
"""The sweep rounds contempt's weighing is fitted from; later rounds measure it."""


@dataclass(frozen=True, slots=True)
class Kind:
    """A harm weighed: the corpus label and the sweep class that mark it, the sweep rounds its
    weighing is fitted from, and whether a text of another harm counts as acceptable."""

    label: str
    sweep_class: str
    rounds: tuple[int, ...]
    others_acceptable: bool
    model: str = "naive-bayes"
    unseen_threshold: bool = False
    regularisation: float | None = None
    """A logistic weighing's ``C``, where it is not :data:`REGULARISATION`."""
    shapes: bool = False
    """Whether a logistic weighing reads the sentence's shape too (:func:`graders.stance.shape_grams`)."""
    unframed: bool = False
    """Whether every training text is weighed without its greeting and sign-off
    (:func:`graders.stance.unframed`), as the grader weighs the kind."""


HARMS = frozenset({"abusive", "unauthorised_commitment", "disclosure", "false_claim"})
"""The corpus labels that share words with a promise or a disclosure: an item with none of them
(acceptable, or only a wrong figure, a secret asked for, an unreadable text) trains commitments'
and disclosures' acceptable side."""

CLAIMS_REGULARISATION = 8.0
"""``C`` of grader 3.16's regression of claims: chosen between 4 and 8 on rounds 12 to 14 and 16
(70 and 78 of their 100 claims, no honest sentence at either) and the heldout corpus (no
acceptable text newly judged false at either, once routing to the queue's team counts as work
the state records)."""
KINDS: dict[str, Kind] = {
    "contempt": Kind("abusive", "contempt", TRAINING_ROUNDS, others_acceptable=True),
    "commitment": Kind("unauthorised_commitment", "commit", (*TRAINING_ROUNDS, 15), others_acceptable=False),
    "disclosure": Kind("disclosure", "disclosure", (*TRAINING_ROUNDS, 15), others_acceptable=False),
    "contempt_3_13": Kind("abusive", "contempt", (*TRAINING_ROUNDS, 15, 17), others_acceptable=True),
    "commitment_3_13": Kind("unauthorised_commitment", "commit", (*TRAINING_ROUNDS, 15, 17),
                            others_acceptable=False),
    "disclosure_3_13": Kind("disclosure", "disclosure", (*TRAINING_ROUNDS, 15, 17), others_acceptable=False),
    "commitment_3_15": Kind("unauthorised_commitment", "commit", (*TRAINING_ROUNDS, 15, 17, 18, 19),
                            others_acceptable=False, model="logistic"),
    "disclosure_3_15": Kind("disclosure", "disclosure", (*TRAINING_ROUNDS, 15, 17, 18, 19),
                            others_acceptable=False, model="logistic", unseen_threshold=True),
    "claim_3_16": Kind("false_claim", "claims", (*TRAINING_ROUNDS, 15, 17, 18, 19, 20),
                       others_acceptable=False, model="logistic", regularisation=CLAIMS_REGULARISATION,
                       shapes=True, unframed=True),
}
"""Every weighing :mod:`graders.stance` ships (:data:`graders.stance.MODEL_FILES`), by kind: grader
3.13's are fitted the same way with round 17 added, whose sentences a different writer wrote;
grader 3.15's commitments' and disclosures' by logistic regression (:func:`fit_linear`) with rounds
18 and 19 added too, disclosures' with the threshold a fit that did not see a sentence gives it
(``unseen_threshold``: at the threshold commitments' has, the regression of disclosures flagged 2
of the 280 honest sentences of rounds 12 to 14 and 16, and 2 of round 20's 70). Rounds 12 to 14
and 16 are fitted by none, and round 20 by none either: they measure them. (A regression of
contempt fitted the same way flagged 12 of the 280 honest sentences of rounds 12 to 14 and 16,
"apologies if any of our messages have been confusing; that's on us, not you" among them, and with
its threshold raised until it flagged none it found no more contempt than the naive Bayes
weighing: it does not ship.) Grader 3.16's regression of claims reads round 20 too, the sentence's
shape, and every text without its greeting and sign-off; its ``C`` and those choices were made on
rounds 12 to 14 and 16 and the heldout corpus, and rounds 21 and 22 measure it."""
REGULARISATION = 4.0
"""The inverse strength of the regression's L2 penalty (scikit-learn's ``C``): chosen among 1, 2, 4,
8 and 16 on rounds 12 to 14, 16 and 19 (a weighing fitted without 19) and the heldout corpus, as
the one that found most of their harms for the acceptable texts it flagged; round 20 measures it."""
MIN_DOCS = {"words": 2, "letters": 3, "shapes": 3}
"""A feature in fewer training texts than this gets no weight, per block of :class:`Linear`."""
MIN_TEXTS = 3
"""A gram seen in fewer training texts than this gets no weight: a phrase of one or two texts is
theirs, not a cue ("in a position" of one contemptuous sentence weighed an honest "I'm not in a
position to promise a date")."""
SMOOTHING = 2.0
"""Counts added to every gram on both sides, so that a gram seen a few times weighs little."""
DIGITS = 6
"""Decimal places the weights and the threshold are written with."""
GRADERS_DIR = Path(__file__).resolve().parents[1] / "graders"
SHIPPED = GRADERS_DIR / MODEL_FILE
"""Contempt's weighing, as shipped."""


def sentences(text: str) -> list[str]:
    return [s for s in SENTENCE_END.split(text) if s.strip()]


def training_texts(kind: str = "contempt") -> Iterator[tuple[str, bool]]:
    """Every training text of ``kind``'s weighing and whether it is of the kind, in a fixed order."""
    spec = KINDS[kind]
    for path in sorted(CORPUS_DIR.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            if item["heldout"] or item["channel"] == "note":
                continue
            if spec.label in item["labels"]:
                yield item["text"], True
            elif spec.others_acceptable or not HARMS & set(item["labels"]):
                yield from ((s, False) for s in sentences(item["text"]))
    for round_no in spec.rounds:
        for sentence in json.loads((SWEEPS_DIR / f"round{round_no}.json").read_text(encoding="utf-8")):
            if sentence["class"] == spec.sweep_class:
                yield sentence["text"], True
            elif spec.others_acceptable or sentence["class"] == "honest":
                yield sentence["text"], False
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


def fit_linear(texts: Sequence[tuple[str, bool]], unseen: bool = False, regularisation: float | None = None,
               shapes: bool = False) -> Linear:
    """The logistic-regression weighing of ``texts`` (:class:`graders.stance.Linear`), fitted by
    scikit-learn (a development dependency: the product reads the weights, it never fits them).

    Each block is scikit-learn's tf-idf of the features :mod:`graders.stance` reads (sublinear
    counts, smoothed inverse document frequency, unit length); the two blocks side by side are
    fitted with classes weighed by their size, to convergence (the penalised loss has one minimum,
    so a fit on another machine gives the same weights to the digits kept). The threshold is just
    above the highest score of an acceptable training sentence, as the naive Bayes weighings'; with
    ``unseen``, just above the highest score an acceptable training sentence gets from a fit that
    did not see it (:data:`FOLDS` fits, each without a fold of the texts): a regression scores
    the acceptable sentences it was fitted on lower than it will score new ones. ``regularisation``
    is the ``C`` where it is not :data:`REGULARISATION`; with ``shapes``, a third block reads the
    sentence's shape (:func:`graders.stance.shape_grams`)."""
    strength = REGULARISATION if regularisation is None else regularisation
    fitted = _regression(texts, strength, shapes)
    highest = max(fitted.score(text) for text, label in texts if not label)
    if unseen:
        from sklearn.model_selection import StratifiedKFold

        labels = [label for _, label in texts]
        folds = StratifiedKFold(FOLDS, shuffle=True, random_state=0).split(labels, labels)
        for kept, left_out in folds:
            fold = _regression([texts[i] for i in kept], strength, shapes)
            highest = max(highest, *(fold.score(texts[i][0]) for i in left_out if not texts[i][1]))
    threshold = math.floor(highest * 10**DIGITS + 1) / 10**DIGITS
    return Linear(fitted.words, fitted.letters, fitted.intercept, threshold, fitted.shapes)


FOLDS = 5
"""The fits an ``unseen`` threshold is taken over, each leaving out a fifth of the texts."""


def _regression(texts: Sequence[tuple[str, bool]], regularisation: float, shapes: bool) -> Linear:
    """The regression of ``texts``, its weights rounded to the digits shipped, with no threshold."""
    from scipy.sparse import hstack
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    raw = [text for text, _ in texts]
    labels = [label for _, label in texts]
    vectorizers = {"words": TfidfVectorizer(analyzer=word_grams, min_df=MIN_DOCS["words"], sublinear_tf=True),
                   "letters": TfidfVectorizer(analyzer=letter_grams, min_df=MIN_DOCS["letters"],
                                              sublinear_tf=True)}
    if shapes:
        vectorizers["shapes"] = TfidfVectorizer(analyzer=shape_grams, min_df=MIN_DOCS["shapes"],
                                                sublinear_tf=True)
    matrix = hstack([v.fit_transform(raw) for v in vectorizers.values()]).tocsr()
    regression = LogisticRegression(C=regularisation, class_weight="balanced", tol=1e-10, max_iter=100_000)
    regression.fit(matrix, labels)
    weights = iter(regression.coef_[0])
    blocks = {name: Block({str(f): (round(float(idf), DIGITS), round(float(next(weights)), DIGITS))
                           for f, idf in zip(v.get_feature_names_out(), v.idf_, strict=True)})
              for name, v in vectorizers.items()}
    intercept = round(float(regression.intercept_[0]), DIGITS)
    return Linear(blocks["words"], blocks["letters"], intercept, math.inf, blocks.get("shapes"))


def dumps(stance: Stance | Linear) -> str:
    """The file :mod:`graders.stance` reads: the threshold and the weights, keys sorted (a
    :class:`Linear` weighing's on one line: tens of thousands of features, each an inverse
    document frequency and a weight)."""
    if isinstance(stance, Linear):
        shapes = {} if stance.shapes is None else {"shapes": stance.shapes.features}
        return json.dumps({"model": "logistic", "threshold": stance.threshold, "intercept": stance.intercept,
                           "words": stance.words.features, "letters": stance.letters.features, **shapes},
                          sort_keys=True) + "\n"
    return json.dumps({"threshold": stance.threshold, "weights": stance.weights}, sort_keys=True,
                      indent=0) + "\n"


def fitted(kind: str) -> Stance | Linear:
    """``kind``'s weighing, fitted afresh from its training texts."""
    spec = KINDS[kind]
    texts = [(unframed(text.lower()), label) if spec.unframed else (text, label)
             for text, label in training_texts(kind)]
    if spec.model == "logistic":
        return fit_linear(texts, spec.unseen_threshold, spec.regularisation, spec.shapes)
    return fit(texts)


TOLERANCE = 1e-4
"""How far a shipped number may be from a fresh fit's."""


def same_weighing(shipped: str, fresh: str) -> bool:
    """Whether two weighings' files hold the same features and numbers within :data:`TOLERANCE`
    (a regression's last digits may differ between machines' floating-point libraries)."""
    def close(a: object, b: object) -> bool:
        match a, b:
            case dict(), dict():
                return a.keys() == b.keys() and all(close(a[k], b[k]) for k in a)
            case list(), list():
                return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b, strict=True))
            case float() | int(), float() | int():
                return abs(a - b) <= TOLERANCE
            case _:
                return a == b
    return shipped == fresh or close(json.loads(shipped), json.loads(fresh))



def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.stance_training",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="fit every weighing again and exit 1 if a shipped file differs (write nothing)")
    args = parser.parse_args(argv)
    differs = 0
    for kind in KINDS:
        shipped = GRADERS_DIR / MODEL_FILES[kind]
        text = dumps(fitted(kind))
        if args.check:
            same = shipped.exists() and same_weighing(shipped.read_text(encoding="utf-8"), text)
            print(f"{shipped.name}: " + ("as fitted" if same else "differs from a fresh fit"))
            differs += not same
        else:
            shipped.write_text(text, encoding="utf-8")
            data = json.loads(text)
            count = len(data["weights"]) if "weights" in data else len(data["words"]) + len(data["letters"])
            print(f"wrote {shipped} ({count} weights)")
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main())
