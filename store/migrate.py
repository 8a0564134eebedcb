"""Applying Alembic migrations programmatically (on first use and by ``ticketledger db upgrade``)."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, inspect, text

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"


def _config(connection=None):  # type: ignore[no-untyped-def]
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    """The newest migration, read from the migration files (not the database)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade(engine: Engine, revision: str = "head") -> str:
    """Bring the database to ``revision``; returns the revision it ends at.

    Several processes may start at once on a fresh database; the loser of the race finds the
    schema already there and carries on.
    """
    from alembic import command

    try:
        # A write transaction: BEGIN IMMEDIATE on SQLite (a deferred one fails at once with
        # "database is locked" when another process migrates too), an advisory lock on
        # PostgreSQL; either way the loser waits, then finds the schema at head and does nothing.
        with engine.connect() as conn:
            conn = conn.execution_options(write=True)
            with conn.begin():
                if conn.dialect.name == "postgresql":
                    conn.execute(text("SELECT pg_advisory_xact_lock(7357424)"))
                command.upgrade(_config(conn), revision)
    except Exception:
        if current_revision(engine) != head_revision():
            raise
    return current_revision(engine) or ""


def ensure_current(engine: Engine) -> None:
    """Apply pending migrations, cheaply skipping the work when the database is current."""
    if current_revision(engine) != head_revision():
        upgrade(engine)
