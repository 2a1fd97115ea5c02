"""The table of the reference engine (``play.engine``): a group on the table (``Meld``), a seat
(``Player``), how a hand ended (``Outcome``, ``CoWin``) and what a table group becomes with a
fourth card (``four_from``) (RULES.md §4–§6)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Meld:
    """A group on the table: ``name`` is chi (吃, with 比), peng 碰, wei 偎, chouwei 臭偎,
    pao 跑 or ti 提; ``cards`` its kinds; ``huxi`` its 胡息 (§4)."""

    name: str
    cards: tuple[int, ...]
    huxi: int


@dataclass
class Player:
    """One seat: hand counts (坎 inside, locked), table groups, and what it may no longer take."""

    hand: list[int]
    melds: list[Meld] = field(default_factory=list)
    chou: set[int] = field(default_factory=set)  # 臭: may not 吃/碰 these kinds (§5.6)
    passed_peng: set[int] = field(default_factory=set)  # a later own draw makes 臭偎
    beside: list[int] = field(default_factory=list)  # own discards and unused draws

    def fours(self) -> int:
        return sum(1 for m in self.melds if len(m.cards) == 4)

    def at_rest(self) -> int:
        return sum(self.hand) + sum(len(m.cards) for m in self.melds)

    def table_huxi(self) -> int:
        return sum(m.huxi for m in self.melds)

    def meld_of(self, k: int, names: tuple[str, ...]) -> Meld | None:
        return next((m for m in self.melds if m.name in names and m.cards[0] == k), None)

    def all_cards(self) -> list[int]:
        out = list(self.hand)
        for m in self.melds:
            for k in m.cards:
                out[k] += 1
        return out


@dataclass
class Outcome:
    """How a hand ended: ``winner`` (-1 for 荒庄), ``how`` ("zimo" own draw or at the deal,
    "fangpao" another's discard, "drawn" another player's drawn or shown card), ``payer`` (the
    discarder), 胡息, the winner's cards, flags, 翻信 matches, the number of draws made, 对子胡
    (``all_pungs``) and, for a shared win at the deal, the other winners (``cowinners``, each
    with the same 胡息; ``winner`` is the first in turn order from the dealer)."""

    winner: int = -1
    how: str = ""
    payer: int = -1
    huxi: int = 0
    cards: tuple[int, ...] = ()
    win_card: int = -1
    tianhu: bool = False
    dihu: bool = False
    haidi: bool = False
    instant: str = ""
    fanxing: int = 0
    draws: int = 0
    all_pungs: bool = False
    cowinners: tuple[CoWin, ...] = ()


@dataclass(frozen=True)
class CoWin:
    """Another winner of a shared win at the deal (RULES.md §6: two instant wins with equal
    points both win): its seat, all its cards (20 counts), instant shape, 对子胡 and 翻信."""

    seat: int
    cards: tuple[int, ...]
    instant: str
    all_pungs: bool
    fanxing: int


def four_from(meld: Meld, c: int, own: bool, drawn: bool) -> str | None:
    """The four-card group a table group becomes with card ``c`` (RULES.md §6): a 偎/臭偎 makes
    "ti" on an own draw and "pao" on another's card, a 碰 makes "pao" on a drawn card; None
    when ``meld`` is not three ``c`` or cannot grow."""
    if meld.cards != (c, c, c):
        return None
    if meld.name in ("wei", "chouwei"):
        return "ti" if own else "pao"
    if meld.name == "peng" and drawn:
        return "pao"
    return None
