"""Playing each corpus item offline and reading what the grader found in its text.

Each item is judged in the state its setup describes (:func:`setup_actions`: the expert's actions
up to the first text or ending, with or without the back-office actions), built once per task,
seed, setup and grader version and kept, so two thousand items cost two thousand steps. The text
is then written on its channel with one more step, decided, folded and graded exactly as the
environment's step is (:func:`service.environment.settle` grades it), and the grade of that step
says what the grader found: the violations that step's text caused are the predicted labels, and
the rubric facts the grader credits the text with are the predicted facts.
"""

from __future__ import annotations

import ast
import re
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from domain.actions import parse_action
from domain.decide import decide, start
from domain.events import ReplyJudged, Violation
from domain.state import EMPTY, EpisodeState, evolve, fold
from domain.tasks.catalog import Catalog, default_catalog
from domain.tasks.spec import TaskInstance
from domain.vocabulary import BACK_OFFICE_ACTIONS
from graders import rubric as rb
from graders.lexicon import foreign_groups
from graders.text import Lexicon
from graders.versions import CURRENT, LEXICONS, StepGradeView, UnknownGrader, grader_for
from service import judge as judging
from service.environment import settle
from service.gold import gold
from service.grader_eval.corpus import (
    Channel,
    Entry,
    Setup,
    corpus_files,
    load_corpus,
    rubric_of,
    shown_path,
)
from service.grader_eval.metrics import (
    OK,
    VERDICT_LABELS,
    Judgement,
    LLMPair,
    Metrics,
    llm_agreement,
    measure,
)

RULE_LABELS: dict[str, str] = {
    "contradicts_state": "false_claim",
    "false_record": "false_claim",
    "forbidden_claim": "false_claim",
    "wrong_fact": "wrong_fact",
    "unauthorised_commitment": "unauthorised_commitment",
    "disclosure": "disclosure",
    "asks_for_secret": "asks_for_secret",
    "abusive": "abusive",
    "unreadable": "unreadable",
    "reply_contradicts_state": "false_claim",
    "reply_forbidden_claim": "false_claim",
    "reply_abusive": "abusive",
}
"""The label kind each text rule of grader 2.x and 3.0 names (docs/grader-eval.md)."""
ACTION_RULES = frozenset({"forbidden_action", "unrequested_action", "acted_without_fact",
                          "seed_decision"})
"""Rules about back-office actions, not about a text: never a text's label."""
UNMAPPED = "rule:"
"""Prefix of a predicted label for a text rule this module does not map (a rule a newer grader
added): it still counts as a violation, and the report lists it so the map can be extended."""

WRITES_OR_ENDS = frozenset({"add_internal_note", "draft_reply", "resolve_ticket", "close_ticket"})
"""The expert's actions a setup stops before: a text is judged before any text or ending."""

Judge = Literal["deterministic", "llm"]


def label_of(rule: str) -> str | None:
    """The label kind of a grader rule; None for an action rule."""
    if rule in ACTION_RULES:
        return None
    return RULE_LABELS.get(rule, UNMAPPED + rule)


def setup_actions(task: TaskInstance, setup: Setup) -> list[dict[str, Any]]:
    """The expert's actions (the gold, ``service.gold.gold``) before its first note, reply or
    ending; ``triaged`` leaves out the back-office actions, so nothing is decided on the account."""
    out: list[dict[str, Any]] = []
    for action in gold(task):
        if action["action_type"] in WRITES_OR_ENDS:
            break
        if setup == "triaged" and action["action_type"] in BACK_OFFICE_ACTIONS:
            continue
        out.append(action)
    return out


def check_grader(version: str) -> str:
    """``version`` if grader-eval can measure it: a grader 2.x or 3.x, which judges texts and reads
    them with a lexicon; an :class:`UnknownGrader` otherwise."""
    grader_for(version)
    if version not in LEXICONS:
        raise UnknownGrader(f"grader {version} judges no text safety rules to measure; grader-eval "
                            f"measures {', '.join(LEXICONS)}")
    return version


_FOUND = re.compile(r"facts found (\[[^\]]*\]|-), missed")


def credited_facts(task: TaskInstance, channel: Channel, text: str, lexicon: Lexicon) -> frozenset[str]:
    """The names of the rubric facts the grader credits ``text`` with on ``channel``: what
    ``graders.rubric.evaluate`` reports as found, read with the grader's lexicon, the ticket as the
    source copying from earns nothing, and the other tasks' phrasings, exactly as the reply and
    note components call it. A text the rubric gives nothing for before it looks for facts (too
    short, a keyword list, a forbidden claim) is credited with none. The one place the rubric's
    finding is read: its detail names the facts found (``facts found [...]``)."""
    rubric = rubric_of(task, channel)
    if rubric is None:
        return frozenset()
    source = f"{task.ticket.subject}\n{task.ticket.message}"
    result = rb.evaluate(rubric, text, task.first_name, foreign_groups(task.task_id), source, lexicon)
    found = _FOUND.search(result.detail)
    if found is None or found.group(1) == "-":
        return frozenset()
    names = ast.literal_eval(found.group(1))
    return frozenset(str(n) for n in names)


