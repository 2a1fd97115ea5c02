"""Print the README's headline table from `zipai-sim simulate` Parquet results.

    uv run python benchmarks/headline.py results/*.parquet

Rates are per 10,000 deals with their Wilson 95% interval; 翻信 is a mean ± its standard error.
The seed, deal count and rules hash come from each file's metadata.
"""

from __future__ import annotations

import sys

import polars as pl

from zipai_sim.io import read_metadata

COLUMNS = [("tianhu", "天胡"), ("tianhu_complete", "天胡 complete"), ("tianhu_santi", "三提"),
           ("tianhu_wukan", "五坎"), ("dihu", "地胡 (§9)"),
           ("instant_nondealer", "non-dealer instant"), ("dealer_two_ti", "dealer two 提")]


def cell(row: dict) -> str:
    """A rate per 10,000 with its interval."""
    k = 1e4
    return f"{row['rate'] * k:.3g} [{row['ci_low'] * k:.3g}, {row['ci_high'] * k:.3g}]"


def main(paths: list[str]) -> None:
    head = ["variant", "deals", "seed"] + [name for _, name in COLUMNS] + ["翻信 per win"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for path in paths:
        meta = read_metadata(path)
        s = {r["metric"]: r for r in pl.read_parquet(path).iter_rows(named=True)}
        fx = s.get("fanxing_mean")
        fx_cell = f"{fx['mean']:.3f} ± {fx['se']:.3f}" if fx else "off"
        cells = [f"`{meta['variant']}`", f"{int(meta['n']):,}", meta["seed"]]
        cells += [cell(s[m]) for m, _ in COLUMNS] + [fx_cell]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main(sys.argv[1:])
