"""Shared fixtures: real SQLite files and real PostgreSQL databases, one per test.

``TICKETLEDGER_TEST_BACKEND`` (``sqlite`` by default, or ``postgres``) picks the backend behind
the ``database_url`` fixture, so the whole suite can run once per backend. Tests that must cover
both backends in every run use ``both_backends_url``. PostgreSQL comes from ``TICKETLEDGER_PG_URL``
(default: the local server as user postgres); when it is unreachable the tests are skipped locally
and fail under CI, where it must be tested for real. Code that opens the default database (servers
and scripts a test starts without a URL) gets ``DATABASE_URL`` pointing at a per-session database of
the same backend, so nothing falls back to SQLite in the PostgreSQL run or writes to ``data/``.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest

pytest_plugins = ("tests.servers",)  # live_server: a real uvicorn server shared by the API tests

PG_URL = os.environ.get("TICKETLEDGER_PG_URL",
                        "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")
BACKEND = os.environ.get("TICKETLEDGER_TEST_BACKEND", "sqlite")


def _pg_admin():  # type: ignore[no-untyped-def]
    import psycopg
    from sqlalchemy.engine import make_url

    url = make_url(PG_URL)
    return psycopg.connect(host=url.host or "127.0.0.1", port=url.port or 5432,
                           user=url.username or "postgres", password=url.password,
                           dbname=url.database or "postgres", autocommit=True, connect_timeout=5)


def _pg_unavailable(exc: Exception) -> None:
    message = f"PostgreSQL at {PG_URL} is not reachable: {exc}"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI must test PostgreSQL for real)")
    pytest.skip(message)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for this test, dropped afterwards."""
    from sqlalchemy.engine import make_url

    name = "tl_test_" + secrets.token_hex(6)
    try:
        with _pg_admin() as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
    except Exception as exc:
        _pg_unavailable(exc)
    yield make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
    with _pg_admin() as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session", autouse=True)
def default_database_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``DATABASE_URL`` for code that opens the default database (no URL given), and for servers
    and scripts the tests start: the run's backend, never the repository's ``data/`` file.

    Tests that need isolation still ask for ``database_url``; this makes the rest honour the backend.
    """
    from sqlalchemy.engine import make_url

    previous = os.environ.get("DATABASE_URL")
    name = None
    if BACKEND == "postgres":
        name = "tl_session_" + secrets.token_hex(6)
        try:
            with _pg_admin() as admin:
                admin.execute(f'CREATE DATABASE "{name}"')
            url = make_url(PG_URL).set(database=name).render_as_string(hide_password=False)
        except Exception:  # unreachable: the PostgreSQL tests themselves skip or fail loudly
            name = None
    if name is None:
        url = f"sqlite:///{tmp_path_factory.mktemp('default-db') / 'ticketledger.db'}"
    os.environ["DATABASE_URL"] = url
    yield url
    if previous is None:
        os.environ.pop("DATABASE_URL", None)
    else:
        os.environ["DATABASE_URL"] = previous
    if name is not None:
        with _pg_admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def sqlite_url(tmp_path) -> str:  # type: ignore[no-untyped-def]
    """A real SQLite file in the test's temporary directory."""
    return f"sqlite:///{tmp_path / 'events.db'}"


@pytest.fixture
def database_url(request: pytest.FixtureRequest) -> str:
    """The suite's backend for this run (see module docstring)."""
    if BACKEND == "postgres":
        return request.getfixturevalue("pg_url")
    return request.getfixturevalue("sqlite_url")


@pytest.fixture(params=["sqlite", "postgres"])
def both_backends_url(request: pytest.FixtureRequest) -> str:
    """Run the test on an SQLite file and on PostgreSQL, in every run."""
    return request.getfixturevalue("pg_url" if request.param == "postgres" else "sqlite_url")


@pytest.fixture
def database(database_url: str):  # type: ignore[no-untyped-def]
    from store import open_database

    db = open_database(database_url)
    yield db
    db.dispose()


@pytest.fixture
def service(database):  # type: ignore[no-untyped-def]
    from service import EnvironmentService

    return EnvironmentService(database)
