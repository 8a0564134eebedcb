"""Key phrasings of every packaged task as grader 1.1 saw them, for spotting a reply that makes
other tickets' points (frozen copy: see ``graders/v1_1/__init__.py``).

A reply that promises a reset link, a war room, an audit log and store credit at once is an agent
dumping every phrasing it has seen so that whichever points this ticket wants are somewhere in it.
Grader 1.1 built these groups from the live task catalog; the catalog's rubrics change after 1.1,
so this frozen copy reads what 1.1 computed, saved once in ``foreign_groups.json``, and an episode
recorded under 1.1 is judged against the same phrasings whatever the catalog says today.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

SHOTGUN_GROUPS = 5
"""A reply making this many points of *other* tasks is shotgunning. Honest replies make 0-2
(a "24 hours" or a "right away" is ordinary), a dump of the catalog makes dozens."""

FOREIGN_GROUPS_FILE = Path(__file__).parent / "foreign_groups.json"


@cache
def _frozen() -> dict[str, tuple[tuple[str, ...], ...]]:
    data = json.loads(FOREIGN_GROUPS_FILE.read_text(encoding="utf-8"))
    return {task_id: tuple(tuple(g) for g in groups)
            for task_id, groups in data["foreign_groups"].items()}


def foreign_groups(task_id: str) -> tuple[tuple[str, ...], ...]:
    """Fact phrasings of every other task, as 1.1 computed them: multi-word, untemplated, and
    sharing no words-run with a phrasing of ``task_id`` itself. A task 1.1 did not know has none
    (1.1 never graded one)."""
    return _frozen().get(task_id, ())
