"""The written judging rubric per task and case: what a good reply must say and must never say.

The LLM judge (``service.judge``) reads it; the deterministic judge does not. It lives beside the
tasks in ``judging.json`` (``{task_id: {case_name: {"must": ..., "must_not": ...}}}``) rather than in
the task files, so the text an LLM is shown stays apart from the rubric phrase lists the
deterministic grader matches. It is validated when the catalog loads: every case of every task has
one, nothing names a task or case that does not exist, and every ``{variable}`` it names exists
(the texts are filled with the variant's values, like the ticket).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from pydantic import Field, ValidationError

from domain.tasks.spec import Strict, TaskSpec

JUDGING_FILE = Path(__file__).parent / "judging.json"


class JudgingRubric(Strict):
    """What a good reply to one case must say (``must``) and must never say (``must_not``)."""

    must: str = Field(min_length=20)
    must_not: str = Field(min_length=20)

    def filled(self, values: Mapping[str, int | str]) -> JudgingRubric:
        """The texts with the variant's ``{variable}`` values in place."""
        return JudgingRubric(must=self.must.format_map(values),
                             must_not=self.must_not.format_map(values))


Judging = dict[str, dict[str, JudgingRubric]]
"""task id -> case name -> rubric."""


def load_judging(specs: list[TaskSpec], path: Path = JUDGING_FILE) -> Judging:
    """Read and check ``path`` against ``specs``; a missing, extra or unfillable entry fails here."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ValueError(f"invalid {path.name}: {exc}") from exc
    return judging_from(raw, specs, path.name)


def judging_from(raw: object, specs: list[TaskSpec], name: str) -> Judging:
    """``raw`` (``{task_id: {case: {must, must_not}}}``, as read from the file ``name``) checked
    against ``specs``: every case of every spec has a rubric, and nothing else is named."""
    if not isinstance(raw, dict):
        raise ValueError(f"invalid {name}: expected an object of task ids, not {type(raw).__name__}")
    try:
        judging = {task_id: {case: JudgingRubric.model_validate(r) for case, r in cases.items()}
                   for task_id, cases in raw.items()}
    except (ValueError, ValidationError, AttributeError) as exc:
        raise ValueError(f"invalid {name}: {exc}") from exc
    known = {s.task_id for s in specs}
    if unknown := sorted(set(judging) - known):
        raise ValueError(f"{name} names unknown tasks {unknown}")
    for spec in specs:
        cases = judging.get(spec.task_id)
        if cases is None:
            raise ValueError(f"{name} has no judging rubric for {spec.task_id}")
        names = [c.name for c in spec.cases]
        if sorted(cases) != sorted(names):
            raise ValueError(f"{name}: {spec.task_id} has cases {sorted(names)}, "
                             f"the judging rubric {sorted(cases)}")
    return judging
