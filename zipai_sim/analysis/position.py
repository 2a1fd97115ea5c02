"""A position without a record (issue 40 §2): one decision typed as text, valued like a
recorded one (``analysis.values``), with the chance to win from there.

The text, one ``key: value`` line each (``#`` starts a comment; card text as RULES.md §1):

    seat: 0                        # whose decision (0 deals)
    hand: 一二三 四五五 七八九 壹贰叁 肆伍陆 柒捌玖 拾拾   # that seat's hand
    table 1: 碰 三三三 / 偎         # a seat's table groups: 吃/碰/偎/臭偎/提/跑 and cards;
                                   # another seat's 偎 is face down: the word alone
    discards 2: 六七               # the cards lying beside a seat (its discards, unused draws)
    offer: 五 from 2               # a card on offer, discarded by seat 2 (``drawn by 2``: its
                                   # draw); none: the seat discards
    ask: peng                      # which question on the offer: hu, peng or chi (default: the
                                   # first the seat may answer, in that order)
    stock: 17                      # cards left in the stock (optional: the rest of the 80)
    hands: 20 14 20                # each seat's hand size (optional; default: from the rules,
                                   # a seat at rest holds the dealt size plus its fours less
                                   # one, less its table cards)

The unseen cards (other hands, face-down 偎, the stock) are filled in any way the visible ones
allow: no value depends on them, since every world redeals them (``fill`` is the seed).
A seat's own discards are 臭 to it (RULES.md §5.6); earlier passes cannot be typed.
"""

from __future__ import annotations

import os
import random
import re
from dataclasses import dataclass

from zipai_sim.analysis.walk import PASS, Question, chi_label, view_of
from zipai_sim.game import params as p
from zipai_sim.game.cards import card_name, parse_kinds
from zipai_sim.game.variants import Variant, load_variant
from zipai_sim.pictures.view import Offer, PositionView
from zipai_sim.play.chi import chi_options, groups_with, leaves_discard
from zipai_sim.play.engine import Game
from zipai_sim.play.table import Meld

_GROUP_WORDS = {"吃": "chi", "碰": "peng", "偎": "wei", "臭偎": "chouwei", "提": "ti", "跑": "pao",
                "chi": "chi", "peng": "peng", "wei": "wei", "chouwei": "chouwei", "ti": "ti",
                "pao": "pao"}
_SIZES = {"chi": 3, "peng": 3, "wei": 3, "chouwei": 3, "ti": 4, "pao": 4}


class PositionError(ValueError):
    """A position that cannot be: the message names the line or the count that is wrong."""


def _cards(text: str, where: str) -> list[int]:
    try:
        return parse_kinds(text)
    except ValueError as e:
        raise PositionError(f"{where}: {e}") from None


@dataclass
class Position:
    """A typed decision: the ``variant``, the seat to decide, its ``question`` (kind, legal
    answers) built on a hand in the reference engine (``game``; unseen cards filled in), and
    ``view`` (what the seat sees). ``_repr_svg_`` draws the table."""

    variant: Variant
    seat: int
    question: Question
    game: Game

    @property
    def view(self) -> PositionView:
        return self.question.view

    def draw(self, lang: str = "zh"):
        from zipai_sim.pictures import draw_position

        return draw_position(self.view, lang=lang)

    def _repr_svg_(self) -> str:
        return self.draw()._repr_svg_()

    def __repr__(self) -> str:
        q = self.question
        on = f" on {card_name(q.card)}" if q.card >= 0 else ""
        return (f"Position({self.variant.key}, seat {self.seat}, {q.kind}{on}: "
                f"{', '.join(q.labels)})")


