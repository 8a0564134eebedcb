"""Indexes for the audit listings, and append-only regrade records.

Episode listings filter by run or status and page newest first by (created_at, episode_id); these
composite indexes let each page be read from an index range instead of a scan. Regrade records get
the same immutability triggers as events: a regrade adds an opinion, it never edits one.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

SQLITE_TRIGGERS = [
    """CREATE TRIGGER regrades_no_update BEFORE UPDATE ON regrades
       BEGIN SELECT RAISE(ABORT, 'regrade records are append-only: UPDATE refused'); END""",
    """CREATE TRIGGER regrades_no_delete BEFORE DELETE ON regrades
       BEGIN SELECT RAISE(ABORT, 'regrade records are append-only: DELETE refused'); END""",
]
PG_TRIGGERS = [
    """CREATE OR REPLACE FUNCTION ticketledger_regrades_immutable() RETURNS trigger AS $$
       BEGIN RAISE EXCEPTION 'regrade records are append-only: % refused', TG_OP; END $$
       LANGUAGE plpgsql""",
    """CREATE TRIGGER regrades_no_update_delete BEFORE UPDATE OR DELETE ON regrades
       FOR EACH ROW EXECUTE FUNCTION ticketledger_regrades_immutable()""",
]


def upgrade() -> None:
    op.create_index("ix_episodes_run_created", "episodes", ["run_id", "created_at", "episode_id"])
    op.create_index("ix_episodes_status_created", "episodes", ["status", "created_at", "episode_id"])
    bind = op.get_bind()
    for statement in SQLITE_TRIGGERS if bind.dialect.name == "sqlite" else PG_TRIGGERS:
        op.execute(statement)


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        op.execute("DROP TRIGGER IF EXISTS regrades_no_update")
        op.execute("DROP TRIGGER IF EXISTS regrades_no_delete")
    else:
        op.execute("DROP TRIGGER IF EXISTS regrades_no_update_delete ON regrades")
        op.execute("DROP FUNCTION IF EXISTS ticketledger_regrades_immutable()")
    op.drop_index("ix_episodes_status_created", "episodes")
    op.drop_index("ix_episodes_run_created", "episodes")
