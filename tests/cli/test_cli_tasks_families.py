"""``ticketledger tasks --split/--family``, ``tasks build-manifest`` and ``tasks verify``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from domain.tasks import default_catalog
from domain.tasks.manifest import MANIFEST_FILE
from tests.databases import sqlite_pass_only

pytestmark = sqlite_pass_only("the catalog commands read no database")

CATALOG = default_catalog()


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_tasks_lists_the_classic_tasks_and_a_split_lists_its_instances(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tasks", "--json")
    assert code == 0 and [t["task_id"] for t in json.loads(out)["tasks"]] == CATALOG.task_ids
    code, out, _ = run(capsys, "tasks", "--split", "test", "--json")
    data = json.loads(out)
    manifest = CATALOG.manifest
    assert code == 0 and manifest is not None and data["digest"] == manifest.split_digests["test"]
    assert [r["instance"] for r in data["instances"]] == [r.id for r in CATALOG.split("test")]
    assert [r["index"] for r in data["instances"]] == list(range(len(data["instances"])))
    code, out, _ = run(capsys, "tasks", "--split", "dev", "--family", "account_access", "--json")
    rows = json.loads(out)["instances"]
    assert code == 0 and rows and {r["family"] for r in rows} == {"account_access"}
    assert all(CATALOG.split("dev")[r["index"]].id == r["instance"] for r in rows)
    code, out, _ = run(capsys, "tasks", "--family", "task_family_refund_request")
    assert code == 0 and "refund_request-0119" in out
    code, _, err = run(capsys, "tasks", "--family", "nope")
    assert code == 2 and "unknown family 'nope'; known:" in err


def test_build_manifest_check_passes_on_the_committed_one_and_writes_a_copy(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "tasks", "build-manifest", "--check")
    assert code == 0 and "up to date" in out
    target = tmp_path / "manifest.json"
    code, out, _ = run(capsys, "tasks", "build-manifest", "--output", str(target), "--json")
    assert code == 0 and json.loads(out)["instances"] == len(CATALOG.manifest.instances)  # type: ignore[union-attr]
    assert target.read_text(encoding="utf-8") == MANIFEST_FILE.read_text(encoding="utf-8")
    target.write_text("{}", encoding="utf-8")
    code, _, err = run(capsys, "tasks", "build-manifest", "--check", "--output", str(target))
    assert code == 1 and "ticketledger tasks build-manifest" in err


def test_verify_a_sample_of_one_family(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tasks", "verify", "--sample", "3", "--family", "account_access",
                       "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] is True and data["instances"] == 3
    assert list(data["families"]) == ["account_access"] and data["audit_failures"] == []
    assert data["audit_episodes"] > 0
    row = data["families"]["account_access"]
    assert row["gold_passed"] == row["solver_passed"] == 3 and row["gold_min_score"] >= 0.95
    assert sum(r["instances"] for r in data["gold_by_split"]["account_access"].values()) == 3
    code, _, err = run(capsys, "tasks", "verify", "--family", "nope", "--no-audit")
    assert code == 2 and "unknown family" in err
