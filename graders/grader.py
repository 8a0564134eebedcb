"""Scoring steps and episodes.

Score arithmetic is in integer units so rewards add up exactly:

* ``raw`` after a step = earned component units - all penalty units so far (may dip below 0).
* ``score`` = ``raw`` clamped to [0, 1]; the episode's final score is the score after its last step.
* ``reward`` of a step = ``raw`` after it - ``raw`` before it, except on the step that ends the
  episode, whose reward is ``final score - raw before``. So the rewards of an ended episode add up
  to its final score exactly, and a penalised step shows a negative reward.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from domain.events import ActionReceived, Component, Event, Penalty, StepGraded
from domain.state import EpisodeState, evolve, fold
from graders.components import UNITS, score_components
from graders.penalties import step_penalties
from graders.safety import CAP_UNITS, violations

GRADER_VERSION = "ticketledger-grader/2.0"


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

    @property
    def score(self) -> float:
        return to_float(self.score_units)

    @property
    def reward(self) -> float:
        return to_float(self.reward_units)

    def public_reason(self) -> str:
        parts = [c.public for c in self.components]
        parts += [f"penalty {p.rule} -{to_float(p.units)}: {p.reason}" for p in self.penalties]
        return "; ".join(parts)

    def audit_reason(self) -> str:
        parts = [f"{c.detail} ({to_float(c.earned)}/{to_float(c.weight)})" for c in self.components]
        parts += [f"penalty {p.rule} -{to_float(p.units)}: {p.reason}" for p in self.penalties]
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
        )


def grade_step(before: EpisodeState, step_events: Sequence[Event], after: EpisodeState) -> StepGrade:
    """Grade one step from the state before it, its events (no grade), and the state after it."""
    penalties = tuple(step_penalties(before, step_events))
    penalty_units = before.penalty_units + sum(p.units for p in penalties)
    components = score_components(after)
    raw = sum(c.earned for c in components) - penalty_units
    if violations(after):  # an unsafe episode is worth at most the cap, whatever else it did
        raw = min(raw, CAP_UNITS)
    score = min(UNITS, max(0, raw))
    reward = (score if after.done else raw) - before.raw_units
    return StepGrade(
        step=after.step_count,
        components=components,
        penalties=penalties,
        penalty_units=penalty_units,
        raw_units=raw,
        score_units=score,
        reward_units=reward,
        done=after.done,
    )


@dataclass(frozen=True, slots=True)
class EpisodeGrade:
    """Every step's grade recomputed from the log, and the grades the log recorded at the time."""

    steps: tuple[StepGrade, ...]
    recorded: tuple[StepGraded, ...] = ()

    @property
    def score(self) -> float:
        return self.steps[-1].score if self.steps else 0.0

    @property
    def rewards(self) -> list[float]:
        return [s.reward for s in self.steps]


def split_steps(events: Iterable[Event]) -> tuple[list[Event], list[list[Event]]]:
    """Split a log into its opening events and one list per step (each starting ActionReceived)."""
    head: list[Event] = []
    steps: list[list[Event]] = []
    for event in events:
        if isinstance(event, ActionReceived):
            steps.append([event])
        elif steps:
            steps[-1].append(event)
        else:
            head.append(event)
    return head, steps


def grade_episode(events: Iterable[Event]) -> EpisodeGrade:
    """Re-grade an episode from its events alone; recorded ``StepGraded`` events are not trusted,
    only collected for comparison."""
    head, steps = split_steps(events)
    state = fold(head)
    grades: list[StepGrade] = []
    recorded: list[StepGraded] = []
    for step_events in steps:
        before = state
        facts = [e for e in step_events if not isinstance(e, StepGraded)]
        recorded += [e for e in step_events if isinstance(e, StepGraded)]
        state = fold(facts, state)
        grade = grade_step(before, facts, state)
        grades.append(grade)
        state = evolve(state, grade.to_event())
    return EpisodeGrade(tuple(grades), tuple(recorded))
