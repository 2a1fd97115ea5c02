"""Matches: sequences of hands with running totals (issue 3 §2; RULES.md §7.2).

Players ``0..n-1`` keep their identity for the whole match; seats are relative to the dealer, as
in the engines (seat 0 deals), so seat ``s`` is player ``(dealer + s) % n`` and each player's
policy follows them around the table. With a 数信 sitter (``[layout].sitter``) four players
sit round the table and the dealer's opposite sits out each hand (``table_of``), so the role
moves with the deal (RULES.md §7.3). After each hand ``settle`` gives the payments (added to
the players' running totals, RULES.md §7.2) and the next dealer: the winner deals; after a 荒庄
the dealer stays, or passes to the 下家 on the variant's ``dealer_passes_after_huangzhuang``-th
荒庄 in a row (seed 000 ⑴), the streak being carried in ``HandResult.huangzhuang_streak``. The
first dealer is player 0 (seed 001 "第一局桌主为庄家") unless ``first_dealer`` says otherwise.

End rules (``goal``; docs/decisions.md):

- ``"hands"``: after ``hands`` hands; the winner is the player with the highest total, -1 on a
  tie for the top.
- ``"hu100"``: the first player whose 胡息 summed over their won hands reaches ``target`` (100)
  wins (the 100-胡 game of issue 3; no seed describes it).
- ``"yinghuzi"``: 硬胡子 "3把50胡" (seed 000 ⑷ "胡3把牌要达到50胡以上。第一把不能少于15胡"): a
  player's run of wins opens with a win of ≥ 15 胡 (a smaller win leaves no mark); the run's
  third win ends it: ≥ 50 胡 over the three wins the player wins the match, else the run is void
  and the next win ≥ 15 opens a new one.

Reproducibility: match ``m`` draws from ``SeedSequence(seed, spawn_key=(m,))`` (the key of chunk
``m``, ``chunks.chunk_keys``), and its hand ``h`` is deal ``h`` of that stream: the deck and
policy stream of deal ``m·65536 + h`` of ``play_seeded`` (h < 65536; every engine). Matches are
played one after another on one thread, so nothing depends on the thread count.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Iterable, Sequence

import numpy as np
import polars as pl

from zipai_sim.game.hand_result import HandResult, card_counts
from zipai_sim.game.settle import settle_counts
from zipai_sim.game.variants import Variant, load_variant
from zipai_sim.kernels import deal as kd
from zipai_sim.play import MATCH_HANDS, POLICY_NAMES
from zipai_sim.play.learned import lineup_weights
from zipai_sim.play.policies import POLICIES, as_policy, is_named
from zipai_sim.play.rollout import play_one
from zipai_sim.report import DEFAULT_SEED
from zipai_sim.runs.chunks import check_count, check_seed, chunk_keys
from zipai_sim.runs.driver import cons_list, run_batches
from zipai_sim.studies.match_result import MatchResult, summarize

GOALS = ("hands", "hu100", "yinghuzi")
YINGHUZI = (3, 50, 15)  # wins in a run, 胡 they must reach, 胡 of the run's first win (seed 000 ⑷)
MATCH_BATCH = 64  # matches per batch (~0.1 s): a part file or a Dask task each, Ctrl-C keeps
# every finished batch


class EndRule:
    """The end of a match, fed hand by hand (``add``); ``players`` players, HandResults with
    ``winner`` / ``dealer`` as players (not seats). ``add`` returns ``None`` while the match
    goes on, else the player the goal makes the winner (-1 for ``"hands"``: decided by the
    totals). Raises ValueError for an unknown goal or a count < 1."""

    def __init__(self, goal: str, players: int, hands: int = MATCH_HANDS, target: int = 100):
        if goal not in GOALS:
            raise ValueError(f"goal must be one of {', '.join(GOALS)}, got {goal!r}")
        for name, x in (("hands", hands), ("target", target)):
            if isinstance(x, bool) or not isinstance(x, (int, np.integer)) or x < 1:
                raise ValueError(f"{name} must be a positive integer, got {x!r}")
        self.goal, self.hands, self.target = goal, int(hands), int(target)
        self.played = 0
        self.huxi = [0] * players  # hu100: 胡息 of each player's wins
        self.run: list[list[int]] = [[] for _ in range(players)]  # yinghuzi: the open run

    def add(self, r: HandResult) -> int | None:
        self.played += 1
        if self.goal == "hands":
            return -1 if self.played >= self.hands else None
        if r.winner < 0:
            return None
        done = [p for p in (self._win(r.winner, r.huxi),
                            *(self._win(c.seat, r.huxi) for c in r.cowinners)) if p is not None]
        return done[0] if done else None

    def _win(self, w: int, huxi: int) -> int | None:
        """One player's win of ``huxi`` 胡息: the player if it ends the match."""
        if self.goal == "hu100":
            self.huxi[w] += huxi
            return w if self.huxi[w] >= self.target else None
        wins, total, first = YINGHUZI
        run = self.run[w]
        if run or huxi >= first:  # 第一把不能少于15胡
            run.append(huxi)
        if len(run) == wins:
            if sum(run) >= total:  # 胡3把牌要达到50胡以上
                return w
            run.clear()
        return None


