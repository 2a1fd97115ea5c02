"""Exact opening-hand probabilities by exhaustive enumeration (RULES.md §6, §7.3, §9).

``exact_opening(variant)`` computes, without sampling, every deal-time figure that the opening
hands alone decide, as exact rationals: 天胡 (complete at each threshold, 三提, 五坎, on the two-提
extra card), the dealer's 胡息 distribution, the 地胡 chance of one non-dealer seat, 翻信 given a
天胡, and the 提/坎 shapes per seat. Each row names the ``simulate_deals`` metric it corresponds
to, so a Monte Carlo summary joins on ``(simulate_metric, threshold)`` (``compare``).

Method: complete hands are enumerated depth-first with the completability automaton
(``zipai_sim.kernels.automaton``, ``zipai_sim.kernels.exact``); instant wins and 提/坎 counts come
from a kind-by-kind count enumeration and a closed form (``zipai_sim.exact.counts``).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

import numpy as np
import polars as pl

from zipai_sim.exact import counts as cnt
from zipai_sim.exact.walk import FULL_DECK, run, tasks_for
from zipai_sim.game import params as p
from zipai_sim.game.variants import Variant, load_variant
from zipai_sim.kernels import exact as ke
from zipai_sim.version import __version__

if TYPE_CHECKING:
    from zipai_sim.deals.simulate import SimResult

SCHEMA = {"metric": pl.String, "threshold": pl.Int64, "numerator": pl.Int128,
          "denominator": pl.Int128, "probability": pl.Float64, "mean": pl.Float64,
          "simulate_metric": pl.String}
CHECKPOINT_VERSION = 1  # bump when a kernel's totals change meaning
FX_VALUES = ("fanxing_tianhu_0", "fanxing_tianhu_1", "fanxing_tianhu_2", "fanxing_tianhu_3",
             "fanxing_tianhu_4plus")


def _fx_mode(P: tuple) -> tuple[int, int]:
    """(FX_*, exclude) for the exact 翻信: 本醒 and 跟醒 are exact; 上醒/下醒 are left to Monte
    Carlo (their turned card's match depends on a neighbouring kind)."""
    if P[p.FANXING] != 1:
        return ke.FX_NONE, 0
    excl = 1 if P[p.FANXING_COUNT_ALL] == 0 else 0
    if P[p.FANXING_MATCH] == p.MATCH_BEN:
        return ke.FX_BEN, excl
    if P[p.FANXING_MATCH] == p.MATCH_GEN:
        return ke.FX_GEN, excl
    return ke.FX_NONE, excl


def _wins(P: tuple, threshold: int) -> list[int]:
    """胡息 values (histogram bins) that win at ``threshold`` (§6: at or above it, or exactly 0
    with 飘胡)."""
    return [h for h in range(ke.HIST) if h >= threshold or (P[p.PIAOHU] == 1 and h == 0)]


def _row(metric, threshold, value: Fraction | None, sim, mean=False):
    if value is None:
        return None
    return {"metric": metric, "threshold": threshold, "numerator": value.numerator,
            "denominator": value.denominator,
            "probability": None if mean else float(value), "mean": float(value) if mean else None,
            "simulate_metric": sim}


def _instants(P: tuple, copies: list[int], fx: int, excl: int) -> dict:
    """Dealer instant wins (三提, 五坎) and their 翻信 numerators, from the count enumeration."""
    L = P[p.DEALER_CARDS]
    deck = sum(copies)
    need_lz = P[p.WUKAN_LIANGZHANG] == 1 or fx != ke.FX_NONE
    groups = cnt.count_dp(L, copies, lz=need_lz, fx=fx, excl=excl)
    den = comb(deck, L) * (L if need_lz else 1)
    santi = wukan = 0
    fxn = [0] * 5
    for (t, k, cl), vec in groups.items():
        if P[p.SANTI_MIN] > 0 and t >= P[p.SANTI_MIN]:
            santi += vec[0]
        elif P[p.WUKAN_MIN] > 0 and k + (t if P[p.TI_COUNTS_AS_KAN] else 0) >= P[p.WUKAN_MIN] \
                and (P[p.WUKAN_LIANGZHANG] == 0 or cl == 3):
            wukan += vec[0]
        else:
            continue
        for x in range(5):
            if fx:
                fxn[x] += vec[1 + x]
    unseen = deck - L
    return {"santi": Fraction(santi, den), "wukan": Fraction(wukan, den),
            "fx": [Fraction(f, den * unseen) for f in fxn]}


def _ti_kan(n: int, copies: list[int]) -> dict[tuple[int, int], int]:
    if list(copies) == [4] * 20:
        return cnt.ti_kan_closed(n)
    return {(t, k): vec[0] for (t, k, _), vec in cnt.count_dp(n, copies).items()}


def _seat_shapes(P: tuple, copies: list[int]) -> list[dict]:
    """Per-seat 三提 (≥ 3 提), 五坎 (坎 + 提 as the variant counts ≥ 5) and exactly two 提,
    as ``simulate_deals`` counts them (closed form on the full deck)."""
    rows = []
    tk = P[p.TI_COUNTS_AS_KAN]
    for s in range(P[p.SEATS]):
        n = P[p.DEALER_CARDS] if s == 0 else P[p.OTHER_CARDS]
        dist = _ti_kan(n, copies)
        den = comb(sum(copies), n)
        santi = sum(c for (t, k), c in dist.items() if t >= 3)
        wukan = sum(c for (t, k), c in dist.items() if k + t * tk >= 5)
        two = sum(c for (t, k), c in dist.items() if t == 2)
        if s == 1:
            # a non-dealer's instant shape (is_dealer = 0: 衡阳's 亮张 五坎 is the dealer's only)
            inst = sum(c for (t, k), c in dist.items()
                       if (P[p.SANTI_MIN] > 0 and t >= P[p.SANTI_MIN])
                       or (P[p.WUKAN_MIN] > 0 and P[p.WUKAN_LIANGZHANG] == 0
                           and k + t * tk >= P[p.WUKAN_MIN]))
            one = Fraction(inst, den)
            rows += [_row("instant_seat", None, one, None),
                     _row("instant_nondealer_bound_low", None, one, None),
                     _row("instant_nondealer_bound_high", None, (P[p.SEATS] - 1) * one, None)]
        rows += [_row(f"santi_seat{s}", None, Fraction(santi, den), f"santi_seat{s}"),
                 _row(f"wukan_seat{s}", None, Fraction(wukan, den), f"wukan_seat{s}"),
                 _row(f"two_ti_seat{s}", None, Fraction(two, den), f"two_ti_seat{s}")]
        if s == 0:
            rows.append(_row("dealer_two_ti", None, Fraction(two, den), "dealer_two_ti"))
    return rows


def _part_path(checkpoint: str, P: np.ndarray, copies: np.ndarray, mode: int, n: int, fx: int,
               excl: int) -> str:
    key = hashlib.sha256(repr((CHECKPOINT_VERSION, P.tolist(), copies.tolist(), mode, n, fx,
                               excl)).encode()).hexdigest()[:20]
    return os.path.join(checkpoint, f"exact-part-{key}.json")


def _load_part(path: str) -> list[int] | None:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return [int(x) for x in data["totals"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _save_part(path: str, name: str, totals: list[int]) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"part": name, "totals": [str(x) for x in totals]}, f)
    os.replace(tmp, path)


def _enumerate(params: tuple, copies: np.ndarray, fx: int, excl: int, progress=None,
               checkpoint: str | None = None) -> dict[str, list[int]]:
    P = np.asarray(params, np.int64)
    L = params[p.DEALER_CARDS]
    S = params[p.OTHER_CARDS]
    jobs = [("dealer", ke.MODE_DEALER, L), ("dihu", ke.MODE_DIHU, S + 1),
            ("dihu_three", ke.MODE_DIHU_THREE, S + 1)]
    if params[p.QIANGZHAO] == 1:
        jobs.append(("dihu_qz", ke.MODE_DIHU_QZ, S + 1))
    if params[p.TWO_TI_EXTRA] == 1:
        jobs += [("extra", ke.MODE_EXTRA, L + 1), ("dihu_extra", ke.MODE_DIHU, S + 2),
                 ("dihu_extra_three", ke.MODE_DIHU_THREE, S + 2)]
        if params[p.QIANGZHAO] == 1:
            jobs.append(("dihu_extra_qz", ke.MODE_DIHU_QZ, S + 2))
    out = {}
    total = sum(len(tasks_for(mode)) for _, mode, _ in jobs)
    done = 0

    def tick(k: int) -> None:
        nonlocal done
        done += k
        if progress is not None:
            progress(done, total)

    for name, mode, n in jobs:
        f = fx if mode in (ke.MODE_DEALER, ke.MODE_EXTRA) else ke.FX_NONE
        path = None
        if checkpoint is not None:
            os.makedirs(checkpoint, exist_ok=True)
            path = _part_path(checkpoint, P, copies, mode, n, f, excl)
            out[name] = _load_part(path)
        if out.get(name) is None:
            out[name] = run(P, mode, n, copies, f, excl, tick=tick)
            if path is not None:
                _save_part(path, name, out[name])
        else:
            tick(len(tasks_for(mode)))
        if out[name][ke.A_MISMATCH]:
            raise RuntimeError(f"exact enumeration: {out[name][ke.A_MISMATCH]} hands the "
                               f"automaton accepts are not complete ({name})")
    return out


TABLES = os.path.join(os.path.dirname(__file__), "tables")


def stored(v: Variant) -> pl.DataFrame | None:
    """The shipped exact table of a variant (``zipai_sim/exact/tables/KEY.parquet``, written by
    ``zipai-sim exact``), or None when there is none for these rules (another rules hash)."""
    path = os.path.join(TABLES, f"{v.key}.parquet")
    if not os.path.exists(path):
        return None
    if pl.read_parquet_metadata(path).get("rules_hash") != v.rules_hash:
        return None
    return pl.read_parquet(path)


def exact_opening(variant: str | os.PathLike | Variant,
                  thresholds: list[int] | tuple[int, ...] | None = None,
                  progress=None, checkpoint: str | os.PathLike | None = None,
                  recompute: bool = False) -> pl.DataFrame:
    """Exact deal-time probabilities of ``variant`` (RULES.md §6, §7.3, §9) by enumeration.

    thresholds: 起胡 values to report (default: the variant's customary ``win.thresholds``);
    one enumeration serves them all (the 胡息 histogram is kept). Returns a polars DataFrame with
    columns ``metric, threshold, numerator, denominator, probability, mean, simulate_metric``:
    ``numerator / denominator`` is the exact rational (Int128), ``probability`` its value for
    rates and ``mean`` for the 翻信 mean; ``threshold`` is null for metrics no threshold
    changes. Metrics:

    - ``tianhu``, ``tianhu_complete`` (the 21-card complete hands and the two-提 extra-card wins),
      ``tianhu_santi``, ``tianhu_wukan``, ``tianhu_extra_card``: as ``simulate_deals`` counts
      them, with its order of events (instant wins first; docs/decisions.md).
    - ``dealer_complete`` and ``dealer_huxi_H`` (the 胡息 distribution of complete dealer hands).
    - ``dihu_seat``: one non-dealer's 20 cards (and, with the two-提 extra card, that card) plus
      the 亮张 win as 地胡, judged alone. ``simulate_deals``' ``dihu`` (no 天胡, then seats in
      order) couples the seats through the shared deck: it lies between ``dihu_seat −
      tianhu`` and ``(seats − 1) × dihu_seat``, reported as ``dihu_bound_low``/``_high``.
    - ``fanxing_tianhu_mean`` and ``fanxing_tianhu_0..4plus`` given a 天胡 (本醒/跟醒 only).
    - ``santi_seatS``, ``wukan_seatS``, ``two_ti_seatS``, ``dealer_two_ti`` (closed form), and
      ``instant_seat`` (one non-dealer's instant shape): ``simulate_deals``' ``instant_nondealer``
      (any non-dealer) lies between it and ``(seats − 1)`` times it
      (``instant_nondealer_bound_low``/``_high``).

    The variants' customary thresholds are shipped (computed by this function and stored with
    the rules hash): they return at once unless ``recompute``. Anything else takes minutes on all
    cores (about 7 to 15 on two). ``progress(done, total)`` is called as tasks (slices of the
    enumeration) finish. ``checkpoint``: a folder where each finished part's
    exact totals are kept, so a run stopped and started again resumes. Raises
    ValueError for a threshold that is not a non-negative integer or a ``checkpoint`` that is a
    file; VariantError for an unknown variant.
    """
    v = load_variant(variant)
    ths = list(v.win.thresholds) if thresholds is None else list(thresholds)
    for t in ths:
        if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 0:
            raise ValueError(f"thresholds must be non-negative integers, got {t!r}")
    if not ths:
        raise ValueError("thresholds must name at least one threshold")
    if checkpoint is not None:
        from zipai_sim.runs.checkpoint import refuse_file

        refuse_file(checkpoint, "checkpoint")
    want = sorted({int(t) for t in ths})
    if not recompute:
        table = stored(v)
        if table is not None:
            have = set(table["threshold"].drop_nulls().to_list())
            if set(want) <= have:
                return _own(table.filter(pl.col("threshold").is_null()
                                         | pl.col("threshold").is_in(want)), v, want)
    cp = None if checkpoint is None else os.fspath(checkpoint)
    return _own(_table(v.params, FULL_DECK, want, progress, cp), v, want)


def _own(df: pl.DataFrame, v: Variant, ths: list[int]) -> pl.DataFrame:
    """``df`` carrying the variant it was counted for (``ReportFrame.run``), which ``compare``
    checks against a run; it shows and computes as the plain frame."""
    from zipai_sim.report import ReportFrame

    return ReportFrame.wrap(df, {"variants": [(v.key, v.rules_hash)], "thresholds": ths},
                            show=False)


def _table(P: tuple, copies, ths: list[int], progress=None,
           checkpoint: str | None = None) -> pl.DataFrame:
    """The exact table for raw params ``P`` and a deck of ``copies: int[20]`` cards per kind
    (the full deck, or a reduced one in the tests)."""
    copies = np.asarray(copies, np.int64)
    deck = int(copies.sum())
    fx, excl = _fx_mode(P)
    L, S = P[p.DEALER_CARDS], P[p.OTHER_CARDS]
    raw = _enumerate(P, copies, fx, excl, progress, checkpoint)
    inst = _instants(P, [int(x) for x in copies], fx, excl)
    d_den = comb(deck, L)
    extra_den = d_den * (deck - L) * L  # × the extra card, × dealer cards (no-instant weight)
    dihu_den = comb(deck, S) * (deck - S) * ((deck - S - 1) if P[p.TWO_TI_EXTRA] else 1)
    dealer = raw["dealer"]
    hist = dealer[ke.A_HIST:ke.A_HIST + ke.HIST]
    hist_ni = dealer[ke.A_HIST_NI:ke.A_HIST_NI + ke.HIST]
    complete = dealer[ke.A_TOTAL]
    rows = [_row("dealer_complete", None, Fraction(complete, d_den), "dealer_complete")]
    for h in range(ke.HIST):
        if hist[h]:
            name = f"dealer_huxi_{h}" + ("plus" if h == ke.HIST - 1 else "")
            rows.append(_row(name, None, Fraction(hist[h], complete), name))
    rows.append(_row("tianhu_santi", None, inst["santi"], "tianhu_santi"))
    rows.append(_row("tianhu_wukan", None, inst["wukan"], "tianhu_wukan"))
    rows += _seat_shapes(P, [int(x) for x in copies])
    dihu_hist = [0] * ke.HIST
    for name, r in raw.items():
        if name.startswith("dihu"):
            for h in range(ke.HIST):
                dihu_hist[h] += r[ke.A_HIST + h]
    for t in ths:
        wins = _wins(P, t)
        comp = Fraction(sum(hist_ni[h] for h in wins), d_den * L)
        extra = Fraction(0)
        if "extra" in raw:
            extra = Fraction(sum(raw["extra"][ke.A_HIST + h] for h in wins), extra_den)
        tianhu = inst["santi"] + inst["wukan"] + comp + extra
        dihu = Fraction(sum(dihu_hist[h] for h in wins), dihu_den)
        rows += [_row("tianhu", t, tianhu, "tianhu"),
                 _row("tianhu_complete", t, comp + extra, "tianhu_complete"),
                 _row("tianhu_extra_card", t, extra, "tianhu_extra_card"),
                 _row("dihu_seat", t, dihu, "dihu_seat1"),
                 _row("dihu_bound_low", t, max(Fraction(0), dihu - tianhu), None),
                 _row("dihu_bound_high", t, (P[p.SEATS] - 1) * dihu, None)]
        if fx != ke.FX_NONE and tianhu > 0:
            U = deck - L
            dist = []
            for x in range(5):
                num = inst["fx"][x]
                num += Fraction(sum(dealer[ke.A_FX + 5 * h + x] for h in wins), d_den * L * U)
                if "extra" in raw:
                    num += Fraction(sum(raw["extra"][ke.A_FX + 5 * h + x] for h in wins),
                                    extra_den * (U - 1))
                dist.append(num / tianhu)
            rows.append(_row("fanxing_tianhu_mean", t, sum(x * d for x, d in enumerate(dist)),
                             "fanxing_tianhu_mean", mean=True))
            rows += [_row(FX_VALUES[x], t, dist[x], FX_VALUES[x]) for x in range(5)]
    return pl.DataFrame([r for r in rows if r is not None], schema=SCHEMA)


def metadata(v: Variant, thresholds: list[int], seconds: float,
             source: str = "enumerated") -> dict[str, str]:
    """Parquet key-value metadata of an exact table (``source``: enumerated in this run, or read
    from the shipped table; ``seconds``: this run's wall time)."""
    return {"variant": v.key, "rules_hash": v.rules_hash,
            "thresholds": ",".join(str(t) for t in thresholds), "method": "exact enumeration",
            "source": source, "seconds": f"{seconds:.1f}", "zipai_sim_version": __version__}


def compare(exact: pl.DataFrame, summary: pl.DataFrame | SimResult,
            threshold: int | None = None) -> pl.DataFrame:
    """Every Monte Carlo estimate of a ``simulate_deals`` summary beside its exact value.

    exact: an ``exact_opening`` table; summary: a ``SimResult`` (its threshold is then the
    default) or its ``summary`` of a run at ``threshold`` (needed when the exact table has
    several). Returns ``metric, threshold, exact, estimate, n, se, z`` where ``se`` is the exact
    standard error of the estimate (``sqrt(p(1 - p)/n)`` for a rate over ``n`` deals or
    conditioning cases; the run's own SE for a mean) and ``z = (estimate − exact)/se``. Raises
    ValueError when ``threshold`` is needed and missing, and for a ``SimResult`` of another
    variant or threshold than the one asked for (an ``exact_opening`` table knows its variant).
    """
    if hasattr(summary, "summary") and hasattr(summary, "rules_hash"):  # a SimResult
        sim, summary = summary, summary.summary
        if threshold is not None and sim.threshold is not None and threshold != sim.threshold:
            raise ValueError(f"threshold {threshold}, but the run was at {sim.threshold}")
        threshold = sim.threshold if threshold is None else threshold
        own = (getattr(exact, "run", None) or {}).get("variants") or []
        if own and own[0][0] != sim.variant:
            raise ValueError(f"the exact table is {own[0][0]}'s and the run {sim.variant}'s: "
                             f"compare a run with its own variant's exact table")
    ths = exact["threshold"].drop_nulls().unique().to_list()
    if threshold is None:
        if len(ths) > 1:
            raise ValueError(f"the exact table has thresholds {sorted(ths)}: pass threshold")
        threshold = ths[0] if ths else None
    ex = exact.filter(pl.col("simulate_metric").is_not_null()
                      & (pl.col("threshold").is_null() | (pl.col("threshold") == threshold)))
    j = ex.join(summary, left_on="simulate_metric", right_on="metric", how="inner",
                suffix="_sim")
    out = []
    for r in j.iter_rows(named=True):
        if r["mean"] is not None:
            truth, est, se = r["mean"], r["mean_sim"], r["se"]
        else:
            truth, est = r["probability"], r["rate"]
            se = math.sqrt(truth * (1 - truth) / r["n"]) if r["n"] else math.nan
        z = (est - truth) / se if se and se > 0 and est is not None else (
            0.0 if est == truth else math.inf)
        out.append({"metric": r["metric"], "threshold": threshold, "exact": truth,
                    "estimate": est, "n": r["n"], "se": se, "z": z})
    return pl.DataFrame(out, schema={"metric": pl.String, "threshold": pl.Int64,
                                     "exact": pl.Float64, "estimate": pl.Float64,
                                     "n": pl.Int64, "se": pl.Float64, "z": pl.Float64})
