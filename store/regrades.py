"""Regrade records: what the current grader says about an episode recorded under an older one.

Append-only (the database refuses UPDATE and DELETE, migration 0003): a regrade never rewrites the
episode's recorded score or events, it adds a row beside them, so the original stays auditable and
every later opinion of the grader is kept with its version.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select

from store.database import Database
from store.eventstore import utcnow
from store.schema import regrades


@dataclass(frozen=True)
class NewRegrade:
    episode_id: str
    grader_version: str
    recorded_score: float
    new_score: float
    report: dict[str, Any]


@dataclass(frozen=True)
class RegradeRow:
    regrade_id: int
    episode_id: str
    grader_version: str
    recorded_score: float
    new_score: float
    report: dict[str, Any]
    created_at: dt.datetime

    def to_json(self) -> dict[str, Any]:
        return {"regrade_id": self.regrade_id, "episode_id": self.episode_id,
                "grader_version": self.grader_version, "recorded_score": self.recorded_score,
                "new_score": self.new_score, "report": self.report,
                "created_at": self.created_at.isoformat()}


class RegradeStore:
    def __init__(self, db: Database):
        self.db = db

    def append(self, records: Sequence[NewRegrade]) -> int:
        """Add records in one transaction; returns how many were written."""
        if not records:
            return 0
        now = utcnow()
        rows = [{"episode_id": r.episode_id, "grader_version": r.grader_version,
                 "recorded_score": r.recorded_score, "new_score": r.new_score,
                 "report": json.dumps(r.report, sort_keys=True), "created_at": now} for r in records]
        with self.db.write() as conn:
            conn.execute(insert(regrades), rows)
        return len(rows)

    def of_episode(self, episode_id: str) -> list[RegradeRow]:
        """Every regrade of one episode, oldest first (served by ``ix_regrades_episode``)."""
        query = (select(regrades).where(regrades.c.episode_id == episode_id)
                 .order_by(regrades.c.regrade_id))
        with self.db.read() as conn:
            return [RegradeRow(r.regrade_id, r.episode_id, r.grader_version, r.recorded_score,
                               r.new_score, json.loads(r.report), r.created_at)
                    for r in conn.execute(query).all()]
