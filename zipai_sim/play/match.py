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
from dataclasses import dataclass

import numpy as np
import polars as pl
from numba import njit

from ..chunks import check_count, check_seed, chunk_keys
from ..kernels.deal import DECK, NO_SPARE, fresh_deck, shuffle_steps
from ..kernels.rng import deal_state
from ..report import DEFAULT_SEED, Report, check_per, header, metric_view
from ..settle import HandResult, card_counts, settle_counts
from ..stats import mean_se, wilson
from ..variants import Variant, load_variant
from .policies import POLICIES, as_policy, is_named

GOALS = ("hands", "hu100", "yinghuzi")
YINGHUZI = (3, 50, 15)  # wins in a run, 胡 they must reach, 胡 of the run's first win (seed 000 ⑷)
SCHEMA = {"variant": pl.String, "metric": pl.String, "player": pl.Int64, "count": pl.Int64,
          "n": pl.Int64, "rate": pl.Float64, "ci_low": pl.Float64, "ci_high": pl.Float64,
          "mean": pl.Float64, "se": pl.Float64}


class EndRule:
    """The end of a match, fed hand by hand (``add``); ``players`` players, HandResults with
    ``winner`` / ``dealer`` as players (not seats). ``add`` returns ``None`` while the match
    goes on, else the player the goal makes the winner (-1 for ``"hands"``: decided by the
    totals). Raises ValueError for an unknown goal or a count < 1."""

    def __init__(self, goal: str, players: int, hands: int = 8, target: int = 100):
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


@njit(cache=True)
def _deal(key, h, deck):
    """Deal ``h`` of chunk key ``key`` into ``deck: int8[80]``, as ``kernels.play.play_chunks``
    deals it (= ``reference.shuffled_deck(key, h)``)."""
    fresh_deck(deck)
    shuffle_steps(deck, 0, DECK - 1, deal_state(key, h), NO_SPARE, 0)


def _deck(key: int, h: int, deck: np.ndarray) -> np.ndarray:
    _deal(np.uint64(key), np.int64(h), deck)
    return deck


def _hand(v: Variant, key: int, h: int, pols: list, engine: str,
          scratch) -> tuple[HandResult, int, int, int, int]:
    """Play hand ``h`` with policies per seat: ``(HandResult, reds, bigs, smalls, draws)``,
    seats relative to the dealer (seat 0), as ``settle.settle_counts`` takes them."""
    if engine == "reference":
        from ..reference import shuffled_deck
        from .engine import Game
        from .trace import hand_result

        game = Game(v, shuffled_deck(key, h), [as_policy(x) for x in pols], key, h)
        out = game.play()
        r = hand_result(game, out)
        return (r, *card_counts(r.cards if r.winner >= 0 else [0] * 20), out.draws)
    from ..kernels import play as kp
    from .balance import row_result

    codes = [kp.POL_GREEDY if x == "greedy" else kp.POL_RANDOM for x in pols]
    _, o = kp.play_one(v, _deck(key, h, scratch[1]), codes, key, h, scratch[0])
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
        r, reds, bigs, smalls, draws = _hand(v, key, h, [pols[at[s]] for s in range(n)],
                                             engine, scratch)
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


@dataclass
class MatchResult:
    """``simulate_matches`` output: ``matches`` (one row per match: ``match, first_dealer,
    hands, ended`` (goal reached within ``max_hands``), ``winner`` (player, -1 none),
    ``huangzhuang`` (荒庄 hands), ``dealer_changes``, ``total_pK`` (final points in the
    variant's unit; they sum to 0), ``wins_pK``, ``huxi_pK`` (胡息 of won hands); with a
    数信 sitter there are four players, the dealer's opposite sitting out each hand),
    ``summary`` (``metric, player, count, n, rate, ci_low, ci_high`` Wilson 95%,
    ``mean, se``) and the run's identity for the Parquet metadata."""

    variant: str
    rules_hash: str
    seed: int
    n: int
    goal: str
    hands: int
    target: int
    policies: tuple[str, ...]
    engine: str
    first_dealer: str
    max_hands: int
    matches: pl.DataFrame
    summary: pl.DataFrame
    threshold: int | None = None  # the variant's 起胡 threshold (胡息)
    seconds: float | None = None

    def report(self, per: int | None = None) -> Report:
        """What ``zipai-sim match`` prints: the header line (variant, rules hash, threshold,
        seed, matches, goal, policies, first dealer, seconds) and the summary with shares in %
        (``per``: 10000, 1000, 100 or 1) and Wilson 95% intervals, means ± SE."""
        goal = {"hands": f"goal {self.hands} hands", "hu100": f"goal {self.target} 胡 from wins",
                "yinghuzi": "goal 硬胡子 (3 wins, 50 胡)"}[self.goal]
        extra = [goal, f"first dealer {self.first_dealer}"] + (
            [f"{self.engine} engine"] if self.engine != "numba" else [])
        head = header([(self.variant, self.rules_hash)], [self.threshold], seed=self.seed,
                      n=self.n, unit="matches", policies=self.policies, threads=1,
                      seconds=self.seconds, extra=extra)
        return Report(head, metric_view(self.summary, check_per(per)))

    def _repr_html_(self) -> str:
        return self.report()._repr_html_()

    @property
    def metadata(self) -> dict[str, str]:
        """Parquet key-value metadata identifying the run."""
        from .. import __version__

        return {"variant": self.variant, "rules_hash": self.rules_hash, "seed": str(self.seed),
                "matches": str(self.n), "goal": self.goal, "hands": str(self.hands),
                "target": str(self.target), "policies": ",".join(self.policies),
                "engine": self.engine, "first_dealer": self.first_dealer,
                "max_hands": str(self.max_hands), "zipai_sim_version": __version__}

    def to_parquet(self, path: str | os.PathLike) -> None:
        """Write ``matches`` with ``metadata`` atomically (``io.write_parquet``)."""
        from ..io import write_parquet

        write_parquet(self.matches, path, self.metadata)


