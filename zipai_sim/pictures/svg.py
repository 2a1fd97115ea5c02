"""SVG pictures of 字牌 cards, hands and table positions, drawn like paper 字牌: long cream strips
(1:3.3) with the character at the top and again, turned 180°, at the bottom.

Everything is inline SVG (no fonts, images or scripts are fetched). What a test or a browser can
rely on in the markup:

- every card is ``<g class="card …" data-kind="K">``: K is its kind 0..19, or -1 face down
  (class ``back``); face-up cards carry ``small`` (一..十: plain paper, plain border) or ``big``
  (壹..拾: a double inner frame, bold character), and ``red`` for 二七十 贰柒拾, whose
  ``<text class="char red">`` characters are red;
- in a position: ``<g class="seat" data-seat="S">`` per seat (plus ``viewer`` and ``to-move``
  where they apply), ``<g class="offer" data-seat="S">`` round the card on offer, and
  ``<g class="stock" data-count="N">``, the stock pile, whose backs are not ``card`` elements.
"""

from __future__ import annotations

import math
import operator
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from zipai_sim.game.cards import COPIES, N_KINDS, RED_SLOTS, card_name, parse_card
from zipai_sim.pictures.view import GROUP_NAMES, Offer, PositionView

__all__ = ["Svg", "draw_cards", "draw_hand", "draw_position"]

FONT = "Noto Serif CJK SC, Noto Serif SC, Source Han Serif SC, SimSun, serif"
CARD_W, CARD_H = 30.0, 99.0  # a card at scale 1, in px
STACK = 0.3  # share of a card's height left showing under the next card of a column
PAPER, PAPER_BIG, EDGE, INK, RED = "#f7efd9", "#f1e2bf", "#3b2e22", "#1e1b18", "#c0392b"
BACK, HATCH = "#5a3821", "#8f6a45"
FELT, PANEL, LABEL, GOLD = "#2f5d47", "#264d3a", "#f3ead2", "#e3a700"
# Sizes of the cards in a position, relative to draw_hand's: the viewer's hand must stay
# readable, the rest only recognisable, so that four seats fit in about 900×700 px.
HAND_S, TABLE_S, DISCARD_S, BACK_S, OFFER_S, STOCK_S = 0.8, 0.55, 0.45, 0.42, 0.7, 0.5
_REDS = frozenset(RED_SLOTS)
_LABEL_FS = 13.0


