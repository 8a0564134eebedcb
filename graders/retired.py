"""Retired grader versions, and what this code still does with episodes recorded under them.

Every supported grader version is configuration of one code path (:mod:`graders.grader` with a
lexicon and a safety judge: ``graders.versions``). A version that cannot be expressed so is
retired rather than kept as a second copy of the grading code. The policy for a retired version:

* its episodes stay readable and auditable: replay and ``verify`` check their hash chain, and check
  every recorded grade's arithmetic (the running penalty, raw score, score and reward follow from
  the components and penalties the grade recorded, under the version's own arithmetic) against
  what was recorded; the components themselves are what the log says, since the rubric that
  judged them is gone;
* they can be re-graded under a supported version (``ticketledger regrade --grader VERSION``), which
  writes a regrade record beside the log as for any episode;
* nothing new is graded under it: continuing or forking such an episode, re-grading anything under
  it, or running the grader audit with it is refused with a message naming this policy.
"""

from __future__ import annotations

from collections.abc import Iterable

from domain.events import Event, StepGraded
from domain.state import evolve, fold
from graders.components import UNITS
from graders.grader import EpisodeGrade, StepGrade, split_steps

V1_1 = "ticketledger-grader/1.1"
"""The first released grader: its rubric, scorers and a frozen input from the catalog of its day
(the other tasks' key phrasings) were a copied package, which no lexicon, judge or weight of the
one grading path reproduces."""

RETIRED: dict[str, str] = {
    V1_1: "grader 1.1 is retired (its rubric was a separate copy of the grading code, not "
          "configuration of the one grader); its episodes replay and verify from their recorded "
          "grades and can be re-graded under a current grader, but nothing new is graded under it",
}
"""Every retired version, with the sentence that says so wherever it is refused."""


class UngradableStep(ValueError):
    """A step of an episode recorded under a retired grader has no recorded grade (or more than
    one): with the rubric gone, there is nothing to check its reward against."""


def recorded_grades(version: str, events: Iterable[Event]) -> EpisodeGrade:
    """The grades of an episode recorded under the retired ``version``, read from its log.

    Each step's components and penalties are taken as recorded; its running penalty, raw score,
    score and reward are computed from them with the arithmetic of grader 1.1 (``raw`` = earned
    units - penalty units so far; ``score`` = ``raw`` clamped to [0, 1]; ``reward`` = ``raw`` -
    ``raw`` before, except on the step that ends the episode: final score - ``raw`` before), so a
    recorded reward or score that does not follow from its own grade shows as a divergence in
    replay. Step numbers and ``done`` come from folding the step's events, not from the grade.
    """
    head, steps, _ = split_steps(events)  # a closing (graders.grader.SplitLog) is not graded
    state = fold(head)
    grades: list[StepGrade] = []
    recorded: list[StepGraded] = []
    for number, step_events in enumerate(steps, start=1):
        facts = [e for e in step_events if not isinstance(e, StepGraded)]
        own = [e for e in step_events if isinstance(e, StepGraded)]
        if len(own) != 1:
            raise UngradableStep(
                f"step {number} records {len(own)} grades, not one; {RETIRED[version]}")
        graded = own[0]
        recorded.append(graded)
        before = state
        state = fold(facts, state)
        penalty_units = before.penalty_units + sum(p.units for p in graded.penalties)
        raw = sum(c.earned for c in graded.components) - penalty_units
        score = min(UNITS, max(0, raw))
        grade = StepGrade(step=state.step_count, components=graded.components,
                          penalties=graded.penalties, penalty_units=penalty_units, raw_units=raw,
                          score_units=score,
                          reward_units=(score if state.done else raw) - before.raw_units,
                          done=state.done, grader_version=version)
        grades.append(grade)
        state = evolve(state, grade.to_event())
    return EpisodeGrade(tuple(grades), tuple(recorded), state)
