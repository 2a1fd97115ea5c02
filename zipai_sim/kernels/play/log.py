"""Python helpers around the kernel: move rows as the reference's ``game.moves`` and log lines,
the deal line, and ``play_one`` for a single deck.
"""

import numpy as np

from zipai_sim.game import params as p
from zipai_sim.kernels.play.layout import (
    A_CHI,
    A_CHI_BI,
    A_CHOUWEI,
    A_DEAL_TI,
    A_DISCARD,
    A_DRAW,
    A_EXTRA,
    A_HU_DRAWN,
    A_HU_FANGPAO,
    A_HU_ZIMO,
    A_HU_ZIMO_SANTI,
    A_HU_ZIMO_WUKAN,
    A_HUANG,
    A_PAO,
    A_PENG,
    A_TI,
    A_WEI,
    HOW_DRAWN,
    HOW_FANGPAO,
    HOW_NONE,
    HOW_ZIMO,
    M_ACTION,
    M_AUX,
    M_CARDS,
    M_SEAT,
    MAX_CARDS,
    MAX_MOVES,
    MAX_SEATS,
    MOVE_COLS,
    N_FEAT,
    N_OUT,
    new_scratch,
)
from zipai_sim.kernels.play.learned import put_weights
from zipai_sim.kernels.play.turn import play_hand

# --- Python helpers -----------------------------------------------------------------------------

_WHAT = {A_DEAL_TI: "提 (dealt)", A_EXTRA: "extra card", A_DISCARD: "discards", A_DRAW: "draws",
         A_WEI: "偎", A_CHOUWEI: "臭偎", A_TI: "提", A_PAO: "跑", A_PENG: "碰", A_CHI: "吃",
         A_CHI_BI: "吃 + 比"}
_HU = {A_HU_ZIMO: "zimo", A_HU_FANGPAO: "fangpao", A_HU_DRAWN: "drawn",
       A_HU_ZIMO_SANTI: "zimo, santi", A_HU_ZIMO_WUKAN: "zimo, wukan"}
HOW_NAMES = {HOW_NONE: "", HOW_ZIMO: "zimo", HOW_FANGPAO: "fangpao", HOW_DRAWN: "drawn"}
INSTANT_NAMES = {0: "", 1: "santi", 2: "wukan"}


def move_tuple(row) -> tuple[int, str, tuple[int, ...]] | None:
    """A move row as the reference's ``game.moves`` entry ``(seat, what, cards)``; None for the
    荒庄 row (the reference logs it but lists no move)."""
    a = int(row[M_ACTION])
    if a == A_HUANG:
        return None
    cards = tuple(int(k) for k in row[M_CARDS:M_CARDS + MAX_CARDS] if k >= 0)
    what = _WHAT.get(a)
    if what is None:
        what = f"胡 ({_HU[a]}) {int(row[M_AUX])} 胡息 on"
    return int(row[M_SEAT]), what, cards


def moves_to_log(moves, n) -> list[str]:
    """The reference's ``log`` lines for move rows ``moves[:n]`` (without the "deal:" line:
    ``deal_line``)."""
    from zipai_sim.game.cards import card_name

    lines = []
    for r in range(n):
        t = move_tuple(moves[r])
        if t is None:
            lines.append("荒庄: the stock is empty")
            continue
        s, what, cards = t
        lines.append(f"{s}: {what} {''.join(card_name(k) for k in cards)}".rstrip())
    return lines


def deal_line(deck, P) -> str:
    """The reference's first log line ("deal: hands | ... | 亮张 X") for a dealt deck."""
    from zipai_sim.game.cards import card_name

    seats, h = P[p.SEATS], P[p.OTHER_CARDS]
    hands = [[0] * 20 for _ in range(seats)]
    for s in range(seats):
        for k in deck[s * h:(s + 1) * h]:
            hands[s][int(k)] += 1
    lz = int(deck[seats * h])
    hands[0][lz] += 1
    return "deal: " + " | ".join(
        "".join(card_name(k) for k in range(20) for _ in range(hd[k])) for hd in hands
    ) + f" | 亮张 {card_name(lz)}"


def play_one(variant, deck, policies, key: int = 0, j: int = 0, scratch=None, weights=None):
    """Play one dealt deck with ``variant`` (a ``Variant``); ``policies``: one int per seat
    (POL_RANDOM / POL_GREEDY / POL_LOOKAHEAD / POL_STUDY / POL_LEARNED); ``weights``: the
    seats' (float64[MAX_SEATS, W_COLS] or [MAX_SEATS, N_FEAT], ``play.learned.weights_for``; zeros when None). Returns
    ``(moves int64[n, MOVE_COLS], out int64[N_OUT])``."""
    S = new_scratch() if scratch is None else scratch
    put_weights(S[9], np.zeros((MAX_SEATS, N_FEAT)) if weights is None else np.ascontiguousarray(
        weights, np.float64))
    moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
    out = np.empty(N_OUT, np.int64)
    n = play_hand(np.asarray(deck, np.int8), variant.params, int(bool(variant.win.choupai_win)),
                  np.asarray(policies, np.int64), np.uint64(key), j, moves, out, S)
    return moves[:n].copy(), out
