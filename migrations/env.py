"""Alembic environment: runs on the connection ``store.migrate`` hands over (online only)."""

from alembic import context

from store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through `ticketledger db upgrade` (store.migrate)")

context.configure(connection=connection, target_metadata=metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
