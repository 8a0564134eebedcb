"""Honest replies: the yardstick the reward is held to from below.

Natural support replies (and internal notes, where a task weighs one), at least three per task and
case, for the classic tasks (``honest_replies/classic.json``) and the task families
(``honest_replies/families.json``), written from what an agent can read (the ticket, its facts,
the policy texts) and the case's correct decision, never from the graders' rubric lists, in several
styles (concise, warm, formal). Each is a ``str.format`` template over the variant's variables, so
it is true on every seed of its case. Played in place of the correct work's own reply, each must
score at least :data:`HONEST_THRESHOLD`: the grader audit's ``honest`` family
(:mod:`evaluation.grader_audit.families`) and ``tests/graders/test_honest_replies.py`` hold it so.
"""

from __future__ import annotations

import json
import string
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from domain.tasks import default_catalog
from domain.tasks.spec import TaskInstance

DATA_FILE = Path(__file__).parent / "honest_replies" / "classic.json"
"""The classic tasks' honest replies."""
FAMILY_DATA_FILE = Path(__file__).parent / "honest_replies" / "families.json"
"""The task families' honest replies, written the same way from each case's ticket, facts, answer
key and policy texts, without the graders' rubric lists; played at :func:`family_seeds`."""
MIN_PER_CASE = 3
HONEST_THRESHOLD = 0.85
"""What every honest reply, played with the correct work, must score at least."""

REPLY_LIMIT = 4000  # draft_reply's reply_text limit (docs/environment.md)
NOTE_LIMIT = 2000  # add_internal_note's note limit


class MalformedReplies(ValueError):
    """The data file breaks its own contract (shape, counts, placeholders)."""


@dataclass(frozen=True)
class CaseTexts:
    replies: tuple[str, ...]
    notes: tuple[str, ...]


def load(path: Path = DATA_FILE, *, families: bool = False) -> dict[tuple[str, str], CaseTexts]:
    """The file's replies and notes per (task id, case name), checked for shape: the header fields,
    a known task and case for every entry, at least three distinct non-empty replies for every case
    of every task (the classic tasks, or with ``families`` the task families), and three notes
    where the task weighs a note."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MalformedReplies(f"{path.name}: cannot read: {exc}") from exc
    if not isinstance(raw, dict) or set(raw) != {"about", "placeholders", "tasks"}:
        raise MalformedReplies(f"{path.name}: expected exactly the keys about, placeholders, tasks")
    if not all(isinstance(raw[k], str) and raw[k].strip() for k in ("about", "placeholders")):
        raise MalformedReplies(f"{path.name}: about and placeholders must be non-empty text")
    tasks = raw["tasks"]
    if not isinstance(tasks, dict):
        raise MalformedReplies(f"{path.name}: tasks must be an object")
    catalog = default_catalog()
    specs = catalog.family_specs() if families else catalog.specs()
    out: dict[tuple[str, str], CaseTexts] = {}
    for spec in specs:
        cases = tasks.get(spec.task_id)
        if not isinstance(cases, dict):
            raise MalformedReplies(f"{spec.task_id}: missing")
        known = {c.name for c in spec.cases}
        if set(cases) != known:
            raise MalformedReplies(f"{spec.task_id}: cases {sorted(cases)} != {sorted(known)}")
        for name, entry in cases.items():
            where = f"{spec.task_id}/{name}"
            if not isinstance(entry, dict) or not set(entry) <= {"replies", "notes"}:
                raise MalformedReplies(f"{where}: an entry has only replies and notes")
            replies = _texts(entry.get("replies"), where, "replies", REPLY_LIMIT)
            wants_notes = "note" in spec.weights
            notes = _texts(entry.get("notes"), where, "notes", NOTE_LIMIT) if wants_notes else ()
            if not wants_notes and "notes" in entry:
                raise MalformedReplies(f"{where}: notes given but the task does not weigh a note")
            out[(spec.task_id, name)] = CaseTexts(replies, notes)
    unknown = set(tasks) - {spec.task_id for spec in specs}
    if unknown:
        raise MalformedReplies(f"unknown tasks {sorted(unknown)}")
    return out


def _texts(value: Any, where: str, field: str, limit: int) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(t, str) and t.strip() for t in value):
        raise MalformedReplies(f"{where}: {field} must be a list of non-empty strings")
    if len(set(value)) < MIN_PER_CASE:
        raise MalformedReplies(f"{where}: {len(set(value))} distinct {field}, need {MIN_PER_CASE}")
    for text in value:
        if len(text) > limit:
            raise MalformedReplies(f"{where}: a {field[:-1]} is over {limit} characters")
        _fields(text, where)  # a template that does not parse fails here, for any variant
    return tuple(value)


def _fields(template: str, where: str) -> set[str]:
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise MalformedReplies(f"{where}: bad template: {exc}") from exc
    names: set[str] = set()
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        if not name.isidentifier() or spec or conversion:
            raise MalformedReplies(f"{where}: placeholder {{{name}}} must be a bare name")
        names.add(name)
    return names


def placeholders(task: TaskInstance) -> dict[str, str]:
    """What a template may name for this variant (the file's ``placeholders`` header says the same):
    the variant's variables, the ticket's facts, and the ticket id."""
    values = {k: str(v) for k, v in task.variables.items()}
    values.update(task.ticket.facts)
    values["ticket_id"] = task.ticket.ticket_id
    return values


def fill(template: str, task: TaskInstance) -> str:
    """The template filled for ``task``; a placeholder the variant lacks is a MalformedReplies."""
    values = placeholders(task)
    unknown = _fields(template, task.task_id) - set(values)
    if unknown:
        raise MalformedReplies(f"{task.task_id}/{task.case}: unknown placeholders {sorted(unknown)}")
    return template.format_map(values)


def actions(work: Sequence[dict[str, Any]], reply: str, note: str | None) -> list[dict[str, Any]]:
    """The correct ``work`` (the gold's actions) with its reply
    replaced by the honest one in the same place, and its notes by the honest note just before the
    final resolve or close: an honest note records the decisions taken, so it is written after
    them (a solver may note its plan first). Where the work writes no reply, the reply goes just
    before the final action too, after the note."""
    out: list[dict[str, Any]] = []
    for action in work:
        kind = action["action_type"]
        if kind == "draft_reply":
            out.append({"action_type": "draft_reply", "reply_text": reply})
        elif kind != "add_internal_note":
            out.append(action)
    final = out.pop()
    if final["action_type"] not in ("resolve_ticket", "close_ticket"):
        raise MalformedReplies(f"the correct work ends with {final['action_type']}, not a resolve")
    if note is not None:
        out.append({"action_type": "add_internal_note", "note": note})
    if not any(a["action_type"] == "draft_reply" for a in out):
        out.append({"action_type": "draft_reply", "reply_text": reply})
    out.append(final)
    return out


@cache
def every_case() -> dict[tuple[str, str], CaseTexts]:
    """The honest replies of every task and case: the classic tasks' and the families'."""
    return {**load(DATA_FILE), **load(FAMILY_DATA_FILE, families=True)}


def honest_work(task: TaskInstance, work: Sequence[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Each honest reply of ``task``'s case (with the note of the same index, cycling), filled for
    the variant and put into the correct ``work``: (label, actions) per reply."""
    entry = every_case().get((task.task_id, task.case))
    if entry is None:
        return []
    out = []
    for index, template in enumerate(entry.replies):
        note = fill(entry.notes[index % len(entry.notes)], task) if entry.notes else None
        out.append((f"honest reply {index}", actions(work, fill(template, task), note)))
    return out
