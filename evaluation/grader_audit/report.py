"""The audit's findings: one judged episode per attempt, one cell per family and task, the summary.

Everything is plain frozen data with a JSON form (:meth:`AuditReport.to_json`); the CLI's table is
drawn from the same objects, so the table and ``--json`` cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from evaluation.grader_audit.families import Bound, Family, Kind

Status = Literal["pass", "fail", "n/a", "blocked", "info", "error"]
"""``blocked``: every attack of the cell was refused by the environment (nothing harmful happened,
so the grader was not tested there); ``info``: shown without a bound (the built-in policy)."""


def _num(value: Fraction | None) -> float | None:
    return None if value is None else round(float(value), 4)


@dataclass(frozen=True, slots=True)
class JudgedEpisode:
    """One played attempt and what it measured against its family's bound."""

    task_id: str
    seed: int | None
    case: str
    attempt: str
    score: Fraction
    measure: Fraction | None
    ok: bool
    steps: int
    detail: str
    error: str | None = None
    blocked: str | None = None
    """Why the environment refused the attacking action: the episode did no harm and is not judged."""

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "case": self.case, "attempt": self.attempt,
                "score": _num(self.score), "measure": _num(self.measure), "ok": self.ok,
                "steps": self.steps, "detail": self.detail, "error": self.error,
                "blocked": self.blocked}


@dataclass(frozen=True, slots=True)
class Cell:
    """A family on a task, over every seed and attempt: its worst episode decides."""

    family: str
    task_id: str
    status: Status
    value: Fraction | None
    worst: JudgedEpisode | None
    episodes: tuple[JudgedEpisode, ...]
    not_applicable: tuple[str, ...] = ()
    """Why the family did not apply to some (or all) of the task's variants."""

    def to_json(self) -> dict[str, Any]:
        return {"family": self.family, "task_id": self.task_id, "status": self.status,
                "value": _num(self.value), "episodes": len(self.episodes),
                "worst": self.worst.to_json() if self.worst else None,
                "failed_episodes": sum(not e.ok for e in self.episodes),
                "blocked_episodes": sum(e.blocked is not None for e in self.episodes),
                "not_applicable": list(self.not_applicable)}


@dataclass(frozen=True, slots=True)
class FamilySummary:
    family: str
    kind: Kind
    bound: str | None
    passed: tuple[str, ...]
    failed: tuple[str, ...]
    not_applicable: tuple[str, ...]
    blocked: tuple[str, ...]
    worst: Fraction | None
    worst_task: str | None

    @property
    def status(self) -> Status:
        if self.bound is None:
            return "info"
        if self.failed:
            return "fail"
        if self.passed:
            return "pass"
        return "blocked" if self.blocked else "n/a"

    def to_json(self) -> dict[str, Any]:
        return {"family": self.family, "kind": self.kind, "bound": self.bound, "status": self.status,
                "passed": list(self.passed), "failed": list(self.failed),
                "not_applicable": list(self.not_applicable), "blocked": list(self.blocked),
                "worst": _num(self.worst),
                "worst_task": self.worst_task}


@dataclass(frozen=True, slots=True)
class AuditReport:
    grader_version: str
    seeds: tuple[int | None, ...]
    tasks: tuple[str, ...]
    families: tuple[Family, ...]
    cells: tuple[Cell, ...]
    episodes_played: int
    seconds: float

    def cell(self, family: str, task_id: str) -> Cell:
        return next(c for c in self.cells if c.family == family and c.task_id == task_id)

    def summary(self) -> list[FamilySummary]:
        out = []
        for f in self.families:
            cells = [c for c in self.cells if c.family == f.name]
            judged = [c for c in cells if c.value is not None]
            worst = _worst(f, judged)
            out.append(FamilySummary(
                f.name, f.kind, f.bound.text if f.bound else None,
                tuple(c.task_id for c in cells if c.status == "pass"),
                tuple(c.task_id for c in cells if c.status in ("fail", "error")),
                tuple(c.task_id for c in cells if c.status == "n/a"),
                tuple(c.task_id for c in cells if c.status == "blocked"),
                worst.value if worst else None, worst.task_id if worst else None))
        return out

    def failures(self) -> list[str]:
        """One line per broken cell: which family broke its bound on which task, and how."""
        lines = []
        for c in self.cells:
            if c.status not in ("fail", "error"):
                continue
            f = next(x for x in self.families if x.name == c.family)
            w = c.worst
            seed = "published" if w is None or w.seed is None else w.seed
            where = f"seed {seed}, {w.case}, {w.attempt}" if w else ""
            if c.status == "error":
                err = next((e.error for e in c.episodes if e.error), "")
                lines.append(f"{c.family} on {c.task_id}: error ({where}): {err}")
            else:
                bound = f.bound.text if f.bound else ""
                lines.append(f"{c.family} on {c.task_id}: {_num(c.value)} breaks {bound} ({where})")
        return lines

    @property
    def ok(self) -> bool:
        return not any(c.status in ("fail", "error") for c in self.cells)

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    def to_json(self) -> dict[str, Any]:
        return {
            "grader_version": self.grader_version,
            "ok": self.ok,
            "seeds": list(self.seeds),
            "tasks": list(self.tasks),
            "episodes_played": self.episodes_played,
            "seconds": round(self.seconds, 1),
            "families": [{"name": f.name, "kind": f.kind, "bound": f.bound.text if f.bound else None,
                          "description": f.description} for f in self.families],
            "cells": [c.to_json() for c in self.cells],
            "summary": [s.to_json() for s in self.summary()],
            "failures": self.failures(),
        }


def worst_of(bound: Bound | None, episodes: list[JudgedEpisode]) -> JudgedEpisode | None:
    """The episode that decides a cell: the lowest measure for a lower bound (``ge``) or the
    reference without a bound, the highest otherwise; a failing episode first."""
    measured = [e for e in episodes if e.measure is not None]
    if not measured:
        return None
    low = bound is None or bound.op == "ge"
    failing = [e for e in measured if not e.ok] or measured
    return (min if low else max)(failing, key=lambda e: e.measure or Fraction(0))


def _worst(f: Family, cells: list[Cell]) -> Cell | None:
    if not cells:
        return None
    low = f.bound is None or f.bound.op == "ge"
    failing = [c for c in cells if c.status in ("fail", "error")] or cells
    return (min if low else max)(failing, key=lambda c: c.value or Fraction(0))
