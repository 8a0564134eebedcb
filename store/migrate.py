"""Applying Alembic migrations programmatically (on first use and by ``ticketledger db upgrade``).

Every program opens its database through here, so whether the schema is current is checked
without Alembic, which takes longer to import than the rest of the store (it loads every SQL
dialect it supports): the revision a database is at is read from Alembic's own version table with
plain SQLAlchemy, and the newest revision from the migration scripts' ``revision`` and
``down_revision`` lines. Alembic is imported only to migrate, and to answer whenever the scripts
say something that simple reading cannot settle (several heads, a computed revision), so the
answer is always the one Alembic gives (tests/store/test_migrations.py compares the two).
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, Engine, inspect, text

from store.engine import READ_ONLY, serialise_migration

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS_DIR = Path(__file__).resolve().parent.parent / "migrations"
VERSION_TABLE = "alembic_version"
"""Where Alembic keeps a database's revision (its default, which ``migrations/env.py`` keeps)."""

_ASSIGNMENT = re.compile(r"^(revision|down_revision)\s*(?::[^=\n]*)?=\s*(.+?)\s*$", re.MULTILINE)


def _config(connection: Connection | None = None) -> Config:
    """Alembic's configuration: our migration scripts, run on ``connection`` (``migrations/env.py``
    takes it from ``attributes``)."""
    from alembic.config import Config  # deferred: Alembic is for migrating (see the docstring)

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def alembic_head(directory: Path = MIGRATIONS_DIR) -> str:
    """The newest migration in ``directory`` as Alembic finds it (it imports every script)."""
    from alembic.config import Config  # deferred: Alembic is for migrating (see the docstring)
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(directory))
    head = ScriptDirectory.from_config(cfg).get_current_head()
    if head is None:
        raise RuntimeError(f"no migrations found in {directory}")
    return head


def scripts_head(directory: Path = MIGRATIONS_DIR) -> str | None:
    """The newest migration in ``directory`` read from its scripts' ``revision = ...`` and
    ``down_revision = ...`` lines: the one revision no other script names as its parent. None
    when the lines do not settle it (a script without them, a value that is not a literal,
    several heads or none): then Alembic must say."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in sorted((directory / "versions").glob("*.py")):
        if path.name.startswith(("__init__", ".#")):
            continue
        found: dict[str, object] = {}
        for name, value in _ASSIGNMENT.findall(path.read_text(encoding="utf-8")):
            try:
                found.setdefault(name, ast.literal_eval(value))
            except (ValueError, SyntaxError):
                return None
        revision, parent = found.get("revision"), found.get("down_revision", ...)
        if not isinstance(revision, str) or parent is ...:
            return None
        revisions.add(revision)
        if isinstance(parent, str):
            parents.add(parent)
        elif isinstance(parent, tuple | list) and all(isinstance(p, str) for p in parent):
            parents.update(parent)
        elif parent is not None:
            return None
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 else None


@cache
def head_revision() -> str:
    """The newest migration (the scripts do not change while a process runs, so it is read once)."""
    return scripts_head() or alembic_head()


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None: never migrated): the row of Alembic's version table,
    as ``MigrationContext.get_current_revision`` reads it."""
    with engine.connect() as conn:
        conn.execution_options(**{READ_ONLY: True})
        if not inspect(conn).has_table(VERSION_TABLE):
            return None
        rows = list(conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalars())
        if len(rows) > 1:  # several heads stamped: Alembic's error says what to do
            from alembic.runtime.migration import MigrationContext  # deferred: see the docstring

            return MigrationContext.configure(conn).get_current_revision()
        return str(rows[0]) if rows else None


def upgrade(engine: Engine, revision: str = "head") -> str:
    """Bring the database to ``revision``; returns the revision it ends at.

    Several processes may start at once on a fresh database, so the migration holds a lock before
    it reads the current revision (``store.engine.serialise_migration``). The loser waits, then
    finds the schema at head and does nothing; if it gave up waiting, it carries on as long as the
    winner brought the schema to head.
    """
    from alembic import command  # deferred: Alembic is for migrating (see the docstring)

    try:
        with engine.begin() as conn:
            serialise_migration(conn)
            command.upgrade(_config(conn), revision)
    except Exception:
        if current_revision(engine) != head_revision():
            raise
    return current_revision(engine) or ""


def ensure_current(engine: Engine) -> None:
    """Apply pending migrations; nothing is written, and Alembic not imported, when the database
    is current."""
    if current_revision(engine) != head_revision():
        upgrade(engine)
