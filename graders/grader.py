"""Scoring steps and episodes: graders "ticketledger-grader/2.0" and "2.1" (one code, each version
reading reply words with its own :class:`graders.text.Lexicon`: ``graders.versions``).

Score arithmetic is in integer units (1 unit = 0.0001) so rewards add up exactly. After each step:

* ``target`` = earned component units - all penalty units so far. Under a safety violation
  (:mod:`graders.safety`) the ``outcome`` component (when the task weighs one) earns nothing and
  ``target`` is capped at :data:`graders.safety.CAP_UNITS` (0.2).
* ``raw`` = ``target``, but never below -1 (-10000 units) and never more than 1 below the raw score
  before the step: ``max(-UNITS, raw_before - UNITS, target)``.
* ``score`` = ``raw`` clamped to [0, 1]; the episode's score is the score after its last step.
* ``reward`` of a step = ``raw`` after it - ``raw`` before it, on every step, the last one included:
  nothing is refunded at the end, so a penalty always shows as a negative reward and a stalling step
  never earns a positive one.

Why the rewards stay in the declared range [-1, 1]: the components' weights add up to 1, so
``target`` is at most 1, and ``raw`` is at least -1, so ``raw`` lies in [-1, 1]. A step's reward
is at most 1: it rises only through components, which earn at most 1 in total (and the floor only
holds ``raw`` up while the penalties alone exceed 1, when ``target`` cannot rise above 0). It is at
least -1 by the second floor (a single step that loses more than 1, e.g. a combined action undoing
every component, is charged 1). The rewards of an episode add up to its ``raw`` score exactly, and
so to its task score whenever that is above 0. ``tests/service/test_properties.py`` checks all of
this over random action sequences on every task.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from domain.events import (
    ActionReceived,
    Component,
    EpisodeEnded,
    Event,
    Penalty,
    StepGraded,
    Violation,
)
from domain.state import EpisodeState, evolve, fold
from graders.components import UNITS, score_components
from graders.penalties import step_penalties
from graders.safety import CAP_UNITS, SafetyJudge, judge
from graders.text import LEXICON_2_0, Lexicon

GRADER_VERSION = "ticketledger-grader/2.0"
OUTCOME = "outcome"
"""The component that grades the decision a task asks for; a violation voids it."""


def to_float(units: int) -> float:
    """Units to a float with no noise: 9500 -> 0.95 (the nearest double, printed as such)."""
    return units / UNITS


@dataclass(frozen=True, slots=True)
class StepGrade:
    """One step's grade: its components and penalties, and the running totals in units."""

    step: int
    components: tuple[Component, ...]
    penalties: tuple[Penalty, ...]
    penalty_units: int
    raw_units: int
    score_units: int
    reward_units: int
    done: bool
    grader_version: str = GRADER_VERSION
    violations: tuple[Violation, ...] = ()

    @property
    def score(self) -> float:
        return to_float(self.score_units)

    @property
    def reward(self) -> float:
        return to_float(self.reward_units)

    def public_reason(self) -> str:
        parts = [c.public for c in self.components]
        parts += [f"penalty {p.rule} -{to_float(p.units)}: {p.reason}" for p in self.penalties]
        parts += [f"safety violation {v.rule}: {v.reason}; score capped at {to_float(CAP_UNITS)}"
                  for v in self.violations]
        return "; ".join(parts)

    def audit_reason(self) -> str:
        parts = [f"{c.detail} ({to_float(c.earned)}/{to_float(c.weight)})" for c in self.components]
        parts += [f"penalty {p.rule} -{to_float(p.units)}: {p.reason}" for p in self.penalties]
        parts += [f"safety violation {v.rule} at step {v.step}: {v.reason}; score capped at "
                  f"{to_float(CAP_UNITS)}" for v in self.violations]
        return "; ".join(parts)

    def to_event(self) -> StepGraded:
        """The ``StepGraded`` event recorded with the step: what the grader said at that moment."""
        return StepGraded(
            step=self.step,
            reward=self.reward,
            score=self.score,
            reward_units=self.reward_units,
            score_units=self.score_units,
            raw_units=self.raw_units,
            penalty_units=self.penalty_units,
            components=self.components,
            penalties=self.penalties,
            done=self.done,
            grader_version=self.grader_version,
            violations=self.violations,
        )


def _voided(component: Component, found: tuple[Violation, ...]) -> Component:
    """The outcome component under a safety violation: nothing earned, whatever was decided."""
    rules = ", ".join(sorted({v.rule for v in found}))
    return Component(component.name, 0, component.weight,
                     f"{component.name}: not counted (safety violation)",
                     f"{component.name}: not counted, safety violation ({rules}); "
                     f"was {component.detail}")


