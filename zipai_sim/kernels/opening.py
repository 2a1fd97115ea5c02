"""Deal-time kernels: 天胡, 地胡, instant wins, the two-提 rule and 翻信 (RULES.md §6, §7.3, §9).

``analyze_chunks`` shuffles, deals and scores every deal of a chunk and adds the outcomes into
one integer row per chunk; the driver sums rows in chunk order, so totals never depend on the
thread count. Order of events at the deal (docs/decisions.md): the dealer's 21 cards are checked
for 天胡 first; then seats holding exactly two 提 draw their extra card in seat order where the
variant says so (the dealer's 22 cards may then 天胡); then each non-dealer's cards + the 亮张
are checked for 地胡 in turn order. 翻信 turns the first stock card not yet drawn.
"""

import numpy as np
from numba import njit, prange

from .. import params as p
from .deal import DECK, NO_SPARE, fresh_deck, shuffle_deal_packed, shuffle_steps
from .hand import INSTANT_NONE, INSTANT_SANTI, WORK, eval_hand, instant_code, instant_shape, is_win
from .packed import classes, may_complete, pack, popcount, unpack
from .rng import deal_state

# columns of the per-chunk count row
C_N = 0
C_TIANHU = 1
C_TIANHU_COMPLETE = 2
C_TIANHU_SANTI = 3
C_TIANHU_WUKAN = 4
C_TIANHU_EXTRA = 5  # 天胡 on the dealer's 22 cards after the two-提 extra card
C_DIHU = 6
C_INSTANT_NONDEALER = 7
C_DEALER_TWO_TI = 8
C_DEALER_COMPLETE = 9  # all groups, whatever the 胡息
C_FX_WINS = 10  # wins (天胡 or 地胡) for which 翻信 was turned
C_FX_SUM = 11
C_FX_SUMSQ = 12
C_FX_DIST = 13  # 13..17: 翻信 value 0, 1, 2, 3, 4+
C_SANTI_SEAT = 18  # 18..21: ≥3 提 at the deal, per seat
C_WUKAN_SEAT = 22  # 22..25: ≥5 坎 at the deal (提 counted per the variant), per seat
C_TWO_TI_SEAT = 26  # 26..29: exactly two 提 at the deal, per seat
C_DIHU_SEAT = 30  # 30..33: the seat's cards (+ its two-提 extra card) + the 亮张 win, judged alone
C_FXT_WINS = 34  # 翻信 given a 天胡, laid out as C_FX_*: wins, sum, sum of squares, 0..4+
C_FXT_SUM = 35
C_FXT_SUMSQ = 36
C_FXT_DIST = 37
N_COUNTS = 42
MAX_SEATS = 4
HIST = 128  # 胡息 histogram bins for complete dealer hands

# sampled per-deal row columns
S_DEAL = 0
S_LIANGZHANG = 1
S_TIANHU = 2  # 0 none, 1 complete, 2 三提, 3 五坎
S_DEALER_HUXI = 3  # -1 when not complete
S_DIHU_SEAT = 4  # -1 none
S_FANXING = 5  # -1 when no win
N_SAMPLE = 6


