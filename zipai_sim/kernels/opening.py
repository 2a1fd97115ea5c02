"""Deal-time kernels: 天胡, 地胡, instant wins, the two-提 rule and 翻信 (RULES.md §6, §7.3, §9).

``analyze_chunks`` shuffles, deals and scores every deal of a chunk and adds the outcomes into
one integer row per chunk; the driver sums rows in chunk order, so totals never depend on the
thread count. Order of events at the deal (docs/decisions.md): the dealer's 21 cards are checked
for 天胡 first; then seats holding exactly two 提 draw their extra card in seat order where the
variant says so (the dealer's 22 cards may then 天胡); then each non-dealer's cards + the 亮张
are checked for 地胡 in turn order. 翻信 turns the first stock card not yet drawn.

Speed (the bare shuffle is the floor): cards are packed counts (``deal.fresh_powers``), so a
hand is the sum of its cards, taken as they are dealt (``deal.deal_steps``); the shuffle stops
once the hands and the 亮张 are final; the hand searches (``hand.eval_packed``) run only for
hands that pass the cheap necessary tests of ``kernels.deal_filters`` (about 8 % of dealers,
3 % of non-dealers in guangxi-81) and then the completability automaton (``all_groups``:
3–4 % of those); rare paths deal stock cards on demand.
"""

import numpy as np
from numba import njit, prange

from zipai_sim.game import params as p
from zipai_sim.kernels.completes import all_groups
from zipai_sim.kernels.deal import (
    DECK,
    NO_SPARE,
    fresh_powers,
    kind_of,
    shuffle_deal_packed,
    shuffle_steps,
)
from zipai_sim.kernels.deal_filters import incoming_bonus, may_be_complete, may_win_on
from zipai_sim.kernels.hand import (
    INSTANT_NONE,
    INSTANT_SANTI,
    WORK,
    eval_packed,
    instant_code,
    is_win,
)
from zipai_sim.kernels.packed import W, classes, pack, popcount, unpack
from zipai_sim.kernels.rng import deal_state

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


@njit(cache=True, _nrt=False)
def instant_table(P, out):
    """``instant_code`` of every (提, 坎) count a hand can hold: ``out: int64[3, 6, 8]``, row 0
    for a non-dealer, rows 1 and 2 for the dealer whose 亮张 did not / did complete a 坎.
    The deal loop reads it instead of calling ``instant_code`` with the rules tuple."""
    for ti in range(6):
        for kan in range(8):
            out[0, ti, kan] = instant_code(ti, kan, P, 0, 0)
            out[1, ti, kan] = instant_code(ti, kan, P, 1, 0)
            out[2, ti, kan] = instant_code(ti, kan, P, 1, 1)


