"""The small statistics behind every reported figure: intervals, flips, noise floors, paired tests.

Everything here is a pure function of numbers, written plainly with the standard library (the
normal quantiles come from :class:`statistics.NormalDist`), so the same inputs give the same
answer on every machine: the bootstrap draws from :class:`random.Random` seeded with a fixed
number, which is what makes a run print the same interval every time it is shown.

*Units* are the independent things an evaluation samples: task instances (a task at a seed). A
unit holds the outcomes of its trials, which are not independent of each other (the same ticket
played k times), so intervals resample whole units (a cluster bootstrap), never single episodes.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

LEVEL = 0.95
"""The confidence level of every interval and the two-sided level of every test (alpha 0.05)."""
POWER = 0.80
"""The power the minimum detectable difference is stated at."""
RESAMPLES = 2000
"""Bootstrap resamples per interval: the percentile interval's ends move by well under a
hundredth between seeds at this count."""
SEED = 20240601
"""The bootstrap's fixed seed: the same outcomes always give the same interval."""
PERMUTATIONS = 20000
"""Random sign flips of the paired test when there are too many units to enumerate them all."""
EXACT_UNITS = 16
"""Up to this many non-zero paired differences the sign-flip test enumerates every assignment
(2^16), so its p-value is exact."""


@dataclass(frozen=True)
class Interval:
    """A two-sided interval around ``estimate`` at ``level``."""

    estimate: float
    low: float
    high: float
    level: float = LEVEL

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def to_json(self) -> dict[str, Any]:
        return {"value": round(self.estimate, 4), "low": round(self.low, 4),
                "high": round(self.high, 4), "level": self.level}

    def text(self, digits: int = 4) -> str:
        """``0.9078 [0.8912, 0.9231]``: the estimate and its interval."""
        return f"{self.estimate:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"


def z_quantile(p: float) -> float:
    """The standard normal quantile: ``z_quantile(0.975)`` is 1.959963984540054."""
    if not 0 < p < 1:
        raise ValueError(f"a quantile needs 0 < p < 1, not {p}")
    return statistics.NormalDist().inv_cdf(p)


def percentile_interval(estimate: float, replicates: Sequence[float],
                        level: float = LEVEL) -> Interval:
    """The percentile interval of bootstrap ``replicates``: the (1-level)/2 and (1+level)/2 order
    statistics (lower and upper, by index, no interpolation)."""
    if not replicates:
        raise ValueError("a percentile interval needs at least one replicate")
    ordered = sorted(replicates)
    b = len(ordered)
    tail = (1 - level) / 2
    low = ordered[max(0, math.floor(tail * b))]
    high = ordered[min(b - 1, math.ceil((1 - tail) * b) - 1)]
    return Interval(estimate, low, high, level)


def bootstrap(units: Sequence[Any], statistic: Callable[[Sequence[Any]], float], *,
              resamples: int = RESAMPLES, seed: int = SEED, level: float = LEVEL) -> Interval:
    """A percentile bootstrap interval of ``statistic`` over ``units``, resampled whole with
    replacement: ``statistic(units)`` is the estimate, ``resamples`` draws of ``len(units)`` units
    give the interval. Seeded, so it is reproducible."""
    if not units:
        raise ValueError("a bootstrap needs at least one unit")
    rng = random.Random(seed)
    n = len(units)
    replicates = []
    for _ in range(resamples):
        replicates.append(statistic([units[i] for i in _draw(rng, n)]))
    return percentile_interval(statistic(units), replicates, level)


def _draw(rng: random.Random, n: int) -> list[int]:
    """``n`` indices from ``range(n)`` with replacement."""
    return [math.floor(rng.random() * n) for _ in range(n)]


def bootstrap_indices(n: int, *, resamples: int = RESAMPLES, seed: int = SEED) -> list[list[int]]:
    """The index draws :func:`bootstrap` makes, for a caller that computes several statistics
    from the same resamples (so their intervals come from one set of draws)."""
    rng = random.Random(seed)
    return [_draw(rng, n) for _ in range(resamples)]


def mean_interval(values: Sequence[float], **kwargs: Any) -> Interval:
    """The bootstrap interval of a plain mean (each value one unit)."""
    return bootstrap(list(values), statistics.fmean, **kwargs)


