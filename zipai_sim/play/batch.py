"""``BatchTable``: thousands of hands on the numba engine, advanced in lockstep to the questions
of the seats the caller answers (issue 48; docs/guide/rl.md).

The caller's model sees a batch of observations (float32[w, OBS_SIZE], ``play.actions``) with
their legal masks (bool[w, N_ACTIONS]) and returns one action per waiting hand; every other
seat is a built-in bot played inside the kernel (``kernels.play.table``). Finished hands give
their settlements (RULES.md §7, in the variant's unit: 舵, 油, 囤, 排, 胡) and the table deals
the next hand into the freed slot, so memory is flat in the number of hands played.

Hand ``h`` of a table is deal ``h % DEFAULT_HAND_CHUNK`` of chunk ``h // DEFAULT_HAND_CHUNK``
of ``seed`` (``runs.chunks.chunk_keys``), each seat's policy stream as in ``simulate_hands``
and ``arena``: the same decks, so a table's hands pair with the built-in bots' on them. Given
the answers, a hand's play depends on nothing else (not the batch size, the thread count or the
other hands).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from zipai_sim.kernels import play as kp
from zipai_sim.kernels.deal import DECK
from zipai_sim.kernels.play import rollout as kr
from zipai_sim.kernels.play.learned import put_weights
from zipai_sim.kernels.play.table import table_batch
from zipai_sim.play import DEFAULT_HAND_CHUNK, POLICY_NAMES, SEARCH_POLICIES, registry
from zipai_sim.play.actions import N_ACTIONS, OBS_SIZE, actions_to_answers, answers_to_actions
from zipai_sim.play.learned import weights_for
from zipai_sim.play.payoffs import OutcomeCache, settle_outcomes
from zipai_sim.play.rollout import empty_snaps
from zipai_sim.runs.chunks import check_count, check_seed, check_threads, chunk_keys

#: the bot whose answer a caller seat's question carries as its ``hint``, and the engine code
#: the seat takes for it (a search seat whose own answer is that bot's: ``kernels.play.script``)
HINT_CODES = registry.HINT_CODES
DEFAULT_BATCH = 1024


def is_int(x: object) -> bool:
    """An integer that is not a bool (``int`` or a numpy integer)."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


@dataclass(frozen=True)
class Questions:
    """The waiting hands, one row each, in the order their actions are expected.

    ``hand`` int64[w] (the table's hand index), ``seat`` int64[w] (0 the dealer), ``kind``
    int64[w] (0 discard, 1 碰, 2 吃, 3 胡: ``actions.KIND_NAMES``), ``obs`` float32[w, OBS_SIZE],
    ``mask`` bool[w, N_ACTIONS] (the legal actions), ``hint`` int64[w] (the hint bot's action)."""

    hand: np.ndarray
    seat: np.ndarray
    kind: np.ndarray
    obs: np.ndarray
    mask: np.ndarray
    hint: np.ndarray

    def __len__(self) -> int:
        return len(self.hand)


@dataclass(frozen=True)
class Finished:
    """Hands that ended since the last call: ``hand`` int64[f], ``payments`` int64[f, seats (+
    a 数信 sitter)] (settled, the variant's unit), ``rows`` int64[f, N_OUT] (kernel outcome
    rows, ``kernels.play`` ``O_*``), ``answers`` (f int64 arrays: each hand's engine answers in
    the order its questions came, for ``BatchTable.moves``)."""

    hand: np.ndarray
    payments: np.ndarray
    rows: np.ndarray
    answers: list

    def __len__(self) -> int:
        return len(self.hand)


