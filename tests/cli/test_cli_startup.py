"""``ticketledger``'s quick commands load only what they use: the help and the commands that only
read (the task list, the runs) never load the environment, the graders or Alembic."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from store import open_database
from tests.databases import sqlite_pass_only

pytestmark = sqlite_pass_only("runs the command line on its own SQLite file")

REPO = Path(__file__).resolve().parents[2]
RUN = """
import sys
from cli.main import main
try:
    status = main(sys.argv[1:])
finally:  # --help exits from inside argparse
    print("LOADED", sorted(m for m in ("alembic", "service.environment", "graders", "domain.events")
                           if m in sys.modules), file=sys.stderr)
sys.exit(status)
"""


@pytest.mark.parametrize("args", [["--help"], ["tasks"], ["runs"], ["tasks", "--family", "outage"]])
def test_quick_commands_load_no_environment_grader_or_alembic(tmp_path: Path, args: list[str]) -> None:
    url = f"sqlite:///{tmp_path / 'log.db'}"
    open_database(url).dispose()  # current: reading it needs no migration
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    proc = subprocess.run([sys.executable, "-c", RUN, "--database-url", url, *args], cwd=tmp_path,
                          env={**env, "PYTHONPATH": str(REPO)}, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip()
    assert "LOADED []" in proc.stderr.splitlines(), proc.stderr
