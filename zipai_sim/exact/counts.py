"""Exact distributions of 提 and 坎 counts at the deal (RULES.md §6, §8 second table).

Two independent computations of the same numbers, so each checks the other:

- ``ti_kan_closed``: a closed form. A hand of ``n`` cards from the 80-card deck holds exactly
  ``t`` 提 and ``k`` 坎 in
  ``C(20, t) C(20 - t, k) 4^k [x^(n - 4t - 3k)] (1 + 4x + 6x²)^(20 - t - k)`` of its
  ``C(80, n)`` equally likely card sets (choose the four-of kinds, the three-of kinds and which
  three copies, then at most two copies of every other kind).
- ``count_dp``: a kind-by-kind enumeration of count vectors (any deck composition) that also
  carries the dealer's 亮张 and the 翻信 numerators of instant wins.
"""

from __future__ import annotations

from math import comb


def _poly_pow(base: list[int], e: int, upto: int) -> list[int]:
    out = [1] + [0] * upto
    for _ in range(e):
        nxt = [0] * (upto + 1)
        for i, a in enumerate(out):
            if a:
                for j, b in enumerate(base):
                    if i + j <= upto:
                        nxt[i + j] += a * b
        out = nxt
    return out


def ti_kan_closed(n: int) -> dict[tuple[int, int], int]:
    """``{(t, k): number of n-card sets of the 80-card deck with exactly t 提 and k 坎}``; the
    values sum to ``C(80, n)``."""
    out = {}
    for t in range(6):
        for k in range(8):
            rest = n - 4 * t - 3 * k
            if rest < 0 or t + k > 20:
                continue
            coef = _poly_pow([1, 4, 6], 20 - t - k, rest)[rest]
            if coef:
                out[(t, k)] = comb(20, t) * comb(20 - t, k) * 4 ** k * coef
    return out


def count_dp(n: int, copies: list[int], lz: bool = False, fx: int = 0, excl: int = 0) -> dict:
    """Enumerate count vectors of ``n`` cards kind by kind, grouped by ``(t, k, c_lz)``.

    copies: cards per kind (20 entries). With ``lz`` the 亮张 is one of the ``n`` cards (weight
    ``c`` on a kind held ``c`` times, so the weights sum to ``n C(deck, n)``) and ``c_lz`` is the
    count of its kind (0 without ``lz``). With ``fx`` (1 本醒, 2 跟醒) each group also carries
    the 翻信 numerators ``f[x]`` (× unseen cards): the turned card is uniform over the cards not
    in the hand (本醒: its kind's count, less ``excl`` if it is the 亮张's kind; 跟醒: the 亮张's
    kind).
    Returns ``{(t, k, c_lz): [weight, f0, f1, f2, f3, f4]}`` (Python ints).
    """
    width = 6 if fx else 1
    states: dict = {(0, 0, 0, 0): [1] + [0] * (width - 1)}
    left = sum(copies)
    for q in copies:
        left -= q
        nxt: dict = {}
        for (m, t, k, cl), vec in states.items():
            for c in range(q + 1):
                mm = m + c
                if mm > n or mm + left < n:
                    continue
                a = comb(q, c)
                tt = t + (c == 4)
                kk = k + (c == 3)
                opts = [(cl, a, False)]
                if lz and cl == 0 and c > 0:
                    opts.append((c, a * c, True))
                for ncl, wgt, here in opts:
                    key = (mm, tt, kk, ncl)
                    cur = nxt.get(key)
                    if cur is None:
                        cur = nxt[key] = [0] * width
                    cur[0] += vec[0] * wgt
                    for x in range(1, width):
                        cur[x] += vec[x] * wgt
                    if fx == 1 and q - c > 0:
                        val = min(c - (excl if here else 0), 4)
                        cur[1 + val] += vec[0] * wgt * (q - c)
        states = nxt
    unseen = sum(copies) - n
    out: dict = {}
    for (m, t, k, cl), vec in states.items():
        if lz and cl == 0:
            continue  # the 亮张 is one of the n cards
        if fx == 2 and cl > 0:
            vec = vec[:1] + [0] * 5
            vec[1 + min(cl - excl, 4)] = vec[0] * unseen
        cur = out.setdefault((t, k, cl), [0] * width)
        for x in range(width):
            cur[x] += vec[x]
    return out
