"""``fair``: the setting of one integer rule knob at which a balance metric meets a target
(issue 41): "which 荒庄 payment makes the dealer's seat worth nothing?" (RULES.md §7.2, §9).

The metric is one of ``compare``'s per-hand metrics (``score_seatS`` in the variant's unit,
``win_seatS``, ``huangzhuang``, ``zimo``, ``fangpao``, ``tianhu``, ``dihu``, ``draws``), played by
the kernel bots on the decks ``simulate_hands`` deals, the same decks for every knob value
(common random numbers). The search (``studies.bracket``) spends hands where the sign of the
metric minus the target is unclear and reports the two integers around the crossing, the
interpolated crossing with its interval, which integer is closer, and the hands it took.

Knobs that must change together (the 荒庄 payments of the dealer and of the others sum to 0)
move with the searched one through ``link``: ``{"settle.huangzhuang_dealer": -2}`` sets the
dealer's payment to −2 × the searched ``settle.huangzhuang_others``.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from zipai_sim.game.variants import Variant, VariantError, load_variant
from zipai_sim.play import DEFAULT_HAND_CHUNK
from zipai_sim.play.external import lineup_ident, seat_lineup
from zipai_sim.play.learned import lineup_weights
from zipai_sim.play.payoffs import OutcomeCache
from zipai_sim.play.chunks import play_chunks
from zipai_sim.report import DEFAULT_SEED, Report, header, sig
from zipai_sim.runs.chunks import check_count, check_seed, check_threads, chunk_keys
from zipai_sim.runs.driver import run_batches
from zipai_sim.studies.bracket import Answer, bracket_search
from zipai_sim.studies.compare import hand_metrics, metric_names


class _Stopped(Exception):
    """Ctrl-C stopped a step: the search ends with what it has."""


def parse_target(target: str | tuple[str, float]) -> tuple[str, float]:
    """``"METRIC=VALUE"`` or ``(metric, value)`` as ``(metric, float)``; ValueError otherwise."""
    if isinstance(target, str):
        metric, eq, value = target.partition("=")
        try:
            return metric.strip(), float(value) if eq else math.nan
        except ValueError:
            pass
        raise ValueError(f"a target is METRIC=VALUE, e.g. score_seat0=0, got {target!r}")
    metric, value = target
    return str(metric), float(value)


@dataclass
class FairResult:
    """The answer of ``fair`` (``answer``: ``studies.bracket.Answer``) and its run: the
    baseline variant, the knob (and ``link``), the target, bot, seed, chunk size, seconds and
    ``partial`` (Ctrl-C). ``points`` is the table of every value looked at; ``report()`` /
    ``str()`` what the command line prints; ``to_parquet`` writes the points with the answer
    in the file's metadata."""

    variant: Variant
    knob: str
    link: dict[str, int]
    metric: str
    target: float
    lo: int
    hi: int
    answer: Answer
    seed: int
    policies: str | list[str]
    chunk_size: int
    threads: int
    seconds: float
    partial: bool = False
    weights: str | None = None  # ``play.learned.weights_hash`` of the line-up (None: none read)

    @property
    def points(self) -> pl.DataFrame:
        """One row per knob value looked at: ``value, n, mean, se, ci_low, ci_high, looks,
        decision`` (the interval is the last look's, at its level: ``studies.bracket``)."""
        return pl.DataFrame(
            [{"value": p.x, "n": p.n, "mean": p.mean, "se": p.se, "ci_low": p.ci_low,
              "ci_high": p.ci_high, "looks": p.looks, "decision": p.decision}
             for p in self.answer.points],
            schema={"value": pl.Int64, "n": pl.Int64, "mean": pl.Float64, "se": pl.Float64,
                    "ci_low": pl.Float64, "ci_high": pl.Float64, "looks": pl.Int64,
                    "decision": pl.String})

    def sentence(self) -> str:
        """The answer in one line."""
        a, k, t = self.answer, self.knob, f"{self.metric} = {sig(self.target, 4)}"
        if self.partial:
            return f"interrupted: no answer yet ({a.hands:,} hands played)"
        if a.status == "crossing":
            sure = "" if a.closer_sure else " (not sure: the interval holds the midpoint)"
            return (f"{t} is crossed between {k} = {a.below} (below) and {a.above} (above): at "
                    f"{sig(a.estimate, 3)}, 95% interval [{sig(a.ci_low, 3)}, "
                    f"{sig(a.ci_high, 3)}] by interpolation on {a.n_common:,} common hands; "
                    f"closer: {a.closer}{sure}")
        if a.status == "on target":
            return f"{k} = {int(a.estimate)} meets {t} within the tolerance"
        if a.status == "none in range":
            return (f"no {k} in {self.lo}..{self.hi} meets {t}: the metric is {a.side} it at "
                    f"both ends")
        if a.undecided is not None:
            p = next(q for q in a.points if q.x == a.undecided)
            return (f"{t} lies between {k} = {a.below} (below) and {a.above} (above); at "
                    f"{a.undecided} the hands allowed could not tell the side ({sig(p.mean, 3)}, "
                    f"interval [{sig(p.ci_low, 3)}, {sig(p.ci_high, 3)}]); interpolated: "
                    f"{sig(a.estimate, 3)}, 95% interval [{sig(a.ci_low, 3)}, "
                    f"{sig(a.ci_high, 3)}] on {a.n_common:,} common hands")
        return (f"unknown: the hands allowed could not tell which side of {t} an end of the "
                f"range is on (raise max_hands or give tol)")

    def report(self) -> Report:
        v = self.variant
        run = header([(v.key, v.rules_hash)], [v.win.threshold], seed=self.seed,
                     n=self.answer.hands, unit="hands", chunk_size=self.chunk_size,
                     policies=self.policies, threads=self.threads, seconds=self.seconds,
                     weights=self.weights,
                     extra=[f"fair {self.knob} in {self.lo}..{self.hi}"
                            + "".join(f", {k} = {f} × it" for k, f in self.link.items())
                            + f" for {self.metric} = {sig(self.target, 4)}"])
        pts = self.points
        table = pl.DataFrame({
            self.knob: [str(x) for x in pts["value"]], "hands": [f"{x:,}" for x in pts["n"]],
            self.metric: [f"{sig(m, 4)} ± {sig(s, 2)}" for m, s in zip(pts["mean"], pts["se"])],
            "interval (this look)": [f"[{sig(lo, 4)}, {sig(hi, 4)}]"
                                     for lo, hi in zip(pts["ci_low"], pts["ci_high"])],
            "decision": pts["decision"].to_list()})
        return Report(run, table, [self.sentence(),
                                   f"{self.answer.hands:,} hands played in all; values in the "
                                   f"order looked at"])

    def __str__(self) -> str:
        return str(self.report())

    def _repr_html_(self) -> str:
        return self.report()._repr_html_()

    def metadata(self) -> dict[str, str]:
        """The run and the answer as Parquet key-value metadata."""
        a, v = self.answer, self.variant
        out = {"table": "fair", "variants": v.key, "rules_hash": v.rules_hash,
               "thresholds": str(v.win.threshold), "knob": self.knob,
               "link": ",".join(f"{k}={f}" for k, f in self.link.items()),
               "range": f"{self.lo},{self.hi}", "metric": self.metric,
               "target": repr(self.target), "status": a.status, "seed": str(self.seed),
               "policies": ",".join([self.policies] if isinstance(self.policies, str)
                                    else self.policies),
               "chunk_size": str(self.chunk_size), "n": str(a.hands),
               "partial": str(self.partial).lower(), "engine": "numba",
               "answer": self.sentence(),
               **({"weights_hash": self.weights} if self.weights else {})}
        for name in ("below", "above", "estimate", "ci_low", "ci_high", "closer", "n_common",
                     "undecided"):
            x = getattr(a, name)
            if x is not None:
                out[name] = repr(x)
        return out

    def to_parquet(self, path: str | os.PathLike) -> None:
        """The points table with ``metadata()`` (``runs.io.write_parquet``)."""
        from zipai_sim.runs.io import write_parquet

        write_parquet(self.points, path, self.metadata())


