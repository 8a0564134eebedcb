"""Applying Alembic migrations programmatically (on first use and by ``ticketledger db upgrade``).

Which revision is newest, and which one a database is at, are Alembic's answers
(``ScriptDirectory`` and ``MigrationContext``), never read from the files or tables by hand.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine

from store.engine import READ_ONLY, serialise_migration

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"


def _config(connection: Connection | None = None) -> Config:
    """Alembic's configuration: our migration scripts, run on ``connection`` (``migrations/env.py``
    takes it from ``attributes``)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@cache
def head_revision() -> str:
    """The newest migration (the scripts do not change while a process runs, so it is read once)."""
    head = ScriptDirectory.from_config(_config()).get_current_head()
    if head is None:
        raise RuntimeError(f"no migrations found in {MIGRATIONS_DIR}")
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None: never migrated)."""
    with engine.connect() as conn:
        conn.execution_options(**{READ_ONLY: True})
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> str:
    """Bring the database to ``revision``; returns the revision it ends at.

    Several processes may start at once on a fresh database, so the migration holds a lock before
    it reads the current revision (``store.engine.serialise_migration``). The loser waits, then
    finds the schema at head and does nothing; if it gave up waiting, it carries on as long as the
    winner brought the schema to head.
    """
    try:
        with engine.begin() as conn:
            serialise_migration(conn)
            command.upgrade(_config(conn), revision)
    except Exception:
        if current_revision(engine) != head_revision():
            raise
    return current_revision(engine) or ""


def ensure_current(engine: Engine) -> None:
    """Apply pending migrations; nothing is written when the database is current."""
    if current_revision(engine) != head_revision():
        upgrade(engine)
