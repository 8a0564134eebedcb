"""Real runs of ``inference.py`` (the built-in policy) into a test's SQLite file, and bundle edits.

The runs play a few instances of a frozen split so that the figures, comparisons and bundles in
these tests come from episodes recorded exactly as a user's run records them.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

from service.bundle import digest
from store.chain import GENESIS, canonical_json, link
from tests.baseline.inference_helpers import run_inference

HARD_FAMILY = "task_family_complaint"
"""A hard family: its test instances are the 'hard episodes' a forger would like to drop."""


def play(database_url: str, cwd: Path, *args: str, **env: str) -> str:
    """Run ``inference.py --agent policy`` with ``args``; the run id."""
    run = run_inference({"DATABASE_URL": database_url, **env}, "--agent", "policy", *args, cwd=cwd)
    assert run.returncode == 0, run.stderr
    found = re.search(r"run (run_\w+):", run.stderr)
    assert found, run.stderr
    return found[1]


def hard_test_run(database_url: str, cwd: Path, *extra: str, **env: str) -> str:
    """Six hard test instances, two trials each."""
    return play(database_url, cwd, "--split", "test", "--tasks", HARD_FAMILY, "--limit", "6",
                "--trials", "2", *extra, **env)


def resealed(bundle: dict[str, Any]) -> dict[str, Any]:
    """``bundle`` with its digest recomputed: an editor who knows the format."""
    out = copy.deepcopy(bundle)
    out["digest"] = digest(out)
    return out


def rechain(episode: dict[str, Any]) -> str:
    """Recompute every link of a bundle episode's chain from its (edited) payloads; its new head."""
    prev = GENESIS
    for event in episode["events"]:
        seq, type_, version, data_text = event[0], event[1], event[2], event[3]
        event[4] = prev
        event[5] = link(prev, seq, type_, version, data_text, episode.get("chain_format", 1))
        prev = event[5]
    return prev


def edit_payload(event: list[Any], **changes: Any) -> None:
    data = json.loads(event[3])
    data.update(changes)
    event[3] = canonical_json(data)
