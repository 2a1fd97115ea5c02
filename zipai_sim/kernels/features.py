"""Opening-hand features of every seat of a deal, for the win-probability tables.

``features_chunks`` re-deals exactly the decks ``play.play_chunks`` plays (deal ``j`` of chunk
``c`` is ``reference.shuffled_deck(keys[c], j)``) and writes, per seat, the features the tables
group by (``F_*`` columns) and ``p_draw``, the exact chance under the draw model that one of the
seat's winning waits turns up in the stock (``p_any_draw``).

Features of a seat's dealt cards (the dealer's 21 include the 亮张; RULES.md §2):

- ``F_HUXI`` 胡息 fixed at the deal: every 提 and 坎 (locked, §3) at its §4 value, plus the
  largest 胡息 of disjoint 一二三/壹贰叁 and 二七十/贰柒拾 groups the free cards can form (the two
  share the 二, so e.g. 一二三七十 with one 二 counts one of them). Other groups score 0 (§4).
- ``F_TI`` / ``F_KAN`` 提 (four) and 坎 (three) dealt; ``F_RED`` red cards (二七十 贰柒拾, §1).
- ``F_WAITS`` winning waits: kinds that complete the hand at the threshold as the seat's own
  draw or as another player's card (§6); ``F_MASK`` those kinds as bits. The dealer first
  discards one free card (§5.1; a 坎 is never discarded, §5.7): its figures are those of the
  discard with the highest ``p_draw`` (then the most waits, then the lowest kind), ``F_DISCARD``
  that kind (-1 for non-dealers and for a dealer with no winning wait).

Draw model (``p_any_draw``): the ``S`` stock cards are a uniform sample of the ``U`` cards the seat
cannot see; the seat draws ``d`` of them and the others ``e = S - d``; any drawn card is shown and
may be won on (§5.2), as an own draw (自摸) or as another player's card. The chance is that one
of them wins for the seat, ignoring other players' wins, discards and changes to the hand.
"""

import math

import numpy as np
from numba import njit, prange

from zipai_sim.game import params as p
from zipai_sim.kernels.deal import DECK, NO_SPARE, fresh_deck, hands_from_deck, shuffle_steps
from zipai_sim.kernels.hand import WORK, eval_hand, group_points, is_win
from zipai_sim.kernels.rng import deal_state

F_HUXI = 0
F_TI = 1
F_KAN = 2
F_RED = 3
F_WAITS = 4
F_MASK = 5
F_DISCARD = 6
N_FEAT = 7

RED_KINDS = (1, 6, 9, 11, 16, 19)


@njit(cache=True)
def opening_huxi(hand, P):
    """胡息 fixed at the deal of ``hand: int8[20]``: 提 and 坎 at their §4 values plus the best
    disjoint 一二三 / 二七十 of each size among the free cards (counts 1..2)."""
    total = 0
    for k in range(20):
        if hand[k] == 4:
            total += group_points(P, p.TI_SMALL, k)
        elif hand[k] == 3:
            total += group_points(P, p.KAN_SMALL, k)
    for size in (0, 10):
        c = np.zeros(10, np.int64)
        for v in range(10):
            x = hand[size + v]
            c[v] = x if x < 3 else 0
        ys = group_points(P, p.YIERSAN_SMALL, size)
        eq = group_points(P, p.ERQISHI_SMALL, size)
        best = 0
        for a in range(3):
            for b in range(3):
                if a <= c[0] and a <= c[2] and b <= c[6] and b <= c[9] and a + b <= c[1]:
                    best = max(best, a * ys + b * eq)
        total += best
    return total


@njit(cache=True)
def _lcomb(n, k):
    if k < 0 or k > n or n < 0:
        return -np.inf
    return math.lgamma(n + 1.0) - math.lgamma(k + 1.0) - math.lgamma(n - k + 1.0)


@njit(cache=True)
def p_any_draw(U, d, e, a, b, c):
    """P(one of the ``d`` own and ``e`` other draws wins), the ``d + e`` cards a uniform sample
    of ``U``: ``a`` cards win either way, ``b`` only as an own draw, ``c`` only as another's.

    P(none) = Σ_i C(c, i) C(N, d − i) C(b + N − d + i, e) / (C(U, d) C(U − d, e)), N = U − a − b
    − c: the own cards avoid the a and b cards (i of them are c cards), the others' cards avoid
    the a and c cards. Returns NaN when ``d + e > U``."""
    if d + e > U:
        return np.nan
    n = U - a - b - c
    den = _lcomb(U, d) + _lcomb(U - d, e)
    none = 0.0
    for i in range(min(c, d) + 1):
        x = _lcomb(c, i) + _lcomb(n, d - i) + _lcomb(b + n - d + i, e)
        if x > -np.inf:
            none += math.exp(x - den)
    return max(0.0, 1.0 - none)


