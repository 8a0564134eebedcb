"""Playing the families of ``fam-data-1`` (double_charge, email_change, data_deletion,
shipping_loss) in-process.

A family comes from the packaged catalog (which loads ``domain/tasks/families/<family>/``) and is
played through the real :class:`EnvironmentService` on a SQLite file: by its solver (observation
in, action out), by a fixed list of actions, or by the scripted expert with an honest reply of the
test's own in place of the expert's. ``python -m tests.domain.families.data1_harness`` prints
the figures the report quotes (solver min and mean on seeds 0..119, the built-in policy's mean,
distinct instances, case shares, the grader audit's cells) for every family.
"""

from __future__ import annotations

import importlib
import json
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from domain.tasks.catalog import Catalog, default_catalog
from domain.tasks.judging import JudgingRubric
from domain.tasks.spec import TaskInstance, TaskSpec
from service import EnvironmentService, StepResult
from service.scripted import solution
from store import open_database

FAMILIES = ("double_charge", "email_change", "data_deletion", "shipping_loss")
SEEDS = range(0, 120)
Agent = Callable[[Mapping[str, Any]], dict[str, Any]]


def task_id(family: str) -> str:
    return f"task_family_{family}"


def load_family(family: str) -> tuple[TaskSpec, dict[str, JudgingRubric]]:
    """The family's spec and judging rubric as the packaged catalog loaded them from its folder."""
    catalog = default_catalog()
    return catalog.spec(task_id(family)), catalog.judging[task_id(family)]


def catalog_of(families: Iterable[str] = FAMILIES) -> Catalog:
    """The packaged catalog (it loads every family's folder); ``families`` must be among them."""
    catalog = default_catalog()
    for family in families:
        catalog.spec(task_id(family))
    return catalog


def solver(family: str) -> Agent:
    act: Agent = importlib.import_module(f"baseline.solvers.{family}").act
    return act


def play_agent(service: EnvironmentService, tid: str, seed: int | None, agent: Agent) -> StepResult:
    """One episode played by ``agent`` until it ends or the step budget runs out."""
    result = service.reset(tid, seed)
    while not result.done:
        result = service.step(result.episode_id, agent(result.observation.model_dump(mode="json")))
    return result


def play_actions(service: EnvironmentService, tid: str, seed: int | None,
                 actions: Sequence[Mapping[str, Any]]) -> StepResult:
    result = service.reset(tid, seed)
    for action in actions:
        if result.done:
            break
        result = service.step(result.episode_id, dict(action))
    return result


def fill(template: str, task: TaskInstance) -> str:
    """An honest text template filled with the variant's variables and facts."""
    values = {**{k: str(v) for k, v in task.variables.items()}, **task.ticket.facts}
    return template.format_map(values)


def with_texts(task: TaskInstance, reply: str | None = None, note: str | None = None
               ) -> list[dict[str, Any]]:
    """The scripted expert's actions with ``reply`` and ``note`` in place of the expert's."""
    out = []
    for action in solution(task):
        if reply is not None and action["action_type"] == "draft_reply":
            action = {**action, "reply_text": reply}
        if note is not None and action["action_type"] == "add_internal_note":
            action = {**action, "note": note}
        out.append(action)
    return out


def open_service(directory: str) -> EnvironmentService:
    return EnvironmentService(open_database(f"sqlite:///{Path(directory) / 'families.db'}"),
                              catalog_of())


def _report() -> None:  # pragma: no cover - the report's figures, printed on demand
    from baseline.policy import next_action
    from evaluation.grader_audit.runner import run_audit

    catalog = catalog_of()
    with tempfile.TemporaryDirectory() as tmp:
        service = EnvironmentService(open_database(f"sqlite:///{Path(tmp) / 'x.db'}"), catalog)
        for family in FAMILIES:
            tid = task_id(family)
            texts = {json.dumps(catalog.variant(tid, s).json_form()["ticket"], sort_keys=True)
                     + catalog.instance(tid, s).case for s in SEEDS}
            cases = Counter(catalog.instance(tid, s).case for s in SEEDS)
            solved = [play_agent(service, tid, s, solver(family)).score for s in SEEDS]
            builtin = [play_agent(service, tid, s, next_action).score for s in SEEDS]
            expert = [play_actions(service, tid, s, solution(catalog.instance(tid, s))).score
                      for s in SEEDS]
            print(f"{family}: distinct {len(texts)}/120 cases {dict(cases)}")
            print(f"  solver min {min(solved):.4f} mean {sum(solved) / 120:.4f}; built-in policy "
                  f"mean {sum(builtin) / 120:.4f}; scripted min {min(expert):.4f}")
    report = run_audit(catalog=catalog, task_ids=[task_id(f) for f in FAMILIES], seeds=range(0, 12),
                       policy=next_action)
    counts = Counter(c.status for c in report.cells)
    print(f"grader audit (seeds 0..11): {report.episodes_played} episodes in {report.seconds:.0f} s, "
          f"cells {dict(counts)}")
    for c in report.cells:
        if c.status == "n/a" or c.status in ("fail", "error"):
            why = c.worst.detail if c.worst else "; ".join(c.not_applicable)
            print(f"  {c.status}: {c.family} on {c.task_id}: {why}")
    for f in report.summary():
        print(f"  {f}")


if __name__ == "__main__":  # pragma: no cover
    _report()
    sys.exit(0)
