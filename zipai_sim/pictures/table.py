"""SVG pictures of a 字牌 table position (``draw_position``): what one seat sees, laid out round
it on green felt, from the cards and hands of ``pictures.cards``.

What a test or a browser can rely on in the markup, besides each card's ``<g class="card …"
data-kind="K">`` (``pictures.cards``): ``<g class="seat" data-seat="S">`` per seat (plus
``viewer`` and ``to-move`` where they apply), ``<g class="offer" data-seat="S">`` round the card
on offer, and ``<g class="stock" data-count="N">``, the stock pile, whose backs are not ``card``
elements. The shapes drawn many times (backs, the faces' paper and frames) are kept once in the
picture's ``<defs>`` (``cards.Defs``: ids of its own) and drawn with ``<use>``; each card's
characters stay in its ``<g>``.
"""

from __future__ import annotations

from collections.abc import Sequence

from zipai_sim.pictures.cards import (
    CARD_H,
    CARD_W,
    STACK,
    Defs,
    Svg,
    back_body,
    card,
    check_kind,
    check_options,
    columns,
    counts_of,
    moved,
    num,
    picture,
    text_line,
    text_w,
    tr,
)
from zipai_sim.pictures.view import GROUP_NAMES, Offer, PositionView

__all__ = ["draw_position"]

FELT, PANEL, LABEL, GOLD = "#2f5d47", "#264d3a", "#f3ead2", "#e3a700"
# Sizes of the cards in a position, relative to draw_hand's: the viewer's hand must stay
# readable, the rest only recognisable, so that four seats fit in about 900×700 px.
HAND_S, TABLE_S, DISCARD_S, BACK_S, OFFER_S, STOCK_S = 0.8, 0.55, 0.45, 0.42, 0.7, 0.5
_LABEL_FS = 13.0


def _seat_name(seat: int, seats: int, lang: str) -> str:
    if lang == "en":
        return f"seat {seat} (dealer)" if seat == 0 else f"seat {seat}"
    return ("庄家" if seat == 0 else "下家" if seat == 1 else "上家" if seat == seats - 1
            else "对家")


def _backs(n: int, lang: str, defs: Defs) -> tuple[str, float, float]:
    """Another seat's hand: ``n`` overlapping backs and the count."""
    w, h, step = CARD_W * BACK_S, CARD_H * BACK_S, 5.0
    out = [card(-1, i * step, 0, BACK_S, defs) for i in range(n)]
    x = (n - 1) * step + w + 5 if n else 0.0
    note = tr(lang, f"{n}张", f"{n} card" + "s" * (n != 1))
    out.append(text_line(x, h / 2 - 7, note, 12, fill=LABEL, cls="count"))
    return "".join(out), x + text_w(note, 12), h


def _groups(view: PositionView, seat: int, lang: str, defs: Defs) -> tuple[str, float, float]:
    """A seat's table groups: each a column of cards (as laid in 字牌), its name below."""
    w, step, fs = CARD_W * TABLE_S, STACK * CARD_H * TABLE_S, 9.5
    out, x, tall = [], 0.0, 0.0
    for g in view.groups[seat]:
        name = GROUP_NAMES[g.name][lang == "en"]
        slot = max(w, text_w(name, fs))
        kinds = [-1] * len(g.kinds) if g.hidden else list(g.kinds)
        cx = x + (slot - w) / 2
        out.extend(card(k, cx, i * step, TABLE_S, defs) for i, k in enumerate(kinds))
        col = CARD_H * TABLE_S + (len(kinds) - 1) * step
        out.append(text_line(x + slot / 2, col + 2, name, fs, fill=LABEL, anchor="middle",
                             cls="group-name"))
        tall = max(tall, col + 3 + fs * 1.2)
        x += slot + 4
    return "".join(out), x - 4, tall