def _lineup(v, seats, bots, hint) -> tuple[np.ndarray, np.ndarray]:
    """(codes int64[players], caller bool[players]) of a table, or ValueError."""
    n = v.layout.players
    if not isinstance(hint, str) or hint not in HINT_CODES:
        raise ValueError(f"hint must be one of {sorted(HINT_CODES)}, got {hint!r}")
    if seats is None or (isinstance(seats, str) and seats == "all"):
        seats = range(n)
    given = seats
    bad = isinstance(seats, str) or not hasattr(seats, "__iter__")
    seats = [] if bad else list(seats)
    if bad or not seats or not all(is_int(s) for s in seats):
        raise ValueError(f"seats must be seat numbers 0..{n - 1} or 'all', got {given!r}")
    mine = sorted({int(s) for s in seats})
    if mine[0] < 0 or mine[-1] >= n:
        raise ValueError(f"seats must be seat numbers 0..{n - 1} ({v.key} has {n}), got {seats!r}")
    names = [bots] * n if isinstance(bots, str) else \
        list(bots) if isinstance(bots, (list, tuple)) else None
    if names is None or len(names) != n:
        raise ValueError(f"bots must be one bot name or a list of {n} of them, got {bots!r}")
    for s, b in enumerate(names):
        if not isinstance(b, str) or b not in POLICY_NAMES:
            raise ValueError(f"bots: seat {s} must be a bot name ({', '.join(POLICY_NAMES)}), "
                             f"got {b!r}")
        if s in mine:
            continue
        if b in SEARCH_POLICIES:
            fast = list(registry.FAST_POLICIES)
            raise ValueError(f"bots: seat {s} must be one of {fast} (the fast bots the table "
                             f"plays inside the kernel), got {b!r}")
    codes = np.array([HINT_CODES[hint] if s in mine else POLICY_NAMES.index(names[s])
                      for s in range(n)], np.int64)
    caller = np.zeros(n, bool)
    caller[mine] = True
    return codes, caller


