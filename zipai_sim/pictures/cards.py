"""SVG pictures of 字牌 cards and hands, drawn like paper 字牌: long cream strips (1:3.3) with
the character at the top and again, turned 180°, at the bottom. The ``Svg`` picture type, and
the pieces a table position (``pictures.table``) is drawn from: one card, a held hand's
columns, a line of text, the root ``<svg>`` element, the checks of kinds and options.

Everything is inline SVG (no fonts, images or scripts are fetched). What a test or a browser can
rely on in the markup: every card is ``<g class="card …" data-kind="K">``: K is its kind 0..19,
or -1 face down (class ``back``); face-up cards carry ``small`` (一..十: plain paper, plain
border) or ``big`` (壹..拾: a double inner frame, bold character), and ``red`` for 二七十 贰柒拾,
whose ``<text class="char red">`` characters are red.
"""

from __future__ import annotations

import hashlib
import math
import operator
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from zipai_sim.game.cards import COPIES, N_KINDS, RED_SLOTS, card_name, parse_card

__all__ = ["Svg", "draw_cards", "draw_hand"]

FONT = "Noto Serif CJK SC, Noto Serif SC, Source Han Serif SC, SimSun, serif"
CARD_W, CARD_H = 30.0, 99.0  # a card at scale 1, in px
STACK = 0.3  # share of a card's height left showing under the next card of a column
PAPER, PAPER_BIG, EDGE, INK, RED = "#f7efd9", "#f1e2bf", "#3b2e22", "#1e1b18", "#c0392b"
BACK, HATCH = "#5a3821", "#8f6a45"
_REDS = frozenset(RED_SLOTS)


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


def num(x: float) -> str:
    """A coordinate as short text: two decimals at most, no trailing zeros (``12.5``)."""
    return f"{x:.2f}".rstrip("0").rstrip(".")


def moved(x: float, y: float, inner: str) -> str:
    """``inner`` in a ``<g>`` moved by (x, y)."""
    return f'<g transform="translate({num(x)},{num(y)})">{inner}</g>'


def tr(lang: str, zh: str, en: str) -> str:
    """``zh`` or ``en`` by ``lang``."""
    return zh if lang == "zh" else en


def text_w(text: str, fs: float) -> float:
    """Rough width of ``text`` at font size ``fs``: layout needs it and SVG cannot measure."""
    return sum(fs if ord(c) > 0x2E7F else 0.6 * fs for c in text)


def text_line(x: float, y: float, text: str, fs: float, fill: str = INK,
              anchor: str = "start", cls: str = "label") -> str:
    """A line of text with its top at ``y`` (baseline placed for CJK glyphs)."""
    return (f'<text class="{cls}" x="{num(x)}" y="{num(y + 0.86 * fs)}" font-size="{num(fs)}" '
            f'fill="{fill}" text-anchor="{anchor}">{escape(text)}</text>')


def back_body(w: float, h: float, s: float) -> str:
    """The patterned back of a card (``w``×``h`` at scale ``s``): brown paper with a crossed
    hatch inside a frame."""
    m, gap = 2.5 * s, 0.26 * CARD_W * s
    x0, y0, x1, y1 = m, m, w - m, h - m
    d, c = [], x0 - y1 + gap / 2
    while c < x1 - y0:  # the lines x = y + c and their mirror images x = w - y - c
        ya, yb = max(y0, x0 - c), min(y1, x1 - c)
        d.append(f"M{num(ya + c)} {num(ya)}L{num(yb + c)} {num(yb)}"
                 f"M{num(w - ya - c)} {num(ya)}L{num(w - yb - c)} {num(yb)}")
        c += gap
    return (f'<rect width="{num(w)}" height="{num(h)}" rx="{num(3 * s)}" fill="{BACK}" '
            f'stroke="{EDGE}" stroke-width="{num(s)}"/>'
            f'<path d="{"".join(d)}" stroke="{HATCH}" stroke-width="{num(0.7 * s)}" fill="none"/>'
            f'<rect x="{num(m)}" y="{num(m)}" width="{num(w - 2 * m)}" height="{num(h - 2 * m)}" '
            f'rx="{num(2 * s)}" fill="none" stroke="{HATCH}" stroke-width="{num(0.8 * s)}"/>')


