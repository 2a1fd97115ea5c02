"""``simulate_hands``: many whole hands per variant, settled, and the balance figures (issue 3 §5).

Hands are dealt exactly as ``simulate_deals`` deals them (chunk ``c`` keyed by
``SeedSequence(seed, spawn_key=(c,))``), so variants with the same deal layout play the same
shuffled decks (common random numbers) and a result depends on ``(variant, seed, n, chunk_size,
policies)`` only. Each hand is settled with ``zipai_sim.game.settle``; per chunk only sums are kept
(memory is flat in the number of hands), plus, when asked (``rows=K``), the per-hand rows of the
first ``K`` hands of every chunk: a deterministic sample that does not depend on the thread count
(hands are independent, so any fixed positions are a fair sample).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

import numpy as np
import polars as pl

from zipai_sim.game.reference import shuffled_deck
from zipai_sim.game.settle import settle
from zipai_sim.game.variants import Variant, load_variant
from zipai_sim.kernels.play.search import SEARCH_KERNELS
from zipai_sim.studies.arena import cheat_note
from zipai_sim.play import DEFAULT_HAND_CHUNK, SEARCH_POLICIES
from zipai_sim.play.engine import Game
from zipai_sim.play.payoffs import OutcomeCache, outcome_row
from zipai_sim.play.external import BatchPolicy, lineup
from zipai_sim.play.learned import lineup_weights
from zipai_sim.play.policies import POLICIES, as_policy, is_named
from zipai_sim.play.registry import DEFAULT_K
from zipai_sim.play.trace import hand_result
from zipai_sim.records.build import external_records, kernel_records, reference_hook
from zipai_sim.report import DEFAULT_SEED, ReportFrame, run_fields
from zipai_sim.runs.chunks import (
    check_chunk_size,
    check_count,
    check_seed,
    check_threads,
    chunk_keys,
    chunk_sizes,
)
from zipai_sim.runs.driver import cons_list, run_parts
from zipai_sim.studies.balance_rows import rows_frame, sample_block
from zipai_sim.studies.balance_sums import Sums, add_rows, summarize


def _play_chunk(v: Variant, key: int, size: int, policies: Sequence[object], sums: Sums,
                keep: int = 0, on_hand=None, rk: int = DEFAULT_K, deal0: int = 0,
                origin: str = "") -> np.ndarray | None:
    """The reference engine, hand by hand (the twin of the kernel path). With ``keep > 0``
    returns the outcome rows, payments and units of the first ``keep`` hands as
    ``(rows, pay, units)``. ``on_hand(j, game, outcome)`` sees every hand (hand records). An
    exception from a user policy gets a note naming deal ``deal0 + j`` and ``origin``."""
    kept: list[tuple[np.ndarray, tuple[int, ...], tuple[int, int]]] = []
    for j in range(size):
        game = Game(v, shuffled_deck(key, j), [as_policy(x, rk) for x in policies], key, j)
        try:
            out = game.play()
        except Exception as e:  # a user policy's own error: say which hand to look at
            e.add_note(f"while playing deal {deal0 + j}{origin}")
            raise
        money = settle(v, hand_result(game, out))
        sums.add(out, money)
        if on_hand is not None:
            on_hand(j, game, out)
        if j < keep:
            kept.append((outcome_row(game, out), money.payments,
                         (money.units, money.fanxing_units)))
    if not kept:
        return None
    return (np.array([r for r, _, _ in kept], np.int64), np.array([q for _, q, _ in kept],
            np.int64), np.array([u for _, _, u in kept], np.int64))


def simulate_hands(variant: str | os.PathLike | Variant, n: int, seed: int = DEFAULT_SEED,
                   policies: str | Sequence[object] = "greedy", chunk_size: int | None = None,
                   threads: int | None = None, engine: str = "numba",
                   rows: int = 0, records: int = 0,
                   progress: bool | None = None, client: object = None,
                   rollout_k: int = DEFAULT_K) -> pl.DataFrame | tuple:
    """Play and settle ``n`` hands of ``variant`` from ``seed`` with ``policies`` (one name for
    every seat, or one per seat: a bot of ``play.registry``, a searching one with
    ``rollout_k`` worlds per candidate answer; a ``BatchPolicy``; a user policy object on the
    reference engine);
    returns the balance table
    (``summarize``; a ``report.ReportFrame``, which in a notebook shows the run's header line
    and the table as ``zipai-sim balance`` prints it). The default seed is the command line's,
    20261129.

    ``engine="numba"`` (default) plays with ``kernels.play`` over all cores (``threads``);
    ``"reference"`` with the readable ``play.engine`` (about 100 hands/s): both play the same
    hands move for move. Results depend on ``(variant, seed, n, chunk_size, policies)`` only.
    With ``engine="reference"`` a policy may also be a user policy object
    (``play.policies.as_policy``; the same object plays that seat in every hand).

    ``rows=K > 0`` also keeps the first ``K`` hands of every chunk (chunk ``c`` holds hands
    ``c·chunk_size …``) as per-hand rows and returns ``(summary, rows)``: one row per sampled
    hand with ``variant, threshold, chunk, deal`` (the hand's index in the run), ``winner``
    (seat, 0 = dealer; -1 荒庄), ``how`` (zimo/fangpao/drawn, null on 荒庄), ``payer`` (the
    discarder of a 放炮, else -1), ``huxi``, ``units`` and ``fanxing_units`` (variant's unit,
    RULES.md §7), ``fanxing`` (matches), ``tianhu``/``dihu``/``haidi``, ``instant`` (santi /
    wukan / ""), ``draws``, ``win_card``, the winner's ``reds``/``bigs``/``cards`` counts,
    ``all_pungs``, ``cowinners`` (the other winners of a shared win at the deal) and
    ``pay_seat0 …`` (+ ``pay_sitter``), which sum to 0. The sample is the same
    for any thread count and either engine; it adds ``K`` rows per chunk (the totals stay flat).

    ``records=R > 0`` also returns the hand records (``records.format.HandRecord``,
    docs/records.md) of the run's first ``R`` hands (deals ``0 … R−1``), last in the tuple:
    ``(summary, records)`` or, with ``rows``, ``(summary, rows, records)``. Write them with
    ``write_records(records, "hands.jsonl")``; ``record.replay()`` checks one move by move
    through the reference engine. On the numba engine the ``R`` hands are played once more
    by ``kernels.play.play_one`` to get their moves (a few ms each).
    A progress bar (stderr) appears after two seconds, and a note when the kernels are to be
    compiled (a fresh install), unless ``progress=False``. ``client``: a
    ``dask.distributed.Client`` whose workers play the chunks (the same result, bit for bit;
    not with reference-engine ``records``). Ctrl-C stops at the next batch of
    chunks and returns the hands finished, as ``simulate_deals`` does: the header says
    ``PARTIAL``, ``summary.run["n"]`` is the hands done (the first ``n`` hands of the run).
    Raises ValueError for bad counts, seeds, policy or engine names; VariantError.

    >>> s = simulate_hands("guangxi-81", 400, seed=1)
    >>> s.filter(metric="win").select("seat", "count").rows()   # hands won per seat (0 deals)
    [(0, 74), (1, 79), (2, 66)]
    >>> s.filter(metric="huangzhuang").select("count", "n").row(0)   # 荒庄: nobody won
    (181, 400)
    """
    return hands_runs([load_variant(variant)], n, seed, policies, chunk_size, threads, engine,
                      rows, records, progress, client, rollout_k)[0]


def hands_runs(variants: Sequence[Variant], n: int, seed: int = DEFAULT_SEED,
               policies: str | Sequence[object] = "greedy", chunk_size: int | None = None,
               threads: int | None = None, engine: str = "numba", rows: int = 0,
               records: int = 0, progress: bool | None = None, client: object = None,
               rollout_k: int = DEFAULT_K) -> list:
    """``simulate_hands`` of several variants (or thresholds) on the same hands, in lockstep
    (``runs.run_parts``): a Ctrl-C leaves every run with the same finished hands, so the runs
    of a sweep stay comparable. One ``simulate_hands`` result per variant."""
    from zipai_sim.kernels import play as kp

    n, seed = check_count(n), check_seed(seed)
    cs = check_chunk_size(chunk_size if chunk_size is not None else DEFAULT_HAND_CHUNK)
    if engine not in ("numba", "reference"):
        raise ValueError(f"engine must be 'numba' or 'reference', got {engine!r}")
    th = None
    if engine == "numba":
        th = check_threads(threads)
    keep = min(check_count(rows, "rows"), cs)
    n_rec = min(check_count(records, "records"), n)
    if client is not None and engine == "reference" and n_rec:
        raise ValueError("records: the reference engine records hands where it plays them; "
                         "ask for records without client= (a local run)")
    from zipai_sim.play.rollout import check_k

    rk = check_k(rollout_k)
    pols_of, recs_of, parts = [], [], []
    for v in variants:
        seats = v.layout.players
        pols = [policies] * seats if isinstance(policies, (str, BatchPolicy)) else \
            list(policies) if isinstance(policies, (list, tuple)) else None
        if (pols is None or len(pols) != seats
                or any(isinstance(x, str) and x not in POLICIES for x in pols)):
            raise ValueError(f"policies must be one of {sorted(POLICIES)} or a list of {seats}, "
                             f"one per seat ({v.key} has {seats} seats: names, or policy objects "
                             f"on the reference engine), got {policies!r}")
        if engine == "numba" and not all(is_named(x) or isinstance(x, BatchPolicy)
                                         for x in pols):
            raise ValueError("policies: user policy objects play on the reference engine only "
                             "(engine='reference'); the numba engine knows "
                             f"{', '.join(sorted(POLICIES))} and batch policies "
                             "(play.external.BatchPolicy)")
        if engine == "reference" and any(isinstance(x, BatchPolicy) for x in pols):
            raise ValueError("policies: a batch policy plays on the numba engine (engine="
                             "'numba'), the reference engine asks one question at a time")
        for x in pols:
            if not isinstance(x, BatchPolicy):
                as_policy(x)  # a policy object that fits no protocol fails here, before any hand
        recs: list = []
        pols_of.append(pols)
        recs_of.append(recs)
        parts.append(_reference_part(v, n, seed, cs, pols, keep, recs, n_rec, rk)
                     if engine == "reference" else _numba_part(v, n, seed, cs, pols, keep, rk))
    rolls = any(x in SEARCH_POLICIES for pols in pols_of for x in pols)
    ws = lineup_weights(variants, pols_of)
    identity = {"what": "hands", "variants": [v.key for v in variants],
                "rules_hash": [v.rules_hash for v in variants],
                "thresholds": [v.win.threshold for v in variants], "seed": str(seed),
                "policies": [[x if isinstance(x, str) else x.ident if isinstance(x, BatchPolicy)
                              else type(x).__name__ for x in pols]
                             for pols in pols_of], "engine": engine, "rows": keep,
                **({"rollout_k": rk} if rolls else {}),
                **({"weights_hash": ws} if ws else {})}
    t0 = time.perf_counter()
    if engine == "reference":
        run = run_parts(n, cs, 1, parts, unit="hand", progress=progress, identity=identity,
                        desc=variants[0].key if len(variants) == 1 else "", client=client)
    else:
        run = _numba_run(n, cs, th, parts, progress, identity,
                         variants[0].key if len(variants) == 1 else "", client, rolls)
    seconds, out = time.perf_counter() - t0, []
    for i, (v, pols, recs, (sums, cells)) in enumerate(zip(variants, pols_of, recs_of,
                                                          run.state)):
        if engine == "numba" and n_rec and any(isinstance(x, BatchPolicy) for x in pols):
            recs.extend(external_records(v, seed, cs, pols, min(n_rec, run.done)))
        elif engine == "numba" and n_rec:
            recs.extend(kernel_records(v, seed, cs, pols, min(n_rec, run.done), rk))
        # the summary shows itself in a notebook as `zipai-sim balance` prints it; a partial
        # run says so in its header, with n = the hands done (as SimResult.report does)
        head = run_fields(v, seed=seed, n=run.done, unit="hands", chunk_size=cs,
                          policies=[x.name if isinstance(x, BatchPolicy) else x
                                    for x in pols], engine=engine, partial=run.partial, n_requested=n,
                          threads=1 if engine == "reference" else th, workers=run.workers,
                          weights=None if ws is None else ws[i])
        head["seconds"] = 0.0 if i else seconds  # one clock for the lockstep runs
        if set(SEARCH_POLICIES) & {x for x in pols if isinstance(x, str)}:
            head["extra"] = [*head.get("extra", ()), f"rollout: {rk} worlds per candidate answer",
                             *cheat_note(*pols)]
        got: tuple = (ReportFrame.wrap(summarize(v.key, sums, v.win.threshold), head),)
        if keep:
            width = v.layout.players + (1 if v.layout.sitter else 0)
            blocks = [b for batch in cons_list(cells) for b in batch]
            block = np.concatenate(blocks) if blocks else np.zeros(
                (0, 2 + kp.N_OUT + 2 + width), np.int64)
            got += (rows_frame(v, block),)
        if records:  # a chunk cut short by Ctrl-C may have recorded hands that are not counted
            got += (recs[:run.done],)
        out.append(got if len(got) > 1 else got[0])
    return out


def _reference_part(v: Variant, n: int, seed: int, cs: int, pols: list, keep: int,
                    recs: list, n_rec: int, rk: int = DEFAULT_K) -> tuple:
    """``(work, add, state)`` of one variant's hands on the reference engine."""
    seats = v.layout.players

    def work(first: int, k: int) -> tuple[Sums, list[np.ndarray]]:
        sums, blocks = Sums(seats), []
        for c in range(first, first + k):
            key, size = int(chunk_keys(seed, c, 1)[0]), int(chunk_sizes(n, cs, c, 1)[0])
            hook = reference_hook(recs, n_rec, seed, c, cs, pols)
            got = _play_chunk(v, key, size, pols, sums, keep, hook, rk, c * cs,
                              f" of seed {seed} ({v.key}, chunk size {cs})")
            if got is not None:
                blocks.append(sample_block(c, cs, *got))
        return sums, blocks

    return work, _add_batch, (Sums(seats), None)


def _add_batch(state: tuple, got: tuple) -> tuple:
    """A finished batch joined to the run's aggregate as a new one (``runs.run_batches``)."""
    sums, blocks = got
    return state[0].merged(sums), (blocks, state[1]) if blocks else state[1]


def _numba_part(v: Variant, n: int, seed: int, cs: int, pols: list, keep: int,
                rk: int = DEFAULT_K) -> tuple:
    """``(work, add, state)`` of one variant's hands on ``kernels.play``: a batch's chunks in
    one parallel call, each chunk's rows settled and added in chunk order."""
    from zipai_sim.kernels import play as kp
    from zipai_sim.play.chunks import play_chunks

    codes, external = lineup(pols)
    seats = v.layout.players
    cache = OutcomeCache(v)  # chunks repeat outcomes: each distinct one settled once a run

    def work(first: int, k: int) -> tuple[Sums, list[np.ndarray]]:
        keys, sizes = chunk_keys(seed, first, k), chunk_sizes(n, cs, first, k)
        out = np.zeros((k, int(sizes.max()), kp.N_OUT), np.int64)
        play_chunks(v, keys, sizes, codes, out, rk, None, external)
        sums, blocks = Sums(seats), []
        for c in range(k):  # chunk order: sums are exact and thread-independent
            pay, units = add_rows(v, out[c, : sizes[c]], sums, cache)
            if keep and sizes[c]:
                j = min(keep, int(sizes[c]))
                blocks.append(sample_block(first + c, cs, out[c, :j], pay[:j], units[:j]))
        return sums, blocks

    return work, _add_batch, (Sums(seats), None)


def _numba_run(n: int, cs: int, th: int, parts: list, progress: bool | None,
               identity: dict, desc: str, client: object = None, rolls: bool = False):
    """The numba parts in batches of 2 × threads chunks (``runs.run_parts``); ``rolls``: a
    rollout seat plays (its kernels join the compile note's check)."""
    import numba

    from zipai_sim.kernels import play as kp
    from zipai_sim.kernels.play import rollout as kr

    old = numba.get_num_threads()
    numba.set_num_threads(min(th, numba.config.NUMBA_NUM_THREADS))
    try:
        return run_parts(n, cs, 2 * numba.get_num_threads(), parts, unit="hand", desc=desc,
                         progress=progress, identity=identity,
                         kernels=(kp.play_chunks,) + (kr.ROLLOUT_KERNELS + SEARCH_KERNELS
                                                     if rolls else ()),
                         client=client)
    finally:
        numba.set_num_threads(old)
