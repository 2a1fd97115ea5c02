"""Array layouts of the play kernel: move rows (``M_*``, actions ``A_*``), outcome rows (``O_*``,
co-winners ``CO_*``), table groups (``MELD_*``, columns ``MD_*``), marks (``MK_*``), scalars
(``I_*``), win flags (``F_*``) and the scratch tuple every hand reuses (``new_scratch``).
"""

import numpy as np
from numba import njit

from zipai_sim.kernels.chi import CHI_COLS, MAX_CHI
from zipai_sim.kernels.hand import WORK

POLICY_SALT = 0x5A49504149  # the same salt as play.engine.POLICY_SALT
SALT = np.uint64(POLICY_SALT)
SEAT_SHIFT = 48  # seat s's policy stream: Stream(key ^ POLICY_SALT ^ (s << 48), j)

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
POL_LOOKAHEAD = 2
POL_ROLLOUT = 3  # K greedy playouts per candidate (``kernels.play.rollout``)
POL_STUDY = 4  # lookahead with a player's tie-breaks (``kernels.play.study``)
POL_TEACHER = 5  # K study playouts per close candidate (``kernels.play.rollout``)
POL_LEARNED = 6  # one ply over its answers by the learned value (``kernels.play.learned``)
POL_SEARCH = 7  # K learned playouts per close candidate, cut short (``kernels.play.search``)
POL_ORACLE = 8  # the search seeing every hand: the ceiling, a cheat (``kernels.play.search``)
POL_NEURAL = 9  # learned's one ply by a network's value (``kernels.play.neural``, issue 58)

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
# 7: unused (one policy stream per seat now: I_HAVE)
I_NPASS = 8  # passed claims noted for the card in hand
I_NMELD = 9  # 9..12 number of table groups per seat
I_PASS = 13  # 13..28 (seat, was_peng) pairs of the passed claims
# running totals per seat (4 slots each), kept by state.set_count and the table-group helpers
# so that no question about a seat needs a pass over its 20 counts or its table groups
I_TH = 29  # 29..32 胡息 of the table groups
I_FO = 33  # four-card table groups (提/跑)
I_NTAB = 37  # cards on the table
I_HELD = 41  # cards in hand
I_PK = 45  # packed free cards (kinds held 0..2 times, ``kernels.packed``)
I_NF = 49  # their number
I_F4 = 53  # 提 in hand (kinds held 4 times)
I_FULL = 57  # packed whole hand
I_TRIPLE = 61  # spaced mask of the kinds of the seat's 偎/臭偎/碰 (one group a kind at most)
I_NOW_KEY = 65  # 65..72 the greedy score of the seat's hand now: its key (hand; table 胡息, fours)
I_NOW = 73  # 73..76 the score (asked again at every 碰/吃 offer until the hand changes)
I_HAVE = 77  # 77..80 seat s's policy stream has a valid spare half
I_DISC = 81  # 81..84 kinds each seat has discarded (bit k): public, the 臭 a rollout world keeps
# --- rollout bookkeeping (``kernels.play.rollout``; docs/decisions.md "The rollout bot") --------
I_STEP_REST = 85  # the turn-loop step the last snapshot was taken at: 1 discard step, 0 draw
I_STEP_SEAT = 86  # its seat
I_SC_ON = 87  # a playout's script is live (its first step only): I_SC_* below
I_SC_SEAT = 88  # the rollout seat whose question is scripted
I_SC_KIND = 89  # RO_DISCARD / RO_PENG / RO_CHI
I_SC_VAL = 90  # the candidate answer: a kind, 0/1, or a 吃 option index (-1 pass)
I_SC_C0 = 91  # the discard the world replays first (a claim question on a shown discard), or -1
I_RO_I = 92  # rollout answers read from the list so far
I_RO_FROZEN = 93  # 1 once a question beyond the list was met (its step's snapshot is kept)
I_RO_CNT = 94  # 94..97 rollout questions each seat has answered (its own count: public to it)
I_FZ = 98  # the frozen question: FZ_* offsets below, then its candidate answers
FZ_SEAT, FZ_KIND, FZ_CARD, FZ_NR, FZ_N, FZ_OPTS = range(6)
MAX_CANDS = 48  # candidate answers of one question kept (≤ 20 discards; 吃 options beyond: dropped)
FZ_COLS = FZ_OPTS + MAX_CANDS
# greedy's best discard after the 碰/吃 it took (``policies._greedy_peng``/``_greedy_chi``), for
# the discard that follows: per seat the hand's key (hand | 1 << 62; table 胡息 << 8 | fours)
I_NEXT_KEY = I_FZ + FZ_COLS  # and the kind (``I_NEXT_KEY + 8 + s``)
N_RESET = I_NEXT_KEY + 12  # ``play_hand`` zeroes ints[:N_RESET]; the rest is the driver's
I_MODE = N_RESET  # 0 plain play, 1 replay of a rollout answer list, 2 a playout world
I_RO_N = N_RESET + 1  # answers in the list
I_RO_D = N_RESET + 2  # the list: every rollout question of the hand, in the order met
MAX_RO = 192  # rollout questions a hand may answer by rollouts; later ones get greedy's answer
# 1: the hand analysis's state (``kernels.play.analysis``; 0 for the bots): in mode 1 a win on
# offer to a rollout seat is a question too (bots always take a win); in mode 2 the world also
# keeps what did not happen before the question (``script.hu_declined``, ``rollout._limit``)
I_ASK_HU = I_RO_D + MAX_RO
# the learned bot's training record (``kernels.play.learned``): 1 while its seats note the
# features of every rest hand their discards leave, and the rows noted so far this hand
I_REC_ON = I_ASK_HU + 1
I_NREC = I_ASK_HU + 2
# a searching world's cut (``kernels.play.search``): the draw count at which the world stops
# (0: never) and 1 once it stopped there
I_CUT = I_ASK_HU + 3
I_CUT_HIT = I_ASK_HU + 4
# the batched table (``kernels.play.table``): 1 while a question frozen in mode 1 also writes
# the asking seat's observation (``kernels.play.observe``) into ``fl[FL_OBS:]``; and the
# dealer's shown 21st card (亮张), public from the deal
I_OBS_ON = I_ASK_HU + 5
I_LIANG = I_ASK_HU + 6
# the neural bot's exploration stream (training only, ``kernels.play.neural.explore``): a
# 64-bit LCG state the recording driver seeds per hand
I_XRNG = I_ASK_HU + 7
N_INTS = I_ASK_HU + 8
RO_DISCARD = 0
RO_PENG = 1
RO_CHI = 2
RO_HU = 3  # answers: 1 take the win, 0 decline it

