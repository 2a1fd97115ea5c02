"""Exact opening-hand table beside 10⁸ Monte Carlo deals (issue: exact enumeration).

For every shipped variant and customary threshold: the exact 天胡, 天胡 split, 地胡 of one seat and
翻信 given 天胡 (the shipped tables, ``zipai_sim/exact/tables``), the ``simulate_deals`` estimate
at ``--deals`` deals and its z-score against the exact value, and the enumeration time recorded
when the table was computed. Prints a Markdown table and writes ``benchmarks/exact-results.md``
and ``.json``.

    uv run python benchmarks/exact.py --deals 100000000
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import polars as pl

import zipai_sim as zs
from zipai_sim.exact.opening import TABLES, stored

METRICS = ("tianhu", "tianhu_complete", "tianhu_santi", "tianhu_wukan", "tianhu_extra_card",
           "dihu_seat", "fanxing_tianhu_mean")
HERE = Path(__file__).parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100_000_000)
    ap.add_argument("--seed", type=int, default=20261129)
    a = ap.parse_args()
    rows = []
    for key in zs.list_variants():
        base = zs.load_variant(key)
        exact = stored(base)
        meta = pl.read_parquet_metadata(str(Path(TABLES) / f"{key}.parquet"))
        for t in base.win.thresholds:
            v = base.with_threshold(t)
            r = zs.simulate_deals(v, a.deals, seed=a.seed, progress=False)
            cmp = zs.compare_exact(exact, r.summary, t)
            for m in METRICS:
                e = exact.filter(metric=m).filter(pl.col("threshold").is_null()
                                                  | (pl.col("threshold") == t))
                c = cmp.filter(metric=m)
                if e.height == 0 or c.height == 0:
                    continue
                er, cr = e.row(0, named=True), c.row(0, named=True)
                rows.append({"variant": key, "threshold": t, "metric": m,
                             "exact": er["mean"] if er["mean"] is not None else er["probability"],
                             "numerator": str(er["numerator"]),
                             "denominator": str(er["denominator"]),
                             "monte_carlo": cr["estimate"], "se": cr["se"], "z": cr["z"],
                             "deals": a.deals, "seed": a.seed,
                             "enumeration_s": float(meta.get("seconds", "nan"))})
    lines = ["| variant | threshold | metric | exact | Monte Carlo (10⁸) | z | enumeration |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        mean = r["metric"].endswith("_mean")
        fmt = (lambda x: f"{x:.4f}") if mean else (lambda x: f"{1e4 * x:.4f}")
        lines.append(f"| `{r['variant']}` | {r['threshold']} | {r['metric']} | {fmt(r['exact'])} "
                     f"| {fmt(r['monte_carlo'])} | {r['z']:+.2f} | {r['enumeration_s']:.0f} s |")
    text = "\n".join(lines)
    print(text)
    (HERE / "exact-results.md").write_text(
        "Rates per 10,000 deals (means in 翻信 units per 天胡); exact values from the shipped "
        f"tables; Monte Carlo: simulate_deals, {a.deals:,} deals, seed {a.seed}.\n\n" + text
        + "\n", encoding="utf-8")
    (HERE / "exact-results.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
