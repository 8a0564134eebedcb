"""The event log and the only package that talks SQL: the log's protocol (``store.protocol``) with
its SQL store and its in-memory one, engine set-up, migrations and admin tables."""

from store.database import DEFAULT_DATABASE_URL, Database, open_database
from store.errors import Conflict, DatabaseUnavailable, NoDatabase, NotFound, StoreError

__all__ = ["DEFAULT_DATABASE_URL", "Conflict", "Database", "DatabaseUnavailable", "NoDatabase",
           "NotFound", "StoreError", "open_database"]
