"""Print the README's headline tables from Parquet results.

    uv run python benchmarks/headline.py results/*.parquet             # `zipai-sim simulate`
    uv run python benchmarks/headline.py --balance results/balance-*.parquet  # `zipai-sim balance`

Deal rates are per 10,000 deals with their Wilson 95% interval; 翻信 is a mean ± its standard
error. Balance rates (one row per variant, with the bot every seat played) are percentages of
hands with their Wilson 95% interval, the dealer edge is seat 0's mean settled score per hand
(variant's unit) ± SE. Seeds and counts come from each
file's metadata.
"""

from __future__ import annotations

import math
import sys

import polars as pl

from zipai_sim.report import mean_text, rate_text
from zipai_sim.runs.io import read_metadata
from zipai_sim.stats import wilson

COLUMNS = [("tianhu", "天胡"), ("tianhu_complete", "天胡 complete"), ("tianhu_santi", "三提"),
           ("tianhu_wukan", "五坎"), ("dihu", "地胡 (§9)"),
           ("instant_nondealer", "non-dealer instant"), ("dealer_two_ti", "dealer two 提")]


def rate(row: dict, scale: int) -> str:
    """A rate on ``scale`` (100: %) with its interval, digits set by the interval's width (the
    formatting every command prints, ``report.rate_text``)."""
    return " ".join(rate_text(row["rate"], row["ci_low"], row["ci_high"], scale)).strip()


def cell(row: dict) -> str:
    """A rate per 10,000 with its interval."""
    return rate(row, 10_000)


def main(paths: list[str]) -> None:
    head = ["variant", "deals", "seed"] + [name for _, name in COLUMNS] + ["翻信 per win"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for path in paths:
        meta = read_metadata(path)
        s = {r["metric"]: r for r in pl.read_parquet(path).iter_rows(named=True)}
        fx = s.get("fanxing_mean")
        fx_cell = mean_text(fx["mean"], fx["se"]) if fx else "off"
        cells = [f"`{meta['variant']}`", f"{int(meta['n']):,}", meta["seed"]]
        cells += [cell(s[m]) for m, _ in COLUMNS] + [fx_cell]
        print("| " + " | ".join(cells) + " |")


def pct(row: dict) -> str:
    """A rate in percent with its interval."""
    return rate(row, 100)


def per10k(row: dict) -> str:
    """A rate per 10,000 with its interval."""
    return rate(row, 10_000)


def mean_pm(row: dict, signed: bool = False) -> str:
    """A mean ± its SE, the SE to 2 significant digits."""
    se = row["se"]
    d = max(0, 1 - math.floor(math.log10(se))) if se > 0 else 3
    return f"{row['mean']:{'+' if signed else ''}.{d}f} ± {se:.{d}f}"


def balance(paths: list[str]) -> None:
    """Print one Markdown row per variant (and threshold, in a sweep) of `zipai-sim balance`
    result files, naming the bot from each file's metadata; `--rows K` per-hand files are
    skipped. Raises KeyError when a file is not a balance summary."""
    head = ["variant", "bot", "hands", "荒庄 %", "dealer win %", "seat 1 win %", "seat 2 win %",
            "seat 3 win %", "dealer edge (units/hand)", "自摸 % of wins", "天胡 per 10k",
            "地胡 per 10k", "海底 per 10k", "翻信 per win", "翻信 share of win units",
            "draws/hand"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for path in paths:
        if path.endswith(".rows.parquet"):  # `--rows K`'s per-hand file, matched by the same glob
            continue
        meta = read_metadata(path)
        d = pl.read_parquet(path)
        if "threshold" not in d.columns:
            d = d.with_columns(pl.lit(None, pl.Int64).alias("threshold"))
        runs = d.select("variant", "threshold").unique(maintain_order=True).iter_rows()
        sweep = d["threshold"].n_unique() > 1
        for v, th in runs:
            rows = d.filter((pl.col("variant") == v)
                            & pl.col("threshold").eq_missing(th)).iter_rows(named=True)
            by = {(r["metric"], r["seat"]): r for r in rows}
            wins = [by[m] for m in sorted(by, key=str) if m[0] == "win"]
            zimo = sum(r["count"] for (m, _), r in by.items() if m == "zimo")
            nwin = sum(r["count"] for r in wins)
            lo, hi = wilson(zimo, nwin)
            share = by.get(("fanxing_share_of_win_units", None))
            on = bool(share and share["rate"])
            name = f"`{v}` at {th}" if sweep else f"`{v}`"
            cells = [name, meta.get("policy", "greedy"), f"{int(meta['hands']):,}",
                     pct(by[("huangzhuang", None)])]
            cells += [pct(r) for r in wins] + [""] * (4 - len(wins))
            cells += [mean_pm(by[("score", 0)], signed=True),
                      pct(dict(rate=zimo / nwin, ci_low=lo, ci_high=hi)),
                      per10k(by[("tianhu", None)]), per10k(by[("dihu", None)]),
                      per10k(by[("haidi", None)]),
                      mean_pm(by[("fanxing_per_win", None)]) if on else "off",
                      f"{share['rate']:.3f}" if on else "off",
                      mean_pm(by[("draws_per_hand", None)])]
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--balance"]:
        balance(sys.argv[2:])
    else:
        main(sys.argv[1:])
