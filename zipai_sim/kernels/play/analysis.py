"""The hand analysis's kernel (issue 40): a turn-loop step's state loaded from plain arrays, so
that ``playout_batch`` (``kernels.play.rollout``) can play every answer of a recorded or typed
question out in worlds, exactly as the teacher's search does for its own questions.

``load_state`` writes what ``play_turns`` would hold at the start of that step: hands and their
running totals (``set_count``), table groups and theirs (``add_same``/``add_group``), the 臭牌
marks, the cards beside each seat, the stock position, the first-discard flag, the seats'
policy streams and the public counts a world's stream is drawn from. The Python side
(``analysis.state``) takes these arrays from the reference engine's hand; a test compares the
result with the snapshot a kernel replay of the same record takes (``replay_batch`` with
``ask_hu``).
"""

import numpy as np
from numba import njit

from zipai_sim.game import params as p
from zipai_sim.kernels.chi import gcode
from zipai_sim.kernels.deal import NO_SPARE
from zipai_sim.kernels.play.layout import (
    I_ASK_HU,
    I_CHOUWIN,
    I_DISC,
    I_DRAWS,
    I_FIRST,
    I_H,
    I_NOW_KEY,
    I_POS,
    I_RO_CNT,
    I_SEATS,
    I_STEP_REST,
    I_STEP_SEAT,
    MELD_CHI,
    SALT,
    SEAT_SHIFT,
    i64,
)
from zipai_sim.kernels.play.state import add_group, add_same, set_count
from zipai_sim.kernels.rng import deal_state

#: columns of ``scalars`` (``load_state``)
SC_POS, SC_DRAWS, SC_FIRST, SC_REST, SC_SEAT, SC_CHOUWIN = range(6)
N_SCALARS = 6


@njit(cache=True)
def load_state(P, hands_in, groups, n_groups, marks_in, scalars, disc, counts, key, j, snap):
    """The state at the start of a turn-loop step into ``snap`` (hands int8[4, 20], marks
    int8[3, 4, 20], groups int64[4, 12, 7], ints int64[N_INTS], streams uint64[8]: the layout
    ``replay_batch`` snapshots).

    ``hands_in`` int8[4, 20]: each seat's hand; ``groups`` int64[4, 12, 5]: each seat's table
    groups in the order laid, columns (MELD_* kind, number of cards, three sorted kinds of a 吃
    group or the kind of the others); ``n_groups`` int64[4]; ``marks_in`` int8[3, 4, 20] (臭,
    passed 碰, cards beside); ``scalars`` int64[N_SCALARS] (``SC_*``: next stock position,
    draws made, 1 before the first discard is settled, the step: 1 a discard step / 0 a draw,
    its seat, the variant's ``choupai_win``); ``disc`` int64[4]: kinds each seat discarded (bit
    k); ``counts`` int64[4]: questions each seat has answered (a world's stream index); ``key``,
    ``j``: the seats' policy streams."""
    hands, marks, melds, ints, rng = snap
    seats = i64(P[p.SEATS])
    hands[:, :] = 0
    marks[:, :, :] = 0
    melds[:, :, :] = 0
    ints[:] = 0
    ints[I_SEATS] = seats
    ints[I_H] = P[p.OTHER_CARDS]
    ints[I_CHOUWIN] = scalars[SC_CHOUWIN]
    ints[I_POS] = scalars[SC_POS]
    ints[I_DRAWS] = scalars[SC_DRAWS]
    ints[I_FIRST] = scalars[SC_FIRST]
    ints[I_STEP_REST] = scalars[SC_REST]
    ints[I_STEP_SEAT] = scalars[SC_SEAT]
    ints[I_ASK_HU] = 1  # an analysis world: no other seat wins before the scripted question
    for s in range(seats):
        for k in range(20):
            if hands_in[s, k] > 0:
                set_count(hands, ints, i64(s), i64(k), i64(hands_in[s, k]))
            for m in range(3):
                marks[m, s, k] = marks_in[m, s, k]
        for g in range(n_groups[s]):
            if groups[s, g, 0] == MELD_CHI:
                add_group(P, melds, ints, i64(s),
                          i64(gcode(groups[s, g, 2], groups[s, g, 3], groups[s, g, 4])))
            else:
                add_same(P, melds, ints, i64(s), i64(groups[s, g, 0]), i64(groups[s, g, 2]),
                         i64(groups[s, g, 1]))
        ints[I_DISC + s] = disc[s]
        ints[I_RO_CNT + s] = counts[s]
        ints[I_NOW_KEY + s] = -1  # no greedy score is cached for this hand yet
        rng[2 * s] = deal_state(key ^ SALT ^ (np.uint64(s) << np.uint64(SEAT_SHIFT)), j)
        rng[2 * s + 1] = NO_SPARE
