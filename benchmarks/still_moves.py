"""Does it still move? The balance figures at the top rungs of the ladder, with power, and a ceiling.

Reads the per-hand rows (``--rows``) of ``zipai-sim balance`` runs on the same seed, one per bot
(every seat that bot): the two strongest fast rungs, the search rung and the ceiling (``oracle``,
which sees every hand: it cheats). Prints one Markdown table: per variant and figure (荒庄, each
seat's win share, the dealer edge in the variant's unit; for runs at two thresholds, the
threshold effect: the higher threshold less the lower), the figure at each rung, the paired
difference of each rung with the one below it and of the ceiling with the top honest rung, on
the decks both played (Student t 95% interval of the per-deck differences of the 0/1 outcome or
of the dealer's score), and a verdict:

- **settled**: the two fast rungs agree inside a tight interval (it holds 0 and its half-width
  is at most ``--tight`` points of a share, or ``--tight-edge`` of the figure's size for an
  edge) and the search − fast difference holds 0 too;
- **bracketed**: otherwise; the verdict gives the figure at the top honest rung and at the
  ceiling, and why it is not settled.

A settled figure also says whether the ceiling agrees with it (their paired difference holds 0)
or gives the ceiling's value: a table where every seat saw every hand plays to another figure,
which no honest table reaches. A wide interval never makes a figure settled: a fast pair whose
interval is wider than the tight bound is bracketed, with the reason.

    uv run python benchmarks/still_moves.py study=STUDY.rows.parquet \\
        learned=LEARNED.rows.parquet search=SEARCH.rows.parquet --ceiling ORACLE.rows.parquet
"""

from __future__ import annotations

import argparse
import math

import polars as pl
from scipy import stats

KEY = ["variant", "threshold", "chunk", "deal"]


def figures(seats: int) -> dict[str, pl.Expr]:
    """Per-hand values whose mean is each figure (a share as 0/1 × 100, the dealer edge in units)."""
    out = {"荒庄 %": (pl.col("winner") == -1).cast(pl.Float64) * 100}
    for s in range(seats):
        out[f"seat {s} win %"] = (pl.col("winner") == s).cast(pl.Float64) * 100
    out["dealer edge"] = pl.col("pay_seat0").cast(pl.Float64)
    return out


def paired(d) -> tuple[float, float, int]:
    """Mean of the per-deck differences ``d``, the half-width of its Student t 95% interval, n."""
    n = len(d)
    if n < 2:
        return math.nan, math.nan, n
    m, sd = float(d.mean()), float(d.std(ddof=1))
    return m, stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n), n


def cell(m: float, h: float) -> str:
    """``+m [lo, hi]`` for a table cell; empty when there was nothing to pair."""
    return "" if math.isnan(m) else f"{m:+.2f} [{m - h:+.2f}, {m + h:+.2f}]"


def per_deck(v: pl.DataFrame, thresholds: list) -> pl.DataFrame:
    """One value per deck: the figure, or at two thresholds the change from the lower to the higher."""
    if len(thresholds) == 1:
        return v.select(["chunk", "deal", "v"])
    lo, hi = thresholds[0], thresholds[-1]
    w = v.pivot(on="threshold", index=["chunk", "deal"], values="v")
    return w.select(["chunk", "deal", (pl.col(str(hi)) - pl.col(str(lo))).alias("v")]).drop_nulls()


def verdict(name: str, fast: tuple, search: tuple, top: float, ceiling: float,
            tight: float, tight_edge: float, gap: tuple = (math.nan, math.nan, 0)) -> str:
    """settled / bracketed, by the rule of the module docstring; a settled figure says whether
    the ceiling (``gap``: ceiling − top rung, paired) agrees with it."""
    m, h, _ = fast
    bound = tight if "%" in name else max(tight_edge * abs(top), 0.05)
    if math.isnan(m):
        return "?"
    ends = f"{top:.2f} → {ceiling:.2f}" if not math.isnan(ceiling) else f"{top:.2f} → ?"
    if h > bound:
        return f"bracketed {ends} (fast pair ±{h:.2f}, wider than ±{bound:.2f})"
    fast_holds = abs(m) <= h
    sm, sh, _ = search
    search_holds = math.isnan(sm) or abs(sm) <= sh
    if fast_holds and search_holds:
        gm, gh, _ = gap
        # the search's interval is the wider one: say how wide, so no one reads more into it
        width = f"fast pair ±{h:.2f}" + ("" if math.isnan(sm) else f", search ±{sh:.2f}")
        if math.isnan(gm):
            return f"settled ({width})"
        seen = "ceiling agrees" if abs(gm) <= gh else f"the ceiling's is {ceiling:.2f}"
        return f"settled ({width}; {seen})"
    why = "fast pair moves" if not fast_holds else "search moves"
    return f"bracketed {ends} ({why})"


