"""The fair-setting search on an integer knob (issue 41): where does a metric cross its target?

``bracket_search`` knows nothing of 字牌: it asks ``evaluate(x, n)`` for the per-hand values of
the metric at knob value ``x`` on the first ``n`` decks (the same decks for every ``x``: common
random numbers) and spends hands where the answer is uncertain:

1. **A sign decision** at ``x``: is the metric's mean above or below ``target``? Hands are added
   in doubling steps (``start``, 2·``start``, … up to ``max_n``); at the ``k``-th look the normal
   interval is taken at level ``α_d / (k (k + 1))``, so that over all its looks a decision is
   wrong with chance at most ``α_d`` (a union bound: Σ 1/(k(k+1)) = 1). The decision stops when
   the interval leaves the target ("above" / "below"), when it lies within ``±tol`` of it ("on
   target", if ``tol`` is given), or with "unknown" when ``max_n`` hands do not tell.
2. **Bisection**: both ends first (the same sign at both: no value in the range meets the
   target), then the middle of the bracket until the two values around the crossing are
   adjacent integers. ``α_d = α / D`` with ``D`` the most decisions the search can take, so that
   every decision holds together with chance ≥ 1 − ``α``.
3. **The crossing** between the adjacent values ``a`` and ``a + 1`` (or, when a value inside
   the bracket stayed undecided, between the bracket's ends, each then played on as many hands
   as the undecided value), on the decks both were played on: ``x* = a + w*`` where
   ``(1 − w) m_a + w m_b`` meets the target, and its 95% interval (at ``1 − α``) the ``w``
   where that combination's paired interval holds the target (Fieller's interval, read on a
   grid of 2,001 points); "closer" is the value the target is nearer to.

A metric that is not monotone in the knob may cross more than once: the search finds one
crossing, between two values whose signs it has shown to differ.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

Evaluate = Callable[[int, int], np.ndarray]


@dataclass
class Point:
    """One knob value's evidence: ``n`` hands, their mean and standard error, the last look's
    interval and the decision (``above``, ``below``, ``on target``, ``unknown``)."""

    x: int
    n: int = 0
    mean: float = math.nan
    se: float = math.nan
    ci_low: float = math.nan
    ci_high: float = math.nan
    looks: int = 0
    decision: str = ""


@dataclass
class Answer:
    """The search's answer. ``status``: ``crossing`` (between ``below`` and ``above``, adjacent
    integers: ``estimate`` with ``ci_low``/``ci_high`` and the ``closer`` value), ``on target``
    (``estimate`` is a value whose metric is within ``tol`` of the target), ``none in range``
    (the metric is on one side of the target at both ends: ``side``), ``unknown`` (a decision
    ran out of hands: at an end, no bracket; inside, at ``undecided``, the bracket so far is
    ``below``/``above`` and ``estimate`` interpolates between them). ``points``: every value
    looked at, in the order looked; ``hands``: the hands played, over all values."""

    status: str
    points: list[Point] = field(default_factory=list)
    below: int | None = None
    above: int | None = None
    estimate: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    closer: int | None = None
    closer_sure: bool = False
    side: str = ""
    n_common: int = 0
    undecided: int | None = None

    @property
    def hands(self) -> int:
        """The hands played at every value looked at, added up."""
        return sum(p.n for p in self.points)


def _z(alpha: float) -> float:
    from scipy.stats import norm

    return float(norm.isf(alpha / 2))


def _stats(v: np.ndarray) -> tuple[float, float]:
    n = len(v)
    if n < 2:
        return math.nan, math.nan
    s, sq = float(v.sum()), float((v.astype(np.float64) ** 2).sum())
    return s / n, math.sqrt(max(n * sq - s * s, 0.0) / (n * (n - 1)) / n)


def decide(evaluate: Evaluate, p: Point, target: float, alpha: float, tol: float | None,
           start: int, max_n: int) -> Point:
    """Look at ``p.x`` with more hands until its sign is known (module docstring, step 1)."""
    n = max(start, p.n)
    while True:
        vals = evaluate(p.x, n)
        p.n, p.looks = len(vals), p.looks + 1
        p.mean, p.se = _stats(vals)
        half = _z(alpha / (p.looks * (p.looks + 1))) * p.se
        p.ci_low, p.ci_high = p.mean - half, p.mean + half
        if p.ci_low > target:
            p.decision = "above"
        elif p.ci_high < target:
            p.decision = "below"
        elif tol is not None and target - tol <= p.ci_low and p.ci_high <= target + tol:
            p.decision = "on target"
        elif p.n >= max_n:
            p.decision = "unknown"
        else:
            n = min(2 * p.n, max_n)
            continue
        return p


def _crossing(evaluate: Evaluate, a: Point, b: Point, target: float, alpha: float,
              ans: Answer) -> None:
    n = min(a.n, b.n)
    ma, mb = evaluate(a.x, n).astype(np.float64), evaluate(b.x, n).astype(np.float64)
    fa, fb = ma.mean() - target, mb.mean() - target
    w_star = fa / (fa - fb)
    w = np.linspace(0.0, 1.0, 2001)
    g = (1 - w)[:, None] * (ma - target) + w[:, None] * (mb - target)
    mean = g.mean(axis=1)
    se = g.std(axis=1, ddof=1) / math.sqrt(n)
    inside = w[np.abs(mean) <= _z(alpha) * se]
    lo, hi = (inside.min(), inside.max()) if len(inside) else (w_star, w_star)
    ans.estimate = a.x + w_star * (b.x - a.x)
    ans.ci_low, ans.ci_high = a.x + lo * (b.x - a.x), a.x + hi * (b.x - a.x)
    ans.closer = a.x if w_star < 0.5 else b.x
    ans.closer_sure = bool(hi < 0.5 or lo > 0.5)
    ans.n_common = n


def bracket_search(evaluate: Evaluate, lo: int, hi: int, target: float, *,
                   alpha: float = 0.05, tol: float | None = None, start: int = 4096,
                   max_n: int = 1 << 20, answer: Answer | None = None) -> Answer:
    """The value of an integer knob in ``[lo, hi]`` where the metric ``evaluate`` measures
    crosses ``target`` (module docstring). ``evaluate(x, n)``: ``float[n]`` or ``int[n]``, the
    metric on the first ``n`` decks at knob value ``x`` (the first ``n`` of a longer call must
    be the same values). ``answer``: an ``Answer`` to fill as the search goes (so that a caller
    whose ``evaluate`` raises keeps the points looked at). Raises ValueError for ``lo ≥ hi``,
    ``alpha`` outside (0, 1), a negative ``tol`` or sizes below 2."""
    if not (isinstance(lo, int) and isinstance(hi, int)) or lo >= hi:
        raise ValueError(f"the range must be two integers lo < hi, got {lo!r}, {hi!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha!r}")
    if tol is not None and tol < 0:
        raise ValueError(f"tol must be ≥ 0, got {tol!r}")
    if start < 2 or max_n < start:
        raise ValueError(f"need 2 ≤ start ≤ max_n, got start={start}, max_n={max_n}")
    decisions = 2 + max(0, math.ceil(math.log2(hi - lo)))
    a_d = alpha / decisions
    ans = answer if answer is not None else Answer(status="")
    pts: dict[int, Point] = {}

    def look(x: int) -> Point:
        p = decide(evaluate, pts.setdefault(x, Point(x)), target, a_d, tol, start, max_n)
        if p not in ans.points:
            ans.points.append(p)
        return p

    left, right = look(lo), look(hi)
    for p in (left, right):
        if p.decision == "on target":
            ans.status, ans.estimate = "on target", float(p.x)
            return ans
    if "unknown" in (left.decision, right.decision):
        ans.status = "unknown"
        return ans
    if left.decision == right.decision:
        ans.status, ans.side = "none in range", left.decision
        return ans
    while right.x - left.x > 1:
        mid = look((left.x + right.x) // 2)
        if mid.decision == "on target":
            ans.status, ans.estimate = "on target", float(mid.x)
            return ans
        if mid.decision == "unknown":
            ans.status, ans.undecided = "unknown", mid.x
            break
        if mid.decision == left.decision:
            left = mid
        else:
            right = mid
    up = left if left.decision == "above" else right
    down = right if up is left else left
    ans.above, ans.below = up.x, down.x
    if ans.status != "unknown":
        ans.status = "crossing"
    else:  # the bracket's ends on as many hands as the undecided value, for the interpolation
        for p in (left, right):
            vals = evaluate(p.x, max(p.n, pts[ans.undecided].n))
            p.n, p.looks = len(vals), p.looks + 1
            p.mean, p.se = _stats(vals)
            half = _z(a_d / (p.looks * (p.looks + 1))) * p.se
            p.ci_low, p.ci_high = p.mean - half, p.mean + half
    _crossing(evaluate, left, right, target, alpha, ans)
    if right.x - left.x > 1:  # a wider bracket: the nearest whole value, never sure
        ans.closer, ans.closer_sure = round(ans.estimate), False
    return ans