def match_end(results: Iterable[HandResult], goal: str = "hands", *, hands: int = 8,
              target: int = 100) -> tuple[int, int] | None:
    """Pure end rule on a sequence of hands (``winner``/``dealer`` as players): ``(i, p)`` for
    the index ``i`` of the hand that ends the match and the winner ``p`` it names (-1 for
    ``"hands"``), or None if the sequence does not end it. See the module docstring."""
    rule = None
    for i, r in enumerate(results):
        rule = rule or EndRule(goal, r.seats, hands, target)
        p = rule.add(r)
        if p is not None:
            return i, p
    return None


def _deck(key: int, h: int, deck: np.ndarray) -> np.ndarray:
    kd.seeded_deck(np.uint64(key), np.int64(h), deck)
    return deck


def _hand(v: Variant, key: int, h: int, pols: list, engine: str,
          scratch) -> tuple[HandResult, int, int, int, int]:
    """Play hand ``h`` with policies per seat: ``(HandResult, reds, bigs, smalls, draws)``,
    seats relative to the dealer (seat 0), as ``settle.settle_counts`` takes them."""
    if engine == "reference":
        from zipai_sim.game.reference import shuffled_deck
        from zipai_sim.play.engine import Game
        from zipai_sim.play.trace import hand_result

        game = Game(v, shuffled_deck(key, h), [as_policy(x) for x in pols], key, h)
        out = game.play()
        r = hand_result(game, out)
        return (r, *card_counts(r.cards if r.winner >= 0 else [0] * 20), out.draws)
    from zipai_sim.kernels import play as kp
    from zipai_sim.play.payoffs import row_result

    codes = [POLICY_NAMES.index(x) for x in pols]
    _, o = play_one(v, _deck(key, h, scratch[1]), codes, key, h, scratch[0])
    return (*row_result(v, o), int(o[kp.O_DRAWS]))


def table_of(v: Variant, dealer: int) -> tuple[list[int], int]:
    """The player at each active seat (seat 0 deals, then turn order) and the 数信 sitter
    (-1 without one). With a sitter four players sit round the table and the dealer's
    opposite sits out, so the role moves with the deal (RULES.md §7.3; seeds 000 ⑼, 001
    "以后谁胡牌谁就是庄家，对家数信")."""
    n = v.layout.players
    if not v.layout.sitter:
        return [(dealer + s) % n for s in range(n)], -1
    return [dealer, (dealer + 1) % 4, (dealer + 3) % 4], (dealer + 2) % 4