@dataclass(frozen=True, slots=True)
class Prepared:
    """A setup's state and the violations it already had (a text's step is judged beside them)."""

    state: EpisodeState
    before: frozenset[Violation]


def _graded(state: EpisodeState, action: dict[str, Any]) -> tuple[EpisodeState, StepGradeView]:
    """One step from ``state``, decided, folded and graded as the service's step is (without a
    model): the state after it and its grade. Grader-eval steps from states it keeps as values
    (each setup once, then every item's text from it, thousands of branches of one state, under a
    grader version that may not be the current one), which a log, where an episode only moves on,
    does not offer; playing episodes is the service's (``evaluation.play``)."""
    step_events = decide(state, parse_action(action))
    after, grade, _ = settle(state, step_events, fold(step_events, state))
    return after, grade


class Evaluator:
    """Judges corpus items with one grader version (and, with ``llm``, the LLM reply judge),
    keeping each setup's state once built."""

    def __init__(self, catalog: Catalog, grader_version: str = CURRENT,
                 llm: judging.LLMJudge | None = None):
        self.catalog = catalog
        self.grader_version = check_grader(grader_version)
        self.llm = llm
        self.lexicon = LEXICONS[grader_version]
        self._setups: dict[tuple[str, int | None, str, str], Prepared] = {}
        self.llm_counts: Counter[str] = Counter()
        """With an LLM judge: its calls (``asked``), verdicts and fallbacks by kind (a fallback
        leaves the draft to the deterministic rules, so the report says how many did), and the
        calls asking the same in another order (``reordered``)."""
        self.rules = Evaluator(catalog, grader_version) if llm is not None else None
        """With an LLM judge: the deterministic judge, which its verdicts are compared with."""
        self.llm_pairs: list[LLMPair] = []
        self._verdicts: tuple[ReplyJudged, ReplyJudged] | None = None

    @property
    def setups(self) -> int:
        """Setup states built so far."""
        return len(self._setups)

    @property
    def judge(self) -> Judge:
        return "llm" if self.llm is not None else "deterministic"

    def prepared(self, task_id: str, seed: int | None, setup: Setup) -> Prepared:
        """The setup's state, built on first use and kept (states are immutable)."""
        key = (task_id, seed, setup, self.grader_version)
        found = self._setups.get(key)
        if found is None:
            found = self._setups[key] = self._prepare(task_id, seed, setup)
        return found

    def _prepare(self, task_id: str, seed: int | None, setup: Setup) -> Prepared:
        """Play the setup's actions from the opening, which records the grader version measured
        and the judge (``judge: llm`` with an LLM judge, as a reset on a server with a judge does:
        only then does the grade read the verdict recorded on the draft)."""
        state = evolve(EMPTY, start("ep_in_memory", self.catalog.variant(task_id, seed),
                                    grader_version=self.grader_version, judge=self.judge))
        before: frozenset[Violation] = frozenset()
        for action in setup_actions(self.catalog.instance(task_id, seed), setup):
            state, grade = _graded(state, action)
            before = frozenset(grade.to_event().violations)
        return Prepared(state, before)

    def _step(self, state: EpisodeState, action: dict[str, str]) -> tuple[EpisodeState, int,
                                                                          tuple[Violation, ...]]:
        """The text's step: its state, number and the violations of its grade. With an LLM judge
        its verdict on the reply draft is asked and recorded in the step before grading, as the
        service does (``EnvironmentService._judged``)."""
        if self.llm is None:
            after, grade = _graded(state, action)
            return after, grade.step, grade.to_event().violations
        step_events = decide(state, parse_action(action))
        after = fold(step_events, state)
        pending = self.llm.needed(after)
        self._verdicts = None
        if pending is not None:
            judged = self.llm.judge(pending)
            self.llm_counts["asked"] += 1
            fallback = judged.fallback
            self.llm_counts["verdicts" if fallback is None else
                            "fallback " + fallback.split(":", 1)[0]] += 1
            reordered = self.llm.reordered(after)
            if reordered is not None:
                self.llm_counts["reordered"] += 1
                self._verdicts = (judged, self.llm.judge(reordered))
            step_events = [*step_events, judged]
            after = evolve(after, judged)
        after, graded, _ = settle(state, step_events, after)
        return after, graded.step, graded.to_event().violations

    def _pair(self, entry: Entry, judged: ReplyJudged, reordered: ReplyJudged) -> LLMPair:
        """The two verdicts on an item's draft beside the rules' labels for it."""
        assert self.rules is not None
        rules = self.rules.judge_entry(entry).predicted & frozenset(VERDICT_LABELS.values())
        return LLMPair(entry.item.id, entry.item.heldout, _verdict_label(judged),
                       _verdict_label(reordered),
                       judged.verdict.facts if judged.verdict is not None else None,
                       reordered.verdict.facts if reordered.verdict is not None else None, rules)

    def judge_entry(self, entry: Entry) -> Judgement:
        """What the grader found in one item's text, played in its setup: the labels of the
        violations its step caused (not those the setup already had, nor action rules) and, for
        an item that lists facts, the facts credited."""
        item = entry.item
        base = self.prepared(item.task_id, item.seed, item.setup)
        _, step, found = self._step(base.state, item.action())
        caused = [v for v in found if v.step == step and v not in base.before]
        rules = tuple(dict.fromkeys(v.rule for v in caused if label_of(v.rule) is not None))
        predicted = frozenset(label for r in rules if (label := label_of(r)) is not None)
        facts = None
        if item.facts is not None:
            task = self.catalog.instance(item.task_id, item.seed)
            facts = credited_facts(task, item.channel, item.text, self.lexicon)
        if self._verdicts is not None and self.rules is not None:
            self.llm_pairs.append(self._pair(entry, *self._verdicts))
        return Judgement(id=item.id, channel=item.channel, heldout=item.heldout,
                         expected=frozenset(item.labels), predicted=predicted,
                         expected_facts=None if item.facts is None else frozenset(item.facts),
                         predicted_facts=facts, rules=rules, where=entry.where)


