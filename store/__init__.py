"""The only package that talks SQL: engine set-up, migrations, the event store and admin tables."""

from store.database import DEFAULT_DATABASE_URL, Database, open_database
from store.errors import Conflict, DatabaseUnavailable, NoDatabase, NotFound, StoreError

__all__ = ["DEFAULT_DATABASE_URL", "Conflict", "Database", "DatabaseUnavailable", "NoDatabase",
           "NotFound", "StoreError", "open_database"]