class Defs:
    """The shapes one picture draws many times (a card's back, a face card's paper, frames and
    centre ring), each kept once in the picture's ``<defs>`` and drawn with ``<use>``: a table
    position's markup shrinks by about half and looks the same.

    Pages put many pictures in one document, so ids are ``z`` + a hash of ``seed`` (the
    picture's inputs) + a number: two different pictures never share an id, and two equal
    pictures define the same shapes under the same ids."""

    def __init__(self, seed: str) -> None:
        self.prefix = "z" + hashlib.sha1(seed.encode("utf-8")).hexdigest()[:10] + "-"
        self._ids: dict[str, str] = {}

    def use(self, markup: str) -> str:
        """A ``<use>`` of ``markup`` (put in the defs the first time)."""
        ref = self._ids.setdefault(markup, f"{self.prefix}{len(self._ids)}")
        return f'<use xlink:href="#{ref}"/>'

    def markup(self) -> str:
        """The ``<defs>`` element (empty text when nothing was used)."""
        shapes = "".join(f'<g id="{ref}">{m}</g>' for m, ref in self._ids.items())
        return f"<defs>{shapes}</defs>" if shapes else ""


def card(kind: int, x: float, y: float, s: float, defs: Defs | None = None) -> str:
    """One card (kind 0..19, or -1 face down) with its top-left corner at (x, y), scale s. With
    ``defs``, the back or the face's paper, frames and ring is a ``<use>`` (the characters stay
    in the card's ``<g>``; the ring, drawn before them then, never overlaps them)."""
    w, h = CARD_W * s, CARD_H * s
    at = f'transform="translate({num(x)},{num(y)})"'
    if kind < 0:
        back = back_body(w, h, s)
        return f'<g class="card back" data-kind="-1" {at}>{defs.use(back) if defs else back}</g>'
    big, red = kind >= 10, kind in _REDS
    cls = ("big" if big else "small") + (" red" if red else "")
    paper = [f'<rect width="{num(w)}" height="{num(h)}" rx="{num(3 * s)}" '
             f'fill="{PAPER_BIG if big else PAPER}" stroke="{EDGE}" stroke-width="{num(s)}"/>']
    if big:  # the double frame tells 壹..拾 from 一..十 at a glance, even half covered
        for inset, sw in ((2.2, 0.9), (3.7, 0.45)):
            paper.append(f'<rect x="{num(inset * s)}" y="{num(inset * s)}" '
                         f'width="{num(w - 2 * inset * s)}" height="{num(h - 2 * inset * s)}" '
                         f'rx="{num(1.5 * s)}" fill="none" stroke="{EDGE}" '
                         f'stroke-width="{num(sw * s)}"/>')
    fs, cy = 0.68 * w, 16.0 * s
    # the characters' font, set once on the card's <g> (they inherit it; nothing else uses it)
    font = f'font-size="{num(fs)}" text-anchor="middle" font-weight="{700 if big else 400}"'
    name = escape(card_name(kind))
    ink = f'class="{"char red" if red else "char"}" x="{num(w / 2)}"'
    fill = f'fill="{RED if red else INK}"'
    base = 0.36 * fs  # CJK glyphs centre about 0.36 em above the baseline
    chars = (f'<text {ink} y="{num(cy + base)}" {fill}>{name}</text>'
             f'<text {ink} y="{num(h - cy + base)}" {fill} '
             f'transform="rotate(180 {num(w / 2)} {num(h - cy)})">{name}</text>')
    ring = (f'<circle cx="{num(w / 2)}" cy="{num(h / 2)}" r="{num(2.2 * s)}" fill="none" '
            f'stroke="{RED if red else EDGE}" stroke-width="{num(0.6 * s)}" opacity="0.5"/>')
    face = defs.use("".join(paper) + ring) + chars if defs else "".join(paper) + chars + ring
    return f'<g class="card {cls}" data-kind="{kind}" {at} {font}>{face}</g>'


def check_options(lang: str, scale: float) -> float:
    """Check ``lang`` ("zh"/"en") and ``scale``; returns the scale as a float (ValueError)."""
    if lang not in ("zh", "en"):
        raise ValueError(f'lang must be "zh" or "en", got {lang!r}')
    try:
        s = float(scale)
    except (TypeError, ValueError):
        s = math.nan
    if isinstance(scale, bool) or not (math.isfinite(s) and s > 0):
        raise ValueError(f"scale must be a positive finite number, got {scale!r}")
    return s


def check_kind(k: object, what: str, allow_back: bool = False) -> int:
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


