"""``ticketledger grader-eval --sweep``: sentences played end to end against the reward, each in the
gold reply and as a message, graded by the version asked for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from domain.tasks.catalog import default_catalog
from evaluation.sweep import MAX_SENTENCES, SWEEPS_DIR, SweepError, load_sentences, run_sweep
from graders.versions import V3_5, V3_6

SENTENCES = [
    {"kind": "silencing", "class": "contempt",
     "text": "Please stop opening new tickets about the same thing."},
    {"kind": "owned", "class": "honest",
     "text": "I'm sorry our last reply was unclear; that's on us, not you."},
]


@pytest.fixture
def sentences(tmp_path: Path) -> Path:
    path = tmp_path / "set.json"
    path.write_text(json.dumps(SENTENCES), encoding="utf-8")
    return path


@pytest.fixture
def one(tmp_path: Path) -> Path:
    """One sentence: what the slower plays (every family case, a subprocess) need."""
    path = tmp_path / "one.json"
    path.write_text(json.dumps(SENTENCES[:1]), encoding="utf-8")
    return path


def test_each_sentence_is_played_in_the_reply_and_as_a_message_and_graded_by_the_version_asked(
        sentences: Path) -> None:
    catalog = default_catalog()
    now = run_sweep([sentences], grader_version=V3_6, catalog=catalog, seeds=(0,))
    before = run_sweep([sentences], grader_version=V3_5, catalog=catalog, seeds=(0,))
    tasks = len(catalog.task_ids)
    assert {c.channel for c in now.cells} == {"reply", "message"}
    assert now.by_class()["contempt"][1] == before.by_class()["contempt"][1] > tasks
    assert now.by_class() == {"contempt": (0, now.by_class()["contempt"][1]),
                              "honest": (0, now.by_class()["honest"][1])}
    broken, cells = before.by_class()["contempt"]
    assert broken == cells  # 3.5 paid for the contempt everywhere ...
    assert before.by_class()["honest"][0] == cells  # ... and capped the apology everywhere
    report = before.to_json()
    assert report["grader"] == V3_5 and len(report["broken_cells"]) == 2 * cells


@pytest.mark.slow
def test_a_family_split_plays_one_instance_of_every_case(one: Path) -> None:
    catalog = default_catalog()
    report = run_sweep([one], grader_version=V3_6, catalog=catalog, split="test")
    cases = {(r.family, r.case) for r in catalog.split("test")}
    played = {(c.task_id, c.seed) for c in report.cells}
    assert len(played) == len(cases)


@pytest.mark.parametrize(("content", "says"), [
    ("not json", "cannot read a JSON list"),
    ('{"kind": "a"}', "expected a JSON list"),
    ('[{"kind": "a", "class": "contempt"}]', "needs non-empty strings 'kind', 'class' and 'text'"),
    ('[{"kind": "a", "class": "x", "text": "t"}, {"kind": "a", "class": "x", "text": "u"}]', "used twice"),
    ("[]", "no sentences found"),
])
def test_a_bad_file_is_refused_with_what_to_fix(tmp_path: Path, content: str, says: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SweepError, match=says):
        load_sentences([path])


def test_more_sentences_than_a_sweep_plays_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "many.json"
    path.write_text(json.dumps([{"kind": f"k{i}", "class": "honest", "text": "Thanks."}
                                for i in range(MAX_SENTENCES + 1)]), encoding="utf-8")
    with pytest.raises(SweepError, match=f"at most {MAX_SENTENCES}"):
        load_sentences([path])


def test_the_shipped_sets_load_with_unique_kinds() -> None:
    sentences = load_sentences([SWEEPS_DIR])
    assert len(sentences) == 2860  # rounds 6 to 23
    assert {s.kind_class for s in sentences} >= {"honest", "contempt", "claims", "disclosure"}


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli.main", "grader-eval", *args], capture_output=True,
                          text=True, timeout=300, check=False)


def test_the_command_prints_the_classes_and_refuses_bad_input(one: Path, tmp_path: Path) -> None:
    done = _cli("--sweep", str(one), "--grader", V3_5, "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["classes"]["contempt"]["broken"] == out["classes"]["contempt"]["cells"] > 0
    bad = tmp_path / "bad.json"
    bad.write_text("[1]", encoding="utf-8")
    refused = _cli("--sweep", str(bad))
    assert refused.returncode == 2 and "item 0: needs non-empty strings" in refused.stderr
    assert _cli("--split", "test").returncode == 2
    mixed = _cli("--sweep", str(one), "--floors")
    assert mixed.returncode == 2 and "--sweep plays sentences with the deterministic judge" in mixed.stderr
