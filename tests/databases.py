"""Fresh databases for tests, on either backend, created and dropped in one place.

``BACKEND`` (``TICKETLEDGER_TEST_BACKEND``: ``sqlite`` or ``postgres``) is the suite's backend for
this run; ``PG_URL`` (``TICKETLEDGER_PG_URL``) the PostgreSQL server. When PostgreSQL is
unreachable, tests needing it are skipped locally and fail under CI, where it must be tested.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

PG_URL = os.environ.get("TICKETLEDGER_PG_URL",
                        "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
BACKEND = os.environ.get("TICKETLEDGER_TEST_BACKEND", "sqlite")


def sqlite_pass_only(why: str) -> pytest.MarkDecorator:
    """Skip in the PostgreSQL pass a test that pass would repeat unchanged: one that needs no
    database, or picks its backends itself (``why`` says which). CI runs the suite once per backend;
    such a test gains nothing from the second run but its minutes."""
    return pytest.mark.skipif(BACKEND == "postgres", reason=f"runs once, in the SQLite pass: {why}")


def pg_admin():  # type: ignore[no-untyped-def]
    """An autocommit connection to the server's maintenance database (CREATE/DROP DATABASE)."""
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(PG_URL)
    return psycopg.connect(host=url.host or "127.0.0.1", port=url.port or 5432,
                           user=url.username or "postgres", password=url.password,
                           dbname=url.database or "postgres", autocommit=True, connect_timeout=5)


def pg_unavailable(exc: Exception) -> None:
    message = f"PostgreSQL at {PG_URL} is not reachable: {exc}"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI must test PostgreSQL for real)")
    pytest.skip(message)


@contextmanager
def fresh_pg_database(prefix: str = "tl_test") -> Iterator[str]:
    """Create an empty PostgreSQL database, yield its URL, drop it (and its connections) after."""
    from sqlalchemy.engine import make_url

    name = f"{prefix}_{secrets.token_hex(6)}"
    try:
        with pg_admin() as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
    except Exception as exc:
        pg_unavailable(exc)
    try:
        yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        with pg_admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def fresh_database(directory: Path, prefix: str = "tl_test", backend: str = BACKEND) -> Iterator[str]:
    """A fresh database on ``backend``: an SQLite file in ``directory``, or a new PostgreSQL one."""
    if backend != "postgres":
        yield f"sqlite:///{directory / 'events.db'}"
        return
    with fresh_pg_database(prefix) as url:
        yield url
