"""Graders: pure functions of an episode's events.

Every supported grader version is in ``graders.versions`` (``GRADERS``, ``grader_for``), and
:data:`CURRENT` names the one new episodes record: the one place a version is chosen. Scores are
kept in integer units (1 unit = 0.0001) so rewards add up exactly.
"""

from graders.components import UNITS
from graders.grader import to_float
from graders.normalize import load_libraries
from graders.text import load_stemmer
from graders.versions import CURRENT


def load_text_libraries() -> None:
    """Load now what the first text a grader reads would load: the stemmer (whose package builds
    the tables of all its languages, some 17,000 objects), the confusables table and the markdown
    parser. A server calls this before it freezes its start-up objects (``server.app``), so that
    what they make is left out of every later garbage collection, as the rest of start-up is;
    loaded at the first text instead, all of it was walked again by every full collection, each
    one a pause of every session."""
    load_libraries()
    load_stemmer()


__all__ = ["CURRENT", "UNITS", "load_text_libraries", "to_float"]
