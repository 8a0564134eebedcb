"""Honest replies (issue 15): the data file, how its templates are filled, and how an episode is
played with them, shared by ``test_honest_replies.py`` and the score table this module prints.

The replies in ``data/honest_replies.json`` were written from what an agent can read (ticket, facts,
policy texts) before the grader changed; they are the yardstick the new grader is held to: every
one, played with the expert's other actions, must score at least ``HONEST_THRESHOLD``.

Run ``python -m tests.graders.honest`` for the table of today's scores per task, case and reply,
and the built-in policy's beside them (on a throwaway SQLite file).
"""

from __future__ import annotations

import json
import string
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.tasks import default_catalog
from domain.tasks.spec import TaskInstance
from service import EnvironmentService, StepResult
from service.scripted import solution

DATA_FILE = Path(__file__).parent / "data" / "honest_replies.json"
FAMILY_DATA_FILE = Path(__file__).parent / "data" / "honest_family_replies.json"
"""The task families' honest replies, written the same way from each case's ticket, facts, answer
key and policy texts, without the graders' rubric lists; played at :func:`family_seeds`."""
FAMILY_SEEDS_PER_CASE = 2
MIN_PER_CASE = 3
HONEST_THRESHOLD = 0.85
SEEDS: tuple[int | None, ...] = (None, 0, 1, 2, 3, 4, 5, 6, 7)
"""The published variant and seeds 0-7: together they reach every case of every task (a test checks
it), and both identity bundles of each case of the email-change task."""

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


def actions(task: TaskInstance, reply: str, note: str | None) -> list[dict[str, Any]]:
    """The scripted expert's actions for this variant with its reply (and note) replaced by the
    honest ones, in the same place; where the expert writes none, they go just before the final
    resolve or close, note first."""
    out: list[dict[str, Any]] = []
    for action in solution(task):
        kind = action["action_type"]
        if kind == "draft_reply":
            out.append({"action_type": "draft_reply", "reply_text": reply})
        elif kind == "add_internal_note":
            if note is not None:
                out.append({"action_type": "add_internal_note", "note": note})
                note = None
        else:
            out.append(action)
    final = out.pop()
    if final["action_type"] not in ("resolve_ticket", "close_ticket"):
        raise AssertionError(f"the expert's last action is {final['action_type']}, not a resolve")
    if note is not None:
        out.append({"action_type": "add_internal_note", "note": note})
    if not any(a["action_type"] == "draft_reply" for a in out):
        out.append({"action_type": "draft_reply", "reply_text": reply})
    out.append(final)
    return out


@dataclass(frozen=True)
class Played:
    task_id: str
    case: str
    index: int
    seed: int | None
    score: float
    reply_share: float | None  # earned / weight of the reply component, None when not weighed
    note_share: float | None
    errors: tuple[str, ...]  # last_action_error of any step (an honest episode has none)
    done: bool


def play(service: EnvironmentService, task_id: str, seed: int | None, index: int,
         texts: dict[tuple[str, str], CaseTexts]) -> Played:
    """One correct episode of (task, seed) with honest reply ``index`` (and note ``index``, cycling
    when a case has fewer notes than replies)."""
    result: StepResult = service.reset(task_id, seed=seed)
    task = service.state(result.episode_id).task
    case = texts[(task_id, task.case)]
    reply = fill(case.replies[index], task)
    note = fill(case.notes[index % len(case.notes)], task) if case.notes else None
    errors: list[str] = []
    for action in actions(task, reply, note):
        if result.done:
            errors.append(f"episode ended before {action['action_type']}")
            break
        result = service.step(result.episode_id, action)
        if result.observation.last_action_error:
            errors.append(f"{action['action_type']}: {result.observation.last_action_error}")
    shares: dict[str, float] = {}
    if result.grade is not None:
        for component in result.grade.components:
            if component.weight:
                shares[component.name] = component.earned / component.weight
    return Played(task_id, task.case, index, seed, result.state.score, shares.get("reply"),
                  shares.get("note"), tuple(errors), result.done)


def seeds_of(task_id: str, case: str) -> list[int | None]:
    """The seeds of ``SEEDS`` whose variant of ``task_id`` falls in ``case`` (a classic task), or
    :func:`family_seeds` (a task family)."""
    catalog = default_catalog()
    if task_id.startswith("task_family_"):
        return list(family_seeds(task_id, case))
    return [s for s in SEEDS if catalog.instance(task_id, s).case == case]


