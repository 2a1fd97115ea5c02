"""Settlement of one finished hand (RULES.md §7): units, 名堂, 翻信, who pays, the next dealer.

Everything comes from the variant's knobs (``[settle]``, ``[mingtang]``, ``[fanxing]``,
``[layout]``; RULES.md §8); amounts are in the variant's unit: 舵 (guangxi-81), 囤
(hunan-hengyang, changde-paohuzi), 排 (changsha-paohuzi), 油 (guangxi-dazipai), 胡 (liuhu-dao).

Order of the arithmetic (RULES.md §7.1, §7.4; docs/decisions.md):

1. base units: 飘胡 (0 胡) → ``piaohu_units``; exactly ``kahu_hu`` 胡 (卡胡) → ``kahu_units``;
   otherwise ``unit_base + ⌊max(0, 胡 − t) / hu_per_unit⌋`` (t = threshold for 囤, else 0);
2. ``+ red_bonus`` for the winner's red count, then at least ``red_floor_units`` with
   ``red_floor_from`` or more reds (长沙 "13个红以上算10排", seed 000 ⑷);
3. 自摸 ``+ zimo_bonus_units`` (长沙 +2 排, 常德 +1 囤);
4. × the 名堂 番 (``combine = "add"``: the 番 add up; ``"multiply"``: they multiply; none: ×1);
5. 自摸 × ``zimo_multiplier`` (八一 ×2, seed 001 游戏结算 5);
6. 翻信: ``unit_per_match`` × matches, × ``zimo_multiplier`` on a 自摸 when
   ``zimo_multiplies_fanxing`` (seed 001 "对翻信同样有效"); the amount is units + 翻信 units
   (seed 001 结算公式 "底注×（舵数+翻信）").

A win on another player's drawn card (``how = "drawn"``) is a 自摸 when ``[settle].drawn_win =
"zimo"`` (大字牌, seed 004 篇4 "通过其他玩家摸的牌胡牌，即为自摸"); with ``"plain"`` every other
player pays the amount without the 自摸 bonus and multiplier. The dealer's 亮张 is not a discard:
a 地胡 on it is reported as ``"drawn"`` (or ``"fangpao"`` where 地胡 is on the first discard).

The input and output types are in ``hand_result``, the checks of the input in ``settle_checks``,
the 名堂 of step 4 in ``mingtang``; ``settle_batch`` settles the engine's rows of many hands.

>>> r = HandResult(seats=3, dealer=0, winner=1, huxi=17, cards=(1,) * 20, how="zimo", fanxing=2)
>>> s = settle("guangxi-81", r)   # 3 舵 × 2 自摸 + 2 翻信 × 2 = 10 from each loser
>>> s.units, s.fanxing_units, s.payments, s.next_dealer
(6, 4, (-10, 20, -10), 1)
"""

from __future__ import annotations

import dataclasses
import math
import os

import numpy as np

from zipai_sim.game.hand_result import HandResult, Settlement, card_counts
from zipai_sim.game.mingtang import mingtang_of
from zipai_sim.game.ruleset import Variant
from zipai_sim.game.settle_checks import check_result, fail
from zipai_sim.game.variants import load_variant

__all__ = ["settle", "settle_counts", "settle_win", "win_units"]

_FANGPAO_TIMES = {"double": 2, "triple": 3}  # "pays_all": seats − 1 (RULES.md §7.2)


def win_units(variant: Variant, huxi: int, reds: int, zimo: bool) -> int:
    """Steps 1–3 of the module docstring: the units of a win before 名堂 and the 自摸 ×.

    RULES.md §7.1: 舵 = ⌊胡/5⌋ (seed 001); 囤 = 1 + ⌊(胡 − threshold)/3⌋; 排 = ⌊胡/3⌋ with
    卡胡 10 胡 = 5 排, 1/4/7 reds +1, 10–12 reds +2, 13+ reds at least 10, 自摸 +2, 飘胡 5
    (seed 000 ⑷); 油 / 胡 = 1 per 胡 (seed 000 ⑶). A win below the threshold (an instant
    三提五坎 win at a raised threshold) counts ``unit_base``: the excess is clamped at 0.

    >>> from zipai_sim.game.variants import load_variant
    >>> win_units(load_variant("changsha-paohuzi"), 13, reds=4, zimo=True)   # 4 排 + 1 red + 2
    7
    """
    s = variant.settle
    if s.piaohu_units > 0 and huxi == 0:  # 飘胡5排的底 (seed 000 ⑷)
        units = s.piaohu_units
    elif s.kahu_hu > 0 and s.kahu_units > 0 and huxi == s.kahu_hu:  # 10胡算卡胡计5排
        units = s.kahu_units
    else:
        over = huxi - (variant.win.threshold if s.unit_from_threshold else 0)
        units = s.unit_base + max(0, over) // s.hu_per_unit
    units += dict(s.red_bonus).get(reds, 0)  # 1、4、7个红加一排，10~12个红字加二排
    if s.red_floor_from > 0 and reds >= s.red_floor_from:  # 13个红以上算10排
        units = max(units, s.red_floor_units)
    return units + (s.zimo_bonus_units if zimo else 0)  # 自摸加2排 / 自摸 +1 囤


