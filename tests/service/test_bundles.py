"""Result bundles: written from a real run, verified offline, and refused when edited anywhere.

Each tampering case edits a real bundle the way a forger would (resealing the digest, and
rebuilding the hash chain where that hides the edit from the chain check) and checks that
``verify-bundle`` names the discrepancy and exits non-zero.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from graders.versions import CURRENT, V3_0
from service.audit_views import Auditor
from service.bundle import BundleError, build_bundle, load_bundle, regrade_bundle, verify_bundle
from service.regrade import regrade
from store import open_database
from store.queries import EpisodeFilter
from tests.results.runs import edit_payload, hard_test_run, play, rechain, resealed


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A test-split run of six hard instances x two trials, a train-split run of one instance,
    both bundled with ``ticketledger bundle``."""
    where = tmp_path_factory.mktemp("bundles")
    url = f"sqlite:///{where / 'log.db'}"
    test_run = hard_test_run(url, where)
    train_run = play(url, where, "--split", "train", "--limit", "1")
    files = {}
    for name, run_id in (("test", test_run), ("train", train_run)):
        files[name] = where / f"{name}.json"
        assert main(["--database-url", url, "bundle", run_id, "-o", str(files[name])]) == 0
    return {"url": url, "test_run": test_run, "train_run": train_run, "files": files}


@pytest.fixture
def bundle(recorded: dict[str, Any]) -> dict[str, Any]:
    return load_bundle(recorded["files"]["test"].read_text())


def kinds(report: dict[str, Any]) -> set[str]:
    return {d["kind"] for d in report["discrepancies"]}


