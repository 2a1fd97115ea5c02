"""Hand records: one hand of 字牌 as JSON lines, one event a line (format: docs/records.md).

A record is the header, the deal (every seat's hand and the stock in draw order, 字牌 notation:
enough to replay it), the moves as the reference engine logs them (RULES.md §5: draw, discard,
吃 with its 比, 碰, 偎, 臭偎, 提, 跑; §6: 胡 with the groups and 胡息), 荒庄, the cards left in
every hand, and the settlement (§7). This module holds the format: its events, card text and
``HandRecord``. ``records.build`` makes records from either engine's hand, ``records.file``
reads and writes them and checks their format, ``records.replay`` checks that the moves are
legal and add up. Seats are numbered from the dealer: seat 0 deals.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field

from zipai_sim.game.cards import card_name, parse_card
from zipai_sim.game.variants import Variant

FORMAT = "zipai-sim-hand"
VERSION = 1
# the engine's move names (``Game.moves``) and the record's events
GROUP_EVENTS = {"偎": "wei", "臭偎": "chouwei", "提": "ti", "跑": "pao", "碰": "peng"}
CARD_EVENTS = {"draws": "draw", "discards": "discard", "extra card": "extra"}
HOWS = ("zimo", "fangpao", "drawn")


class RecordError(ValueError):
    """A malformed record: the message names the source and the line (1-based)."""


def cards_text(kinds: Iterable[int]) -> str:
    """Card kinds as 字牌 text in the given order, e.g. ``[0, 1, 2] → "一二三"``."""
    return "".join(card_name(int(k)) for k in kinds)


def parse_cards(text: str) -> list[int]:
    """字牌 text as card kinds in order (``parse_card`` per character; ASCII ``s3``/``b10``
    tokens separated by spaces also work). Raises CardError for a bad token."""
    if not isinstance(text, str):
        raise TypeError(f"cards must be text such as 一二三, got {text!r}")
    if " " in text.strip() or text.isascii():
        return [parse_card(t) for t in text.split()]
    return [parse_card(c) for c in text if not c.isspace()]


@dataclass
class HandRecord:
    """One hand's record: ``events`` (dicts, the header first, the settlement last) and, for a
    record read from a file, ``lines`` (each event's line number) and ``source`` (the file).
    ``str(record)`` / ``to_jsonl()`` give the JSON lines; ``replay()`` checks it move by move
    through the reference engine (``records.replay``)."""

    events: list[dict]
    lines: list[int] = field(default_factory=list)
    source: str = "<record>"

    @property
    def header(self) -> dict:
        """The first event: format version, engine, variant key and rules hash, seed, policies
        (docs/records.md)."""
        return self.events[0]

    @property
    def settlement(self) -> dict:
        """The last event: the win's units, 翻信 units, 名堂, each seat's payment in the
        variant's unit (summing to 0) and the next dealer (RULES.md §7, docs/records.md)."""
        return self.events[-1]

    def moves(self) -> list[tuple[int, dict]]:
        """``(index, event)`` of the moves: every event between the deal and 荒庄/end."""
        return [(i, e) for i, e in enumerate(self.events)
                if e["event"] not in ("header", "deal", "huang", "end", "settlement")]

    def line(self, i: int) -> int:
        """The line number of event ``i`` (its 1-based position when not read from a file)."""
        return self.lines[i] if self.lines else i + 1

    def deck(self) -> list[int]:
        """The 80 kinds in deal order (``reference.shuffled_deck``'s layout): each seat's hand
        (the dealer's without the 亮张; the order inside a hand does not matter), the 亮张, the
        stock."""
        d = self.events[1]
        hands = [parse_cards(h) for h in d["hands"]]
        lz = parse_card(d["liangzhang"])
        hands[0].remove(lz)
        return [k for h in hands for k in h] + [lz] + parse_cards(d["stock"])

    def to_jsonl(self) -> str:
        """The record as JSON lines, one compact event a line, Chinese card names as they are."""
        return "".join(json.dumps(e, ensure_ascii=False, separators=(",", ":")) + "\n"
                       for e in self.events)

    __str__ = to_jsonl

    def replay(self, variant: str | os.PathLike | Variant | None = None):
        """``records.replay.replay(self, variant)``: the replayed hand, or ReplayError."""
        # the one call up the records package (the import contract names it): a record read
        # from a file checks itself without the caller importing the replay module
        from zipai_sim.records.replay import replay

        return replay(self, variant)
