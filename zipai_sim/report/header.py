"""The one header line that names a run, and the run fields it is written from (issue 11).

One line names the run: variant (key and rules hash), threshold, seed, n, chunk size, policies,
threads, seconds; fields that do not apply are left out. ``run_fields`` collects them for a run
of a variant; ``play_header`` is the line of one played hand.

>>> header([("guangxi-81", "2bd4db2c7ba96a7d")], [15], seed=7, n=20_000, chunk_size=4096)
'guangxi-81 (rules 2bd4db2c7ba96a7d), threshold 15, seed 7, 20,000 deals, chunk 4,096'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: the root seed of every command and of every Python function that has a default seed
DEFAULT_SEED = 20261129


def header(variants: Iterable[tuple[str, str]] = (), thresholds: Iterable[int] = (), *,
           seed: int | None = None, n: int | None = None, unit: str = "deals",
           chunk_size: int | None = None, policies: str | Sequence[str] | None = None,
           threads: int | None = None, seconds: float | None = None,
           extra: Iterable[str] = (), partial: bool = False,
           n_requested: int | None = None, workers: int | None = None,
           weights: Sequence[str | None] | str | None = None) -> str:
    """The one-line header of a run: ``variants`` as (key, rules hash) or keys, ``thresholds``,
    ``seed``, ``n`` ``unit`` (deals, hands, matches), ``chunk_size``, ``policies`` (one name or
    one per seat), ``threads`` (or ``workers``: the Dask workers the run went to, said in their
    place), ``seconds``, then ``extra`` phrases; None fields are left out.
    ``partial``: Ctrl-C stopped the run after ``n`` of ``n_requested`` (said last).
    ``weights``: the hash of the learned weights the line-up played with, one per variant
    (``play.learned.weights_hash``; said after the policies, None where none were read)."""
    vs = [(v, "") if isinstance(v, str) else tuple(v) for v in variants]
    ts = list(thresholds)
    ths = list(dict.fromkeys(t for t in ts if t is not None))
    parts = []
    if len(vs) > 1 and len(vs) == len(ts):  # several runs: each variant at its threshold
        keys: dict[str, list[str]] = {}
        for (k, h), t in dict.fromkeys(zip(vs, ts)):
            keys.setdefault(k, []).append(f"{t}" + (f" (rules {h})" if h else ""))
        parts.append("; ".join(f"{k} at threshold{'s' * (len(x) > 1)} {', '.join(x)}"
                               for k, x in keys.items()))
    else:
        seen = list(dict.fromkeys(vs))
        if seen:
            parts.append(", ".join(f"{k} (rules {h})" if h else k for k, h in seen))
        if ths:
            parts.append(f"threshold{'s' * (len(ths) > 1)} {', '.join(map(str, ths))}")
    if seed is not None:
        parts.append(f"seed {seed}")
    if n is not None:
        parts.append(f"{n:,} {unit[:-1] if n == 1 and unit.endswith('s') else unit}")
    if chunk_size is not None:
        parts.append(f"chunk {chunk_size:,}")
    if policies is not None:
        pols = [policies] if isinstance(policies, str) else list(policies)
        parts.append(("policy " if len(set(pols)) == 1 else "policies ")
                     + (pols[0] if len(set(pols)) == 1 else ", ".join(pols)))
    ws = [weights] if isinstance(weights, str) else [w for w in weights or () if w]
    if ws:
        parts.append(f"weights {', '.join(dict.fromkeys(ws))}")
    if workers is not None:  # this process's thread count says nothing about the work then
        parts.append(f"on Dask, {workers} worker{'s' * (workers != 1)}")
    elif threads is not None:
        parts.append(f"{threads} thread{'s' * (threads != 1)}")
    if seconds is not None:
        parts.append(f"{seconds:.1f} s")
    if partial:
        extra = [*extra, f"PARTIAL: interrupted after {n or 0:,} of {n_requested or 0:,} {unit}"]
    for x in extra:  # a phrase in parentheses qualifies the one before it
        if x.startswith("(") and parts:
            parts[-1] += " " + x
        else:
            parts.append(x)
    return ", ".join(parts)


def play_header(key: str, rules_hash: str, threshold: int, seats: int, seed: int | None,
                deal: int | None, policies: str | Sequence[str]) -> str:
    """The header of one played hand (``zipai-sim play`` and its replay): the variant, seed, deal
    and policies, and the dealer: seat 0 (庄) deals, the others follow in turn (下家 seat 1)."""
    extra = [f"deal {deal}"] if deal is not None else []
    extra.append(f"dealer seat 0 (庄), then seats {', '.join(map(str, range(1, seats)))}")
    return header([(key, rules_hash)], [threshold], seed=seed, policies=policies, extra=extra)


def run_fields(v, *, started: float | None = None, policies: Sequence[object] | str | None = None,
               threads: int | None = None, engine: str | None = None, **kw: object) -> dict:
    """``header`` keywords of a run of variant ``v``: its key, rules hash and threshold, the
    policies by name (a user policy object by its class name), the threads it used (None: all
    cores), the seconds since ``started`` (``time.perf_counter()``), ``engine`` when it is not
    the default numba one, and ``kw`` as they are."""
    import time

    import numba

    cores = numba.config.NUMBA_NUM_THREADS
    pols = None if policies is None else [policies] if isinstance(policies, str) else [
        x if isinstance(x, str) else type(x).__name__ for x in policies]
    out = dict(variants=[(v.key, v.rules_hash)], thresholds=[v.win.threshold], policies=pols,
               threads=min(threads or cores, cores),
               seconds=None if started is None else time.perf_counter() - started, **kw)
    if engine not in (None, "numba"):
        out["extra"] = [*out.get("extra", ()), f"{engine} engine"]
    return out
