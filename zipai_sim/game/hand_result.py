"""What a finished hand reports and what its settlement pays (RULES.md §6–§7): `HandResult` (with
its `CoWinner` for a shared win at the deal), `Settlement`, the ways a hand is won (`HOWS`) and
the red / big / small counts of a winner's cards (`card_counts`, RULES.md §1) that settlement
reads. The arithmetic is in ``settle``, the checks of a result in ``settle_checks``.

>>> r = HandResult(seats=3, dealer=0, winner=1, huxi=17, cards=(1,) * 20, how="zimo", fanxing=2)
>>> r.how in HOWS, card_counts(r.cards)
(True, (6, 10, 10))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from zipai_sim.game.cards import IS_BIG, IS_RED

__all__ = ["HOWS", "CoWinner", "HandResult", "Settlement", "card_counts"]

HOWS = ("zimo", "fangpao", "drawn")  # own draw (or at the deal), a discard, another's drawn card
@dataclass(frozen=True)
class CoWinner:
    """Another winner of a shared win at the deal (RULES.md §6: two instant wins with equal
    points both win, seed 000 ⑻ "两家皆胡"): its seat, the red / big / small counts of all its
    cards, 对子胡 (``all_pungs``) and 翻信 matches. It wins as a non-dealer (地胡 名堂) with the
    main winner's 胡息."""

    seat: int
    reds: int
    bigs: int
    smalls: int
    all_pungs: bool = False
    fanxing: int = 0


@dataclass(frozen=True)
class HandResult:
    """What the play engine reports for one finished hand (the input of `settle`).

    ``cards`` holds 20 counts (RULES.md §1 slots): ALL the winner's cards, hand + own table groups
    + the winning card; it is read for the red / big counts of 名堂 and red bonuses. ``how``:
    ``"zimo"`` (own draw, or an instant / 天胡 win at the deal), ``"fangpao"`` (another player's
    discard; ``payer`` = the discarder) or ``"drawn"`` (another player's drawn card, or the 亮张).
    ``fanxing`` = 翻信 matching cards, already counted by the engine (RULES.md §7.3).
    ``huangzhuang_streak`` = consecutive 荒庄 just before this hand (RULES.md §7.2, seed 000 ⑴).
    ``cowinners``: the other winners of a shared win at the deal (`CoWinner`; ``winner`` is
    then the first in turn order from the dealer, ``how = "zimo"``).
    A 荒庄 (``winner = -1``) leaves every win field at its default.
    """

    seats: int  # active players (3, or 4 in 六胡倒)
    dealer: int
    winner: int  # -1: 荒庄
    huxi: int = 0  # 胡息 of the winning hand, table groups included
    cards: tuple[int, ...] = ()
    how: str = ""
    payer: int = -1
    all_pungs: bool = False  # no run / 二七十 / 绞 in the winning decomposition (对子胡)
    tianhu: bool = False
    dihu: bool = False
    haidi: bool = False  # 海底 / 海胡: won on the last stock card
    fanxing: int = 0
    huangzhuang_streak: int = 0
    cowinners: tuple[CoWinner, ...] = ()


@dataclass(frozen=True)
class Settlement:
    """The money of one hand, in the variant's unit (舵/囤/排/油/胡).

    ``units``: the win's units before 翻信, after 名堂 and 自摸 (0 on 荒庄); ``fanxing_units``:
    what 翻信 adds to each payment; ``mingtang``: ``(name, 番)`` of the 名堂 that applied;
    ``payments``: per active seat, plus a last entry for the 数信 sitter when the variant has
    one; they sum to 0. ``next_dealer``: the seat that deals the next hand.
    """

    units: int
    fanxing_units: int
    mingtang: tuple[tuple[str, int], ...]
    payments: tuple[int, ...]
    next_dealer: int


def card_counts(cards: object) -> tuple[int, int, int]:
    """``(reds, bigs, smalls)`` of 20 card counts (RULES.md §1: red = 二七十 贰柒拾, big =
    壹..拾): all that settlement reads of a winner's cards (red bonuses, 名堂).

    >>> card_counts([1] * 20)
    (6, 10, 10)
    """
    c = np.asarray(cards)
    return int(c[IS_RED].sum()), int(c[IS_BIG].sum()), int(c[~IS_BIG].sum())