def settle(variant: Variant | str | os.PathLike[str], result: HandResult) -> Settlement:
    """Settle one finished hand (RULES.md §7) under ``variant`` (anything `load_variant` takes).

    Who pays (RULES.md §7.2): a 自摸 — every other active player pays the amount (seed 001
    "胡牌玩家将收两家钱"); 放炮 per ``[settle].fangpao``: ``"pays_all"`` the discarder pays for
    all others (seed 001 "负担2个人的钱"), ``"double"`` / ``"triple"`` the discarder alone pays
    2× / 3× (seed 004 篇4 "双倍的油数"; 衡阳 RULES.md §8); a win on another's drawn card per
    ``[settle].drawn_win``. 荒庄: the dealer gets ``huangzhuang_dealer``, every other active seat
    ``huangzhuang_others`` (八一 −4 / +2 舵, seed 001 过庄). 数信 sitter (``[layout].sitter``):
    the winner pays the sitter one unit per 翻信 match, at most ``sitter_max_shares`` (seeds
    000 ⑼, 001 "最多3份"); the 翻信 units are still paid to the winner by the losers.
    Next dealer: the winner (seed 001 "谁胡牌谁做庄"); on 荒庄 the dealer stays unless
    ``dealer_passes_after_huangzhuang = k > 0`` and this 荒庄 makes a multiple of k in a row,
    then the next seat deals (seed 000 ⑴ "连续3次荒庄，则由庄家的下家做庄").

    >>> from zipai_sim.game.cards import parse_hand
    >>> won = tuple(int(x) for x in parse_hand("拾拾拾 壹壹壹 一二三 二七十 四五六 柒捌玖 八八捌"))
    >>> settle("guangxi-81", HandResult(seats=3, dealer=0, winner=1, huxi=18, cards=won,
    ...                                 how="fangpao", payer=2)).payments   # 3 舵, pays for 2
    (0, 6, -6)
    >>> settle("guangxi-81", HandResult(seats=3, dealer=0, winner=-1)).payments   # 荒庄
    (-4, 2, 2)

    A shared win at the deal (``result.cowinners``, RULES.md §6 "equal points, both win"): each
    player who did not win pays each winner once what one loser pays on that winner's 自摸,
    without the 自摸 multiplier (seed 000 ⑻ "各给予两家一倍的油数"); units, 翻信 units and 名堂
    of the Settlement are the first winner's.

    Raises ValueError for inconsistent input (seat out of range, 放炮 without payer, payer ==
    winner, cards not 20 counts of 0..4, 翻信 where the variant has none, cowinners that are not
    distinct seats after the winner in turn order, with impossible card counts, or with a
    discard / 海底 / 荒庄, …) and for 荒庄 knobs that do not sum to 0.
    """
    v = load_variant(variant)
    s, n, r = v.settle, v.layout.players, result
    cards = check_result(v, r)
    pay = [0] * n
    if r.winner == -1:  # 荒庄 (RULES.md §7.2)
        total = s.huangzhuang_dealer + (n - 1) * s.huangzhuang_others
        if total:
            fail(f"{v.key}: 荒庄 payments huangzhuang_dealer + {n - 1} × huangzhuang_others"
                 f" = {total}, not 0")
        pay = [s.huangzhuang_dealer if i == r.dealer else s.huangzhuang_others for i in range(n)]
        streak, k = r.huangzhuang_streak + 1, s.dealer_passes_after_huangzhuang
        nxt = (r.dealer + 1) % n if k > 0 and streak % k == 0 else r.dealer
        return Settlement(0, 0, (), tuple(pay) + ((0,) if v.layout.sitter else ()), nxt)
    assert cards is not None
    return settle_win(v, r, *card_counts(cards))


