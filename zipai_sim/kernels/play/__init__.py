"""The numba play engine: the twin of ``zipai_sim.play.engine.Game`` (RULES.md §5–§6).

``play_hand`` plays one dealt deck move for move as the reference does, with the same seat
policies (0 random, 1 greedy, 2 lookahead, 4 study: ``play.bots``; 3 rollout and 5 teacher
are driven from ``play.rollout``, and answer as greedy and study here), each seat drawing from
its own policy
stream (``Stream(key ^ POLICY_SALT ^ (seat << 48), j)``), and writes the moves (``moves_out``,
one ``M_*`` row each) and the outcome (``out``, ``O_*`` columns). ``play_chunks`` runs whole
chunks in parallel, one prange iteration per chunk, deal ``j`` of chunk ``c`` dealt exactly as
``reference.shuffled_deck(keys[c], j)``.

No recursion: every step of the reference (turn loop, claims on a discard and on a draw, 臭牌,
比) is a loop here. State lives in the scratch tuple of ``new_scratch()`` (allocated once per
chunk, reset per hand), in this order:

- ``hands: int8[MAX_SEATS, 20]`` hand counts (坎 inside);
- ``marks: int8[3, MAX_SEATS, 20]``: ``[MK_CHOU]`` 臭 kinds, ``[MK_PASSED_PENG]`` kinds whose
  碰 the seat passed (a later own draw is a 臭偎), ``[MK_BESIDE]`` cards lying beside the seat;
- ``melds: int64[MAX_SEATS, MAX_MELDS, MELD_COLS]`` table groups in the reference's list order:
  kind (``MELD_*``), number of cards, 胡息, up to four kinds;
- ``ints: int64[N_INTS]`` scalars (``I_*``), ``rng: uint64[2 · MAX_SEATS]`` the seats' policy
  streams (state, spare);
- ``work: int64[hand.WORK]`` for ``eval_hand``, ``tmp: int8[8, 20]`` rows, ``cs`` the 吃
  options (``kernels.chi``), ``opts: int64[20]`` discard options.

Speed notes. Every array a compiled call receives costs two atomic reference-count updates,
which dominated the first version: the hot checks (may a seat win, 跑, 碰, 吃 on this card) are
inlined and take only the arrays they read; calls are made only when something can happen.
``eval_hand`` is asked only when its own first tests (free-card count, orphan cards) pass on
packed counts, computed here the same way (``may_eval``), so results are unchanged. Scalar
arguments are cast with ``i64`` so that numba compiles one signature per helper, not one per
literal.

The package, in the order a hand uses it: ``layout`` (array layouts, the scratch tuple),
``state`` (seat state operations), ``winning`` (胡 and the wins at the deal), ``policies``
(random, greedy), ``lookahead``, ``study``, ``script`` (who answers while a rollout replays or
plays out a hand), ``claims`` (提/偎/跑/碰/吃/比 and 臭牌), ``turn`` (the turn loop, ``play_hand``,
``play_chunks``), ``rollout`` (the rollout bot's replays, worlds and playouts, driven by
``play.rollout``), ``log`` (Python helpers).
"""

from zipai_sim.kernels.play.layout import *  # noqa: F403  (the array layouts are the kernel's public vocabulary)
from zipai_sim.kernels.play.log import (
    HOW_NAMES,
    INSTANT_NAMES,
    deal_line,
    move_tuple,
    moves_to_log,
    play_one,
)
from zipai_sim.kernels.play.policies import NEIGHBOURS, SCORE_WAITS, SCORE_WIN
from zipai_sim.kernels.play.turn import play_chunks, play_hand

__all__ = [  # noqa: F405
    "HOW_NAMES", "INSTANT_NAMES", "NEIGHBOURS", "SCORE_WAITS", "SCORE_WIN", "deal_line",
    "move_tuple", "moves_to_log", "play_chunks", "play_hand", "play_one",
]
