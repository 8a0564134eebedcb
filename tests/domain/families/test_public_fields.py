"""No public field of a multi-turn family predicts the case the customer is there to reveal.

In a multi-turn family the agent must ask the customer before it can decide: the missing parcel's
tracking, the purchase date, the card's last digits. If something the agent sees at reset (ticket
text, dates, amounts, the customer record) predicted the case that answer decides, asking would be
a formality: an agent could learn the field on train and skip the question. So simple classifiers
learn the public fields of one set of instances and must do no better on another than always
answering the first set's majority case, up to the margin chance gives on a set of that size.

Public fields: every leaf of the observation at reset, as an agent receives it. The label: the
instance's case, among the instances whose case the customer's answer decides. Each family also
has a case its policy decides from a public fact (three or more refunds in 90 days: fraud review;
an unconfirmed sign-in: flagged); those instances are meant to be public and are left out.

Two sets of instances are judged. The frozen splits (train against test) are what agents train and
are measured on; their test part is small (14 to 18 instances per family), so only a gross leak
stands out from chance there. Fresh seeds outside the manifest, drawn by the same generator, give
sets a hundred times larger: there a leak of a few points shows.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from domain.observation import observe
from domain.tasks.catalog import Catalog, load_catalog
from service import EnvironmentService
from service.environment import ResetRequest
from store import open_database
from tests.offline import opening

PUBLIC_CASES = {
    "missing_order": {"fraud_review"},  # SC-1: three or more refunds in 90 days (ticket facts)
    "late_refund": {"fraud_review"},  # RR-1: three or more refunds in 90 days (ticket facts)
    "verify_identity": {"flagged"},  # an unconfirmed sign-in in the account flags (ticket facts)
}
"""Per multi-turn family, the cases its policy decides from a public fact, not from the
customer's answer."""

FRESH_SEEDS = range(10_000, 12_000)
"""Seeds outside the manifest (0..119): the generator's instances beyond the frozen splits. The
first half trains, the second half tests."""


Row = dict[str, Any]
Example = tuple[Row, str]
Predict = Callable[[Row], str]


