"""Key phrasings of every packaged task, for spotting a reply that makes other tickets' points.

A reply that promises a reset link, a war room, an audit log and store credit at once is an agent
dumping every phrasing it has seen so that whichever points this ticket wants are somewhere in it.
A task's own rubric cannot see that, because the other phrasings are not in it; this module can.
It is built once from the packaged task files, which ship with the code like the graders do.
"""

from __future__ import annotations

from functools import cache

from domain.tasks.catalog import default_catalog
from domain.tasks.spec import Rubric, TaskSpec

SHOTGUN_GROUPS = 5
"""A reply making this many points of *other* tasks is shotgunning. Honest replies make 0-2
(a "24 hours" or a "right away" is ordinary), a dump of the catalog makes dozens."""


def _phrasings(spec: TaskSpec) -> list[tuple[str, ...]]:
    groups: list[tuple[str, ...]] = []
    for case in spec.cases:
        for rubric in (case.reply, case.note):
            if isinstance(rubric, Rubric):
                groups += [tuple(p.lower() for p in g.any_of) for g in rubric.facts]
    return groups


@cache
def foreign_groups(task_id: str) -> tuple[tuple[str, ...], ...]:
    """Fact phrasings of every other task: multi-word, untemplated, and sharing no words-run with
    a phrasing of ``task_id`` itself (so "24 hours" is never foreign to a task that asks for it)."""
    specs = default_catalog().specs()  # the classic tasks: their key phrasings are the foreign ones
    own = {p for s in default_catalog().all_specs() if s.task_id == task_id  # a family's too
           for g in _phrasings(s) for p in g}
    out: list[tuple[str, ...]] = []
    for spec in specs:
        if spec.task_id == task_id:
            continue
        for group in _phrasings(spec):
            kept = tuple(p for p in group if "{" not in p and len(p.split()) > 1
                         and not any(p in o or o in p for o in own))
            if kept and kept not in out:
                out.append(kept)
    return tuple(out)
