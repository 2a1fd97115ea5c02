"""What one seat may see at the table: the ``Observation`` a user policy decides from.

``observe(game, seat, card)`` builds it from a reference ``Game`` (``play.engine``) at the moment
the engine asks ``seat`` a question; ``policies.as_policy`` wraps a user policy written against
observations so that the engine can call it (see ``play.policies``). Seats are relative to the
dealer: seat 0 deals, seat 1 is the dealer's 下家 (next in turn order), and so on (RULES.md §2).

What is public follows seed 000 ⑴: every seat's table groups are shown (吃/碰/跑 face up, 提 and
臭偎 with one card up), except a 偎, which lies face down ("不能明示给其它玩家"): another seat
sees that it is a 偎 of three cards but not its kind or 胡息 (``-1``). Cards beside a seat (its
discards and unused draws, RULES.md §5.2) are face up. Other seats' hands are hidden; only their
sizes are public.

Card conservation (RULES.md §1–§2, 80 cards): ``sum(hand_sizes) + sum(len(g.cards) for every
group) + sum(len(b) for b in beside) + stock + (pending >= 0) == 80`` at every question.
"""

from __future__ import annotations

from dataclasses import dataclass

from zipai_sim.game import params as p

HIDDEN = -1  # a face-down card kind (another seat's 偎), or its hidden 胡息
DECK_CARDS = 80


@dataclass(frozen=True)
class Shown:
    """A table group as a seat sees it: ``name`` one of chi (吃, 比 groups are separate chi
    groups), peng 碰, wei 偎, chouwei 臭偎, pao 跑, ti 提; ``cards`` its card kinds (0–19,
    RULES.md §1 slots), ``HIDDEN`` (-1) for a card the observer cannot see; ``huxi`` its 胡息
    (RULES.md §4), -1 when hidden."""

    name: str
    cards: tuple[int, ...]
    huxi: int


@dataclass(frozen=True)
class Observation:
    """One seat's view when the engine asks it to discard, 碰, 吃 or 胡 (RULES.md §5–§6).

    - ``variant``: the variant key; ``threshold``: its 起胡 (胡息); ``seats``: active players.
    - ``seat``: the observer, relative to the dealer; ``dealer``: always 0 (seats are numbered
      from the dealer, as in the engines).
    - ``hand``: the observer's hand, 20 counts (slots 0–9 一..十, 10–19 壹..拾; 坎 included,
      table groups not), like the package's ``int8[20]`` count vectors (``np.array(obs.hand,
      np.int8)``).
    - ``hand_sizes``: cards in each seat's hand (``hand_sizes[seat] == sum(hand)``).
    - ``melds``: per seat, its table groups in the order laid (``Shown``; another seat's 偎
      hidden).
    - ``beside``: per seat, the face-up cards beside it (own discards and unused own draws), in
      order.
    - ``chou``: kinds the observer may no longer 吃/碰 (臭牌, own discards included, §5.6).
    - ``no_peng``: kinds whose 碰 the observer passed: no longer 碰 (and a later own draw onto
      the pair is a 臭偎); in 大字牌 still 吃 (``[play].passed_peng_chi``, seed 004 篇4).
    - ``stock``: cards left in the stock; ``draws``: stock cards drawn so far.
    - ``liangzhang``: the dealer's shown 亮张 kind (public, RULES.md §2).
    - ``pending``: the card on offer when it lies in no hand, group or beside pile (a discard or
      a drawn card being claimed), else -1 (while discarding; the 亮张 offered for 地胡 is
      still in the dealer's hand).
    """

    variant: str
    threshold: int
    seats: int
    seat: int
    dealer: int
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    melds: tuple[tuple[Shown, ...], ...]
    beside: tuple[tuple[int, ...], ...]
    chou: frozenset[int]
    no_peng: frozenset[int]
    stock: int
    draws: int
    liangzhang: int
    pending: int

    def cards_accounted(self) -> int:
        """Cards placed by this observation (hands, groups, beside piles, stock, the pending
        card): always 80."""
        return (sum(self.hand_sizes) + sum(len(g.cards) for gs in self.melds for g in gs)
                + sum(len(b) for b in self.beside) + self.stock + (self.pending >= 0))


def observe(game, seat: int, card: int = -1) -> Observation:
    """The ``Observation`` of ``seat`` in the reference ``game`` (``play.engine.Game``) when it
    is asked about ``card`` (-1 when discarding). ``pending`` is ``card`` when that card lies
    nowhere yet (a discard or a drawn card on offer), found by counting the table to 80.
    Raises ValueError for a seat out of range, and RuntimeError if the game's cards do not add
    up to 80 (an engine bug, never a policy's)."""
    if isinstance(seat, bool) or not 0 <= seat < game.seats:
        raise ValueError(f"seat must be 0..{game.seats - 1}, got {seat!r}")
    melds = tuple(
        tuple(Shown(m.name, m.cards, m.huxi) if s == seat or m.name != "wei"
              else Shown("wei", (HIDDEN,) * len(m.cards), HIDDEN) for m in pl.melds)
        for s, pl in enumerate(game.players))
    sizes = tuple(sum(pl.hand) for pl in game.players)
    placed = (sum(sizes) + sum(len(m.cards) for pl in game.players for m in pl.melds)
              + sum(len(pl.beside) for pl in game.players) + len(game.stock))
    if placed not in (DECK_CARDS, DECK_CARDS - 1) or (placed < DECK_CARDS and card < 0):
        raise RuntimeError(f"observe: the table holds {placed} cards, not 80")
    me = game.players[seat]
    return Observation(
        variant=game.v.key, threshold=int(game.P[p.THRESHOLD]), seats=game.seats, seat=seat,
        dealer=0, hand=tuple(int(x) for x in me.hand), hand_sizes=sizes, melds=melds,
        beside=tuple(tuple(pl.beside) for pl in game.players), chou=frozenset(me.chou),
        no_peng=frozenset(me.passed_peng), stock=len(game.stock), draws=game.draws,
        liangzhang=game.liangzhang,
        pending=int(card) if placed < DECK_CARDS else -1)
