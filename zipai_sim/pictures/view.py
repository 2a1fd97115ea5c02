"""What one seat sees of a hand at one moment (``PositionView``): the data the card pictures
(``pictures.cards``, ``pictures.table``) draw and the hand analysis (``analysis``) fills in.

A view never holds a card the seat cannot see: other seats' hands are a number of face-down
cards, another seat's 偎 (face down, seed 000 ⑴) is three face-down cards, the stock a count.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: table-group names (RULES.md §3) → (Chinese, pinyin)
GROUP_NAMES = {"chi": ("吃", "chi"), "peng": ("碰", "peng"), "wei": ("偎", "wei"),
               "chouwei": ("臭偎", "chouwei"), "ti": ("提", "ti"), "pao": ("跑", "pao")}


@dataclass(frozen=True)
class Group:
    """One group on a seat's table: ``name`` (a ``GROUP_NAMES`` key), its card kinds (0..19,
    small 一..十 then big 壹..拾) and ``hidden``: another seat's face-down 偎 (kinds unknown to
    the viewer; ``kinds`` then holds -1 three times)."""

    name: str
    kinds: tuple[int, ...]
    hidden: bool = False


@dataclass(frozen=True)
class Offer:
    """The card on offer at a question: ``card`` (kind), shown by ``seat``, ``drawn`` (from the
    stock) or discarded."""

    card: int
    seat: int
    drawn: bool


@dataclass
class PositionView:
    """One seat's view of the table (seats numbered from the dealer, 0 deals).

    - ``seats``: 3 or 4; ``viewer``: the seat whose view it is;
    - ``hand``: the viewer's hand as card kinds (any order), ``hand_sizes[s]``: cards in each
      seat's hand (the viewer's included);
    - ``groups[s]``: each seat's table groups (``Group``), in the order laid;
    - ``discards[s]``: the cards lying beside each seat (its discards and its drawn cards
      nobody took), in order;
    - ``stock``: cards left in the stock; ``to_move``: the seat whose turn it is;
    - ``offer``: the card on offer (a 碰/吃/胡 question), or None;
    - ``huxi[s]``: the 胡息 of each seat's table groups as the viewer sees them (a hidden 偎
      counts as the viewer cannot know: left out), or empty;
    - ``caption``: a line drawn above the table (e.g. the move just made).
    """

    seats: int
    viewer: int
    hand: list[int]
    hand_sizes: list[int]
    groups: list[list[Group]]
    discards: list[list[int]]
    stock: int
    to_move: int
    offer: Offer | None = None
    huxi: list[int] = field(default_factory=list)
    caption: str = ""