class BatchTable:
    """``hands`` hands of ``variant`` from ``seed`` (the table's hands ``first`` … ``first +
    hands − 1``), at most ``batch`` in play at once; ``threads`` (None: all cores); the
    caller answers ``seats`` (seat numbers or "all"), ``bots`` plays the others (one fast bot
    name or one per seat: ``play.FAST_POLICIES``), and each question carries ``hint``'s
    answer (a key of ``play.registry.HINT_CODES``: greedy, study or learned). ``ask_hu``
    True: a win on offer is a 胡/pass question too; by default it is taken at once, as every
    bot, the settlement and the move-log checker take it (RULES.md §6 offers no choice; docs/decisions.md "The batched table").

    ``reset()`` deals and returns the first ``Questions``; ``step(actions)`` answers them and
    returns the next; ``finished()`` hands the ended hands' settlements over (once each);
    ``done`` is True once every hand has ended. Raises ValueError for a bad count, seed, seat,
    bot or hint, VariantError for an unknown variant; ``step`` raises ValueError naming the
    hand, seat and action for an illegal action, a wrong shape, a NaN or a non-integer, and then
    changes nothing.

    >>> t = BatchTable("guangxi-81", hands=8, seed=1, batch=4)
    >>> q = t.reset()
    >>> while not t.done:
    ...     q = t.step(q.hint)             # the hint bot's answers: greedy's own play
    >>> t.finished().payments.sum(axis=1).tolist()   # zero-sum settlements
    [0, 0, 0, 0, 0, 0, 0, 0]
    """

    def __init__(self, variant: object = "guangxi-81", *, hands: int = DEFAULT_BATCH,
                 seed: int = 0, seats: object = "all", bots: object = "greedy",
                 hint: str = "greedy", batch: int = DEFAULT_BATCH, ask_hu: bool = False,
                 threads: int | None = None, first: int = 0) -> None:
        from zipai_sim.game.variants import load_variant

        self.v = load_variant(variant)
        self.n = check_count(hands, "hands")
        self.seed = check_seed(seed)
        self.first = check_count(first, "first")
        self.batch = check_count(batch, "batch")
        if self.batch == 0:
            raise ValueError("batch must be at least 1")
        codes, caller = _lineup(self.v, seats, bots, hint)
        self._setup(codes, caller, 1 if ask_hu else 0, check_threads(threads),
                    weights_for(self.v, codes))

    @classmethod
    def _for_deals(cls, v, keys: np.ndarray, js: np.ndarray, codes: np.ndarray, caller_seats,
                   batch: int, threads: int, weights: np.ndarray | None) -> BatchTable:
        """A table of the given deals (hand ``h``: deal ``js[h]`` of chunk key ``keys[h]``)
        with kernel ``codes`` (the caller's seats ``caller_seats`` take hint codes), for the
        studies' chunks (``play.external``)."""
        t = cls.__new__(cls)
        t.v, t.n, t.seed, t.first, t.batch = v, len(keys), 0, 0, batch
        caller = np.zeros(len(codes), bool)
        caller[list(caller_seats)] = True
        t._setup(codes, caller, 0, threads, weights_for(v, codes) if weights is None else weights)
        t._deals = (np.asarray(keys, np.uint64), np.asarray(js, np.int64))
        return t

    def _setup(self, codes, caller, ask_hu: int, threads: int, weights) -> None:
        self.codes, self.caller = codes, caller
        self.ask_hu = ask_hu
        self.threads = threads
        self.players = self.v.layout.players
        self._w = weights
        self._deals = None
        self._cache = OutcomeCache(self.v)
        m = min(self.batch, max(self.n, 1))
        self._decks = np.zeros((m, DECK), np.int8)
        self._keys = np.zeros(m, np.uint64)
        self._js = np.zeros(m, np.int64)
        self._hand = np.full(m, -1, np.int64)  # the hand in each slot, -1 free
        self._answers = np.zeros((m, kp.MAX_RO), np.int64)
        self._n_answers = np.zeros(m, np.int64)
        self._started = np.zeros(m, np.int64)
        self._out = np.zeros((m, kp.N_OUT), np.int64)
        self._frozen = np.zeros(m, np.int64)
        self._fz = np.zeros((m, kp.FZ_COLS), np.int64)
        self._snaps = empty_snaps(m)
        self._obs = np.zeros((m, OBS_SIZE), np.float32)
        self._next = 0
        self._fin: list[tuple] = []
        self._waiting = np.zeros(0, np.int64)
        self._reset = False

    # --- the table's run ------------------------------------------------------------------------
    def reset(self) -> Questions:
        """Deal the first hands and bring each to its first caller question."""
        self._hand[:] = -1
        self._next = 0
        self._fin = []
        self._reset = True
        self._advance(self._fill(np.arange(len(self._hand))))
        return self._questions()

    @property
    def done(self) -> bool:
        """Every hand has ended (``reset`` called)."""
        return self._reset and self._next >= self.n and not (self._hand >= 0).any()

    def step(self, actions: object) -> Questions:
        """Answer the waiting questions with ``actions`` (ints, one per row of the last
        ``Questions``, in its order) and return the next; raises ValueError (nothing changed)
        for a wrong length or dtype, a NaN, a non-integer or an illegal action."""
        if not self._reset:
            raise RuntimeError("call reset() before step()")
        slots = self._waiting
        if self.done and np.size(actions):
            raise RuntimeError("the table is done: every hand has ended (reset() deals again)")
        act = self._check(actions, slots)
        kind = self._fz[slots, kp.FZ_KIND]
        vals = actions_to_answers(kind, act)
        full = self._n_answers[slots] >= kp.MAX_RO
        if full.any():  # never met: a hand asks < 100 questions
            i = slots[np.flatnonzero(full)[0]]
            raise RuntimeError(f"hand {self._hand[i]} asked more than {kp.MAX_RO} questions")
        self._answers[slots, self._n_answers[slots]] = vals
        self._n_answers[slots] += 1
        self._advance(slots)
        return self._questions()

    def finished(self) -> Finished:
        """The hands that ended since the last call (each once), in the order they ended."""
        if not self._fin:
            z = np.zeros(0, np.int64)
            w = self.players + (1 if self.v.layout.sitter else 0)
            return Finished(z, np.zeros((0, w), np.int64), np.zeros((0, kp.N_OUT), np.int64), [])
        hand = np.concatenate([f[0] for f in self._fin])
        rows = np.concatenate([f[1] for f in self._fin])
        answers = [a for f in self._fin for a in f[2]]
        self._fin = []
        return Finished(hand, settle_outcomes(self.v, rows, self._cache)[0], rows, answers)

    def moves(self, hand: int, answers: np.ndarray) -> np.ndarray:
        """The move log of finished hand ``hand`` played with its ``answers`` (``Finished``'s):
        int64[n, MOVE_COLS] (``kernels.play`` ``M_*`` columns, ``moves_to_log`` reads it);
        the same replay the kernel would make from the deal, for checkers and traces. Raises
        ValueError for a hand this table does not deal, or answers that are not that hand's
        (each is checked against its question's legal answers, and the hand must end with the
        last)."""
        h = check_count(hand, "hand")
        lo = 0 if self._deals is not None else self.first
        if not lo <= h < lo + self.n:
            raise ValueError(f"hand {h} is not one of this table's hands ({lo} … {lo + self.n - 1})")
        a = self._check_answers(h, answers)
        if self._deals is not None:
            key, js = self._deals[0][h:h + 1], self._deals[1][h:h + 1]
        else:
            key = chunk_keys(self.seed, h // DEFAULT_HAND_CHUNK, 1)
            js = np.array([h % DEFAULT_HAND_CHUNK], np.int64)
        deck = np.zeros((1, DECK), np.int8)
        kr.deal_decks(key, js, deck)
        S = kp.new_scratch()
        put_weights(S[9], self._w)
        S[3][kp.I_ASK_HU] = self.ask_hu
        mv = np.empty((kp.MAX_MOVES, kp.MOVE_COLS), np.int64)
        row = np.empty(kp.N_OUT, np.int64)
        n = len(a)
        a = np.concatenate([a, np.zeros(kp.MAX_RO - n, np.int64)])
        k = kr.replay_moves(deck[0], key[0], js[0], self.v.params, int(self.v.win.choupai_win),
                            self.codes, a, n, mv, row, S)
        return mv[:k].copy()

    def _check_answers(self, h: int, answers: object) -> np.ndarray:
        """``answers`` as int64[n] when they play hand ``h`` legally to its end on this table's
        line-up (one hand replayed through ``step``, which checks each), else ValueError."""
        a = np.asarray(answers)
        if a.ndim != 1 or not (a.size == 0 or np.issubdtype(a.dtype, np.integer)):
            raise ValueError(f"answers must be a 1-D array of ints, got {a.dtype} {a.shape}")
        if len(a) > kp.MAX_RO:
            raise ValueError(f"hand {h}: {len(a)} answers, more than a hand asks ({kp.MAX_RO})")
        t = BatchTable.__new__(BatchTable)
        t.v, t.n, t.seed, t.first, t.batch = self.v, 1, self.seed, h, 1
        deals = self._deals
        t._setup(self.codes, self.caller, self.ask_hu, 1, self._w)
        if deals is not None:
            t.first, t._deals = h, deals
        q = t.reset()
        for i, x in enumerate(a):
            if not len(q):
                raise ValueError(f"hand {h} ended after {i} answers, {len(a)} given")
            act = answers_to_actions(q.kind, np.array([x], np.int64))
            try:
                if actions_to_answers(q.kind, act)[0] != x:  # e.g. 7 for a 碰: no answer
                    raise ValueError
                q = t.step(act)
            except ValueError:
                raise ValueError(f"answer {i} ({int(x)}) is not legal for hand {h} (seat "
                                 f"{int(q.seat[0])}, a {('discard', '碰', '吃', '胡')[q.kind[0]]} "
                                 f"question)") from None
        if len(q):
            raise ValueError(f"hand {h} asks more than the {len(a)} answers given")
        return a.astype(np.int64)

    # --- inside ---------------------------------------------------------------------------------
    def _fill(self, slots: np.ndarray) -> np.ndarray:
        """Deal the next hands into free ``slots``; returns the slots filled."""
        free = slots[self._hand[slots] < 0]
        k = min(len(free), self.n - self._next)
        free = free[:k]
        if k == 0:
            return free
        h = self.first + np.arange(self._next, self._next + k, dtype=np.int64)
        self._next += k
        self._hand[free] = h
        if self._deals is not None:
            self._keys[free] = self._deals[0][h]
            self._js[free] = self._deals[1][h]
        else:
            chunk = h // DEFAULT_HAND_CHUNK
            uniq, inv = np.unique(chunk, return_inverse=True)
            self._keys[free] = np.concatenate([chunk_keys(self.seed, int(c), 1)
                                               for c in uniq])[inv]
            self._js[free] = h % DEFAULT_HAND_CHUNK
        self._n_answers[free] = 0
        self._started[free] = 0
        decks = np.zeros((k, DECK), np.int8)
        kr.deal_decks(self._keys[free], self._js[free], decks)
        self._decks[free] = decks
        return free

    def _advance(self, todo: np.ndarray) -> None:
        """Play ``todo`` slots to their next caller question; hand the ended ones over, deal
        new hands into their slots and play those too, until every slot waits or is free."""
        old = numba.get_num_threads()
        numba.set_num_threads(self.threads)
        try:
            while todo.size:
                todo = np.asarray(todo, np.int64)
                table_batch(todo, self._decks, self._keys, self._js, self.v.params,
                            int(self.v.win.choupai_win), self.codes, self._answers,
                            self._n_answers, self._started, self._out, self._frozen, self._fz,
                            self._snaps, self._obs, min(4 * self.threads, len(todo)),
                            self.ask_hu, self._w)
                ended = todo[self._frozen[todo] == 0]
                if ended.size:
                    self._fin.append((self._hand[ended].copy(), self._out[ended].copy(),
                                      [self._answers[i, :self._n_answers[i]].copy()
                                       for i in ended]))
                    self._hand[ended] = -1
                todo = self._fill(ended)
        finally:
            numba.set_num_threads(old)
        self._waiting = np.flatnonzero((self._hand >= 0) & (self._frozen == 1))

    def _questions(self) -> Questions:
        s = self._waiting
        fz = self._fz[s]
        kind = fz[:, kp.FZ_KIND]
        n = fz[:, kp.FZ_N]
        vals = fz[:, kp.FZ_OPTS:kp.FZ_OPTS + kp.MAX_CANDS]
        acts = answers_to_actions(kind[:, None], vals)
        ok = np.arange(kp.MAX_CANDS)[None, :] < n[:, None]
        mask = np.zeros((len(s), N_ACTIONS), bool)
        r = np.repeat(np.arange(len(s)), ok.sum(axis=1))
        mask[r, acts[ok]] = True
        self._q = Questions(self._hand[s].copy(), fz[:, kp.FZ_SEAT].copy(), kind.copy(),
                            self._obs[s].copy(), mask, acts[:, 0].copy())
        return self._q

    def _check(self, actions: object, slots: np.ndarray) -> np.ndarray:
        """``actions`` as int64[w], legal for every waiting hand, or ValueError naming it."""
        a = np.asarray(actions)
        if a.shape != (len(slots),):
            raise ValueError(f"actions must have shape ({len(slots)},): one per waiting hand, "
                             f"got shape {a.shape}")
        if a.dtype == bool or not (np.issubdtype(a.dtype, np.integer)
                                   or np.issubdtype(a.dtype, np.floating)):
            raise ValueError(f"actions must be integers, got dtype {a.dtype}")
        if np.issubdtype(a.dtype, np.floating):
            bad = ~np.isfinite(a) | (a != np.round(a))
            if bad.any():
                i = int(np.flatnonzero(bad)[0])
                raise ValueError(f"action {float(a[i])} for hand {self._hand[slots[i]]} (seat "
                                 f"{self._fz[slots[i], kp.FZ_SEAT]}) is not an integer")
        out = (a < 0) | (a >= N_ACTIONS)  # before the cast: a huge value must not wrap
        if out.any():
            i = int(np.flatnonzero(out)[0])
            x = a[i].item()
            raise ValueError(f"action {x:g} is not legal for hand {self._hand[slots[i]]} (seat "
                             f"{self._fz[slots[i], kp.FZ_SEAT]}): actions are 0..{N_ACTIONS - 1}")
        a = a.astype(np.int64)
        q = self._q
        inside = (a >= 0) & (a < N_ACTIONS)
        legal = inside.copy()
        legal[inside] = q.mask[np.flatnonzero(inside), a[inside]]
        if not legal.all():
            i = int(np.flatnonzero(~legal)[0])
            ok = np.flatnonzero(q.mask[i]).tolist()
            raise ValueError(f"action {int(a[i])} is not legal for hand {int(q.hand[i])} (seat "
                             f"{int(q.seat[i])}, a {('discard', '碰', '吃', '胡')[q.kind[i]]} "
                             f"question): legal actions are {ok}")
        return a
