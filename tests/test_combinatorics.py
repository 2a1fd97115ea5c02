"""Monte Carlo shapes at the deal against exact hypergeometric sums over the 80-card deck.

P(count vector c) for an m-card hand is prod_k C(4, c_k) / C(80, m) (20 kinds, four copies each):
the sums below run over all count vectors with a DP on (cards, 提, 坎). Tolerance: 4 exact
standard errors sqrt(p(1-p)/n) of the estimate.
"""

from math import comb, sqrt

import pytest

import zipai_sim as zs


def shape_distribution(m: int) -> dict[tuple[int, int], float]:
    """{(提, 坎): probability} for an m-card hand from the 80-card deck."""
    dp = {(0, 0, 0): 1}  # (cards, ti, kan) -> number of hands (as a weight)
    for _ in range(20):
        nxt: dict[tuple[int, int, int], int] = {}
        for (n, t, k), w in dp.items():
            for c in range(5):
                if n + c > m:
                    break
                key = (n + c, t + (c == 4), k + (c == 3))
                nxt[key] = nxt.get(key, 0) + w * comb(4, c)
        dp = nxt
    total = comb(80, m)
    out: dict[tuple[int, int], float] = {}
    for (n, t, k), w in dp.items():
        if n == m:
            out[(t, k)] = out.get((t, k), 0) + w / total
    return out


def prob(dist, pred):
    return sum(p for (t, k), p in dist.items() if pred(t, k))


def test_exact_sums_are_distributions():
    for m in (20, 21):
        assert sum(shape_distribution(m).values()) == pytest.approx(1.0, abs=1e-12)


def check_rate(result, metric, p):
    """The estimate of ``metric`` is within 4 exact standard errors of ``p``."""
    row = result.summary.filter(result.summary["metric"] == metric).row(0, named=True)
    se = sqrt(p * (1 - p) / row["n"])
    assert abs(row["rate"] - p) <= 4 * se, (metric, row["rate"], p, se)


def check_shapes(n):
    d21, d20 = shape_distribution(21), shape_distribution(20)
    for variant, ti_is_kan in (("guangxi-81", True), ("changsha-paohuzi", False)):
        r = zs.simulate_deals(variant, n, seed=2026, progress=False)
        for seat, dist in ((0, d21), (1, d20), (2, d20)):
            check_rate(r, f"two_ti_seat{seat}", prob(dist, lambda t, k: t == 2))
            check_rate(r, f"santi_seat{seat}", prob(dist, lambda t, k: t >= 3))
            check_rate(r, f"wukan_seat{seat}",
                  prob(dist, lambda t, k: k + (t if ti_is_kan else 0) >= 5))
        check_rate(r, "dealer_two_ti", prob(d21, lambda t, k: t == 2))


def test_shapes_match_exact_probabilities():
    check_shapes(2_000_000)


@pytest.mark.slow
def test_shapes_match_exact_probabilities_large():
    check_shapes(50_000_000)


def test_deal_marginals_match_hypergeometric():
    """`deal` itself: the dealer's count of one kind is hypergeometric(80, 4, 21)."""
    n = 200_000
    hands, _ = zs.deal(n, "guangxi-81", seed=9)
    for kind in (0, 19):
        for c in range(5):
            p = comb(4, c) * comb(76, 21 - c) / comb(80, 21)
            est = float((hands[:, 0, kind] == c).mean())
            assert abs(est - p) <= 4 * sqrt(p * (1 - p) / n) + 1e-12
