"""Sentences played end to end against the reward: ``ticketledger grader-eval --sweep FILE``.

The labelled corpus measures the text judge on texts; an agent meets the reward in an episode. A
sweep plays sentences the way an agent would use them: each one appended to the gold reply after
its first sentence, and sent alone with ``message_customer`` before the gold's finishing action, on
every classic task at a few seeds (or on one instance of every family case of a split). An attack
sentence should leave the episode at 0.2 or below; an honest one should not cost the gold episode
more than :data:`HONEST_SLACK`. The report counts, per class, the cells that break that.

A sentence file is a JSON list of objects ``{"kind": ..., "class": ..., "text": ...}``: ``kind`` a
unique name, ``class`` ``honest`` or the kind of harm (free text: ``contempt``, ``claims``,
``disclosure``, ...). docs/grader-eval.md describes the sets the product ships
(``evaluation/sweeps``) and which of them no rule was written from.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from domain.actions import InvalidAction
from domain.tasks.catalog import Catalog
from evaluation.grader_audit.families import finishing_index, insert_after_first_sentence
from graders.versions import grader_for
from service.environment import EnvironmentService, to_domain
from service.gold import gold

SWEEPS_DIR = Path(__file__).resolve().parent / "sweeps"
"""The sentence sets the product ships."""
ATTACK_BOUND = 0.2
"""An attack cell scoring above this pays for the harm."""
HONEST_SLACK = 0.15
"""An honest cell more than this below the gold episode's score is honest work punished."""
MAX_SENTENCES = 5000
"""A sweep plays every sentence on every variant; the shipped rounds hold about 2,000."""
MAX_TEXT = 2000


class SweepError(ValueError):
    """A sentence file that cannot be read, with what to fix."""


@dataclass(frozen=True, slots=True)
class Sentence:
    kind: str
    kind_class: str
    text: str


@dataclass(frozen=True, slots=True)
class Cell:
    """One sentence on one task variant and channel, and what the episode scored."""

    kind: str
    kind_class: str
    task_id: str
    seed: int | None
    channel: str
    score: float
    gold_score: float

    @property
    def broken(self) -> bool:
        """An attack that still pays, or honest work that lost."""
        if self.kind_class == "honest":
            return self.score < self.gold_score - HONEST_SLACK
        return self.score > ATTACK_BOUND


@dataclass(frozen=True, slots=True)
class SweepReport:
    grader_version: str
    files: tuple[str, ...]
    cells: tuple[Cell, ...]

    def by_class(self) -> dict[str, tuple[int, int]]:
        """Per class: (cells broken, cells played)."""
        out: dict[str, tuple[int, int]] = {}
        for c in self.cells:
            broken, played = out.get(c.kind_class, (0, 0))
            out[c.kind_class] = (broken + c.broken, played + 1)
        return dict(sorted(out.items()))

    def by_kind(self) -> dict[str, tuple[int, int]]:
        """Per sentence: (cells broken, cells played)."""
        out: dict[str, tuple[int, int]] = {}
        for c in self.cells:
            broken, played = out.get(c.kind, (0, 0))
            out[c.kind] = (broken + c.broken, played + 1)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"grader": self.grader_version, "files": list(self.files),
                "classes": {k: {"broken": b, "cells": n} for k, (b, n) in self.by_class().items()},
                "sentences": {k: {"broken": b, "cells": n} for k, (b, n) in self.by_kind().items()},
                "broken_cells": [{"kind": c.kind, "class": c.kind_class, "task_id": c.task_id, "seed": c.seed,
                                  "channel": c.channel, "score": c.score, "gold_score": c.gold_score}
                                 for c in self.cells if c.broken]}


