"""The gold solutions' texts: the reply and internal note a correct agent writes, per task and case.

Gold is data beside the tasks it solves, as the answer key is: one ``gold.json`` for the classic
tasks (``{task_id: {"replies": {case: text}, "notes": {case: text}}}``) and one per family folder
(``families/<family>/gold.json``, ``{"replies": ..., "notes": ...}``). The texts are templates filled
from the instance's variables (``{first}``: the customer's first name, and every variable the spec
draws or derives) and ``{asides}``: the answers to the side questions a ticket may carry, chosen by
the drawn value of a variable (``"asides": {variable: {value: text}}``), empty when it asks none.
One player reads them (:func:`service.gold.gold`); ``ticketledger tasks verify`` and the tests play
that gold through the service and the grader, as a verifier runs a gold answer through the task's
own check. Read once per process, like the catalog; never while deciding.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from domain.tasks.catalog import FAMILY_TASK_PREFIX, Catalog, family_dirs
from domain.tasks.manifest import FAMILIES_DIR
from domain.tasks.spec import TaskInstance, TaskSpec

CLASSIC_GOLD_FILE = Path(__file__).parent / "gold.json"
GOLD_FILE_NAME = "gold.json"


class GoldTexts(BaseModel):
    """One task's gold texts, per case name: the reply to draft and the internal note to add."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    replies: dict[str, str] = {}
    notes: dict[str, str] = {}
    asides: dict[str, dict[str, str]] = {}
    """Per variable, per drawn value, the answer to the side question that value puts in the
    ticket; what ``{asides}`` fills in."""


Gold = dict[str, GoldTexts]
"""Every task's gold texts, by task id."""


def _read(path: Path, name: str) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"invalid {name}: {exc}") from exc


def load_gold(classic_file: Path = CLASSIC_GOLD_FILE, families_dir: Path = FAMILIES_DIR) -> Gold:
    """The classic tasks' gold file and every family folder's ``gold.json`` (a family's task id is
    ``task_family_<folder name>``)."""
    raw = _read(classic_file, classic_file.name)
    if not isinstance(raw, dict):
        raise ValueError(f"invalid {classic_file.name}: an object of task ids")
    gold = {task_id: GoldTexts.model_validate(texts) for task_id, texts in raw.items()}
    for folder in family_dirs(families_dir):
        path = folder / GOLD_FILE_NAME
        if path.exists():
            name = f"families/{folder.name}/{GOLD_FILE_NAME}"
            gold[FAMILY_TASK_PREFIX + folder.name] = GoldTexts.model_validate(_read(path, name))
    return gold


@cache
def default_gold() -> Gold:
    """The packaged gold, loaded once per process."""
    return load_gold()


def gold_problems(spec: TaskSpec, gold: Gold) -> list[str]:
    """What ``gold`` lacks or gets wrong for ``spec``: a case whose reply (or note) is weighed but
    has no gold text, or a text for a case the spec does not have. Empty: the gold covers it."""
    texts = gold.get(spec.task_id, GoldTexts())
    cases = {c.name for c in spec.cases}
    problems = [f"{spec.task_id}: gold {kind} for the unknown case {name!r}"
                for kind, found in (("reply", texts.replies), ("note", texts.notes))
                for name in sorted(set(found) - cases)]
    for case in spec.cases:
        if "reply" in spec.weights and case.name not in texts.replies:
            problems.append(f"{spec.task_id}: case {case.name!r} weighs a reply but has no gold reply")
        if "note" in spec.weights and case.name not in texts.notes:
            problems.append(f"{spec.task_id}: case {case.name!r} weighs a note but has no gold note")
    return problems


def check_gold(catalog: Catalog, gold: Gold) -> list[str]:
    """:func:`gold_problems` for every task of ``catalog`` (classic and families), and gold for a
    task the catalog does not hold."""
    problems = [f"gold for the unknown task {t!r}"
                for t in sorted(set(gold) - {s.task_id for s in catalog.all_specs()})]
    for spec in catalog.all_specs():
        problems += gold_problems(spec, gold)
    return problems


def fill(text: str, task: TaskInstance, texts: GoldTexts | None = None) -> str:
    """A gold template filled for ``task``: ``{first}``, the instance's variables and ``{asides}``
    (the answers ``texts`` gives to the side questions the instance's variables put in its ticket)."""
    values = {"first": task.first_name, **task.variables}
    asides = "".join(by_value[str(task.variables[name])].format(**values)
                     for name, by_value in (texts.asides if texts else {}).items()
                     if str(task.variables.get(name)) in by_value)
    return text.format(asides=asides, **values)


def _texts(task: TaskInstance, gold: Gold | None) -> GoldTexts:
    return (gold if gold is not None else default_gold()).get(task.task_id, GoldTexts())


def gold_reply(task: TaskInstance, gold: Gold | None = None) -> str | None:
    """The gold reply of ``task``'s case, filled (None: its case has none, e.g. no reply is weighed)."""
    texts = _texts(task, gold)
    text = texts.replies.get(task.case)
    return fill(text, task, texts) if text is not None else None


def gold_note(task: TaskInstance, gold: Gold | None = None) -> str | None:
    """The gold internal note of ``task``'s case, filled (None: its case has none)."""
    texts = _texts(task, gold)
    text = texts.notes.get(task.case)
    return fill(text, task, texts) if text is not None else None
