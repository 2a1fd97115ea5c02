"""Opening-hand tables from whole hands: P(the seat wins the hand) and its mean settled score by
seat and by what the seat was dealt (RULES.md §3, §4, §6, §7, §9).

``opening_records`` plays ``n`` hands with the numba play kernel (``kernels.play.play_chunks``,
the decks ``simulate_hands`` plays for the same seed and chunk size), settles them
(``play.payoffs.settle_outcomes``) and computes each seat's opening features from the same decks
(``kernels.features``). ``opening_table`` and ``tenpai_table`` group those records.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence

import numba
import numpy as np
import polars as pl

from zipai_sim.game.variants import Variant, load_variant
from zipai_sim.kernels import features as kf
from zipai_sim.play import DEFAULT_HAND_CHUNK, policy_codes
from zipai_sim.play.payoffs import settle_outcomes
from zipai_sim.play.chunks import play_chunks
from zipai_sim.report import DEFAULT_SEED, ReportFrame, run_fields
from zipai_sim.runs.chunks import (
    check_chunk_size,
    check_count,
    check_seed,
    check_threads,
    chunk_keys,
    chunk_sizes,
)
from zipai_sim.runs.driver import cons_list, run_parts
from zipai_sim.stats import mean_se
from zipai_sim.tables.output import with_wilson

VariantLike = str | os.PathLike | Variant

HOW = ("", "zimo", "fangpao", "drawn")  # kernels.play HOW_*

RECORD_SCHEMA = {
    "variant": pl.String, "threshold": pl.Int64, "deal": pl.Int64, "seat": pl.Int8,
    "opening_huxi": pl.Int16, "ti": pl.Int8, "kan": pl.Int8, "red": pl.Int8,
    "tenpai": pl.Boolean, "waits": pl.Int8, "wait_mask": pl.Int32, "discard": pl.Int8,
    "p_draw": pl.Float64, "won": pl.Boolean, "won_on_wait": pl.Boolean, "score": pl.Int64,
    "winner": pl.Int8, "how": pl.String, "win_huxi": pl.Int16, "win_card": pl.Int8,
    "fanxing": pl.Int16, "draws": pl.Int16, "tianhu": pl.Boolean, "dihu": pl.Boolean,
}

#: features ``opening_table`` may group by (any record column works)
FEATURES = ("seat", "opening_huxi", "ti", "kan", "red", "tenpai", "waits")


def _settle(v: Variant, rows: np.ndarray) -> np.ndarray:
    """Payments ``int64[n, seats]`` of kernel outcome rows, the dealer at seat 0."""
    return settle_outcomes(v, rows)[0][:, : v.layout.players]


def opening_records(variant: VariantLike, n: int, seed: int = DEFAULT_SEED,
                    policies: str | Sequence[str] = "greedy", chunk_size: int | None = None,
                    threads: int | None = None, progress: bool | None = None,
                    client: object = None) -> pl.DataFrame:
    """Play and settle ``n`` hands; one row per hand and seat with the seat's opening features
    and what became of the hand.

    Features (``kernels.features``; the dealer's 21 cards include the 亮张): ``opening_huxi``
    胡息 fixed at the deal (提 and 坎 at their RULES.md §4 values of the variant's points table,
    plus the best disjoint 一二三/二七十 among the free cards), ``ti``, ``kan``, ``red`` (二七十
    贰柒拾 cards, §1), ``waits`` (kinds that win at the threshold, own draw or another's card;
    the dealer's after the discard that gives the best ``p_draw``, ``discard``), ``tenpai``
    (``waits > 0``), ``wait_mask`` (those kinds as bits), ``p_draw`` (the exact draw-model chance
    that one of them turns up in the stock: ``kernels.features.p_any_draw``).

    Outcome: ``won`` (the seat won the hand), ``won_on_wait`` (on one of its opening waits),
    ``score`` (its settled payment, in the variant's unit: 舵, 油, 囤, 排 or 胡; RULES.md §7),
    and per hand ``winner`` (-1 荒庄), ``how`` ("zimo", "fangpao", "drawn"; "" on 荒庄),
    ``win_huxi`` (the winner's 胡息), ``win_card``, ``fanxing`` (翻信 matches), ``draws``,
    ``tianhu``, ``dihu`` (nulls on 荒庄 where meaningless). Dtypes: ``RECORD_SCHEMA``.

    The hands are those ``simulate_hands(variant, n, seed, policies)`` plays (same chunk size,
    default 4096), so win counts and mean scores agree with its balance table. ``policies``:
    a bot name (``play.registry``) for every seat, or one per seat.

    A progress bar (stderr) appears after two seconds, and a note when the kernels are to be
    compiled, unless ``progress=False``; ``client``: a ``dask.distributed.Client`` whose
    workers play the chunks (the same records). Ctrl-C stops at the next batch of chunks
    (``runs.run_batches``): the records of the finished hands are returned, their header says
    ``PARTIAL`` and ``records.run["n"]`` is the hands done (the first ``n`` hands of the run).
    Raises ValueError for bad counts, seeds, policies or threads; VariantError for an unknown
    variant.
    """
    return opening_runs([load_variant(variant)], n, seed, policies, chunk_size, threads,
                        progress, client)[0]


def opening_runs(variants: Sequence[Variant], n: int, seed: int = DEFAULT_SEED,
                 policies: str | Sequence[str] = "greedy", chunk_size: int | None = None,
                 threads: int | None = None,
                 progress: bool | None = None, client: object = None) -> list[pl.DataFrame]:
    """``opening_records`` of several variants (or thresholds) on the same deals, in lockstep
    (``runs.run_parts``): Ctrl-C leaves every run with the same finished hands."""
    from zipai_sim.kernels import play as kp

    t0 = time.perf_counter()
    n, seed = check_count(n), check_seed(seed)
    cs = check_chunk_size(chunk_size if chunk_size is not None else DEFAULT_HAND_CHUNK)
    th = check_threads(threads)
    parts = [_opening_part(v, n, seed, cs, policy_codes(policies, v.layout.players, v.key))
             for v in variants]
    old = numba.get_num_threads()
    numba.set_num_threads(th)
    try:  # a new aggregate per batch (runs.run_batches): Ctrl-C keeps the finished batches
        got = run_parts(n, cs, 2 * numba.get_num_threads(), parts, unit="hand",
                        desc=variants[0].key if len(variants) == 1 else "",
                        progress=progress, kernels=(kp.play_chunks, kf.features_chunks),
                        identity={"what": "opening", "variants": [v.key for v in variants],
                                  "rules_hash": [v.rules_hash for v in variants],
                                  "thresholds": [v.win.threshold for v in variants],
                                  "seed": str(seed), "policies": policies}, client=client)
    finally:
        numba.set_num_threads(old)
    out, seconds = [], time.perf_counter() - t0
    for i, (v, state) in enumerate(zip(variants, got.state)):
        chunks = [c for batch in cons_list(state) for c in batch]
        outs, feats, probs = ([c[i] for c in chunks] for i in range(3))
        # a partial run says so in its header, with n = the hands done (as simulate_hands)
        run = run_fields(v, seed=seed, n=got.done, unit="hands", chunk_size=cs,
                         policies=policies, threads=threads, partial=got.partial,
                         n_requested=n)
        run["seconds"] = 0.0 if i else seconds  # one clock for the lockstep runs; run_of sums
        out.append(ReportFrame.wrap(_records(v, outs, feats, probs, got.done), run,
                                    show=False))
    return out


def _opening_part(v: Variant, n: int, seed: int, cs: int, codes: np.ndarray) -> tuple:
    """``(work, add, state)`` of one variant's hands (``runs.run_parts``): each batch's
    chunks as (outcomes, features, chances), in chunk order (deal i is row i)."""
    from zipai_sim.kernels import play as kp

    P, seats = v.params, v.layout.players

    def work(first: int, k: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        keys, sizes = chunk_keys(seed, first, k), chunk_sizes(n, cs, first, k)
        width = int(sizes.max())
        out = np.zeros((k, width, kp.N_OUT), np.int64)
        play_chunks(v, keys, sizes, codes, out)
        f = np.zeros((k, width, seats, kf.N_FEAT), np.int64)
        pr = np.zeros((k, width, seats), np.float64)
        kf.features_chunks(keys, sizes, P, f, pr)
        return [(out[c, : sizes[c]], f[c, : sizes[c]], pr[c, : sizes[c]]) for c in range(k)]

    return work, lambda cells, batch: (batch, cells), None


def _records(v: Variant, outs: list, feats: list, probs: list, n: int) -> pl.DataFrame:
    from zipai_sim.kernels import play as kp

    seats = v.layout.players
    if n == 0:
        return pl.DataFrame(schema=RECORD_SCHEMA)
    o = np.concatenate(outs)
    f = np.concatenate(feats).reshape(n * seats, kf.N_FEAT)
    pr = np.concatenate(probs).reshape(n * seats)
    pay = _settle(v, o)
    rep = np.repeat(np.arange(n), seats)
    seat = np.tile(np.arange(seats), n)
    oh = o[rep]
    win = oh[:, kp.O_WINNER]
    won = win == seat
    lost = win < 0
    win_card = oh[:, kp.O_WIN_CARD]
    on_wait = won & (((f[:, kf.F_MASK] >> np.clip(win_card, 0, 19)) & 1) == 1)

    def nullable(x: np.ndarray, dtype: pl.DataType) -> pl.Series:
        return pl.Series(x, dtype=pl.Int64).set(pl.Series(lost), None).cast(dtype)

    df = pl.DataFrame({
        "deal": rep.astype(np.int64), "seat": seat.astype(np.int8),
        "opening_huxi": f[:, kf.F_HUXI].astype(np.int16), "ti": f[:, kf.F_TI].astype(np.int8),
        "kan": f[:, kf.F_KAN].astype(np.int8), "red": f[:, kf.F_RED].astype(np.int8),
        "tenpai": f[:, kf.F_WAITS] > 0, "waits": f[:, kf.F_WAITS].astype(np.int8),
        "wait_mask": f[:, kf.F_MASK].astype(np.int32),
        "discard": f[:, kf.F_DISCARD].astype(np.int8),
        "p_draw": pr, "won": won, "won_on_wait": on_wait,
        "score": pay.reshape(-1).astype(np.int64),
        "winner": win.astype(np.int8),
        "how": pl.Series(oh[:, kp.O_HOW]).replace_strict(dict(enumerate(HOW)),
                                                         return_dtype=pl.String),
        "win_huxi": nullable(oh[:, kp.O_HUXI], pl.Int16),
        "win_card": nullable(win_card, pl.Int8),
        "fanxing": nullable(oh[:, kp.O_FANXING], pl.Int16),
        "draws": oh[:, kp.O_DRAWS].astype(np.int16),
        "tianhu": oh[:, kp.O_TIANHU] == 1, "dihu": oh[:, kp.O_DIHU] == 1,
    }).with_columns(pl.lit(v.key).alias("variant"), pl.lit(v.win.threshold).alias("threshold"))
    return df.select(list(RECORD_SCHEMA)).cast(RECORD_SCHEMA)  # type: ignore[arg-type]


OPENING_NOTES = (("rate: P(the seat wins the hand), %, with its Wilson 95% interval; score: "
                  "settled units per hand ± SE; share: % of the variant's seat-hands"),)
TENPAI_NOTES = (("band: lower edge of the p_draw band, %; p_exact: mean exact draw-model "
                 "chance that a wait turns up, %; rate: the seat won the hand, % (Wilson 95%); "
                 "wait_count, wait_rate: won on one of its opening waits"),)


def check_by(records: pl.DataFrame, by: Sequence[str]) -> list[str]:
    """``by`` as a list of ``records`` columns to group by; ValueError naming the missing ones."""
    by = [by] if isinstance(by, str) else list(by)
    missing = [c for c in by if c not in records.columns]
    if missing:
        raise ValueError(f"cannot group by {missing}: not a records column "
                         f"(features: {', '.join(FEATURES)})")
    return by


def opening_table(records: pl.DataFrame, by: str | Sequence[str] = ("seat",),
                  bins: dict[str, int] | None = None) -> pl.DataFrame:
    """P(the seat wins the hand) and its mean score, grouped by ``by`` (record columns: ``seat``
    and the opening features ``opening_huxi``, ``ti``, ``kan``, ``red``, ``tenpai``, ``waits``).

    ``bins``: widths to floor numeric columns to before grouping, e.g. ``{"opening_huxi": 6}``
    groups 胡息 0–5, 6–11, … (the column then holds the lower edge). ``variant`` and
    ``threshold`` are always kept apart. Returns ``variant, threshold, *by, count`` (wins),
    ``n`` (seat-hands in the group; over all groups they sum to hands × seats, or to hands when
    ``by`` holds ``seat`` and one seat is kept), ``rate, ci_low, ci_high`` (Wilson 95%),
    ``score_mean, score_se`` (settled units per hand, ± its standard error), ``share`` (the
    group's part of its variant's seat-hands), sorted by the keys.

    >>> import polars as pl
    >>> rec = pl.DataFrame({"variant": ["v"] * 4, "threshold": [15] * 4, "seat": [0, 1, 0, 1],
    ...                     "won": [True, False, False, False], "score": [6, -3, -2, 1]})
    >>> opening_table(rec).select("seat", "count", "n", "rate", "score_mean").rows()
    [(0, 1, 2, 0.5, 2.0), (1, 0, 2, 0.0, -1.0)]

    Raises ValueError naming a ``by`` column the records do not have.
    """
    by = check_by(records, by)
    df = records
    for col, width in (bins or {}).items():
        if col not in df.columns or width < 1:
            raise ValueError(f"bins: {col!r} must be a records column and the width ≥ 1")
        df = df.with_columns((pl.col(col) // width * width).alias(col))
    keys = ["variant", "threshold"] + [c for c in by if c not in ("variant", "threshold")]
    g = (df.group_by(keys).agg(pl.col("won").sum().cast(pl.Int64).alias("count"),
                               pl.len().cast(pl.Int64).alias("n"),
                               pl.col("score").cast(pl.Float64).sum().alias("_s"),
                               (pl.col("score").cast(pl.Float64) ** 2).sum().alias("_s2"))
         .sort(keys))
    g = with_wilson(g)
    ms = [mean_se(s, s2, m) for s, s2, m in zip(g["_s"], g["_s2"], g["n"])]
    total = g.group_by("variant", "threshold").agg(pl.col("n").sum().alias("_t"))
    return _shown(records, OPENING_NOTES, g.with_columns(
        pl.Series("score_mean", [x[0] for x in ms], pl.Float64),
        pl.Series("score_se", [x[1] for x in ms], pl.Float64))
        .join(total, on=["variant", "threshold"], how="left")
        .with_columns((pl.col("n") / pl.col("_t")).alias("share"))
        .drop("_s", "_s2", "_t").sort(keys))


def tenpai_table(records: pl.DataFrame, by: str | Sequence[str] = ("seat",),
                 step: float = 0.1) -> pl.DataFrame:
    """听 at the deal: the exact draw-model chance beside what greedy play made of it.

    Takes the seats that were dealt a winning wait (``tenpai``; the dealer after its best
    discard) and groups them by ``by`` and by ``p_draw`` in bands of ``step`` (``band`` = the
    lower edge). ``p_exact`` is the mean exact chance, under the draw model of
    ``kernels.features`` (the stock's cards are a uniform sample of the unseen cards, the seat
    may win on its own draws and on others' shown draws; no discards, nobody else wins, the hand
    never changes), that one of the seat's waits turns up. Beside it, from the played hands:
    ``count``/``n``/``rate``/``ci_low``/``ci_high`` the seat won the hand (Wilson 95%), and
    ``wait_count``/``wait_rate`` it won on one of those opening waits. Play falls short of the
    model where others win first or the hand changes, and exceeds it where discards (放炮) or
    new waits help.

    Raises ValueError for a ``step`` outside (0, 1] or an unknown ``by`` column.
    """
    by = check_by(records, by)
    if not 0 < step <= 1:
        raise ValueError(f"step must be in (0, 1], got {step}")
    keys = ["variant", "threshold"] + [c for c in by if c not in ("variant", "threshold")]
    nb = math.ceil(1 / step - 1e-9)
    band = (pl.min_horizontal((pl.col("p_draw") / step).floor(), pl.lit(nb - 1)) * step
            ).round(6).alias("band")
    g = (records.filter("tenpai").with_columns(band)
         .group_by(keys + ["band"])
         .agg(pl.len().cast(pl.Int64).alias("n"), pl.col("p_draw").mean().alias("p_exact"),
              pl.col("won").sum().cast(pl.Int64).alias("count"),
              pl.col("won_on_wait").sum().cast(pl.Int64).alias("wait_count"))
         .sort(keys + ["band"]))
    g = with_wilson(g)
    return _shown(records, TENPAI_NOTES, g.with_columns(
        (pl.col("wait_count") / pl.col("n")).alias("wait_rate")).select(
        *keys, "band", "n", "p_exact", "count", "rate", "ci_low", "ci_high", "wait_count",
        "wait_rate"))


def _shown(records: pl.DataFrame, notes: Sequence[str], table: pl.DataFrame) -> ReportFrame:
    """``table`` with the run of the records it was made from (when they carry one), so that it
    shows in a notebook as ``zipai-sim table`` prints it."""
    run = getattr(records, "run", None) or {"variants": table["variant"].unique().to_list()}
    return ReportFrame.wrap(table, run, notes)
