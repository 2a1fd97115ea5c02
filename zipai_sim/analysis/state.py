"""The reference engine's hand (``play.engine.Game``) at the start of a turn-loop step as the
kernel's state (``kernels.play.analysis.load_state``): what the worlds of a question are built
from (RULES.md §5; the step and its snapshot: ``kernels.play.script``)."""

from __future__ import annotations

import numpy as np

from zipai_sim.kernels import play as kp
from zipai_sim.kernels.deal import DECK
from zipai_sim.kernels.play import analysis as ka

MELD_CODES = {"chi": kp.MELD_CHI, "peng": kp.MELD_PENG, "wei": kp.MELD_WEI,
              "chouwei": kp.MELD_CHOUWEI, "pao": kp.MELD_PAO, "ti": kp.MELD_TI}


def load(game, turn: tuple[str, int], counts: list[int], key: int, snaps: tuple, i: int
         ) -> np.ndarray:
    """Step state ``i`` of ``snaps`` from ``game`` as the step ``turn`` (``("rest", s)`` /
    ``("draw", s)``) starts; ``counts[s]``: questions seat ``s`` answered before (a world's
    stream index). Returns the deck (int8[80]): the stock in its last ``len(game.stock)``
    places, the cards already out of it as zeros (a world never reads them)."""
    seats = game.seats
    hands = np.zeros((kp.MAX_SEATS, 20), np.int8)
    groups = np.zeros((kp.MAX_SEATS, kp.MAX_MELDS, 5), np.int64)
    n_groups = np.zeros(kp.MAX_SEATS, np.int64)
    marks = np.zeros((3, kp.MAX_SEATS, 20), np.int8)
    disc = np.zeros(kp.MAX_SEATS, np.int64)
    for s, pl in enumerate(game.players):
        hands[s] = pl.hand
        for g, m in enumerate(pl.melds):
            cards = sorted(m.cards)
            groups[s, g, :2] = MELD_CODES[m.name], len(m.cards)
            groups[s, g, 2:] = cards[:3]
        n_groups[s] = len(pl.melds)
        for k in pl.chou:
            marks[kp.MK_CHOU, s, k] = 1
        for k in pl.passed_peng:
            marks[kp.MK_PASSED_PENG, s, k] = 1
        for k in pl.beside:
            marks[kp.MK_BESIDE, s, k] += 1
    for s, what, cards in game.moves:
        if what == "discards":
            disc[s] |= 1 << cards[0]
    pos = DECK - len(game.stock)
    scalars = np.zeros(ka.N_SCALARS, np.int64)
    scalars[[ka.SC_POS, ka.SC_DRAWS, ka.SC_FIRST, ka.SC_REST, ka.SC_SEAT, ka.SC_CHOUWIN]] = (
        pos, game.draws, int(game.first_discard), int(turn[0] == "rest"), turn[1],
        int(game.v.win.choupai_win))
    cnt = np.zeros(kp.MAX_SEATS, np.int64)
    cnt[:seats] = counts
    ka.load_state(game.P, hands, groups, n_groups, marks, scalars, disc, cnt, np.uint64(key),
                  0, tuple(a[i] for a in snaps))
    deck = np.zeros(DECK, np.int8)
    deck[pos:] = game.stock
    return deck