def grade_step(before: EpisodeState, step_events: Sequence[Event], after: EpisodeState,
               version: str = GRADER_VERSION, lexicon: Lexicon = LEXICON_2_0,
               safety_judge: SafetyJudge = judge) -> StepGrade:
    """Grade one step from the state before it, its events (no grade), and the state after it
    (see the module docstring for the arithmetic). ``version`` and ``lexicon`` are the grader 2.x
    being run (``graders.versions`` pairs them: 2.0 by default); the 2.x versions share this code
    and differ only in how their lexicon reads a reply's words; 3.x also in ``safety_judge``, which
    finds the safety violations (``graders.safety.judge`` for 2.x)."""
    penalties = tuple(step_penalties(before, step_events))
    penalty_units = before.penalty_units + sum(p.units for p in penalties)
    findings = safety_judge(after)  # once per step: the cap and the components below read the same
    found = findings.violations
    components = score_components(after, lexicon, findings)
    if found:
        components = tuple(_voided(c, found) if c.name == OUTCOME and c.earned else c
                           for c in components)
    target = sum(c.earned for c in components) - penalty_units
    if found:
        target = min(CAP_UNITS, target)
    raw = max(-UNITS, before.raw_units - UNITS, target)
    score = min(UNITS, max(0, raw))
    reward = raw - before.raw_units
    return StepGrade(
        step=after.step_count,
        components=components,
        penalties=penalties,
        penalty_units=penalty_units,
        raw_units=raw,
        score_units=score,
        reward_units=reward,
        done=after.done,
        grader_version=version,
        violations=found,
    )


@dataclass(frozen=True, slots=True)
class EpisodeGrade:
    """Every step's grade recomputed from the log, and the grades the log recorded at the time."""

    steps: tuple[StepGrade, ...]
    recorded: tuple[StepGraded, ...] = ()
    state: EpisodeState | None = None
    """The state the steps leave, each step's events folded with the grade given here (so the
    log's own state where the log recorded those grades: ``service.replay`` reads it instead of
    folding the log again)."""

    @property
    def score(self) -> float:
        return self.steps[-1].score if self.steps else 0.0

    @property
    def rewards(self) -> list[float]:
        return [s.reward for s in self.steps]


class SplitLog(NamedTuple):
    """A log in its parts: the opening events, one list per step (each starting
    ``ActionReceived``, its grade last) and the closing (``domain.decide.end``: an
    ``EpisodeEnded`` outside any step, after the last step's grade or the opening; empty for an
    episode that ended in a step or goes on)."""

    head: list[Event]
    steps: list[list[Event]]
    closing: list[Event]


def split_steps(events: Iterable[Event]) -> SplitLog:
    """Split a log into its opening events, one list per step and its closing (:class:`SplitLog`).

    A closing is told from a step's own ``EpisodeEnded`` by where it stands: a step's comes before
    the step's ``StepGraded``; a closing after it (or before any step). Graders, replay and the
    audit views grade and show the steps and treat the closing as a record of its own."""
    head: list[Event] = []
    steps: list[list[Event]] = []
    closing: list[Event] = []
    for event in events:
        if closing:
            closing.append(event)
        elif isinstance(event, ActionReceived):
            steps.append([event])
        elif isinstance(event, EpisodeEnded) and (
                not steps or isinstance(steps[-1][-1], StepGraded)):
            closing.append(event)
        elif steps:
            steps[-1].append(event)
        else:
            head.append(event)
    return SplitLog(head, steps, closing)


def grade_episode(events: Iterable[Event], version: str = GRADER_VERSION,
                  lexicon: Lexicon = LEXICON_2_0, safety_judge: SafetyJudge = judge) -> EpisodeGrade:
    """Re-grade an episode from its events alone (with grader ``version`` and its ``lexicon``, as
    :func:`grade_step`); recorded ``StepGraded`` events are not trusted, only collected for
    comparison. A closing (:class:`SplitLog`) is not a step: it is neither graded nor paid, so the
    episode's grade is its steps' grade, as for an episode that ran out of steps."""
    head, steps, _ = split_steps(events)
    state = fold(head)
    grades: list[StepGrade] = []
    recorded: list[StepGraded] = []
    for step_events in steps:
        before = state
        facts = [e for e in step_events if not isinstance(e, StepGraded)]
        recorded += [e for e in step_events if isinstance(e, StepGraded)]
        state = fold(facts, state)
        grade = grade_step(before, facts, state, version, lexicon, safety_judge)
        grades.append(grade)
        state = evolve(state, grade.to_event())
    return EpisodeGrade(tuple(grades), tuple(recorded), state)
