"""What a lookahead seat has not seen, and the chance that a card it waits for is still to come
(issue 9; ``lookahead``'s ``vw`` and ``v1``): the unseen counts from what the seat sees
(``play.observation.observe``) and the hypergeometric miss chances by number of live cards, the
same floating-point products as the twin's ``hit`` (``zipai_sim.play.bots``).
"""

from numba import njit

from zipai_sim.kernels.deal import DECK
from zipai_sim.kernels.play.layout import (
    FL_T0,
    FL_T1,
    I_HELD,
    I_NMELD,
    I_POS,
    I_SEATS,
    MD_CARDS,
    MD_KIND,
    MD_LEN,
    MELD_WEI,
    MK_BESIDE,
    i64,
)

U_ROW = 6  # the row of ``tmp`` (int8[8, 20]) holding the seat's unseen counts


@njit(cache=True, _nrt=False)
def unseen(hands, marks, melds, ints, s, c, U):
    """Write seat ``s``'s unseen counts into ``U: int8[20]`` (``c``: the card on offer, -1
    while discarding; it is seen when it lies nowhere else); returns (cards unseen, stock)."""
    for k in range(20):
        U[k] = 4 - hands[s, k]
    placed = i64(0)
    for t in range(ints[I_SEATS]):
        placed += ints[I_HELD + t]
        for i in range(ints[I_NMELD + t]):
            n = melds[t, i, MD_LEN]
            placed += n
            if t != s and melds[t, i, MD_KIND] == MELD_WEI:
                continue  # face down: another seat sees neither kind nor 胡息
            for q in range(n):
                U[melds[t, i, MD_CARDS + q]] -= 1
        for k in range(20):
            b = marks[MK_BESIDE, t, k]
            placed += b
            U[k] -= b
    stock = i64(DECK) - ints[I_POS]
    placed += stock
    if c >= 0 and placed < DECK:
        U[c] -= 1
    utot = i64(0)
    for k in range(20):
        utot += U[k]
    return utot, stock


@njit(cache=True, _nrt=False)
def _miss_table(fl, off, utot, stock):
    """``fl[off + L]`` = C(utot − L, stock) / C(utot, stock) for L = 0..utot: the chance that
    ``stock`` cards drawn from ``utot`` without replacement miss ``L`` given cards; the hit
    chance is 1 − it. Built once a decision, by the products the twin's ``hit`` takes (the same
    doubles; 0 once a factor is 0)."""
    m = 1.0
    fl[off] = m
    for w in range(max(utot, 0)):
        a = utot - w - stock
        if a <= 0:
            m = 0.0
        else:
            m = m * a / (utot - w)
        fl[off + w + 1] = m


@njit(cache=True, _nrt=False)
def tables(fl, utot, stock):
    """Both miss tables of a decision into ``fl: float64[FL_SIZE]``: for ``(utot, stock)`` at
    ``FL_T0`` and, one card on, for ``(utot − 1, stock − 1)`` at ``FL_T1``."""
    _miss_table(fl, i64(FL_T0), utot, stock)
    _miss_table(fl, i64(FL_T1), utot - 1, max(stock - 1, 0))
