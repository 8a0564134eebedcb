"""What the measurement reports: per label kind precision and recall, violation recall, the
false-violation rate, exact label-set accuracy and fact recall and precision, from the labels a
reviewer gave each text and the labels the grader found.

Pure arithmetic over :class:`Judgement` values, so it is checked on hand-made predictions
(``tests/service/test_grader_eval.py``) apart from any grader.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from service.grader_eval.corpus import CHANNELS, LABELS


@dataclass(frozen=True, slots=True)
class Judgement:
    """One corpus item as labelled and as the grader judged it. ``expected_facts`` is None when
    the item lists no facts (then ``predicted_facts`` is not measured and is None too)."""

    id: str
    channel: str
    heldout: bool
    expected: frozenset[str]
    predicted: frozenset[str]
    expected_facts: frozenset[str] | None = None
    predicted_facts: frozenset[str] | None = None
    rules: tuple[str, ...] = ()
    """The grader's rule names behind ``predicted`` (as the grader named them)."""
    where: str = ""
    """``file:line`` of the item."""

    @property
    def labels_right(self) -> bool:
        return self.expected == self.predicted

    @property
    def facts_right(self) -> bool:
        return self.expected_facts is None or self.expected_facts == self.predicted_facts

    @property
    def misjudged(self) -> bool:
        return not (self.labels_right and self.facts_right)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "where": self.where, "channel": self.channel,
                               "heldout": self.heldout, "expected": sorted(self.expected),
                               "predicted": sorted(self.predicted), "rules": list(self.rules)}
        if self.expected_facts is not None:
            out["expected_facts"] = sorted(self.expected_facts)
            out["predicted_facts"] = sorted(self.predicted_facts or ())
        return out


def ratio(numerator: int, denominator: int) -> float | None:
    """``numerator / denominator`` rounded to 4 places; None when there is nothing to divide by
    (a share of no items is unknown, not 0 or 1)."""
    return round(numerator / denominator, 4) if denominator else None


@dataclass(frozen=True, slots=True)
class LabelStats:
    """One label kind: ``n`` items labelled with it, ``predicted`` items the grader gave it,
    ``hits`` both; precision = hits / predicted, recall = hits / n."""

    label: str
    n: int
    predicted: int
    hits: int

    @property
    def precision(self) -> float | None:
        return ratio(self.hits, self.predicted)

    @property
    def recall(self) -> float | None:
        return ratio(self.hits, self.n)

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "predicted": self.predicted, "hits": self.hits,
                "precision": self.precision, "recall": self.recall}


@dataclass(frozen=True, slots=True)
class Metrics:
    """The measures of one part of the corpus (all of it, the heldout part, one channel)."""

    items: int
    labelled: int
    """Items labelled with at least one violation."""
    caught: int
    """Of those, items the grader gave any violation."""
    acceptable: int
    false_alarms: int
    """Acceptable items the grader gave a violation."""
    exact: int
    """Items whose predicted label set is exactly the expected one."""
    labels: tuple[LabelStats, ...]
    fact_items: int
    facts_expected: int
    facts_predicted: int
    facts_hit: int
    channels: dict[str, Metrics] = field(default_factory=dict)

    @property
    def violation_recall(self) -> float | None:
        return ratio(self.caught, self.labelled)

    @property
    def false_violation_rate(self) -> float | None:
        return ratio(self.false_alarms, self.acceptable)

    @property
    def exact_accuracy(self) -> float | None:
        return ratio(self.exact, self.items)

    @property
    def fact_recall(self) -> float | None:
        return ratio(self.facts_hit, self.facts_expected)

    @property
    def fact_precision(self) -> float | None:
        return ratio(self.facts_hit, self.facts_predicted)

    def label(self, name: str) -> LabelStats:
        return next(s for s in self.labels if s.label == name)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "items": self.items, "labelled": self.labelled, "acceptable": self.acceptable,
            "violation_recall": self.violation_recall, "caught": self.caught,
            "false_violation_rate": self.false_violation_rate, "false_alarms": self.false_alarms,
            "exact_accuracy": self.exact_accuracy, "exact": self.exact,
            "fact_recall": self.fact_recall, "fact_precision": self.fact_precision,
            "fact_items": self.fact_items, "facts_expected": self.facts_expected,
            "facts_predicted": self.facts_predicted, "facts_hit": self.facts_hit,
            "labels": {s.label: s.to_json() for s in self.labels},
        }
        if self.channels:
            out["channels"] = {name: m.to_json() for name, m in self.channels.items()}
        return out


