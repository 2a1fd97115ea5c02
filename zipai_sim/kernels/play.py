"""The numba play engine: the twin of ``zipai_sim.play.engine.Game`` (RULES.md §5–§6).

``play_hand`` plays one dealt deck move for move as the reference does, with the same seat
policies (0 random, 1 greedy: ``play.policies``) drawing from the same policy stream
(``Stream(key ^ POLICY_SALT, j)``), and writes the moves (``moves_out``, one ``M_*`` row each)
and the outcome (``out``, ``O_*`` columns). ``play_chunks`` runs whole chunks in parallel, one
prange iteration per chunk, deal ``j`` of chunk ``c`` dealt exactly as
``reference.shuffled_deck(keys[c], j)``.

No recursion: every step of the reference (turn loop, claims on a discard and on a draw, 臭牌,
比) is a loop here. State lives in the scratch tuple of ``new_scratch()`` (allocated once per
chunk, reset per hand), in this order:

- ``hands: int8[MAX_SEATS, 20]`` hand counts (坎 inside);
- ``marks: int8[3, MAX_SEATS, 20]``: ``[MK_CHOU]`` 臭 kinds, ``[MK_PASSED_PENG]`` kinds whose
  碰 the seat passed (a later own draw is a 臭偎), ``[MK_BESIDE]`` cards lying beside the seat;
- ``melds: int64[MAX_SEATS, MAX_MELDS, MELD_COLS]`` table groups in the reference's list order:
  kind (``MELD_*``), number of cards, 胡息, up to four kinds;
- ``ints: int64[N_INTS]`` scalars (``I_*``), ``rng: uint64[2]`` the policy stream (state, spare);
- ``work: int64[hand.WORK]`` for ``eval_hand``, ``tmp: int8[8, 20]`` rows, ``cs`` the 吃
  options (``kernels.chi``), ``opts: int64[20]`` discard options.

Speed notes. Every array a compiled call receives costs two atomic reference-count updates,
which dominated the first version: the hot checks (may a seat win, 跑, 碰, 吃 on this card) are
inlined and take only the arrays they read; calls are made only when something can happen.
``eval_hand`` is asked only when its own first tests (free-card count, orphan cards) pass on
packed counts, computed here the same way (``_may_eval``), so results are unchanged. Scalar
arguments are cast with ``_I`` so that numba compiles one signature per helper, not one per
literal.
"""

import numpy as np
from numba import njit, prange

from .. import params as p
from .chi import CHI_COLS, MAX_CHI, NO_GROUP, chi_options, chi_possible, gcard
from .deal import DECK, NO_SPARE, fresh_deck, shuffle_steps
from .hand import WORK, eval_hand, free_best, group_points, instant_shape, is_win, peng_points
from .opening import fanxing_value
from .packed import LOW, W, orphans
from .rng import bounded, deal_state

POLICY_SALT = 0x5A49504149  # the same salt as play.engine.POLICY_SALT
_SALT = np.uint64(POLICY_SALT)

MAX_SEATS = 4
MAX_MELDS = 12  # a seat holds at most H + 3 ≤ 24 cards at rest, at least 3 a group: ≤ 8
MAX_MOVES = 256  # moves per hand. Bound: ≤ 20 dealt 提 + 4 extra cards + 23 draws + 2
# (胡 / 荒庄) + 20 提/跑 onto a table group (one per kind) + every other move takes ≥ 1 card
# out of the hands (≤ 61 + 4 cards): < 140
MOVE_COLS = 12
MAX_CARDS = 9  # cards listed in one move (吃 + two 比 groups)

# policies (one per seat, ``policies: int64[seats]``)
POL_RANDOM = 0
POL_GREEDY = 1

# --- move rows: ``moves_out[i] = [seat, action, aux, card kinds × 9 (-1 padded)]`` ------------
M_SEAT = 0
M_ACTION = 1
M_AUX = 2  # 胡息 of a 胡; 0 otherwise
M_CARDS = 3  # 3..11 the card kinds as ``game.moves`` lists them
# action codes (the reference's ``what``)
A_DEAL_TI = 0  # "提 (dealt)": an opening 提 laid down
A_EXTRA = 1  # "extra card": the two-提 extra card (TWO_TI_EXTRA)
A_DISCARD = 2  # "discards"
A_DRAW = 3  # "draws"
A_WEI = 4  # "偎"
A_CHOUWEI = 5  # "臭偎"
A_TI = 6  # "提" (a drawn 4th card onto a 坎 / 偎)
A_PAO = 7  # "跑"
A_PENG = 8  # "碰"
A_CHI = 9  # "吃"
A_CHI_BI = 10  # "吃 + 比"
A_HU_ZIMO = 11  # "胡 (zimo) N 胡息 on"
A_HU_FANGPAO = 12  # "胡 (fangpao) ..."
A_HU_DRAWN = 13  # "胡 (drawn) ..."
A_HU_ZIMO_SANTI = 14  # "胡 (zimo, santi) ...": 三提 at the deal
A_HU_ZIMO_WUKAN = 15  # "胡 (zimo, wukan) ...": 五坎 at the deal
A_HUANG = 16  # "荒庄: the stock is empty" (seat -1, no cards; a log line, not in game.moves)

# --- outcome row ``out: int64[N_OUT]`` -----------------------------------------------------------
O_WINNER = 0  # winning seat, -1 荒庄
O_HOW = 1  # HOW_* below
O_PAYER = 2  # the discarder of a 放炮, else -1
O_HUXI = 3  # winner's 胡息 (0 on 荒庄)
O_TIANHU = 4  # 0/1
O_DIHU = 5  # 0/1
O_HAIDI = 6  # 0/1: won on the last stock card
O_INSTANT = 7  # 0 none, 1 三提, 2 五坎 (hand.INSTANT_*)
O_FANXING = 8  # 翻信 units (0 when the variant has none)
O_DRAWS = 9  # stock cards drawn in play (the extra card is not a draw)
O_RED = 10  # red cards (二七十 贰柒拾) among the winner's cards, winning card included
O_BIG = 11  # big cards among them
O_ALL_PUNGS = 12  # 1: no 吃 on the table and the win is all 坎/提/偎/碰/跑 (+ one pair)
O_WIN_CARD = 13  # the card won on (the 亮张 for a win at the deal), -1 荒庄
O_MOVES = 14  # number of move rows written
O_TOTAL = 15  # all the winner's cards, winning card included (for the 十八小 名堂)
# a shared win at the deal (RULES.md §6: equal points, all win): the other winners, each with
# O_HUXI 胡息, in slots of CO_COLS columns from O_CO (seat -1: empty slot)
O_NCO = 16  # number of other winners
O_CO = 17
MAX_CO = 3  # MAX_SEATS − 1
CO_SEAT, CO_RED, CO_BIG, CO_TOTAL, CO_FANXING, CO_ALL_PUNGS, CO_INSTANT = range(7)
CO_COLS = 7
N_OUT = O_CO + MAX_CO * CO_COLS
HOW_NONE = 0
HOW_ZIMO = 1
HOW_FANGPAO = 2
HOW_DRAWN = 3

