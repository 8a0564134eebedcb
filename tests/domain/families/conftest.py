"""A service over the multi-turn families' catalog, on a real database of the run's backend."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from service import EnvironmentService
from store import open_database
from tests.domain.families.conversation_catalog import conversation_catalog


@pytest.fixture(scope="module")
def family_service(module_database_url: str) -> Iterator[EnvironmentService]:
    db = open_database(module_database_url)
    try:
        yield EnvironmentService(db, conversation_catalog())
    finally:
        db.dispose()