def counts_of(kinds: Iterable[object], what: str) -> list[int]:
    """Counts ``[20]`` of a sequence of kinds; ValueError naming ``what`` for a kind outside
    0..19 or a fifth copy."""
    counts = [0] * N_KINDS
    for k in kinds:
        v = check_kind(k, what)
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
        return counts_of(kinds, "the hand")
    shape = getattr(hand, "shape", None)
    if shape is None:
        return counts_of(hand, "the hand")  # type: ignore[arg-type]
    if tuple(shape) != (N_KINDS,):
        raise ValueError(f"a counts array must have shape (20,), got shape {tuple(shape)}")
    counts = [operator.index(c) for c in hand]  # type: ignore[attr-defined]
    for k, c in enumerate(counts):
        if c < 0:
            raise ValueError(f"counts hold a negative count {c} of {card_name(k)}")
        if c > COPIES:
            raise _fifth(k, "the hand")
    return counts


def picture(body: str, w: float, h: float, scale: float, title: str,
            bg: str | None = None, defs: Defs | None = None) -> Svg:
    """The root element round ``body``: drawn in units of scale 1 (``w``×``h``), scaled by the
    viewBox, on a rounded ``bg`` when given, with the ``<defs>`` of ``defs``."""
    pw, ph = max(1, math.ceil(w * scale)), max(1, math.ceil(h * scale))
    vw, vh = pw / scale, ph / scale
    back = f'<rect width="{num(vw)}" height="{num(vh)}" rx="8" fill="{bg}"/>' if bg else ""
    shapes = defs.markup() if defs else ""
    xlink = ' xmlns:xlink="http://www.w3.org/1999/xlink"' if shapes else ""
    text = (f'<svg xmlns="http://www.w3.org/2000/svg"{xlink} width="{pw}" height="{ph}" '
            f'viewBox="0 0 {num(vw)} {num(vh)}" font-family={quoteattr(FONT)} role="img">'
            f"<title>{escape(title)}</title>{shapes}{back}{body}</svg>")
    return Svg(text, pw, ph)


def columns(counts: Sequence[int], s: float,
            defs: Defs | None = None) -> tuple[str, float, float]:
    """A held hand: one column per kind, copies stacked so each top character shows; small
    kinds then, after a wider gap, big ones. Returns (markup, width, height)."""
    w, step, gap = CARD_W * s, STACK * CARD_H * s, 0.1 * CARD_W * s
    out, x, tall = [], 0.0, 0.0
    for k in range(N_KINDS):
        if k == 10 and x > 0 and any(counts[10:]):
            x += 3 * gap
        for i in range(counts[k]):
            out.append(card(k, x, i * step, s, defs))
        if counts[k]:
            x += w + gap
            tall = max(tall, CARD_H * s + (counts[k] - 1) * step)
    return "".join(out), max(0.0, x - gap), tall


def draw_cards(kinds: Iterable[int], *, face_down: int = 0, scale: float = 1.0) -> Svg:
    """A row of cards: ``kinds`` (each 0..19) face up in the order given, then ``face_down``
    backs. One card is 30×99 px at scale 1. Raises ValueError for a kind outside 0..19, a
    negative ``face_down`` or a ``scale`` that is not a positive number."""
    s = check_options("zh", scale)
    ks = [check_kind(k, "draw_cards") for k in kinds]
    n = operator.index(face_down)
    if n < 0:
        raise ValueError(f"face_down must be >= 0, got {n}")
    gap = 0.12 * CARD_W
    body = "".join(card(k, i * (CARD_W + gap), 0, 1) for i, k in enumerate(ks + [-1] * n))
    w = max(0.0, (len(ks) + n) * (CARD_W + gap) - gap)
    names = "".join(card_name(k) for k in ks) + "?" * n
    # A 1 px margin keeps the outer strokes from being cut at the picture's edge.
    return picture(moved(1, 1, body), w + 2, CARD_H + 2, s, names)


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
    s = check_options(lang, scale)
    counts = _hand_counts(hand)
    body, w, h = columns(counts, 1.0)
    names = [card_name(k, ascii=lang == "en") for k in range(N_KINDS) for _ in range(counts[k])]
    head, top = "", 0.0
    if title is not None:
        n = sum(counts)
        line = f"{title} · " + tr(lang, f"{n}张", f"{n} card" + "s" * (n != 1))
        head, top = text_line(1, 1, line, 14, fill=INK, cls="title"), 22.0
        w = max(w, text_w(line, 14))
    return picture(head + moved(1, top + 1, body), w + 2, h + top + 2, s,
                   tr(lang, "", " ").join(names))