@njit(cache=True, _nrt=False)
def fanxing_match(turned, P):
    """Kind whose copies count for a turned card: 本醒 itself, 上醒 value+1, 下醒 value-1 (same
    size, wrapping 十↔一 when the variant says so), or -1 for no match."""
    m = P[p.FANXING_MATCH]
    if m == 0:
        return turned
    size = (turned // 10) * 10
    v = turned % 10
    if m == 1:
        v += 1
    elif m == 2:
        v -= 1
    if v < 0 or v > 9:
        if P[p.FANXING_WRAP] == 0:
            return -1
        v = (v + 10) % 10
    return size + v


@njit(cache=True, _nrt=False)
def fanxing_value(cards, win_card, stock_src, pos, end, P):
    """翻信 units for a winner holding ``cards: int8[20]`` (winning card included), turning
    ``stock_src[pos:end]`` in order (§7.3). 跟醒 counts the winning card's kind and turns nothing.
    With "hand" counting the winning card itself is left out."""
    exclude = 1 if P[p.FANXING_COUNT_ALL] == 0 else 0
    if P[p.FANXING_MATCH] == 3:
        return cards[win_card] - exclude
    total = 0
    while pos < end:
        k = fanxing_match(stock_src[pos], P)
        pos += 1
        if k < 0:
            break
        c = cards[k]
        if k == win_card:
            c -= exclude
        total += c
        if not (P[p.FANXING_RETURN_ON_FOUR] == 1 and cards[k] == 4):
            break
    return total


@njit(cache=True, _nrt=False, inline="always")  # inlined: saves the per-call refcounting of 11 arguments
def analyze_deal(deck, shuffled, state, spare, have, P, hands, win, free, seat, counts, hist,
                 sample):
    """Score one dealt deck: adds to ``counts: int64[N_COUNTS]`` and ``hist: int64[HIST]``, and
    fills ``sample: int64[N_SAMPLE]``. ``deck[:shuffled]`` is final; later stock positions are
    shuffled on demand with the stream ``(state, spare, have)``, so the cards match a full
    shuffle. ``hands: int8[4, 20]``,
    ``win: int8[20]`` and ``free: int64[WORK]`` are scratch; ``seat: int64[3, MAX_SEATS]`` holds
    each seat's packed cards in row 0 on entry (``zipai_sim.kernels.packed``)."""
    seats = P[p.SEATS]
    h = P[p.OTHER_CARDS]
    lz_pos = seats * h
    lz = deck[lz_pos]
    pos = lz_pos + 1  # next stock card to draw
    counts[C_N] += 1
    sample[S_LIANGZHANG] = lz
    sample[S_TIANHU] = 0
    sample[S_DIHU_SEAT] = -1
    sample[S_FANXING] = -1
    packed = seat[0]  # filled by the caller: packed counts per seat, 亮张 with the dealer
    ti_of = seat[1]
    kan_of = seat[2]
    ti_kan = P[p.TI_COUNTS_AS_KAN]
    # fewest 提 + 坎 any instant shape needs: hands below it skip the instant test
    gate = 99
    if P[p.SANTI_MIN] > 0:
        gate = P[p.SANTI_MIN]
    if P[p.WUKAN_MIN] > 0 and P[p.WUKAN_MIN] < gate:
        gate = P[p.WUKAN_MIN]
    for s in range(seats):
        n1, n2, n3, n4 = classes(packed[s])
        ti = popcount(n4)
        kan = popcount(n3)
        ti_of[s] = ti
        kan_of[s] = kan
        if ti >= 2:
            if ti >= 3:
                counts[C_SANTI_SEAT + s] += 1
            else:
                counts[C_TWO_TI_SEAT + s] += 1
        if kan + ti * ti_kan >= 5:
            counts[C_WUKAN_SEAT + s] += 1
        if s > 0 and ti + kan >= gate and instant_code(ti, kan, P, 0, 0) != INSTANT_NONE:
            counts[C_INSTANT_NONDEALER] += 1
    if ti_of[0] == 2:
        counts[C_DEALER_TWO_TI] += 1
    huxi = -1
    if may_complete(packed[0], -1):
        unpack(packed[0], hands[0])
        huxi = eval_hand(hands[0], -1, 1, 0, 0, P, free)
    sample[S_DEALER_HUXI] = huxi
    if huxi >= 0:
        counts[C_DEALER_COMPLETE] += 1
        hist[min(huxi, HIST - 1)] += 1
    lz_kan = 1 if (packed[0] >> (3 * lz)) & 7 == 3 else 0
    inst = instant_code(ti_of[0], kan_of[0], P, 1, lz_kan)
    winner = -1
    win_card = lz
    win_packed = 0
    if inst != INSTANT_NONE:
        counts[C_TIANHU] += 1
        if inst == INSTANT_SANTI:
            counts[C_TIANHU_SANTI] += 1
            sample[S_TIANHU] = 2
        else:
            counts[C_TIANHU_WUKAN] += 1
            sample[S_TIANHU] = 3
        winner = 0
        win_packed = packed[0]
    elif is_win(huxi, P):
        counts[C_TIANHU] += 1
        counts[C_TIANHU_COMPLETE] += 1
        sample[S_TIANHU] = 1
        winner = 0
        win_packed = packed[0]
    if winner < 0 and P[p.TWO_TI_EXTRA] == 1:
        # seats with exactly two 提 draw one extra card each, in seat order (seed 000 ⑻)
        for s in range(seats):
            if ti_of[s] != 2 or winner >= 0:
                continue
            if pos >= shuffled:
                state, spare, have = shuffle_steps(deck, shuffled, pos + 1, state, spare, have)
                shuffled = pos + 1
            extra = deck[pos]
            pos += 1
            if s == 0:
                unpack(packed[0], hands[0])
                hx = eval_hand(hands[0], extra, 1, 0, 0, P, free)
                if is_win(hx, P):
                    counts[C_TIANHU] += 1
                    counts[C_TIANHU_COMPLETE] += 1
                    counts[C_TIANHU_EXTRA] += 1
                    sample[S_TIANHU] = 1
                    winner = 0
                    win_card = extra
                    win_packed = packed[0] + (1 << (3 * extra))
            else:
                packed[s] += 1 << (3 * extra)
    # 地胡 of each non-dealer judged alone (the exact table's marginal): a seat that owed a
    # two-提 extra card but stopped before drawing it takes the next card not drawn, which is as
    # uniform over its unseen cards as the card it would have drawn
    hyp = pos
    tianhu_won = winner >= 0  # then no seat drew its extra card
    for s in range(1, seats):
        ps = packed[s]
        if P[p.TWO_TI_EXTRA] == 1 and ti_of[s] == 2 and tianhu_won:
            if hyp >= shuffled:
                state, spare, have = shuffle_steps(deck, shuffled, hyp + 1, state, spare, have)
                shuffled = hyp + 1
            ps += 1 << (3 * deck[hyp])
            hyp += 1
        won = False
        if may_complete(ps, lz):
            unpack(ps, hands[s])
            won = is_win(eval_hand(hands[s], lz, 0, 0, 0, P, free), P)
        if won:
            counts[C_DIHU_SEAT + s] += 1
            if winner < 0:
                counts[C_DIHU] += 1
                sample[S_DIHU_SEAT] = s
                winner = s
                win_packed = ps + (1 << (3 * lz))
    if winner >= 0 and P[p.FANXING] == 1:
        unpack(win_packed, win)
        end = DECK
        if P[p.FANXING_MATCH] != 3:
            # turn cards one at a time; 4 re-turns at most in practice, shuffle lazily
            need = min(DECK, pos + 8)
            if need > shuffled:
                state, spare, have = shuffle_steps(deck, shuffled, need, state, spare, have)
                shuffled = need
            end = shuffled
        fx = fanxing_value(win, win_card, deck, pos, end, P)
        sample[S_FANXING] = fx
        counts[C_FX_WINS] += 1
        counts[C_FX_SUM] += fx
        counts[C_FX_SUMSQ] += fx * fx
        counts[C_FX_DIST + min(fx, 4)] += 1
        if winner == 0:
            counts[C_FXT_WINS] += 1
            counts[C_FXT_SUM] += fx
            counts[C_FXT_SUMSQ] += fx * fx
            counts[C_FXT_DIST + min(fx, 4)] += 1


@njit(cache=True, parallel=True)
def analyze_chunks(keys, sizes, P, counts_out, hist_out, n_sample, samples_out):
    """Run whole chunks: ``keys: uint64[m]``, ``sizes: int64[m]``; writes ``counts_out:
    int64[m, N_COUNTS]``, ``hist_out: int64[m, HIST]`` and the first ``n_sample`` deals of each
    chunk into ``samples_out: int64[m, n_sample, N_SAMPLE]``."""
    seats = P[p.SEATS]
    h = P[p.OTHER_CARDS]
    need = seats * h + 1
    for c in prange(keys.shape[0]):
        deck = np.empty(DECK, np.int8)
        hands = np.zeros((MAX_SEATS, 20), np.int8)
        win = np.zeros(20, np.int8)
        free = np.zeros(WORK, np.int64)
        sample = np.zeros(N_SAMPLE, np.int64)
        seat = np.zeros((3, MAX_SEATS), np.int64)
        counts = counts_out[c]
        hist = hist_out[c]
        for j in range(sizes[c]):
            fresh_deck(deck)
            state, spare, have = shuffle_deal_packed(deck, h, seats, deal_state(keys[c], j),
                                                     NO_SPARE, 0, seat[0])
            analyze_deal(deck, need, state, spare, have, P, hands, win, free, seat, counts, hist,
                         sample)
            if j < n_sample:
                sample[S_DEAL] = j
                for t in range(N_SAMPLE):
                    samples_out[c, j, t] = sample[t]


EVAL_BLOCK = 4096  # rows per parallel task in evaluate_batch: one scratch allocation each


@njit(cache=True, parallel=True)
def evaluate_batch(counts, lz, is_dealer, P, huxi_out, instant_out):
    """Opening evaluation of ``counts: int8[n, 20]`` with 亮张 ``lz: int64[n]`` (-1 unknown):
    best 胡息 (-1 if not complete) and instant shape code per row."""
    n = counts.shape[0]
    blocks = (n + EVAL_BLOCK - 1) // EVAL_BLOCK
    for b in prange(blocks):
        free = np.empty(WORK, np.int64)
        for i in range(b * EVAL_BLOCK, min(n, (b + 1) * EVAL_BLOCK)):
            huxi_out[i] = eval_hand(counts[i], -1, 1, 0, 0, P, free)
            instant_out[i] = instant_shape(counts[i], P, is_dealer, lz[i])


@njit(cache=True)
def analyze_decks(decks, P, samples_out):
    """Score given dealt decks ``int8[n, 80]`` (card kinds in deal order) one by one into
    ``samples_out: int64[n, N_SAMPLE]``; the decks are used as they are (no shuffling)."""
    counts = np.zeros(N_COUNTS, np.int64)
    hist = np.zeros(HIST, np.int64)
    hands = np.zeros((MAX_SEATS, 20), np.int8)
    win = np.zeros(20, np.int8)
    free = np.zeros(WORK, np.int64)
    seat = np.zeros((3, MAX_SEATS), np.int64)
    sample = np.zeros(N_SAMPLE, np.int64)
    deck = np.empty(DECK, np.int8)
    seats = P[p.SEATS]
    h = P[p.OTHER_CARDS]
    for j in range(decks.shape[0]):
        deck[:] = decks[j]
        for s in range(seats):
            seat[0, s] = pack(deck, s * h, (s + 1) * h)
        seat[0, 0] += 1 << (3 * deck[seats * h])
        analyze_deal(deck, DECK, NO_SPARE, NO_SPARE, 0, P, hands, win, free, seat, counts, hist,
                     sample)
        sample[S_DEAL] = j
        samples_out[j, :] = sample
