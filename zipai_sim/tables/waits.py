"""The hand calculator: a hand's waits (听), their 胡息, and the chance one of them comes before
the stock runs out (RULES.md §3–§6).

The draw model (``p_exact`` and its Monte Carlo twin ``p_sim``). From the player's seat the
stock and the other players' hidden cards are exchangeable: the ``stock`` cards still to be
drawn, and the ``discards`` the player will yet see, are a uniformly random sample, without
replacement, of the ``U`` cards the player cannot see (``unseen``). Of the stock the player draws
``own_draws`` (default ⌈stock / players⌉: the player draws next, then every players-th card) and
the others the rest. Every drawn card is shown and may be won on (RULES.md §5.2): an own draw
scores as the player's own card (``huxi_self``: a pair makes a 偎, a 坎 a 提), another player's
draw as another's card (``huxi_drawn``: a pair may make a 碰, a 坎 a 跑, a 碰 on the table a 跑),
a discard likewise but never onto a 碰 (``huxi_discard``, seed 001) and only where the variant
lets a player win on a discard (§8). A card wins when its 胡息 reaches the threshold (§6).
``p_exact`` is the chance at least one of those cards wins, counted exactly; the model ignores
other players winning first, 吃/碰 and forced 偎/跑 that change the hand before the wait comes,
and turn-order jumps after claims.

``p_play`` is measured instead: a non-dealer's 20 dealt cards (14 in 六胡倒) are dealt to
``seat`` with the other 60 shuffled around them, every seat plays the greedy policy with the
numba play engine (``kernels.play``), and ``p_play`` is the share of hands the seat wins (on that
card, in the per-wait rows): everything the model leaves out is in it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import polars as pl

from zipai_sim.deals.evaluate import HandLike, as_counts
from zipai_sim.game import params as p
from zipai_sim.game import reference as ref
from zipai_sim.game.cards import CardError, card_name, format_hand, parse_hand
from zipai_sim.game.variants import Variant, load_variant
from zipai_sim.kernels import hand as khand
from zipai_sim.report import DEFAULT_SEED, ReportFrame
from zipai_sim.runs.chunks import check_seed
from zipai_sim.tables.output import with_wilson
from zipai_sim.tables.waits_mc import simulate_draws, simulate_play

VariantLike = str | os.PathLike | Variant

MELD_KINDS = {"碰": "peng", "peng": "peng", "偎": "wei", "wei": "wei", "扫": "wei", "罩": "wei",
              "臭偎": "chouwei", "chouwei": "chouwei", "过扫": "chouwei", "死罩": "chouwei",
              "跑": "pao", "pao": "pao", "开舵": "pao", "开招": "pao", "提": "ti", "ti": "ti",
              "龙": "ti", "吃": "chi", "chi": "chi"}
_SIZE = {"peng": 3, "wei": 3, "chouwei": 3, "pao": 4, "ti": 4, "chi": 3}
_PTS = {"wei": p.WEI_SMALL, "chouwei": p.CHOUWEI_SMALL, "pao": p.PAO_SMALL, "ti": p.TI_SMALL}

CALC_SCHEMA = {
    "card": pl.String, "kind": pl.Int64, "huxi_self": pl.Int64, "huxi_drawn": pl.Int64,
    "huxi_discard": pl.Int64, "win_self": pl.Boolean, "win_drawn": pl.Boolean,
    "win_discard": pl.Boolean, "unseen": pl.Int64, "p_exact": pl.Float64,
    "sim_count": pl.Int64, "sim_n": pl.Int64, "p_sim": pl.Float64, "sim_low": pl.Float64,
    "sim_high": pl.Float64, "play_count": pl.Int64, "play_n": pl.Int64, "p_play": pl.Float64,
    "play_low": pl.Float64, "play_high": pl.Float64,
}


@dataclass(frozen=True)
class Meld:
    """A group on the table: ``name`` (peng, wei, chouwei, pao, ti, chi), the card kinds, 胡息."""

    name: str
    cards: tuple[int, ...]
    huxi: int


def _meld_points(P: tuple, name: str, cards: tuple[int, ...]) -> int:
    k = cards[0]
    if name == "peng":
        return int(khand.peng_points(P, k))
    if name in _PTS:
        return P[_PTS[name] + (1 if k >= 10 else 0)]
    s = sorted(cards)  # 吃 (with 比): a free 3-card group (§3); 一二三 and 二七十 score (§4)
    size = s[0] // 10 * 10
    if s == [size, size + 1, size + 2]:
        return P[p.YIERSAN_BIG if size else p.YIERSAN_SMALL]
    if s == [size + 1, size + 6, size + 9]:
        return P[p.ERQISHI_BIG if size else p.ERQISHI_SMALL]
    return 0


def _is_free_group(cards: tuple[int, ...]) -> bool:
    s = sorted(cards)
    a, b, c = s
    if a // 10 == b // 10 == c // 10:
        return (b == a + 1 and c == a + 2 and a % 10 <= 7) or (a % 10, b % 10, c % 10) == (1, 6, 9)
    return a % 10 == b % 10 == c % 10 and not a == b == c  # 绞: one value, both sizes


def parse_melds(melds: str | Sequence[str | tuple[str, str]] | None,
                variant: VariantLike) -> list[Meld]:
    """Table groups from text: ``"碰 五五五; 吃 一二三"`` (groups split by ``;`` or ``|``), or a
    list of such strings or of ``(kind, cards)`` pairs. Kinds in Chinese or pinyin: 碰 peng,
    偎 wei, 臭偎 chouwei, 跑 pao, 提 ti, 吃 chi (any run, 二七十 or 绞; RULES.md §3). 胡息 from
    the variant's §4 table. Raises CardError for an unknown kind or cards that are not that
    group."""
    if melds is None:
        return []
    if isinstance(melds, str):
        melds = [m for m in melds.replace("|", ";").split(";") if m.strip()]
    P = load_variant(variant).params
    out = []
    for m in melds:
        if isinstance(m, tuple):
            kind, text = m
        else:
            t = m.strip().replace(":", " ").replace("：", " ")
            head = t.split(None, 1)[0] if t else ""
            kind = next((k for k in sorted(MELD_KINDS, key=len, reverse=True)
                         if head.lower() == k or t.startswith(k)), None)
            if kind is None:
                raise CardError(f"table group {m!r}: start with its kind, one of "
                                f"碰 偎 臭偎 跑 提 吃 (or peng wei chouwei pao ti chi)")
            text = t[len(kind):]
        name = MELD_KINDS.get(kind.strip().lower() if kind.isascii() else kind.strip())
        if name is None:
            raise CardError(f"table group {m!r}: unknown kind {kind!r}")
        c = parse_hand(text)
        cards = tuple(int(k) for k in range(20) for _ in range(int(c[k])))
        size_ok = len(cards) == _SIZE[name]
        shape_ok = size_ok and (_is_free_group(cards) if name == "chi" else len(set(cards)) == 1)
        if not shape_ok:
            what = "a run, 二七十 or 绞" if name == "chi" else f"{_SIZE[name]} identical cards"
            got = format_hand(c) or "none"
            raise CardError(f"table group {m!r}: a {name} is {what}, got {got}")
        out.append(Meld(name, cards, _meld_points(P, name, cards)))
    return out


def _wait_rows(hand: np.ndarray, melds: list[Meld], P: tuple) -> list[dict]:
    """Completing kinds and their 胡息 by source (own draw, another's draw, a discard), §6 as
    ``play.engine.Game.placements``: the card joins the hand, or turns a table 偎 into a 提
    (own) / 跑 (another's), or a 碰 into a 跑 (a drawn card only). Such a forced group binds the
    winner: the card may go to the hand instead only for a 跑 with 抢招和."""
    th = sum(m.huxi for m in melds)
    fo = sum(1 for m in melds if len(m.cards) == 4)
    work = np.zeros(khand.WORK, np.int64)
    rows = []
    for k in range(20):
        if hand[k] >= 4:
            continue
        base_self = int(khand.eval_hand(hand, k, 1, th, fo, P, work))
        base_other = int(khand.eval_hand(hand, k, 0, th, fo, P, work))
        hx = {"self": base_self, "drawn": base_other, "discard": base_other}
        for m in melds:
            if m.cards != (k, k, k):
                continue
            for src in ("self", "drawn", "discard"):
                if m.name in ("wei", "chouwei"):
                    new = "ti" if src == "self" else "pao"
                elif m.name == "peng" and src != "discard":
                    new = "pao"
                else:
                    continue
                up = P[_PTS[new] + (1 if k >= 10 else 0)]
                r = int(khand.eval_hand(hand, -1, 1, th - m.huxi + up, fo + 1, P, work))
                free_ok = new == "pao" and P[p.QIANGZHAO] == 1
                hx[src] = max(hx[src], r) if free_ok else r
        if not P[p.DISCARD_WIN]:
            hx["discard"] = -1  # a discard never wins here (RULES.md §8): nothing to show
        if max(hx.values()) >= 0:
            rows.append({"card": card_name(k), "kind": k,
                         **{f"huxi_{s}": (v if v >= 0 else None) for s, v in hx.items()},
                         **{f"win_{s}": ref.is_win(v, P) for s, v in hx.items()}})
            if not P[p.DISCARD_WIN]:
                rows[-1]["win_discard"] = None
    return rows


def p_none(unseen: np.ndarray, wins: np.ndarray, draws: tuple[int, int, int]) -> Fraction:
    """Exact P(no card wins) when ``draws = (d, e, D)`` cards (own draws, others' draws,
    discards) are a uniform sample without replacement of the ``unseen`` cards (counts
    ``int[20]``); ``wins: bool[20, 3]`` says whether kind ``k`` wins from each source.

    Counts the ways to pick, kind by kind, how many copies go to each source (none to a source
    the kind wins from), the kinds that never win pooled, over the multinomial number of all
    picks."""
    d, e, D = draws
    U = int(np.sum(unseen))
    total = math.comb(U, d) * math.comb(U - d, e) * math.comb(U - d - e, D)
    states = {(0, 0, 0): 1}
    pool = 0
    for k in range(20):
        u = int(unseen[k])
        if u == 0:
            continue
        if not wins[k].any():
            pool += u
            continue
        nxt: dict[tuple[int, int, int], int] = {}
        for i in range(0 if wins[k, 0] else u, -1, -1):
            for j in range(0 if wins[k, 1] else u - i, -1, -1):
                for m in range(0 if wins[k, 2] else u - i - j, -1, -1):
                    coef = math.comb(u, i) * math.comb(u - i, j) * math.comb(u - i - j, m)
                    for (a, b, c), w in states.items():
                        key = (a + i, b + j, c + m)
                        if key[0] <= d and key[1] <= e and key[2] <= D:
                            nxt[key] = nxt.get(key, 0) + w * coef
        states = nxt
    ways = 0
    for (a, b, c), w in states.items():
        ways += w * math.comb(pool, d - a) * math.comb(pool - d + a, e - b) * \
            math.comb(pool - d + a - e + b, D - c)
    return Fraction(ways, total)


def _nonneg(x: object, name: str) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {x!r}")
    return int(x)


def calculate(hand: HandLike, variant: VariantLike,
              melds: str | Sequence[str | tuple[str, str]] | None = None,
              unseen: HandLike | None = None, stock: int | None = None,
              seen: HandLike | None = None, own_draws: int | None = None, discards: int = 0,
              sims: int = 0, play: int = 0, seat: int = 1,
              policies: str | Sequence[str] = "greedy",
              seed: int = DEFAULT_SEED, progress: bool | None = False,
              client: object = None) -> pl.DataFrame:
    """The 听 table of one hand: each card that completes it, its 胡息, and the chance it comes.

    ``hand``: the cards in hand (字牌 text or ``int8[20]``); ``melds``: the player's groups on
    the table (``parse_melds``: ``"碰 五五五; 吃 一二三"``); ``unseen``: the cards the player
    cannot see (default: the deck less the hand, the table groups and ``seen``, the other cards
    the player has seen); ``stock``: cards left to draw (default: the variant's whole stock, 19
    or 23); ``own_draws``: how many of them the player draws (default ⌈stock / players⌉);
    ``discards``: how many other players' discards the player will yet see (only where the
    variant lets a player win on a discard). See the module docstring for the model.

    Returns one row per completing kind, then the row ``card = "any"``: ``card, kind``,
    ``huxi_self / huxi_drawn / huxi_discard`` (胡息 with the card as the player's own draw,
    another player's draw, a discard; null where it does not complete) and ``win_*`` (reaches
    the threshold; both discard columns are null where the variant has no win on a discard,
    RULES.md §8), ``unseen`` (copies the player cannot see; for "any", of all winning kinds),
    ``p_exact`` (Float64, the draw model counted exactly), ``sim_count, sim_n, p_sim, sim_low,
    sim_high`` (the same model by ``sims`` random draws, Wilson 95%), ``play_count, play_n,
    p_play, play_low, play_high`` (``play`` hands played by ``policies`` from the deal with the
    hand at ``seat``, a non-dealer; the seat wins, on that card for a kind's row). Unrun
    columns are null. ``seed`` (default 20261129, as on the command line) seeds ``sims`` and
    ``play``, chunk by chunk (``tables.waits_mc``): ``progress=None`` shows a bar, Ctrl-C
    keeps the trials finished (``sim_n``/``play_n``; the header says PARTIAL), ``client`` (a
    ``dask.distributed.Client``) runs the chunks on its workers with the same counts. The
    table is a ``report.ReportFrame``: in a notebook it shows as ``zipai-sim table waits``
    prints it, with the ``legend`` of its columns.

    >>> t = calculate("一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十", "changsha-paohuzi")
    >>> t.select("card", "huxi_self", "huxi_drawn", "unseen",
    ...          pl.col("p_exact").round(4)).rows()  # doctest: +NORMALIZE_WHITESPACE
    [('二', 12, 12, 3, 0.6885), ('十', 12, 10, 2, 0.5367), ('拾', 9, 9, 4, 0.0),
     ('any', None, None, 5, 0.8628)]

    (长沙 wins at 10 胡息: 二 and 十 win, 拾 reaches only 9.) Raises CardError for a bad hand,
    table group or card text, for more copies of a card between hand, table, seen and unseen
    cards than the four there are, and for more or fewer cards than a player holds at rest
    (§5.3);
    ValueError for a stock, draw or discard count the unseen cards cannot supply, for discards
    where the variant has no win on a discard, for ``play`` with an in-play hand, and for a
    seed outside 0..2**128 − 1.
    """
    v = load_variant(variant)
    P = v.params
    c = as_counts(hand)
    if c.ndim != 1:
        raise CardError("calculate takes one hand, not a batch")
    ms = parse_melds(melds, v)
    table = np.zeros(20, np.int64)
    for m in ms:
        for k in m.cards:
            table[k] += 1
    seen_c = np.zeros(20, np.int64) if seen is None else as_counts(seen, "seen").astype(np.int64)
    held = c.astype(np.int64) + table + seen_c
    unseen_c = 4 - held if unseen is None else as_counts(unseen, "unseen").astype(np.int64)
    over = np.nonzero(held + (unseen_c if unseen is not None else 0) > 4)[0]
    if over.size:
        k = int(over[0])
        parts = [f"hand {int(c[k])}", f"table {int(table[k])}", f"seen {int(seen_c[k])}"]
        if unseen is not None:
            parts.append(f"unseen {int(unseen_c[k])}")
        total = int(held[k] + (unseen_c[k] if unseen is not None else 0))
        raise CardError(f"{total} copies of {card_name(k)} ({', '.join(parts)}); there are only "
                        f"four of each card (RULES.md §1)")
    n_cards = int(c.sum()) + int(table.sum())
    fours = sum(1 for m in ms if len(m.cards) == 4) + int((c == 4).sum())
    most = v.layout.other_cards + max(0, fours - 1)
    if int(c.sum()) == 0:
        raise CardError("the hand is empty")
    if n_cards > most:
        raise CardError(f"hand and table groups hold {n_cards} cards; a player at rest holds at "
                        f"most {most} (RULES.md §5.3): discard first")
    if n_cards < most:  # every claim lays down the cards it takes and is followed by a discard
        raise CardError(f"hand and table groups hold {n_cards} cards; a player at rest holds "
                        f"{most} (RULES.md §5.3: {v.layout.other_cards} dealt, one more for each "
                        f"提/跑 after the first): a card or a table group is missing")
    U = int(unseen_c.sum())
    stock = P[p.STOCK_LEN] if stock is None else _nonneg(stock, "stock")
    if stock > P[p.STOCK_LEN]:
        raise ValueError(f"stock must be ≤ {P[p.STOCK_LEN]}, the {v.key} stock, got {stock}")
    seats = P[p.SEATS]
    d = -(-stock // seats) if own_draws is None else _nonneg(own_draws, "own_draws")
    if d > stock:
        raise ValueError(f"own_draws ({d}) cannot exceed the stock ({stock})")
    discards = _nonneg(discards, "discards")
    if discards and not P[p.DISCARD_WIN]:
        raise ValueError(f"{v.key} has no win on a discard (RULES.md §8): discards must be 0")
    if stock + discards > U:
        raise ValueError(f"{stock} stock cards + {discards} discards to see, but only {U} "
                         f"unseen cards")
    sims, play = _nonneg(sims, "sims"), _nonneg(play, "play")
    seed = check_seed(seed)
    draws = (d, stock - d, discards)

    rows = _wait_rows(c, ms, P)
    kinds = [r["kind"] for r in rows]
    wins = np.zeros((20, 3), bool)
    for r in rows:
        wins[r["kind"]] = (r["win_self"], r["win_drawn"], r["win_discard"])
    for r in rows:
        only = np.zeros((20, 3), bool)
        only[r["kind"]] = wins[r["kind"]]
        r["unseen"] = int(unseen_c[r["kind"]])
        r["p_exact"] = float(1 - p_none(unseen_c, only, draws))
    rows.append({"card": "any", "kind": None, "unseen": int(unseen_c[wins.any(axis=1)].sum()),
                 "p_exact": float(1 - p_none(unseen_c, wins, draws))})
    done, asked = [], []
    if sims:  # Ctrl-C keeps the trials finished (runs.run_batches), in both runs
        run = simulate_draws(unseen_c, wins, kinds, draws, sims, seed, progress, client)
        for r, x in zip(rows, run.state[1] + [run.state[0]]):
            r["sim_count"], r["sim_n"] = x, run.done
        done.append(run.done)
        asked.append(sims)
    if play:
        h = v.layout.other_cards
        if ms or unseen is not None or seen is not None or stock != P[p.STOCK_LEN] \
                or int(c.sum()) != h:
            raise ValueError(f"play simulation starts from the deal: give a non-dealer's {h} "
                             f"dealt cards, without melds, unseen, seen or stock")
        if not 1 <= seat < seats:
            raise ValueError(f"seat must be a non-dealer seat 1..{seats - 1}, got {seat}")
        run = simulate_play(v, c, seat, kinds, play, policies, seed, progress, client) \
            if not (done and done[-1] < sims) else None  # interrupted: start no more
        got = run.state if run is not None else (0, [0] * len(kinds))
        for r, x in zip(rows, got[1] + [got[0]]):
            r["play_count"], r["play_n"] = x, 0 if run is None else run.done
        done.append(0 if run is None else run.done)
        asked.append(play)
    df = pl.DataFrame(rows, schema={k: CALC_SCHEMA[k] for k in CALC_SCHEMA
                                    if k in ("card", "kind", "huxi_self", "huxi_drawn",
                                             "huxi_discard", "win_self", "win_drawn",
                                             "win_discard", "unseen", "p_exact", "sim_count",
                                             "sim_n", "play_count", "play_n")})
    df = with_wilson(df, "sim_count", "sim_n", ("p_sim", "sim_low", "sim_high"))
    df = with_wilson(df, "play_count", "play_n", ("p_play", "play_low", "play_high"))
    extra = [f"stock {stock} (own draws {d}), {discards} discards to see, {U} unseen cards"]
    sims_done = done[0] if sims else 0
    play_done = done[-1] if play else 0
    extra += [f"{sims_done:,} draws of the model"] if sims else []
    bot = policies if isinstance(policies, str) else ", ".join(policies)
    extra += [f"{play_done:,} hands played ({bot}), seat {seat}"] if play else []
    if done != asked:  # Ctrl-C: the counts are of the trials finished
        extra.append("PARTIAL: interrupted after " + " and ".join(
            f"{x:,} of {y:,} {w}" for x, y, w in zip(
                done, asked, (["draws"] if sims else []) + (["hands"] if play else []))))
    run = {"variants": [(v.key, v.rules_hash)], "thresholds": [v.win.threshold],
           "seed": seed if sims or play else None, "extra": extra,
           "policies": policies if play else None}
    return ReportFrame.wrap(df.select(list(CALC_SCHEMA)).cast(CALC_SCHEMA),  # type: ignore
                            run, legend(sims > 0, play > 0, bot))


def legend(sims: bool = True, play: bool = True, bot: str = "greedy") -> list[str]:
    """The lines printed under a ``calculate`` table: what each column and the ``any`` row mean
    (the columns of an unrun part, no ``sims`` or ``play``, are left out)."""
    lines = [
        ("huxi_self / huxi_drawn / huxi_discard: 胡息 with the card as your own draw / another "
         "player's draw / a discard (blank: it does not complete); win_*: it reaches the "
         "threshold"),
        ("unseen: copies you cannot see; p_exact (%): chance that the card turns up where it "
         "wins before the stock runs out (draw model: unseen cards dealt at random; others "
         "winning first and changes to the hand ignored), counted exactly")]
    if sims:
        lines.append("p_sim (%): the same draw model by random draws, with its Wilson 95% "
                     "interval: it should agree with p_exact")
    if play:
        lines.append(f"p_play (%): hands played by {bot} from this deal that the seat won on "
                     "that card (Wilson 95%); play changes the hand, so a card that does not "
                     "win now can win later")
    lines.append("any: at least one of the winning cards (unseen: their copies; p_exact"
                 + (", p_sim" if sims else "") + ": one of them turns up"
                 + ("; p_play: the seat wins the hand at all, on any card" if play else "")
                 + "); not the sum of the rows")
    return lines
