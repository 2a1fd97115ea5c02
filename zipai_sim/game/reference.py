"""Slow pure-Python twins of the kernels: the executable spec the tests compare against.

Written from RULES.md, not from the kernels: hand evaluation enumerates explicit groups and keeps
every decomposition; dealing replays the same splitmix64 stream with Python integers. Nothing
here is fast and nothing here is used in a hot path (``explain`` uses ``decompose`` for one hand).
"""

from __future__ import annotations

from dataclasses import dataclass

from zipai_sim.game import params as p

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


# --- random numbers and the deal (RULES.md §2) -------------------------------------------------

def mix64(z: int) -> int:
    """splitmix64 finalizer on Python ints (the twin of ``kernels.rng.mix64``)."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class Stream:
    """The per-deal splitmix64 stream, read as 32-bit halves (high half first), and exact
    bounded integers by Lemire's rejection rule."""

    def __init__(self, chunk_key: int, j: int):
        self.state = mix64((chunk_key + GOLDEN * (j + 1)) & MASK64)
        self.halves: list[int] = []

    def u32(self) -> int:
        if not self.halves:
            self.state = (self.state + GOLDEN) & MASK64
            r = mix64(self.state)
            self.halves = [r & 0xFFFFFFFF, r >> 32]  # popped from the end: high first
        return self.halves.pop()

    def below(self, m: int) -> int:
        while True:
            prod = self.u32() * m
            if (prod & 0xFFFFFFFF) >= (1 << 32) % m:
                return prod >> 32


