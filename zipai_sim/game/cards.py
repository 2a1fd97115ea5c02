"""Card encoding and text notation for 字牌 (rule source: RULES.md §1).

A hand is a count vector ``int8[20]``: slot ``k = 0..9`` holds small value ``k+1``
(一..十), slot ``k = 10..19`` holds big value ``k-9`` (壹..拾); each entry is 0..4.
A batch of hands is ``int8[n, 20]``. Text notation accepts Chinese numerals
(simplified or traditional) and ASCII tokens ``s1..s10`` / ``b1..b10``.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

__all__ = [
    "BIG_NAMES",
    "COPIES",
    "DECK_SIZE",
    "IS_BIG",
    "IS_RED",
    "N_KINDS",
    "RED_SLOTS",
    "SMALL_NAMES",
    "CardError",
    "card_name",
    "format_hand",
    "full_deck_counts",
    "is_big",
    "is_red",
    "parse_card",
    "parse_hand",
    "validate_counts",
    "value_of",
]

N_KINDS: int = 20
COPIES: int = 4
DECK_SIZE: int = N_KINDS * COPIES  # 80
RED_SLOTS: tuple[int, ...] = (1, 6, 9, 11, 16, 19)  # 二七十 贰柒拾 (RULES.md §1)
SMALL_NAMES: str = "一二三四五六七八九十"
BIG_NAMES: str = "壹贰叁肆伍陆柒捌玖拾"

# Plain numpy arrays (not tuples or dicts) so numba kernels can read them as frozen globals.
IS_RED: np.ndarray = np.zeros(N_KINDS, dtype=np.bool_)
IS_RED[list(RED_SLOTS)] = True
IS_BIG: np.ndarray = np.arange(N_KINDS) >= 10
IS_RED.flags.writeable = False  # a mutated global would silently diverge from compiled kernels
IS_BIG.flags.writeable = False

# Character -> slot. Only the traditional forms named in RULES.md §1 are accepted; guessing
# at other variants would let typos through as valid cards.
_CHAR_TO_SLOT: dict[str, int] = {c: i for i, c in enumerate(SMALL_NAMES + BIG_NAMES)}
_CHAR_TO_SLOT.update({"貳": 11, "參": 12, "叄": 12, "陸": 15})
_SEPARATORS = frozenset(",，")  # plus any str.isspace() character


class CardError(ValueError):
    """Bad card text or count vector (RULES.md §1).

    Attributes:
        token: the offending token as written, or None when the error is not about one token.
        position: 0-based character offset of ``token`` in the parsed text, or None.
    """

    def __init__(self, message: str, token: str | None = None, position: int | None = None):
        super().__init__(message)
        self.token = token
        self.position = position


# register_jitable keeps these plain Python for callers while letting numba kernels inline them.
@register_jitable
def value_of(k: int) -> int:
    """Face value 1..10 of slot ``k`` (0..19), ignoring size (RULES.md §1)."""
    if k < 0 or k >= 20:
        raise ValueError("card slot must be in 0..19")
    return int(k % 10 + 1)


@register_jitable
def is_big(k: int) -> bool:
    """True if slot ``k`` (0..19) is a big card 壹..拾 (RULES.md §1)."""
    if k < 0 or k >= 20:
        raise ValueError("card slot must be in 0..19")
    return k >= 10


@register_jitable
def is_red(k: int) -> bool:
    """True if slot ``k`` (0..19) is red: value 2, 7 or 10 of either size (RULES.md §1)."""
    v = value_of(k)
    return v == 2 or v == 7 or v == 10


def card_name(k: int, ascii: bool = False) -> str:
    """Name of slot ``k`` (0..19): Chinese (``"三"``, ``"拾"``) or ASCII (``"s3"``, ``"b10"``).

    >>> card_name(2), card_name(19), card_name(19, ascii=True)
    ('三', '拾', 'b10')
    """
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < N_KINDS:
        raise ValueError(f"card slot must be an integer in 0..19, got {k!r}")
    k = int(k)
    if ascii:
        return f"{'b' if k >= 10 else 's'}{k % 10 + 1}"
    return (SMALL_NAMES + BIG_NAMES)[k]


def _ascii_slot(token: str) -> int | None:
    """Slot of an ASCII token like ``s3``/``B10``, or None if it is not one."""
    t = token.lower()
    if len(t) < 2 or t[0] not in "sb" or not t[1:].isascii() or not t[1:].isdigit():
        return None
    if t[1] == "0":  # "s01" is not a card name; only exact 1..10 round-trips
        return None
    v = int(t[1:])
    if not 1 <= v <= 10:
        return None
    return v - 1 + (10 if t[0] == "b" else 0)


def _both_names(k: int) -> str:
    return f"{card_name(k)} ({card_name(k, ascii=True)})"


def _tokens(text: str) -> list[tuple[str, int]]:
    """Split text into (token, position) pairs.

    An ASCII alphanumeric run is one token, so ``s10`` is read whole (greedy) and ``s1s2``
    is rejected rather than guessed at; any other non-separator character is its own token.
    """
    out: list[tuple[str, int]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace() or c in _SEPARATORS:
            i += 1
        elif c.isascii() and c.isalnum():
            j = i
            while j < n and text[j].isascii() and text[j].isalnum():
                j += 1
            out.append((text[i:j], i))
            i = j
        else:
            out.append((c, i))
            i += 1
    return out


def parse_card(token: str) -> int:
    """Slot 0..19 of one card token: a Chinese numeral (simplified or 貳參叄陸) or
    ``s1..s10``/``b1..b10`` (case-insensitive); surrounding whitespace is ignored (RULES.md §1).

    >>> parse_card("拾"), parse_card("貳"), parse_card("s3"), parse_card("B10")
    (19, 11, 2, 19)

    Raises CardError naming the token when it is not exactly one card.
    """
    t = token.strip()
    slot = _CHAR_TO_SLOT.get(t) if len(t) == 1 else _ascii_slot(t)
    if slot is None:
        raise CardError(f"bad card token {t!r}; expected one of {SMALL_NAMES}{BIG_NAMES} "
                        f"or s1..s10 / b1..b10", token=t, position=None)
    return slot


def parse_kinds(text: str) -> list[int]:
    """Card kinds 0..19 of ``text`` in the order written (the tokens of ``parse_hand``:
    Chinese numerals, whitespace ignored, and ASCII ``s1..s10``/``b1..b10``; RULES.md §1); no
    count is checked. Raises CardError naming a bad token and its position.

    >>> parse_kinds("三 一, s2")
    [2, 0, 1]
    """
    out = []
    for tok, pos in _tokens(text):
        slot = _CHAR_TO_SLOT.get(tok) if len(tok) == 1 else _ascii_slot(tok)
        if slot is None:
            raise CardError(f"bad card token {tok!r} at position {pos} in {text!r}",
                            token=tok, position=pos)
        out.append(slot)
    return out


def parse_hand(text: str) -> np.ndarray:
    """Parse hand text into counts ``int8[20]`` (RULES.md §1).

    Chinese numerals (whitespace ignored) and ASCII tokens separated by spaces and/or commas
    may be mixed, e.g. ``"一二三 s4, b10 拾"``. Empty text gives the empty hand.
    >>> c = parse_hand("一二三 s4, b10 拾")
    >>> int(c.sum()), int(c[3]), int(c[19])       # 6 cards: 四 is slot 3, two 拾 in slot 19
    (6, 1, 2)
    >>> try:
    ...     parse_hand("一一一一一")
    ... except CardError as e:                      # the fifth 一, at position 4
    ...     print(e.token, e.position)
    一 4

    Raises CardError for an unknown token (with its position) or more than 4 copies of a card.
    """
    counts = [0] * N_KINDS  # Python ints: a long string must not wrap int8 before we check
    fifth: dict[int, tuple[str, int]] = {}
    for tok, pos in _tokens(text):
        slot = _CHAR_TO_SLOT.get(tok) if len(tok) == 1 else _ascii_slot(tok)
        if slot is None:
            raise CardError(f"bad card token {tok!r} at position {pos} in {text!r}",
                            token=tok, position=pos)
        counts[slot] += 1
        if counts[slot] == COPIES + 1:
            fifth[slot] = (tok, pos)
    if fifth:
        # Blame the card whose fifth copy comes first in the text; report its full count.
        slot, (tok, pos) = min(fifth.items(), key=lambda kv: kv[1][1])
        raise CardError(f"{counts[slot]} copies of {_both_names(slot)}; the deck holds "
                        f"{COPIES} of each card (fifth at position {pos} in {text!r})",
                        token=tok, position=pos)
    return np.array(counts, dtype=np.int8)


def format_hand(counts: np.ndarray, ascii: bool = False, sep: str | None = None) -> str:
    """Text for counts ``int[20]`` (any integer dtype) in slot order (RULES.md §1).

    Chinese by default with no separator (``"一二三十十拾"``); ``ascii=True`` gives
    space-separated tokens (``"s1 s2 s3 s10 s10 b10"``). ``sep`` overrides the separator.
    The output parses back to ``counts`` with parse_hand for the default seps and for any
    sep made of whitespace and commas.

    >>> c = parse_hand("拾 十十 二 贰")
    >>> format_hand(c), format_hand(c, ascii=True)
    ('二十十贰拾', 's2 s10 s10 b2 b10')
    """
    c = validate_counts(counts)
    if c.ndim != 1:
        raise CardError(f"format_hand takes one hand of shape (20,), got shape {c.shape}")
    if sep is None:
        # ASCII tokens need a separator or "s1" "s10" would merge into one bad token.
        sep = " " if ascii else ""
    return sep.join(card_name(k, ascii) for k in range(N_KINDS) for _ in range(int(c[k])))


def validate_counts(counts: object, *, name: str = "counts", total: int | None = None
                    ) -> np.ndarray:
    """Check a hand ``(20,)`` or batch ``(n, 20)`` of card counts (RULES.md §1).

    Entries must be integers 0..4 (integral floats are accepted). If ``total`` is given every
    row must hold exactly that many cards. Returns a C-contiguous ``int8`` array of the same
    shape (the input itself when it already is one). Raises CardError with a message naming
    ``name``, the offending row (2-D input) and card.

    >>> int(validate_counts(parse_hand("二七十 贰柒拾"), total=6).sum())    # the six red kinds
    6
    >>> validate_counts(parse_hand("一二三"), name="hand", total=20)
    Traceback (most recent call last):
    ...
    zipai_sim.game.cards.CardError: hand totals 3 cards; expected 20
    """
    try:
        a = np.asarray(counts)
    except (ValueError, TypeError) as e:  # ragged nesting and the like
        raise CardError(f"{name} is not a rectangular array: {e}") from None
    if a.ndim not in (1, 2) or a.shape[-1] != N_KINDS:
        raise CardError(f"{name} has shape {a.shape}; expected (20,) or (n, 20)")
    if a.dtype.kind == "f":
        bad = ~np.isfinite(a) | (a != np.round(a))
        if bad.any():
            where = tuple(int(i) for i in np.argwhere(bad)[0])
            raise CardError(f"{name} must hold integers; got {a[where].item()!r} "
                            f"at index {where}")
    elif a.dtype.kind not in "iu":
        raise CardError(f"{name} must hold integers; got dtype {a.dtype}")
    rows = a.reshape(-1, N_KINDS)
    where_row = (lambda r: f" row {r}") if a.ndim == 2 else (lambda r: "")
    for mask, what in ((rows < 0, "negative count"), (rows > COPIES, "too many copies")):
        if mask.any():
            r, k = (int(i) for i in np.argwhere(mask)[0])
            v = int(rows[r, k])
            detail = (f"{v} copies of {_both_names(k)}; the deck holds {COPIES} of each card"
                      if v > COPIES else f"{v} of {_both_names(k)}")
            raise CardError(f"{name}{where_row(r)}: {what}: {detail}")
    if total is not None:
        sums = rows.sum(axis=1, dtype=np.int64)
        off = np.flatnonzero(sums != total)
        if off.size:
            r = int(off[0])
            raise CardError(f"{name}{where_row(r)} totals {int(sums[r])} cards; expected {total}")
    return np.ascontiguousarray(a, dtype=np.int8)


def full_deck_counts() -> np.ndarray:
    """The whole 80-card deck as counts ``int8[20]``: four of every card (RULES.md §1).

    >>> int(full_deck_counts().sum()), format_hand(full_deck_counts())[:8]
    (80, '一一一一二二二二')
    """
    return np.full(N_KINDS, COPIES, dtype=np.int8)
