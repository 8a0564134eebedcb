"""The statistics against values worked out by hand or known from tables."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from results import stats


def test_normal_quantiles_are_the_tabled_ones() -> None:
    assert stats.z_quantile(0.975) == pytest.approx(1.959964, abs=1e-6)
    assert stats.z_quantile(0.8) == pytest.approx(0.841621, abs=1e-6)
    with pytest.raises(ValueError):
        stats.z_quantile(1.0)


def test_the_percentile_interval_takes_the_tail_order_statistics() -> None:
    replicates = [float(i) for i in range(1, 2001)]  # 1..2000, shuffled order must not matter
    random.Random(1).shuffle(replicates)
    interval = stats.percentile_interval(5.0, replicates)
    assert (interval.low, interval.high) == (51.0, 1950.0)  # indices 50 and 1949 of the sorted list
    assert interval.estimate == 5.0 and interval.level == 0.95


def test_a_bootstrap_of_two_units_has_the_exact_resampling_distribution() -> None:
    """Resampling [0, 1] twice gives means 0, 1/2, 1 with chances 1/4, 1/2, 1/4: the 95% interval
    is [0, 1] and about half the replicates are 1/2."""
    interval = stats.mean_interval([0.0, 1.0])
    assert (interval.estimate, interval.low, interval.high) == (0.5, 0.0, 1.0)
    draws = stats.bootstrap_indices(2, resamples=4000)
    share = sum(sorted(d) == [0, 1] for d in draws) / len(draws)
    assert share == pytest.approx(0.5, abs=0.03)


def test_the_bootstrap_is_seeded_and_agrees_with_the_normal_interval() -> None:
    rng = random.Random(7)
    values = [rng.gauss(0.6, 0.2) for _ in range(400)]
    first, again = stats.mean_interval(values), stats.mean_interval(values)
    assert first == again  # the same outcomes print the same interval
    other_seed = stats.mean_interval(values, seed=1)
    assert other_seed != first
    half = 1.959964 * statistics.stdev(values) / math.sqrt(len(values))  # about 0.0196
    assert first.low == pytest.approx(first.estimate - half, abs=0.004)
    assert first.high == pytest.approx(first.estimate + half, abs=0.004)


def test_constant_units_give_a_zero_width_interval() -> None:
    interval = stats.mean_interval([0.9] * 12)
    assert interval.low == interval.high == pytest.approx(0.9)


def test_pass_hat_is_the_unbiased_combinatorial_estimate() -> None:
    assert [stats.pass_hat(4, 3, k) for k in (1, 2, 3, 4)] == [0.75, 0.5, 0.25, 0.0]
    assert stats.pass_hat(5, 2, 2) == pytest.approx(1 / 10)
    with pytest.raises(ValueError):
        stats.pass_hat(2, 1, 3)


def test_flip_rate_counts_units_whose_trials_disagree() -> None:
    assert stats.flip_rate([[True, True], [True, False], [False, False], [False, True, True]]) == 0.5
    assert stats.flip_rate([[True], [False]]) is None  # one trial cannot flip
    assert stats.flip_rate([[True], [True, False]]) == 1.0  # single-trial units are left out


def test_within_variance_pools_each_units_sample_variance() -> None:
    # variances 0.5 ([0, 1]) and 0 ([1, 1]): the pooled value is their mean
    assert stats.within_variance([[0.0, 1.0], [1.0, 1.0], [0.3]]) == pytest.approx(0.25)
    assert stats.within_variance([[0.5], [0.2]]) is None


def test_noise_floor_is_z_times_the_sd_of_a_difference_of_two_runs() -> None:
    # s^2 = 0.25, 100 units, 1 trial: 1.96 * sqrt(2 * 0.25 / 100) = 0.13859
    assert stats.noise_floor(0.25, 100, 1) == pytest.approx(0.138590, abs=1e-5)
    assert stats.noise_floor(0.25, 100, 4) == pytest.approx(0.138590 / 2, abs=1e-5)
    assert stats.noise_floor(0.0, 10, 3) == 0.0


def test_the_sign_flip_test_is_exact_for_few_units() -> None:
    # 4 positive differences: only all-plus and all-minus reach |sum| 10 of 16 assignments
    assert stats.sign_flip_p_value([1.0, 2.0, 3.0, 4.0]) == 2 / 16
    # [1, -1]: every assignment has |sum| >= 0
    assert stats.sign_flip_p_value([1.0, -1.0]) == 1.0
    # zeros are left out: the same as [1, 2, 3, 4]
    assert stats.sign_flip_p_value([0.0, 1.0, 0.0, 2.0, 3.0, 4.0]) == 2 / 16
    assert stats.sign_flip_p_value([0.0, 0.0]) == 1.0
    # equal magnitudes reduce to the sign test: 6 of 6 positive -> 2 / 64
    assert stats.sign_flip_p_value([0.5] * 6) == pytest.approx(stats.sign_test_p_value(6, 0))
    assert stats.sign_test_p_value(6, 0) == 2 / 64


def test_the_sign_flip_test_samples_when_there_are_many_units() -> None:
    rng = random.Random(3)
    null = [rng.choice((-1, 1)) * rng.random() for _ in range(60)]
    shifted = [abs(d) + 0.05 for d in null]
    assert stats.sign_flip_p_value(null) > 0.05
    p = stats.sign_flip_p_value(shifted)
    assert 0 < p < 0.001  # the observed assignment counts, so never 0
    assert p == stats.sign_flip_p_value(shifted)  # seeded


def test_the_sign_test_matches_the_binomial_table() -> None:
    # 9 of 10 one way: 2 * (1 + 10) / 1024
    assert stats.sign_test_p_value(9, 1) == pytest.approx(22 / 1024)
    assert stats.sign_test_p_value(5, 5) == 1.0
    assert stats.sign_test_p_value(0, 0) == 1.0


def test_the_minimum_detectable_difference_is_the_power_formula() -> None:
    # (1.959964 + 0.841621) * 1 / sqrt(100)
    assert stats.min_detectable_difference(1.0, 100) == pytest.approx(0.2801585, abs=1e-6)
    assert stats.min_detectable_difference(0.3, 25) == pytest.approx(2.801585 * 0.3 / 5, abs=1e-6)
    with pytest.raises(ValueError):
        stats.min_detectable_difference(1.0, 0)
