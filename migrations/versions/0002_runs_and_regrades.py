"""Runs of inference.py, and append-only regrade records.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "runs",
        sa.Column("run_id", sa.String(64), primary_key=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True)),
        sa.Column("agent", sa.String(200), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("config", sa.Text, nullable=False),
        sa.Column("summary", sa.Text),
    )
    op.create_index("ix_runs_started", "runs", ["started_at"])
    op.create_index("ix_episodes_run", "episodes", ["run_id"])
    op.create_table(
        "regrades",
        sa.Column("regrade_id", sa.BigInteger().with_variant(sa.Integer, "sqlite"),
                  primary_key=True, autoincrement=True),
        sa.Column("episode_id", sa.String(64), sa.ForeignKey("episodes.episode_id"), nullable=False),
        sa.Column("grader_version", sa.String(64), nullable=False),
        sa.Column("recorded_score", sa.Float, nullable=False),
        sa.Column("new_score", sa.Float, nullable=False),
        sa.Column("report", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_regrades_episode", "regrades", ["episode_id"])


def downgrade() -> None:
    op.drop_table("regrades")
    op.drop_index("ix_episodes_run", "episodes")
    op.drop_table("runs")