def fair(variant: str | os.PathLike | Variant, knob: str, lo: int, hi: int,
         target: str | tuple[str, float] = "score_seat0=0", *,
         link: Mapping[str, int] | None = None, policies: str | Sequence[str] = "greedy",
         seed: int = DEFAULT_SEED, alpha: float = 0.05, tol: float | None = None,
         start_hands: int = 4 * DEFAULT_HAND_CHUNK, max_hands: int = 256 * DEFAULT_HAND_CHUNK,
         threads: int | None = None, progress: bool | None = False,
         client: object = None) -> FairResult:
    """The value of integer knob ``knob`` (``SECTION.KEY``) in ``lo..hi`` where ``target``'s
    metric (``"METRIC=VALUE"``: ``score_seat0=0`` is "the dealer's seat worth nothing", in the
    variant's unit per hand) is met, on common random numbers (module docstring;
    ``studies.bracket`` for the stop rules: every sign decision holds with chance ≥ 1 − ``alpha``
    together, ``tol`` ends a look that is within ``±tol`` of the target). Hands per value:
    ``start_hands`` doubling up to ``max_hands`` (whole chunks of ``DEFAULT_HAND_CHUNK``).
    ``link``: other knobs set to a factor × the searched value. Progress, Ctrl-C (the search
    ends, ``partial``), checkpoints (each step is a resumable run) and ``client`` as every
    driver. Raises ValueError (an unknown metric, a bad range, sizes, alpha) or VariantError (a
    value the rule set may not take: give a ``link``, e.g. for the 荒庄 payments)."""
    import numba

    from zipai_sim.kernels import play as kp

    base = load_variant(variant)
    metric, value = parse_target(target)
    seats = base.layout.players
    names = metric_names(seats)
    if metric not in names:
        raise ValueError(f"unknown metric {metric!r}; the metrics: {', '.join(names)}")
    if math.isnan(value):
        raise ValueError(f"give the target's value: {metric}=VALUE")
    link = dict(link or {})
    for k, f in link.items():
        if not isinstance(f, int) or isinstance(f, bool):
            raise ValueError(f"link {k}: the factor must be an integer, got {f!r}")
    seed, cs = check_seed(seed), DEFAULT_HAND_CHUNK
    start, cap = (check_count(x, name) for x, name in ((start_hands, "start_hands"),
                                                      (max_hands, "max_hands")))
    start, cap = -(-start // cs) * cs, -(-cap // cs) * cs
    th = check_threads(threads)
    codes, external, pols = seat_lineup(policies, seats, base.key)
    pols = pols if isinstance(policies, (list, tuple)) else pols[0]
    col = names.index(metric)
    runs: dict[int, Variant] = {}
    have: dict[int, np.ndarray] = {}
    caches: dict[int, OutcomeCache] = {}
    stopped = False

    def at(x: int) -> Variant:
        if x not in runs:
            try:
                runs[x] = base.with_knobs({knob: x, **{k: f * x for k, f in link.items()}})
            except VariantError as e:
                raise VariantError(f"{e} (a knob that must change with {knob} goes in link, "
                                   f"e.g. --link KNOB=FACTOR)") from None
        return runs[x]

    def evaluate(x: int, n: int) -> np.ndarray:
        nonlocal stopped
        n = -(-n // cs) * cs
        got = have.get(x, np.zeros(0, np.int64))
        if len(got) < n:
            v, c0 = at(x), len(got) // cs
            cache = caches.setdefault(x, OutcomeCache(v))

            def work(first: int, k: int) -> tuple[np.ndarray, ...]:
                keys = chunk_keys(seed, c0 + first, k)
                sizes = np.full(k, cs, np.int64)
                out = np.zeros((k, cs, kp.N_OUT), np.int64)
                play_chunks(v, keys, sizes, codes, out, external=external)
                return tuple(hand_metrics(v, out[c], cache)[:, col] for c in range(k))

            step = run_batches(n - len(got), cs, 2 * numba.get_num_threads(), work,
                               lambda s, t: s + t, (), unit="hand", progress=progress,
                               desc=f"{knob}={x}", kernels=(kp.play_chunks,), client=client,
                               identity={"what": "fair", "rules_hash": v.rules_hash,
                                         "seed": str(seed),
                                         "policies": lineup_ident(policies),
                                         "metric": metric, "first_chunk": c0,
                                         **({"weights_hash": ws} if ws else {})})
            got = np.concatenate([got, *step.state])
            have[x] = got
            if step.partial:
                stopped = True
                raise _Stopped
        return got[:n]

    ws = lineup_weights([base], pols)
    t0 = time.perf_counter()
    old = numba.get_num_threads()
    numba.set_num_threads(th)
    answer = Answer(status="")
    try:
        bracket_search(evaluate, lo, hi, value, alpha=alpha, tol=tol, start=start, max_n=cap,
                       answer=answer)
    except _Stopped:
        answer.status = "interrupted"
    finally:
        numba.set_num_threads(old)
    return FairResult(base, knob, link, metric, value, lo, hi, answer, seed, pols, cs, th,
                      time.perf_counter() - t0, partial=stopped, weights=ws[0] if ws else None)
