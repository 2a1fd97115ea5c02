"""An independent rules checker: replays one whole hand's move list from the dealt deck and
checks every RULES.md §5–§6 rule on its own (a second opinion on the play engines).

It shares no rules code with the engines: nothing from ``zipai_sim.play``, ``zipai_sim.kernels``,
``zipai_sim.game.reference`` or ``zipai_sim.deals.evaluate`` is used here. It reads only the variant's
knobs (``zipai_sim.load_variant(key)``, plain data) and does its own 胡息 search (§3/§4).

``check_hand(variant, deck, moves)`` returns a list of violation messages (empty: legal). Each
message names the move index (``#i``, 0-based in ``moves``) and the rule (§).

Moves are ``(seat, what, cards)`` as the engines log them: "提 (dealt)", "extra card",
"discards", "draws", "偎", "臭偎", "提", "跑", "碰", "吃", "吃 + 比" and
"胡 (HOW[, santi|wukan]) N 胡息 on" (cards = the winning card). A 荒庄 has no final move.

How the checker works: it keeps every seat's hand (counts per kind, 坎 = a kind held 3 times,
locked), table groups, 臭 marks and the stock position, and walks the log. At each point it
knows which moves the rules force (a discard owed by §5.3's invariant, a forced 提/偎/跑, a win
that the always-winning shipped policies must take) and which are optional (碰, 吃); an optional
move in the log is checked for legality, a missing optional move marks the 臭 passes (§5.6).
Errors where the logged move is still physically possible are recorded and the log is followed
(so later checks go on); errors that make the log unreadable stop the check.

>>> from zipai_sim import load_variant
>>> hand_huxi(load_variant("guangxi-81"), counts("一二三四五六七八九壹贰叁肆伍陆柒捌玖十十拾"))
9
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from checker_hand import (  # noqa: F401  (re-exported for the tests and the doctest)
    BIG,
    GROUPS_WITH,
    RED,
    SMALL,
    best_free,
    counts,
    group_points,
    hand_huxi,
    is_group,
    name,
    names,
    only_kan_discard,
    passed_peng_allows_chi,
    run_points,
    same_points,
    wins,
)

WIN_RE = re.compile(r"^胡 \((zimo|fangpao|drawn)(?:, (santi|wukan))?\) (-?\d+) 胡息 on$")
FOUR_NAMES = ("pao", "ti")
LOG_NAME = {"wei": "偎", "chouwei": "臭偎", "ti": "提", "pao": "跑", "peng": "碰"}


# --- the table ------------------------------------------------------------------------------------

@dataclass
class Seat:
    hand: list[int]
    groups: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    no_chi: set[int] = field(default_factory=set)  # §5.6: may not 吃 these kinds
    no_peng: set[int] = field(default_factory=set)  # §5.6: may not 碰 these kinds
    passed_peng: set[int] = field(default_factory=set)  # a later own pair + draw is 臭偎
    beside: list[int] = field(default_factory=list)

    def fours(self) -> int:
        return sum(1 for g in self.groups if len(g[1]) == 4)

    def at_rest(self) -> int:
        return sum(self.hand) + sum(len(g[1]) for g in self.groups)

    def group_of(self, k: int, whats) -> int:
        """Index of the table group of three ``k`` named in ``whats``, or -1."""
        for i, (w, cards) in enumerate(self.groups):
            if w in whats and cards == (k, k, k):
                return i
        return -1


def discardable(hand) -> bool:
    """§5.3/§5.7: a card that may be discarded is one not part of a 坎 (a kind held 1 or 2 times)."""
    return any(1 <= n <= 2 for n in hand)


def chi_options(hand, c: int) -> list[tuple[tuple[int, ...], ...]]:
    """Legal 吃 of card ``c`` (§5.4–§5.5): the 吃 group (with ``c``) and the 比 groups, all with
    free hand cards (坎 never used), every remaining ``c`` laid in 比, and a discardable card left
    afterwards (§5.3). Each option is a tuple of sorted groups, the 吃 group first."""
    if hand[c] >= 3:
        return []
    usable = [n if n <= 2 else 0 for n in hand]
    out = []

    def bi(u, acc):
        if u[c] == 0:
            left = list(hand)
            for k in range(20):
                left[k] -= usable[k] - u[k]
            if discardable(left):
                out.append(tuple(acc))
            return
        for g in GROUPS_WITH[c]:
            if acc[1:] and g < acc[-1]:
                continue  # 比 groups in sorted order: each set of groups once
            need = Counter(g)
            if all(u[x] >= n for x, n in need.items()):
                u2 = list(u)
                for x, n in need.items():
                    u2[x] -= n
                bi(u2, acc + [g])

    for g in GROUPS_WITH[c]:
        need = Counter(g)
        need[c] -= 1
        if all(usable[x] >= n for x, n in need.items()):
            u = list(usable)
            for x, n in need.items():
                u[x] -= n
            bi(u, [g])
    return out


class _Stop(Exception):
    """The log cannot be followed any further."""


class HandChecker:
    def __init__(self, v, deck, moves, partial: bool = False):
        self.v = v
        self.partial = partial  # the log may stop anywhere (unit tests of a hand's opening)
        self.S = v.layout.players
        self.H = v.layout.other_cards
        deck = [int(k) for k in deck]
        if len(deck) != 80 or any(Counter(deck)[k] != 4 for k in range(20)):
            raise ValueError("deck must hold 80 cards, four of each kind (§1)")
        self.deck = deck
        self.moves = [(int(s), str(w), tuple(int(k) for k in cards)) for s, w, cards in moves]
        self.i = 0
        self.errors: list[str] = []
        self.seats = [Seat([0] * 20) for _ in range(self.S)]
        for s in range(self.S):
            for k in deck[s * self.H:(s + 1) * self.H]:
                self.seats[s].hand[k] += 1
        self.lz = deck[self.S * self.H]
        self.seats[0].hand[self.lz] += 1
        self.stock = deck[self.S * self.H + 1:]
        self.pos = 0
        self.won: list[int] = []  # cards won on that are in no hand (claimed at the win)
        self.ended = False

    # --- log helpers ------------------------------------------------------------------------
    def fmt(self, i: int) -> str:
        if i >= len(self.moves):
            return "end of log"
        s, w, cards = self.moves[i]
        return f"#{i} ({s}: {w} {names(cards)})"

    def err(self, msg: str, i: int | None = None) -> None:
        i = self.i if i is None else i
        self.errors.append(f"{self.fmt(i)}: {msg}")

    def stop(self, msg: str, i: int | None = None):
        self.err(msg, i)
        raise _Stop

    def peek(self):
        if self.i < len(self.moves):
            return self.moves[self.i]
        if self.partial:
            raise _Stop  # a partial log ends here: nothing more to check
        return None

    def others(self, s: int) -> list[int]:
        return [(s + d) % self.S for d in range(1, self.S)]

    def is_win(self, m) -> bool:
        return m is not None and WIN_RE.match(m[1]) is not None

    # --- win evaluation (§6) ----------------------------------------------------------------
    def win_value(self, s: int, c: int | None, source: str) -> int:
        """Best 胡息 of seat ``s`` winning on card ``c`` (-1: cannot win there). ``source``:
        "own" (own draw), "drawn" (another's drawn card), "discard" (another's discard, or the
        亮张 for a 地胡) or "none" (the hand as it is: 天胡)."""
        v, pl = self.v, self.seats[s]
        tp = sum(group_points(v, g) for g in pl.groups)
        tq = pl.fours()
        if c is None:
            return hand_huxi(v, pl.hand, (), tp, tq)
        if source != "own" and not v.win.choupai_win and (c in pl.no_chi or c in pl.no_peng):
            return -1  # §5.6: a 臭 card may not be won on
        h = list(pl.hand)
        qz = v.win.qiangzhao
        wei = pl.group_of(c, ("wei", "chouwei"))
        peng = pl.group_of(c, ("peng",))
        opts = []
        if source == "own":
            if h[c] == 3:  # own draw onto own 坎: forced 提
                h[c] = 0
                opts.append(hand_huxi(v, h, (), tp + same_points(v, "ti", c), tq + 1))
            elif wei >= 0:  # onto own 偎/臭偎: forced 提
                opts.append(hand_huxi(v, h, (), tp - group_points(v, pl.groups[wei])
                                      + same_points(v, "ti", c), tq + 1))
            elif h[c] == 2:  # own pair: forced 偎 (臭偎 after a passed 碰)
                h[c] = 0
                w = "chouwei" if c in pl.passed_peng else "wei"
                opts.append(hand_huxi(v, h, (), tp + same_points(v, w, c), tq))
            elif peng >= 0:  # own draw onto own 碰: 跑, or free with 抢招和
                opts.append(hand_huxi(v, h, (), tp - group_points(v, pl.groups[peng])
                                      + same_points(v, "pao", c), tq + 1))
                if qz:
                    opts.append(hand_huxi(v, h, (c,), tp, tq))
            else:
                opts.append(hand_huxi(v, h, (c,), tp, tq))
        else:
            drawn = source == "drawn"
            if h[c] == 3:  # another's card onto a 坎: 跑 (free with 抢招和)
                h2 = list(h)
                h2[c] = 0
                opts.append(hand_huxi(v, h2, (), tp + same_points(v, "pao", c), tq + 1))
                if qz:
                    opts.append(hand_huxi(v, h, (c,), tp, tq))
            elif wei >= 0 or (peng >= 0 and drawn):  # onto 偎, or a drawn card onto a 碰
                g = pl.groups[wei if wei >= 0 else peng]
                opts.append(hand_huxi(v, h, (), tp - group_points(v, g)
                                      + same_points(v, "pao", c), tq + 1))
                if qz:
                    opts.append(hand_huxi(v, h, (c,), tp, tq))
            else:
                opts.append(hand_huxi(v, h, (c,), tp, tq))
                if h[c] == 2:  # pair + another's card: a 碰 (or the card is free)
                    h2 = list(h)
                    h2[c] = 0
                    opts.append(hand_huxi(v, h2, (), tp + same_points(v, "peng", c), tq))
        return max(opts)

    def can_win(self, s: int, c: int | None, source: str) -> int:
        hx = self.win_value(s, c, source)
        return hx if wins(self.v, hx) else -1

    def expect_win(self, s: int, how: str, c: int, hx: int, shape: str | None = None) -> None:
        """The next move must be seat ``s``'s win (the shipped policies always take a win)."""
        m = self.peek()
        if m is None or not self.is_win(m) or m[0] != s:
            self.stop(f"§6 skipped win: seat {s} can win on {name(c)} ({how}, {hx} 胡息 by "
                      "this checker) and a win has priority here")
        how_, shape_, n = WIN_RE.match(m[1]).groups()
        if how_ != how:
            self.err(f"§6 win logged as {how_}, expected {how}")
        if (shape_ or None) != shape:
            self.err(f"§6 win shape logged as {shape_}, expected {shape}")
        if m[2] != (c,):
            self.err(f"§6 win on {names(m[2])}, expected {name(c)}")
        if int(n) != hx:
            self.err(f"§4/§6 winner's 胡息 logged {n}, this checker finds {hx}")
        self.i += 1

    def end_win(self, c: int | None) -> None:
        if c is not None:
            self.won.append(c)
        self.ended = True

    # --- simple expected moves ------------------------------------------------------------
    def unexpected_win(self, m, why: str) -> None:
        """A logged win where the rules (by this checker) allow none."""
        self.stop(f"§6 win not allowed: {why}")

    def expect(self, s: int, what: str, cards: tuple[int, ...], rule: str) -> None:
        m = self.peek()
        if m is None or m[0] != s or m[1] != what or sorted(m[2]) != sorted(cards):
            self.stop(f"{rule}: expected {s}: {what} {names(cards)}")
        self.i += 1

    # --- the hand -----------------------------------------------------------------------------
    def run(self) -> list[str]:
        try:
            if not self.deal_wins():
                self.opening()
                if not self.ended:
                    self.play()
            if self.i < len(self.moves):
                self.err("moves after the end of the hand")
        except _Stop:
            return self.errors
        self.conservation()
        return self.errors

    def locked_points(self, s: int) -> int:
        h = self.seats[s].hand
        return sum(same_points(self.v, "ti", k) if n == 4 else same_points(self.v, "kan", k)
                   if n == 3 else 0 for k, n in enumerate(h))

    def instant_shape(self, s: int) -> str | None:
        """§6 三提/五坎 at the deal (§8 deal-time table)."""
        d = self.v.deal
        h = self.seats[s].hand
        ti = sum(1 for n in h if n == 4)
        kan = sum(1 for n in h if n == 3)
        if d.santi and ti >= d.santi:
            return "santi"
        if d.wukan and kan + (ti if d.ti_counts_as_kan else 0) >= d.wukan:
            if d.wukan_scope != "liangzhang":
                return "wukan"
            lz_n = h[self.lz] if s == 0 else 0
            if s == 0 and (lz_n == 3 or (lz_n == 4 and d.ti_counts_as_kan)):
                return "wukan"
        return None

    def deal_wins(self) -> bool:
        """§6 三提/五坎 and 天胡 (higher points wins, equal points all win), then the 亮张 地胡."""
        cands = {}  # seat -> (points, shape, accepted logged values)
        for s in range(self.S):
            shape = self.instant_shape(s)
            vals = []
            if shape:
                vals.append(self.locked_points(s))
            if s == 0:
                hx = self.can_win(0, None, "none")
                if hx >= 0:
                    vals.append(hx)
                    if not shape:
                        shape = ""
            if vals:
                cands[s] = (max(vals), shape, tuple(vals))
        if cands:
            top = max(p for p, _, _ in cands.values())
            winners = [s for s in range(self.S) if s in cands and cands[s][0] == top]
            for s in winners:
                pts, shape, vals = cands[s]
                if s == 0 and (shape == "" or len(vals) > 1):
                    self.expect_win_any_shape(s, vals, shape)
                else:
                    self.expect_win(s, "zimo", self.lz, pts, shape)
            self.ended = True
            return True
        if self.v.deal.dihu == "liangzhang":
            for s in range(1, self.S):
                hx = self.can_win(s, self.lz, "discard")
                if hx >= 0:
                    self.expect_win(s, "drawn", self.lz, hx)
                    self.ended = True
                    return True
        m = self.peek()
        if self.is_win(m):
            self.unexpected_win(m, "no seat wins at the deal by this checker (§6 三提/五坎, 天胡, "
                                f"地胡); the dealer's 21 are worth {self.win_value(0, None, 'none')}")
        return False

    def expect_win_any_shape(self, s: int, vals, shape) -> None:
        """The dealer's win at the deal when it is 天胡 (complete) and maybe also an instant
        shape: either logged form is accepted."""
        m = self.peek()
        if m is None or not self.is_win(m) or m[0] != s:
            self.stop(f"§6 skipped win at the deal: seat {s} wins (天胡/instant, {max(vals)} "
                      "by this checker)")
        how_, shape_, n = WIN_RE.match(m[1]).groups()
        if how_ != "zimo" or m[2] != (self.lz,):
            self.err("§6 a win at the deal is zimo on the 亮张")
        if shape_ and shape_ != shape:
            self.err(f"§6 win shape logged as {shape_}, expected {shape or 'a complete hand'}")
        if int(n) not in vals:
            self.err(f"§4/§6 winner's 胡息 logged {n}, this checker finds {vals}")
        self.i += 1

    def lay_ti(self, s: int, k: int) -> None:
        self.seats[s].hand[k] = 0
        self.seats[s].groups.append(("ti", (k,) * 4))

    def opening(self) -> None:
        """Opening 提 laid down (§5.1), then the two-提 extra card (§6, two_ti = extra_card)."""
        want = []
        for s in range(self.S):
            want += [(s, k) for k in range(20) if self.seats[s].hand[k] == 4]
        got = []
        while (m := self.peek()) is not None and m[1] == "提 (dealt)":
            if len(m[2]) != 4 or len(set(m[2])) != 1:
                self.stop("§3 an opening 提 is four identical cards")
            got.append((m[0], m[2][0]))
            self.i += 1
        if sorted(got) != sorted(want):
            self.stop(f"§5.1 opening 提 logged {[(s, name(k)) for s, k in got]}, dealt "
                      f"{[(s, name(k)) for s, k in want]}")
        for s, k in want:
            self.lay_ti(s, k)
        if self.v.deal.two_ti != "extra_card":
            return
        for s in range(self.S):
            if self.seats[s].fours() != 2 or self.pos >= len(self.stock):
                continue
            k = self.stock[self.pos]
            self.expect(s, "extra card", (k,), "§6 two 提 at the deal: one extra card")
            self.pos += 1
            hx = self.can_win(s, k, "own")
            if hx >= 0:
                self.expect_win(s, "zimo", k, hx)
                self.end_win(k)
                return
            m = self.peek()
            if self.is_win(m):
                self.unexpected_win(m, f"the extra card {name(k)} does not win "
                                    f"({self.win_value(s, k, 'own')} 胡息 by this checker)")
            self.seats[s].hand[k] += 1
            if self.seats[s].hand[k] == 4:
                self.expect(s, "提 (dealt)", (k,) * 4, "§6 the extra card's 4th copy is a 提")
                self.lay_ti(s, k)

    def play(self) -> None:
        state, s = "rest", 0
        while not self.ended:
            if state == "rest":
                state, s = self.rest(s)
            else:
                state, s = self.draw(s)

    def rest(self, s: int):
        """§5.3: discard only above H + max(0, q − 1); never a 坎 card (§5.7)."""
        pl = self.seats[s]
        target = self.H + max(0, pl.fours() - 1)
        m = self.peek()
        owes = pl.at_rest() > target
        if m is not None and m[0] == s and m[1] == "discards":
            c = m[2][0] if len(m[2]) == 1 else -1
            if c < 0 or pl.hand[c] == 0:
                self.stop("§5.3 discards a card not in hand")
            if not owes:
                self.err(f"§5.3 discard not owed: {pl.at_rest()} cards at rest, invariant "
                         f"H + max(0, q − 1) = {target}")
            if pl.hand[c] >= 3 and (discardable(pl.hand) or only_kan_discard(self.v) == "skip"):
                self.err(f"§5.7 discards a card of a 坎 ({name(c)} held {pl.hand[c]} times)")
            self.i += 1
            pl.hand[c] -= 1
            pl.no_chi.add(c)  # §5.6: never 吃/碰 one's own discards
            pl.no_peng.add(c)
            return self.on_discard(s, c)
        if owes and sum(pl.hand) and (discardable(pl.hand) or only_kan_discard(self.v) != "skip"):
            if self.is_win(m):
                self.unexpected_win(m, "a discard is owed here")
            self.stop(f"§5.3 a discard is owed: {pl.at_rest()} cards at rest > "
                      f"H + max(0, q − 1) = {target}")
        # nothing owed, or only 坎 left and the variant skips (the debt stays), or no hand left
        return "draw", (s + 1) % self.S

    def draw(self, t: int):
        m = self.peek()
        if self.pos >= len(self.stock):
            if m is not None:
                self.stop("§5.8 the stock is empty: the hand ends (荒庄)")
            self.ended = True
            return "end", t
        c = self.stock[self.pos]
        if m is None:
            self.stop(f"§5.2 log ends before seat {t}'s draw ({len(self.stock) - self.pos} "
                      "cards left in the stock)")
        if self.is_win(m):
            self.unexpected_win(m, f"seat {t} should draw now")
        self.expect(t, "draws", (c,), "§5.2 the next player draws the stock's top card")
        self.pos += 1
        return self.on_draw(t, c)

    def take_four(self, s: int, c: int, what: str) -> None:
        pl = self.seats[s]
        gi = pl.group_of(c, ("wei", "chouwei", "peng"))
        if gi >= 0:
            pl.groups.pop(gi)
        else:
            pl.hand[c] = 0
        pl.groups.append((what, (c,) * 4))

    def on_draw(self, t: int, c: int):
        """Priority on a drawn card (§5.2, §8): the drawer's forced 提/偎 (its win first) > 胡
        (drawer, then others in turn order) > forced 跑 (others, then the drawer) > 碰 (others)
        > 吃 (drawer, then the next seat)."""
        pl = self.seats[t]
        if pl.hand[c] in (2, 3) or pl.group_of(c, ("wei", "chouwei")) >= 0:
            hx = self.can_win(t, c, "own")
            if hx >= 0:
                self.expect_win(t, "zimo", c, hx)
                self.end_win(c)
                return "end", t
            if pl.hand[c] == 2:
                what = "chouwei" if c in pl.passed_peng else "wei"
                self.expect(t, LOG_NAME[what], (c,) * 3, f"§3/§5.6 forced {LOG_NAME[what]} of "
                            "the drawer's pair and own draw")
                pl.hand[c] = 0
                pl.groups.append((what, (c,) * 3))
            else:
                self.expect(t, "提", (c,) * 4, "§3 forced 提 of the drawer's own 坎/偎")
                self.take_four(t, c, "ti")
            return "rest", t
        for s in [t] + self.others(t):
            hx = self.can_win(s, c, "own" if s == t else "drawn")
            if hx >= 0:
                self.expect_win(s, "zimo" if s == t else "drawn", c, hx)
                self.end_win(c)
                return "end", s
        return self.after_wins(t, c, drawn=True)

    def on_discard(self, d: int, c: int):
        """Priority on a discard (§5.2, §8): 胡 (discard_win; nearest in turn order) > 跑 (坎 or
        偎; never a 碰) > 碰 > 吃 by the next seat only."""
        if self.v.win.discard_win:
            for s in self.others(d):
                hx = self.can_win(s, c, "discard")
                if hx >= 0:
                    self.expect_win(s, "fangpao", c, hx)
                    self.end_win(c)
                    return "end", s
        return self.after_wins(d, c, drawn=False)

    def after_wins(self, src: int, c: int, drawn: bool):
        m = self.peek()
        if self.is_win(m):
            s = m[0]
            src_kind = "discard" if not drawn else ("own" if s == src else "drawn")
            hx = self.win_value(s, c, src_kind) if m[2] == (c,) else None
            self.unexpected_win(m, f"seat {s} on {name(c)} is worth {hx} 胡息 by this checker"
                                + ("" if drawn or self.v.win.discard_win
                                   else " (no win on a discard in this variant)"))
        # forced 跑: a 坎 in hand or a 偎 on the table takes another's card; a 碰 takes a drawn
        # card (anyone's, the drawer's own included); others in turn order, then the drawer
        order = self.others(src) + ([src] if drawn else [])
        for s in order:
            pl = self.seats[s]
            if s == src:
                pao = pl.group_of(c, ("peng",)) >= 0
            else:
                pao = pl.hand[c] == 3 or pl.group_of(c, ("wei", "chouwei")) >= 0 or (
                    drawn and pl.group_of(c, ("peng",)) >= 0)
            if pao:
                self.expect(s, "跑", (c,) * 4, "§3 forced 跑")
                self.take_four(s, c, "pao")
                return "rest", s
        return self.claims(src, c, drawn)

    # --- optional claims: 碰 and 吃 (§5.2, §5.4–§5.6) ----------------------------------------
    def peng_block(self, s: int, c: int) -> str | None:
        pl = self.seats[s]
        if pl.hand[c] != 2:
            return f"seat {s} holds {pl.hand[c]} {name(c)}, a 碰 needs a pair"
        if c in pl.no_peng:
            return f"§5.6 {name(c)} is 臭 for seat {s} (passed or own discard): no 碰"
        h = list(pl.hand)
        h[c] = 0
        if not discardable(h):
            return f"§5.3 a claim must leave a discard: after the 碰 seat {s} holds only 坎"
        return None

    def chi_block(self, s: int, c: int) -> str | None:
        if c in self.seats[s].no_chi:
            return f"§5.6 {name(c)} is 臭 for seat {s} (passed or own discard): no 吃"
        if not chi_options(self.seats[s].hand, c):
            return f"§5.4/§5.5/§5.3 seat {s} has no legal 吃 of {name(c)} (with 比, leaving a " \
                "discard, 坎 locked)"
        return None

    def mark_pass(self, s: int, c: int, peng: bool) -> None:
        pl = self.seats[s]
        if peng:
            pl.no_peng.add(c)
            pl.passed_peng.add(c)
            if not passed_peng_allows_chi(self.v):
                pl.no_chi.add(c)
        else:
            pl.no_chi.add(c)
            pl.no_peng.add(c)

    def claims(self, src: int, c: int, drawn: bool):
        peng_order = self.others(src)
        chi_order = ([src] if drawn else []) + [(src + 1) % self.S]
        peng_ok = [s for s in peng_order if self.peng_block(s, c) is None]
        chi_ok = [s for s in chi_order if self.chi_block(s, c) is None]
        m = self.peek()
        if m is not None and m[1] == "碰":
            p = m[0]
            if m[2] != (c,) * 3:
                self.stop(f"§3 a 碰 of {name(c)} is three {name(c)}")
            if p == src:
                self.stop("§5.6 never 碰 one's own discard or draw (a pair + own draw is 偎)")
            why = self.peng_block(p, c)
            if why:
                if self.seats[p].hand[c] != 2:
                    self.stop(f"illegal 碰: {why}")
                self.err(f"illegal 碰: {why}")
            for s in peng_order[:peng_order.index(p)]:
                if s in peng_ok:
                    self.mark_pass(s, c, peng=True)
            self.i += 1
            self.seats[p].hand[c] -= 2
            self.seats[p].groups.append(("peng", (c,) * 3))
            return "rest", p
        if m is not None and m[1] in ("吃", "吃 + 比"):
            p = m[0]
            if p not in chi_order:
                self.stop(f"§5.4 吃 only from the previous player's discard/draw or one's own draw:"
                          f" seat {p} may not 吃 seat {src}'s {'draw' if drawn else 'discard'}")
            self.check_chi(p, c, m)
            for s in peng_ok:
                if s != p:
                    self.mark_pass(s, c, peng=True)
            for s in chi_order[:chi_order.index(p)]:
                if s in chi_ok:
                    self.mark_pass(s, c, peng=False)
            self.i += 1
            return "rest", p
        for s in peng_ok:
            self.mark_pass(s, c, peng=True)
        for s in chi_ok:
            self.mark_pass(s, c, peng=False)
        self.seats[src].beside.append(c)
        return "draw", (src + 1) % self.S

    def check_chi(self, p: int, c: int, m) -> None:
        """§5.4–§5.5: the 吃 group holds ``c`` and two free hand cards; each 比 group holds a
        ``c`` from hand and free hand cards; no ``c`` is left in hand; a discard is left."""
        pl = self.seats[p]
        cards = m[2]
        if len(cards) not in (3, 6, 9) or (m[1] == "吃") != (len(cards) == 3):
            self.stop("§5.5 a 吃 lists its group (3 cards) then its 比 groups (3 each)")
        groups = [tuple(sorted(cards[i:i + 3])) for i in range(0, len(cards), 3)]
        if c in pl.no_chi:
            self.err(f"§5.6 {name(c)} is 臭 for seat {p} (passed or own discard): no 吃")
        h = list(pl.hand)
        for gi, g in enumerate(groups):
            if not is_group(g):
                self.stop(f"§3 {names(g)} is not a group (run, 二七十 or 绞)")
            if c not in g:
                self.stop(f"§5.5 {'吃' if gi == 0 else '比'} group {names(g)} holds no {name(c)}")
            from_hand = list(g)
            if gi == 0:
                from_hand.remove(c)
            for k in from_hand:
                if pl.hand[k] >= 3:
                    self.err(f"§3/§5.5 {names(g)} uses a card of a 坎 ({name(k)})")
                if h[k] <= 0:
                    self.stop(f"§5.5 {names(g)} needs {name(k)}, not in hand")
                h[k] -= 1
        if h[c]:
            self.err(f"§5.5 比: seat {p} still holds {h[c]} {name(c)} after the 吃")
        if not discardable(h):
            self.err("§5.3 a claim must leave a discard: after the 吃 only 坎 are left")
        pl.hand = h
        for g in groups:
            pl.groups.append(("chi", g))

    # --- card conservation (§1) -------------------------------------------------------------
    def conservation(self) -> None:
        total = Counter()
        for pl in self.seats:
            for k, n in enumerate(pl.hand):
                total[k] += n
            for _, cards in pl.groups:
                total.update(cards)
            total.update(pl.beside)
        total.update(self.stock[self.pos:])
        total.update(self.won)
        bad = [name(k) for k in range(20) if total[k] != 4]
        if bad:
            self.errors.append(f"end: §1 card conservation broken for {''.join(bad)}")


def check_hand(variant, deck, moves, partial: bool = False) -> list[str]:
    """Replay ``moves`` (the engines' ``(seat, what, cards)`` list) from ``deck`` under
    ``variant`` (a Variant or its key) and return the rule violations found (empty: legal).
    ``partial``: the log is a prefix of a hand (its end is not checked)."""
    if isinstance(variant, str):
        from zipai_sim import load_variant
        variant = load_variant(variant)
    return HandChecker(variant, deck, moves, partial).run()
