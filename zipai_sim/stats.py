"""Intervals and mergeable summaries for Monte Carlo counts."""

from __future__ import annotations

import math

from scipy.stats import binomtest

CONFIDENCE = 0.95


def wilson(count: int, n: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson score interval for ``count`` successes in ``n`` trials (scipy.stats); NaNs for
    ``n == 0``."""
    if n <= 0:
        return math.nan, math.nan
    ci = binomtest(int(count), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    return float(ci.low), float(ci.high)


def mean_se(total: float, total_sq: float, n: int) -> tuple[float, float]:
    """Mean and its standard error from a sum and a sum of squares of ``n`` values (the sample
    standard deviation over √n); NaNs where undefined."""
    if n <= 0:
        return math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, math.nan
    var = max(total_sq - n * mean * mean, 0.0) / (n - 1)
    return mean, math.sqrt(var / n)