def _discards(kinds: Sequence[int], per_row: int, defs: Defs) -> tuple[str, float, float]:
    w, h, gap = CARD_W * DISCARD_S, CARD_H * DISCARD_S, 2.0
    out = [card(k, (i % per_row) * (w + gap), (i // per_row) * (h + gap), DISCARD_S, defs)
           for i, k in enumerate(kinds)]
    rows = -(-len(kinds) // per_row)
    return "".join(out), min(len(kinds), per_row) * (w + gap) - gap, rows * (h + gap) - gap


def _seat(view: PositionView, seat: int, lang: str, defs: Defs, wide: bool,
          min_w: float = 0.0) -> tuple[str, float, float]:
    """One seat's panel: label (turn marker, name, 胡息), hand, groups, discards; ``wide``
    lays them side by side, else one under another. Returns (markup, width, height)."""
    pad, gap = 7.0, 16.0 if wide else 8.0
    viewer, moving = seat == view.viewer, seat == view.to_move
    label = _seat_name(seat, view.seats, lang)
    label += tr(lang, " (视角)", " (view)") if viewer else ""
    label += tr(lang, " · 胡息 ", " · huxi ") + str(view.huxi[seat]) if view.huxi else ""
    label = "▶ " + label if moving else label
    rows = [columns(counts_of(view.hand, "view.hand"), HAND_S, defs) if viewer
            else _backs(view.hand_sizes[seat], lang, defs)]
    if view.groups[seat]:
        rows.append(_groups(view, seat, lang, defs))
    if view.discards[seat]:
        rows.append(_discards(view.discards[seat], 14 if wide else 10, defs))
    out, x, y = [], pad, pad + 20
    for markup, w, h in rows:
        out.append(moved(x, y, markup))
        x, y = (x + w + gap, y) if wide else (x, y + h + gap)
    inner_w = (x - gap - pad if wide else max(r[1] for r in rows))
    inner_h = max(r[2] for r in rows) if wide else y - gap - pad - 20
    w = max(inner_w, text_w(label, _LABEL_FS), min_w - 2 * pad) + 2 * pad
    h = inner_h + 2 * pad + 20
    cls = "seat" + (" viewer" if viewer else "") + (" to-move" if moving else "")
    frame = (f'<rect width="{num(w)}" height="{num(h)}" rx="6" fill="{PANEL}" '
             f'stroke="{GOLD if moving else "#1b382a"}" stroke-width="{2 if moving else 1}"/>')
    head = text_line(pad, pad - 1, label, _LABEL_FS, fill=GOLD if moving else LABEL)
    return f'<g class="{cls}" data-seat="{seat}">{frame}{head}{"".join(out)}</g>', w, h


def _stock(n: int, lang: str, defs: Defs) -> tuple[str, float, float]:
    w, h = CARD_W * STOCK_S, CARD_H * STOCK_S
    back = defs.use(back_body(w, h, STOCK_S))
    layers = "".join(moved(2.5 * i, 5 - 2.5 * i, back) for i in range(min(n, 3)))
    if not n:  # an empty place, so the picture keeps its shape at the end of a hand
        layers = (f'<rect y="5" width="{num(w)}" height="{num(h)}" rx="2" fill="none" '
                  f'stroke="{LABEL}" stroke-dasharray="3 2"/>')
    note = tr(lang, "底牌 ", "stock ") + str(n)
    return (f'<g class="stock" data-count="{n}">{layers}'
            f'{text_line(w / 2 + 2.5, h + 9, note, 12, fill=LABEL, anchor="middle", cls="count")}'
            f"</g>", w + 5, h + 25)


def _offer(o: Offer, lang: str, defs: Defs) -> tuple[str, float, float]:
    w, h = CARD_W * OFFER_S, CARD_H * OFFER_S
    note = tr(lang, "摸出", "drawn") if o.drawn else tr(lang, "打出", "discarded")
    return (f'<g class="offer" data-seat="{o.seat}" data-drawn="{str(o.drawn).lower()}">'
            f"{card(o.card, 0, 0, OFFER_S, defs)}"
            f'<rect x="-2.5" y="-2.5" width="{num(w + 5)}" height="{num(h + 5)}" rx="4" '
            f'fill="none" stroke="{GOLD}" stroke-width="2.5"/>'
            f'{text_line(w / 2, h + 5, note, 12, fill=GOLD, anchor="middle", cls="count")}</g>',
            w, h + 20)


def _center(view: PositionView, lang: str, defs: Defs) -> tuple[str, float, float]:
    """The stock in the middle and the card on offer on the side of the seat that showed it."""
    stock, sw, sh = _stock(view.stock, lang, defs)
    cw, ch = 78.0, sh + 8
    where = None
    if view.offer is not None:
        rel = (view.offer.seat - view.viewer) % view.seats
        where = {0: "bottom", 1: "right", view.seats - 1: "left"}.get(rel, "top")
    top = ch if where == "top" else 0.0
    out = [moved(cw + (cw - sw) / 2, top, stock)]
    if view.offer is not None:
        offer, ow, _ = _offer(view.offer, lang, defs)
        col = {"left": 0, "right": 2}.get(where, 1)
        row = {"top": 0, "bottom": top + ch}.get(where, top)
        out.append(moved(col * cw + (cw - ow) / 2, row + 3, offer))
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
    held = sum(counts_of(view.hand, "view.hand"))
    if held != view.hand_sizes[view.viewer]:
        raise ValueError(f"view.hand holds {held} cards but view.hand_sizes[{view.viewer}] "
                         f"is {view.hand_sizes[view.viewer]}")
    for s in range(n):
        for g in view.groups[s]:
            if g.name not in GROUP_NAMES:
                raise ValueError(f"view.groups[{s}]: unknown group name {g.name!r}; "
                                 f"expected one of {', '.join(GROUP_NAMES)}")
            for k in g.kinds:
                check_kind(k, f"view.groups[{s}] {g.name}", allow_back=g.hidden)
        for k in view.discards[s]:
            check_kind(k, f"view.discards[{s}]")
    if view.offer is not None:
        check_kind(view.offer.card, "view.offer")
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
    ``view`` may also be anything holding one as ``.view`` (an analysis ``Position`` or
    ``Decision``).
    """
    view = getattr(view, "view", view)  # a Position or a Decision draws the table it holds
    s = check_options(lang, scale)
    _check_view(view)
    n, v, margin, gap = view.seats, view.viewer, 10.0, 10.0
    defs = Defs(repr((view, lang, s)))  # the shapes drawn many times, once each
    bottom = _seat(view, v, lang, defs, wide=True)
    top = _seat(view, (v + 2) % n, lang, defs, wide=True) if n == 4 else ("", 0.0, 0.0)
    side_w = max(_seat(view, (v + d) % n, lang, defs, wide=False)[1] for d in (1, n - 1))
    left = _seat(view, (v + n - 1) % n, lang, defs, wide=False, min_w=side_w)
    right = _seat(view, (v + 1) % n, lang, defs, wide=False, min_w=side_w)
    center = _center(view, lang, defs)
    cap_h = 24.0 if view.caption else 0.0
    band_w = left[1] + center[1] + right[1] + 2 * gap
    w = max(bottom[1], band_w, top[1], text_w(view.caption, 15)) + 2 * margin
    out = [text_line(w / 2, margin, view.caption, 15, fill=LABEL, anchor="middle",
                     cls="caption")] if view.caption else []

    def put(part: tuple[str, float, float], x: float, y: float) -> None:
        out.append(moved(x, y, part[0]))

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
    label = view.caption or tr(lang, "字牌", "zipai position")
    return picture("".join(out), w, h, s, label, bg=FELT, defs=defs)