def measure(judgements: Sequence[Judgement], *, by_channel: bool = True) -> Metrics:
    """The measures of ``judgements``; ``by_channel``: with one breakdown per channel present."""
    labelled = [j for j in judgements if j.expected]
    acceptable = [j for j in judgements if not j.expected]
    with_facts = [j for j in judgements if j.expected_facts is not None]
    stats = tuple(LabelStats(label, sum(label in j.expected for j in judgements),
                             sum(label in j.predicted for j in judgements),
                             sum(label in j.expected and label in j.predicted for j in judgements))
                  for label in LABELS)
    channels: dict[str, Metrics] = {}
    if by_channel:
        channels = {c: measure([j for j in judgements if j.channel == c], by_channel=False)
                    for c in CHANNELS if any(j.channel == c for j in judgements)}
    return Metrics(
        items=len(judgements), labelled=len(labelled), caught=sum(bool(j.predicted) for j in labelled),
        acceptable=len(acceptable), false_alarms=sum(bool(j.predicted) for j in acceptable),
        exact=sum(j.labels_right for j in judgements), labels=stats, fact_items=len(with_facts),
        facts_expected=sum(len(j.expected_facts or ()) for j in with_facts),
        facts_predicted=sum(len(j.predicted_facts or ()) for j in with_facts),
        facts_hit=sum(len((j.expected_facts or frozenset()) & (j.predicted_facts or frozenset()))
                      for j in with_facts),
        channels=channels)


# -------------------------------------------------------------------------------- the LLM judge
VERDICT_LABELS: dict[str, str] = {"contradicts_state": "false_claim",
                                  "asks_for_secret": "asks_for_secret", "abusive": "abusive"}
"""The corpus label of each violation an LLM verdict can name (``service.judge.SYSTEM_PROMPT``)."""
OK = "ok"
"""What a verdict with no violation reads as."""


@dataclass(frozen=True, slots=True)
class LLMPair:
    """One reply draft as the LLM judge saw it twice (the prompt as the service asks it, and in
    another order: ``service.judge.build_messages(reordered=True)``) and as the rules saw it.
    A verdict is a label of :data:`VERDICT_LABELS`, :data:`OK`, or None for a failed call."""

    id: str
    heldout: bool
    verdict: str | None
    reordered: str | None
    facts: float | None
    reordered_facts: float | None
    rules: frozenset[str]
    """The labels the deterministic judge gave the draft, among those a verdict can name."""


def _kappa(pairs: Sequence[tuple[bool, bool]]) -> float | None:
    """Cohen's kappa of two raters' yes/no calls (None: undefined, one rater never varies)."""
    n = len(pairs)
    if not n:
        return None
    observed = sum(a == b for a, b in pairs) / n
    yes_a, yes_b = sum(a for a, _ in pairs) / n, sum(b for _, b in pairs) / n
    chance = yes_a * yes_b + (1 - yes_a) * (1 - yes_b)
    return None if chance == 1 else round((observed - chance) / (1 - chance), 4)


def llm_agreement(pairs: Sequence[LLMPair]) -> dict[str, Any]:
    """How the LLM judge's verdicts agree with the deterministic rules (on whether a reply breaks
    a rule a verdict can name, and on which), and with themselves when the prompt is read in
    another order (the same violation or none; the facts share moving by how much)."""
    judged = [p for p in pairs if p.verdict is not None]
    calls = [(p.verdict != OK, bool(p.rules)) for p in judged]
    both = [p for p in judged if p.verdict != OK and p.rules]
    twice = [p for p in judged if p.reordered is not None]
    moved = [abs(p.facts - p.reordered_facts) for p in twice
             if p.facts is not None and p.reordered_facts is not None]
    return {
        "agreement": {
            "compared": len(judged), "agree": sum(a == b for a, b in calls),
            "rate": ratio(sum(a == b for a, b in calls), len(judged)), "kappa": _kappa(calls),
            "llm_only": sum(a and not b for a, b in calls), "rules_only": sum(b and not a for a, b in calls),
            "both_flag": len(both), "same_label": sum(p.verdict in p.rules for p in both),
        },
        "order_consistency": {
            "compared": len(twice), "same_verdict": sum(p.verdict == p.reordered for p in twice),
            "rate": ratio(sum(p.verdict == p.reordered for p in twice), len(twice)),
            "facts_mean_abs_change": round(sum(moved) / len(moved), 4) if moved else None,
        },
    }
