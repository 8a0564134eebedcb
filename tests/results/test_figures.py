"""A run's figures and the comparison of two runs, from outcomes whose answers are known."""

from __future__ import annotations

import pytest

from results.figures import NotComparable, Outcome, RunFacts, compare, figures


def outcomes(table: dict[tuple[str, int | None], list[float]], threshold: float = 0.8) -> list[Outcome]:
    return [Outcome(task, seed, trial, score, score >= threshold)
            for (task, seed), scores in table.items() for trial, score in enumerate(scores)]


def test_estimates_are_the_summary_figures_and_their_intervals_contain_them() -> None:
    run = outcomes({("a", 0): [0.9, 0.7], ("a", 1): [0.9, 0.9], ("b", 0): [0.5, 0.5],
                    ("b", 1): [1.0, 0.85]})
    f = figures(run, 2)
    assert f["units"] == 4 and f["episodes"] == 8
    assert f["mean_score"]["value"] == pytest.approx(round(sum(o.score for o in run) / 8, 4))
    assert f["success_rate"]["value"] == 5 / 8
    # pass^2: a = mean(0, 1) = 0.5, b = mean(0, 1) = 0.5; pass^1: a = 0.75, b = 0.5 -> 0.625
    assert f["pass_hat"]["2"]["value"] == 0.5 and f["pass_hat"]["1"]["value"] == 0.625
    for name in ("mean_score", "success_rate"):
        assert f[name]["low"] <= f[name]["value"] <= f[name]["high"]
        assert f[name]["low"] < f[name]["high"]
    assert f["flip_rate"] == 0.25 and (f["flipped_units"], f["repeated_units"]) == (1, 4)
    assert f["task_flip_rates"] == {"a": 0.5, "b": 0.0}
    assert figures(run, 2) == f  # seeded: the same run shows the same intervals


def test_the_noise_floor_comes_from_the_trials() -> None:
    steady = figures(outcomes({("a", s): [0.9, 0.9, 0.9] for s in range(5)}), 3)
    assert steady["noise_floor"]["mean_score"]["this_size"] == 0.0  # identical trials: no noise
    shaky = figures(outcomes({("a", s): [1.0, 0.0] for s in range(8)}), 2)
    floor = shaky["noise_floor"]["success_rate"]
    # each unit's trials have variance 0.5: 1.96 * sqrt(2 * 0.5 / (2 * 8)) = 0.49
    assert floor["this_size"] == pytest.approx(0.49, abs=1e-3)
    assert floor["single_trial"] == pytest.approx(0.6930, abs=1e-3)
    once = figures(outcomes({("a", 0): [0.9]}), 1)
    assert once["noise_floor"]["known"] is False and "--trials 2" in once["noise_floor"]["reason"]
    assert once["flip_rate"] is None


def test_compare_pairs_by_instance_and_trial() -> None:
    base = {("a", s): [0.5, 0.5] for s in range(6)}
    better = {("a", s): [0.9, 0.9] for s in range(6)}
    c = compare(RunFacts("A", tuple(outcomes(better))), RunFacts("B", tuple(outcomes(base))))
    score = c["mean_score"]
    assert score["difference"]["value"] == pytest.approx(0.4)
    assert score["p_value"] == 2 / 64  # 6 instances all better: exact
    assert score["min_detectable_difference"] == 0.0  # every instance moved alike
    assert c["success_rate"]["difference"]["value"] == 1.0
    assert len(c["changed_verdicts"]) == 12 and c["changed_to_success"] == 12
    same = compare(RunFacts("A", tuple(outcomes(base))), RunFacts("B", tuple(outcomes(base))))
    assert same["mean_score"]["p_value"] == 1.0 and same["changed_verdicts"] == []


def test_compare_refuses_runs_that_differ_in_what_they_measured() -> None:
    a = RunFacts("A", tuple(outcomes({("a", 0): [0.9], ("a", 1): [0.9]})), "test", "d1",
                 ("ticketledger-grader/3.1",), ("dense",))
    fewer = RunFacts("B", tuple(outcomes({("a", 0): [0.9]})), "test", "d1",
                     ("ticketledger-grader/3.1",), ("dense",))
    with pytest.raises(NotComparable, match=r"different task sets: 1 instance\(s\) only in A \(a@1\)"):
        compare(a, fewer)
    other = RunFacts("B", a.outcomes, "test", "d2", ("ticketledger-grader/3.0",), ("sparse",))
    with pytest.raises(NotComparable) as refused:
        compare(a, other)
    message = str(refused.value)
    assert "split digests: A has d1, B has d2" in message
    assert "grader versions" in message and "reward modes: A has dense, B has sparse" in message


def test_pass_hat_intervals_stay_within_zero_and_one_when_tasks_have_unequal_variants() -> None:
    # task a has one variant (always solved), task b five (never solved): a resample that draws
    # a's unit often must still average within [0, 1], task by task
    run = outcomes({("a", 0): [1.0, 1.0], **{("b", s): [0.0, 0.0] for s in range(5)}})
    f = figures(run, 2)
    for j in ("1", "2"):
        interval = f["pass_hat"][j]
        assert interval["value"] == 0.5
        assert 0.0 <= interval["low"] <= interval["value"] <= interval["high"] <= 1.0