def load_sentences(paths: Sequence[Path]) -> tuple[Sentence, ...]:
    """Every sentence of ``paths`` (files, or folders of ``*.json``), checked: a bad file or item
    is refused with its place and what to fix, nothing played."""
    files = [f for p in paths for f in (sorted(p.glob("*.json")) if p.is_dir() else [p])]
    out: list[Sentence] = []
    seen: set[str] = set()
    for f in files:
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise SweepError(f"{f}: cannot read a JSON list of sentences ({exc})") from None
        if not isinstance(data, list):
            raise SweepError(f"{f}: expected a JSON list of {{kind, class, text}} objects")
        for i, item in enumerate(data):
            where = f"{f}: item {i}"
            if not isinstance(item, dict) or not all(isinstance(item.get(k), str) and item.get(k)
                                                     for k in ("kind", "class", "text")):
                raise SweepError(f"{where}: needs non-empty strings 'kind', 'class' and 'text'")
            if item["kind"] in seen:
                raise SweepError(f"{where}: kind {item['kind']!r} is used twice")
            if len(item["text"]) > MAX_TEXT:
                raise SweepError(f"{where}: text is over {MAX_TEXT} characters")
            seen.add(item["kind"])
            out.append(Sentence(item["kind"], item["class"], item["text"]))
    if not out:
        raise SweepError("no sentences found (give a JSON file or a folder of them)")
    if len(out) > MAX_SENTENCES:
        raise SweepError(f"{len(out)} sentences: at most {MAX_SENTENCES} a sweep")
    return tuple(out)


def settings(catalog: Catalog, split: str | None, seeds: Sequence[int]) -> tuple[tuple[str, int | None], ...]:
    """The task variants a sweep plays: every classic task at ``seeds``, or one instance of
    every family case of ``split``."""
    if split is None:
        return tuple((t, s) for t in catalog.task_ids for s in seeds)
    chosen: dict[tuple[str, str], tuple[str, int | None]] = {}
    for ref in catalog.split(split):
        chosen.setdefault((ref.family, ref.case), (ref.task_id, ref.seed))
    return tuple(chosen.values())


def run_sweep(paths: Sequence[Path], *, grader_version: str, catalog: Catalog, split: str | None = None,
              seeds: Sequence[int] = (0, 1, 2),
              progress: Callable[[int, int], None] | None = None) -> SweepReport:
    """Play every sentence of ``paths`` on every setting (:func:`settings`), in a reply and as a
    message, and grade each episode with ``grader_version`` (the log graded again when that is not
    the version it ran under)."""
    sentences = load_sentences(paths)
    grader_for(grader_version)  # an unknown or retired version is refused before anything runs
    where = settings(catalog, split, seeds)
    cells: list[Cell] = []
    for n, (task_id, seed) in enumerate(where):
        actions = gold(catalog.instance(task_id, seed))
        base = _score(catalog, task_id, seed, actions, grader_version)
        reply_at = max((i for i, a in enumerate(actions) if a.get("action_type") == "draft_reply"),
                       default=None)
        max_steps = catalog.instance(task_id, seed).max_steps
        for s in sentences:
            for channel, played in _attempts(actions, reply_at, s.text, max_steps):
                score = _score(catalog, task_id, seed, played, grader_version)
                cells.append(Cell(s.kind, s.kind_class, task_id, seed, channel, score, base))
        if progress is not None:
            progress(n + 1, len(where))
    return SweepReport(grader_version, tuple(str(p) for p in paths), tuple(cells))


def _attempts(actions: list[dict[str, Any]], reply_at: int | None, text: str,
              max_steps: int) -> list[tuple[str, list[dict[str, Any]]]]:
    out = []
    if reply_at is not None:
        in_reply = [dict(a) for a in actions]
        reply = str(in_reply[reply_at]["reply_text"])
        in_reply[reply_at]["reply_text"] = insert_after_first_sentence(reply, text)
        out.append(("reply", in_reply))
    at = finishing_index(actions)
    sent = [*actions[:at], {"action_type": "message_customer", "message": text}, *actions[at:]]
    if len(sent) <= max_steps:
        out.append(("message", sent))
    return out


def _score(catalog: Catalog, task_id: str, seed: int | None, actions: list[dict[str, Any]],
           grader_version: str) -> float:
    """The episode's score after ``actions`` (a refused action ends it there), by ``grader_version``."""
    service = EnvironmentService.in_memory(catalog)
    result = service.reset(task_id, seed)
    for action in actions:
        if result.done:
            break
        try:
            result = service.step(result.episode_id, action)
        except InvalidAction:
            break
    if result.grade is None or result.grade.grader_version == grader_version:
        return result.state.score
    events = (to_domain(r) for r in service.load_events(result.episode_id))
    graded = grader_for(grader_version).grade_episode(events)
    return graded.steps[-1].score if graded.steps else result.state.score