# inlined: saves the per-call refcounting of its 15 arguments
@njit(cache=True, _nrt=False, inline="always")
def analyze_deal(deck, shuffled, state, spare, have, P, win, free, seat, stock, bonus,
                 instant, counts, hist):
    """Score one dealt deck of packed cards (``deal.fresh_powers``): adds to ``counts:
    int64[N_COUNTS]`` (all but ``C_N``, which the caller counts) and ``hist: int64[HIST]``, and
    returns the sample fields ``(天胡 code, dealer 胡息, 地胡 seat, 翻信)`` (``S_TIANHU`` ..
    ``S_FANXING``). ``deck[seats*h:shuffled]`` (the 亮张 on) is final, and the hands'
    positions before it are not read (``deal.deal_steps`` leaves them stale); later stock
    positions are shuffled on demand with the stream ``(state, spare, have)``, so the cards
    match a full shuffle. ``win: int8[20]``, ``free: int64[WORK]`` and ``stock: int8[80]``
    (kinds of the cards 翻信 turns) are scratch; ``seat: int64[3, MAX_SEATS]`` holds each
    seat's packed cards in row 0 on entry (``zipai_sim.kernels.packed``); ``bonus`` and
    ``instant``: the tables ``incoming_bonus`` and ``instant_table`` fill.

    The searches (``eval_packed``) are the cost: each runs only for hands that pass the cheap
    necessary tests (``may_be_complete``, ``may_win_on``) and then the automaton
    (``all_groups``), so the results are those of running it on every hand."""
    seats = P[p.SEATS]
    h = P[p.OTHER_CARDS]
    lz_pos = seats * h
    lz = kind_of(deck[lz_pos])
    pos = lz_pos + 1  # next stock card to draw
    tianhu = 0
    dihu_seat = -1
    fx = -1
    packed = seat[0]  # filled by the caller: packed counts per seat, 亮张 with the dealer
    ti_of = seat[1]
    kan_of = seat[2]
    ti_kan = P[p.TI_COUNTS_AS_KAN]
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
        if s > 0 and instant[0, ti, kan] != INSTANT_NONE:
            counts[C_INSTANT_NONDEALER] += 1
    if ti_of[0] == 2:
        counts[C_DEALER_TWO_TI] += 1
    huxi = -1
    if may_be_complete(packed[0]) and all_groups(packed[0], -1):
        huxi = eval_packed(packed[0], -1, 1, 0, 0, P, free)
    if huxi >= 0:
        counts[C_DEALER_COMPLETE] += 1
        hist[min(huxi, HIST - 1)] += 1
    lz_kan = 1 if (packed[0] >> (W * lz)) & 7 == 3 else 0
    inst = instant[1 + lz_kan, ti_of[0], kan_of[0]]
    winner = -1
    win_card = lz
    win_packed = 0
    if inst != INSTANT_NONE:
        counts[C_TIANHU] += 1
        if inst == INSTANT_SANTI:
            counts[C_TIANHU_SANTI] += 1
            tianhu = 2
        else:
            counts[C_TIANHU_WUKAN] += 1
            tianhu = 3
        winner = 0
        win_packed = packed[0]
    elif is_win(huxi, P):
        counts[C_TIANHU] += 1
        counts[C_TIANHU_COMPLETE] += 1
        tianhu = 1
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
                hx = eval_packed(packed[0], kind_of(extra), 1, 0, 0, P, free)
                if is_win(hx, P):
                    counts[C_TIANHU] += 1
                    counts[C_TIANHU_COMPLETE] += 1
                    counts[C_TIANHU_EXTRA] += 1
                    tianhu = 1
                    winner = 0
                    win_card = kind_of(extra)
                    win_packed = packed[0] + extra
            else:
                packed[s] += extra
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
            ps += deck[hyp]
            hyp += 1
        won = False
        if may_win_on(ps, lz, P, bonus):
            if all_groups(ps, lz):
                won = is_win(eval_packed(ps, lz, 0, 0, 0, P, free), P)
        if won:
            counts[C_DIHU_SEAT + s] += 1
            if winner < 0:
                counts[C_DIHU] += 1
                dihu_seat = s
                winner = s
                win_packed = ps + (1 << (W * lz))
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
            for q in range(pos, end):
                stock[q] = kind_of(deck[q])
        fx = fanxing_value(win, win_card, stock, pos, end, P)
        counts[C_FX_WINS] += 1
        counts[C_FX_SUM] += fx
        counts[C_FX_SUMSQ] += fx * fx
        counts[C_FX_DIST + min(fx, 4)] += 1
        if winner == 0:
            counts[C_FXT_WINS] += 1
            counts[C_FXT_SUM] += fx
            counts[C_FXT_SUMSQ] += fx * fx
            counts[C_FXT_DIST + min(fx, 4)] += 1
    return tianhu, huxi, dihu_seat, fx


@njit(cache=True, _nrt=False)
def run_task(key, lo, hi, ch, P, deck, win, free, stock, seat, bonus, instant, counts, hist,
             n_sample, samples_out):
    """Deals ``lo..hi-1`` of the chunk keyed ``key`` (row ``ch`` of ``samples_out``), counted
    into ``counts`` and ``hist``; the other arrays are ``analyze_deal``'s scratch and tables.

    Compiled without numba's reference counting: inside the parallel loop every array the
    inlined deal code touched cost out-of-line incref/decref calls on every deal (a deal took
    189 ns on one core with them, 156 without, guangxi-81)."""
    seats = P[p.SEATS]
    h = P[p.OTHER_CARDS]
    need = seats * h + 1
    for j in range(lo, hi):
        fresh_powers(deck)
        state, spare, have = shuffle_deal_packed(deck, h, seats, deal_state(key, j),
                                                 NO_SPARE, 0, seat[0])
        tianhu, huxi, dihu_seat, fx = analyze_deal(deck, need, state, spare, have, P, win,
                                                   free, seat, stock, bonus, instant,
                                                   counts, hist)
        if j < n_sample:
            samples_out[ch, j, S_DEAL] = j
            samples_out[ch, j, S_LIANGZHANG] = kind_of(deck[need - 1])
            samples_out[ch, j, S_TIANHU] = tianhu
            samples_out[ch, j, S_DEALER_HUXI] = huxi
            samples_out[ch, j, S_DIHU_SEAT] = dihu_seat
            samples_out[ch, j, S_FANXING] = fx


