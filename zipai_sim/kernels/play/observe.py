"""What a seat sees when it is asked a question: the batched table's observation (issue 48;
``kernels.play.table``, the layout ``OB_*``/``SB_*``/``Q_*`` in ``kernels.play.layout``, read
in docs/guide/rl.md).

It is written at the moment a question is frozen in mode 1 (``kernels.play.script``), from the
state as it is then, into ``fl[FL_OBS:FL_OBS + OBS_SIZE]``. It reads only what the seat may
know (RULES.md §3, §5; seed 000 ⑴: the others' hands, their face-down 偎 and the stock are
hidden; a pass is silent, so another seat's 臭 and passed 碰 are hidden too, only its discards
are public): the redeal test in tests/test_rl_table.py changes every hidden card and checks
that no observation changes.
"""

from numba import njit

from zipai_sim.kernels.chi import NO_GROUP, gcard
from zipai_sim.kernels.deal import DECK
from zipai_sim.kernels.play.layout import (
    FL_OBS,
    I_DISC,
    I_DRAWS,
    I_FIRST,
    I_HELD,
    I_LIANG,
    I_NMELD,
    I_POS,
    I_SEATS,
    I_STEP_REST,
    I_STEP_SEAT,
    MAX_CHI_ACTS,
    MD_CARDS,
    MD_HUXI,
    MD_KIND,
    MD_LEN,
    MELD_CHI,
    MELD_CHOUWEI,
    MELD_PAO,
    MELD_PENG,
    MELD_TI,
    MELD_WEI,
    MK_BESIDE,
    MK_CHOU,
    MK_PASSED_PENG,
    OB_CHI,
    OB_HAND,
    OB_Q,
    OB_SEATS,
    OB_UNSEEN,
    OBS_SIZE,
    Q_CARD,
    Q_DRAWN,
    Q_DRAWS,
    Q_FIRST,
    Q_FROM,
    Q_KIND,
    Q_LIANG,
    Q_SEAT,
    Q_STOCK,
    RO_DISCARD,
    SB_BESIDE,
    SB_CHI,
    SB_CHOU,
    SB_DEALER,
    SB_DISC,
    SB_FOUR,
    SB_HELD,
    SB_HUXI,
    SB_NWEI,
    SB_PASSED,
    SB_SEATED,
    SB_SIZE,
    SB_TRIPLE,
    SB_WEI,
    i64,
)
from zipai_sim.kernels.play.unseen import unseen


@njit(cache=True, _nrt=False)
def observe(hands, marks, melds, ints, fl, U, s, kind, card):
    """Seat ``s``'s observation of its question (``kind``: ``RO_*``; ``card``: the card on
    offer, -1 for a discard) into ``fl[FL_OBS:FL_OBS + OBS_SIZE]`` (float64; a 吃 question's
    options follow by ``observe_chi``); ``U``: int8[20] scratch."""
    o = FL_OBS
    for i in range(OBS_SIZE):
        fl[o + i] = 0.0
    seats = ints[I_SEATS]
    for k in range(20):
        fl[o + OB_HAND + k] = hands[s, k]
    unseen(hands, marks, melds, ints, s, card, U)
    for k in range(20):
        fl[o + OB_UNSEEN + k] = U[k]
    for r in range(seats):
        t = (s + r) % seats
        b = o + OB_SEATS + r * SB_SIZE
        nwei = i64(0)
        huxi = i64(0)
        for m in range(ints[I_NMELD + t]):
            mk = melds[t, m, MD_KIND]
            c0 = melds[t, m, MD_CARDS]
            if mk == MELD_WEI:
                nwei += 1
                if t != s:
                    continue  # face down: another seat sees neither its kind nor its 胡息
                fl[b + SB_WEI + c0] = 1.0
            elif mk == MELD_CHI:
                for q in range(melds[t, m, MD_LEN]):
                    fl[b + SB_CHI + melds[t, m, MD_CARDS + q]] += 1.0
            elif mk == MELD_PENG or mk == MELD_CHOUWEI:
                fl[b + SB_TRIPLE + c0] = 1.0
            elif mk == MELD_PAO or mk == MELD_TI:
                fl[b + SB_FOUR + c0] = 1.0
            huxi += melds[t, m, MD_HUXI]
        for k in range(20):
            fl[b + SB_BESIDE + k] = marks[MK_BESIDE, t, k]
            fl[b + SB_DISC + k] = (ints[I_DISC + t] >> k) & 1
            if t == s:
                fl[b + SB_CHOU + k] = marks[MK_CHOU, t, k]
                fl[b + SB_PASSED + k] = marks[MK_PASSED_PENG, t, k]
        fl[b + SB_NWEI] = nwei
        fl[b + SB_HELD] = ints[I_HELD + t]
        fl[b + SB_HUXI] = huxi
        fl[b + SB_DEALER] = 1.0 if t == 0 else 0.0
        fl[b + SB_SEATED] = 1.0
    q = o + OB_Q
    fl[q + Q_KIND + kind] = 1.0
    if kind != RO_DISCARD and card >= 0:
        fl[q + Q_CARD + card] = 1.0
        src = ints[I_STEP_SEAT]  # a turn-loop step offers one card, from its own seat
        fl[q + Q_FROM + (src - s + seats) % seats] = 1.0
        fl[q + Q_DRAWN] = 1.0 if ints[I_STEP_REST] == 0 else 0.0
    fl[q + Q_LIANG + ints[I_LIANG]] = 1.0
    fl[q + Q_STOCK] = DECK - ints[I_POS]
    fl[q + Q_DRAWS] = ints[I_DRAWS]
    fl[q + Q_FIRST] = ints[I_FIRST]
    fl[q + Q_SEAT + s] = 1.0


@njit(cache=True, _nrt=False)
def observe_chi(fl, cs, ncs):
    """A 吃 question's options ``cs[:ncs]`` (``kernels.chi`` rows: the 吃 group, its 比
    groups) into the observation's ``OB_CHI`` rows: option j's cards by kind."""
    o = FL_OBS
    for j in range(min(ncs, MAX_CHI_ACTS)):
        for g in range(3):
            code = cs[j, g]
            if code == NO_GROUP:
                continue
            for t in range(3):
                fl[o + OB_CHI + 20 * j + gcard(code, t)] += 1.0
