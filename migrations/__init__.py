"""Alembic migrations: the only way the schema changes. Applied by ``store.migrate``."""