# ----------------------------------------------------------------------------------- pass^k
def pass_hat(n: int, c: int, k: int) -> float:
    """pass^k from ``n`` trials of one variant, ``c`` of them successes: C(c,k)/C(n,k), the chance
    that k trials drawn from the n all succeeded (unbiased; tau2-bench's estimator). k <= n."""
    if not 1 <= k <= n or not 0 <= c <= n:
        raise ValueError(f"pass^k needs 1 <= k <= n and 0 <= c <= n, not n={n} c={c} k={k}")
    return math.comb(c, k) / math.comb(n, k)


# ----------------------------------------------------------------------------- trial noise
def flipped(outcomes: Sequence[bool]) -> bool:
    """Whether a unit's trials disagree (some succeeded, some did not)."""
    return len(set(outcomes)) > 1


def flip_rate(units: Sequence[Sequence[bool]]) -> float | None:
    """The share of units with at least two trials whose trials disagree on success; None when no
    unit has two trials (one trial cannot flip)."""
    repeated = [u for u in units if len(u) >= 2]
    if not repeated:
        return None
    return sum(flipped(u) for u in repeated) / len(repeated)


def within_variance(units: Sequence[Sequence[float]]) -> float | None:
    """The trial-to-trial variance of one unit's outcome, pooled over units: the mean of each
    repeated unit's sample variance (unbiased for the common within-unit variance). None when no
    unit has two trials."""
    repeated = [u for u in units if len(u) >= 2]
    if not repeated:
        return None
    return statistics.fmean(statistics.variance(u) for u in repeated)


def noise_floor(variance_within: float, units: int, trials: int, level: float = LEVEL) -> float:
    """The difference between two runs of the same agent, each of ``units`` units x ``trials``
    trials, that chance alone exceeds only 1 - ``level`` of the time: z * sqrt(2 s^2 / (k n)).

    The two runs share their units, so only the trials' own variation separates them; a
    difference smaller than this between two agents is not evidence that they differ."""
    if units < 1 or trials < 1:
        raise ValueError("a noise floor needs at least one unit and one trial")
    return z_quantile((1 + level) / 2) * math.sqrt(2 * variance_within / (trials * units))


# -------------------------------------------------------------------------------- paired
def sign_flip_p_value(differences: Sequence[float], *, permutations: int = PERMUTATIONS,
                      seed: int = SEED) -> float:
    """The two-sided p-value of the paired sign-flip (permutation) test of a zero mean difference.

    Under the null hypothesis each unit's difference is as likely to have either sign, so the
    p-value is the share of sign assignments whose |sum| is at least the observed |sum|. Zero
    differences cannot change sign and are left out. Exact (every assignment) up to
    :data:`EXACT_UNITS` non-zero differences; above that ``permutations`` seeded random
    assignments, counting the observed one (so the p-value is never 0)."""
    nonzero = [d for d in differences if d != 0]
    if not nonzero:
        return 1.0
    observed = abs(math.fsum(nonzero)) - 1e-12 * (1 + sum(abs(d) for d in nonzero))
    if len(nonzero) <= EXACT_UNITS:
        hits = sum(abs(math.fsum(s * d for s, d in zip(signs, nonzero, strict=True))) >= observed
                   for signs in itertools.product((1, -1), repeat=len(nonzero)))
        return hits / float(2 ** len(nonzero))
    rng = random.Random(seed)
    hits = sum(abs(math.fsum(d if rng.random() < 0.5 else -d for d in nonzero)) >= observed
               for _ in range(permutations))
    return (hits + 1) / (permutations + 1)


def sign_test_p_value(positive: int, negative: int) -> float:
    """The two-sided exact sign test (binomial, p = 1/2) of ``positive`` against ``negative``
    units (ties left out): how often a fair coin splits at least this unevenly."""
    n = positive + negative
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(positive, negative) + 1)) / float(2 ** n)
    return min(1.0, 2 * tail)


def min_detectable_difference(sd: float, units: int, *, level: float = LEVEL,
                              power: float = POWER) -> float:
    """The smallest true mean difference a paired comparison of ``units`` units, whose per-unit
    differences have standard deviation ``sd``, finds significant at ``level`` with ``power``:
    (z_(1+level)/2 + z_power) * sd / sqrt(n)."""
    if units < 1:
        raise ValueError("a detectable difference needs at least one unit")
    return (z_quantile((1 + level) / 2) + z_quantile(power)) * sd / math.sqrt(units)
