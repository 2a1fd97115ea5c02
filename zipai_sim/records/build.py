"""Building hand records (``records.format``) from a played hand: ``record_from_game`` from a
played ``play.engine.Game``, ``record_from_kernel`` from the numba kernel's move rows
(``kernels.play.log``); both engines write the same record for the same hand.

>>> from zipai_sim.play.trace import play_seeded
>>> game, out = play_seeded("guangxi-81", 2026, 934)
>>> rec = record_from_game(game, out, seed=2026, deal=934, policies=["greedy"] * 3)
>>> [e["event"] for e in rec.events]
['header', 'deal', 'discard', 'chi', 'discard', 'peng', 'discard', 'hu', 'end', 'settlement']
>>> rec.events[3]                           # seat 1 吃 the dealer's 贰, with its 比 (§5.5)
{'event': 'chi', 'seat': 1, 'card': '贰', 'cards': '壹贰叁', 'bi': ['贰柒拾']}
>>> hu = rec.events[7]
>>> hu["how"], hu["huxi"], [g["cards"] for g in hu["groups"]][:3]
('fangpao', 15, ['壹贰叁', '贰柒拾', '二七十'])
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from zipai_sim.game import params as p
from zipai_sim.game.cards import card_name
from zipai_sim.game.hand_result import Settlement
from zipai_sim.game.reference import decompositions
from zipai_sim.game.variants import Variant
from zipai_sim.play import POLICY_NAMES
from zipai_sim.play.registry import DEFAULT_K
from zipai_sim.play.engine import Game
from zipai_sim.play.table import Meld, Outcome, four_from
from zipai_sim.records.format import (
    CARD_EVENTS,
    FORMAT,
    GROUP_EVENTS,
    VERSION,
    HandRecord,
    RecordError,
    cards_text,
)
from zipai_sim.version import __version__


def win_groups(game: Game, s: int, c: int, how: str, huxi: int, instant: str,
               in_hand: bool) -> list[dict]:
    """The groups of seat ``s``'s win on card ``c`` at ``huxi`` 胡息 (RULES.md §3, §4, §6):
    its table groups, then its hand as groups (``reference.decompositions``, the first whose
    胡息 add up to ``huxi``; the card placed as ``Game.placements`` places it: a table 偎/碰 it
    completes becomes that 提/跑). An instant win at the deal (三提/五坎) needs no complete hand:
    its 提 and 坎 score and the other cards are one ``rest`` entry. Raises RecordError when no
    decomposition scores ``huxi`` (the moves do not add up to that win)."""
    pl, P = game.players[s], game.P
    if instant:
        h = pl.hand
        out = [_group("ti" if h[k] == 4 else "kan", (k,) * h[k],
                      game.pts("ti" if h[k] == 4 else "kan", k), False)
               for k in range(20) if h[k] >= 3]
        rest = [k for k in range(20) if h[k] < 3 for _ in range(h[k])]
        return out + ([_group("rest", rest, 0, False)] if rest else [])
    own, drawn = how == "zimo", how != "fangpao"
    th, fo = pl.table_huxi(), pl.fours()
    ways = []  # (hand, incoming card, own, table 胡息, fours, table groups)
    if in_hand:
        ways.append((pl.hand, -1, True, th, fo, pl.melds))
    else:
        free_ok = True
        for m in pl.melds:
            new = four_from(m, c, own, drawn)
            if new is not None:
                four = Meld(new, (c,) * 4, game.pts(new, c))
                ways.append((pl.hand, -1, True, th - m.huxi + four.huxi, fo + 1,
                             [four if x is m else x for x in pl.melds]))
                free_ok = new == "pao" and P[p.QIANGZHAO] == 1  # 抢招和 may skip a 跑
        if free_ok:
            ways.append((pl.hand, c, own, th, fo, pl.melds))
    for hand, inc, o, t, f, melds in ways:
        for d in decompositions(hand, P, inc, o, t, f):
            if t + sum(g.huxi for g in d) == huxi:
                return ([_group(m.name, m.cards, m.huxi, True) for m in melds]
                        + [_group(g.name, g.cards, g.huxi, False) for g in d])
    raise RecordError(f"seat {s}'s cards form no win of {huxi} 胡息 on {card_name(c)}")


def _group(kind: str, cards: Sequence[int], huxi: int, table: bool) -> dict:
    return {"kind": kind, "cards": cards_text(cards), "huxi": int(huxi), "table": table}


def build_record(v: Variant, deck: Sequence[int], moves: Sequence[tuple], wins: dict[int, dict],
                 state: Game, money: Settlement, draws: int, meta: dict) -> HandRecord:
    """The record of a finished hand: ``moves`` as ``Game.moves`` lists them, ``wins`` per
    winning seat (the 胡 event's fields), ``state`` a ``Game`` in the hand's final state (hands
    and table groups), ``money`` the settlement, ``meta`` the header's run fields."""
    seats, h = state.seats, state.h
    lz = int(deck[seats * h])
    dealt = [sorted(int(k) for k in deck[s * h:(s + 1) * h]) for s in range(seats)]
    header = {"event": "header", "format": FORMAT, "version": VERSION, "variant": v.key,
              "rules_hash": v.rules_hash, "threshold": v.win.threshold, "seats": seats,
              "dealer": 0, **meta, "zipai_sim": __version__}
    events = [header, {"event": "deal", "hands": [cards_text(sorted(dealt[0] + [lz]))]
                       + [cards_text(x) for x in dealt[1:]], "liangzhang": card_name(lz),
                       "stock": cards_text(deck[seats * h + 1:])}]
    shown = lz
    for i, (s, what, cards) in enumerate(moves):
        e: dict = {"event": "", "seat": int(s)}
        if what in CARD_EVENTS:
            e["event"], e["card"] = CARD_EVENTS[what], card_name(cards[0])
            shown = cards[0]
        elif what in GROUP_EVENTS or what == "提 (dealt)":
            e["event"], e["cards"] = GROUP_EVENTS.get(what, "ti"), cards_text(cards)
            if what == "提 (dealt)":
                e["dealt"] = True
        elif what.startswith("吃"):
            e.update(event="chi", card=card_name(shown), cards=cards_text(cards[:3]),
                     bi=[cards_text(cards[j:j + 3]) for j in range(3, len(cards), 3)])
        elif what.startswith("胡"):
            w = wins[int(s)]
            in_hand = how_at_deal(moves, i) and w["how"] == "zimo"
            e.update(event="hu", **w, card=card_name(cards[0]),
                     groups=win_groups(state, s, cards[0], w["how"], w["huxi"], w["instant"],
                                       in_hand))
        else:
            raise RecordError(f"unknown move {what!r}")
        events.append(e)
    if not wins:
        events.append({"event": "huang"})
    left = [list(pl.hand) for pl in state.players]
    if any(how_at_deal(moves, i) and s != 0 for i, (s, what, _) in enumerate(moves)
           if what.startswith("胡")):  # a 地胡 on the 亮张: the card won on is in no hand
        left[0][lz] -= 1
    events.append({"event": "end", "draws": int(draws),
                   "hands": [cards_text(k for k in range(20) for _ in range(c[k]))
                             for c in left]})
    events.append({"event": "settlement", "unit": v.settle.unit, "units": money.units,
                   "fanxing_units": money.fanxing_units,
                   "mingtang": [[n, int(x)] for n, x in money.mingtang],
                   "payments": [int(x) for x in money.payments],
                   "next_dealer": money.next_dealer})
    return HandRecord(events)


def how_at_deal(moves: Sequence[tuple], i: int) -> bool:
    """True when move ``i`` is a 胡 at the deal: only 胡 come before it."""
    return all(m[1].startswith("胡") for m in moves[:i + 1])


def _win(how: str, payer: int, huxi: int, instant: str, tianhu: bool, dihu: bool, haidi: bool,
         fanxing: int, all_pungs: bool, shared: bool) -> dict:
    return {"how": how, "payer": int(payer), "huxi": int(huxi), "instant": instant,
            "tianhu": bool(tianhu), "dihu": bool(dihu), "haidi": bool(haidi),
            "fanxing": int(fanxing), "all_pungs": bool(all_pungs), "shared": shared}


def record_from_game(game: Game, out: Outcome, deck: Sequence[int] | None = None, *,
                     seed: int | None = None, deal: int | None = None,
                     chunk_size: int | None = None, policies: Sequence[object] = (),
                     engine: str = "reference") -> HandRecord:
    """The record of a hand the reference engine played (``game`` after ``play()`` returned
    ``out``). ``deck``: the dealt deck; by default the deck of deal ``deal`` of ``seed``
    (``play_seeded``'s). The header keeps ``seed``, ``deal``, ``chunk_size`` and the policy
    names (a user policy object: its class name)."""
    from zipai_sim.game.reference import shuffled_deck
    from zipai_sim.game.settle import settle
    from zipai_sim.play.trace import hand_result
    from zipai_sim.runs.chunks import DEFAULT_CHUNK, chunk_keys

    cs = DEFAULT_CHUNK if chunk_size is None else chunk_size
    if deck is None:
        if seed is None or deal is None:
            raise ValueError("record_from_game needs the deck, or the seed and deal index")
        deck = shuffled_deck(int(chunk_keys(seed, deal // cs, 1)[0]), deal % cs)
    wins = {}
    if out.winner >= 0:
        wins[out.winner] = _win(out.how, out.payer, out.huxi, out.instant, out.tianhu, out.dihu,
                                out.haidi, out.fanxing, out.all_pungs, False)
        for c in out.cowinners:  # the other winners of a shared win at the deal (RULES.md §6)
            wins[c.seat] = _win("zimo", -1, out.huxi, c.instant, False, True, False, c.fanxing,
                                c.all_pungs, True)
    meta = _meta(seed, deal, cs if seed is not None else chunk_size, policies, engine)
    return build_record(game.v, deck, game.moves, wins, game, settle(game.v, hand_result(game,
                        out)), out.draws, meta)


def _meta(seed, deal, chunk_size, policies, engine) -> dict:
    names = [x if isinstance(x, str) else type(getattr(x, "user", x)).__name__ for x in policies]
    return {"seed": seed, "deal": deal, "chunk_size": chunk_size, "policies": names,
            "engine": engine}


def record_from_kernel(v: Variant, deck: Sequence[int], moves, out, *, seed: int | None = None,
                       deal: int | None = None, chunk_size: int | None = None,
                       policies: Sequence[str] = ()) -> HandRecord:
    """The record of a hand the numba kernel played: its move rows and outcome row
    (``kernels.play.play_one``). The final hands and table groups are rebuilt by applying the
    moves to the deal (``apply_moves``), the settlement by ``settle_counts`` of the row."""
    from zipai_sim.game.settle import settle_counts
    from zipai_sim.kernels import play as kp
    from zipai_sim.play.payoffs import row_result

    tuples = [t for t in map(kp.move_tuple, moves) if t is not None]
    wins = {}
    w = int(out[kp.O_WINNER])
    if w >= 0:
        inst = kp.INSTANT_NAMES
        wins[w] = _win(kp.HOW_NAMES[int(out[kp.O_HOW])], out[kp.O_PAYER], out[kp.O_HUXI],
                       inst[int(out[kp.O_INSTANT])], out[kp.O_TIANHU], out[kp.O_DIHU],
                       out[kp.O_HAIDI], out[kp.O_FANXING], out[kp.O_ALL_PUNGS], False)
        for q in range(int(out[kp.O_NCO])):
            b = kp.O_CO + q * kp.CO_COLS
            wins[int(out[b + kp.CO_SEAT])] = _win(
                "zimo", -1, out[kp.O_HUXI], inst[int(out[b + kp.CO_INSTANT])], False, True,
                False, out[b + kp.CO_FANXING], out[b + kp.CO_ALL_PUNGS], True)
    state = apply_moves(v, deck, tuples)
    money = settle_counts(v, *row_result(v, out))
    return build_record(v, deck, tuples, wins, state, money, int(out[kp.O_DRAWS]),
                        _meta(seed, deal, chunk_size, policies, "numba"))


def apply_moves(v: Variant, deck: Sequence[int], moves: Sequence[tuple]) -> Game:
    """A ``Game`` dealt ``deck`` with ``moves`` (``Game.moves`` tuples) applied to its hands and
    table groups, as the engine applies them (RULES.md §5): bookkeeping only, no rule is
    checked. The card on offer is the last one drawn, discarded or dealt (the 亮张)."""
    g = Game(v, list(deck), [None] * v.layout.players)
    shown, extra = g.liangzhang, None
    for s, what, cards in moves:
        pl = g.players[s]
        k = cards[0] if cards else -1
        if extra is not None and not what.startswith("胡"):
            g.players[extra[0]].hand[extra[1]] += 1  # an extra card not won on joins the hand
        extra = None
        if what == "提 (dealt)":
            pl.hand[k] = 0
            pl.melds.append(Meld("ti", (k,) * 4, g.pts("ti", k)))
        elif what in CARD_EVENTS:
            shown = k
            if what == "discards":
                pl.hand[k] -= 1
            elif what == "extra card":
                extra = (s, k)
        elif what in ("偎", "臭偎", "碰"):
            name = {"偎": "wei", "臭偎": "chouwei", "碰": "peng"}[what]
            pl.hand[k] -= 2
            pl.melds.append(Meld(name, (k,) * 3, g.pts(name, k)))
        elif what in ("提", "跑"):
            m = pl.meld_of(k, ("wei", "chouwei", "peng"))
            if m is not None:
                pl.melds.remove(m)
            else:
                pl.hand[k] -= 3
            name = "ti" if what == "提" else "pao"
            pl.melds.append(Meld(name, (k,) * 4, g.pts(name, k)))
        elif what.startswith("吃"):
            groups = [tuple(cards[j:j + 3]) for j in range(0, len(cards), 3)]
            taken = list(cards)
            taken.remove(shown)  # the card claimed is not from the hand
            for x in taken:
                pl.hand[x] -= 1
            pl.melds.extend(Meld("chi", grp, g.run_pts(grp)) for grp in groups)
    return g


# --- records of simulate_hands ---------------------------------------------------------------

def reference_hook(out: list[HandRecord], limit: int, seed: int, chunk: int, chunk_size: int,
                   policies: Sequence[object]):
    """For ``simulate_hands(engine="reference", records=limit)``: a callable
    ``hook(j, game, outcome)`` that appends hand ``j`` of chunk ``chunk``'s record to ``out``
    while it is among the run's first ``limit`` hands; None when no hand of the chunk is."""
    first = chunk * chunk_size
    if first >= limit:
        return None

    def hook(j: int, game: Game, outcome: Outcome) -> None:
        if first + j < limit:
            out.append(record_from_game(game, outcome, seed=seed, deal=first + j,
                                        chunk_size=chunk_size, policies=policies))
    return hook


def kernel_records(v: Variant, seed: int, chunk_size: int, policies: Sequence[str],
                   limit: int, rollout_k: int = DEFAULT_K) -> list[HandRecord]:
    """Records of the first ``limit`` hands of a ``simulate_hands`` run on the numba engine:
    each hand played again by ``kernels.play.play_one``, which plays it move for move as
    ``play_chunks`` does (the batch keeps no moves; ``play.rollout.play_one`` for a line-up
    with a rollout seat, ``rollout_k`` worlds per candidate answer)."""
    from zipai_sim.game.reference import shuffled_deck
    from zipai_sim.kernels import play as kp
    from zipai_sim.play.rollout import play_one
    from zipai_sim.runs.chunks import chunk_keys

    codes = [POLICY_NAMES.index(x) for x in policies]
    scratch = kp.new_scratch()
    recs, key, chunk = [], 0, -1
    for i in range(limit):
        c, j = divmod(i, chunk_size)
        if c != chunk:
            key, chunk = int(chunk_keys(seed, c, 1)[0]), c
        deck = shuffled_deck(key, j)
        moves, row = play_one(v, deck, codes, key, j, scratch, rollout_k)
        recs.append(record_from_kernel(v, deck, moves, row, seed=seed, deal=i,
                                       chunk_size=chunk_size, policies=policies))
    return recs


def external_records(v: Variant, seed: int, chunk_size: int, policies: Sequence[object],
                     limit: int) -> list[HandRecord]:
    """Records of the first ``limit`` hands of a ``simulate_hands`` run whose line-up has batch
    policies (``play.external.BatchPolicy``): the hands played again on the batched table,
    the policies answering as in the run (a deterministic model answers the same), each hand's
    moves rebuilt from its deal and answers (``BatchTable.moves``, which checks them). The
    record names a batch policy by its ``name``; ``record.replay()`` checks the moves against
    the rules as for every record."""
    from zipai_sim.game.reference import shuffled_deck
    from zipai_sim.play.external import lineup, play_deals, policy_name
    from zipai_sim.runs.chunks import chunk_keys

    if limit <= 0:
        return []
    codes, external = lineup(policies)
    h = np.arange(limit, dtype=np.int64)
    keys = chunk_keys(seed, 0, int(h[-1] // chunk_size) + 1)
    hk, hj = keys[h // chunk_size], h % chunk_size
    f, table = play_deals(v, hk, hj, codes, external)
    names = [policy_name(x) for x in policies]
    order = np.argsort(f.hand)
    recs = []
    for i in order:
        d = int(f.hand[i])
        deck = shuffled_deck(int(hk[d]), int(hj[d]))
        moves = table.moves(d, f.answers[i])
        recs.append(record_from_kernel(v, deck, moves, f.rows[i], seed=seed, deal=d,
                                       chunk_size=chunk_size, policies=names))
    return recs