TASK = 8192  # deals per parallel task: a chunk splits into several, so threads end together


@njit(cache=True, parallel=True)
def analyze_chunks(keys, sizes, P, counts_out, hist_out, n_sample, samples_out):
    """Run whole chunks: ``keys: uint64[m]``, ``sizes: int64[m]``; adds each chunk's outcomes
    into its row of ``counts_out: int64[m, N_COUNTS]`` and ``hist_out: int64[m, HIST]``, and
    writes the first ``n_sample`` deals of each chunk into ``samples_out: int64[m, n_sample,
    N_SAMPLE]``. The parallel tasks are runs of up to ``TASK`` deals of a chunk, each counting
    into its own row; the rows are summed per chunk afterwards (integers: the same totals for
    any split or thread count)."""
    m = keys.shape[0]
    nt = 0
    for c in range(m):
        nt += (sizes[c] + TASK - 1) // TASK
    task_chunk = np.empty(nt, np.int64)
    task_first = np.empty(nt, np.int64)
    k = 0
    for c in range(m):
        for f in range(0, sizes[c], TASK):
            task_chunk[k] = c
            task_first[k] = f
            k += 1
    task_counts = np.zeros((nt, N_COUNTS), np.int64)
    task_hist = np.zeros((nt, HIST), np.int64)
    for t in prange(nt):
        ch = task_chunk[t]
        key = keys[ch]
        lo = task_first[t]
        hi = min(sizes[ch], lo + TASK)
        deck = np.empty(DECK, np.int64)
        win = np.zeros(20, np.int8)
        free = np.zeros(WORK, np.int64)
        stock = np.zeros(DECK, np.int8)
        seat = np.zeros((3, MAX_SEATS), np.int64)
        bonus = np.empty((2, 20), np.int64)
        incoming_bonus(P, bonus)
        instant = np.empty((3, 6, 8), np.int64)
        instant_table(P, instant)
        counts = np.zeros(N_COUNTS, np.int64)  # this task's own, so no row is shared
        hist = np.zeros(HIST, np.int64)
        run_task(key, lo, hi, ch, P, deck, win, free, stock, seat, bonus, instant, counts, hist,
                 n_sample, samples_out)
        counts[C_N] = hi - lo
        task_counts[t, :] = counts
        task_hist[t, :] = hist
    for u in range(nt):  # in task order
        counts_out[task_chunk[u]] += task_counts[u]
        hist_out[task_chunk[u]] += task_hist[u]


@njit(cache=True, parallel=True)
def start_threads(n):
    """A trivial parallel loop of ``n`` steps: the first parallel call of a process starts
    numba's thread pool (≈ 0.3 s), which ``simulate_deals`` runs before its clock starts."""
    out = np.zeros(n, np.int64)
    for i in prange(n):
        out[i] = i
    return out.sum()


@njit(cache=True)
def analyze_decks(decks, P, samples_out):
    """Score given dealt decks ``int8[n, 80]`` (card kinds in deal order) one by one into
    ``samples_out: int64[n, N_SAMPLE]``; the decks are used as they are (no shuffling)."""
    counts = np.zeros(N_COUNTS, np.int64)
    hist = np.zeros(HIST, np.int64)
    win = np.zeros(20, np.int8)
    free = np.zeros(WORK, np.int64)
    stock = np.zeros(DECK, np.int8)
    seat = np.zeros((3, MAX_SEATS), np.int64)
    bonus = np.empty((2, 20), np.int64)
    incoming_bonus(P, bonus)
    instant = np.empty((3, 6, 8), np.int64)
    instant_table(P, instant)
    deck = np.empty(DECK, np.int64)
    seats = P[p.SEATS]
    h = P[p.OTHER_CARDS]
    for j in range(decks.shape[0]):
        for i in range(DECK):
            deck[i] = 1 << (W * decks[j, i])
        for s in range(seats):
            seat[0, s] = pack(decks[j], s * h, (s + 1) * h)
        seat[0, 0] += deck[seats * h]
        tianhu, huxi, dihu_seat, fx = analyze_deal(deck, DECK, NO_SPARE, NO_SPARE, 0, P, win,
                                                   free, seat, stock, bonus, instant,
                                                   counts, hist)
        samples_out[j, S_DEAL] = j
        samples_out[j, S_LIANGZHANG] = decks[j, seats * h]
        samples_out[j, S_TIANHU] = tianhu
        samples_out[j, S_DEALER_HUXI] = huxi
        samples_out[j, S_DIHU_SEAT] = dihu_seat
        samples_out[j, S_FANXING] = fx
