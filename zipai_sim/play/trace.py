"""Seeded hands as readable traces (OpenSpiel-style playthroughs) for the CLI and regression
tests: deal ``i`` of a seed is the same deck ``deal``/``simulate_deals`` use."""

from __future__ import annotations

import os
from collections.abc import Sequence

from zipai_sim.game.hand_result import CoWinner, HandResult, Settlement, card_counts
from zipai_sim.game.reference import shuffled_deck
from zipai_sim.game.settle import settle
from zipai_sim.game.variants import Variant, load_variant
from zipai_sim.play.engine import Game
from zipai_sim.play.policies import as_policy
from zipai_sim.play.table import Outcome
from zipai_sim.runs.chunks import DEFAULT_CHUNK, check_count, check_seed, chunk_keys


def hand_result(game: Game, out: Outcome) -> HandResult:
    """The settlement input for a finished hand (``zipai_sim.game.settle``): 对子胡 as the engine
    found it (``Outcome.all_pungs``), the other winners of a shared win at the deal."""
    if out.winner < 0:
        return HandResult(seats=game.seats, dealer=0, winner=-1)
    co = tuple(CoWinner(c.seat, *card_counts(c.cards), c.all_pungs, c.fanxing)
               for c in out.cowinners)
    return HandResult(seats=game.seats, dealer=0, winner=out.winner, huxi=out.huxi,
                      cards=out.cards, how=out.how, payer=out.payer, all_pungs=out.all_pungs,
                      tianhu=out.tianhu, dihu=out.dihu, haidi=out.haidi, fanxing=out.fanxing,
                      cowinners=co)


def play_seeded(variant: str | os.PathLike | Variant, seed: int, deal: int = 0,
                policy: str | Sequence[object] = "greedy") -> tuple[Game, Outcome]:
    """Play deal ``deal`` of ``seed`` (chunk size 65536, as ``simulate_deals``) with ``policy``
    (a bot name, ``play.registry``) at every seat, or one policy per seat (names or user policy
    objects, ``policies.as_policy``; seat 0 deals); returns the game (its ``log``) and the outcome.
    Raises ValueError for a bad seed, deal index or policy; VariantError for the variant."""
    v = load_variant(variant)
    seed = check_seed(seed)
    deal = check_count(deal, "deal")
    seats = v.layout.players
    pols = [policy] * seats if isinstance(policy, str) else list(policy)
    if len(pols) != seats:
        raise ValueError(f"{v.key} has {seats} seats: give one policy or {seats}, got "
                         f"{len(pols)}")
    players = [as_policy(x) for x in pols]
    key = int(chunk_keys(seed, deal // DEFAULT_CHUNK, 1)[0])
    j = deal % DEFAULT_CHUNK
    game = Game(v, shuffled_deck(key, j), players, key, j)
    out = game.play()
    game.log.extend(result_lines(game, out))
    return game, out


def result_lines(game: Game, out: Outcome) -> list[str]:
    """The last lines of a trace: who won how (or 荒庄), then the settlement (RULES.md §7:
    units, 翻信, 名堂, payments, next dealer), as ``zipai-sim play`` and ``replay`` print them."""
    v = game.v
    money: Settlement = settle(v, hand_result(game, out))
    if out.winner >= 0:
        also = "".join(f" and seat {c.seat}" for c in out.cowinners)
        fx = f", 翻信 {out.fanxing}" if v.fanxing.enabled else ""
        head = (f"result: seat {out.winner}{also} win{'' if also else 's'} ({out.how}),"
                f" {out.huxi} 胡息{fx}")
    else:
        head = "result: 荒庄"
    named = ", ".join(f"{n} {x}" for n, x in money.mingtang)
    return [head, f"settlement ({v.settle.unit}): units {money.units}"
            + (f", 翻信 {money.fanxing_units}" if money.fanxing_units else "")
            + (f", 名堂 {named}" if named else "")
            + f"; payments {list(money.payments)}; next dealer {money.next_dealer}"]
