"""Does it still move? The balance figures with every seat at each of the top three rungs.

Reads the per-hand rows (``--rows``) of three ``zipai-sim balance`` runs on the same seed, one
per bot (every seat that bot), and prints one Markdown table: per variant and figure (荒庄, each
seat's win share, the dealer edge in the variant's unit; for 大字牌 runs at two thresholds, the
threshold effect: 30 油 less 15 油), the figure for each bot, and the paired difference between
the top two (teacher − study) on the decks both played, with its Student t 95% interval (the
per-deck differences of the 0/1 outcome or of the dealer's score). A figure has settled when
that interval holds 0 and is narrow beside the figure; it still moves when the interval
excludes 0.

    uv run python benchmarks/still_moves.py LOOKAHEAD.rows.parquet STUDY.rows.parquet \\
        TEACHER.rows.parquet
"""

from __future__ import annotations

import argparse
import math

import polars as pl
from scipy import stats

BOTS = ("lookahead", "study", "teacher")


def figures(rows: pl.DataFrame, seats: int) -> dict[str, pl.Expr]:
    """Per-hand values whose mean is each figure (a share as 0/1, the dealer edge in units)."""
    out = {"荒庄 %": (pl.col("winner") == -1).cast(pl.Float64) * 100}
    for s in range(seats):
        out[f"seat {s} win %"] = (pl.col("winner") == s).cast(pl.Float64) * 100
    out["dealer edge"] = pl.col("pay_seat0").cast(pl.Float64)
    return out


def paired(a: pl.Series, b: pl.Series) -> str:
    """Mean of ``a − b`` with its Student t 95% interval."""
    d = (a - b).to_numpy()
    n = len(d)
    if n < 2:
        return ""
    m, sd = d.mean(), d.std(ddof=1)
    h = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    return f"{m:+.2f} [{m - h:+.2f}, {m + h:+.2f}]"


def table(paths: list[str]) -> str:
    runs = {bot: pl.read_parquet(p) for bot, p in zip(BOTS, paths)}
    key = ["variant", "threshold", "chunk", "deal"]
    lines = ["| variant | figure | lookahead | study | teacher | teacher − study (paired) | "
             "decks paired |", "|---|---|---|---|---|---|---|"]
    for (variant,), part in runs["teacher"].group_by(["variant"], maintain_order=True):
        seats = 4 if "pay_seat3" in part.columns and part["pay_seat3"].is_not_null().any() else 3
        th = sorted(part["threshold"].unique())
        for name, expr in figures(part, seats).items():
            vals = {}
            for bot in BOTS:
                r = runs[bot].filter(pl.col("variant") == variant)
                vals[bot] = r.with_columns(v=expr).select(key + ["v"])
            both = vals["teacher"].join(vals["study"], on=key, suffix="_s")
            if len(th) == 1:
                cells = [f"{vals[b]['v'].mean():.2f}" for b in BOTS]
                diff = paired(both["v"], both["v_s"])
                lines.append(f"| `{variant}` | {name} | " + " | ".join(cells)
                             + f" | {diff} | {len(both):,} |")
                continue
            lo, hi = th[0], th[-1]  # the threshold effect: hi less lo, on the same decks
            cells = []
            for b in BOTS:
                v = vals[b]
                change = v.filter(threshold=hi)["v"].mean() - v.filter(threshold=lo)["v"].mean()
                cells.append(f"{change:+.2f}")
            eff = {}
            for suf in ("", "_s"):
                w = both.select(["chunk", "deal", "threshold", "v" + suf]).pivot(
                    on="threshold", index=["chunk", "deal"], values="v" + suf)
                eff[suf] = w[str(hi)] - w[str(lo)]
            lines.append(f"| `{variant}` {lo}→{hi} | {name} (change) | " + " | ".join(cells)
                         + f" | {paired(eff[''], eff['_s'])} | {len(eff['']):,} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rows", nargs=3, metavar="ROWS",
                    help="per-hand rows of the lookahead, study and teacher runs, in that order")
    print(table(ap.parse_args().rows))


if __name__ == "__main__":
    main()
