"""Drop ``ix_episodes_run``: ``ix_episodes_run_created`` (0003) starts with the same column.

An index on ``(run_id)`` answers nothing that ``(run_id, created_at, episode_id)`` does not (the
database reads the longer index's prefix for an equality on ``run_id``), but every ``reset`` paid to
write it: one more B-tree page in the commit. Measured on SQLite, in the WAL after the bench's
scripted workload: 48 frames of this index for 48 resets, one in every reset's commit.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_episodes_run", "episodes")


def downgrade() -> None:
    op.create_index("ix_episodes_run", "episodes", ["run_id"])