# --- table groups -------------------------------------------------------------------------------
MELD_CHI = 0
MELD_PENG = 1
MELD_WEI = 2
MELD_CHOUWEI = 3
MELD_PAO = 4
MELD_TI = 5
MELD_KAN = 6  # only for points: a 坎 never lies on the table
MD_KIND = 0
MD_LEN = 1
MD_HUXI = 2
MD_CARDS = 3  # 3..6
MELD_COLS = 7

MK_CHOU = 0
MK_PASSED_PENG = 1
MK_BESIDE = 2

# --- scalars ``ints`` ----------------------------------------------------------------------------
I_POS = 0  # next stock card: deck[I_POS]; the stock is empty at DECK
I_DRAWS = 1
I_FIRST = 2  # 1 until the first discard of the hand is settled
I_NMOV = 3
I_SEATS = 4
I_H = 5  # a non-dealer's dealt hand size
I_CHOUWIN = 6  # variant.win.choupai_win
I_HAVE = 7  # the policy stream's spare half is valid
I_NPASS = 8  # passed claims noted for the card in hand
I_NMELD = 9  # 9..12 number of table groups per seat
I_PASS = 13  # 13..28 (seat, was_peng) pairs of the passed claims
N_INTS = 29

# _win flags
F_TIANHU = 1
F_DIHU = 2
F_HAIDI = 4
F_IN_HAND = 8  # the winning card is already among the winner's cards (a win at the deal)
F_OWN = 16  # the winner's own card (its 提/偎 scoring)
F_DRAWN = 32  # a drawn card (a 碰 may become a 跑)

_I = np.int64  # call arguments are cast so that numba compiles one signature per helper

WIN = -2  # on_discard / on_draw: the hand was won (``out`` written)
NONE = -1  # nobody took the card

RED_MASK = (1 << 1) | (1 << 6) | (1 << 9) | (1 << 11) | (1 << 16) | (1 << 19)

# The greedy policy asks the same free-card questions many times in a hand (every discard
# candidate × every wait, again for each 碰/吃 offer). A direct-mapped memo of ``free_best`` in
# ``work[WORK:]`` (keys, then values) answers repeats; its entries are exact, so only time changes.
MEMO_BITS = 14
MEMO = 1 << MEMO_BITS
SMEMO = WORK + 2 * MEMO  # then a memo of whole ``_score`` answers: hand, (th, fo), score
PLAY_WORK = SMEMO + 3 * MEMO + 1  # last: the params hash the memos were filled under
_HASH = 0x7F4A7C159E3779B1  # odd multiplier (below 2**63 so numba keeps int64 arithmetic)



