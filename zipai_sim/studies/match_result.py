"""What ``simulate_matches`` returns: ``MatchResult`` (the per-match rows, the summary and the
run's identity) and the summary of per-match rows (``summarize``)."""

from __future__ import annotations

import os
from dataclasses import dataclass

import polars as pl

from zipai_sim.game.variants import Variant
from zipai_sim.report import Report, check_per, header, metric_view
from zipai_sim.stats import mean_se, wilson

SCHEMA = {"variant": pl.String, "metric": pl.String, "player": pl.Int64, "count": pl.Int64,
          "n": pl.Int64, "rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
          "mean": pl.Float64, "se": pl.Float64}


@dataclass
class MatchResult:
    """``simulate_matches`` output: ``matches`` (one row per match: ``match, first_dealer,
    hands, ended`` (goal reached within ``max_hands``), ``winner`` (player, -1 none),
    ``huangzhuang`` (荒庄 hands), ``dealer_changes``, ``total_pK`` (final points in the
    variant's unit; they sum to 0), ``wins_pK``, ``huxi_pK`` (胡息 of won hands); with a
    数信 sitter there are four players, the dealer's opposite sitting out each hand),
    ``summary`` (``metric, player, count, n, rate, ci_low, ci_high`` Wilson 95%,
    ``mean, se``) and the run's identity for the Parquet metadata. ``n`` is the matches
    played: fewer than ``n_requested`` when Ctrl-C stopped the run (``partial``)."""

    variant: str
    rules_hash: str
    seed: int
    n: int
    goal: str
    hands: int
    target: int
    policies: tuple[str, ...]
    engine: str
    first_dealer: str
    max_hands: int
    matches: pl.DataFrame
    summary: pl.DataFrame
    threshold: int | None = None  # the variant's 起胡 threshold (胡息)
    seconds: float | None = None
    n_requested: int | None = None  # matches asked for; ``n`` is those done
    partial: bool = False  # Ctrl-C stopped the run after ``n`` matches (runs.run_batches)
    weights: str | None = None  # ``play.learned.weights_hash`` of the line-up (None: none read)

    def report(self, per: int | None = None) -> Report:
        """What ``zipai-sim match`` prints: the header line (variant, rules hash, threshold,
        seed, matches, goal, policies, first dealer, seconds) and the summary with shares in %
        (``per``: 10000, 1000, 100 or 1) and Wilson 95% intervals, means ± SE."""
        goal = {"hands": f"goal {self.hands} hands", "hu100": f"goal {self.target} 胡 from wins",
                "yinghuzi": "goal 硬胡子 (3 wins, 50 胡)"}[self.goal]
        extra = [goal, f"first dealer {self.first_dealer}"] + (
            [f"{self.engine} engine"] if self.engine != "numba" else [])
        if self.partial:
            extra.append(f"PARTIAL: interrupted after {self.n:,} of {self.n_requested:,} "
                         "matches")
        head = header([(self.variant, self.rules_hash)], [self.threshold], seed=self.seed,
                      n=self.n, unit="matches", policies=self.policies, threads=1,
                      seconds=self.seconds, extra=extra, weights=self.weights)
        return Report(head, metric_view(self.summary, check_per(per)))

    def _repr_html_(self) -> str:
        return self.report()._repr_html_()

    @property
    def metadata(self) -> dict[str, str]:
        """Parquet key-value metadata identifying the run (a match is a chunk: its own random
        stream, ``chunk_size`` 1); ``io.write_parquet`` adds the command line and versions."""
        from zipai_sim.version import __version__

        return {"variant": self.variant, "rules_hash": self.rules_hash, "seed": str(self.seed),
                "matches": str(self.n), "n": str(self.n),
                "n_requested": str(self.n if self.n_requested is None else self.n_requested),
                "partial": str(self.partial).lower(), "thresholds": str(self.threshold),
                "chunk_size": "1", "goal": self.goal, "hands": str(self.hands),
                "target": str(self.target), "policies": ",".join(self.policies),
                "engine": self.engine, "first_dealer": self.first_dealer,
                "max_hands": str(self.max_hands), "zipai_sim_version": __version__,
                **({"weights_hash": self.weights} if self.weights else {})}

    def to_parquet(self, path: str | os.PathLike) -> None:
        """Write ``matches`` with ``metadata`` atomically (``io.write_parquet``)."""
        from zipai_sim.runs.io import write_parquet

        write_parquet(self.matches, path, self.metadata)


def summarize(v: Variant, df: pl.DataFrame, players: int) -> pl.DataFrame:
    """Per player: match wins, final totals, hand wins; per match: hands, dealer changes; per
    hand: 荒庄. Rates with Wilson 95% intervals, means with their standard error."""
    n, rows = df.height, []
    if n == 0:
        return pl.DataFrame(schema=SCHEMA)
    hands = int(df["hands"].sum())

    def rate(metric: str, p: int | None, count: int, of: int) -> None:
        lo, hi = wilson(count, of)
        rows.append({"variant": v.key, "metric": metric, "player": p, "count": int(count),
                     "n": of, "rate": count / of, "ci_low": lo, "ci_high": hi, "mean": None,
                     "se": None})

    def mean(metric: str, p: int | None, col: str) -> None:
        x = df[col].cast(pl.Float64).to_numpy()
        mu, se = mean_se(float(x.sum()), float((x * x).sum()), n)
        rows.append({"variant": v.key, "metric": metric, "player": p, "count": n, "n": n,
                     "rate": None, "ci_low": None, "ci_high": None, "mean": mu, "se": se})

    mean("hands_per_match", None, "hands")
    for p in range(players):
        rate("match_win", p, int((df["winner"] == p).sum()), n)
    rate("no_winner", None, int((df["winner"] < 0).sum()), n)
    rate("goal_not_reached", None, int((~df["ended"]).sum()), n)
    for p in range(players):
        mean("total", p, f"total_p{p}")
    for p in range(players):
        rate("hand_win", p, int(df[f"wins_p{p}"].sum()), hands)
    rate("huangzhuang_per_hand", None, int(df["huangzhuang"].sum()), hands)
    mean("dealer_changes_per_match", None, "dealer_changes")
    return pl.DataFrame(rows, schema=SCHEMA)
