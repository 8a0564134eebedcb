"""Graders: pure functions of an episode's events.

``grade_step`` scores one step from the states before and after it; ``grade_episode`` replays that
over a whole log. Scores are kept in integer units (1 unit = 0.0001) so rewards add up exactly.
"""

from graders.components import UNITS
from graders.grader import (
    GRADER_VERSION,
    EpisodeGrade,
    StepGrade,
    grade_episode,
    grade_step,
    to_float,
)

__all__ = [
    "GRADER_VERSION", "UNITS", "EpisodeGrade", "StepGrade", "grade_episode", "grade_step",
    "to_float",
]