def _parse(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if ":" not in line:
            raise PositionError(f"line {n}: expected 'key: value', got {raw.strip()!r}")
        k, val = (x.strip() for x in line.split(":", 1))
        k = " ".join(k.lower().split())
        if not re.fullmatch(r"seat|hand|stock|offer|ask|hands|variant|(table|discards) \d", k):
            raise PositionError(f"line {n}: unknown key {k!r} (keys: seat, hand, table S, "
                                f"discards S, stock, offer, ask, hands, variant)")
        if k in out:
            raise PositionError(f"line {n}: {k!r} given twice")
        out[k] = val
    return out


def position(text: str, variant: str | os.PathLike | Variant | None = None, *,
             fill: int = 0, lang: str = "zh") -> Position:
    """The position typed in ``text`` (module docstring), under ``variant`` (or the text's
    ``variant:`` line). Raises PositionError (a ValueError) naming the problem: an unknown key,
    bad card text, a fifth copy of a kind, a table group that is no group, a question the seat
    may not answer, counts that do not add up to the 80 cards; VariantError."""
    if not isinstance(text, str):
        raise PositionError(f"a position is text (module docstring), got {type(text).__name__}")
    if lang not in PASS:
        raise ValueError(f"lang must be 'zh' or 'en', got {lang!r}")
    f = _parse(text)
    if variant is None:
        variant = f.get("variant", "guangxi-81")
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    P = v.layout
    seats = P.players
    seat = _int(f.get("seat", "0"), "seat", 0, seats - 1)
    if "hand" not in f:
        raise PositionError("the position needs the deciding seat's 'hand:' line")
    hand = _cards(f["hand"], "hand")
    tables: list[list[Meld]] = [[] for _ in range(seats)]
    hidden_wei = [0] * seats
    game = Game(v, list(range(20)) * 4, [None] * seats)  # a table to set up; the deal is unused
    for s in range(seats):
        for part in filter(None, (x.strip() for x in f.get(f"table {s}", "").split("/"))):
            word = next((w for w in sorted(_GROUP_WORDS, key=len, reverse=True)
                         if part.startswith(w)), None)
            if word is None:
                raise PositionError(f"table {s}: {part!r} does not start with 吃, 碰, 偎, 臭偎, "
                                    f"提 or 跑")
            name = _GROUP_WORDS[word]
            rest = part[len(word):].strip()
            if name == "wei" and s != seat and rest in ("", "?", "???"):
                hidden_wei[s] += 1
                continue
            cards = _cards(rest, f"table {s}")
            if len(cards) != _SIZES[name] or (name != "chi" and len(set(cards)) != 1) or (
                    name == "chi" and tuple(sorted(cards)) not in groups_with(cards[0])):
                raise PositionError(f"table {s}: {part!r} is not a {word} group (RULES.md §3: "
                                    + ("a run, 二七十 or 绞" if name == "chi" else
                                       f"{_SIZES[name]} of one kind") + ")")
            pts = game.run_pts(tuple(sorted(cards))) if name == "chi" else \
                game.pts(name, cards[0])
            tables[s].append(Meld(name, tuple(sorted(cards)), pts))
    for s in range(seats):
        if s != seat and f"table {s}" in f and any(m.name == "wei" for m in tables[s]):
            raise PositionError(f"table {s}: another seat's 偎 is face down: write 偎 alone")
    discards = [_cards(f.get(f"discards {s}", ""), f"discards {s}") for s in range(seats)]
    for k in (f"table {s}" for s in range(seats, 10)):
        if k in f or k.replace("table", "discards") in f:
            raise PositionError(f"{k}: {v.key} has seats 0..{seats - 1}")
    offer_card, offer_seat, drawn = _offer(f.get("offer"), seats, seat)
    h = P.other_cards
    sizes = [h + max(0, sum(len(m.cards) == 4 for m in tables[s]) - 1)
             - sum(len(m.cards) for m in tables[s]) - 3 * hidden_wei[s] for s in range(seats)]
    if offer_card < 0 or offer_seat != seat:
        sizes[seat] = len(hand)
    if "hands" in f:
        got = [_int(x, "hands", 0, 21) for x in f["hands"].split()]
        if len(got) != seats:
            raise PositionError(f"hands: give {seats} sizes, one per seat, got {len(got)}")
        sizes = got
    bad = [s for s in range(seats) if sizes[s] < 0]
    if bad:
        raise PositionError(f"table {bad[0]}: seat {bad[0]}'s table groups hold more cards than "
                            f"a seat has at rest ({h} dealt, RULES.md §2)")
    if sizes[seat] != len(hand):
        raise PositionError(f"hand: seat {seat} holds {len(hand)} cards, but its size is "
                            f"{sizes[seat]}" + (" (hands:)" if "hands" in f else ""))
    seen = [0] * 20
    for k in hand + [k for d in discards for k in d] + [k for t in tables for m in t
                                                        for k in m.cards]:
        seen[k] += 1
    if offer_card >= 0:
        seen[offer_card] += 1
    bad = [k for k in range(20) if seen[k] > 4]
    if bad:
        raise PositionError(f"the position shows {seen[bad[0]]} copies of {card_name(bad[0])}; "
                            f"there are 4 of each kind")
    pool = [k for k in range(20) for _ in range(4 - seen[k])]
    rng = random.Random(fill)
    rng.shuffle(pool)
    others = sum(sizes[s] for s in range(seats) if s != seat)
    stock = len(pool) - others - 3 * sum(hidden_wei)
    if "stock" in f and _int(f["stock"], "stock", 0, 80) != stock:
        raise PositionError(f"stock: the position leaves {stock} unseen cards for the stock "
                            f"(80 − {80 - len(pool)} shown − {others} in the other hands − "
                            f"{3 * sum(hidden_wei)} in face-down 偎), not {f['stock']}")
    if stock < 0:
        raise PositionError(f"the other hands ({others} cards) and face-down 偎 need more cards "
                            f"than are unseen ({len(pool)})")
    for s in range(seats):
        pl = game.players[s]
        pl.melds = list(tables[s])
        pl.beside = list(discards[s])
        pl.chou = set(discards[s])
        pl.passed_peng = set()
        if s == seat:
            pl.hand = [hand.count(k) for k in range(20)]
            continue
        for _ in range(hidden_wei[s]):
            k = next(k for k in range(20) if pool.count(k) >= 3)
            for _ in range(3):
                pool.remove(k)
            pl.melds.append(Meld("wei", (k,) * 3, game.pts("wei", k)))
        pl.hand = [0] * 20
        for k in pool[:sizes[s]]:
            pl.hand[k] += 1
        del pool[:sizes[s]]  # (a filled hand may hold a 坎 or four: every world redeals it)
    game.stock = pool
    game.first_discard = False
    game.draws = max(0, 80 - seats * h - 1 - len(pool))
    q = _question(game, v, seat, f.get("ask"), offer_card, offer_seat, drawn, lang)
    return Position(v, seat, q, game)


def _int(text: str, key: str, lo: int, hi: int) -> int:
    try:
        x = int(text)
    except ValueError:
        raise PositionError(f"{key}: expected a whole number, got {text!r}") from None
    if not lo <= x <= hi:
        raise PositionError(f"{key}: must be {lo}..{hi}, got {x}")
    return x


def _offer(text: str | None, seats: int, seat: int) -> tuple[int, int, bool]:
    if text is None:
        return -1, -1, False
    m = re.fullmatch(r"(\S+)\s+(from|drawn by)\s+(\d+)", text.strip())
    if not m:
        raise PositionError(f"offer: expected 'CARD from S' (a discard of seat S) or 'CARD "
                            f"drawn by S', got {text!r}")
    card = _cards(m.group(1), "offer")
    if len(card) != 1:
        raise PositionError(f"offer: one card, got {m.group(1)!r}")
    s = _int(m.group(3), "offer seat", 0, seats - 1)
    if m.group(2) == "from" and s == seat:
        raise PositionError("offer: a seat is never offered its own discard (RULES.md §5.6)")
    return card[0], s, m.group(2) == "drawn by"


def _question(game: Game, v: Variant, seat: int, ask: str | None, c: int, src: int,
              drawn: bool, lang: str) -> Question:
    pl = game.players[seat]
    if c < 0:  # the seat owes a discard
        if ask not in (None, "discard"):
            raise PositionError(f"ask: {ask!r} needs an offer: line")
        owe = game.h + max(0, pl.fours() - 1)
        if pl.at_rest() != owe + 1:
            raise PositionError(f"hand: seat {seat} holds {pl.at_rest()} cards in hand and on "
                                f"the table; a seat owing a discard holds {owe + 1} "
                                f"(RULES.md §5.3)")
        opts = [k for k in range(20) if 0 < pl.hand[k] < 3] or \
            [k for k in range(20) if pl.hand[k] > 0]
        if not opts:
            raise PositionError("hand: the seat holds no card to discard")
        view = view_of(game, seat, seat)
        return Question(seat, "discard", -1, opts, [card_name(k) for k in opts], None, 0, 0,
                        view, ("rest", seat), game)
    own = src == seat
    rest = game.h + max(0, pl.fours() - 1)
    if pl.at_rest() != rest:
        raise PositionError(f"hand: seat {seat} holds {pl.at_rest()} cards in hand and on the "
                            f"table; waiting for a card a seat holds {rest} (RULES.md §5.3)")
    asks = {}
    hx = game.can_win(seat, c, own=own, drawn=drawn)
    if hx >= 0 and (drawn or v.params[p.DISCARD_WIN] == 1):
        word = "胡" if lang == "zh" else "hu"
        asks["hu"] = ([1, 0], [f"{word} ({hx} 胡息)", PASS[lang]])
    if not own and pl.hand[c] == 2 and c not in pl.chou and any(
            0 < pl.hand[k] < 3 for k in range(20) if k != c):
        word = "碰" if lang == "zh" else "peng"
        asks["peng"] = ([1, 0], [f"{word} {card_name(c) * 3}", PASS[lang]])
    nxt = (src + 1) % game.seats == seat
    if c not in pl.chou and (nxt or (own and drawn)):
        opts = [o for o in chi_options(pl.hand, c) if leaves_discard(pl.hand, c, o)]
        if opts:
            asks["chi"] = (list(range(len(opts))) + [-1],
                           [chi_label(g, bi, lang) for g, bi in opts] + [PASS[lang]])
    if ask is None:
        ask = next(iter(asks), None)
    if ask not in asks:
        may = ", ".join(asks) or "nothing"
        raise PositionError(f"ask: seat {seat} may not answer {ask or 'a question'} on "
                            f"{card_name(c)} here (it may answer: {may})")
    vals, labels = asks[ask]
    if drawn:
        game.stock.insert(0, c)
        step = ("draw", src)
    else:
        game.players[src].hand[c] += 1
        step = ("rest", src)
    view = view_of(game, seat, seat, Offer(c, src, drawn))
    if not drawn:
        view.hand_sizes[src] -= 1
    else:
        view.stock -= 1
    return Question(seat, ask, c, vals, labels, None, 0, 0, view, step, game)

