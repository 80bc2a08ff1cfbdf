"""Student t intervals and percentiles for the arena's report, in pure Python (no SciPy).

The t distribution's two-sided probability is the finite series for an integer number of
degrees of freedom, and its quantile a bisection on it: exact enough for a 95 % interval and
cheap, since an arena run asks for a handful of them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

CONFIDENCE = 0.95


def _t_two_sided(t: float, df: int) -> float:
    """P(|T| <= t) for Student's t with integer ``df`` (the finite series, exact for t >= 0)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2:  # odd: (2/pi)(theta + sin cos (1 + 2/3 c2 + 2*4/(3*5) c2^2 + ...)), df - 3 terms
        term, total = 1.0, 1.0 if df > 1 else 0.0
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        return 2 / math.pi * (theta + math.sin(theta) * math.cos(theta) * total)
    term, total = 1.0, 1.0  # even: sin (1 + 1/2 c2 + 1*3/(2*4) c2^2 + ...), df / 2 terms
    for k in range(1, df // 2):
        term *= c2 * (2 * k - 1) / (2 * k)
        total += term
    return math.sin(theta) * total


@lru_cache(maxsize=256)
def t_quantile(confidence: float, df: int) -> float:
    """The t with P(|T| <= t) = ``confidence`` (e.g. 12.706 for 0.95 and df 1), by bisection."""
    if df < 1:
        raise ValueError("df must be at least 1")
    lo, hi = 0.0, 1.0
    while _t_two_sided(hi, df) < confidence:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if _t_two_sided(mid, df) < confidence:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def mean_interval(
    values: Sequence[float], confidence: float = CONFIDENCE
) -> tuple[float, list[float] | None]:
    """(mean, [low, high]) of ``values`` with a Student t interval; no interval below 2 values."""
    n = len(values)
    if n == 0:
        return 0.0, None
    mean = math.fsum(values) / n
    if n < 2:
        return mean, None
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(confidence, n - 1) * sd / math.sqrt(n)
    return mean, [mean - half, mean + half]


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..1) of an ascending list."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(q * len(sorted_values)))
    return sorted_values[rank - 1]
