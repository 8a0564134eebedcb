"""Graders: pure functions of an episode's events.

Every supported grader version is in ``graders.versions`` (``GRADERS``, ``grader_for``), and
:data:`CURRENT` names the one new episodes record: the one place a version is chosen. Scores are
kept in integer units (1 unit = 0.0001) so rewards add up exactly.
"""

from graders.components import UNITS
from graders.grader import to_float
from graders.versions import CURRENT

__all__ = ["CURRENT", "UNITS", "to_float"]
