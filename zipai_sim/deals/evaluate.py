"""Opening-hand evaluation, the best decomposition, and waits (听): RULES.md §3, §4, §6.

Inputs are validated here and handed to the numba kernels as plain arrays; ``explain`` uses the
pure-Python reference (one hand, and it keeps the groups) and checks its total against the kernel.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import NoReturn

import numpy as np
import polars as pl

from zipai_sim.game import params as p
from zipai_sim.game import reference as ref
from zipai_sim.game.cards import (
    CardError,
    card_name,
    format_hand,
    parse_card,
    parse_hand,
    validate_counts,
)
from zipai_sim.game.variants import Variant, load_variant
from zipai_sim.kernels import batch as kbatch
from zipai_sim.kernels import hand as khand

GROUP_NAMES = {"ti": "提", "pao": "跑", "kan": "坎", "wei": "偎", "peng": "碰", "shun": "顺",
               "erqishi": "二七十", "jiao": "绞", "jiang": "将"}
_INSTANT = {khand.INSTANT_NONE: "", khand.INSTANT_SANTI: "santi", khand.INSTANT_WUKAN: "wukan"}
#: dtype of ``evaluate_opening``'s ``instant`` column; its physical codes are the kernel's
INSTANT = pl.Enum([_INSTANT[k] for k in range(len(_INSTANT))])
# the ``instant`` column from the kernel's UInt8 codes ("c"): one when/then over the codes, which
# polars evaluates on its own threads (10⁷ rows: 4 ms, against 16 for adopting the codes with
# ``Series.cat.to`` and 18 for a gather)
_INSTANT_EXPR = pl.lit(_INSTANT[khand.INSTANT_NONE], dtype=INSTANT)
for _code in sorted(set(_INSTANT) - {khand.INSTANT_NONE}, reverse=True):
    _INSTANT_EXPR = (pl.when(pl.col("c") == _code).then(pl.lit(_INSTANT[_code], dtype=INSTANT))
                     .otherwise(_INSTANT_EXPR))
_INSTANT_EXPR = _INSTANT_EXPR.alias("instant")
# the Boolean columns from the bits of the kernel's flags byte ("f")
_COMPLETE = ((pl.col("f") & kbatch.COMPLETE) != 0).alias("complete")
_WIN = ((pl.col("f") & kbatch.WIN) != 0).alias("win")
_CARD_NAMES = pl.Series([card_name(k) for k in range(20)], dtype=pl.String)
_WAITS_SCHEMA = {"hand": pl.Int64, "kind": pl.Int64, "card": pl.String, "huxi_self": pl.Int64,
                 "huxi_other": pl.Int64, "win_self": pl.Boolean, "win_other": pl.Boolean}

HandLike = str | np.ndarray | list


def as_counts(hand: HandLike, name: str = "hand") -> np.ndarray:
    """Hand text (字牌 or s1..b10 notation) or counts → validated ``int8[20]`` or ``int8[n, 20]``.
    Raises CardError (a ValueError) naming the bad token or card.

    >>> as_counts("二 s2 贰").tolist()[:3], as_counts([[0] * 19 + [4]]).shape
    ([0, 2, 0], (1, 20))
    """
    if isinstance(hand, str):
        return parse_hand(hand)
    return validate_counts(hand, name=name)


def _check_size(c: np.ndarray, lo: int, hi: int, what: str) -> None:
    """Every row's card total within ``lo..hi`` (RULES.md §2 hand sizes), else CardError."""
    totals = c.reshape(-1, 20).sum(axis=1)
    bad = np.nonzero((totals < lo) | (totals > hi))[0]
    if bad.size:
        r = int(bad[0])
        row = f" row {r}" if c.ndim == 2 else ""
        raise CardError(f"{what}{row} holds {int(totals[r])} cards; expected {lo}"
                        + (f"..{hi}" if hi != lo else ""))


def _as_batch(hand: HandLike, name: str) -> tuple[np.ndarray, np.ndarray]:
    """``hand`` as ``as_counts`` reads it, and as the C-contiguous ``int8[n, 20]`` the batch
    kernels take (n = 1 for one hand; an ``int8`` array is used as it is where it can be)."""
    if (isinstance(hand, np.ndarray) and hand.dtype == np.int8 and hand.ndim in (1, 2)
            and hand.shape[-1] == 20):
        c = hand
    else:
        c = as_counts(hand, name)
    c2 = c.reshape(-1, 20)
    # one array layout for the kernels (a strided or read-only view would compile another)
    if not (c2.flags.c_contiguous and c2.flags.writeable and c2.ctypes.data % 4 == 0):
        c2 = c2.copy()
    return c, c2