def table(rungs: list[tuple[str, str]], ceiling: str | None, tight: float,
          tight_edge: float) -> str:
    runs = {name: pl.read_parquet(p) for name, p in rungs}
    names = [n for n, _ in rungs]
    if ceiling:
        runs["ceiling"] = pl.read_parquet(ceiling)
    cols = names + (["ceiling"] if ceiling else [])
    pairs = [(names[i + 1], names[i]) for i in range(len(names) - 1)]
    if ceiling:
        pairs.append(("ceiling", names[-1]))
    head = (["variant", "figure"] + [n if n != "ceiling" else "ceiling (oracle, cheats)"
                                      for n in cols]
            + [f"{a} − {b} (paired, decks)" for a, b in pairs] + ["verdict"])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    top = runs[names[-1]]
    for (variant,), part in top.group_by(["variant"], maintain_order=True):
        seats = 4 if "pay_seat3" in part.columns and part["pay_seat3"].is_not_null().any() else 3
        th = sorted(part["threshold"].unique())
        for name, expr in figures(seats).items():
            vals = {}
            for b in cols:
                r = runs[b].filter(pl.col("variant") == variant, pl.col("threshold").is_in(th))
                vals[b] = per_deck(r.with_columns(v=expr).select(KEY + ["v"]), th)
            means = {b: (vals[b]["v"].mean() if len(vals[b]) else math.nan) for b in cols}
            diffs = {}
            for a, b in pairs:
                j = vals[a].join(vals[b], on=["chunk", "deal"], suffix="_b")
                diffs[(a, b)] = paired((j["v"] - j["v_b"]).to_numpy())
            fast = diffs[(names[1], names[0])] if len(names) >= 2 else (math.nan,) * 3
            srch = diffs[(names[2], names[1])] if len(names) >= 3 else (math.nan, math.nan, 0)
            label = f"`{variant}`" + (f" {th[0]}→{th[-1]}" if len(th) > 1 else "")
            fig = name + (" (change)" if len(th) > 1 else "")
            row = [label, fig] + [f"{means[b]:.2f}" for b in cols]
            row += [f"{cell(m, h)} · {n:,}" for m, h, n in diffs.values()]
            gap = diffs[("ceiling", names[-1])] if ceiling else (math.nan, math.nan, 0)
            row.append(verdict(name, fast, srch, means[names[-1]],
                               means["ceiling"] if ceiling else math.nan, tight, tight_edge, gap))
            lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


def rung(text: str) -> tuple[str, str]:
    """``NAME=ROWS.parquet`` as (name, path), or the argparse error naming the bad argument."""
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"a rung is NAME=ROWS.parquet, not {text!r}")
    return name, path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rungs", nargs="+", type=rung, metavar="NAME=ROWS",
                    help="per-hand rows of each honest rung, weakest first: the two fast rungs, "
                    "then the search")
    ap.add_argument("--ceiling", metavar="ROWS", help="per-hand rows of the oracle run")
    ap.add_argument("--tight", type=float, default=0.6,
                    help="widest half-width of the fast pair's interval, in points of a share, "
                    "that can settle a share (default: %(default)s)")
    ap.add_argument("--tight-edge", type=float, default=0.1,
                    help="the same for the dealer edge, as a fraction of its size "
                    "(default: %(default)s)")
    a = ap.parse_args()
    print(table(a.rungs, a.ceiling, a.tight, a.tight_edge))


if __name__ == "__main__":
    main()
