"""Runs of ``inference.py`` (or any batch of episodes): a cold admin table, not event-sourced.

A run's per-task results are not copied here; they are read from its episodes (``episodes.run_id``).
The summary column holds what only the runner knows (LLM latency, token usage, errors).

Each run gets a secret when it is started, handed to its creator once; only its SHA-256 is stored
(``secret_hash``). Whoever files episodes under the run over the API shows the secret
(:meth:`RunStore.may_file`), so nobody else can add episodes to a recorded run and move its mean.
The secret is 256 random bits, so a plain hash is enough: there is nothing to guess
from it, unlike a password. A run recorded before revision 0006 has no secret.
"""

from __future__ import annotations

import builtins
import datetime as dt
import hashlib
import json
import os
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update

from store.database import Database
from store.errors import NotFound
from store.eventstore import EpisodeRow, utcnow
from store.schema import episodes, runs

RUNNING = "running"
ENDED_STATUSES = ("finished", "degraded", "failed", "interrupted")
"""How a run ends: all its episodes played, stopped by an error, stopped by Ctrl-C."""


def new_run_id() -> str:
    """Run ids say when the run started; the random tail keeps two runs of one second apart."""
    return "run_" + dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S") + "_" + os.urandom(4).hex()


def new_secret() -> str:
    return "rs_" + secrets.token_urlsafe(32)


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


_NO_HASH = secret_hash("")  # compared against when there is nothing to compare, so every refusal costs alike


@dataclass(frozen=True)
class RunRow:
    run_id: str
    started_at: dt.datetime
    ended_at: dt.datetime | None
    agent: str
    status: str
    config: dict[str, Any]
    summary: dict[str, Any] | None

    def actor_steps(self) -> dict[str, int]:
        """Steps per actor (a model, the built-in policy, ``none`` for a failed step), most first:
        the summary's count, or for a run recorded before it had one, the sum of its episodes'
        ``chosen_by`` (the same facts, per episode)."""
        summary = self.summary or {}
        actors = summary.get("actors")
        if isinstance(actors, dict) and isinstance(actors.get("by_actor"), dict):
            counted = {str(a): int(n) for a, n in actors["by_actor"].items()}
        else:  # any summary a caller stored is read, so take only what has the runner's shape
            counted = {}
            episodes = summary.get("episodes")
            for episode in episodes if isinstance(episodes, list) else []:
                chosen = episode.get("chosen_by") if isinstance(episode, dict) else None
                for actor, steps in (chosen if isinstance(chosen, dict) else {}).items():
                    counted[str(actor)] = counted.get(str(actor), 0) + int(steps)
        return dict(sorted(counted.items(), key=lambda kv: -kv[1]))

    def to_json(self) -> dict[str, Any]:
        return {"run_id": self.run_id, "started_at": self.started_at.isoformat(),
                "ended_at": self.ended_at.isoformat() if self.ended_at else None,
                "agent": self.agent, "status": self.status, "config": self.config,
                "summary": self.summary, "actors": self.actor_steps()}


def _row(r: Any) -> RunRow:
    return RunRow(r.run_id, r.started_at, r.ended_at, r.agent, r.status, json.loads(r.config),
                  json.loads(r.summary) if r.summary else None)


class RunStore:
    def __init__(self, db: Database):
        self.db = db

    def start(self, run_id: str, agent: str, config: dict[str, Any]) -> str:
        """Record a run as started and return its secret (shown this once; only its hash is kept).
        ``config`` must hold no secrets (the caller strips them)."""
        secret = new_secret()
        with self.db.write() as conn:
            conn.execute(insert(runs).values(run_id=run_id, started_at=utcnow(), agent=agent,
                                             status=RUNNING, config=json.dumps(config),
                                             secret_hash=secret_hash(secret)))
        return secret

    def finish(self, run_id: str, summary: dict[str, Any], status: str = "finished") -> bool:
        """Record how the run ended; False (nothing written) if it was not running any more."""
        if status not in ENDED_STATUSES:
            raise ValueError(f"a run ends as one of {', '.join(ENDED_STATUSES)}, not {status!r}")
        with self.db.write() as conn:
            done = conn.execute(update(runs).where(runs.c.run_id == run_id, runs.c.status == RUNNING)
                                .values(ended_at=utcnow(), status=status, summary=json.dumps(summary)))
        return bool(done.rowcount)

    def may_file(self, run_id: str, secret: str | None) -> bool:
        """Whether ``secret`` is the secret of ``run_id`` and the run is still running.

        One answer for an unknown run, a run without a secret (recorded before 0006), an ended run
        and a wrong secret, each after one constant-time comparison: a caller learns nothing about
        which runs exist. An ended run takes no more episodes, so its results stay as recorded.
        """
        with self.db.read() as conn:
            row = conn.execute(select(runs.c.secret_hash, runs.c.status)
                               .where(runs.c.run_id == run_id)).first()
        stored = row.secret_hash if row is not None and row.secret_hash else _NO_HASH
        matches = secrets.compare_digest(stored, secret_hash(secret or ""))
        return (matches and bool(secret) and row is not None and bool(row.secret_hash)
                and row.status == RUNNING)

    def get(self, run_id: str) -> RunRow:
        with self.db.read() as conn:
            row = conn.execute(select(runs).where(runs.c.run_id == run_id)).first()
        if row is None:
            raise NotFound(f"no run {run_id!r}")
        return _row(row)

    def list(self, limit: int = 50, before: dt.datetime | None = None) -> list[RunRow]:
        query = select(runs).order_by(runs.c.started_at.desc()).limit(limit)
        if before is not None:
            query = query.where(runs.c.started_at < before)
        with self.db.read() as conn:
            return [_row(r) for r in conn.execute(query).all()]

    def episodes(self, run_id: str) -> builtins.list[EpisodeRow]:
        """The run's episodes in the order they were opened."""
        query = (select(episodes).where(episodes.c.run_id == run_id)
                 .order_by(episodes.c.created_at, episodes.c.episode_id))
        with self.db.read() as conn:
            return [EpisodeRow(**r._asdict()) for r in conn.execute(query).all()]
