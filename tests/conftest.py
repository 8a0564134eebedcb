"""Shared fixtures: real SQLite files and real PostgreSQL databases, one per test.

``TICKETLEDGER_TEST_BACKEND`` (``sqlite`` by default, or ``postgres``) picks the backend behind
the ``database_url`` fixture, so the whole suite can run once per backend. Tests that must cover
both backends in every run use ``both_backends_url``. PostgreSQL comes from ``TICKETLEDGER_PG_URL``
(default: the local server as user postgres); when it is unreachable the tests are skipped locally
and fail under CI, where it must be tested for real. Code that opens the default database (servers
and scripts a test starts without a URL) gets ``DATABASE_URL`` pointing at a per-session database of
the same backend, so nothing falls back to SQLite in the PostgreSQL run or writes to ``data/``.

Most tests open their own episodes and never look at anyone else's, so ``service`` shares one
database per test module (on PostgreSQL that saves a CREATE DATABASE and a migration per test,
about half a second each). A module that lists, counts or exports the whole log is marked
``fresh_database`` and gets a database of its own per test.

The PostgreSQL pass runs the folders that exercise storage and what stands on it; the folders of
:data:`ONE_PASS_FOLDERS` run in the SQLite pass only (:func:`pytest_collection_modifyitems`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from service import EnvironmentService
from store import Database, open_database
from tests.databases import BACKEND, PG_URL, fresh_database, fresh_pg_database, pg_admin
from tests.play import module_database, module_url

pytest_plugins = ("tests.servers",)  # live_server: a real uvicorn server shared by the API tests

__all__ = ["BACKEND", "PG_URL"]

TESTS = Path(__file__).parent
ONE_PASS_FOLDERS = frozenset({"domain", "graders", "golden", "evaluation"})
"""Folders whose tests judge the domain's rules, the graders' verdicts, recorded episodes and the
evaluations built on them: pure functions of an episode's events, which a test plays through the
service only to have the events. Which backend holds those events changes none of their verdicts,
and the store under them is tested on both backends by ``store/`` (the storage contract), with
``service/``, ``api/``, ``cli/``, ``baseline/`` and ``e2e/`` run again on PostgreSQL; so the PostgreSQL
pass skips these folders instead of spending its minutes repeating them."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In the PostgreSQL pass, skip the tests of :data:`ONE_PASS_FOLDERS`."""
    if BACKEND != "postgres":
        return
    skip = pytest.mark.skip(reason="runs once, in the SQLite pass: a pure function of the events "
                                   "(tests/conftest.py, ONE_PASS_FOLDERS)")
    for item in items:
        if item.path.relative_to(TESTS).parts[0] in ONE_PASS_FOLDERS:
            item.add_marker(skip)


def _pg_reachable() -> bool:
    try:
        with pg_admin():
            return True
    except Exception:  # the PostgreSQL tests themselves skip (or fail under CI) loudly
        return False


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for this test, dropped afterwards."""
    with fresh_pg_database() as url:
        yield url


@pytest.fixture(scope="session", autouse=True)
def default_database_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``DATABASE_URL`` for code that opens the default database (no URL given), and for servers
    and scripts the tests start: the run's backend, never the repository's ``data/`` file.

    Tests that need isolation still ask for ``database_url``; this makes the rest honour the backend.
    """
    previous = os.environ.get("DATABASE_URL")
    backend = BACKEND if BACKEND != "postgres" or _pg_reachable() else "sqlite"
    with fresh_database(tmp_path_factory.mktemp("default-db"), "tl_session", backend) as url:
        os.environ["DATABASE_URL"] = url
        yield url
    if previous is None:
        os.environ.pop("DATABASE_URL", None)
    else:
        os.environ["DATABASE_URL"] = previous


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
    db = open_database(database_url)
    yield db
    db.dispose()


@pytest.fixture(scope="module")
def module_database_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One database of the run's backend (TICKETLEDGER_TEST_BACKEND) for the whole test module."""
    yield from module_url(BACKEND, tmp_path_factory)


@pytest.fixture(scope="module")
def module_service(module_database_url: str) -> Iterator[EnvironmentService]:
    db: Database = open_database(module_database_url)
    yield EnvironmentService(db)
    db.dispose()


@pytest.fixture
def service(request: pytest.FixtureRequest) -> EnvironmentService:
    """The module's shared service, or one on a database of its own for a ``fresh_database``
    module (see the module docstring)."""
    if request.node.get_closest_marker("fresh_database"):
        return EnvironmentService(request.getfixturevalue("database"))
    return request.getfixturevalue("module_service")  # type: ignore[no-any-return]


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """One SQLite file and one PostgreSQL database for the module, in every run; each test opens
    its own episodes."""
    yield from module_database(request.param, tmp_path_factory)
