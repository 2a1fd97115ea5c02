"""Reading and writing hand-record files (JSON lines, docs/records.md), with format checks.

A file holds one or more records, each from its ``header`` line to its ``settlement`` line.
``read_record`` checks every line's JSON, event name, fields and their types, card text
(RULES.md §1 notation), seats, the order of events and that the deal is the 80 cards, and
raises RecordError naming the file and the line. Whether the moves are legal and add up to the
recorded result is checked by replaying them (``records.replay``).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from zipai_sim.game.cards import CardError
from zipai_sim.records.format import FORMAT, HOWS, VERSION, HandRecord, RecordError, parse_cards

_INT, _BOOL, _STR, _CARD, _CARDS, _SEAT = "int", "bool", "str", "card", "cards", "seat"
_GROUPS, _MINGTANG, _INTS, _CARDS_LIST, _STRS = "groups", "mingtang", "ints", "cards list", "strs"
_SEAT_CARDS = {"seat": _SEAT, "cards": _CARDS}
# the fields of each event (docs/records.md); `None` in a type tuple: the field may be null
SCHEMA: dict[str, dict[str, object]] = {
    "header": {"format": _STR, "version": _INT, "variant": _STR, "rules_hash": _STR,
               "threshold": _INT, "seats": _INT, "dealer": _INT, "seed": (_INT, None),
               "deal": (_INT, None), "chunk_size": (_INT, None), "policies": _STRS,
               "engine": _STR, "zipai_sim": _STR},
    "deal": {"hands": _CARDS_LIST, "liangzhang": _CARD, "stock": _CARDS},
    "draw": {"seat": _SEAT, "card": _CARD},
    "discard": {"seat": _SEAT, "card": _CARD},
    "extra": {"seat": _SEAT, "card": _CARD},
    "ti": {**_SEAT_CARDS, "dealt": (_BOOL, "optional")},
    "wei": _SEAT_CARDS, "chouwei": _SEAT_CARDS, "pao": _SEAT_CARDS, "peng": _SEAT_CARDS,
    "chi": {"seat": _SEAT, "card": _CARD, "cards": _CARDS, "bi": _CARDS_LIST},
    "hu": {"seat": _SEAT, "how": _STR, "payer": _INT, "huxi": _INT, "instant": _STR,
           "tianhu": _BOOL, "dihu": _BOOL, "haidi": _BOOL, "fanxing": _INT,
           "all_pungs": _BOOL, "shared": _BOOL, "card": _CARD, "groups": _GROUPS},
    "huang": {},
    "end": {"draws": _INT, "hands": _CARDS_LIST},
    "settlement": {"unit": _STR, "units": _INT, "fanxing_units": _INT, "mingtang": _MINGTANG,
                   "payments": _INTS, "next_dealer": _INT},
}
_NOT_MOVES = ("header", "deal", "huang", "end", "settlement")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _cards_ok(x: object) -> bool:
    try:
        parse_cards(x)  # type: ignore[arg-type]
    except (CardError, TypeError):
        return False
    return True


_TESTS = {
    _INT: _is_int, _BOOL: lambda x: isinstance(x, bool), _STR: lambda x: isinstance(x, str),
    _CARD: lambda x: isinstance(x, str) and _cards_ok(x) and len(parse_cards(x)) == 1,
    _CARDS: lambda x: isinstance(x, str) and _cards_ok(x),
    _CARDS_LIST: lambda x: isinstance(x, list) and all(isinstance(h, str) and _cards_ok(h)
                                                       for h in x),
    _STRS: lambda x: isinstance(x, list) and all(isinstance(s, str) for s in x),
    _INTS: lambda x: isinstance(x, list) and all(_is_int(i) for i in x),
    _MINGTANG: lambda x: isinstance(x, list) and all(
        isinstance(m, list) and len(m) == 2 and isinstance(m[0], str) and _is_int(m[1])
        for m in x),
    _GROUPS: lambda x: isinstance(x, list) and all(
        isinstance(g, dict) and set(g) == {"kind", "cards", "huxi", "table"}
        and isinstance(g["kind"], str) and isinstance(g["cards"], str) and _cards_ok(g["cards"])
        and _is_int(g["huxi"]) and isinstance(g["table"], bool) for g in x)}
_WANTED = {_INT: "a whole number", _BOOL: "true or false", _STR: "text",
           _CARD: "one card such as 三 or 拾", _CARDS: "cards such as 一二三",
           _CARDS_LIST: "a list of card texts", _STRS: "a list of texts",
           _INTS: "a list of whole numbers", _MINGTANG: "a list of [name, 番] pairs",
           _GROUPS: "a list of {kind, cards, huxi, table} objects"}


def _check_value(tag: str, x: object, seats: int) -> str | None:
    """None when ``x`` fits ``tag``, else what was wanted."""
    if tag == _SEAT:
        return None if _is_int(x) and 0 <= x < seats else f"a seat 0..{seats - 1}"
    return None if _TESTS[tag](x) else _WANTED[tag]


def _check_event(e: object, seats: int) -> str | None:
    """None when ``e`` is a well-formed event, else the problem."""
    if not isinstance(e, dict):
        return f"expected a JSON object, got {type(e).__name__}"
    name = e.get("event")
    if name not in SCHEMA:
        return f"unknown event {name!r} (known: {', '.join(SCHEMA)})"
    fields = SCHEMA[name]
    extra = sorted(set(e) - set(fields) - {"event"})
    if extra:
        return f"event {name!r} has unknown field(s) {', '.join(extra)} (fields: " \
               f"{', '.join(fields) or 'none'})"
    for key, tag in fields.items():
        tags = tag if isinstance(tag, tuple) else (tag,)
        if key not in e:
            if "optional" in tags:
                continue
            return f"event {name!r} lacks the field {key!r}"
        if e[key] is None and None in tags:
            continue
        want = _check_value(tags[0], e[key], seats)  # type: ignore[arg-type]
        if want is not None:
            got = json.dumps(e[key], ensure_ascii=False)
            return f"event {name!r}: {key} must be {want}, got {got}"
    if name == "header":
        if e["format"] != FORMAT:
            return f"not a hand record: format {e['format']!r}, expected {FORMAT!r}"
        if e["version"] != VERSION:
            return f"record format version {e['version']} is not supported (this is {VERSION})"
        if not 2 <= e["seats"] <= 4:
            return f"seats must be 2..4, got {e['seats']}"
    if name == "hu" and e["how"] not in HOWS:
        return f"event 'hu': how must be one of {', '.join(HOWS)}, got {e['how']!r}"
    if name == "deal":
        return _check_deal(e, seats)
    return None


def _check_deal(e: dict, seats: int) -> str | None:
    if len(e["hands"]) != seats:
        return f"the deal has {len(e['hands'])} hands, the header {seats} seats"
    cards = Counter(k for h in e["hands"] + [e["stock"]] for k in parse_cards(h))
    total, over = sum(cards.values()), sorted(k for k, n in cards.items() if n != 4)
    if total != 80 or over:
        return f"the deal holds {total} cards, not the 80 (4 of each of the 20 kinds)"
    if parse_cards(e["liangzhang"])[0] not in parse_cards(e["hands"][0]):
        return "the 亮张 must be among the dealer's (seat 0's) cards"
    return None


def _lines(path_or_lines: str | os.PathLike | Iterable[str]) -> tuple[list[str], str]:
    if isinstance(path_or_lines, str) and "\n" in path_or_lines:
        return path_or_lines.splitlines(), "<text>"
    if isinstance(path_or_lines, (str, os.PathLike)):
        path = Path(path_or_lines)
        try:
            return path.read_text(encoding="utf-8").splitlines(), str(path)
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"cannot read the record file {path}: {exc}") from None
    return [str(x).rstrip("\n") for x in path_or_lines], "<lines>"


def read_record(path_or_lines: str | os.PathLike | Iterable[str]) -> list[HandRecord]:
    """Read hand records (docs/records.md) from a file path, or from lines (a list of strings,
    or one string holding several lines); returns one ``HandRecord`` per hand, in file order.
    Blank lines are skipped. Raises RecordError naming the file and line: not JSON, an unknown
    event or field, a field of the wrong type or bad card text, a seat out of range, events
    out of order (a record is header, deal, moves, [huang], end, settlement), a deal that is
    not the 80 cards, or no record at all."""
    lines, source = _lines(path_or_lines)
    records: list[HandRecord] = []
    cur: HandRecord | None = None
    seats = 4
    for n, text in enumerate(lines, 1):
        if not text.strip():
            continue
        where = f"{source} line {n}"
        try:
            e = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{where}: not JSON: {exc.msg} (column {exc.colno})") from None
        if cur is None and isinstance(e, dict) and e.get("event") != "header":
            raise RecordError(f"{where}: expected a 'header' line to start a record, got "
                              f"{e.get('event')!r}")
        problem = _check_event(e, seats if cur is not None else 4)
        if problem is not None:
            raise RecordError(f"{where}: {problem}")
        name = e["event"]
        if name == "header":
            if cur is not None:
                raise RecordError(f"{where}: a new header before the record from line "
                                  f"{cur.lines[0]} ended (no 'settlement' line)")
            cur, seats = HandRecord([e], [n], source), e["seats"]
            continue
        assert cur is not None
        prev = cur.events[-1]["event"]
        want = _allowed_after(prev)
        if name not in want:
            raise RecordError(f"{where}: {name!r} cannot follow {prev!r} (expected "
                              f"{' or '.join(repr(w) for w in want)})")
        cur.events.append(e)
        cur.lines.append(n)
        if name == "settlement":
            records.append(cur)
            cur, seats = None, 4
    if cur is not None:
        raise RecordError(f"{source}: the record from line {cur.lines[0]} is cut short at line "
                          f"{cur.lines[-1]} (no 'settlement' line)")
    if not records:
        raise RecordError(f"{source}: no hand record (a record starts with a 'header' line)")
    return records


def _allowed_after(prev: str) -> tuple[str, ...]:
    moves = tuple(k for k in SCHEMA if k not in _NOT_MOVES)
    return {"header": ("deal",), "deal": moves + ("huang", "end"), "huang": ("end",),
            "end": ("settlement",)}.get(prev, moves + ("huang", "end"))


def write_records(records: HandRecord | Iterable[HandRecord], path: str | os.PathLike) -> Path:
    """Write one record or several (one after another) to ``path`` as JSON lines (UTF-8),
    atomically (``io.write_text``); returns the path."""
    recs = [records] if isinstance(records, HandRecord) else list(records)
    from zipai_sim.runs.io import write_text

    out = Path(path)
    write_text(out, "".join(r.to_jsonl() for r in recs))  # atomic, as every output
    return out
