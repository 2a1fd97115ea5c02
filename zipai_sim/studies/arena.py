"""``arena``: a bot's strength against another by duplicate play (issue 9 §2).

Duplicate format, as in duplicate bridge: every deck is played ``seats + 1`` times, once with
the challenger in seat ``s`` (the baseline in every other seat) for each seat ``s`` it can take,
and once with the baseline in every seat. Every game of a deck has the same cards and the same
policy random streams (deck ``j`` of chunk ``c`` is ``reference.shuffled_deck(key_c, j)``, seat
``s`` draws from ``Stream(key_c ^ POLICY_SALT ^ (s << 48), j)``, ``key_c`` from
``SeedSequence(seed, spawn_key=(c,))``, exactly as in ``simulate_hands``), so the card luck of
a deck cancels in the difference.

Per deck ``j`` (scores are settled payments, RULES.md §7, in the variant's unit: 舵, 油, 囤, 排,
胡; seat 0 deals):

- challenger score ``C_j`` = mean over seats ``s`` of the seat-``s`` payment in the game where
  the challenger sat in ``s``;
- baseline score ``B_j`` = mean over seats ``s`` of the seat-``s`` payment in the all-baseline
  game (0 when the payments of the seats sum to 0, i.e. without a 数信 sitter: the baseline's
  reference is a table of equals);
- paired difference ``d_j = C_j − B_j``: ``score_diff`` is its mean over decks, with a Student
  t 95% interval from the spread of the ``d_j`` (scipy.stats.t, ``decks − 1`` degrees of
  freedom), not from two independent intervals.

Win rates: the challenger's is the share of its ``decks × seats`` games in which its seat won
(a shared win at the deal counts for every winner, RULES.md §6); the baseline's the same seats
in the all-baseline game; Wilson 95% intervals (``stats.wilson``).

Memory is flat in the number of decks: per chunk only integer sums are kept (``Σ D``, ``Σ D²``
with ``D_j = seats · d_j``, an exact integer; win counts), so the result is exact and the same
for every thread count. Every bot of the bot table plays in the arena (``play.registry``;
``KERNEL_POLICIES`` maps its name to its kernel code).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence

import numpy as np
import polars as pl

from zipai_sim.kernels.play.search import SEARCH_KERNELS
from zipai_sim.play import CHEATING_POLICIES, DEFAULT_HAND_CHUNK, POLICY_NAMES, SEARCH_POLICIES
from zipai_sim.play.learned import lineup_weights
from zipai_sim.play.chunks import play_chunks
from zipai_sim.play.rollout import DEFAULT_K, check_k
from zipai_sim.report import (
    DEFAULT_SEED,
    Report,
    ReportFrame,
    decimals,
    diff_text,
    fixed,
    header,
    rate_text,
    sig,
)
from zipai_sim.runs.checkpoint import register
from zipai_sim.runs.chunks import (
    check_chunk_size,
    check_column_seed,
    check_count,
    check_threads,
    chunk_keys,
    chunk_sizes,
)
from zipai_sim.runs.driver import run_parts

#: arena policies by name → the play kernel's policy code (``play.POLICY_NAMES``)
KERNEL_POLICIES = {name: code for code, name in enumerate(POLICY_NAMES)}
#: decks per chunk by default: ``simulate_hands``'s, so the arena's decks are balance's hands
DEFAULT_ARENA_CHUNK = DEFAULT_HAND_CHUNK


def check_policy(name: object, what: str) -> str:
    """``name`` if the play kernel knows it (or a ``play.external.BatchPolicy``), else
    ValueError naming ``what`` and the choices."""
    from zipai_sim.play.external import BatchPolicy

    if isinstance(name, BatchPolicy):
        return name
    if not isinstance(name, str) or name not in KERNEL_POLICIES:
        raise ValueError(f"{what} must be one of {', '.join(sorted(KERNEL_POLICIES))}, got "
                         f"{name!r}")
    return name


def seats_won(rows: np.ndarray, seats: int) -> np.ndarray:
    """``bool[k, seats]``: which seats won each hand of kernel outcome rows ``int64[k, N_OUT]``
    (the winner and the other winners of a shared win at the deal, RULES.md §6)."""
    from zipai_sim.kernels import play as kp

    won = rows[:, kp.O_WINNER, None] == np.arange(seats)
    for q in range(kp.MAX_CO):
        won |= rows[:, kp.O_CO + q * kp.CO_COLS + kp.CO_SEAT, None] == np.arange(seats)
    return won


@register
class _Tally:
    """Exact integer sums of one arena run, merged chunk by chunk in chunk order."""

    def __init__(self) -> None:
        self.decks = 0
        self.d = self.d_sq = 0     # Σ D_j, Σ D_j² (D_j = seats · d_j, an integer)
        self.c = self.b = 0        # Σ seats·C_j, Σ seats·B_j
        self.win_c = self.win_b = 0

    def merged(self, other: _Tally) -> _Tally:
        """A new tally of both, neither changed (``runs.run_batches``)."""
        out = _Tally()
        for name, x in vars(self).items():
            setattr(out, name, x + getattr(other, name))
        return out

    def add(self, own: np.ndarray, base: np.ndarray, won_c: np.ndarray,
            won_b: np.ndarray) -> None:
        """One chunk: ``own``/``base`` ``int64[k]`` (Σ over seats of the challenger's and the
        baseline's payments per deck), win counts per deck ``int64[k]``."""
        diff = own - base
        self.decks += len(own)
        self.d += int(diff.sum())
        self.d_sq += int((diff * diff).sum())
        self.c += int(own.sum())
        self.b += int(base.sum())
        self.win_c += int(won_c.sum())
        self.win_b += int(won_b.sum())


def _row(v, t: _Tally, challenger: str, baseline: str, seed: int, cs: int) -> dict:
    """The result row of one variant from its tally (module docstring)."""
    from scipy.stats import t as student

    from zipai_sim.stats import wilson

    n, seats = t.decks, v.layout.players
    mean = t.d / (n * seats) if n else math.nan
    se = math.nan
    if n > 1:  # var of D from exact integers: (n ΣD² − (ΣD)²) / (n (n−1))
        se = math.sqrt((n * t.d_sq - t.d * t.d) / (n * (n - 1)) / n) / seats
    half = float(student.ppf(0.975, n - 1)) * se if n > 1 else math.nan
    games = n * seats
    wc, wb = wilson(t.win_c, games), wilson(t.win_b, games)
    return {"variant": v.key, "rules_hash": v.rules_hash, "threshold": v.win.threshold,
            "unit": v.settle.unit, "seats": seats, "challenger": challenger,
            "baseline": baseline, "decks": n, "seed": seed, "chunk_size": cs,
            "score_challenger": t.c / games if games else math.nan,
            "score_baseline": t.b / games if games else math.nan,
            "score_diff": mean, "se_diff": se, "ci_low": mean - half, "ci_high": mean + half,
            "win_rate_challenger": t.win_c / games if games else math.nan,
            "win_ci_low_challenger": wc[0], "win_ci_high_challenger": wc[1],
            "win_rate_baseline": t.win_b / games if games else math.nan,
            "win_ci_low_baseline": wb[0], "win_ci_high_baseline": wb[1]}


def _arena_part(v, challenger: str, baseline: str, decks: int, seed: int, cs: int,
                rk: int = DEFAULT_K, weights: tuple | None = None) -> tuple:
    """``(work, add, state)`` of one variant's arena (``runs.run_parts``): per batch of chunks,
    ``seats + 1`` calls of ``play_chunks`` on the same chunk keys, settled with
    ``payoffs.settle_outcomes`` (one ``OutcomeCache`` a part) and tallied in chunk order.
    ``weights``: (challenger's, baseline's) learned weights, each None for the variant's."""
    from zipai_sim.kernels import play as kp
    from zipai_sim.play.learned import weights as learned_weights, weights_for
    from zipai_sim.play.payoffs import OutcomeCache, settle_outcomes

    from zipai_sim.play.external import lineup

    seats = v.layout.players
    lineups = [[baseline] * seats for _ in range(seats + 1)]
    for s in range(seats):  # game s: the challenger in seat s; game `seats`: all baseline
        lineups[s][s] = challenger
    games, externals = zip(*(lineup(x) for x in lineups))
    seat_w = [None] * len(games)
    if weights is not None:  # game g < seats: the challenger in seat g, the baseline elsewhere
        for g, codes in enumerate(games):
            w = weights_for(v, codes)
            for s in range(seats):
                side = weights[0] if g == s else weights[1]
                if codes[s] == kp.POL_LEARNED:
                    w[s, :kp.N_FEAT] = side if side is not None else learned_weights(v)
            seat_w[g] = w
    cache = OutcomeCache(v)

    def work(first: int, k: int) -> _Tally:
        keys, sizes = chunk_keys(seed, first, k), chunk_sizes(decks, cs, first, k)
        outs, tally = [], _Tally()
        for codes, w, ext in zip(games, seat_w, externals):
            out = np.zeros((k, int(sizes.max()), kp.N_OUT), np.int64)
            play_chunks(v, keys, sizes, codes, out, rk, w, ext)
            outs.append(out)
        for c in range(k):  # chunk order; integer sums: exact, thread-independent
            size = int(sizes[c])
            own = np.zeros(size, np.int64)
            won_c = np.zeros(size, np.int64)
            for s in range(seats):
                rows = outs[s][c, :size]
                own += settle_outcomes(v, rows, cache)[0][:, s]
                won_c += seats_won(rows, seats)[:, s]
            rows = outs[seats][c, :size]
            base = settle_outcomes(v, rows, cache)[0][:, :seats].sum(axis=1)
            tally.add(own, base, won_c, seats_won(rows, seats).sum(axis=1))
        return tally

    return work, lambda t, got: t.merged(got), _Tally()


def arena(variant, challenger: str, baseline: str, decks: int, seed: int = DEFAULT_SEED,
          threads: int | None = None, chunk_size: int | None = None,
          progress: bool | None = False, client: object = None,
          rollout_k: int = DEFAULT_K, challenger_weights: Sequence[float] | None = None,
          baseline_weights: Sequence[float] | None = None) -> ReportFrame:
    """Duplicate match of policy ``challenger`` against ``baseline`` (bot names, ``play.registry``:
    ``zipai-sim bots`` lists them) on ``decks`` decks of
    ``variant`` (either side may be a ``play.external.BatchPolicy``: an outside model, beside
    fast bots only) (a key, a TOML path, a ``Variant``, or a list of them: one row each, on the
    same decks where the deal layouts agree) from ``seed``; see the module docstring for the format.

    Returns a ``report.ReportFrame`` (a polars DataFrame; in a notebook it shows as ``zipai-sim
    arena`` prints it), one row per variant: ``variant, rules_hash, threshold, unit, seats,
    challenger, baseline, decks, seed, chunk_size``; ``score_challenger``, ``score_baseline``
    (mean settled score per hand over the seats, in ``unit``), ``score_diff`` (their paired
    difference), ``se_diff`` and its t 95% interval ``ci_low, ci_high`` (a zero-width interval
    when every deck's difference is the same; NaN for one deck); ``win_rate_challenger``,
    ``win_ci_low_challenger``, ``win_ci_high_challenger`` and the same for the baseline (Wilson
    95%). A result depends on ``(variant, challenger, baseline, decks, seed, chunk_size)`` (and
    ``rollout_k``, a ``rollout`` seat's worlds per candidate answer, ``play.rollout``) only,
    never on ``threads`` (None: all cores). The play kernel plays ``seats + 1`` hands per
    deck: 20,000 decks of a 3-seat variant, greedy against random, take about 6 s on 2 cores.
    Several variants run in lockstep on the run driver (``runs.run_parts``): ``progress=None``
    shows a bar, Ctrl-C keeps the decks finished in every variant (the header says PARTIAL,
    ``decks`` is the decks done), ``checkpoint`` blocks save and resume it, ``client`` (a
    ``dask.distributed.Client``) plays the batches on its workers with the same result.
    ``challenger_weights`` / ``baseline_weights`` (``N_FEAT`` floats, ``play.learned``): a
    ``learned`` side's weights instead of the variant's file (how ``train`` compares two fits;
    recorded in the run's identity).
    Raises ValueError for a bad policy name, count, seed (0 … 2**64−1: the ``seed`` column is
    UInt64) or thread count; VariantError.

    >>> r = arena("guangxi-81", "greedy", "greedy", 50, seed=1)
    >>> r.select("score_diff", "ci_low", "ci_high").row(0)   # the same bot: every deck ties
    (0.0, 0.0, 0.0)
    """
    import numba

    from zipai_sim.game.variants import Variant, load_variant
    from zipai_sim.kernels import play as kp
    from zipai_sim.kernels.play import rollout as kr

    check_policy(challenger, "challenger")
    check_policy(baseline, "baseline")
    from zipai_sim.play.external import policy_ident, policy_name

    cn, bn = policy_name(challenger), policy_name(baseline)
    sides = _side_weights(challenger, challenger_weights, baseline, baseline_weights)
    decks, seed = check_count(decks, "decks"), check_column_seed(seed, "an arena")
    k = check_k(rollout_k)
    cs = check_chunk_size(chunk_size if chunk_size is not None else DEFAULT_ARENA_CHUNK)
    many = isinstance(variant, Sequence) and not isinstance(variant, (str, os.PathLike))
    vs = [load_variant(x) for x in (variant if many else [variant])]
    if not vs or not all(isinstance(x, Variant) for x in vs):
        raise ValueError("variant must be a variant key, TOML path or Variant, or a list of "
                         "them")
    th = check_threads(threads)
    rolls = bool({challenger, baseline} & set(SEARCH_POLICIES))
    ws = lineup_weights(vs, [challenger, baseline], sides)
    t0 = time.perf_counter()
    old = numba.get_num_threads()
    numba.set_num_threads(th)
    try:
        got = run_parts(decks, cs, 2 * numba.get_num_threads(),
                        [_arena_part(v, challenger, baseline, decks, seed, cs, k, sides)
                         for v in vs],
                        unit="deck", desc=vs[0].key if len(vs) == 1 else "",
                        progress=progress, client=client,
                        kernels=(kp.play_chunks,) + (kr.ROLLOUT_KERNELS + SEARCH_KERNELS
                                                     if rolls else ()),
                        identity={"what": "arena", "variants": [v.key for v in vs],
                                  "rules_hash": [v.rules_hash for v in vs],
                                  "thresholds": [v.win.threshold for v in vs],
                                  "seed": str(seed),
                                  "policies": [policy_ident(challenger), policy_ident(baseline)],
                                  **({"weights": [list(x) if x else None for x in sides]}
                                     if sides else {}),
                                  **({"weights_hash": ws} if ws else {}),
                                  **({"rollout_k": k} if rolls else {})})
    finally:
        numba.set_num_threads(old)
    rows = [_row(v, t, cn, bn, seed, cs) for v, t in zip(vs, got.state)]
    run = dict(variants=[(v.key, v.rules_hash) for v in vs],
               thresholds=[v.win.threshold for v in vs], seed=seed, n=got.done, unit="decks",
               partial=got.partial, n_requested=decks,
               chunk_size=cs, threads=th, workers=got.workers,
               seconds=time.perf_counter() - t0, weights=ws,
               extra=[f"challenger {cn} vs baseline {bn}"
                      + (f" (rollout: {k} worlds per candidate answer)" if rolls else ""),
                      "(duplicate: every deck once per challenger seat and once all baseline)"]
               + cheat_note(cn, bn))
    return ArenaFrame.wrap(pl.DataFrame(rows, schema_overrides={"seed": pl.UInt64}), run,
                           notes=NOTES)


def cheat_note(*policies: object) -> list[str]:
    """The line a report carries when a bot in it cheats (``play.CHEATING_POLICIES``)."""
    bad = sorted({x for x in policies if isinstance(x, str) and x in CHEATING_POLICIES})
    return [f"{', '.join(bad)}: sees every hand (only the stock's order is hidden): a ceiling, "
            "no player; it cheats"] if bad else []


def _side_weights(challenger: str, wc, baseline: str, wb) -> tuple | None:
    """The (challenger's, baseline's) weights as tuples (None: the file's), or None for
    neither; ValueError for weights given to a side that is not ``learned``."""
    from zipai_sim.play.learned import check

    if wc is None and wb is None:
        return None
    out = []
    for name, w, what in ((challenger, wc, "challenger"), (baseline, wb, "baseline")):
        if w is not None and name != "learned":
            raise ValueError(f"{what}_weights are for a learned {what}, not {name!r}")
        out.append(None if w is None else check(w, f"{what}_weights"))
    return tuple(out)


NOTES = ["score: mean settled score per hand over the seats (variant's unit); diff: the "
         "challenger's minus the baseline's in the same seats on the same decks, Student t 95% "
         "interval from the per-deck differences; win %: share of (deck, seat) games won, "
         "Wilson 95%"]


def arena_view(df: pl.DataFrame) -> pl.DataFrame:
    """An arena result as text: per variant the line-up, the scores (with the decimals of the
    difference's interval), the difference and its interval, both win rates in % with their
    Wilson intervals."""
    out: dict[str, list[str]] = {c: [] for c in (
        "variant", "seats", "challenger", "baseline", "unit", "challenger score",
        "baseline score", "score diff", "95% interval", "challenger win %", "challenger 95%",
        "baseline win %", "baseline 95%")}
    for r in df.iter_rows(named=True):
        diff, ci = diff_text(r["score_diff"], r["ci_low"], r["ci_high"])
        d = decimals(r["ci_high"] - r["ci_low"]) if not math.isnan(r["ci_high"]) else None
        for name in ("variant", "seats", "challenger", "baseline", "unit"):
            out[name].append(str(r[name]))
        for name in ("challenger", "baseline"):
            x = r[f"score_{name}"]
            out[f"{name} score"].append("" if math.isnan(x) else sig(x, 4) if d is None
                                        else fixed(x, d))
            rate, wci = rate_text(r[f"win_rate_{name}"], r[f"win_ci_low_{name}"],
                                  r[f"win_ci_high_{name}"])
            out[f"{name} win %"].append(rate)
            out[f"{name} 95%"].append(wci)
        out["score diff"].append(diff)
        out["95% interval"].append(ci)
    return pl.DataFrame(out, schema={c: pl.String for c in out})


class ArenaFrame(ReportFrame):
    """An arena result: a ``ReportFrame`` whose report is ``arena_view``."""

    def report(self, per: int | None = None) -> Report:  # noqa: ARG002 (no rates per N here)
        """The header line, the formatted table (``arena_view``) and the notes."""
        return Report(header(**(self.run or {})), arena_view(self), list(self.notes or []))
