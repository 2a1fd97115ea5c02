"""An outside model as a bot in every study (issue 48): ``BatchPolicy`` wraps a callable from
a batch of observations and legal masks to actions (``play.actions``), and ``play_external``
plays whole chunks with it on the batched table (``play.batch``), the other seats' bots inside
the kernel. ``play.chunks.play_chunks`` hands a line-up with such a seat here, so ``arena``,
``simulate_hands``/``balance``, ``compare`` and ``fair`` take one where they take a bot name,
with their progress, Ctrl-C and resume (``runs``).

The model sees only the observation and the mask: the hidden-card test of the observation
(tests/test_rl_table.py) is its guarantee. A result is reproducible from ``(variant, seed, n)``
when the model is deterministic; the run's identity records its ``name``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from zipai_sim.play import POLICY_NAMES
from zipai_sim.play.registry import HINT_CODES

#: hands of one chunk batch in play at once through the model
EXTERNAL_BATCH = 2048


class BatchPolicy:
    """``fn(obs, mask) -> actions``: ``obs`` float32[w, OBS_SIZE], ``mask`` bool[w, N_ACTIONS]
    (``play.actions``), one action per row (ints; the legal ones only, else ValueError naming
    the hand, seat and action). ``name``: how reports and run identities call it (letters,
    digits, ``_.-``; not a shipped bot's name); ``hint``: the bot whose answers the engine
    keeps beside each question (``play.registry.HINT_CODES``: greedy, study, learned; it costs
    that bot's time, nothing else). Raises ValueError for a bad name or hint, TypeError when
    ``fn`` is not callable.

    >>> import numpy as np
    >>> first = BatchPolicy(lambda obs, mask: mask.argmax(axis=1), "first_legal")
    >>> first.name
    'first_legal'
    """

    def __init__(self, fn: Callable, name: str = "external", hint: str = "greedy") -> None:
        if not callable(fn):
            raise TypeError(f"a batch policy needs a callable fn(obs, mask), got {fn!r}")
        if (not isinstance(name, str) or not name or name in POLICY_NAMES
                or not all(c.isalnum() or c in "_.-" for c in name)):
            raise ValueError(f"a batch policy's name must be letters, digits or _.- and not a "
                             f"shipped bot's ({', '.join(POLICY_NAMES)}), got {name!r}")
        if hint not in HINT_CODES:
            raise ValueError(f"hint must be one of {sorted(HINT_CODES)}, got {hint!r}")
        self.fn, self.name, self.hint = fn, name, hint
        self.code = HINT_CODES[hint]
        self._ident: str | None = None

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.fn(obs, mask)

    @property
    def ident(self) -> str:
        """``NAME#FINGERPRINT``, how a run's identity (checkpoints, resume) names the model:
        the fingerprint hashes its answers to a fixed probe batch (the questions of
        ``PROBE_HANDS`` seeded 八一 hands), so a checkpoint made with one model is not resumed
        with another of the same name (a model whose answers are random never resumes).
        Computed once per object; raises ValueError as a bad answer in play does."""
        if self._ident is None:
            import hashlib

            obs, mask = _probe()
            act = checked_actions(self, obs, mask, lambda i: f"question {i} of the fingerprint "
                                                             f"probe")
            self._ident = f"{self.name}#{hashlib.sha256(act.tobytes()).hexdigest()[:16]}"
        return self._ident

    def __repr__(self) -> str:
        return f"BatchPolicy({self.name!r}, hint={self.hint!r})"


#: hands of the fixed probe a batch policy's fingerprint is taken on (``BatchPolicy.ident``)
PROBE_HANDS = 8
_PROBE: list = []


def _probe() -> tuple[np.ndarray, np.ndarray]:
    """The probe batch: every question of ``PROBE_HANDS`` 八一 hands of seed 0, greedy at
    every seat (obs float32[w, OBS_SIZE], mask bool[w, N_ACTIONS]); made once."""
    if not _PROBE:
        from zipai_sim.play.batch import BatchTable

        t = BatchTable("guangxi-81", hands=PROBE_HANDS, seed=0, threads=1)
        obs, mask = [], []
        q = t.reset()
        while not t.done:
            obs.append(q.obs)
            mask.append(q.mask)
            q = t.step(q.hint)
        _PROBE.append((np.concatenate(obs), np.concatenate(mask)))
    return _PROBE[0]


def checked_actions(policy: BatchPolicy, obs: np.ndarray, mask: np.ndarray,
                    where=None) -> np.ndarray:
    """``policy``'s actions for a batch (int64[w]), each legal by ``mask``, or ValueError naming
    the policy, the row (``where(i)``: its hand and seat) and the action (a failing call, a
    wrong shape or dtype, NaN, a non-integer, an illegal action). ``KeyboardInterrupt`` passes
    through (Ctrl-C)."""
    at = where or (lambda i: f"row {i}")
    try:
        got = np.asarray(policy(obs, mask))
    except Exception as e:
        raise ValueError(f"batch policy {policy.name!r} failed on a batch of {len(obs)}: "
                         f"{type(e).__name__}: {e}") from e
    w = len(obs)
    if got.shape != (w,):
        raise ValueError(f"batch policy {policy.name!r} must return one action per row, shape "
                         f"({w},), got shape {got.shape}")
    kind = got.dtype.kind
    if kind not in "iuf" or got.dtype == bool:
        raise ValueError(f"batch policy {policy.name!r} must return integer actions, got dtype "
                         f"{got.dtype}")
    if kind == "f":
        bad = ~np.isfinite(got) | (got != np.round(got))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(f"batch policy {policy.name!r}: action {float(got[i])} for {at(i)} "
                             f"is not an integer")
    ok = (got >= 0) & (got < mask.shape[1])
    act = np.where(ok, got, 0).astype(np.int64)
    ok &= mask[np.arange(w), act]
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        raise ValueError(f"batch policy {policy.name!r}: action {got[i].item():g} is not legal "
                         f"for {at(i)}: legal actions are {np.flatnonzero(mask[i]).tolist()}")
    return act


def policy_name(x: object) -> str:
    """A bot's name or a batch policy's ``name``."""
    return x.name if isinstance(x, BatchPolicy) else str(x)


def policy_ident(x: object) -> str:
    """How a run's identity names a bot: its name, or a batch policy's ``ident``."""
    return x.ident if isinstance(x, BatchPolicy) else str(x)


def lineup(pols: Sequence[object]) -> tuple[np.ndarray, dict[int, BatchPolicy]]:
    """(kernel codes int64[seats], {seat: BatchPolicy}) of a line-up of bot names and batch
    policies (a batch policy's seat takes its hint's caller code, ``play.batch.HINT_CODES``)."""
    codes = np.array([x.code if isinstance(x, BatchPolicy) else POLICY_NAMES.index(x)
                      for x in pols], np.int64)
    return codes, {s: x for s, x in enumerate(pols) if isinstance(x, BatchPolicy)}


def play_external(v, keys: np.ndarray, sizes: np.ndarray, codes: np.ndarray, out: np.ndarray,
                  external: dict[int, BatchPolicy], weights: np.ndarray | None = None,
                  threads: int | None = None) -> None:
    """``play.chunks.play_chunks`` for a line-up with batch-policy seats: deal ``j`` of chunk
    ``c`` (key ``keys[c]``, ``sizes[c]`` deals) into ``out[c, j]`` (int64[m, ≥ max(sizes),
    N_OUT]); seat ``s`` in ``external`` answers through ``external[s]``, the others play their
    kernel code. Raises ValueError (naming the hand, seat and action) for a bad answer."""
    hk = np.repeat(np.asarray(keys, np.uint64), sizes)
    hc = np.repeat(np.arange(len(sizes)), sizes)
    hj = np.concatenate([np.arange(s, dtype=np.int64) for s in sizes]) if len(sizes) else hc
    f, _ = play_deals(v, hk, hj, codes, external, weights, threads)
    out[hc[f.hand], hj[f.hand]] = f.rows


def play_deals(v, hk: np.ndarray, hj: np.ndarray, codes: np.ndarray,
               external: dict[int, BatchPolicy], weights: np.ndarray | None = None,
               threads: int | None = None):
    """Play hand ``h`` = deal ``hj[h]`` of chunk key ``hk[h]`` for every ``h``, the seats in
    ``external`` answered by their batch policies: ``(Finished, table)``, the table
    (``play.batch.BatchTable``) for ``moves``."""
    import numba

    from zipai_sim.play.batch import BatchTable

    t = BatchTable._for_deals(v, hk, hj, np.asarray(codes, np.int64), sorted(external),
                              EXTERNAL_BATCH, threads or numba.get_num_threads(), weights)
    q = t.reset()
    seats = np.array(sorted(external))
    while not t.done:
        act = np.zeros(len(q), np.int64)
        for s in seats:
            rows = np.flatnonzero(q.seat == s)
            if rows.size:
                p = external[int(s)]
                act[rows] = checked_actions(
                    p, q.obs[rows], q.mask[rows],
                    lambda i, rows=rows, s=s: f"hand {int(q.hand[rows[i]])} (seat {int(s)})")
        q = t.step(act)
    return t.finished(), t


def seat_lineup(policies: object, seats: int, key: str
                ) -> tuple[np.ndarray, dict[int, BatchPolicy], list[str]]:
    """One bot name or batch policy for every seat, or one per seat of variant ``key``
    (``seats`` seats): ``(codes, {seat: BatchPolicy}, names)``; ValueError naming the choices
    otherwise (``play.policy_codes`` for names only)."""
    pols = [policies] * seats if isinstance(policies, (str, BatchPolicy)) else \
        list(policies) if isinstance(policies, (list, tuple)) else None
    if (pols is None or len(pols) != seats
            or any(not isinstance(x, BatchPolicy) and x not in POLICY_NAMES for x in pols)):
        raise ValueError(f"policies must be one of {list(POLICY_NAMES)} or a BatchPolicy, or a "
                         f"list of {seats} of them ({key} has {seats} seats), got {policies!r}")
    codes, external = lineup(pols)
    return codes, external, [policy_name(x) for x in pols]


def lineup_ident(policies: object, seats: int | None = None) -> object:
    """``policies`` (one or one per seat) as a run's identity holds them: bot names as they
    are, batch policies by ``ident``. With ``seats``, one policy is spelt out once per seat
    (the form compare's checkpoints have always stored); without it, it stays one."""
    if isinstance(policies, (list, tuple)):
        return [policy_ident(x) for x in policies]
    if seats is not None:
        return [policy_ident(policies)] * seats
    return policy_ident(policies)


def load_batch_policy(spec: str) -> BatchPolicy:
    """The batch policy a command line names as ``MODULE:ATTR`` (``mypkg.bots:model``): the
    attribute, a ``BatchPolicy`` or a callable ``fn(obs, mask)`` (then named ``ATTR``, hint
    greedy), of the module imported from ``sys.path`` (the working directory first, as
    ``python -m`` does). Raises ValueError naming the spec when the module or attribute is
    missing or is neither."""
    import importlib
    import sys

    mod, _, attr = spec.partition(":")
    if not mod or not attr:
        raise ValueError(f"a batch policy is named MODULE:ATTR, got {spec!r}")
    if "" not in sys.path:
        sys.path.insert(0, "")
    try:
        m = importlib.import_module(mod)
    except Exception as e:  # a module that fails as it loads: its error, in one line
        raise ValueError(f"batch policy {spec!r}: cannot import {mod!r} ({type(e).__name__}: "
                         f"{e})") from None
    x = getattr(m, attr, None)
    if isinstance(x, BatchPolicy):
        return x
    if callable(x):
        return BatchPolicy(x, attr.replace(":", "."))
    raise ValueError(f"batch policy {spec!r}: {mod} has no callable or BatchPolicy {attr!r}")


def resolve(x: object) -> object:
    """A bot name as it is, a ``MODULE:ATTR`` spec as its ``BatchPolicy``; lists item by
    item."""
    if isinstance(x, (list, tuple)):
        return [resolve(y) for y in x]
    return load_batch_policy(x) if isinstance(x, str) and ":" in x else x