def cli_verify(bundle: dict[str, Any], path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path.write_text(json.dumps(bundle))
    capsys.readouterr()
    status = main(["verify-bundle", str(path)])
    return status, capsys.readouterr().out


def test_a_bundle_holds_the_run_and_verifies(recorded: dict[str, Any], bundle: dict[str, Any],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert bundle["run"]["run_id"] == recorded["test_run"] and bundle["run"]["agent"] == "builtin-policy"
    assert len(bundle["episodes"]) == 12 and len(bundle["heads"]) == 12
    assert bundle["plan"]["split"] == "test" and bundle["plan"]["trials"] == 2
    assert bundle["plan"]["split_digest"]  # the runner records the split's digest with the run
    assert bundle["grader"] == {"version": CURRENT, "reward_mode": "dense", "judge": "deterministic"}
    assert bundle["reported"]["summary"]["mean_score"] == bundle["reported"]["figures"]["mean_score"]["value"]
    status = main(["verify-bundle", str(recorded["files"]["test"])])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "verified: every check holds" in out and out.count("  ok   ") == 6


def test_an_edited_event_breaks_its_chain(bundle: dict[str, Any], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    episode = bundle["episodes"][3]
    action = next(e for e in episode["events"] if e[1] == "ActionReceived")
    action[3] = action[3].replace("complaint", "compliment", 1) if "complaint" in action[3] \
        else action[3].replace('"', '" ', 1)
    status, out = cli_verify(resealed(bundle), tmp_path / "b.json", capsys)
    assert status == 1 and "NOT verified" in out
    assert "chain: event" in out and "was altered after it was written" in out


def test_an_edited_reward_is_caught_by_the_re_grade_even_when_rechained(
        bundle: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    episode = bundle["episodes"][0]
    graded = next(e for e in episode["events"] if e[1] == "StepGraded")
    data = json.loads(graded[3])
    edit_payload(graded, reward=round(data["reward"] + 0.25, 4),
                 reward_units=data["reward_units"] + 2500)
    head = rechain(episode)
    bundle["heads"][0]["head_hash"] = head
    report = verify_bundle(resealed(bundle))
    assert not report["ok"] and "chain" not in kinds(report)  # a consistent chain, a false reward
    assert "reward" in kinds(report)
    status, out = cli_verify(resealed(bundle), tmp_path / "b.json", capsys)
    assert status == 1 and "- reward: step 1: recorded reward" in out


def test_an_edited_score_is_named(bundle: dict[str, Any]) -> None:
    bundle["episodes"][2]["score"] = 0.99
    report = verify_bundle(resealed(bundle))
    assert kinds(report) == {"score"}
    assert bundle["episodes"][2]["episode_id"] in {d["episode_id"] for d in report["discrepancies"]}


def test_an_edited_reported_figure_is_named(bundle: dict[str, Any]) -> None:
    bundle["reported"]["summary"]["mean_score"] = 0.93
    bundle["reported"]["figures"]["mean_score"]["value"] = 0.93
    report = verify_bundle(resealed(bundle))
    assert kinds(report) == {"figures"}
    messages = " ".join(d["message"] for d in report["discrepancies"])
    assert "reported mean_score" in messages and "the run's summary reports mean_score 0.93" in messages


def test_a_dropped_hard_episode_is_missing(bundle: dict[str, Any]) -> None:
    dropped = bundle["episodes"].pop(5)
    bundle["heads"] = [h for h in bundle["heads"] if h["episode_id"] != dropped["episode_id"]]
    report = verify_bundle(resealed(bundle))
    assert "missing" in kinds(report)
    missing = next(d for d in report["discrepancies"] if d["kind"] == "missing")
    assert missing["message"].startswith("complaint-") and f"trial {dropped['trial']}" in missing["message"]
    assert "figures" in kinds(report)  # the reported figures counted the dropped episode


def test_a_duplicated_episode_is_repeated(bundle: dict[str, Any]) -> None:
    bundle["episodes"].append(copy.deepcopy(bundle["episodes"][1]))
    report = verify_bundle(resealed(bundle))
    assert "repeated" in kinds(report)
    assert any(f"episode {bundle['episodes'][1]['episode_id']} appears 2 times" in d["message"]
               for d in report["discrepancies"])


def test_a_train_episode_in_a_test_bundle_is_foreign(recorded: dict[str, Any],
                                                      bundle: dict[str, Any]) -> None:
    train = load_bundle(recorded["files"]["train"].read_text())
    stranger = {**train["episodes"][0], "trial": bundle["episodes"][4]["trial"]}
    replaced = bundle["episodes"][4]["episode_id"]
    bundle["episodes"][4] = stranger
    bundle["heads"] = [h for h in bundle["heads"] if h["episode_id"] != replaced] + train["heads"][:1]
    report = verify_bundle(resealed(bundle))
    assert {"foreign", "run", "missing"} <= kinds(report)
    foreign = next(d for d in report["discrepancies"] if d["kind"] == "foreign")
    assert "of split train" in foreign["message"] and foreign["episode_id"] == stranger["episode_id"]


def test_an_edited_head_is_named(bundle: dict[str, Any]) -> None:
    bundle["heads"][7]["head_hash"] = "f" * 64
    report = verify_bundle(resealed(bundle))
    assert kinds(report) == {"head"}


def test_an_edited_grader_version_is_named(bundle: dict[str, Any]) -> None:
    bundle["grader"]["version"] = V3_0
    report = verify_bundle(resealed(bundle))
    assert kinds(report) == {"grader"}
    assert f"graded by {CURRENT}, the bundle names {V3_0}" in report["discrepancies"][0]["message"]


def test_any_edit_without_resealing_fails_the_digest(bundle: dict[str, Any]) -> None:
    bundle["run"]["agent"] = "a-better-model"
    report = verify_bundle(bundle)
    assert kinds(report) == {"digest"}


def test_a_file_that_is_not_a_bundle_is_refused_with_what_to_fix(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(BundleError, match="'format' must be 'ticketledger-bundle/1'"):
        load_bundle('{"episodes": []}')
    with pytest.raises(BundleError, match="not JSON"):
        load_bundle("{")
    path = tmp_path / "x.json"
    path.write_text("[1, 2]")
    assert main(["verify-bundle", str(path)]) == 1
    assert "not a bundle" in capsys.readouterr().err


def test_re_grading_a_bundle_names_both_versions_and_leaves_it_verifiable(
        recorded: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = recorded["files"]["test"]
    before = path.read_bytes()
    out = tmp_path / "regraded.json"
    assert main(["regrade-bundle", str(path), "--grader-version", V3_0, "-o", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["original"]["grader_version"] == CURRENT
    assert report["regraded"]["grader_version"] == V3_0
    assert report["bundle_digest"] == load_bundle(before.decode())["digest"]
    # the same new scores as the log's own regrade (service.regrade) gives these episodes
    db = open_database(recorded["url"])
    try:
        dry = regrade(Auditor(db), EpisodeFilter(run_id=recorded["test_run"]), dry_run=True,
                      grader_version=V3_0)
    finally:
        db.dispose()
    by_id = {e["episode_id"]: e for e in report["episodes"]}
    assert dry["changed"] == report["changed"]
    for change in dry["changes"]:
        assert by_id[change["episode_id"]]["new_score"] == change["new_score"]
    assert report["difference"]["mean_score"]["difference"]["value"] == pytest.approx(
        report["regraded"]["figures"]["mean_score"]["value"]
        - report["original"]["figures"]["mean_score"]["value"], abs=2e-4)
    assert path.read_bytes() == before and verify_bundle(load_bundle(before.decode()))["ok"]


def test_a_bundle_that_does_not_verify_is_not_re_graded(bundle: dict[str, Any]) -> None:
    bundle["episodes"][0]["score"] = 0.5
    with pytest.raises(BundleError, match=r"does not verify .* first: score"):
        regrade_bundle(resealed(bundle), V3_0)


def test_a_run_without_episodes_here_cannot_be_bundled(recorded: dict[str, Any]) -> None:
    db = open_database(recorded["url"])
    try:
        with pytest.raises(Exception, match="no run 'run_nope'"):
            build_bundle(Auditor(db), "run_nope")
    finally:
        db.dispose()
