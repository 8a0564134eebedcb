"""Event log and episode index, with immutability enforced by the database.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

SQLITE_TRIGGERS = [
    """CREATE TRIGGER events_no_update BEFORE UPDATE ON events
       BEGIN SELECT RAISE(ABORT, 'events are immutable: UPDATE refused'); END""",
    """CREATE TRIGGER events_no_delete BEFORE DELETE ON events
       BEGIN SELECT RAISE(ABORT, 'events are immutable: DELETE refused'); END""",
]
PG_TRIGGERS = [
    """CREATE OR REPLACE FUNCTION ticketledger_events_immutable() RETURNS trigger AS $$
       BEGIN RAISE EXCEPTION 'events are immutable: % refused', TG_OP; END $$ LANGUAGE plpgsql""",
    """CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events
       FOR EACH ROW EXECUTE FUNCTION ticketledger_events_immutable()""",
    """CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
       FOR EACH STATEMENT EXECUTE FUNCTION ticketledger_events_immutable()""",
]


def upgrade() -> None:
    op.create_table(
        "episodes",
        sa.Column("episode_id", sa.String(64), primary_key=True),
        sa.Column("task_id", sa.String(64), nullable=False),
        sa.Column("seed", sa.BigInteger),
        sa.Column("run_id", sa.String(64)),
        sa.Column("forked_from", sa.String(64)),
        sa.Column("fork_step", sa.Integer),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("step_count", sa.Integer, nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("head_hash", sa.String(64), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_episodes_task_created", "episodes", ["task_id", "created_at"])
    op.create_index("ix_episodes_created", "episodes", ["created_at", "episode_id"])
    op.create_table(
        "events",
        sa.Column("position", sa.BigInteger().with_variant(sa.Integer, "sqlite"),
                  primary_key=True, autoincrement=True),
        sa.Column("episode_id", sa.String(64), sa.ForeignKey("episodes.episode_id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("type", sa.String(40), nullable=False),
        sa.Column("version", sa.SmallInteger, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("episode_id", "seq", name="uq_events_episode_seq"),
        sa.CheckConstraint("seq >= 1", name="ck_events_seq_positive"),
    )
    bind = op.get_bind()
    for statement in SQLITE_TRIGGERS if bind.dialect.name == "sqlite" else PG_TRIGGERS:
        op.execute(statement)


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        op.execute("DROP TRIGGER IF EXISTS events_no_truncate ON events")
    op.drop_table("events")
    op.drop_table("episodes")
    if bind.dialect.name != "sqlite":
        op.execute("DROP FUNCTION IF EXISTS ticketledger_events_immutable()")