def _run(v: Variant, seed: int, m: int, goal: str, hands: int, target: int, pols: list,
         engine: str, first: int, max_hands: int, scratch, cache: dict,
         record: list | None = None) -> dict:
    """Play match ``m``; returns its per-match row; appends per-hand rows to ``record``."""
    n, key = v.layout.players, int(chunk_keys(seed, m, 1)[0])
    people = n + (1 if v.layout.sitter else 0)
    rule = EndRule(goal, people, hands, target)
    totals, won, huxi = [0] * people, [0] * people, [0] * people
    dealer, streak, huang, changes, winner, ended, h = first, 0, 0, 0, -1, False, 0
    for h in range(max_hands):
        at, sitter = table_of(v, dealer)
        try:
            r, reds, bigs, smalls, draws = _hand(v, key, h, [pols[at[s]] for s in range(n)],
                                                 engine, scratch)
        except Exception as e:  # a user policy's own error: say which hand to look at
            e.add_note(f"while playing hand {h} of match {m} of seed {seed} ({v.key}; "
                       f"play_match(..., seed={seed}, match={m}) plays it alone)")
            raise
        r = dataclasses.replace(r, huangzhuang_streak=streak)
        ck = (r, reds, bigs, smalls)
        if ck not in cache:
            cache[ck] = settle_counts(v, r, reds, bigs, smalls)
        money = cache[ck]
        pay = [0] * people
        for s in range(n):
            pay[at[s]] += money.payments[s]
        if sitter >= 0:
            pay[sitter] += money.payments[n]
        totals = [t + q for t, q in zip(totals, pay)]
        # the hand in players: every winner of a shared win at the deal counts (RULES.md §6)
        w = at[r.winner] if r.winner >= 0 else -1
        rp = dataclasses.replace(r, dealer=dealer, winner=w,
                                 payer=at[r.payer] if r.payer >= 0 else -1,
                                 cowinners=tuple(dataclasses.replace(c, seat=at[c.seat])
                                                 for c in r.cowinners))
        for x in ([w] if w >= 0 else []) + [c.seat for c in rp.cowinners]:
            won[x] += 1
            huxi[x] += r.huxi
        huang += w < 0
        nxt = at[money.next_dealer]
        if record is not None:
            record.append({"match": m, "hand": h, "dealer": dealer,
                           **({"sitter": sitter} if sitter >= 0 else {}), "winner": w,
                           "cowinners": [c.seat for c in rp.cowinners], "how": r.how or None,
                           "payer": rp.payer, "huxi": r.huxi, "fanxing": r.fanxing,
                           "draws": draws, "huangzhuang_streak": streak, "next_dealer": nxt,
                           **{f"pay_p{i}": pay[i] for i in range(people)},
                           **{f"total_p{i}": totals[i] for i in range(people)}})
        changes += nxt != dealer
        dealer, streak = nxt, (streak + 1 if w < 0 else 0)
        got = rule.add(rp)
        if got is not None:
            winner, ended = got, True
            break
    if goal == "hands":
        top = max(totals)
        winner = totals.index(top) if totals.count(top) == 1 else -1
    row = {"match": m, "first_dealer": first, "hands": h + 1, "ended": ended,
           "winner": winner, "huangzhuang": huang, "dealer_changes": changes}
    row.update({f"total_p{i}": totals[i] for i in range(people)})
    row.update({f"wins_p{i}": won[i] for i in range(people)})
    row.update({f"huxi_p{i}": huxi[i] for i in range(people)})
    return row


def _setup(variant, seed, goal, hands, target, policies, engine, first_dealer, max_hands):
    v = load_variant(variant)
    seed = check_seed(seed)
    EndRule(goal, 1, hands, target)  # checks goal, hands, target
    n = v.layout.players + (1 if v.layout.sitter else 0)  # players at the table
    pols = [policies] * n if isinstance(policies, str) else \
        list(policies) if isinstance(policies, Sequence) else []
    if len(pols) != n or any(isinstance(x, str) and x not in POLICIES for x in pols):
        raise ValueError(f"policies must be one of {sorted(POLICIES)} or a list of {n} (one "
                         f"per player: names, or policy objects on the reference engine), got "
                         f"{policies!r}")
    if engine not in ("numba", "reference"):
        raise ValueError(f"engine must be 'numba' or 'reference', got {engine!r}")
    if engine == "numba" and not all(is_named(x) for x in pols):
        raise ValueError("policies: user policy objects play on the reference engine only")
    for x in pols:
        as_policy(x)
    if not (first_dealer == "rotate" or (isinstance(first_dealer, (int, np.integer)) and not
                                         isinstance(first_dealer, bool) and
                                         0 <= first_dealer < n)):
        raise ValueError(f"first_dealer must be a player 0..{n - 1} or 'rotate', got "
                         f"{first_dealer!r}")
    if check_count(max_hands, "max_hands") < (hands if goal == "hands" else 1):
        raise ValueError(f"max_hands must be ≥ {hands if goal == 'hands' else 1}, got "
                         f"{max_hands}")
    from zipai_sim.kernels import play as kp

    scratch = (kp.new_scratch(), np.empty(kd.DECK, np.int8))
    return v, seed, n, pols, scratch


def play_match(variant: str | os.PathLike | Variant, seed: int = DEFAULT_SEED,
               match: int = 0, *, goal: str = "hands", hands: int = MATCH_HANDS,
               target: int = 100,
               policies: str | Sequence[object] = "greedy", engine: str = "numba",
               first_dealer: int | str = 0, max_hands: int = 1000) -> pl.DataFrame:
    """Play match ``match`` of ``seed`` and return its hands, one row each: ``match, hand,
    dealer``, ``sitter`` (the player sitting out as 数信, where the variant has one: the
    dealer's opposite), ``winner`` (players; -1 荒庄), ``cowinners`` (the other winners of a
    shared win at the deal), ``how``, ``payer`` (player or -1), ``huxi``, ``fanxing``,
    ``draws``, ``huangzhuang_streak`` (荒庄 in a row before the hand), ``next_dealer``,
    ``pay_pK`` (this hand's points of player K, variant's unit; they sum to 0) and ``total_pK``
    (running totals). Arguments as ``simulate_matches``; also ValueError for a negative
    ``match``."""
    v, seed, n, pols, scratch = _setup(variant, seed, goal, hands, target, policies, engine,
                                       first_dealer, max_hands)
    check_count(match, "match")
    first = match % n if first_dealer == "rotate" else int(first_dealer)
    record: list[dict] = []
    _run(v, seed, match, goal, hands, target, pols, engine, first, max_hands, scratch, {},
         record)
    return pl.DataFrame(record, schema_overrides={"how": pl.String,
                                                  "cowinners": pl.List(pl.Int64)})


