"""The only package that talks SQL: engine set-up, migrations, the event store and admin tables."""

from store.database import Database, default_database_url, open_database
from store.errors import Conflict, NotFound, StoreError

__all__ = ["Conflict", "Database", "NotFound", "StoreError", "default_database_url", "open_database"]
