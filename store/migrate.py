"""Applying Alembic migrations programmatically (on first use and by ``ticketledger db upgrade``)."""

from __future__ import annotations

import re
from functools import cache
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


_REVISION = re.compile(r"""^revision\b[^=\n]*=\s*["']([^"']+)["']""", re.MULTILINE)
_DOWN_REVISION = re.compile(r"^down_revision\b[^=\n]*=(.*)$", re.MULTILINE)
_QUOTED = re.compile(r"""["']([^"']+)["']""")


@cache
def head_revision() -> str:
    """The newest migration, read from the migration files (not the database).

    Read from the files' ``revision`` / ``down_revision`` lines rather than through Alembic:
    importing Alembic costs ~0.1 s, and every process start (``inference.py``, each server
    worker) asks this only to learn that nothing is pending. With anything but one linear head
    it defers to Alembic; ``tests/test_perf_invariants.py`` checks both answers agree.
    """
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in sorted((MIGRATIONS_DIR / "versions").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        found = _REVISION.search(source)
        if found is None:
            continue
        revisions.add(found.group(1))
        down = _DOWN_REVISION.search(source)
        if down is not None:
            parents.update(_QUOTED.findall(down.group(1)))
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else alembic_head_revision()


def alembic_head_revision() -> str:
    """The head as Alembic computes it (the authority :func:`head_revision` must agree with)."""
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
