"""The sampled per-hand rows of ``simulate_hands`` (``rows=K``): the first ``K`` hands of every
chunk, from either engine, as one table (columns in ``simulate_hands``' docstring)."""

from __future__ import annotations

import numpy as np
import polars as pl

from zipai_sim.game.variants import Variant


def sample_block(chunk: int, chunk_size: int, rows: np.ndarray, pay: np.ndarray,
                  units: np.ndarray) -> np.ndarray:
    """Sampled hands of one chunk as ``int64[k, 2 + N_OUT + 2 + width]``: chunk, deal index in
    the run, the outcome row, (win units, 翻信 units), payments per seat (+ sitter)."""
    k = len(rows)
    head = np.stack([np.full(k, chunk, np.int64),
                     chunk * chunk_size + np.arange(k, dtype=np.int64)], axis=1)
    return np.concatenate([head, rows, units, pay], axis=1).astype(np.int64)


def rows_frame(v: Variant, block: np.ndarray) -> pl.DataFrame:
    """The sampled per-hand rows (``sample_block`` columns) as a table; see `simulate_hands`."""
    from zipai_sim.game.cards import card_name
    from zipai_sim.kernels import play as kp

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
