"""``python -m bench --quick`` runs every section end to end, so the benchmark cannot rot.

No timing is asserted (speed belongs in the bench's own table); only that every section ran,
produced finite figures, wrote its JSON, and printed the table.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from bench.__main__ import SECTIONS

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_quick_bench_runs_every_section(tmp_path: Path) -> None:
    out = tmp_path / "results"
    done = subprocess.run([sys.executable, "-m", "bench", "--quick", "--out", str(out),
                           "--workdir", str(tmp_path / "work")], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    latest = json.loads((out / "latest.json").read_text())
    assert latest["meta"]["quick"] is True and latest["table"] in done.stdout
    keys = {f["key"] for f in latest["figures"]}
    for section in SECTIONS:
        if section != "postgres":  # its figures are http.postgres-*; skipped if PG is unreachable
            assert any(k.startswith(section + ".") for k in keys), section
    for figure in latest["figures"]:
        assert figure["runs"] and all(math.isfinite(v) and v >= 0 for v in figure["runs"]), figure
    assert not list((tmp_path / "work").glob("**/*.db")), "the bench left databases behind"