def _neighbours(o: int) -> int:
    """Spaced mask of the kinds whose arrival can stop kind ``o`` being an orphan
    (``packed.orphans``): ``o`` itself (a pair, a 绞), its twin (a 绞), the kinds within two in
    the same size (a run) and the other 二七十 of its size."""
    size, v = (o // 10) * 10, o % 10
    ks = {o, (o + 10) % 20} | {size + x for x in range(max(0, v - 2), min(9, v + 2) + 1)}
    if v in (1, 6, 9):
        ks |= {size + 1, size + 6, size + 9}
    return sum(1 << (W * k) for k in ks)


# Orphans only disappear when a card joins them, so a hand with orphans can only be completed
# by a card in every orphan's neighbourhood: ``_score`` asks about those kinds only.
NEIGHBOURS = np.array([_neighbours(o) for o in range(20)], np.int64)

SCORE_WIN = 1_000_000  # greedy score (win, waits, best) as one int: waits ≤ 20, 胡息 < 1000
SCORE_WAITS = 1_000


def new_scratch():
    """The scratch tuple ``play_hand`` takes (allocate once, reuse for every hand)."""
    return (
        np.zeros((MAX_SEATS, 20), np.int8),  # hands
        np.zeros((3, MAX_SEATS, 20), np.int8),  # marks
        np.zeros((MAX_SEATS, MAX_MELDS, MELD_COLS), np.int64),  # melds
        np.zeros(N_INTS, np.int64),  # ints
        np.zeros(2, np.uint64),  # rng
        np.zeros(PLAY_WORK, np.int64),  # eval_hand work, then the free_best memo
        np.zeros((8, 20), np.int8),  # tmp rows: 2 吃 check, 3 policy hand, 4 winner's cards, 5 free
        np.zeros((MAX_CHI, CHI_COLS), np.int64),  # 吃 options
        np.zeros(20, np.int64),  # discard options
    )


@njit(cache=True)
def _new_scratch():
    return (
        np.zeros((MAX_SEATS, 20), np.int8),
        np.zeros((3, MAX_SEATS, 20), np.int8),
        np.zeros((MAX_SEATS, MAX_MELDS, MELD_COLS), np.int64),
        np.zeros(N_INTS, np.int64),
        np.zeros(2, np.uint64),
        np.zeros(PLAY_WORK, np.int64),
        np.zeros((8, 20), np.int8),
        np.zeros((MAX_CHI, CHI_COLS), np.int64),
        np.zeros(20, np.int64),
    )


# --- small helpers ------------------------------------------------------------------------------

@njit(cache=True, _nrt=False, inline="always")
def _say(moves, ints, s, a, aux, k, n):
    """One move row: ``n`` copies of kind ``k``."""
    r = ints[I_NMOV]
    moves[r, M_SEAT] = s
    moves[r, M_ACTION] = a
    moves[r, M_AUX] = aux
    for i in range(MAX_CARDS):
        moves[r, M_CARDS + i] = k if i < n else -1
    ints[I_NMOV] = r + 1


@njit(cache=True, _nrt=False, inline="always")
def _below(rng, ints, m):
    """``Stream.below(m)`` on the policy stream."""
    st, sp, hv, v = bounded(rng[0], rng[1], ints[I_HAVE], m)
    rng[0] = st
    rng[1] = sp
    ints[I_HAVE] = hv
    return v


@njit(cache=True, _nrt=False, inline="always")
def _pts(P, kind, k):
    """胡息 of a three/four of a kind (``Game.pts``)."""
    if kind == MELD_PENG:
        return peng_points(P, k)
    if kind == MELD_WEI:
        return group_points(P, p.WEI_SMALL, k)
    if kind == MELD_CHOUWEI:
        return group_points(P, p.CHOUWEI_SMALL, k)
    if kind == MELD_PAO:
        return group_points(P, p.PAO_SMALL, k)
    if kind == MELD_TI:
        return group_points(P, p.TI_SMALL, k)
    return group_points(P, p.KAN_SMALL, k)


@njit(cache=True, _nrt=False, inline="always")
def run_pts(P, code):
    """胡息 of a 3-card free group (``Game.run_pts``): 一二三 and 二七十 score, others 0."""
    a = gcard(code, 0)
    b = gcard(code, 1)
    c = gcard(code, 2)
    size = (a // 10) * 10
    if a == size and b == size + 1 and c == size + 2:
        return P[p.YIERSAN_BIG] if size else P[p.YIERSAN_SMALL]
    if a == size + 1 and b == size + 6 and c == size + 9:
        return P[p.ERQISHI_BIG] if size else P[p.ERQISHI_SMALL]
    return 0


@njit(cache=True, _nrt=False, inline="always")
def _table_huxi(melds, ints, s):
    t = _I(0)
    for i in range(ints[I_NMELD + s]):
        t += melds[s, i, MD_HUXI]
    return t


@njit(cache=True, _nrt=False, inline="always")
def _fours(melds, ints, s):
    t = _I(0)
    for i in range(ints[I_NMELD + s]):
        if melds[s, i, MD_LEN] == 4:
            t += 1
    return t


@njit(cache=True, _nrt=False, inline="always")
def _at_rest(hands, melds, ints, s):
    t = _I(0)
    for k in range(20):
        t += hands[s, k]
    for i in range(ints[I_NMELD + s]):
        t += melds[s, i, MD_LEN]
    return t


@njit(cache=True, _nrt=False, inline="always")
def _meld_of(melds, ints, s, c, peng_ok, wei_ok):
    """Index of the first 偎/臭偎 (``wei_ok``) or 碰 (``peng_ok``) of kind ``c``, or -1."""
    for i in range(ints[I_NMELD + s]):
        if melds[s, i, MD_CARDS] != c:
            continue
        kd = melds[s, i, MD_KIND]
        if wei_ok and (kd == MELD_WEI or kd == MELD_CHOUWEI):
            return i
        if peng_ok and kd == MELD_PENG:
            return i
    return -1


@njit(cache=True, _nrt=False, inline="always")
def _add_same(P, melds, ints, s, kind, c, n):
    """Append a table group of ``n`` copies of ``c``."""
    i = ints[I_NMELD + s]
    melds[s, i, MD_KIND] = kind
    melds[s, i, MD_LEN] = n
    melds[s, i, MD_HUXI] = _pts(P, kind, c)
    for t in range(4):
        melds[s, i, MD_CARDS + t] = c if t < n else -1
    ints[I_NMELD + s] = i + 1


@njit(cache=True, _nrt=False, inline="always")
def _add_group(P, melds, ints, s, code):
    """Append a 吃/比 group (``MELD_CHI``)."""
    i = ints[I_NMELD + s]
    melds[s, i, MD_KIND] = MELD_CHI
    melds[s, i, MD_LEN] = 3
    melds[s, i, MD_HUXI] = run_pts(P, code)
    for t in range(3):
        melds[s, i, MD_CARDS + t] = gcard(code, t)
    melds[s, i, MD_CARDS + 3] = -1
    ints[I_NMELD + s] = i + 1


@njit(cache=True, _nrt=False, inline="always")
def _del_meld(melds, ints, s, i):
    n = ints[I_NMELD + s]
    for r in range(i, n - 1):
        for t in range(MELD_COLS):
            melds[s, r, t] = melds[s, r + 1, t]
    ints[I_NMELD + s] = n - 1


# --- evaluation ---------------------------------------------------------------------------------
#
# eval_hand costs a call and a packing pass; most hands it is asked about fail its first tests
# (free-card count mod 3, a free card that joins no group). ``_may_eval`` runs exactly those
# tests of ``hand.solve_free`` on every branch ``eval_hand`` would try, on packed free cards:
# False means eval_hand returns NO_HAND for sure, True means it must be asked. Results are the
# same either way; only time changes.

@njit(cache=True, _nrt=False, inline="always")
def _free_pack(hand):
    """(packed free cards, their number, four-card groups) of ``hand`` (坎/提 locked)."""
    pk = 0
    nf = 0
    f4 = 0
    for k in range(20):
        n = hand[k]
        if n == 4:
            f4 += 1
        elif n < 3:
            pk += np.int64(n) << (W * k)
            nf += n
    return pk, nf, f4


@njit(cache=True, _nrt=False, inline="always")
def _pre(pk, nf, fours):
    """``solve_free``'s tests before its search: count and orphan cards."""
    need = 1 if fours >= 1 else 0
    rest = nf - 2 * need
    if rest < 0 or rest % 3 != 0:
        return False
    m1 = (pk | (pk >> 1)) & LOW
    m2 = (pk >> 1) & LOW
    return orphans(m1, m2, need) == 0


@njit(cache=True, _nrt=False, inline="always")
def _may_eval(P, pk, nf, fours, inc, own, hinc):
    """False when ``eval_hand`` on the hand packed as ``(pk, nf, fours)`` (fours: table + hand)
    with incoming ``inc`` (own draw: ``own``; ``hinc`` = hand[inc]) surely gives NO_HAND."""
    if inc < 0:
        return _pre(pk, nf, fours)
    b = np.int64(1) << (W * inc)
    if hinc == 3:
        if _pre(pk, nf, fours + 1):
            return True
        if own == 0 and P[p.QIANGZHAO] == 1:
            return _pre(pk + b, nf + 1, fours)
        return False
    if hinc == 2:
        if _pre(pk - 2 * b, nf - 2, fours):
            return True
        if own == 0:
            return _pre(pk + b, nf + 1, fours)
        return False
    if hinc >= 4:
        return False
    return _pre(pk + b, nf + 1, fours)


@njit(cache=True, _nrt=False, inline="always")
def _seat_pack(hands, s):
    """(packed free cards, their number, 提 in hand, packed whole hand) of seat ``s``."""
    pk = _I(0)
    nf = _I(0)
    f4 = _I(0)
    full = _I(0)
    for k in range(20):
        n = _I(hands[s, k])
        full += n << (W * k)
        if n == 4:
            f4 += 1
        elif n < 3:
            pk += n << (W * k)
            nf += n
    return pk, nf, f4, full


@njit(cache=True, _nrt=False, inline="always")
def _four_from(melds, s, i, c, own, drawn):
    """The four-card group table group ``i`` of seat ``s`` becomes with card ``c`` (§6: a 偎
    makes 提 on an own draw and 跑 on another's card, a 碰 makes 跑 on a drawn card), or -1."""
    if melds[s, i, MD_LEN] != 3 or melds[s, i, MD_CARDS] != c:
        return -1
    kd = melds[s, i, MD_KIND]
    if kd == MELD_WEI or kd == MELD_CHOUWEI:
        return MELD_TI if own else MELD_PAO
    if kd == MELD_PENG and drawn:
        return MELD_PAO
    return -1


@njit(cache=True, _nrt=False, inline="always")
def _forced_at(P, melds, ints, s, c, own, drawn):
    """``Game.placements``' forced group: (index of the table group card ``c`` turns into a
    提/跑, its new kind, whether the card may still go to the hand), or (-1, -1, True). Only a
    跑 may be skipped, and only with 抢招和 (RULES.md §6)."""
    for i in range(ints[I_NMELD + s]):
        new = _four_from(melds, s, i, c, own, drawn)
        if new >= 0:
            return i, new, new == MELD_PAO and P[p.QIANGZHAO] == 1
    return _I(-1), _I(-1), True


@njit(cache=True, _nrt=False)
def _win_huxi(P, hands, melds, ints, work, s, c, own, drawn):
    """``Game.win_huxi``: best 胡息 of seat ``s`` winning on ``c`` (-1: cannot)."""
    th = _table_huxi(melds, ints, s)
    fo = _fours(melds, ints, s)
    pk, nf, f4, _ = _seat_pack(hands, s)
    best = _I(-1)
    i, new, free_ok = _forced_at(P, melds, ints, s, c, own, drawn)
    if i >= 0 and _pre(pk, nf, fo + f4 + 1):
        best = eval_hand(hands[s], -1, 1, th - melds[s, i, MD_HUXI] + _pts(P, new, c), fo + 1,
                         P, work)
    if free_ok and _may_eval(P, pk, nf, fo + f4, c, own, hands[s, c]):
        best = max(best, eval_hand(hands[s], c, own, th, fo, P, work))
    return best


@njit(cache=True, _nrt=False)
def _can_win(P, hands, marks, melds, ints, work, s, c, own, drawn):
    """``Game.can_win``: the 胡息 of a win of seat ``s`` on ``c``, or -1. The exact pre-tests
    run here first, so that most calls call nothing."""
    if (marks[MK_CHOU, s, c] != 0 or marks[MK_PASSED_PENG, s, c] != 0) and ints[I_CHOUWIN] == 0:
        return _I(-1)
    fo = _fours(melds, ints, s)
    pk, nf, f4, _ = _seat_pack(hands, s)
    i, _new, free_ok = _forced_at(P, melds, ints, s, c, own, drawn)
    may = i >= 0 and _pre(pk, nf, fo + f4 + 1)
    if not may and free_ok:
        may = _may_eval(P, pk, nf, fo + f4, c, own, hands[s, c])
    if not may:
        return _I(-1)
    hx = _win_huxi(P, hands, melds, ints, work, _I(s), _I(c), _I(own), _I(drawn))
    return hx if is_win(hx, P) else _I(-1)


@njit(cache=True, _nrt=False, inline="always")
def _pungs_only(free, fours):
    """Free cards that need no run, 二七十 or 绞: none (no four-card group) or exactly one pair
    (with one: the §3 pair rule)."""
    n = _I(0)
    pairs = _I(0)
    for k in range(20):
        n += free[k]
        if free[k] == 2:
            pairs += 1
    if fours == 0:
        return n == 0
    return n == 2 and pairs == 1


@njit(cache=True, _nrt=False)
def _all_pungs(P, S, s, c, flags, hx):
    """1 when the winner holds no 吃 group and the win at ``hx`` 胡息 is made with 坎/提/偎/碰/跑
    only (+ the pair the pair rule owes): some placement of the winning card that reaches
    ``hx`` leaves the free hand cards empty or exactly one pair. Placements are those of
    ``Game.placements``: the card completes a table 偎 (提/跑) or, drawn, a 碰 (跑), and only
    where that group is not forced (none, or a 跑 under 抢招和) may it go to the hand: completing
    a 坎 (提/跑), a pair (偎/碰) or staying free."""
    hands, melds, ints, tmp = S[0], S[2], S[3], S[6]
    own = (flags & F_OWN) != 0
    drawn = (flags & F_DRAWN) != 0
    for i in range(ints[I_NMELD + s]):
        if melds[s, i, MD_KIND] == MELD_CHI:
            return 0
    th = _table_huxi(melds, ints, s)
    fo = _fours(melds, ints, s)
    free = tmp[5]
    locked = th
    for k in range(20):
        n = hands[s, k]
        if n == 4:
            locked += _pts(P, MELD_TI, k)
            fo += 1
            free[k] = 0
        elif n == 3:
            locked += _pts(P, MELD_KAN, k)
            free[k] = 0
        else:
            free[k] = n
    if flags & F_IN_HAND:
        return 1 if (_pungs_only(free, fo) and locked == hx) else 0
    fi, fnew, free_ok = _forced_at(P, melds, ints, s, c, _I(own), _I(drawn))
    if fi >= 0 and _pungs_only(free, fo + 1) and \
            locked - melds[s, fi, MD_HUXI] + _pts(P, fnew, c) == hx:
        return 1
    if not free_ok:
        return 0
    n = hands[s, c]
    if n == 3:
        new = MELD_TI if own else MELD_PAO
        if _pungs_only(free, fo + 1) and locked - _pts(P, MELD_KAN, c) + _pts(P, new, c) == hx:
            return 1
    elif n == 2:
        free[c] = 0
        add = _pts(P, MELD_WEI, c) if own else _pts(P, MELD_PENG, c)
        if _pungs_only(free, fo) and locked + add == hx:
            return 1
        free[c] = 2
    elif n <= 1:
        free[c] = n + 1
        if _pungs_only(free, fo) and locked == hx:
            return 1
        free[c] = n
    return 0


@njit(cache=True, _nrt=False)
def _win(P, S, deck, moves, out, s, how, c, hx, payer, flags, instant):
    """``Game.win``: the outcome row and the 胡 move; ``flags``: F_* bits."""
    in_hand = (flags & F_IN_HAND) != 0
    hands, melds, ints, tmp = S[0], S[2], S[3], S[6]
    cards = tmp[4]
    for k in range(20):
        cards[k] = hands[s, k]
    for i in range(ints[I_NMELD + s]):
        for t in range(melds[s, i, MD_LEN]):
            cards[melds[s, i, MD_CARDS + t]] += 1
    if not in_hand:
        cards[c] += 1
    fx = _I(0)
    if P[p.FANXING] == 1:
        fx = fanxing_value(cards, c, deck, ints[I_POS], DECK, P)
    red = _I(0)
    big = _I(0)
    total = _I(0)
    for k in range(20):
        total += cards[k]
        if (RED_MASK >> k) & 1:
            red += cards[k]
        if k >= 10:
            big += cards[k]
    out[O_WINNER] = s
    out[O_HOW] = how
    out[O_PAYER] = payer
    out[O_HUXI] = hx
    out[O_TIANHU] = 1 if flags & F_TIANHU else 0
    out[O_DIHU] = 1 if flags & F_DIHU else 0
    out[O_HAIDI] = 1 if flags & F_HAIDI else 0
    out[O_INSTANT] = instant
    out[O_FANXING] = fx
    out[O_DRAWS] = ints[I_DRAWS]
    out[O_RED] = red
    out[O_BIG] = big
    out[O_TOTAL] = total
    out[O_ALL_PUNGS] = _all_pungs(P, S, _I(s), _I(c), _I(flags), _I(hx))
    out[O_WIN_CARD] = c
    if how == HOW_ZIMO:
        a = A_HU_ZIMO if instant == 0 else (A_HU_ZIMO_SANTI if instant == 1 else A_HU_ZIMO_WUKAN)
    elif how == HOW_FANGPAO:
        a = A_HU_FANGPAO
    else:
        a = A_HU_DRAWN
    _say(moves, ints, s, a, hx, c, 1)


# --- policies -----------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def _memo_for(P, work):
    """Empty the memos when ``P`` differs from the params they were filled under (a scratch
    tuple may be reused across variants)."""
    h = _I(len(P))
    for x in P:
        h = h * _HASH + _I(x)
    if h == 0:
        h = 1
    if work[PLAY_WORK - 1] != h:
        work[WORK:] = 0
        work[PLAY_WORK - 1] = h


@njit(cache=True, _nrt=False, inline="always")
def _free_memo(P, work, q, need):
    """``free_best`` of the packed free cards ``q`` (pair owed: ``need``) through the memo."""
    key = q | (need << 60) | (_I(1) << 61)
    i = WORK + (((key * _HASH) >> 32) & (MEMO - 1))
    if work[i] == key:
        return work[i + MEMO]
    r = free_best(q, need, P[p.YIERSAN_SMALL], P[p.YIERSAN_BIG], P[p.ERQISHI_SMALL],
                  P[p.ERQISHI_BIG], work, 20)
    work[i] = key
    work[i + MEMO] = r
    return r


@njit(cache=True, _nrt=False)
def _score(P, work, hand, th, fo):
    """``GreedyPolicy.score`` as one int: win * SCORE_WIN + waits * SCORE_WAITS + best.

    Each wait ``k`` is ``eval_hand(hand, k, own draw)`` done on packed free cards: the locked
    胡息 and the free cards are computed once, then per ``k`` only the §6 change the own draw
    makes (提 from a 坎, 偎 from a pair, else one more free card) and ``eval_hand``'s tests."""
    full = _I(0)
    for k in range(20):
        full += _I(hand[k]) << (W * k)
    key2 = (_I(th) << 8) | _I(fo) | (_I(1) << 40)
    i = SMEMO + (((full * _HASH + key2) >> 32) & (MEMO - 1))
    if work[i] == full and work[i + MEMO] == key2:
        return work[i + 2 * MEMO]
    sc = _score_of(P, work, hand, th, fo)
    work[i] = full
    work[i + MEMO] = key2
    work[i + 2 * MEMO] = sc
    return sc


@njit(cache=True, _nrt=False)
def _score_of(P, work, hand, th, fo):
    """``_score`` without its memo."""
    pk = _I(0)
    nf = _I(0)
    fours = _I(fo)
    locked = _I(th)
    for k in range(20):
        n = _I(hand[k])
        if n == 4:
            fours += 1
            locked += group_points(P, p.TI_SMALL, k)
        elif n == 3:
            locked += group_points(P, p.KAN_SMALL, k)
        else:
            pk += n << (W * k)
            nf += n
    win = _I(0)
    waits = _I(0)
    best = _I(0)
    # one more free card (the kinds held 0 or 1 times): the count test is the same for all of
    # them, and the orphans of the hand without it limit which kinds can help
    need0 = _I(1) if fours >= 1 else _I(0)
    cand = _I(0)
    if (nf + 1 - 2 * need0) % 3 == 0 and nf + 1 - 2 * need0 >= 0:
        cand = LOW
        o = orphans((pk | (pk >> 1)) & LOW, (pk >> 1) & LOW, need0)
        while o != 0 and cand != 0:
            low = o & -o
            k = _I(0)
            while (_I(1) << (W * k)) != low:
                k += 1
            cand &= NEIGHBOURS[k]
            o ^= low
    for k in range(20):
        n = hand[k]
        if n >= 4:
            continue
        b = _I(1) << (W * k)
        if n < 2 and (cand & b) == 0:
            continue
        fr = fours
        base = locked
        if n == 3:
            q = pk
            m = nf
            fr += 1
            base += group_points(P, p.TI_SMALL, k) - group_points(P, p.KAN_SMALL, k)
        elif n == 2:
            q = pk - 2 * b
            m = nf - 2
            base += group_points(P, p.WEI_SMALL, k)
        else:
            q = pk + b
            m = nf + 1
        need = _I(1) if fr >= 1 else _I(0)
        rest = m - 2 * need
        if rest < 0 or rest % 3 != 0:
            continue
        if orphans((q | (q >> 1)) & LOW, (q >> 1) & LOW, need) != 0:
            continue
        r = _free_memo(P, work, q, need)
        if r < 0:
            continue
        hx = base + r
        waits += 1
        best = max(best, hx)
        if is_win(hx, P):
            win += 1
    return win * SCORE_WIN + waits * SCORE_WAITS + best


@njit(cache=True, _nrt=False)
def _best_discard(P, work, hand, th, fo, opts, nopt):
    """``GreedyPolicy.best_discard``: (score, kind) of the first best option. ``hand`` is
    changed and restored."""
    top = _I(-1)
    pick = _I(-1)
    for i in range(nopt):
        k = opts[i]
        hand[k] -= 1
        sc = _score(P, work, hand, th, fo)
        hand[k] += 1
        if pick < 0 or sc > top:
            top = sc
            pick = k
    return top, pick


@njit(cache=True, _nrt=False)
def _after(P, work, hand, th, fo, opts):
    """``GreedyPolicy._after``: the best discard's score of ``hand``, 0 without a free card."""
    n = _I(0)
    for k in range(20):
        if 0 < hand[k] < 3:
            opts[n] = k
            n += 1
    if n == 0:
        return 0
    return _best_discard(P, work, hand, th, fo, opts, n)[0]


@njit(cache=True, _nrt=False)
def _pol_discard(P, hands, melds, ints, rng, work, opts, policies, s, nopt):
    """``policy.discard`` among ``opts[:nopt]``."""
    if policies[s] == POL_RANDOM:
        return opts[_below(rng, ints, nopt)]
    th = _table_huxi(melds, ints, s)
    fo = _fours(melds, ints, s)
    return _best_discard(P, work, hands[s], _I(th), _I(fo), opts, _I(nopt))[1]


@njit(cache=True, _nrt=False)
def _pol_peng(P, hands, melds, ints, rng, work, tmp, opts, policies, s, c):
    """``policy.peng``."""
    if policies[s] == POL_RANDOM:
        return _below(rng, ints, 2) == 1
    th = _table_huxi(melds, ints, s)
    fo = _fours(melds, ints, s)
    now = _score(P, work, hands[s], _I(th), _I(fo))
    h = tmp[3]
    for k in range(20):
        h[k] = hands[s, k]
    h[c] = 0
    return _after(P, work, h, _I(th + _pts(P, MELD_PENG, c)), _I(fo), opts) > now


@njit(cache=True, _nrt=False)
def _pol_chi(P, hands, melds, ints, rng, work, tmp, cs, opts, policies, s, c, nopt):
    """``policy.chi`` over the options ``cs[:nopt]``: index or -1."""
    if policies[s] == POL_RANDOM:
        return _below(rng, ints, nopt + 1) - 1
    th = _table_huxi(melds, ints, s)
    fo = _fours(melds, ints, s)
    best = _score(P, work, hands[s], _I(th), _I(fo))
    pick = _I(-1)
    h = tmp[3]
    for i in range(nopt):
        gain = _after_chi(P, hands, cs, s, c, i, h)
        sc = _after(P, work, h, _I(th + gain), _I(fo), opts)
        if sc > best:
            best = sc
            pick = i
    return pick


# --- the hand -----------------------------------------------------------------------------------

@njit(cache=True, _nrt=False)
def _lay_opening_ti(P, hands, melds, ints, moves, s):
    for k in range(20):
        if hands[s, k] == 4:
            hands[s, k] = 0
            _add_same(P, melds, ints, s, MELD_TI, k, 4)
            _say(moves, ints, s, A_DEAL_TI, 0, k, 4)


@njit(cache=True, _nrt=False)
def _choose_discard(P, hands, marks, melds, ints, rng, work, opts, moves, policies, s):
    """``Game.choose_discard``."""
    n = _I(0)
    for k in range(20):
        if 0 < hands[s, k] < 3:  # 坎 are never discarded (§5.7)
            opts[n] = k
            n += 1
    if n == 0:  # only 坎 left: skip the discard, or break a 坎 (``[play].only_kan_discard``)
        if P[p.ONLY_KAN_SKIP] == 1:
            return _I(-1)
        for k in range(20):
            if hands[s, k] > 0:
                opts[n] = k
                n += 1
    c = _pol_discard(P, hands, melds, ints, rng, work, opts, policies, _I(s), _I(n))
    hands[s, c] -= 1
    marks[MK_CHOU, s, c] = 1  # never 吃/碰 one's own discard (§5.6)
    _say(moves, ints, s, A_DISCARD, 0, c, 1)
    return c


@njit(cache=True, _nrt=False)
def _make_four(P, hands, melds, ints, moves, s, c, kind):
    """``Game.make_four``: 提 or 跑 from a 坎 in hand or onto the seat's 偎/臭偎/碰 of ``c``."""
    i = _meld_of(melds, ints, s, c, True, True)
    if i >= 0:
        _del_meld(melds, ints, s, i)
    else:
        hands[s, c] = 0
    _add_same(P, melds, ints, s, kind, c, 4)
    _say(moves, ints, s, A_TI if kind == MELD_TI else A_PAO, 0, c, 4)


@njit(cache=True, _nrt=False, inline="always")
def _take_pao(P, hands, melds, ints, moves, s, c, drawn):
    """``Game.take_pao``: the forced 跑."""
    if (hands[s, c] == 3 or _meld_of(melds, ints, s, c, False, True) >= 0
            or (drawn == 1 and _meld_of(melds, ints, s, c, True, False) >= 0)):
        _make_four(P, hands, melds, ints, moves, _I(s), _I(c), _I(MELD_PAO))
        return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def _note_pass(ints, s, was_peng):
    n = ints[I_NPASS]
    ints[I_PASS + 2 * n] = s
    ints[I_PASS + 2 * n + 1] = was_peng
    ints[I_NPASS] = n + 1


@njit(cache=True, _nrt=False, inline="always")
def _keeps_discard(hands, s, c):
    """Seat ``s`` holds a free card (held once or twice) of a kind other than ``c``."""
    for k in range(20):
        if k != c and 0 < hands[s, k] < 3:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def _after_chi(P, hands, cs, s, c, i, h):
    """Seat ``s``'s hand after 吃 option ``cs[i]`` of card ``c`` (its 比 included), written to
    ``h``; returns the 胡息 of the groups laid."""
    for k in range(20):
        h[k] = hands[s, k]
    gain = _I(0)
    for g in range(3):
        code = cs[i, g]
        if code == NO_GROUP:
            continue
        skip = c if g == 0 else -1
        for t in range(3):
            k = gcard(code, t)
            if k == skip:
                skip = -1
                continue
            h[k] -= 1
        gain += run_pts(P, code)
    return gain


@njit(cache=True, _nrt=False)
def _chi_leaves_discard(P, hands, cs, s, c, i, h):
    """``play.chi.leaves_discard`` for 吃 option ``cs[i]`` of card ``c``: some free card stays
    (``h``: scratch row)."""
    _after_chi(P, hands, cs, s, c, i, h)
    for k in range(20):
        if 0 < h[k] < 3:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def _offer_peng(P, hands, marks, melds, ints, rng, work, tmp, opts, moves, policies, first, c):
    """``Game.offer_peng`` by the seats after ``first`` in turn order (``others(first)``)."""
    seats = ints[I_SEATS]
    taker = _I(NONE)
    for i in range(1, seats):
        s = (first + i) % seats
        if hands[s, c] != 2 or marks[MK_CHOU, s, c] != 0 or marks[MK_PASSED_PENG, s, c] != 0:
            continue
        if not _keeps_discard(hands, s, c):  # §5.3: a claim must leave a discard
            continue
        if _pol_peng(P, hands, melds, ints, rng, work, tmp, opts, policies, _I(s), _I(c)):
            hands[s, c] = 0
            _add_same(P, melds, ints, s, MELD_PENG, c, 3)
            _say(moves, ints, s, A_PENG, 0, c, 3)
            taker = s
            break
        _note_pass(ints, s, 1)
    return taker


@njit(cache=True, _nrt=False)
def _chi_take(P, hands, melds, ints, rng, work, tmp, cs, opts, moves, policies, s, c):
    """``Game.offer_chi`` once the card is known not 臭: options, the policy, the 吃."""
    pk = _seat_pack(hands, s)[3]
    m = chi_options(pk, c, cs)
    n = _I(0)
    for i in range(m):  # keep the options that leave a discard (§5.3), in order
        if _chi_leaves_discard(P, hands, cs, _I(s), _I(c), _I(i), tmp[2]):
            for col in range(3):
                cs[n, col] = cs[i, col]
            n += 1
    if n == 0:
        return False
    i = _pol_chi(P, hands, melds, ints, rng, work, tmp, cs, opts, policies, _I(s), _I(c), _I(n))
    if i < 0:
        _note_pass(ints, s, 0)
        return False
    _after_chi(P, hands, cs, s, c, i, hands[s])
    r = ints[I_NMOV]
    nc = _I(0)
    for g in range(3):
        code = cs[i, g]
        if code == NO_GROUP:
            continue
        for t in range(3):
            moves[r, M_CARDS + nc] = gcard(code, t)
            nc += 1
        _add_group(P, melds, ints, s, code)
    for t in range(nc, MAX_CARDS):
        moves[r, M_CARDS + t] = -1
    moves[r, M_SEAT] = s
    moves[r, M_ACTION] = A_CHI_BI if cs[i, 1] != NO_GROUP else A_CHI
    moves[r, M_AUX] = 0
    ints[I_NMOV] = r + 1
    return True


@njit(cache=True, _nrt=False, inline="always")
def _offer_chi(P, hands, marks, melds, ints, rng, work, tmp, cs, opts, moves, policies, s, c):
    """``Game.offer_chi``: the optional 吃 (with its 比) of seat ``s``."""
    if marks[MK_CHOU, s, c] != 0:
        return False
    if not chi_possible(_seat_pack(hands, s)[3], c):
        return False
    return _chi_take(P, hands, melds, ints, rng, work, tmp, cs, opts, moves, policies, _I(s),
                     _I(c))


@njit(cache=True, _nrt=False, inline="always")
def _mark_passed(P, marks, ints, c, taker):
    """``Game.mark_passed``: 臭 for the seats that passed ``c`` (and 碰-passed for a 碰)."""
    for i in range(ints[I_NPASS]):
        s = ints[I_PASS + 2 * i]
        if s == taker:
            continue
        if ints[I_PASS + 2 * i + 1] == 1:
            marks[MK_PASSED_PENG, s, c] = 1
            if P[p.PASSED_PENG_CHI] == 1:  # 大字牌: a passed 碰 may still be 吃 (seed 004 篇4)
                continue
        marks[MK_CHOU, s, c] = 1
    ints[I_NPASS] = 0


@njit(cache=True, _nrt=False)
def _peng_chi_or_pass(P, S, moves, policies, src, c, src_may_chi):
    """The optional claims on card ``c`` shown by seat ``src`` (``Game.claim_rest``): 碰 by the
    others, then 吃 by ``src`` itself (a drawn card only) and by the next seat; then the 臭牌
    marks, and an unclaimed card lies beside ``src``. Returns the taker or NONE."""
    hands, marks, melds, ints, rng, work, tmp, cs, opts = S
    ints[I_NPASS] = 0
    taker = _offer_peng(P, hands, marks, melds, ints, rng, work, tmp, opts, moves, policies, src,
                        c)
    nxt = (src + 1) % ints[I_SEATS]
    for s in (src, nxt):
        if s == src and src_may_chi == 0:
            continue
        if taker == NONE and _offer_chi(P, hands, marks, melds, ints, rng, work, tmp, cs, opts,
                                        moves, policies, s, c):
            taker = s
    _mark_passed(P, marks, ints, c, taker)
    if taker == NONE:
        marks[MK_BESIDE, src, c] += 1
    return taker


@njit(cache=True, _nrt=False)
def _on_discard(P, S, deck, moves, out, policies, d, c):
    """``Game.on_discard``: WIN, the seat that took ``c``, or NONE."""
    hands, marks, melds, ints, rng, work, tmp, cs, opts = S
    seats = ints[I_SEATS]
    if P[p.DISCARD_WIN] == 1:
        for i in range(1, seats):
            s = (d + i) % seats
            hx = _can_win(P, hands, marks, melds, ints, work, _I(s), _I(c), _I(0), _I(0))
            if hx >= 0:
                fl = F_DIHU if (P[p.DIHU_LIANGZHANG] == 0 and ints[I_FIRST] == 1 and d == 0
                                and s != 0) else 0
                _win(P, S, deck, moves, out, _I(s), _I(HOW_FANGPAO), _I(c), _I(hx), _I(d),
                     _I(fl), _I(0))
                return WIN
    for i in range(1, seats):
        s = (d + i) % seats
        if _take_pao(P, hands, melds, ints, moves, s, c, 0):
            return s
    return _peng_chi_or_pass(P, S, moves, policies, d, c, 0)


@njit(cache=True, _nrt=False)
def _on_draw(P, S, deck, moves, out, policies, t, c, last):
    """``Game.on_draw``: WIN, the seat that took ``c``, or NONE."""
    hands, marks, melds, ints, rng, work, tmp, cs, opts = S
    seats = ints[I_SEATS]
    if hands[t, c] == 3 or _meld_of(melds, ints, t, c, False, True) >= 0 or hands[t, c] == 2:
        hx = _can_win(P, hands, marks, melds, ints, work, _I(t), _I(c), _I(1), _I(1))
        if hx >= 0:
            fl = F_OWN | F_DRAWN | (F_HAIDI if last else 0)
            _win(P, S, deck, moves, out, _I(t), _I(HOW_ZIMO), _I(c), _I(hx), _I(-1), _I(fl),
                 _I(0))
            return WIN
        if hands[t, c] == 2:
            kind = MELD_CHOUWEI if marks[MK_PASSED_PENG, t, c] != 0 else MELD_WEI
            hands[t, c] = 0
            _add_same(P, melds, ints, t, kind, c, 3)
            _say(moves, ints, t, A_CHOUWEI if kind == MELD_CHOUWEI else A_WEI, 0, c, 3)
        else:
            _make_four(P, hands, melds, ints, moves, _I(t), _I(c), _I(MELD_TI))
        return t
    for i in range(seats):
        s = (t + i) % seats
        own = 1 if s == t else 0
        hx = _can_win(P, hands, marks, melds, ints, work, _I(s), _I(c), _I(own), _I(1))
        if hx >= 0:
            fl = F_DRAWN | (F_HAIDI if last else 0) | (F_OWN if s == t else 0)
            how = HOW_ZIMO if s == t else HOW_DRAWN
            _win(P, S, deck, moves, out, _I(s), _I(how), _I(c), _I(hx), _I(-1), _I(fl), _I(0))
            return WIN
    for i in range(1, seats + 1):
        s = (t + i) % seats  # others(t), then t
        if _take_pao(P, hands, melds, ints, moves, s, c, 1):
            return s
    return _peng_chi_or_pass(P, S, moves, policies, t, c, 1)


@njit(cache=True, _nrt=False)
def _deal_candidate(P, hands, work, s, lz):
    """(points, instant shape) of seat ``s`` as a winner at the deal, or (-1, 0): an instant
    shape scores its 提/坎 胡息, the dealer's complete 21 cards (天胡) their best 胡息."""
    shape = instant_shape(hands[s], P, 1 if s == 0 else 0, lz)
    if shape != 0:
        locked = _I(0)
        for k in range(20):
            if hands[s, k] == 4:
                locked += _pts(P, MELD_TI, k)
            elif hands[s, k] == 3:
                locked += _pts(P, MELD_KAN, k)
        return locked, _I(shape)
    if s == 0:
        hx = eval_hand(hands[0], -1, 1, 0, 0, P, work)
        if is_win(hx, P):
            return _I(hx), _I(0)
    return _I(-1), _I(0)


@njit(cache=True, _nrt=False)
def _co_win(P, S, deck, moves, out, s, hx, shape):
    """``Game.co_win``: another winner of a shared win at the deal, in the next CO slot."""
    hands, tmp, ints = S[0], S[6], S[3]
    cards = tmp[4]
    red = _I(0)
    big = _I(0)
    total = _I(0)
    for k in range(20):
        cards[k] = hands[s, k]
        total += cards[k]
        if (RED_MASK >> k) & 1:
            red += cards[k]
        if k >= 10:
            big += cards[k]
    lz = _I(deck[ints[I_SEATS] * ints[I_H]])
    fx = _I(0)
    if P[p.FANXING] == 1:
        fx = fanxing_value(cards, lz, deck, ints[I_POS], DECK, P)
    q = out[O_NCO]
    base = O_CO + q * CO_COLS
    out[base + CO_SEAT] = s
    out[base + CO_RED] = red
    out[base + CO_BIG] = big
    out[base + CO_TOTAL] = total
    out[base + CO_FANXING] = fx
    out[base + CO_ALL_PUNGS] = _all_pungs(P, S, _I(s), lz, _I(F_IN_HAND | F_OWN | F_DRAWN), _I(hx))
    out[base + CO_INSTANT] = shape
    out[O_NCO] = q + 1
    a = A_HU_ZIMO if shape == 0 else (A_HU_ZIMO_SANTI if shape == 1 else A_HU_ZIMO_WUKAN)
    _say(moves, ints, s, a, hx, lz, 1)


@njit(cache=True, _nrt=False)
def _deal_wins(P, S, deck, moves, out, policies):
    """``Game.deal_wins``: True when the hand was won at the deal (the most points among the
    instant shapes and the dealer's 天胡; equal points all win)."""
    hands, ints, work = S[0], S[3], S[5]
    seats = ints[I_SEATS]
    lz = _I(deck[seats * ints[I_H]])
    top = _I(-1)
    first = _I(-1)
    for s in range(seats):
        pts, _shape = _deal_candidate(P, hands, work, _I(s), lz)
        if pts >= 0 and pts > top:
            top = pts
            first = s
    if first >= 0:
        pts, shape = _deal_candidate(P, hands, work, first, lz)
        fl = F_IN_HAND | F_OWN | F_DRAWN | (F_TIANHU if first == 0 else F_DIHU)
        _win(P, S, deck, moves, out, first, _I(HOW_ZIMO), lz, top, _I(-1), _I(fl), shape)
        for s in range(first + 1, seats):
            pts, shape = _deal_candidate(P, hands, work, _I(s), lz)
            if pts == top:
                _co_win(P, S, deck, moves, out, _I(s), top, shape)
        return True
    if P[p.DIHU_LIANGZHANG] == 1:
        for s in range(1, seats):
            hx = eval_hand(hands[s], lz, 0, 0, 0, P, work)
            if is_win(hx, P):
                _win(P, S, deck, moves, out, _I(s), _I(HOW_DRAWN), lz, _I(hx), _I(-1), _I(F_DIHU),
                     _I(0))
                return True
    return False


@njit(cache=True, _nrt=False)
def play_hand(deck, P, choupai_win, policies, key, j, moves_out, out, S):
    """Play the dealt ``deck: int8[80]`` (``kernels.deal`` layout) as ``play.engine.Game`` does.

    P: the variant's params tuple; choupai_win: ``variant.win.choupai_win`` (0/1); policies:
    ``int64[seats]`` POL_RANDOM / POL_GREEDY per seat; key (uint64), j: the deal's chunk key and
    index (the policy stream is ``Stream(key ^ POLICY_SALT, j)``); moves_out:
    ``int64[MAX_MOVES, MOVE_COLS]``; out: ``int64[N_OUT]``; S: ``new_scratch()``.
    Returns the number of move rows written (also ``out[O_MOVES]``)."""
    hands, marks, melds, ints, rng, work, _tmp, _cs, opts = S
    _memo_for(P, work)
    seats = P[p.SEATS]
    h = P[p.OTHER_CARDS]
    hands[:, :] = 0
    marks[:, :, :] = 0
    ints[:] = 0
    ints[I_SEATS] = seats
    ints[I_H] = h
    ints[I_CHOUWIN] = choupai_win
    ints[I_FIRST] = 1
    n = seats * h
    for s in range(seats):
        for i in range(s * h, (s + 1) * h):
            hands[s, deck[i]] += 1
    hands[0, deck[n]] += 1
    ints[I_POS] = n + 1
    rng[0] = deal_state(key ^ _SALT, j)
    rng[1] = NO_SPARE
    ints[I_HAVE] = 0
    out[:] = 0
    out[O_WINNER] = -1
    out[O_PAYER] = -1
    out[O_WIN_CARD] = -1
    for q in range(MAX_CO):
        out[O_CO + q * CO_COLS + CO_SEAT] = -1
    if _deal_wins(P, S, deck, moves_out, out, policies):
        out[O_MOVES] = ints[I_NMOV]
        return ints[I_NMOV]
    for s in range(seats):
        _lay_opening_ti(P, hands, melds, ints, moves_out, _I(s))
    if P[p.TWO_TI_EXTRA] == 1:
        for s in range(seats):
            if _fours(melds, ints, s) == 2 and ints[I_POS] < DECK:
                k = _I(deck[ints[I_POS]])
                ints[I_POS] += 1
                _say(moves_out, ints, s, A_EXTRA, 0, k, 1)
                hx = _can_win(P, hands, marks, melds, ints, work, _I(s), k, _I(1), _I(1))
                if hx >= 0:  # the drawn extra card may win at once: the dealer's 天胡
                    fl = F_OWN | F_DRAWN | (F_TIANHU if s == 0 else 0)
                    _win(P, S, deck, moves_out, out, _I(s), _I(HOW_ZIMO), k, _I(hx), _I(-1),
                         _I(fl), _I(0))
                    out[O_MOVES] = ints[I_NMOV]
                    return ints[I_NMOV]
                hands[s, k] += 1
                _lay_opening_ti(P, hands, melds, ints, moves_out, _I(s))
    rest = True
    s = _I(0)
    while True:
        if rest:
            fo = _fours(melds, ints, s)
            held = _I(0)
            for k in range(20):
                held += hands[s, k]
            c = _I(-1)
            if held > 0 and _at_rest(hands, melds, ints, s) > h + max(0, fo - 1):
                c = _choose_discard(P, hands, marks, melds, ints, rng, work, opts, moves_out,
                                    policies, _I(s))
            if c >= 0:
                res = _on_discard(P, S, deck, moves_out, out, policies, _I(s), _I(c))
                ints[I_FIRST] = 0
                if res == WIN:
                    break
                if res >= 0:
                    s = res
                else:
                    rest = False
                    s = (s + 1) % seats
            else:
                rest = False
                s = (s + 1) % seats
        else:
            if ints[I_POS] >= DECK:
                _say(moves_out, ints, -1, A_HUANG, 0, -1, 0)
                out[O_DRAWS] = ints[I_DRAWS]
                break
            c = _I(deck[ints[I_POS]])
            ints[I_POS] += 1
            ints[I_DRAWS] += 1
            _say(moves_out, ints, s, A_DRAW, 0, c, 1)
            last = ints[I_POS] >= DECK
            res = _on_draw(P, S, deck, moves_out, out, policies, _I(s), _I(c), last)
            if res == WIN:
                break
            if res >= 0:
                s = res
                rest = True
            else:
                s = (s + 1) % seats
    out[O_MOVES] = ints[I_NMOV]
    return ints[I_NMOV]


@njit(cache=True, parallel=True)
def play_chunks(keys, sizes, P, choupai_win, policies, out):
    """Play every deal of every chunk (one prange iteration per chunk): deal ``j`` of chunk ``c``
    is ``reference.shuffled_deck(keys[c], j)``, its policy stream keyed ``keys[c] ^ POLICY_SALT``.
    keys: uint64[m]; sizes: int64[m]; out: int64[m, ≥ max(sizes), N_OUT] (row j of chunk c)."""
    for c in prange(keys.shape[0]):
        S = _new_scratch()
        deck = np.empty(DECK, np.int8)
        moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
        for j in range(sizes[c]):
            fresh_deck(deck)
            shuffle_steps(deck, 0, DECK - 1, deal_state(keys[c], j), NO_SPARE, 0)
            play_hand(deck, P, choupai_win, policies, keys[c], j, moves, out[c, j], S)


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
    from ..cards import card_name

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
    from ..cards import card_name

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


def play_one(variant, deck, policies, key: int = 0, j: int = 0, scratch=None):
    """Play one dealt deck with ``variant`` (a ``Variant``); ``policies``: one int per seat
    (POL_RANDOM / POL_GREEDY). Returns ``(moves int64[n, MOVE_COLS], out int64[N_OUT])``."""
    S = new_scratch() if scratch is None else scratch
    moves = np.empty((MAX_MOVES, MOVE_COLS), np.int64)
    out = np.empty(N_OUT, np.int64)
    n = play_hand(np.asarray(deck, np.int8), variant.params, int(bool(variant.win.choupai_win)),
                  np.asarray(policies, np.int64), np.uint64(key), j, moves, out, S)
    return moves[:n].copy(), out
