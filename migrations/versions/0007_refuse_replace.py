"""SQLite: refuse an INSERT that would replace an event or a regrade record.

``INSERT OR REPLACE`` (and ``REPLACE INTO``) resolves a key conflict by deleting the old row, and
SQLite fires no DELETE trigger for that deletion (unless ``recursive_triggers`` is on, a setting of
the connection, not of the database), so 0001's ``events_no_delete`` and 0003's
``regrades_no_delete`` let a stored row be swapped for another. A BEFORE INSERT trigger that aborts
when a row with the same key is already there closes that: it runs before any conflict resolution,
whatever the statement's ``OR`` clause says.

The event store still sees a racing duplicate append as the conflict it is: the trigger's
``RAISE(ABORT)`` is a constraint error (``SQLITE_CONSTRAINT_TRIGGER``), which the driver raises as
``IntegrityError``, as the unique (episode_id, seq) key did (``store/eventstore.py`` turns it into
``Conflict``). Both look-ups go through the primary key and that unique index.

PostgreSQL needs nothing here: it has no REPLACE, and ``INSERT ... ON CONFLICT DO UPDATE`` fires
the UPDATE triggers of 0001 and 0003, which refuse it.

Revision ID: 0007
Create Date: 2026-12-01
"""

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

SQLITE_TRIGGERS = {
    "events_no_replace": """
        CREATE TRIGGER events_no_replace BEFORE INSERT ON events
        WHEN EXISTS (SELECT 1 FROM events WHERE episode_id = NEW.episode_id AND seq = NEW.seq)
          OR EXISTS (SELECT 1 FROM events WHERE position = NEW.position)
        BEGIN SELECT RAISE(ABORT, 'events are immutable: INSERT over a stored event refused'); END""",
    "regrades_no_replace": """
        CREATE TRIGGER regrades_no_replace BEFORE INSERT ON regrades
        WHEN EXISTS (SELECT 1 FROM regrades WHERE regrade_id = NEW.regrade_id)
        BEGIN SELECT RAISE(ABORT, 'regrade records are append-only: INSERT over a stored one refused');
        END""",
}


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for statement in SQLITE_TRIGGERS.values():
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for name in SQLITE_TRIGGERS:
            op.execute(f"DROP TRIGGER IF EXISTS {name}")
