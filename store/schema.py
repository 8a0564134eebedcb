"""Table definitions for SQLAlchemy Core queries.

The schema itself is created only by Alembic migrations (``migrations/``); these objects describe
it for queries. ``tests/store/test_migrations.py`` checks the two agree.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Float,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    text,
)

metadata = MetaData()

episodes = Table(
    "episodes",
    metadata,
    Column("episode_id", String(64), primary_key=True),
    Column("task_id", String(64), nullable=False),
    Column("seed", BigInteger),
    Column("run_id", String(64)),
    Column("forked_from", String(64)),
    Column("fork_step", Integer),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # Inline projection of the log, written in the same transaction as the events it summarises.
    Column("status", String(16), nullable=False),
    Column("step_count", Integer, nullable=False),
    Column("score", Float, nullable=False),
    Column("last_seq", Integer, nullable=False),
    Column("head_hash", String(64), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    # How the episode's hash chain is computed (store/chain.py); 1 for every episode before 0005.
    Column("chain_format", SmallInteger, nullable=False, server_default=text("1")),
)

events = Table(
    "events",
    metadata,
    Column("position", BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
           autoincrement=True),
    Column("episode_id", String(64), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("type", String(40), nullable=False),
    Column("version", SmallInteger, nullable=False),
    Column("data", Text, nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    Column("recorded_at", DateTime(timezone=True), nullable=False),
)

runs = Table(
    "runs",
    metadata,
    Column("run_id", String(64), primary_key=True),
    Column("started_at", DateTime(timezone=True), nullable=False),
    Column("ended_at", DateTime(timezone=True)),
    Column("agent", String(200), nullable=False),
    Column("status", String(16), nullable=False),
    Column("config", Text, nullable=False),
    Column("summary", Text),
    # SHA-256 (hex) of the run's secret (store/runs.py); NULL for runs recorded before 0006.
    Column("secret_hash", String(64)),
)

regrades = Table(
    "regrades",
    metadata,
    Column("regrade_id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True,
           autoincrement=True),
    Column("episode_id", String(64), nullable=False),
    Column("grader_version", String(64), nullable=False),
    Column("recorded_score", Float, nullable=False),
    Column("new_score", Float, nullable=False),
    Column("report", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
