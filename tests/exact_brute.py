"""Brute force of the exact opening table on a reduced deck, in plain Python.

Written from RULES.md §6/§7.3/§9 and the simulate order of events (docs/decisions.md), on top of
the pure-Python reference evaluator only: every dealer hand, 亮张, extra card and turned card is
visited and weighted by its number of card sets. Slow; small decks only.
"""

from fractions import Fraction
from math import comb

from zipai_sim.game import params as p
from zipai_sim.game import reference as ref


def hands(copies, n):
    """Every count vector of ``n`` cards with its number of card sets."""
    kinds = [k for k in range(20) if copies[k] > 0]
    out = []

    def rec(i, left, cur, w):
        if i == len(kinds):
            if left == 0:
                out.append((list(cur), w))
            return
        k = kinds[i]
        for c in range(min(copies[k], left) + 1):
            cur[k] = c
            rec(i + 1, left - c, cur, w * comb(copies[k], c))
        cur[k] = 0

    rec(0, n, [0] * 20, 1)
    return out


def _with(P, threshold):
    q = list(P)
    q[p.THRESHOLD] = threshold
    return tuple(q)


def _fx(cards, win, copies, P):
    """{value: weight} of the 翻信 value, the turned card uniform over the unseen cards."""
    out = {}
    for u in range(20):
        w = copies[u] - cards[u]
        if P[p.FANXING_MATCH] == p.MATCH_GEN:
            w = 1
        if w > 0:
            val = min(ref.fanxing(cards, win, [u], P), 4)
            out[val] = out.get(val, 0) + w
        if P[p.FANXING_MATCH] == p.MATCH_GEN:
            break
    return out


def table(P, copies, thresholds):
    """{(metric, threshold): Fraction} for the metrics of ``zipai_sim.exact.opening._table``."""
    deck = sum(copies)
    L, S = P[p.DEALER_CARDS], P[p.OTHER_CARDS]
    res = {}
    d_den = comb(deck, L)
    complete = 0
    hist = {}
    santi = wukan = 0
    comp = {t: 0 for t in thresholds}
    extra = {t: 0 for t in thresholds}
    fx = {t: [Fraction(0)] * 5 for t in thresholds}
    fx_on = P[p.FANXING] == 1
    for c, w in hands(copies, L):
        hx = ref.best(c, P)[0]
        if hx >= 0:
            complete += w
            hist[hx] = hist.get(hx, 0) + w
        ti = sum(1 for x in c if x == 4)
        for t in range(20):
            if c[t] == 0:
                continue
            wl = Fraction(w * c[t], d_den * L)  # the 亮张 is one of the dealer's cards
            shape = ref.instant(c, P, True, t)
            for th in thresholds:
                Pt = _with(P, th)
                won, cards, win = False, c, t
                if shape == "santi":
                    santi += wl if th == thresholds[0] else 0
                    won = True
                elif shape == "wukan":
                    wukan += wl if th == thresholds[0] else 0
                    won = True
                elif ref.is_win(hx, Pt):
                    comp[th] += wl
                    won = True
                if won:
                    if fx_on:
                        f = _fx(cards, win, copies, Pt)
                        tot = sum(f.values())
                        for val, fw in f.items():
                            fx[th][val] += wl * Fraction(fw, tot)
                    continue
                if ti == 2 and P[p.TWO_TI_EXTRA] == 1:
                    for j in range(20):
                        wj = copies[j] - c[j]
                        if wj <= 0:
                            continue
                        h2 = ref.best(c, Pt, inc=j, inc_self=True)[0]
                        if ref.is_win(h2, Pt):
                            we = wl * Fraction(wj, deck - L)
                            extra[th] += we
                            if fx_on:
                                c2 = list(c)
                                c2[j] += 1
                                f = _fx(c2, j, copies, Pt)
                                tot = sum(f.values())
                                for val, fw in f.items():
                                    fx[th][val] += we * Fraction(fw, tot)
    res[("dealer_complete", None)] = Fraction(complete, d_den)
    for h, x in hist.items():
        res[(f"dealer_huxi_{h}", None)] = Fraction(x, complete)
    res[("tianhu_santi", None)] = santi
    res[("tianhu_wukan", None)] = wukan
    # 地胡 of one seat: its cards (+ the extra card with exactly two 提) + the 亮张
    dihu = {t: Fraction(0) for t in thresholds}
    s_den = comb(deck, S)
    for c, w in hands(copies, S):
        ti = sum(1 for x in c if x == 4)
        for k in range(20):
            wk = copies[k] - c[k]
            if wk <= 0:
                continue
            base = Fraction(w * wk, s_den * (deck - S))
            if ti == 2 and P[p.TWO_TI_EXTRA] == 1:
                for j in range(20):
                    wj = copies[j] - c[j] - (1 if j == k else 0)
                    if wj <= 0:
                        continue
                    c2 = list(c)
                    c2[j] += 1
                    hx = ref.best(c2, P, inc=k, inc_self=False)[0]
                    for th in thresholds:
                        if ref.is_win(hx, _with(P, th)):
                            dihu[th] += base * Fraction(wj, deck - S - 1)
            else:
                hx = ref.best(c, P, inc=k, inc_self=False)[0]
                for th in thresholds:
                    if ref.is_win(hx, _with(P, th)):
                        dihu[th] += base
    for th in thresholds:
        tianhu = santi + wukan + comp[th] + extra[th]
        res[("tianhu", th)] = tianhu
        res[("tianhu_complete", th)] = comp[th] + extra[th]
        res[("tianhu_extra_card", th)] = extra[th]
        res[("dihu_seat", th)] = dihu[th]
        if fx_on and tianhu > 0:
            dist = [x / tianhu for x in fx[th]]
            res[("fanxing_tianhu_mean", th)] = sum(i * d for i, d in enumerate(dist))
            for i, name in enumerate(("0", "1", "2", "3", "4plus")):
                res[(f"fanxing_tianhu_{name}", th)] = dist[i]
    # seat shapes
    for s in range(P[p.SEATS]):
        n = L if s == 0 else S
        den = comb(deck, n)
        cnt = {"santi": 0, "wukan": 0, "two": 0}
        for c, w in hands(copies, n):
            ti = sum(1 for x in c if x == 4)
            kan = sum(1 for x in c if x == 3)
            cnt["santi"] += w if ti >= 3 else 0
            cnt["wukan"] += w if kan + ti * P[p.TI_COUNTS_AS_KAN] >= 5 else 0
            cnt["two"] += w if ti == 2 else 0
        if s == 1:
            inst = 0
            for c, w in hands(copies, n):
                inst += w if ref.instant(c, P, False) else 0
            res[("instant_seat", None)] = Fraction(inst, den)
        res[(f"santi_seat{s}", None)] = Fraction(cnt["santi"], den)
        res[(f"wukan_seat{s}", None)] = Fraction(cnt["wukan"], den)
        res[(f"two_ti_seat{s}", None)] = Fraction(cnt["two"], den)
        if s == 0:
            res[("dealer_two_ti", None)] = Fraction(cnt["two"], den)
    return res


def deck_of(kinds):
    return [4 if k in kinds else 0 for k in range(20)]

