"""The store's fast path to the schema head gives what Alembic gives."""

from __future__ import annotations


def test_head_revision_read_from_files_equals_alembics() -> None:
    from store import migrate

    assert migrate.head_revision() == migrate.alembic_head_revision()


def test_a_current_database_opens_without_importing_alembic(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys
    from pathlib import Path

    url = f"sqlite:///{tmp_path / 'current.db'}"
    code = ("import sys; from store import open_database; open_database(sys.argv[1]).dispose(); "
            "print('alembic' in sys.modules)")
    root = str(Path(__file__).resolve().parent.parent)
    runs = [subprocess.run([sys.executable, "-c", code, url], capture_output=True, text=True, cwd=root,
                           check=True).stdout.strip() for _ in range(2)]
    assert runs == ["True", "False"]  # the first open migrates; the second finds nothing pending