@dataclass(frozen=True)
class Svg:
    """An SVG picture: ``text`` (the markup, one ``<svg>`` element) and its size in px.
    Jupyter shows it (``_repr_svg_``); ``str()`` gives the markup."""

    text: str
    width: int
    height: int

    def _repr_svg_(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text

    def save(self, path: str | Path) -> Path:
        """Write the markup to ``path`` (UTF-8); returns the path. OSError passes through."""
        p = Path(path)
        p.write_text(self.text, encoding="utf-8")
        return p


def _f(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _g(x: float, y: float, inner: str) -> str:
    return f'<g transform="translate({_f(x)},{_f(y)})">{inner}</g>'


def _tr(lang: str, zh: str, en: str) -> str:
    return zh if lang == "zh" else en


def _text_w(text: str, fs: float) -> float:
    """Rough width of ``text`` at font size ``fs``: layout needs it and SVG cannot measure."""
    return sum(fs if ord(c) > 0x2E7F else 0.6 * fs for c in text)


def _text(x: float, y: float, text: str, fs: float, fill: str = LABEL,
          anchor: str = "start", cls: str = "label") -> str:
    """A line of text with its top at ``y`` (baseline placed for CJK glyphs)."""
    return (f'<text class="{cls}" x="{_f(x)}" y="{_f(y + 0.86 * fs)}" font-size="{_f(fs)}" '
            f'fill="{fill}" text-anchor="{anchor}">{escape(text)}</text>')


def _back_body(w: float, h: float, s: float) -> str:
    """The patterned back of a card: brown paper with a crossed hatch inside a frame."""
    m, gap = 2.5 * s, 0.26 * CARD_W * s
    x0, y0, x1, y1 = m, m, w - m, h - m
    d, c = [], x0 - y1 + gap / 2
    while c < x1 - y0:  # the lines x = y + c and their mirror images x = w - y - c
        ya, yb = max(y0, x0 - c), min(y1, x1 - c)
        d.append(f"M{_f(ya + c)} {_f(ya)}L{_f(yb + c)} {_f(yb)}"
                 f"M{_f(w - ya - c)} {_f(ya)}L{_f(w - yb - c)} {_f(yb)}")
        c += gap
    return (f'<rect width="{_f(w)}" height="{_f(h)}" rx="{_f(3 * s)}" fill="{BACK}" '
            f'stroke="{EDGE}" stroke-width="{_f(s)}"/>'
            f'<path d="{"".join(d)}" stroke="{HATCH}" stroke-width="{_f(0.7 * s)}" fill="none"/>'
            f'<rect x="{_f(m)}" y="{_f(m)}" width="{_f(w - 2 * m)}" height="{_f(h - 2 * m)}" '
            f'rx="{_f(2 * s)}" fill="none" stroke="{HATCH}" stroke-width="{_f(0.8 * s)}"/>')


def _card(kind: int, x: float, y: float, s: float) -> str:
    """One card (kind 0..19, or -1 face down) with its top-left corner at (x, y), scale s."""
    w, h = CARD_W * s, CARD_H * s
    at = f'transform="translate({_f(x)},{_f(y)})"'
    if kind < 0:
        return f'<g class="card back" data-kind="-1" {at}>{_back_body(w, h, s)}</g>'
    big, red = kind >= 10, kind in _REDS
    cls = ("big" if big else "small") + (" red" if red else "")
    out = [f'<g class="card {cls}" data-kind="{kind}" {at}>',
           f'<rect width="{_f(w)}" height="{_f(h)}" rx="{_f(3 * s)}" '
           f'fill="{PAPER_BIG if big else PAPER}" stroke="{EDGE}" stroke-width="{_f(s)}"/>']
    if big:  # the double frame tells 壹..拾 from 一..十 at a glance, even half covered
        for inset, sw in ((2.2, 0.9), (3.7, 0.45)):
            out.append(f'<rect x="{_f(inset * s)}" y="{_f(inset * s)}" '
                       f'width="{_f(w - 2 * inset * s)}" height="{_f(h - 2 * inset * s)}" '
                       f'rx="{_f(1.5 * s)}" fill="none" stroke="{EDGE}" '
                       f'stroke-width="{_f(sw * s)}"/>')
    fs, cy = 0.68 * w, 16.0 * s
    style = (f'font-size="{_f(fs)}" text-anchor="middle" fill="{RED if red else INK}" '
             f'font-weight="{700 if big else 400}"')
    name = escape(card_name(kind))
    ccls = "char red" if red else "char"
    base = 0.36 * fs  # CJK glyphs centre about 0.36 em above the baseline
    out.append(f'<text class="{ccls}" x="{_f(w / 2)}" y="{_f(cy + base)}" {style}>{name}</text>')
    out.append(f'<text class="{ccls}" x="{_f(w / 2)}" y="{_f(h - cy + base)}" {style} '
               f'transform="rotate(180 {_f(w / 2)} {_f(h - cy)})">{name}</text>')
    out.append(f'<circle cx="{_f(w / 2)}" cy="{_f(h / 2)}" r="{_f(2.2 * s)}" fill="none" '
               f'stroke="{RED if red else EDGE}" stroke-width="{_f(0.6 * s)}" opacity="0.5"/>')
    return "".join(out) + "</g>"


def _options(lang: str, scale: float) -> float:
    """Check ``lang`` and ``scale``; returns the scale as a float."""
    if lang not in ("zh", "en"):
        raise ValueError(f'lang must be "zh" or "en", got {lang!r}')
    try:
        s = float(scale)
    except (TypeError, ValueError):
        s = math.nan
    if isinstance(scale, bool) or not (math.isfinite(s) and s > 0):
        raise ValueError(f"scale must be a positive finite number, got {scale!r}")
    return s


def _kind(k: object, what: str, allow_back: bool = False) -> int:
    """``k`` as a card kind 0..19 (-1 too if ``allow_back``); ValueError naming ``what``."""
    try:
        if isinstance(k, bool):
            raise TypeError
        v = operator.index(k)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{what}: a card kind must be an integer 0..19, got {k!r}") from None
    if not (0 <= v < N_KINDS or (allow_back and v == -1)):
        raise ValueError(f"{what}: card kind {v} is outside 0..19")
    return v


def _fifth(k: int, what: str) -> ValueError:
    return ValueError(f"{what} holds a fifth {card_name(k)} ({card_name(k, ascii=True)}); "
                      f"the deck has {COPIES} of each kind")


def _counts_of(kinds: Iterable[object], what: str) -> list[int]:
    counts = [0] * N_KINDS
    for k in kinds:
        v = _kind(k, what)
        counts[v] += 1
        if counts[v] > COPIES:
            raise _fifth(v, what)
    return counts


def _hand_counts(hand: object) -> list[int]:
    """Counts ``[20]`` of a hand given as text, a sequence of kinds or a counts array."""
    if isinstance(hand, str):
        kinds: list[int] = []
        for chunk in re.split(r"[\s,，]+", hand):
            # An ASCII chunk is one token ("s10"); otherwise each character is a card.
            if chunk:
                kinds.extend([parse_card(chunk)] if chunk.isascii() else map(parse_card, chunk))
        return _counts_of(kinds, "the hand")
    shape = getattr(hand, "shape", None)
    if shape is None:
        return _counts_of(hand, "the hand")  # type: ignore[arg-type]
    if tuple(shape) != (N_KINDS,):
        raise ValueError(f"a counts array must have shape (20,), got shape {tuple(shape)}")
    counts = [operator.index(c) for c in hand]  # type: ignore[attr-defined]
    for k, c in enumerate(counts):
        if c < 0:
            raise ValueError(f"counts hold a negative count {c} of {card_name(k)}")
        if c > COPIES:
            raise _fifth(k, "the hand")
    return counts


def _svg(body: str, w: float, h: float, scale: float, title: str, bg: str | None = None) -> Svg:
    """The root element: drawn in units of scale 1, scaled by the viewBox."""
    pw, ph = max(1, math.ceil(w * scale)), max(1, math.ceil(h * scale))
    vw, vh = pw / scale, ph / scale
    back = f'<rect width="{_f(vw)}" height="{_f(vh)}" rx="8" fill="{bg}"/>' if bg else ""
    text = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{pw}" height="{ph}" '
            f'viewBox="0 0 {_f(vw)} {_f(vh)}" font-family={quoteattr(FONT)} role="img">'
            f"<title>{escape(title)}</title>{back}{body}</svg>")
    return Svg(text, pw, ph)


def _columns(counts: Sequence[int], s: float) -> tuple[str, float, float]:
    """A held hand: one column per kind, copies stacked so each top character shows; small
    kinds then, after a wider gap, big ones. Returns (markup, width, height)."""
    w, step, gap = CARD_W * s, STACK * CARD_H * s, 0.1 * CARD_W * s
    out, x, tall = [], 0.0, 0.0
    for k in range(N_KINDS):
        if k == 10 and x > 0 and any(counts[10:]):
            x += 3 * gap
        for i in range(counts[k]):
            out.append(_card(k, x, i * step, s))
        if counts[k]:
            x += w + gap
            tall = max(tall, CARD_H * s + (counts[k] - 1) * step)
    return "".join(out), max(0.0, x - gap), tall


def draw_cards(kinds: Iterable[int], *, face_down: int = 0, scale: float = 1.0) -> Svg:
    """A row of cards: ``kinds`` (each 0..19) face up in the order given, then ``face_down``
    backs. One card is 30×99 px at scale 1. Raises ValueError for a kind outside 0..19, a
    negative ``face_down`` or a ``scale`` that is not a positive number."""
    s = _options("zh", scale)
    ks = [_kind(k, "draw_cards") for k in kinds]
    n = operator.index(face_down)
    if n < 0:
        raise ValueError(f"face_down must be >= 0, got {n}")
    gap = 0.12 * CARD_W
    body = "".join(_card(k, i * (CARD_W + gap), 0, 1) for i, k in enumerate(ks + [-1] * n))
    w = max(0.0, (len(ks) + n) * (CARD_W + gap) - gap)
    names = "".join(card_name(k) for k in ks) + "?" * n
    # A 1 px margin keeps the outer strokes from being cut at the picture's edge.
    return _svg(_g(1, 1, body), w + 2, CARD_H + 2, s, names)


def draw_hand(hand: str | Iterable[int], *, lang: str = "zh", title: str | None = None,
              scale: float = 1.0) -> Svg:
    """A hand as a player holds 字牌: one column per kind, copies stacked so that each card's
    top character shows, small kinds then big ones; red kinds in red. About 33 px a column and
    99–188 px tall at scale 1, plus a line for ``title`` (followed by the card count in
    ``lang``) when given.

    ``hand`` is text (``"一二三壹贰叁"``: each non-space character a card; ASCII tokens such as
    ``"s3 b10"`` separated by spaces or commas), a sequence of kinds 0..19, or a counts array
    of integers (anything with a ``shape``, e.g. NumPy ``int8[20]``; a list is always kinds).
    Raises ValueError for a kind outside 0..19, a fifth copy of a kind, a negative count, a
    counts array of the wrong shape, a bad ``lang`` (not "zh"/"en") or ``scale``; CardError (a
    ValueError) for text that is not cards; TypeError for counts that are not integers.
    """
    s = _options(lang, scale)
    counts = _hand_counts(hand)
    body, w, h = _columns(counts, 1.0)
    names = [card_name(k, ascii=lang == "en") for k in range(N_KINDS) for _ in range(counts[k])]
    head, top = "", 0.0
    if title is not None:
        n = sum(counts)
        line = f"{title} · " + _tr(lang, f"{n}张", f"{n} card" + "s" * (n != 1))
        head, top = _text(1, 1, line, 14, fill=INK, cls="title"), 22.0
        w = max(w, _text_w(line, 14))
    return _svg(head + _g(1, top + 1, body), w + 2, h + top + 2, s, _tr(lang, "", " ").join(names))


def _seat_name(seat: int, seats: int, lang: str) -> str:
    if lang == "en":
        return f"seat {seat} (dealer)" if seat == 0 else f"seat {seat}"
    return ("庄家" if seat == 0 else "下家" if seat == 1 else "上家" if seat == seats - 1
            else "对家")


def _backs(n: int, lang: str) -> tuple[str, float, float]:
    """Another seat's hand: ``n`` overlapping backs and the count."""
    w, h, step = CARD_W * BACK_S, CARD_H * BACK_S, 5.0
    out = [_card(-1, i * step, 0, BACK_S) for i in range(n)]
    x = (n - 1) * step + w + 5 if n else 0.0
    note = _tr(lang, f"{n}张", f"{n} card" + "s" * (n != 1))
    out.append(_text(x, h / 2 - 7, note, 12, cls="count"))
    return "".join(out), x + _text_w(note, 12), h


def _groups(view: PositionView, seat: int, lang: str) -> tuple[str, float, float]:
    """A seat's table groups: each a column of cards (as laid in 字牌), its name below."""
    w, step, fs = CARD_W * TABLE_S, STACK * CARD_H * TABLE_S, 9.5
    out, x, tall = [], 0.0, 0.0
    for g in view.groups[seat]:
        name = GROUP_NAMES[g.name][lang == "en"]
        slot = max(w, _text_w(name, fs))
        kinds = [-1] * len(g.kinds) if g.hidden else list(g.kinds)
        cx = x + (slot - w) / 2
        out.extend(_card(k, cx, i * step, TABLE_S) for i, k in enumerate(kinds))
        col = CARD_H * TABLE_S + (len(kinds) - 1) * step
        out.append(_text(x + slot / 2, col + 2, name, fs, anchor="middle", cls="group-name"))
        tall = max(tall, col + 3 + fs * 1.2)
        x += slot + 4
    return "".join(out), x - 4, tall


def _discards(kinds: Sequence[int], per_row: int) -> tuple[str, float, float]:
    w, h, gap = CARD_W * DISCARD_S, CARD_H * DISCARD_S, 2.0
    out = [_card(k, (i % per_row) * (w + gap), (i // per_row) * (h + gap), DISCARD_S)
           for i, k in enumerate(kinds)]
    rows = -(-len(kinds) // per_row)
    return "".join(out), min(len(kinds), per_row) * (w + gap) - gap, rows * (h + gap) - gap


def _seat(view: PositionView, seat: int, lang: str, wide: bool,
          min_w: float = 0.0) -> tuple[str, float, float]:
    """One seat's panel: label (turn marker, name, 胡息), hand, groups, discards; ``wide``
    lays them side by side, else one under another. Returns (markup, width, height)."""
    pad, gap = 7.0, 16.0 if wide else 8.0
    viewer, moving = seat == view.viewer, seat == view.to_move
    label = _seat_name(seat, view.seats, lang)
    label += _tr(lang, " (视角)", " (view)") if viewer else ""
    label += _tr(lang, " · 胡息 ", " · huxi ") + str(view.huxi[seat]) if view.huxi else ""
    label = "▶ " + label if moving else label
    rows = [_columns(_counts_of(view.hand, "view.hand"), HAND_S) if viewer
            else _backs(view.hand_sizes[seat], lang)]
    if view.groups[seat]:
        rows.append(_groups(view, seat, lang))
    if view.discards[seat]:
        rows.append(_discards(view.discards[seat], 14 if wide else 10))
    out, x, y = [], pad, pad + 20
    for markup, w, h in rows:
        out.append(_g(x, y, markup))
        x, y = (x + w + gap, y) if wide else (x, y + h + gap)
    inner_w = (x - gap - pad if wide else max(r[1] for r in rows))
    inner_h = max(r[2] for r in rows) if wide else y - gap - pad - 20
    w = max(inner_w, _text_w(label, _LABEL_FS), min_w - 2 * pad) + 2 * pad
    h = inner_h + 2 * pad + 20
    cls = "seat" + (" viewer" if viewer else "") + (" to-move" if moving else "")
    frame = (f'<rect width="{_f(w)}" height="{_f(h)}" rx="6" fill="{PANEL}" '
             f'stroke="{GOLD if moving else "#1b382a"}" stroke-width="{2 if moving else 1}"/>')
    head = _text(pad, pad - 1, label, _LABEL_FS, fill=GOLD if moving else LABEL)
    return f'<g class="{cls}" data-seat="{seat}">{frame}{head}{"".join(out)}</g>', w, h


def _stock(n: int, lang: str) -> tuple[str, float, float]:
    w, h = CARD_W * STOCK_S, CARD_H * STOCK_S
    layers = "".join(_g(2.5 * i, 5 - 2.5 * i, _back_body(w, h, STOCK_S)) for i in range(min(n, 3)))
    if not n:  # an empty place, so the picture keeps its shape at the end of a hand
        layers = (f'<rect y="5" width="{_f(w)}" height="{_f(h)}" rx="2" fill="none" '
                  f'stroke="{LABEL}" stroke-dasharray="3 2"/>')
    note = _tr(lang, "底牌 ", "stock ") + str(n)
    return (f'<g class="stock" data-count="{n}">{layers}'
            f'{_text(w / 2 + 2.5, h + 9, note, 12, anchor="middle", cls="count")}</g>',
            w + 5, h + 25)


def _offer(o: Offer, lang: str) -> tuple[str, float, float]:
    w, h = CARD_W * OFFER_S, CARD_H * OFFER_S
    note = _tr(lang, "摸出", "drawn") if o.drawn else _tr(lang, "打出", "discarded")
    return (f'<g class="offer" data-seat="{o.seat}" data-drawn="{str(o.drawn).lower()}">'
            f"{_card(o.card, 0, 0, OFFER_S)}"
            f'<rect x="-2.5" y="-2.5" width="{_f(w + 5)}" height="{_f(h + 5)}" rx="4" '
            f'fill="none" stroke="{GOLD}" stroke-width="2.5"/>'
            f'{_text(w / 2, h + 5, note, 12, fill=GOLD, anchor="middle", cls="count")}</g>',
            w, h + 20)


def _center(view: PositionView, lang: str) -> tuple[str, float, float]:
    """The stock in the middle and the card on offer on the side of the seat that showed it."""
    stock, sw, sh = _stock(view.stock, lang)
    cw, ch = 78.0, sh + 8
    where = None
    if view.offer is not None:
        rel = (view.offer.seat - view.viewer) % view.seats
        where = {0: "bottom", 1: "right", view.seats - 1: "left"}.get(rel, "top")
    top = ch if where == "top" else 0.0
    out = [_g(cw + (cw - sw) / 2, top, stock)]
    if view.offer is not None:
        offer, ow, _ = _offer(view.offer, lang)
        col = {"left": 0, "right": 2}.get(where, 1)
        row = {"top": 0, "bottom": top + ch}.get(where, top)
        out.append(_g(col * cw + (cw - ow) / 2, row + 3, offer))
    rows = 1 + (where in ("top", "bottom"))
    return "".join(out), 3 * cw, rows * ch


def _check_view(view: PositionView) -> None:
    n = view.seats
    if n not in (3, 4):
        raise ValueError(f"view.seats must be 3 or 4, got {n!r}")
    for name in ("hand_sizes", "groups", "discards") + (("huxi",) if view.huxi else ()):
        if len(getattr(view, name)) != n:
            raise ValueError(f"view.{name} has {len(getattr(view, name))} entries; "
                             f"expected one per seat ({n})")
    for name in ("viewer", "to_move"):
        if not 0 <= getattr(view, name) < n:
            raise ValueError(f"view.{name} is {getattr(view, name)!r}; seats are 0..{n - 1}")
    if any(c < 0 for c in view.hand_sizes) or view.stock < 0:
        raise ValueError("view.hand_sizes and view.stock must be >= 0")
    held = sum(_counts_of(view.hand, "view.hand"))
    if held != view.hand_sizes[view.viewer]:
        raise ValueError(f"view.hand holds {held} cards but view.hand_sizes[{view.viewer}] "
                         f"is {view.hand_sizes[view.viewer]}")
    for s in range(n):
        for g in view.groups[s]:
            if g.name not in GROUP_NAMES:
                raise ValueError(f"view.groups[{s}]: unknown group name {g.name!r}; "
                                 f"expected one of {', '.join(GROUP_NAMES)}")
            for k in g.kinds:
                _kind(k, f"view.groups[{s}] {g.name}", allow_back=g.hidden)
        for k in view.discards[s]:
            _kind(k, f"view.discards[{s}]")
    if view.offer is not None:
        _kind(view.offer.card, "view.offer")
        if not 0 <= view.offer.seat < n:
            raise ValueError(f"view.offer.seat is {view.offer.seat!r}; seats are 0..{n - 1}")


def draw_position(view: PositionView, *, lang: str = "zh", scale: float = 1.0) -> Svg:
    """The table as ``view.viewer`` sees it, on green felt: the viewer's hand face up at the
    bottom (held as in ``draw_hand``), the next seat (下家) on the right, the one before (上家)
    on the left and, with 4 seats, 对家 on top; each seat with its label (zh 庄家/下家/对家/
    上家, en "seat 0 (dealer)", "seat 1", …; the viewer marked 视角/view; ▶ and a gold frame on
    the seat to move; 胡息 when ``view.huxi`` is given), the others' hands as backs and a
    count, its table groups face up (a hidden 偎 as backs) and its discards, smaller. The stock
    is a pile with its count in the middle, the card on offer in a gold frame on the side of
    the seat that showed it, ``view.caption`` above. At scale 1 a 4-seat table is about
    600×600 px mid-hand and stays within about 900×660 px even with 20 kinds in hand, seven
    groups and 20 discards a seat.

    Raises ValueError for ``lang`` not "zh"/"en", a bad ``scale`` or an inconsistent view
    (seats not 3/4, per-seat lists of the wrong length, a seat or kind out of range, a fifth
    copy in the hand, a hand that does not match ``hand_sizes``, an unknown group name).
    """
    s = _options(lang, scale)
    _check_view(view)
    n, v, margin, gap = view.seats, view.viewer, 10.0, 10.0
    bottom = _seat(view, v, lang, wide=True)
    top = _seat(view, (v + 2) % n, lang, wide=True) if n == 4 else ("", 0.0, 0.0)
    side_w = max(_seat(view, (v + d) % n, lang, wide=False)[1] for d in (1, n - 1))
    left = _seat(view, (v + n - 1) % n, lang, wide=False, min_w=side_w)
    right = _seat(view, (v + 1) % n, lang, wide=False, min_w=side_w)
    center = _center(view, lang)
    cap_h = 24.0 if view.caption else 0.0
    band_w = left[1] + center[1] + right[1] + 2 * gap
    w = max(bottom[1], band_w, top[1], _text_w(view.caption, 15)) + 2 * margin
    out = [_text(w / 2, margin, view.caption, 15, anchor="middle", cls="caption")] \
        if view.caption else []

    def put(part: tuple[str, float, float], x: float, y: float) -> None:
        out.append(_g(x, y, part[0]))

    y = margin + cap_h
    if n == 4:
        put(top, (w - top[1]) / 2, y)
        y += top[2] + gap
    band_h = max(left[2], right[2], center[2])
    put(left, margin, y)
    put(right, w - margin - right[1], y)
    put(center, (w - center[1]) / 2, y + (band_h - center[2]) / 2)
    y += band_h + gap
    put(bottom, (w - bottom[1]) / 2, y)
    h = y + bottom[2] + margin
    label = view.caption or _tr(lang, "字牌", "zipai position")
    return _svg("".join(out), w, h, s, label, bg=FELT)