# the batched table's observation of one question (``kernels.play.observe``; docs/guide/rl.md):
# the seat's hand and unseen counts, one block per seat in turn order from the asking seat,
# then the question, then each 吃 option's cards
OB_HAND = 0  # 0..19 the seat's hand counts
OB_UNSEEN = 20  # 20..39 what the seat has not seen, by kind
OB_SEATS = 40  # MAX_SEATS blocks of SB_SIZE: the seat itself, the next seat, ...
SB_CHI = 0  # cards in its 吃 groups, by kind
SB_TRIPLE = 20  # 1: its 碰 or 臭偎 of the kind
SB_FOUR = 40  # 1: its 提 or 跑 of the kind
SB_WEI = 60  # 1: its face-down 偎 of the kind (the asking seat's own only)
SB_BESIDE = 80  # cards lying beside it, by kind
SB_DISC = 100  # 1: it has discarded the kind
SB_CHOU = 120  # 1: the kind is 臭 to it (the asking seat's own only)
SB_PASSED = 140  # 1: it passed a 碰 of the kind (the asking seat's own only)
SB_NWEI = 160  # its face-down 偎 groups
SB_HELD = 161  # cards in its hand
SB_HUXI = 162  # 胡息 of its groups the asking seat can see
SB_DEALER = 163  # 1: the dealer
SB_SEATED = 164  # 1: a seat of this table
SB_SIZE = 165
OB_Q = OB_SEATS + MAX_SEATS * SB_SIZE
Q_KIND = 0  # 0..3 one-hot: discard, 碰, 吃, 胡
Q_CARD = 4  # 4..23 one-hot: the card on offer (none for a discard)
Q_FROM = 24  # 24..27 one-hot: the seat it came from, in the blocks' order
Q_DRAWN = 28  # 1: drawn from the stock (0: discarded)
Q_LIANG = 29  # 29..48 one-hot: the dealer's 亮张
Q_STOCK = 49  # cards left in the stock
Q_DRAWS = 50  # cards drawn so far
Q_FIRST = 51  # 1 until the hand's first discard is settled
Q_SEAT = 52  # 52..55 one-hot: the asking seat (0 the dealer)
Q_SIZE = 56
MAX_CHI_ACTS = MAX_CANDS - 1  # 吃 options a question offers at most (``FZ_OPTS`` keeps 48 answers)
OB_CHI = OB_Q + Q_SIZE  # MAX_CHI_ACTS rows of 20: the cards of each 吃 option's groups, by kind
OBS_SIZE = OB_CHI + MAX_CHI_ACTS * 20

