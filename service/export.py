"""Trajectories as a dataset: one JSON object per episode per line (JSON Lines).

Each line has the same keys: the episode's identity (task, seed, run, fork origin), its steps, and
its final score and grader version. A step holds the observation the agent saw *before* acting
(rebuilt by the same ``observe`` the environment uses, so it never contains the answer key), the
action exactly as received, and the reward and running score recorded with it. Lines stream one
episode at a time, so an export of any size needs memory for one page of episodes only.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from domain import events as ev
from domain.observation import observe
from domain.state import fold
from domain.tasks.catalog import Catalog
from graders.grader import split_steps
from service.audit_views import Auditor, check_filter, iso
from service.environment import to_domain
from service.errors import BadRequest
from store.eventstore import EpisodeRow, RecordedEvent
from store.queries import EpisodeFilter

FORMATS = ("jsonl",)


def episode_record(catalog: Catalog, row: EpisodeRow, recorded: list[RecordedEvent]) -> dict[str, Any]:
    """One episode as a dataset record (see the module docstring for the shape)."""
    head, steps, _ = split_steps(to_domain(r) for r in recorded)  # a closing is no step
    state = fold(head)
    started = head[0]
    assert isinstance(started, ev.EpisodeStarted), "an episode log starts with EpisodeStarted"
    out_steps: list[dict[str, Any]] = []
    grader_version: str | None = started.grader_version or None
    for step_events in steps:
        seen = observe(state, catalog, state.rewards[-1] if state.rewards else None)
        state = fold(step_events, state)
        graded = next((e for e in step_events if isinstance(e, ev.StepGraded)), None)
        if graded is not None:
            grader_version = graded.grader_version or None
        record = state.steps[-1]
        out_steps.append({
            "step": state.step_count,
            "observation": seen.model_dump(mode="json"),
            "action": record.raw.value(),
            "reward": record.reward if graded else None,  # in the episode's reward mode
            "score": graded.score if graded else None,
            "done": bool(graded and graded.done),
            "error": record.error,
        })
    forked = started.forked_from
    return {
        "episode_id": row.episode_id, "task_id": row.task_id, "seed": row.seed,
        "run_id": row.run_id, "status": row.status, "reward_mode": started.reward_mode,
        "forked_from": forked.episode_id if forked else None,
        "fork_step": forked.at if forked else None,
        "num_steps": len(out_steps), "steps": out_steps,
        "final_score": state.score, "grader_version": grader_version,
        "head_hash": recorded[-1].hash, "created_at": iso(row.created_at),
    }


def export_lines(auditor: Auditor, where: EpisodeFilter, fmt: str = "jsonl") -> Iterator[str]:
    """Validate, then stream the lines (each ends with a newline). Oldest episodes last."""
    if fmt not in FORMATS:
        raise BadRequest(f"format must be one of {', '.join(FORMATS)}")
    check_filter(where)
    return _lines(auditor, where)


def _lines(auditor: Auditor, where: EpisodeFilter) -> Iterator[str]:
    for row, recorded in auditor.queries.iter_with_events(where):
        record = episode_record(auditor.catalog, row, recorded)
        yield json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