def _refuse(c: np.ndarray, name: str, lo: int, hi: int, what: str) -> NoReturn:
    """Word the CardError for a batch that a kernel's one-pass check refused (the slow checks
    name the row and the problem)."""
    validate_counts(c, name=name)
    _check_size(c, lo, hi, what)
    raise AssertionError(f"the batch check refused a row of {name} that the checks pass")


def _checked(hand: HandLike, name: str, lo: int, hi: int, what: str
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """``hand`` checked as ``as_counts`` and ``_check_size(.., lo, hi, what)`` check it, as
    C-contiguous ``int8[n, 20]`` (n = 1 for one hand), with the number of 提 and 坎 of each row
    (``int64[n]``) and whether ``hand`` was a batch.

    An ``int8`` array is checked in one numba pass (``kernels.batch.check_hands``); only where
    that finds a bad row do the slow checks run, so the CardError is theirs: it names the row (of
    a batch) and the problem (a count outside 0..4, a wrong hand size).
    """
    c, c2 = _as_batch(hand, name)
    n = c2.shape[0]
    ti, kan = np.empty(n, np.int64), np.empty(n, np.int64)
    if kbatch.check_hands(c2.reshape(-1).view(np.uint32), lo, hi, ti, kan) >= 0:
        _refuse(c, name, lo, hi, what)
    return c2, ti, kan, c.ndim == 2


def _card_any(card: int | str, name: str) -> int:
    """A card argument: a card name, or a slot 0..19 as an integer (not a bool or a float)."""
    if isinstance(card, str):
        return parse_card(card)
    if isinstance(card, (bool, np.bool_)) or not isinstance(card, (int, np.integer)) \
            or not 0 <= card < 20:
        raise CardError(f"{name} must be a card slot 0..19 or a card name, got {card!r}")
    return int(card)


def _card(card: int | str | None, hand: np.ndarray, name: str) -> int:
    if card is None:
        return -1
    k = _card_any(card, name)
    if hand[k] >= 4:
        raise CardError(f"{name} {card_name(k)} would be a fifth {card_name(k)}: the hand "
                        f"holds all four")
    return k


def evaluate_opening(counts: HandLike, variant: str | os.PathLike | Variant,
                     liangzhang: int | str | None = None, dealer: bool = True) -> pl.DataFrame:
    """Evaluate whole opening hands: complete or not, best 胡息, instant-win shape, win.

    counts: ``int8[20]`` or ``int8[n, 20]`` (or hand text), the whole opening hand — 提 (4) and
    坎 (3) inside are locked (RULES.md §3). ``liangzhang``: the dealer's shown card, needed only
    where 五坎 counts just when the 亮张 completes it (衡阳, seed 000 ⑴); ``dealer``: whether the
    hands are the dealer's. Returns one row per hand, in order:
    ``complete`` (Boolean), ``huxi`` (Int64 胡息, null when not complete), ``ti`` and ``kan``
    (Int8 counts of 提 and 坎), ``instant`` (the Enum ``INSTANT`` of "", "santi", "wukan"),
    ``win`` (Boolean: instant, or complete with 胡息 ≥ the variant's threshold; 飘胡 where
    allowed). An ``int8`` batch is used as it is (no copy when C-contiguous); other integer
    arrays are converted first.

    >>> evaluate_opening("拾拾拾 壹壹壹 一二三 二七十 四五六 柒捌玖 八八捌", "guangxi-81").row(0)
    (True, 18, 0, 2, '', True)

    Raises CardError for bad hands, naming the row of a batch and the problem (a count outside
    0..4; a size outside a non-dealer's hand to a dealer's + 1, 20..22 (六胡倒 14..16), whatever
    ``dealer`` says and whether the variant deals a two-提 extra card: the evaluation is the
    same for every size in that range; a 亮张 not in the hand), TypeError for a ``dealer`` that
    is not a bool, and VariantError for an unknown variant.
    """
    v = load_variant(variant)
    if not isinstance(dealer, (bool, np.bool_)):
        raise TypeError(f"dealer must be True or False, got {dealer!r}")
    # a dealer's hand, a non-dealer's + the 亮张, or either + a two-提 extra card (§2, §6)
    lo, hi, what = v.layout.other_cards, v.layout.dealer_cards + 1, "an opening hand"
    c, c2 = _as_batch(counts, "counts")
    n = c2.shape[0]
    k = -1 if liangzhang is None else _card_any(liangzhang, "liangzhang")
    # ti, kan: int8 (0..5), 20 MB for 10⁷ hands, not 160; numba's allocation (no huge-page
    # advice: kbatch.opening_outputs)
    huxi, inst, ti, kan, flags = kbatch.opening_outputs(n)
    # one pass checks, counts and evaluates every row; the slow checks word a refusal
    if n and kbatch.evaluate_checked(c2, lo, hi, k, 1 if dealer else 0, v.params, huxi, inst,
                                     ti, kan, flags) >= 0:
        _refuse(c, "counts", lo, hi, what)
    if k >= 0:
        bad = np.nonzero(c2[:, k] == 0)[0]
        if bad.size:
            raise CardError(f"liangzhang {card_name(k)} is not in hand row {int(bad[0])}")
    # polars turns the flag bits into its Boolean bitmaps and the instant codes into the Enum,
    # all columns in one parallel select
    return pl.DataFrame({"f": flags, "h": huxi, "ti": ti, "kan": kan, "c": inst.view(np.uint8)}
                        ).select(_COMPLETE, pl.when(_COMPLETE).then("h").alias("huxi"), "ti",
                                 "kan", _INSTANT_EXPR, _WIN)


@dataclass(frozen=True)
class Explanation:
    """The best decomposition of a hand (RULES.md §4: the maximum over all decompositions).

    groups: ``(name, cards text, 胡息)`` per group, name in pinyin (ti 提, pao 跑, kan 坎, wei 偎,
    peng 碰, shun 顺, erqishi 二七十, jiao 绞, jiang 将); huxi: total 胡息 (-1 when not complete).
    """

    hand: str
    incoming: str
    groups: tuple[tuple[str, str, int], ...]
    huxi: int
    complete: bool
    instant: str
    win: bool
    threshold: int

    def __str__(self) -> str:
        head = self.hand + (f" + {self.incoming}" if self.incoming else "")
        if not self.complete:
            lines = [f"{head}: not complete (the cards do not all form groups)"]
        else:
            lines = [f"{head}: complete, {self.huxi} 胡息"]
            for name, cards, hx in self.groups:
                label, shown = GROUP_NAMES[name], cards
                # CJK characters are two columns wide: pad by display width
                lines.append(f"  {label}{' ' * (8 - 2 * len(label))}{shown}"
                             f"{' ' * (10 - 2 * len(shown))}{hx:>3}")
        if self.instant:
            lines.append(f"instant win at the deal: {self.instant} "
                         f"({'三提' if self.instant == 'santi' else '五坎'})")
        lines.append(f"win: {'yes' if self.win else 'no'} (threshold {self.threshold} 胡息)")
        return "\n".join(lines)


def explain(hand: HandLike, variant: str | os.PathLike | Variant, incoming: int | str | None = None,
            source: str = "self", liangzhang: int | str | None = None) -> Explanation:
    """Best decomposition of ``hand`` (``int8[20]`` or text), optionally with an ``incoming`` card
    from ``source`` "self" (own draw) or "other" (another player's card), per RULES.md §6.

    >>> e = explain("贰贰贰贰 一二三 二七十 四五六 伍陆柒 捌捌八 玖玖", "guangxi-81")
    >>> e.huxi, e.groups[0], e.win
    (18, ('ti', '贰贰贰贰', 12), True)

    ``liangzhang``: the dealer's shown card, for the instant shape (衡阳's 亮张-made 五坎, seed
    000 ⑴); it must be in the hand. An instant win (三提/五坎, RULES.md §6) needs no complete
    shape: such a hand can give ``win`` True with ``complete`` False and ``huxi`` -1.

    Raises CardError for a bad hand or card (a 亮张 not in the hand included), ValueError for a
    bad source.
    """
    v = load_variant(variant)
    c = as_counts(hand)
    if c.ndim != 1:
        raise CardError("explain takes one hand, not a batch")
    if source not in ("self", "other"):
        raise ValueError(f"source must be 'self' or 'other', got {source!r}")
    inc = _card(incoming, c, "incoming")
    if incoming is None and source != "self":
        raise ValueError("source only applies to an incoming card: give incoming too")
    # any hand in play (it shrinks as groups go to the table) up to a dealt hand + one card
    _check_size(c, 1 if inc >= 0 else 2, v.layout.dealer_cards + (0 if inc >= 0 else 1), "hand")
    P = v.params
    huxi, groups = ref.best(c, P, inc, source == "self")
    work = np.zeros(khand.WORK, np.int64)
    kern = khand.eval_hand(c, inc, 1 if source == "self" else 0, 0, 0, P, work)
    if kern != huxi:  # the kernel and its reference twin must agree; tests guard this
        raise AssertionError(f"kernel {kern} != reference {huxi} for {format_hand(c)}")
    lz = -1 if liangzhang is None else _card_any(liangzhang, "liangzhang")
    if lz >= 0 and c[lz] == 0:
        raise CardError(f"liangzhang {card_name(lz)} is not in the hand")
    inst = ref.instant(c, P, True, lz) if inc < 0 else ""
    shown = tuple((g.name, "".join(card_name(k) for k in g.cards), g.huxi) for g in groups)
    return Explanation(format_hand(c), card_name(inc) if inc >= 0 else "", shown, huxi,
                       huxi >= 0, inst, bool(inst) or ref.is_win(huxi, P), P[p.THRESHOLD])


def waits(hand: HandLike, variant: str | os.PathLike | Variant, table_huxi: int = 0,
          table_fours: int = 0) -> pl.DataFrame:
    """听: the incoming cards that complete ``hand`` and the 胡息 reached (RULES.md §6).

    hand: one hand ``int8[20]`` (or hand text) or a batch ``int8[n, 20]``, each of 1 up to a
    dealt dealer hand's cards; ``table_huxi``/``table_fours``: 胡息 and four-card groups already
    on the table (play engine), the same for every row. One row per completing kind of a hand,
    by kind: ``kind`` (slot, Int64), ``card`` (字牌, String), ``huxi_self`` (as one's own draw)
    and ``huxi_other`` (as another player's card; Int64, null when that way does not complete),
    ``win_self``/``win_other`` (Boolean: reaches the threshold, or 飘胡 where allowed). A batch
    gives one long frame, with a first column ``hand`` (Int64, the row of the batch) and its rows
    in order of hand, then kind; a hand with no wait has no row.

    >>> w = waits("一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十", "guangxi-81")
    >>> w.select("card", "huxi_self", "huxi_other").rows()
    [('二', 12, 12), ('十', 12, 10), ('拾', 9, 9)]
    >>> waits(np.stack([parse_hand("一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十"),
    ...                 parse_hand("一二")]), "guangxi-81").select("hand", "card").rows()
    [(0, '二'), (0, '十'), (0, '拾'), (1, '三')]

    Raises CardError for a bad hand (naming the row of a batch and the problem), ValueError for
    a bad ``table_huxi``/``table_fours``, VariantError for an unknown variant.
    """
    v = load_variant(variant)
    c2, _, _, batch = _checked(hand, "hand", 1, v.layout.dealer_cards, "hand")
    for name, x in (("table_huxi", table_huxi), ("table_fours", table_fours)):
        if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 0:
            raise ValueError(f"{name} must be a non-negative integer, got {x!r}")
    n = c2.shape[0]
    out = np.empty((n, 20, 2), np.int64)
    if n:
        kbatch.waits_batch(c2, np.full(n, int(table_huxi), np.int64),
                           np.full(n, int(table_fours), np.int64), v.params, out)
    # kinds that complete either way (np.maximum: much faster than any(axis=2) here)
    rows, kinds = np.nonzero(np.maximum(out[:, :, 0], out[:, :, 1]) >= 0)
    hx_self, hx_other = out[rows, kinds, 0], out[rows, kinds, 1]
    P = v.params

    def wins(hx: np.ndarray) -> np.ndarray:  # reference.is_win, vectorised
        return (hx >= 0) & ((hx >= P[p.THRESHOLD]) | ((P[p.PIAOHU] == 1) & (hx == 0)))

    df = pl.DataFrame({"hand": rows, "kind": kinds, "card": _CARD_NAMES.gather(kinds),
                       "huxi_self": hx_self, "huxi_other": hx_other,
                       "win_self": wins(hx_self), "win_other": wins(hx_other)},
                      schema=_WAITS_SCHEMA)
    df = df.with_columns(pl.when(pl.col(c) >= 0).then(c).alias(c)
                         for c in ("huxi_self", "huxi_other"))
    return df if batch else df.drop("hand")