def settle_counts(variant: Variant | str | os.PathLike[str], result: HandResult, reds: int,
                  bigs: int, smalls: int) -> Settlement:
    """`settle` for a win known by the winner's red, big and small card counts instead of
    ``result.cards`` (which is ignored): the numba play engine reports only these counts
    (``kernels.play`` ``O_RED``, ``O_BIG``, ``O_TOTAL``), and they are all that settlement
    reads of the cards (red bonuses, 名堂). A 荒庄 (``winner = -1``) is settled as `settle`
    does, counts ignored. Raises ValueError as `settle` does, and for counts that are not
    integers with 0 ≤ reds ≤ 24, 0 ≤ bigs, smalls ≤ 40 and reds ≤ bigs + smalls > 0.

    A 常德 自摸 on 壹壹壹 捌捌捌 玖玖玖 三四五 叁肆伍 四五六 一一一 (21 胡息, no red card: 乌胡
    8 番): 1 + ⌊(21 − 15)/3⌋ = 3 囤, + 1 for the 自摸, × 8.

    >>> r = HandResult(seats=3, dealer=0, winner=1, huxi=21, how="zimo")
    >>> s = settle_counts("changde-paohuzi", r, reds=0, bigs=12, smalls=9)
    >>> s.units, s.mingtang, s.payments
    (32, (('wuhu', 8),), (-32, 64, -32))
    """
    v = load_variant(variant)
    if result.winner == -1:
        return settle(v, result)
    for name, x in (("reds", reds), ("bigs", bigs), ("smalls", smalls)):
        if not isinstance(x, (int, np.integer)) or isinstance(x, bool):
            fail(f"{name} must be an integer, got {x!r}")
    if not (0 <= reds <= 24 and 0 <= bigs <= 40 and 0 <= smalls <= 40
            and 0 < bigs + smalls and reds <= bigs + smalls):
        fail(f"card counts reds={reds}, bigs={bigs}, smalls={smalls} cannot be a winner's "
             "cards (RULES.md §1: 24 red, 40 big and 40 small cards)")
    check_result(v, result, counted=True)
    return settle_win(v, result, int(reds), int(bigs), int(smalls))


def settle_win(v: Variant, r: HandResult, reds: int, bigs: int, smalls: int) -> Settlement:
    """`settle` for a checked win, from the winner's red / big / small card counts."""
    if r.cowinners:
        return _settle_shared(v, r, reds, bigs, smalls)
    s, n = v.settle, v.layout.players
    pay = [0] * n
    zimo = r.how == "zimo" or (r.how == "drawn" and s.drawn_win == "zimo")
    named = mingtang_of(v.mingtang, r, reds, bigs, smalls)
    fan = [x for _, x in named]
    factor = (sum(fan) if v.mingtang.combine == "add" else math.prod(fan)) if fan else 1
    zmul = s.zimo_multiplier if zimo else 1
    units = win_units(v, int(r.huxi), reds, zimo) * factor * zmul
    fx_units = v.fanxing.unit_per_match * int(r.fanxing) * (
        zmul if s.zimo_multiplies_fanxing else 1)
    amount = units + fx_units
    if r.how == "fangpao":  # RULES.md §7.2 放炮
        due = amount * _FANGPAO_TIMES.get(s.fangpao, n - 1)
        pay[r.payer], pay[r.winner] = -due, due
    else:  # 自摸, or a win on a drawn card: every other active player pays
        pay = [amount * (n - 1) if i == r.winner else -amount for i in range(n)]
    if v.layout.sitter:  # 数信: one share per match, at most sitter_max_shares (seed 000 ⑼)
        shares = min(int(r.fanxing), v.fanxing.sitter_max_shares)
        pay[r.winner] -= shares
        pay.append(shares)
    nxt = r.winner  # next_dealer = "winner", the only choice ([settle].next_dealer)
    return Settlement(units, fx_units, named, tuple(int(p) for p in pay), nxt)


def _settle_shared(v: Variant, r: HandResult, reds: int, bigs: int,
                   smalls: int) -> Settlement:
    """A shared win at the deal (RULES.md §6, seed 000 ⑻ "两家皆胡，没有胡的那一家最后各给予两家
    一倍的油数"): each player who did not win pays each winner once ("一倍") what one loser pays
    on that winner's 自摸 without the 自摸 multiplier (units with 名堂 and 自摸 bonus, and 翻信);
    the 数信 sitter gets each winner's shares. The Settlement's units, 翻信 units and 名堂 are
    the first winner's; the next dealer is the first winner (the dealer when the dealer is among
    them, decisions.md)."""
    n = v.layout.players
    v = dataclasses.replace(v, settle=dataclasses.replace(v.settle, zimo_multiplier=1))
    solo = [(r.winner, dataclasses.replace(r, cowinners=()), (reds, bigs, smalls))]
    for c in r.cowinners:
        one = dataclasses.replace(r, winner=c.seat, cowinners=(), tianhu=False, dihu=True,
                                  all_pungs=c.all_pungs, fanxing=c.fanxing)
        solo.append((c.seat, one, (c.reds, c.bigs, c.smalls)))
    winners = {w for w, _, _ in solo}
    losers = [i for i in range(n) if i not in winners]
    pay = [0] * (n + (1 if v.layout.sitter else 0))
    first = None
    for w, one, counts in solo:
        alone = settle_win(v, one, *counts)  # what each loser pays on this win as a 自摸
        first = first or alone
        each = -alone.payments[losers[0]] if losers else 0
        for i in losers:
            pay[i] -= each
        pay[w] += each * len(losers)
        if v.layout.sitter:
            pay[w] -= alone.payments[n]
            pay[n] += alone.payments[n]
    assert first is not None
    return Settlement(first.units, first.fanxing_units, first.mingtang, tuple(pay), r.winner)