def shuffled_deck(chunk_key: int, j: int) -> list[int]:
    """The kinds of the 80 cards in deal order for deal ``j`` of a chunk (forward Fisher–Yates)."""
    deck = [i // 4 for i in range(80)]
    rs = Stream(chunk_key, j)
    for i in range(79):
        k = i + rs.below(80 - i)
        deck[i], deck[k] = deck[k], deck[i]
    return deck


def deal_from_deck(deck: list[int], P: tuple) -> tuple[list[list[int]], list[int], int]:
    """(hands as count lists per seat, stock kinds in draw order, 亮张 kind)."""
    seats, h = P[p.SEATS], P[p.OTHER_CARDS]
    hands = [[0] * 20 for _ in range(seats)]
    for s in range(seats):
        for card in deck[s * h:(s + 1) * h]:
            hands[s][card] += 1
    lz = deck[seats * h]
    hands[0][lz] += 1
    return hands, deck[seats * h + 1:], lz


# --- groups and 胡息 (RULES.md §3, §4) -----------------------------------------------------------

@dataclass(frozen=True)
class Group:
    """One group of a decomposition: its kind name, the card slots and its 胡息."""
    name: str  # ti 提, pao 跑, kan 坎, wei 偎, peng 碰, shun 顺, erqishi 二七十, jiao 绞, jiang 将
    cards: tuple[int, ...]
    huxi: int


def _pts(P: tuple, small_idx: int, k: int) -> int:
    return P[small_idx + 1] if k >= 10 else P[small_idx]


def _peng(P: tuple, k: int) -> int:
    red = (k % 10) in (1, 6, 9)
    if k >= 10:
        return P[p.PENG_BIG_RED] if red else P[p.PENG_BIG_BLACK]
    return P[p.PENG_SMALL_RED] if red else P[p.PENG_SMALL_BLACK]


def _free_groups(P: tuple) -> list[Group]:
    """Every 3-card group free cards can form (§3): same-size runs, 二七十, 绞."""
    out = []
    for size in (0, 10):
        for v in range(8):
            cards = (size + v, size + v + 1, size + v + 2)
            hx = _pts(P, p.YIERSAN_SMALL, size) if v == 0 else 0
            out.append(Group("shun", cards, hx))
        out.append(Group("erqishi", (size + 1, size + 6, size + 9), _pts(P, p.ERQISHI_SMALL, size)))
    for v in range(10):
        out.append(Group("jiao", (v, v, v + 10), 0))
        out.append(Group("jiao", (v, v + 10, v + 10), 0))
    return out


def _partitions(free: list[int], pair_owed: bool, groups: list[Group]):
    """Yield every list of groups (and at most one pair) using all of ``free`` exactly."""
    lo = next((k for k in range(20) if free[k] > 0), None)
    if lo is None:
        if not pair_owed:
            yield []
        return
    if pair_owed and free[lo] >= 2:
        free[lo] -= 2
        for rest in _partitions(free, False, groups):
            yield [Group("jiang", (lo, lo), 0)] + rest
        free[lo] += 2
    for g in groups:
        if lo not in g.cards:
            continue
        need = [g.cards.count(k) for k in range(20)]
        if all(free[k] >= need[k] for k in range(20)):
            for k in g.cards:
                free[k] -= 1
            for rest in _partitions(free, pair_owed, groups):
                yield [g] + rest
            for k in g.cards:
                free[k] += 1


def decompositions(hand, P: tuple, inc: int = -1, inc_self: bool = True,
                   table_huxi: int = 0, table_fours: int = 0) -> list[list[Group]]:
    """All ways ``hand`` (+ incoming card ``inc``) is all groups, per RULES.md §3 and §6.

    Locked: a count of 4 is a 提, 3 a 坎. An incoming card with a 坎 makes a 提 (own draw) or a
    跑 (another's; with 抢招和 the 坎 may stay); with a pair a 偎 (own draw) or optionally a 碰.
    The pair (将) is owed iff the player holds a four-card group (table ones included)."""
    hand = [int(x) for x in hand]
    groups = _free_groups(P)
    options = []  # (locked groups, free counts, number of four-card groups)
    locked, free, fours = [], [0] * 20, table_fours
    for k in range(20):
        if hand[k] == 4:
            locked.append(Group("ti", (k,) * 4, _pts(P, p.TI_SMALL, k)))
            fours += 1
        elif hand[k] == 3:
            locked.append(Group("kan", (k,) * 3, _pts(P, p.KAN_SMALL, k)))
        else:
            free[k] = hand[k]
    if inc < 0:
        options.append((locked, free, fours))
    elif hand[inc] == 3:
        others = [g for g in locked if g.cards != (inc,) * 3]
        if inc_self:
            options.append((others + [Group("ti", (inc,) * 4, _pts(P, p.TI_SMALL, inc))], free,
                            fours + 1))
        else:
            options.append((others + [Group("pao", (inc,) * 4, _pts(P, p.PAO_SMALL, inc))], free,
                            fours + 1))
            if P[p.QIANGZHAO]:
                f2 = list(free)
                f2[inc] += 1
                options.append((locked, f2, fours))
    elif hand[inc] == 2:
        f2 = list(free)
        f2[inc] = 0
        if inc_self:
            options.append((locked + [Group("wei", (inc,) * 3, _pts(P, p.WEI_SMALL, inc))], f2,
                            fours))
        else:
            options.append((locked + [Group("peng", (inc,) * 3, _peng(P, inc))], f2, fours))
            f3 = list(free)
            f3[inc] = 3
            options.append((locked, f3, fours))
    elif hand[inc] < 4:
        f2 = list(free)
        f2[inc] += 1
        options.append((locked, f2, fours))
    out = []
    for lk, fr, fo in options:
        n = sum(fr)
        owed = fo >= 1
        if (n - (2 if owed else 0)) % 3 != 0 or n < (2 if owed else 0):
            continue
        for part in _partitions(list(fr), owed, groups):
            out.append(lk + part)
    return out


def best(hand, P: tuple, inc: int = -1, inc_self: bool = True, table_huxi: int = 0,
         table_fours: int = 0) -> tuple[int, list[Group]]:
    """(best total 胡息, its groups), or (-1, []) when the hand is not all groups."""
    top, top_groups = -1, []
    for d in decompositions(hand, P, inc, inc_self, table_huxi, table_fours):
        total = table_huxi + sum(g.huxi for g in d)
        if total > top:
            top, top_groups = total, d
    return top, top_groups


def is_win(huxi: int, P: tuple) -> bool:
    """§6 threshold, and 长沙 飘胡 (a 0-胡息 complete hand) where allowed."""
    return huxi >= 0 and (huxi >= P[p.THRESHOLD] or (bool(P[p.PIAOHU]) and huxi == 0))


def instant(hand, P: tuple, is_dealer: bool, liangzhang: int = -1) -> str:
    """"santi", "wukan" or "" for a dealt hand (§6 instant wins, §8 deal-time table)."""
    ti = sum(1 for x in hand if x == 4)
    kan = sum(1 for x in hand if x == 3)
    if P[p.SANTI_MIN] and ti >= P[p.SANTI_MIN]:
        return "santi"
    if P[p.WUKAN_MIN]:
        total = kan + (ti if P[p.TI_COUNTS_AS_KAN] else 0)
        if total >= P[p.WUKAN_MIN]:
            if not P[p.WUKAN_LIANGZHANG]:
                return "wukan"
            if is_dealer and liangzhang >= 0 and hand[liangzhang] == 3:
                return "wukan"
    return ""


def waits(hand, P: tuple, table_huxi: int = 0, table_fours: int = 0) -> dict[int, tuple[int, int]]:
    """听: {kind: (胡息 as own draw, 胡息 as another's card)} for kinds that complete the hand."""
    out = {}
    for k in range(20):
        if hand[k] >= 4:
            continue
        a = best(hand, P, k, True, table_huxi, table_fours)[0]
        b = best(hand, P, k, False, table_huxi, table_fours)[0]
        if a >= 0 or b >= 0:
            out[k] = (a, b)
    return out


# --- one deal at the table (RULES.md §6, §7.3, §9) ------------------------------------------------

def fanxing(cards: list[int], win_card: int, stock: list[int], P: tuple) -> int:
    """翻信 units for a winner holding ``cards`` (winning card included), turning ``stock``."""
    hand_only = not P[p.FANXING_COUNT_ALL]
    def held(k):
        return cards[k] - (1 if hand_only and k == win_card else 0)
    if P[p.FANXING_MATCH] == p.MATCH_GEN:
        return held(win_card)
    total = 0
    for turned in stock:
        size, v = (turned // 10) * 10, turned % 10
        v = {p.MATCH_BEN: v, p.MATCH_SHANG: v + 1, p.MATCH_XIA: v - 1}[P[p.FANXING_MATCH]]
        if not 0 <= v <= 9:
            if not P[p.FANXING_WRAP]:
                break
            v %= 10
        k = size + v
        total += held(k)
        if not (P[p.FANXING_RETURN_ON_FOUR] and cards[k] == 4):
            break
    return total


def opening_outcome(deck: list[int], P: tuple) -> dict:
    """What happens at the deal of ``deck`` (docs/decisions.md, order of events): 天胡 kind
    ("", "complete", "santi", "wukan"), dealer 胡息, 地胡 seat, 翻信 value (None without a win)."""
    hands, stock, lz = deal_from_deck(deck, P)
    seats = P[p.SEATS]
    stock = list(stock)
    dealer = hands[0]
    huxi = best(dealer, P)[0]
    out = {"tianhu": "", "dealer_huxi": huxi, "dihu_seat": -1, "fanxing": None,
           "extra_tianhu": False}
    winner, win_cards, win_card = -1, None, lz
    inst = instant(dealer, P, True, lz)
    if inst:
        out["tianhu"], winner = inst, 0
    elif is_win(huxi, P):
        out["tianhu"], winner = "complete", 0
    if winner < 0 and P[p.TWO_TI_EXTRA]:
        for s in range(seats):
            if winner >= 0 or sum(1 for x in hands[s] if x == 4) != 2:
                continue
            extra = stock.pop(0)
            if s == 0:
                if is_win(best(dealer, P, extra, True)[0], P):
                    out["tianhu"], out["extra_tianhu"], winner = "complete", True, 0
                    win_card = extra
                    win_cards = list(dealer)
                    win_cards[extra] += 1
            else:
                hands[s][extra] += 1
    if winner == 0 and win_cards is None:
        win_cards = list(dealer)
    if winner < 0:
        for s in range(1, seats):
            if is_win(best(hands[s], P, lz, False)[0], P):
                out["dihu_seat"], winner = s, s
                win_cards = list(hands[s])
                win_cards[lz] += 1
                break
    if winner >= 0 and P[p.FANXING]:
        out["fanxing"] = fanxing(win_cards, win_card, stock, P)
    return out