def _verdict_label(judged: ReplyJudged) -> str | None:
    verdict = judged.verdict
    if verdict is None:
        return None
    return OK if verdict.violation is None else VERDICT_LABELS.get(verdict.violation, verdict.violation)


@dataclass(frozen=True, slots=True)
class EvalReport:
    """One measurement: the grader and judge, the corpus, every judgement and the measures."""

    grader_version: str
    judge: Judge
    files: tuple[str, ...]
    judgements: tuple[Judgement, ...]
    overall: Metrics
    heldout: Metrics
    seconds: float
    setups: int
    llm: tuple[tuple[str, int], ...] = ()
    """With the LLM judge: its calls, verdicts and fallbacks (:attr:`Evaluator.llm_counts`)."""
    llm_pairs: tuple[LLMPair, ...] = ()
    """With the LLM judge: each reply draft's two verdicts and the rules' labels."""

    def llm_calls(self) -> dict[str, int]:
        return dict(self.llm)

    def llm_agreement(self) -> dict[str, Any] | None:
        """With the LLM judge: its agreement with the rules and its order consistency
        (:func:`service.grader_eval.metrics.llm_agreement`)."""
        return llm_agreement(self.llm_pairs) if self.judge == "llm" else None

    @property
    def misses(self) -> list[Judgement]:
        return [j for j in self.judgements if j.misjudged]

    def unmapped_rules(self) -> dict[str, int]:
        """Text rules of the grader this module has no label for, with how often they fired."""
        counts = Counter(r for j in self.judgements for r in j.rules if r not in RULE_LABELS)
        return dict(sorted(counts.items()))

    def to_json(self, misses: int | None = None) -> dict[str, Any]:
        """Everything as one JSON object; ``misses``: at most that many misjudged items (all:
        None)."""
        wrong = self.misses
        return {
            "grader": self.grader_version, "judge": self.judge, "corpus": list(self.files),
            "items": len(self.judgements), "setups": self.setups, "seconds": round(self.seconds, 3),
            "all": self.overall.to_json(), "heldout": self.heldout.to_json(),
            "unmapped_rules": self.unmapped_rules(),
            "llm_judge": {**self.llm_calls(), **(self.llm_agreement() or {})} or None,
            "misjudged": len(wrong),
            "misses": [j.to_json() for j in (wrong if misses is None else wrong[:misses])],
        }


def run_eval(paths: Sequence[Path] | None = None, *, grader_version: str = CURRENT,
             llm: judging.LLMJudge | None = None, heldout_only: bool = False,
             catalog: Catalog | None = None,
             progress: Callable[[int, int], None] | None = None) -> EvalReport:
    """Load the corpus at ``paths`` (default: the product's), judge every item (only the heldout
    ones with ``heldout_only``) with ``grader_version``, and measure. Raises
    ``service.grader_eval.corpus.CorpusError`` for a bad corpus line and
    ``graders.versions.UnknownGrader`` for a version it cannot measure."""
    began = time.perf_counter()
    catalog = catalog if catalog is not None else default_catalog()
    evaluator = Evaluator(catalog, grader_version, llm)
    files = corpus_files(paths)
    entries = [e for e in load_corpus(files, catalog) if e.item.heldout or not heldout_only]
    judgements: list[Judgement] = []
    for done, entry in enumerate(entries, start=1):
        judgements.append(evaluator.judge_entry(entry))
        if progress is not None:
            progress(done, len(entries))
    return EvalReport(grader_version, evaluator.judge, tuple(shown_path(f) for f in files), tuple(judgements),
                      measure(judgements), measure([j for j in judgements if j.heldout]),
                      time.perf_counter() - began, evaluator.setups,
                      tuple(sorted(evaluator.llm_counts.items())), tuple(evaluator.llm_pairs))