@njit(cache=True)
def _wait_stats(hand, unseen, P, d, e, work):
    """(winning wait kinds, their bit mask, p_any_draw) of ``hand`` with ``unseen`` counts."""
    a = 0
    b = 0
    c = 0
    n = 0
    mask = 0
    U = 0
    for k in range(20):
        U += unseen[k]
        if hand[k] >= 4:
            continue
        ws = is_win(eval_hand(hand, k, 1, 0, 0, P, work), P)
        wo = is_win(eval_hand(hand, k, 0, 0, 0, P, work), P)
        if ws or wo:
            n += 1
            mask |= 1 << k
            if ws and wo:
                a += unseen[k]
            elif ws:
                b += unseen[k]
            else:
                c += unseen[k]
    if n == 0:
        return 0, 0, 0.0
    return n, mask, p_any_draw(U, d, e, a, b, c)


@njit(cache=True)
def own_draws(P, seat):
    """Stock cards seat ``seat`` draws when the stock is drawn out in turn order from seat 1
    (the dealer discards first, §5.1): position ``t`` goes to seat ``(1 + t) % seats``."""
    seats = P[p.SEATS]
    n = 0
    for t in range(P[p.STOCK_LEN]):
        if (1 + t) % seats == seat:
            n += 1
    return n


@njit(cache=True)
def seat_features(hand, seat, lz, P, feat, work):
    """Features (``F_*`` into ``feat: int64[N_FEAT]``) of seat ``seat`` holding ``hand`` (the
    dealer's 21 with the 亮张 ``lz``); returns ``p_draw``. ``hand`` is restored on return."""
    for f in range(N_FEAT):
        feat[f] = 0
    feat[F_DISCARD] = -1
    feat[F_HUXI] = opening_huxi(hand, P)
    for k in range(20):
        if hand[k] == 4:
            feat[F_TI] += 1
        elif hand[k] == 3:
            feat[F_KAN] += 1
    for k in RED_KINDS:
        feat[F_RED] += hand[k]
    unseen = np.empty(20, np.int64)
    for k in range(20):
        unseen[k] = 4 - hand[k]
    d = own_draws(P, seat)
    e = P[p.STOCK_LEN] - d
    if seat != 0:
        unseen[lz] -= 1  # the dealer's 亮张 is shown to all (§2)
        n, mask, pr = _wait_stats(hand, unseen, P, d, e, work)
        feat[F_WAITS] = n
        feat[F_MASK] = mask
        return pr
    best_p = -1.0
    for k in range(20):
        if hand[k] == 0 or hand[k] >= 3:
            continue
        hand[k] -= 1
        n, mask, pr = _wait_stats(hand, unseen, P, d, e, work)  # the discard is seen: not unseen
        hand[k] += 1
        # ties within rounding (the same exact chance) go to the most waits, then the lowest kind
        if pr > best_p + 1e-12 or (pr >= best_p - 1e-12 and n > feat[F_WAITS]):
            best_p = pr
            feat[F_WAITS] = n
            feat[F_MASK] = mask
            feat[F_DISCARD] = k
    if feat[F_WAITS] == 0:
        feat[F_DISCARD] = -1
    return max(0.0, best_p)


@njit(cache=True)
def deck_features(deck, P, feat, prob):
    """Features of every seat of one dealt ``deck: int8[80]`` (``kernels.deal`` layout) into
    ``feat: int64[seats, N_FEAT]`` and ``prob: float64[seats]``."""
    seats = P[p.SEATS]
    hands = np.zeros((seats, 20), np.int8)
    hands_from_deck(deck, P, hands)
    lz = deck[seats * P[p.OTHER_CARDS]]
    work = np.empty(WORK, np.int64)
    for s in range(seats):
        prob[s] = seat_features(hands[s], s, lz, P, feat[s], work)


@njit(cache=True, parallel=True)
def features_chunks(keys, sizes, P, feat_out, prob_out):
    """Features of every deal of every chunk (one prange iteration per chunk), the decks dealt as
    ``play.play_chunks`` deals them. feat_out: int64[m, ≥ max(sizes), seats, N_FEAT];
    prob_out: float64[m, ≥ max(sizes), seats]."""
    for c in prange(keys.shape[0]):
        deck = np.empty(DECK, np.int8)
        for j in range(sizes[c]):
            fresh_deck(deck)
            shuffle_steps(deck, 0, DECK - 1, deal_state(keys[c], j), NO_SPARE, 0)
            deck_features(deck, P, feat_out[c, j], prob_out[c, j])