def family_seeds(task_id: str, case: str) -> tuple[int, ...]:
    """The first :data:`FAMILY_SEEDS_PER_CASE` instances of the family's test split in ``case``."""
    refs = [r for r in default_catalog().split("test") if r.task_id == task_id and r.case == case]
    return tuple(r.seed for r in refs[:FAMILY_SEEDS_PER_CASE])


def score_table(service: EnvironmentService) -> list[Played]:
    """Every honest reply of every task and case, played on every seed of ``SEEDS`` in its case."""
    texts = load()
    rows: list[Played] = []
    for (task_id, case), entry in texts.items():
        for index in range(len(entry.replies)):
            for seed in seeds_of(task_id, case):
                rows.append(play(service, task_id, seed, index, texts))
    return rows


def policy_scores(service: EnvironmentService) -> dict[tuple[str, str], list[float]]:
    """The built-in policy's final scores per (task, case) over the same seeds, for comparison: it
    is meant to land between the adversaries and these replies."""
    from baseline.policy import next_action

    out: dict[tuple[str, str], list[float]] = {}
    for task_id in default_catalog().task_ids:
        for seed in SEEDS:
            result = service.reset(task_id, seed=seed)
            while not result.done:
                result = service.step(result.episode_id,
                                      next_action(result.observation.model_dump(mode="json")))
            out.setdefault((task_id, result.state.task.case), []).append(result.state.score)
    return out


def format_policy_table(rows: list[Played], policy: dict[tuple[str, str], list[float]]) -> str:
    """Per (task, case): the honest replies' lowest and mean score beside the built-in policy's."""
    lines = ["| task | case | honest min | honest mean | policy min | policy mean |",
             "|---|---|---|---|---|---|"]
    for (task_id, case), scores in policy.items():
        honest = [r.score for r in rows if (r.task_id, r.case) == (task_id, case)]
        lines.append(f"| {task_id} | {case} | {min(honest):.4f} | {sum(honest) / len(honest):.4f} | "
                     f"{min(scores):.4f} | {sum(scores) / len(scores):.4f} |")
    return "\n".join(lines)


def format_table(rows: list[Played], grader_version: str) -> str:
    """One line per (task, case, reply index): the lowest and mean final score over its seeds and
    the lowest reply (and note) share, as a markdown table."""
    groups: dict[tuple[str, str, int], list[Played]] = {}
    for row in rows:
        groups.setdefault((row.task_id, row.case, row.index), []).append(row)
    lines = [f"Honest replies under {grader_version} (threshold {HONEST_THRESHOLD})", "",
             "| task | case | reply | seeds | min score | mean score | min reply share "
             "| min note share | >= threshold |",
             "|---|---|---|---|---|---|---|---|---|"]
    passed = 0
    for (task_id, case, index), group in groups.items():
        scores = [r.score for r in group]
        low = min(scores)
        passed += low >= HONEST_THRESHOLD
        reply = [r.reply_share for r in group if r.reply_share is not None]
        note = [r.note_share for r in group if r.note_share is not None]
        lines.append(
            f"| {task_id} | {case} | {index} | {len(group)} | {low:.4f} | "
            f"{sum(scores) / len(scores):.4f} | {f'{min(reply):.2f}' if reply else '-'} | "
            f"{f'{min(note):.2f}' if note else '-'} | {'yes' if low >= HONEST_THRESHOLD else 'no'} |")
    lines += ["", f"{passed}/{len(groups)} replies reach {HONEST_THRESHOLD} on every seed; "
              f"{len(rows)} episodes, mean score {sum(r.score for r in rows) / len(rows):.4f}"]
    return "\n".join(lines)


def main() -> int:
    """Print today's score table, played on a throwaway SQLite file."""
    from graders.versions import CURRENT
    from store import open_database

    with tempfile.TemporaryDirectory() as tmp:
        db = open_database(f"sqlite:///{Path(tmp) / 'honest.db'}")
        try:
            service = EnvironmentService(db)
            rows = score_table(service)
            policy = policy_scores(service)
        finally:
            db.dispose()
    print(format_table(rows, CURRENT))
    print()
    print(format_policy_table(rows, policy))
    bad = [r for r in rows if r.errors or not r.done]
    for r in bad:
        print(f"episode error: {r.task_id} seed={r.seed} reply={r.index}: {r.errors}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