def _summary(v: Variant, df: pl.DataFrame, players: int) -> pl.DataFrame:
    """Per player: match wins, final totals, hand wins; per match: hands, dealer changes; per
    hand: 荒庄. Rates with Wilson 95% intervals, means with their standard error."""
    n, rows = df.height, []
    if n == 0:
        return pl.DataFrame(schema=SCHEMA)
    hands = int(df["hands"].sum())

    def rate(metric: str, p: int | None, count: int, of: int) -> None:
        lo, hi = wilson(count, of)
        rows.append({"variant": v.key, "metric": metric, "player": p, "count": int(count),
                     "n": of, "rate": count / of, "ci_low": lo, "ci_high": hi, "mean": None,
                     "se": None})

    def mean(metric: str, p: int | None, col: str) -> None:
        x = df[col].cast(pl.Float64).to_numpy()
        mu, se = mean_se(float(x.sum()), float((x * x).sum()), n)
        rows.append({"variant": v.key, "metric": metric, "player": p, "count": n, "n": n,
                     "rate": None, "ci_low": None, "ci_high": None, "mean": mu, "se": se})

    mean("hands_per_match", None, "hands")
    for p in range(players):
        rate("match_win", p, int((df["winner"] == p).sum()), n)
    rate("no_winner", None, int((df["winner"] < 0).sum()), n)
    rate("goal_not_reached", None, int((~df["ended"]).sum()), n)
    for p in range(players):
        mean("total", p, f"total_p{p}")
    for p in range(players):
        rate("hand_win", p, int(df[f"wins_p{p}"].sum()), hands)
    rate("huangzhuang_per_hand", None, int(df["huangzhuang"].sum()), hands)
    mean("dealer_changes_per_match", None, "dealer_changes")
    return pl.DataFrame(rows, schema=SCHEMA)


def _setup(variant, seed, goal, hands, target, policies, engine, first_dealer, max_hands):
    v = load_variant(variant)
    seed = check_seed(seed)
    EndRule(goal, 1, hands, target)  # checks goal, hands, target
    n = v.layout.players + (1 if v.layout.sitter else 0)  # players at the table
    if not isinstance(policies, (str, Sequence)):
        raise ValueError(f"policies must be one of {sorted(POLICIES)} or a list of {n} (one "
                         f"per player), got {policies!r}")
    pols = [policies] * n if isinstance(policies, str) else list(policies)
    if len(pols) != n or any(isinstance(x, str) and x not in POLICIES for x in pols):
        raise ValueError(f"policies must be one of {sorted(POLICIES)} or a list of {n} (one "
                         f"per player), got {policies!r}")
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
    from ..kernels import play as kp

    scratch = (kp.new_scratch(), np.empty(DECK, np.int8))
    return v, seed, n, pols, scratch


def play_match(variant: str | os.PathLike | Variant, seed: int = DEFAULT_SEED,
               match: int = 0, *, goal: str = "hands", hands: int = 8, target: int = 100,
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
                     goal: str = "hands", hands: int = 8, target: int = 100,
                     policies: str | Sequence[object] = "greedy", engine: str = "numba",
                     first_dealer: int | str = 0, max_hands: int = 1000) -> MatchResult:
    """Play ``matches`` matches of ``variant`` from ``seed`` (module docstring: players, dealer,
    end rules, streams; the default seed is the command line's, 20261129). ``goal``: "hands"
    (``hands`` hands), "hu100" (first to ``target`` 胡息 from wins) or "yinghuzi" (硬胡子, seed
    000 ⑷); a match that has not reached its goal after ``max_hands`` hands stops with
    ``ended = False`` and no winner. ``policies``: one name ("greedy", "random") or one per
    player (user policy objects with ``engine="reference"``). ``first_dealer``: a player, or
    "rotate" (match ``m`` starts with player ``m % n``). ``engine``: the numba kernel or the
    reference ``Game`` (the same hands, move for move). Returns a ``MatchResult`` (in a
    notebook it shows as ``zipai-sim match`` prints it). Raises ValueError for bad counts,
    seeds, goals, policies, engines or dealers; VariantError for the variant.

    >>> m = simulate_matches("hunan-hengyang", 3, seed=1, goal="yinghuzi")  # 硬胡子 3把50胡
    >>> m.matches.select("match", "hands", "winner").rows()
    [(0, 3, 1), (1, 4, 2), (2, 28, 0)]
    """
    t0 = time.perf_counter()
    v, seed, n, pols, scratch = _setup(variant, seed, goal, hands, target, policies, engine,
                                       first_dealer, max_hands)
    count, cache = check_count(matches, "matches"), {}
    rows = [_run(v, seed, m, goal, hands, target, pols, engine,
                 m % n if first_dealer == "rotate" else int(first_dealer), max_hands, scratch,
                 cache) for m in range(count)]
    df = pl.DataFrame(rows) if rows else pl.DataFrame(schema={"match": pl.Int64})
    names = tuple(x if isinstance(x, str) else type(x).__name__ for x in pols)
    return MatchResult(v.key, v.rules_hash, seed, count, goal, hands, target, names, engine,
                       str(first_dealer), max_hands, df, _summary(v, df, n), v.win.threshold,
                       time.perf_counter() - t0)