def leaves(data: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every scalar of an observation's JSON by its path (a list is one leaf, its items joined)."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield from leaves(value, f"{path}.{key}" if path else key)
    elif isinstance(data, list):
        yield path, " ".join(str(item) for item in data)
    else:
        yield path, data


def public_row(observation: Mapping[str, Any]) -> Row:
    return dict(leaves(observation))


def number(value: Any) -> float | None:
    """A leaf as a number: an amount (``$105``), a count, or a date as its day number."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    text = str(value).strip().removeprefix("$")
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return float(dt.date.fromisoformat(text).toordinal())
    except ValueError:
        return None


def majority(labels: Sequence[str]) -> str:
    counts = Counter(labels)
    return min(counts, key=lambda label: (-counts[label], label))


def lookup(train: Sequence[Example], field: str) -> Predict:
    """The majority case of each value the field takes on train (unseen value: the overall one)."""
    by_value: dict[str, list[str]] = defaultdict(list)
    for row, label in train:
        by_value[str(row.get(field))].append(label)
    table = {value: majority(labels) for value, labels in by_value.items()}
    fallback = majority([label for _, label in train])
    return lambda row: table.get(str(row.get(field)), fallback)


def held_out_hits(train: Sequence[Example], field: str) -> int:
    """How many train instances the field's lookup gets right when each is left out of the table:
    what picks the field to look up without rewarding a field that only names each instance."""
    fallback = majority([label for _, label in train])
    by_value: dict[str, Counter[str]] = defaultdict(Counter)
    for row, label in train:
        by_value[str(row.get(field))][label] += 1
    hits = 0
    for row, label in train:
        others = by_value[str(row.get(field))].copy()
        others[label] -= 1
        others = +others
        hits += (majority(list(others.elements())) if others else fallback) == label
    return hits


@dataclass(frozen=True)
class Node:
    """A decision tree over numeric fields: a leaf (``label``) or a split at ``threshold``."""

    label: str
    field: str | None = None
    threshold: float = 0.0
    low: Node | None = None
    high: Node | None = None

    def predict(self, row: Row) -> str:
        if self.field is None or self.low is None or self.high is None:
            return self.label
        value = number(row.get(self.field))
        if value is None:
            return self.label
        return (self.low if value <= self.threshold else self.high).predict(row)


def best_cut(train: Sequence[Example], field: str) -> tuple[int, float] | None:
    """The threshold on ``field`` whose two sides, each answering its majority, get the most train
    instances right, and how many (a sweep over the sorted values)."""
    points = sorted((v, label) for row, label in train if (v := number(row.get(field))) is not None)
    if len(points) != len(train):
        return None
    total = Counter(label for _, label in points)
    low: Counter[str] = Counter()
    best: tuple[int, float] | None = None
    for k, (value, label) in enumerate(points[:-1]):
        low[label] += 1
        following = points[k + 1][0]
        if following == value:
            continue
        hits = max(low.values()) + max((total - low).values())
        if best is None or hits > best[0]:
            best = (hits, (value + following) / 2)
    return best


def tree(train: Sequence[Example], fields: Sequence[str], depth: int) -> Node:
    """A tree grown greedily: at each node the split (field, midpoint) that most raises the
    training accuracy; ``depth`` 1 is a decision stump."""
    label = majority([lab for _, lab in train])
    if depth == 0 or len({lab for _, lab in train}) < 2:
        return Node(label)
    best: tuple[int, str, float] | None = None
    for field in fields:
        cut = best_cut(train, field)
        if cut is not None and (best is None or cut[0] > best[0]):
            best = (cut[0], field, cut[1])
    if best is None or best[0] <= sum(lab == label for _, lab in train):
        return Node(label)
    _, field, threshold = best
    low = [(r, lab) for r, lab in train if (number(r.get(field)) or 0.0) <= threshold]
    high = [(r, lab) for r, lab in train if (number(r.get(field)) or 0.0) > threshold]
    return Node(label, field, threshold, tree(low, fields, depth - 1), tree(high, fields, depth - 1))


WORD = re.compile(r"[a-z0-9]+(?:[.'@-][a-z0-9]+)*")


def words(row: Row) -> list[str]:
    """Every word of every leaf, named by its field (``ticket.subject:refund``)."""
    return [f"{field}:{w}" for field, value in row.items() for w in WORD.findall(str(value).lower())]


def naive_bayes(train: Sequence[Example]) -> Predict:
    """Multinomial naive Bayes over the words of all the public fields, add-one smoothing."""
    labels = sorted({label for _, label in train})
    prior = Counter(label for _, label in train)
    counts: dict[str, Counter[str]] = {label: Counter() for label in labels}
    for row, label in train:
        counts[label].update(words(row))
    vocabulary = set().union(*counts.values())
    totals = {label: sum(counts[label].values()) + len(vocabulary) for label in labels}

    def predict(row: Row) -> str:
        seen = [w for w in words(row) if w in vocabulary]

        def score(label: str) -> float:
            return math.log(prior[label]) + sum(math.log((counts[label][w] + 1) / totals[label])
                                                for w in seen)
        return max(labels, key=lambda label: (score(label), label))
    return predict


def numeric_fields(train: Sequence[Example]) -> list[str]:
    fields = sorted({field for row, _ in train for field in row})
    return [f for f in fields if all(number(row.get(f)) is not None for row, _ in train)
            and len({row.get(f) for row, _ in train}) > 1]


def classifiers(train: Sequence[Example], *, every_field: bool) -> dict[str, Predict]:
    """The classifiers learnt on ``train``, by name: a lookup on the field that predicts best on
    train (each instance left out of its own table), a decision stump and a depth-2 tree over the
    numeric fields (dates as day numbers), naive Bayes over the words of every field. With
    ``every_field``, also a lookup and a stump on each field alone."""
    fields = sorted({field for row, _ in train for field in row})
    numeric = numeric_fields(train)
    chosen = max(fields, key=lambda f: (held_out_hits(train, f), f))
    found: dict[str, Predict] = {
        f"lookup on the best field ({chosen})": lookup(train, chosen),
        "decision stump (numeric fields)": tree(train, numeric, 1).predict,
        "tree of depth 2 (numeric fields)": tree(train, numeric, 2).predict,
        "naive Bayes (words of every field)": naive_bayes(train),
    }
    if every_field:
        found |= {f"lookup {f}": lookup(train, f) for f in fields}
        found |= {f"stump {f}": tree(train, [f], 1).predict for f in numeric}
    return found


ALPHA = 0.05
"""The chance, over all the classifiers one check tries together, that a family whose public
fields know nothing of the case fails it anyway."""


def chance_bound(baseline: float, tested: int, tries: int, alpha: float = ALPHA) -> float:
    """The highest test accuracy a classifier that knows nothing of the case reaches by chance.

    Its hits on ``tested`` instances are binomial at the baseline rate (its guesses are independent
    of the cases, so each is right at most as often as the majority case comes up). The bound is
    one below the fewest hits it reaches with probability at most ``alpha`` / ``tries``: a
    one-sided binomial test at ``alpha`` over all ``tries`` classifiers (Bonferroni). On 18 test
    instances at 0.5 and 4 classifiers it is 14 of 18 (0.78); on 750 at 0.5 and 60, about 0.56.
    """
    def tail(hits: int) -> float:  # P(Binomial(tested, baseline) >= hits), in log space
        if baseline <= 0.0:
            return 0.0 if hits > 0 else 1.0
        if baseline >= 1.0:
            return 1.0
        return sum(math.exp(math.lgamma(tested + 1) - math.lgamma(j + 1)
                            - math.lgamma(tested - j + 1) + j * math.log(baseline)
                            + (tested - j) * math.log(1 - baseline))
                   for j in range(hits, tested + 1))
    fewest = next((k for k in range(tested + 1) if tail(k) <= alpha / tries), tested + 1)
    return (fewest - 1) / tested


@dataclass(frozen=True)
class Judged:
    baseline: float
    """Accuracy on the test set of always answering the train set's majority case."""
    bound: float
    """:func:`chance_bound` for this test set and the classifiers tried."""
    tested: int
    tries: int
    best: tuple[float, str]
    """The best classifier's test accuracy and name."""

    def show(self) -> str:
        return (f"baseline {self.baseline:.3f}, chance bound {self.bound:.3f} (margin "
                f"{self.bound - self.baseline:.3f}) on {self.tested} test instances and "
                f"{self.tries} classifiers; best {self.best[1]}: {self.best[0]:.3f}")


def judge(train: Sequence[Example], test: Sequence[Example], *,
          every_field: bool = False) -> Judged:
    """Every classifier learnt on ``train`` scored on ``test``, against the majority baseline."""
    assert len({label for _, label in train}) >= 2 and test
    common = majority([label for _, label in train])
    baseline = sum(label == common for _, label in test) / len(test)
    tried = classifiers(train, every_field=every_field)
    accuracies = sorted(((sum(predict(row) == label for row, label in test) / len(test), name)
                         for name, predict in tried.items()), reverse=True)
    return Judged(baseline, chance_bound(baseline, len(test), len(tried)), len(test), len(tried),
                  accuracies[0])


def multi_turn_families(catalog: Catalog) -> list[str]:
    """Every family whose customer holds back a fact the agent must ask for."""
    return sorted(spec.task_id.removeprefix("task_family_") for spec in catalog.family_specs()
                  if spec.ticket.hidden_facts)


CATALOG = load_catalog()


def test_every_multi_turn_family_is_judged() -> None:
    assert multi_turn_families(CATALOG) == sorted(PUBLIC_CASES)
    for family, cases in PUBLIC_CASES.items():
        spec = CATALOG.spec(f"task_family_{family}")
        assert cases < {case.name for case in spec.cases}, family


@pytest.fixture(scope="module")
def split_rows(module_database_url: str) -> Iterator[dict[str, dict[str, list[Example]]]]:
    """Per family and split (train, test), every instance the customer decides: its observation
    at reset by split and index from a real service on a real database, and its case."""
    db = open_database(module_database_url)
    try:
        service = EnvironmentService(db, CATALOG)
        out: dict[str, dict[str, list[Example]]] = {f: {"train": [], "test": []}
                                                    for f in PUBLIC_CASES}
        for split in ("train", "test"):
            refs = CATALOG.split(split)
            wanted = [i for i, ref in enumerate(refs) if ref.family in PUBLIC_CASES
                      and ref.case not in PUBLIC_CASES[ref.family]]
            results = service.reset_many([ResetRequest(split=split, index=i) for i in wanted])
            for i, result in zip(wanted, results, strict=True):
                assert not isinstance(result, Exception), result
                ref = refs[i]
                state = service.state(result.episode_id)
                assert state.task is not None and state.task.case == ref.case
                row = public_row(result.observation.model_dump(mode="json"))
                out[ref.family][split].append((row, ref.case))
        yield out
    finally:
        db.dispose()


@pytest.mark.parametrize("family", sorted(PUBLIC_CASES))
def test_no_public_field_predicts_the_case_on_the_test_split(
        family: str, split_rows: dict[str, dict[str, list[Example]]]) -> None:
    """Trained on the train split, checked on the test split: four classifiers, each choosing its
    field on train. The test split is small, so the margin is wide (about 0.28 on 18 instances at
    0.5, see :func:`chance_bound`): it catches a field that decides the case (1.0), not one that
    leans; the fresh seeds below catch that."""
    judged = judge(split_rows[family]["train"], split_rows[family]["test"])
    assert judged.best[0] <= judged.bound, f"{family}: {judged.show()}"


def fresh_examples(catalog: Catalog, family: str, seeds: range) -> list[Example]:
    """The instances at ``seeds`` the customer decides, observed at reset (in memory: the same
    opening event and observation a reset records and returns)."""
    task_id = f"task_family_{family}"
    out: list[Example] = []
    for seed in seeds:
        state = opening(catalog, task_id, seed)
        assert state.task is not None
        if state.task.case not in PUBLIC_CASES[family]:
            out.append((public_row(observe(state, catalog).model_dump(mode="json")),
                        state.task.case))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("family", sorted(PUBLIC_CASES))
def test_no_public_field_predicts_the_case_on_fresh_seeds(family: str) -> None:
    """Trained on 1,000 fresh seeds and checked on 1,000 more (about 750 each the customer
    decides), with a lookup and a stump on every field alone besides the four. The margin is
    narrow (about 0.06 on 750 at 0.5, see :func:`chance_bound`): a field carrying a few points of
    the case fails it."""
    catalog = load_catalog()  # a catalog of its own: the fresh variants stay out of the shared one
    half = len(FRESH_SEEDS) // 2
    train = fresh_examples(catalog, family, FRESH_SEEDS[:half])
    test = fresh_examples(catalog, family, FRESH_SEEDS[half:])
    judged = judge(train, test, every_field=True)
    assert judged.best[0] <= judged.bound, f"{family}: {judged.show()}"


def test_the_check_catches_a_field_that_decides_the_case() -> None:
    """The same judge, given a field copied from the case with its labels, fails the family: the
    check can fail."""
    rows = fresh_examples(CATALOG, "missing_order", range(120))
    leaked = [({**row, "ticket.facts.shipment_note": f"note {label}"}, label) for row, label in rows]
    judged = judge(leaked[:80], leaked[80:])
    assert judged.best[0] == 1.0 > judged.bound, judged.show()
