"""The batched table's fixed action space and observation layout (issue 48; docs/guide/rl.md).

One action space serves every question (RULES.md §5–§6):

- ``0 … 19`` discard (出牌) a card of that kind (slots 0–9 小 一..十, 10–19 大 壹..拾);
- ``PENG`` (20) 碰 the card on offer;
- ``HU`` (21) 胡: take the win on offer;
- ``PASS`` (22) decline what is on offer: the 碰, the 吃 or the 胡;
- ``CHI + j`` (23 … 69) 吃 with option ``j``: the j-th of the 吃 options the engine lists for
  the card (the 吃 group, then its 比 groups; ``kernels.chi.chi_options`` order, the options that
  leave a discard, §5.3), whose cards are row j of the observation's ``chi`` block.

A question's legal mask allows exactly the answers the engine offers: a discard's free kinds (坎
are never discarded, §5.7), 碰/pass, 吃 options/pass, 胡/pass.

The observation (float32[OBS_SIZE], ``kernels.play.layout`` ``OB_*``) is what the asking seat
sees, in blocks: ``hand`` (its counts by kind), ``unseen`` (the cards it has not seen, by
kind), one ``seat`` block per seat in turn order from the asking seat (``SB_*``: 吃 cards,
碰/臭偎, 提/跑, own face-down 偎, cards beside it, kinds it discarded, own 臭 and passed 碰,
face-down 偎 count, cards held, visible 胡息, dealer, seated), the ``question`` block (``Q_*``:
its kind, the card on offer, where it came from, drawn or discarded, the dealer's 亮张, stock
left, draws, first discard pending, the asking seat) and the ``chi`` block (each 吃 option's
cards by kind). ``obs_names()`` names every column.
"""

from __future__ import annotations

import numpy as np

from zipai_sim.kernels import play as kp

PENG = 20
HU = 21
PASS = 22
CHI = 23
N_ACTIONS = CHI + kp.MAX_CHI_ACTS
OBS_SIZE = kp.OBS_SIZE

#: question kinds (the engine's ``RO_*`` codes)
KIND_NAMES = ("discard", "peng", "chi", "hu")

_CARD = [f"{'s' if k < 10 else 'b'}{k % 10 + 1}" for k in range(20)]
_SEAT_FIELDS = (("chi", kp.SB_CHI, 20), ("triple", kp.SB_TRIPLE, 20), ("four", kp.SB_FOUR, 20),
                ("wei", kp.SB_WEI, 20), ("beside", kp.SB_BESIDE, 20), ("discarded", kp.SB_DISC, 20),
                ("chou", kp.SB_CHOU, 20), ("passed_peng", kp.SB_PASSED, 20),
                ("n_wei", kp.SB_NWEI, 1), ("held", kp.SB_HELD, 1), ("huxi", kp.SB_HUXI, 1),
                ("dealer", kp.SB_DEALER, 1), ("seated", kp.SB_SEATED, 1))
_Q_FIELDS = (("kind", kp.Q_KIND, 4), ("card", kp.Q_CARD, 20), ("from", kp.Q_FROM, 4),
             ("drawn", kp.Q_DRAWN, 1), ("liangzhang", kp.Q_LIANG, 20), ("stock", kp.Q_STOCK, 1),
             ("draws", kp.Q_DRAWS, 1), ("first", kp.Q_FIRST, 1), ("seat", kp.Q_SEAT, 4))


def obs_names() -> list[str]:
    """The name of every observation column (``OBS_SIZE`` strings): ``hand.s1`` … ``unseen.b10``,
    ``seat0.chi.s1`` (seat0 the asking seat, seat1 the next, …), ``question.kind.discard``,
    ``chi3.s5`` (吃 option 3's cards). Raises nothing."""
    out = [""] * OBS_SIZE

    def put(base: int, prefix: str, n: int, labels: list[str] | None = None) -> None:
        for i in range(n):
            out[base + i] = prefix if n == 1 else f"{prefix}.{(labels or _CARD)[i]}"

    put(kp.OB_HAND, "hand", 20)
    put(kp.OB_UNSEEN, "unseen", 20)
    for r in range(kp.MAX_SEATS):
        b = kp.OB_SEATS + r * kp.SB_SIZE
        for name, off, n in _SEAT_FIELDS:
            put(b + off, f"seat{r}.{name}", n)
    for name, off, n in _Q_FIELDS:
        labels = list(KIND_NAMES) if name == "kind" else \
            [str(i) for i in range(4)] if name in ("from", "seat") else None
        put(kp.OB_Q + off, f"question.{name}", n, labels)
    for j in range(kp.MAX_CHI_ACTS):
        put(kp.OB_CHI + 20 * j, f"chi{j}", 20)
    return out


def answers_to_actions(kind: np.ndarray, vals: np.ndarray) -> np.ndarray:
    """The actions of engine answers ``vals`` (int64, any shape) to questions of ``kind``
    (broadcast): a discard's kind, 碰 1/0, a 吃 option index or −1, 胡 1/0."""
    kind = np.broadcast_to(kind, vals.shape)
    act = np.where(vals == 1, PENG, PASS)
    act = np.where(kind == kp.RO_DISCARD, vals, act)
    act = np.where(kind == kp.RO_CHI, np.where(vals >= 0, CHI + vals, PASS), act)
    act = np.where(kind == kp.RO_HU, np.where(vals == 1, HU, PASS), act)
    return act.astype(np.int64)


def actions_to_answers(kind: np.ndarray, act: np.ndarray) -> np.ndarray:
    """The engine answers of legal actions ``act`` (int64[w]) to questions of ``kind``."""
    return np.where(kind == kp.RO_DISCARD, act,
                    np.where(kind == kp.RO_CHI, np.where(act == PASS, -1, act - CHI),
                             (act != PASS).astype(np.int64))).astype(np.int64)
