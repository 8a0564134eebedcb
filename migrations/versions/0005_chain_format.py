"""Record each episode's chain format (``episodes.chain_format``, see ``store/chain.py``).

Every episode written before this revision was chained in format 1 (the standard library's
canonical JSON and a SHA-256 link), so existing rows get 1 from the server default. Adding a
column with a constant default rewrites no row on either backend, and no event is touched.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("episodes", sa.Column("chain_format", sa.SmallInteger, nullable=False,
                                        server_default=sa.text("1")))


def downgrade() -> None:
    # A plain ALTER TABLE ... DROP COLUMN (SQLite 3.35+): a batch copy of ``episodes`` would have
    # to drop the table that ``events`` references.
    op.drop_column("episodes", "chain_format")
