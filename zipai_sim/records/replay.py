"""Replaying a hand record through the reference engine (``play.engine.Game``, RULES.md §5–§7).

The engine deals the record's deck and plays the hand itself: draws, forced 偎/提/跑, who may
claim what, wins, 臭牌 and the settlement are the engine's; only the decisions (which card to
discard, whether to 碰, which 吃 with which 比, whether to 胡) are read from the record, by one
scripted policy at every seat. Every move the engine makes is compared with the record as it
happens, and at the end every event (胡 with its groups and 胡息, 荒庄, the cards left in each
hand, the settlement) with the record the engine's hand gives; the first difference raises
ReplayError naming its line. A record that replays is a legal hand that ends as recorded.

>>> from zipai_sim.play.trace import play_seeded
>>> from zipai_sim.records.build import record_from_game
>>> game, out = play_seeded("guangxi-81", 2026, 1)
>>> rec = record_from_game(game, out, seed=2026, deal=1, policies=["greedy"] * 3)
>>> replay(rec).log == game.log          # the trace ``zipai-sim play`` prints, line for line
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from zipai_sim.game.cards import card_name, parse_card
from zipai_sim.game.hand_result import Settlement
from zipai_sim.game.settle import settle
from zipai_sim.game.variants import Variant, VariantError, load_variant
from zipai_sim.play.engine import Game
from zipai_sim.play.table import Outcome
from zipai_sim.play.trace import hand_result, result_lines
from zipai_sim.records.build import record_from_game
from zipai_sim.records.format import (
    CARD_EVENTS,
    GROUP_EVENTS,
    HandRecord,
    cards_text,
    parse_cards,
)

_WHAT = {v: k for k, v in {**CARD_EVENTS, **GROUP_EVENTS}.items()}


class ReplayError(ValueError):
    """The record does not replay: the message names the file, the line of the first event
    that differs, what the record says and what the engine does."""


@dataclass
class Replay:
    """A replayed record: the variant, the engine's ``game`` and ``outcome``, the
    ``settlement`` and ``log``, the readable trace (``zipai-sim play``'s lines)."""

    record: HandRecord
    variant: Variant
    game: Game
    outcome: Outcome
    settlement: Settlement
    log: list[str]


def move_of(e: dict) -> tuple[int, str, tuple[int, ...]]:
    """A move event as the engine's ``Game.moves`` entry ``(seat, what, card kinds)``."""
    name, s = e["event"], e["seat"]
    if name == "ti" and e.get("dealt"):
        return s, "提 (dealt)", tuple(parse_cards(e["cards"]))
    if name in _WHAT:
        return s, _WHAT[name], tuple(parse_cards(e.get("cards", e.get("card"))))
    if name == "chi":
        cards = parse_cards(e["cards"] + "".join(e["bi"]))
        return s, "吃" + (" + 比" if e["bi"] else ""), tuple(cards)
    inst = f", {e['instant']}" if e["instant"] else ""
    return s, f"胡 ({e['how']}{inst}) {e['huxi']} 胡息 on", (parse_card(e["card"]),)


def _text(m: tuple | None) -> str:
    if m is None:
        return "nothing (the hand is over)"
    s, what, cards = m
    return f"'{s}: {what} {cards_text(cards)}'".replace(" '", "'")


class RecordScript:
    """The record's decisions as the engine's policy (``play.policies.Policy``) at every seat.
    Before each answer the moves the engine made so far are checked against the record."""

    def __init__(self, rec: HandRecord):
        self.rec = rec
        self.events = rec.moves()
        self.want = [move_of(e) for _, e in self.events]
        self.checked = 0

    def where(self, i: int) -> str:
        if i < len(self.events):
            return f"{self.rec.source} line {self.rec.line(self.events[i][0])}"
        return f"{self.rec.source} line {self.rec.line(len(self.rec.events) - 2)}"

    def sync(self, game: Game) -> dict | None:
        """Check the engine's new moves; return the next recorded move event (None: none)."""
        for i in range(self.checked, len(game.moves)):
            want = self.want[i] if i < len(self.want) else None
            if game.moves[i] != want:
                raise ReplayError(f"{self.where(i)}: the hand diverges from the record: the "
                                  f"record has {_text(want)}, the engine plays "
                                  f"{_text(game.moves[i])}")
        self.checked = len(game.moves)
        return self.events[self.checked][1] if self.checked < len(self.events) else None

    def discard(self, game: Game, seat: int, options: list[int]) -> int:
        e = self.sync(game)
        legal = " ".join(card_name(k) for k in options)
        if e is None or e["event"] != "discard" or e["seat"] != seat:
            got = _text(move_of(e)) if e is not None else "no more moves"
            raise ReplayError(f"{self.where(self.checked)}: the hand diverges from the record: "
                              f"seat {seat} discards now (it may discard {legal}), the record "
                              f"has {got}")
        k = parse_card(e["card"])
        if k not in options:
            held = game.players[seat].hand
            why = f"it holds {cards_text(x for x in range(20) for _ in range(held[x]))}" + (
                " (a 坎 is never discarded, RULES.md §5.7)" if held[k] >= 3 else "")
            raise ReplayError(f"{self.where(self.checked)}: seat {seat} may not discard "
                              f"{e['card']} here: {why}; legal discards: {legal}")
        return k

    def peng(self, game: Game, seat: int, card: int) -> bool:
        e = self.sync(game)
        return e is not None and (e["event"], e["seat"], e.get("cards")) == (
            "peng", seat, card_name(card) * 3)

    def chi(self, game: Game, seat: int, card: int, options: list) -> int:
        e = self.sync(game)
        if e is None or e["event"] != "chi" or e["seat"] != seat:
            return -1
        for i, (group, bi) in enumerate(options):
            if (cards_text(group), [cards_text(b) for b in bi]) == (e["cards"], e["bi"]):
                return i
        shown = "; ".join(cards_text(g) + "".join(" 比 " + cards_text(b) for b in bi)
                          for g, bi in options)
        raise ReplayError(f"{self.where(self.checked)}: seat {seat} may not 吃 "
                          f"{e['cards']}{''.join(' 比 ' + b for b in e['bi'])} on "
                          f"{card_name(card)} (RULES.md §5.4–§5.5): its 吃 are {shown}")

    def hu(self, game: Game, seat: int, card: int, huxi: int) -> bool:
        e = self.sync(game)
        return e is not None and (e["event"], e["seat"]) == ("hu", seat)


def resolve_variant(rec: HandRecord, variant: str | os.PathLike | Variant | None = None
                    ) -> Variant:
    """The variant a record was played under: ``variant`` if given, else the header's key (at
    the header's threshold); its rules hash must be the header's, and the header's threshold,
    dealer (0) and seats must agree with it. Raises ReplayError."""
    h = rec.header
    if variant is None:
        try:
            v = load_variant(h["variant"])
        except VariantError:  # a key of the user's own TOML file: the record cannot hold it
            raise ReplayError(f"{rec.source} line {rec.line(0)}: the record was played under "
                              f"variant {h['variant']!r}, which is not shipped: give its TOML "
                              f"file (--variant FILE, or variant= in Python)") from None
    else:
        v = load_variant(variant)
    if v.rules_hash != h["rules_hash"] and v.win.threshold != h["threshold"]:
        v = v.with_threshold(h["threshold"])
    if v.rules_hash != h["rules_hash"]:
        raise ReplayError(f"{rec.source} line {rec.line(0)}: the record was played under "
                          f"rules {h['rules_hash']} ({h['variant']}, threshold "
                          f"{h['threshold']}); {v.key} here has rules {v.rules_hash}: give the "
                          f"variant file it was played with")
    for key, want, why in (("threshold", v.win.threshold, f"its rules {v.rules_hash}"),
                           ("dealer", 0, "docs/records.md: seat 0 deals")):
        if h[key] != want:  # the hash and the seating decide the hand; a header must agree
            raise ReplayError(f"{rec.source} line {rec.line(0)}: the header's {key} is "
                              f"{h[key]!r}, but {why} give {want!r}")
    if v.layout.players != h["seats"]:
        raise ReplayError(f"{rec.source} line {rec.line(0)}: {v.key} has {v.layout.players} "
                          f"seats, the record {h['seats']}")
    sizes = [len(parse_cards(x)) for x in rec.events[1]["hands"]]
    want = [v.layout.dealer_cards] + [v.layout.other_cards] * (v.layout.players - 1)
    if sizes != want:
        raise ReplayError(f"{rec.source} line {rec.line(1)}: {v.key} deals {want} cards, "
                          f"the record's hands hold {sizes}")
    return v


def replay(record: HandRecord, variant: str | os.PathLike | Variant | None = None) -> Replay:
    """Replay ``record`` through the reference engine and check it event by event (module
    docstring); returns the ``Replay`` (``.log``: the ``zipai-sim play`` trace). ``variant``
    overrides the header's (e.g. a TOML file for a record of an edited variant).

    Raises ReplayError naming the first divergent event's line: a move the engine does not make
    (a discard of a card not held or of a 坎, a 吃 or 碰 not allowed, a missing forced 偎/提/跑,
    a 胡 that is no win), a different 胡息, group, flag or 翻信, different cards left in a hand
    (e.g. a discard changed to another held card), or a different settlement; or a rules hash
    that is not the header's. VariantError for an unknown variant."""
    v = resolve_variant(record, variant)
    script = RecordScript(record)
    game = Game(v, record.deck(), [script] * v.layout.players)
    out = game.play()
    script.sync(game)
    if len(game.moves) < len(script.want):
        raise ReplayError(f"{script.where(len(game.moves))}: the hand diverges from the record: "
                          f"the record has {_text(script.want[len(game.moves)])} after the "
                          f"engine's hand ended")
    h = record.header
    mine = record_from_game(game, out, record.deck(), seed=h["seed"], deal=h["deal"],
                            chunk_size=h["chunk_size"], policies=h["policies"],
                            engine=h["engine"])
    for i, (a, b) in enumerate(zip(record.events, mine.events, strict=False)):
        if i >= 2 and a != b:
            _differ(record, i, a, b)
    if len(record.events) != len(mine.events):  # e.g. a 'huang' line on a won hand
        i = min(len(record.events), len(mine.events)) - 1
        _differ(record, i, record.events[i], mine.events[i])
    log = game.log + result_lines(game, out)
    return Replay(record, v, game, out, settle(v, hand_result(game, out)), log)


replay_record = replay  # the package-level name (``zs.replay_record``)


def _differ(rec: HandRecord, i: int, a: dict, b: dict) -> None:
    where = f"{rec.source} line {rec.line(i)}"
    if a["event"] != b["event"]:
        raise ReplayError(f"{where}: the record has a {a['event']!r} line, the replayed hand "
                          f"a {b['event']!r} line")
    key = next(k for k in list(a) + list(b) if a.get(k) != b.get(k))
    raise ReplayError(f"{where}: the replayed hand differs in {a['event']} {key}: the record has "
                      f"{a.get(key)!r}, the engine gives {b.get(key)!r}")


def replay_lines(path_or_lines, hand: int | None = None,
                 variant: str | os.PathLike | Variant | None = None) -> list[str]:
    """What ``zipai-sim replay FILE`` prints: for every record of the file (or only record
    ``hand``, 0-based) the header line and the trace ``zipai-sim play`` printed for that hand,
    records apart by a blank line. Raises RecordError, ReplayError, or ValueError for a
    ``hand`` the file does not hold."""
    from zipai_sim.records.file import read_record
    from zipai_sim.report import play_header

    recs = read_record(path_or_lines)
    if hand is not None:
        if not 0 <= hand < len(recs):
            raise ValueError(f"hand must be 0..{len(recs) - 1} (the file holds {len(recs)} "
                             f"record{'s' * (len(recs) > 1)}), got {hand}")
        recs = [recs[hand]]
    out: list[str] = []
    for r in recs:
        h = r.header
        done = replay(r, variant)
        out += ([""] if out else []) + [play_header(h["variant"], h["rules_hash"],
                                                    h["threshold"], h["seats"], h["seed"],
                                                    h["deal"], h["policies"])] + done.log
    return out