def simulate_matches(variant: str | os.PathLike | Variant, matches: int,
                     seed: int = DEFAULT_SEED, *,
                     goal: str = "hands", hands: int = MATCH_HANDS, target: int = 100,
                     policies: str | Sequence[object] = "greedy", engine: str = "numba",
                     first_dealer: int | str = 0, max_hands: int = 1000,
                     progress: bool | None = None, client: object = None) -> MatchResult:
    """Play ``matches`` matches of ``variant`` from ``seed`` (module docstring: players, dealer,
    end rules, streams; the default seed is the command line's, 20261129). ``goal``: "hands"
    (``hands`` hands), "hu100" (first to ``target`` 胡息 from wins) or "yinghuzi" (硬胡子, seed
    000 ⑷); a match that has not reached its goal after ``max_hands`` hands stops with
    ``ended = False`` and no winner. ``policies``: one bot name (``play.registry``) or one per
    player (user policy objects with ``engine="reference"``). ``first_dealer``: a player, or
    "rotate" (match ``m`` starts with player ``m % n``). ``engine``: the numba kernel or the
    reference ``Game`` (the same hands, move for move). Returns a ``MatchResult`` (in a
    notebook it shows as ``zipai-sim match`` prints it). A progress bar (stderr) shows after
    two seconds, and a note when the kernels are to be compiled, unless ``progress=False``;
    Ctrl-C stops after the match being played and returns the finished ones with
    ``partial=True`` (``runs.run_batches``); ``client``: a ``dask.distributed.Client`` that
    plays the matches on its workers (the same result). Raises ValueError for bad counts,
    seeds, goals, policies, engines or dealers; VariantError for the variant.

    >>> m = simulate_matches("hunan-hengyang", 3, seed=1, goal="yinghuzi")  # 硬胡子 3把50胡
    >>> m.matches.select("match", "hands", "winner").rows()
    [(0, 3, 1), (1, 4, 2), (2, 28, 0)]
    """
    t0 = time.perf_counter()
    v, seed, n, pols, scratch = _setup(variant, seed, goal, hands, target, policies, engine,
                                       first_dealer, max_hands)
    count, cache = check_count(matches, "matches"), {}

    def work(first: int, k: int) -> list[dict]:  # a match is a chunk: its own stream
        return [_run(v, seed, m, goal, hands, target, pols, engine,
                     m % n if first_dealer == "rotate" else int(first_dealer), max_hands,
                     scratch, cache) for m in range(first, first + k)]

    def add(cells: tuple | None, got: list[dict]) -> tuple:
        return (got, cells)  # a new list cell: the old aggregate is left as it was

    from zipai_sim.kernels import play as kp

    names = tuple(x if isinstance(x, str) else type(x).__name__ for x in pols)
    ws = lineup_weights([v], list(pols))
    run = run_batches(count, 1, MATCH_BATCH, work, add, None, unit="match", desc=v.key,
                      progress=progress, client=client,
                      identity={"what": "matches", "variants": [v.key],
                                "rules_hash": [v.rules_hash], "seed": str(seed), "goal": goal,
                                "hands": hands, "target": target, "policies": list(names),
                                "engine": engine, "first_dealer": str(first_dealer),
                                "max_hands": max_hands,
                                **({"weights_hash": ws} if ws else {})},
                      kernels=(kp.play_hand, kd.seeded_deck) if engine == "numba" else ())
    rows = [r for batch in cons_list(run.state) for r in batch]
    df = pl.DataFrame(rows) if rows else pl.DataFrame(schema={"match": pl.Int64})
    return MatchResult(v.key, v.rules_hash, seed, run.done, goal, hands, target, names, engine,
                       str(first_dealer), max_hands, df, summarize(v, df, n), v.win.threshold,
                       time.perf_counter() - t0, count, run.partial, ws[0] if ws else None)
