"""The sampled per-hand rows of ``simulate_hands`` (``rows=K``): the first ``K`` hands of every
chunk, from either engine, as one table (columns in ``simulate_hands``' docstring)."""

from __future__ import annotations

import numpy as np
import polars as pl

from ..settle import card_counts
from ..variants import Variant
from .engine import Game


def _outcome_row(game: Game, out) -> np.ndarray:
    """A reference hand's outcome as a ``kernels.play`` outcome row (``int64[N_OUT]``, O_*
    columns; ``O_MOVES`` left 0), so both engines' sampled rows are built by one function."""
    from ..kernels import play as kp

    instant = {name: code for code, name in kp.INSTANT_NAMES.items()}
    row = np.zeros(kp.N_OUT, np.int64)
    row[[kp.O_WINNER, kp.O_PAYER, kp.O_WIN_CARD]] = -1
    row[kp.O_CO + kp.CO_SEAT:kp.O_CO + kp.MAX_CO * kp.CO_COLS:kp.CO_COLS] = -1  # no co-winner
    row[kp.O_DRAWS] = out.draws
    if out.winner < 0:
        return row
    row[kp.O_WINNER], row[kp.O_PAYER], row[kp.O_HUXI] = out.winner, out.payer, out.huxi
    row[kp.O_HOW] = {"zimo": kp.HOW_ZIMO, "fangpao": kp.HOW_FANGPAO, "drawn": kp.HOW_DRAWN}[
        out.how]
    row[kp.O_TIANHU], row[kp.O_DIHU], row[kp.O_HAIDI] = out.tianhu, out.dihu, out.haidi
    row[kp.O_INSTANT] = instant[out.instant]
    row[kp.O_FANXING], row[kp.O_WIN_CARD] = out.fanxing, out.win_card
    reds, bigs, smalls = card_counts(out.cards)
    row[kp.O_RED], row[kp.O_BIG], row[kp.O_TOTAL] = reds, bigs, bigs + smalls
    row[kp.O_ALL_PUNGS] = out.all_pungs
    row[kp.O_NCO] = len(out.cowinners)
    for q, c in enumerate(out.cowinners):
        base = kp.O_CO + q * kp.CO_COLS
        reds, bigs, smalls = card_counts(c.cards)
        row[base + kp.CO_SEAT], row[base + kp.CO_FANXING] = c.seat, c.fanxing
        row[base + kp.CO_RED], row[base + kp.CO_BIG] = reds, bigs
        row[base + kp.CO_TOTAL], row[base + kp.CO_ALL_PUNGS] = bigs + smalls, c.all_pungs
        row[base + kp.CO_INSTANT] = instant[c.instant]
    return row


def _sample_block(chunk: int, chunk_size: int, rows: np.ndarray, pay: np.ndarray,
                  units: np.ndarray) -> np.ndarray:
    """Sampled hands of one chunk as ``int64[k, 2 + N_OUT + 2 + width]``: chunk, deal index in
    the run, the outcome row, (win units, 翻信 units), payments per seat (+ sitter)."""
    k = len(rows)
    head = np.stack([np.full(k, chunk, np.int64),
                     chunk * chunk_size + np.arange(k, dtype=np.int64)], axis=1)
    return np.concatenate([head, rows, units, pay], axis=1).astype(np.int64)


def _rows_frame(v: Variant, block: np.ndarray) -> pl.DataFrame:
    """The sampled per-hand rows (``_sample_block`` columns) as a table; see `simulate_hands`."""
    from ..cards import card_name
    from ..kernels import play as kp

    o = 2  # outcome columns start here
    col = {name: block[:, o + i] for name, i in (
        ("winner", kp.O_WINNER), ("how", kp.O_HOW), ("payer", kp.O_PAYER), ("huxi", kp.O_HUXI),
        ("tianhu", kp.O_TIANHU), ("dihu", kp.O_DIHU), ("haidi", kp.O_HAIDI),
        ("instant", kp.O_INSTANT), ("fanxing", kp.O_FANXING), ("draws", kp.O_DRAWS),
        ("reds", kp.O_RED), ("bigs", kp.O_BIG), ("all_pungs", kp.O_ALL_PUNGS),
        ("win_card", kp.O_WIN_CARD), ("cards", kp.O_TOTAL))}
    u = o + kp.N_OUT
    seats = v.layout.players
    data: dict[str, object] = {
        "variant": [v.key] * len(block), "threshold": np.full(len(block), v.win.threshold),
        "chunk": block[:, 0], "deal": block[:, 1], "winner": col["winner"],
        "how": [kp.HOW_NAMES[int(x)] or None for x in col["how"]], "payer": col["payer"],
        "huxi": col["huxi"], "units": block[:, u], "fanxing": col["fanxing"],
        "fanxing_units": block[:, u + 1], "tianhu": col["tianhu"].astype(bool),
        "dihu": col["dihu"].astype(bool), "haidi": col["haidi"].astype(bool),
        "instant": [kp.INSTANT_NAMES[int(x)] for x in col["instant"]], "draws": col["draws"],
        "win_card": [card_name(int(x)) if x >= 0 else None for x in col["win_card"]],
        "reds": col["reds"], "bigs": col["bigs"], "cards": col["cards"],
        "all_pungs": col["all_pungs"].astype(bool),
        # a shared win at the deal: the other winners (RULES.md §6), usually none
        "cowinners": [[int(r[o + kp.O_CO + q * kp.CO_COLS + kp.CO_SEAT])
                       for q in range(int(r[o + kp.O_NCO]))] for r in block]}
    for s in range(seats):
        data[f"pay_seat{s}"] = block[:, u + 2 + s]
    if v.layout.sitter:
        data["pay_sitter"] = block[:, u + 2 + seats]
    schema = {k: (pl.String if k in ("variant", "how", "instant", "win_card") else
                  pl.Boolean if k in ("tianhu", "dihu", "haidi", "all_pungs") else
                  pl.List(pl.Int64) if k == "cowinners" else pl.Int64)
              for k in data}
    return pl.DataFrame(data, schema=schema)