# the lookahead memo: rows 0..MEMO-1 (whole hand, locked 胡息 | fours, waits, their 胡息), rows
# MEMO..MEMO+STEP_MEMO-1 for ``v1`` (hand at rest, table 胡息 | fours, the (draw, discard) pairs
# that leave a winning wait, their number | the draws explored), then the params tuple P the
# entries were computed with (cleared when a hand brings another P), then one decision's
# scratch: per discard option (kind k at row MEMO_JM + k // 4, column k % 4) the draws worth
# exploring in its ``v1``
MEMO = 1 << 15
STEP_MEMO = 1 << 12
MEMO_HEAD = MEMO + STEP_MEMO
MEMO_COLS = 4
MEMO_JM = MEMO_HEAD + 16  # 16 · 4 ≥ N_PARAMS
MEMO_ROWS = MEMO_JM + 5
# lookahead's ``fl: float64[FL_SIZE]``: each discard option's ``vw`` (0..19), whether the hand
# ``wait_value`` last valued had a winning wait (``FL_WAITS``), then two tables of
# the miss chance C(U − L, S) / C(U, S) by L (``unseen._miss_table``): for (U, S) and, one
# card on, (U − 1, S − 1)
FL_WAITS = 20
FL_T0 = 24
FL_T1 = FL_T0 + 81
# the learned bot (``kernels.play.learned``): each seat's weights row (set by the driver,
# ``W_COLS`` a seat from ``FL_W + s · W_COLS``: learned's ``N_FEAT`` linear weights, then a
# neural seat's network), one rest hand's features, then the training record:
# ``MAX_REC`` feature rows and the seat of each
N_FEAT = 18
# the neural bot's network (``kernels.play.neural``): a seat's context of its decision (what it
# sees, ``CX_*``: one block of ``CX_SIZE`` per seat in turn order from the asking seat, then its
# own marks and the question) and each answer's own inputs (``OX_*``: the rest hand it leaves,
# the cards it lays on the table, learned's features of that rest hand)
CX_TABLE = 0  # 0..19 cards shown in its table groups, by kind (another seat's 偎 is hidden)
CX_BESIDE = 20  # 20..39 cards lying beside it, by kind
CX_HIDDEN = 40  # its face-down 偎 groups another seat cannot read
CX_HELD = 41  # cards in its hand / 10
CX_HUXI = 42  # 胡息 of its groups the asking seat can see / 10
CX_SEATED = 43  # 1: a seat of this table
CX_SIZE = 44
CX_CHOU = MAX_SEATS * CX_SIZE  # 20: kinds 臭 to the asking seat
CX_PASSED = CX_CHOU + 20  # 20: kinds whose 碰 it passed
CX_UNSEEN = CX_PASSED + 20  # 20: its unseen counts / 4
CX_STOCK = CX_UNSEEN + 20  # stock left / 20
CX_DRAWS = CX_STOCK + 1  # cards drawn so far / 20
CX_KIND = CX_DRAWS + 1  # 3 one-hot: discard, 碰, 吃
CX_CARD = CX_KIND + 3  # 20 one-hot: the card on offer
CX_SEAT = CX_CARD + 20  # MAX_SEATS one-hot: the asking seat (0 the dealer)
N_CTX = CX_SEAT + MAX_SEATS
OX_REST = 0  # 20: the rest hand's counts / 4
OX_LAID = 20  # 20: cards the answer lays on the table (a 碰's or 吃's groups), by kind
OX_FEAT = 40  # N_FEAT: learned's features of the rest hand
N_OPT = OX_FEAT + N_FEAT
N_IN = N_CTX + N_OPT
H1 = 64
H2 = 32
# a network in a seat's weights row (float64, after its N_FEAT linear weights): W1 by input row
# (``W1[i, j]`` at ``NT_W1 + i · H1 + j``), b1, W2 by output (``W2[j, q]`` at ``NT_W2 + q · H1 +
# j``), b2,
# w3, b3, the output scale (the variant's unit), ε (a random answer's chance: exploration in
# training only) and 1 when the seat plays a network
NT_W1 = 0
NT_B1 = NT_W1 + N_IN * H1
NT_W2 = NT_B1 + H1
NT_B2 = NT_W2 + H1 * H2
NT_W3 = NT_B2 + H2
NT_B3 = NT_W3 + H2
NT_YS = NT_B3 + 1
NT_EPS = NT_YS + 1
NT_ON = NT_EPS + 1
NET_SIZE = NT_ON + 1
W_COLS = N_FEAT + NET_SIZE  # a seat's weights row: learned's linear weights, then a network
FL_W = FL_T1 + 81
FL_F = FL_W + MAX_SEATS * W_COLS
FL_REC = FL_F + N_FEAT
MAX_REC = 96  # rows a hand notes (≈ 2 discards a stock card at most; later ones are not noted)
FL_REC_SEAT = FL_REC + MAX_REC * N_FEAT
FL_V = FL_REC_SEAT + MAX_REC  # the search's cut value weights (``kernels.play.search``)
FL_OBS = FL_V + N_FEAT  # a frozen question's observation (``kernels.play.observe``, OBS_SIZE)
# the neural bot's decision: its context, the first layer's context part, the cards the answer
# being valued lays on the table, the last valued answer's inputs, and the training record
# (``MAX_REC`` rows of ``N_IN`` inputs: a neural seat notes the answer of each decision)
FL_CTX = FL_OBS + OBS_SIZE
FL_H0 = FL_CTX + N_CTX
FL_HH = FL_H0 + H1  # the first layer of the answer being valued
FL_LAID = FL_HH + H1
FL_X = FL_LAID + 20
FL_XREC = FL_X + N_OPT
FL_SIZE = FL_XREC + MAX_REC * N_IN

