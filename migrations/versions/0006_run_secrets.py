"""Give each run a secret: ``runs.secret_hash``, the SHA-256 of the secret handed out once when the
run is created (``store/runs.py``). Filing an episode under a run over the API needs that secret or
the audit token.

Runs recorded before this revision have no secret (NULL): nobody can file under them but the holder
of the audit token. Adding a nullable column rewrites no row on either backend.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("runs", sa.Column("secret_hash", sa.String(64)))


def downgrade() -> None:
    # A plain ALTER TABLE ... DROP COLUMN (SQLite 3.35+), as 0005's downgrade.
    op.drop_column("runs", "secret_hash")
