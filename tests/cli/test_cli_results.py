"""``ticketledger compare``, ``noise`` and ``runs show`` on real runs of ``inference.py``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from tests.results.runs import hard_test_run, play


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    where = tmp_path_factory.mktemp("compare")
    url = f"sqlite:///{where / 'log.db'}"
    return {"url": url, "a": hard_test_run(url, where),
            "short": hard_test_run(url, where, "--max-steps", "4"),
            "sparse": hard_test_run(url, where, REWARD_MODE="sparse"),
            "fewer": play(url, where, "--split", "test", "--tasks", "task_family_complaint",
                          "--limit", "4", "--trials", "2")}


def run_cli(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(["--database-url", url, *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_compare_pairs_two_runs_and_names_the_changed_verdicts(
        runs: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, runs["url"], "compare", runs["a"], runs["short"], "--json")
    assert status == 0, out
    result = json.loads(out)
    assert (result["units"], result["paired_episodes"], result["trials"]) == (6, 12, 2)
    score = result["mean_score"]
    assert score["difference"]["low"] <= score["difference"]["value"] <= score["difference"]["high"]
    assert score["difference"]["value"] == pytest.approx(score["a"] - score["b"], abs=2e-4)
    assert 0 < score["p_value"] <= 1 and score["min_detectable_difference"] >= 0
    # four steps cannot resolve a complaint: every episode a won is lost in b, none the other way
    _, shown, _ = run_cli(capsys, runs["url"], "runs", "show", runs["a"], "--json")
    won = {(e["task_id"], e["seed"], e["trial"]) for e in json.loads(shown)["summary"]["episodes"]
           if e["success"]}
    assert won, "the policy wins some complaint instances in full"
    assert {(c["task_id"], c["seed"], c["trial"]) for c in result["changed_verdicts"]} == won
    assert (result["changed_to_success"], result["changed_to_failure"]) == (len(won), 0)
    assert result["success_rate"]["difference"]["value"] == pytest.approx(len(won) / 12, abs=1e-4)
    status, text, _ = run_cli(capsys, runs["url"], "compare", runs["a"], runs["short"])
    assert status == 0 and "A - B [95% INTERVAL]" in text and "P (PAIRED)" in text
    assert "verdict(s) changed" in text


def test_a_run_compared_with_itself_shows_no_difference(runs: dict[str, str],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, runs["url"], "compare", runs["a"], runs["a"], "--json")
    result = json.loads(out)
    assert status == 0 and result["changed_verdicts"] == []
    assert result["mean_score"]["difference"] == {"value": 0.0, "low": 0.0, "high": 0.0, "level": 0.95}
    assert result["mean_score"]["p_value"] == 1.0


@pytest.mark.parametrize(("other", "reason"), [
    ("fewer", "different task sets: 2 instance(s) only in a"),
    ("sparse", "different reward modes: a has dense, b has sparse"),
])
def test_compare_refuses_runs_that_are_not_comparable(runs: dict[str, str], other: str, reason: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(capsys, runs["url"], "compare", runs["a"], runs[other])
    assert status == 1 and out == ""
    assert "are not comparable" in err and reason in err
    status, out, _ = run_cli(capsys, runs["url"], "compare", runs["a"], runs[other], "--json")
    assert status == 1 and json.loads(out)["error"]["code"] == "not_comparable"


def test_compare_names_an_unknown_run(runs: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, runs["url"], "compare", runs["a"], "run_missing")
    assert status == 1 and "no run 'run_missing'" in err


def test_noise_reports_the_floor_from_the_runs_trials(runs: dict[str, str],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, runs["url"], "noise", runs["a"], "--json")
    result: dict[str, Any] = json.loads(out)
    assert status == 0 and result["units"] == 6 and result["episodes"] == 12
    floor = result["noise_floor"]
    # the built-in policy is deterministic: its trials agree, so its floor is 0
    assert floor["known"] and floor["mean_score"]["this_size"] == 0.0 and result["flip_rate"] == 0.0
    status, text, _ = run_cli(capsys, runs["url"], "noise", runs["a"])
    assert status == 0 and "FLOOR (6 X 2 TRIALS)" in text


def test_runs_show_prints_each_figure_with_its_interval(runs: dict[str, str],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(capsys, runs["url"], "runs", "show", runs["a"], "--json")
    shown = json.loads(out)
    figures = shown["figures"]
    assert status == 0 and figures["units"] == 6
    assert figures["mean_score"]["value"] == shown["summary"]["mean_score"]
    assert figures == shown["summary"]["uncertainty"]  # the log gives what the runner printed
    status, text, _ = run_cli(capsys, runs["url"], "runs", "show", runs["a"])
    mean = figures["mean_score"]
    assert f"mean score {mean['value']:.4f} [{mean['low']:.4f}, {mean['high']:.4f}]" in text
    assert "flip rate over trials: 0.00" in text and "FLIP_RATE" in text


def test_a_bundle_of_an_unknown_run_is_refused(runs: dict[str, str], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, runs["url"], "bundle", "run_missing", "-o", str(tmp_path / "b.json"))
    assert status == 1 and "no run 'run_missing'" in err and not (tmp_path / "b.json").exists()