# take_win flags
F_TIANHU = 1
F_DIHU = 2
F_HAIDI = 4
F_IN_HAND = 8  # the winning card is already among the winner's cards (a win at the deal)
F_OWN = 16  # the winner's own card (its 提/偎 scoring)
F_DRAWN = 32  # a drawn card (a 碰 may become a 跑)

i64 = np.int64  # call arguments are cast so that numba compiles one signature per helper

WIN = -2  # on_discard / on_draw: the hand was won (``out`` written)
NONE = -1  # nobody took the card

RED_MASK = (1 << 1) | (1 << 6) | (1 << 9) | (1 << 11) | (1 << 16) | (1 << 19)

PLAY_WORK = WORK


def new_scratch():
    """The scratch tuple ``play_hand`` takes (allocate once, reuse for every hand)."""
    return (
        np.zeros((MAX_SEATS, 20), np.int8),  # hands
        np.zeros((3, MAX_SEATS, 20), np.int8),  # marks
        np.zeros((MAX_SEATS, MAX_MELDS, MELD_COLS), np.int64),  # melds
        np.zeros(N_INTS, np.int64),  # ints
        np.zeros(2 * MAX_SEATS, np.uint64),  # rng: (state, spare) of each seat's policy stream
        np.zeros(PLAY_WORK, np.int64),  # eval_hand work, then the free_best memo
        np.zeros((8, 20), np.int8),  # tmp rows: 2 吃 check, 3 policy hand, 4 winner's cards, 5 free
        np.zeros((MAX_CHI, CHI_COLS), np.int64),  # 吃 options
        np.zeros(20, np.int64),  # discard options
        np.zeros(FL_SIZE, np.float64),  # lookahead: option values, hit-chance tables
        np.zeros((MEMO_ROWS, MEMO_COLS), np.int64),  # lookahead: winning waits of hands seen
    )


@njit(cache=True)
def make_scratch():
    """``new_scratch`` inside a kernel (a rollout's own scratch for each world)."""
    return (
        np.zeros((MAX_SEATS, 20), np.int8),
        np.zeros((3, MAX_SEATS, 20), np.int8),
        np.zeros((MAX_SEATS, MAX_MELDS, MELD_COLS), np.int64),
        np.zeros(N_INTS, np.int64),
        np.zeros(2 * MAX_SEATS, np.uint64),
        np.zeros(PLAY_WORK, np.int64),
        np.zeros((8, 20), np.int8),
        np.zeros((MAX_CHI, CHI_COLS), np.int64),
        np.zeros(20, np.int64),
        np.zeros(FL_SIZE, np.float64),
        np.zeros((MEMO_ROWS, MEMO_COLS), np.int64),
    )
