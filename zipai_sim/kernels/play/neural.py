"""The ``neural`` seat policy (``POL_NEURAL``, issue 58): learned's one ply (``kernels.play.learned``)
with a network's value, twin of ``zipai_sim.play.bots_neural.NeuralPolicy``.

The value of the position an answer leaves (the rest hand after a discard; after a 碰 or 吃,
the rest hand after the best discard that follows; passing: the hand as it is) is

    V = Σ w[i] · f[i] + ys · (b3 + w3 · relu(b2 + W2 · relu(b1 + W1 · x)))

with ``f`` learned's ``N_FEAT`` features of the rest hand and ``w`` a linear part trained with
the network, and ``x`` the ``N_IN`` inputs: the seat's context of the decision (``CX_*`` in
``kernels.play.layout``: what it sees, RULES.md §3, §5 and seed 000 ⑴ — every seat's shown
table groups (another seat's 偎 face down: only their number), the cards beside each seat,
hand sizes, shown 胡息, its own 臭 and passed-碰 kinds, its unseen counts, stock and draws, the
question and the card on offer, its seat) and the answer's own inputs (``OX_*``: the rest hand's
counts, the cards the answer lays on the table, the features ``f``). The context's part of the
first layer is summed once a decision (``context``; most of the context is 0, so only its
non-zero inputs are read), each answer adds its own (``value``).

The weights sit in the seat's row of the weights (``FL_W + s · W_COLS``: ``N_FEAT`` linear
weights, then the network at ``NT_*``); ``NT_ON`` 0 leaves learned's linear value. They are
float32 numbers (the model file's) summed in float64 in a fixed order.

Training (``studies.neural``): ``NT_EPS`` > 0 makes a seat answer at random with that chance
(exploration; the choice stream ``I_XRNG`` is the driver's, never a seat's policy stream), and
with ``I_REC_ON`` a neural seat notes the inputs of the answer it chose at every decision
(``FL_XREC``, with its seat in ``FL_REC_SEAT``).
"""

from numba import njit

from zipai_sim.kernels.deal import DECK
from zipai_sim.kernels.packed import W
from zipai_sim.kernels.play.layout import (
    CX_BESIDE,
    CX_CARD,
    CX_CHOU,
    CX_DRAWS,
    CX_HELD,
    CX_HIDDEN,
    CX_HUXI,
    CX_KIND,
    CX_PASSED,
    CX_SEAT,
    CX_SEATED,
    CX_SIZE,
    CX_STOCK,
    CX_TABLE,
    CX_UNSEEN,
    FL_CTX,
    FL_F,
    FL_H0,
    FL_HH,
    FL_LAID,
    FL_REC_SEAT,
    FL_W,
    FL_X,
    FL_XREC,
    H1,
    H2,
    I_DRAWS,
    I_HELD,
    I_NMELD,
    I_NREC,
    I_POS,
    I_REC_ON,
    I_SEATS,
    I_XRNG,
    MAX_REC,
    MD_CARDS,
    MD_HUXI,
    MD_KIND,
    MD_LEN,
    MELD_WEI,
    MK_BESIDE,
    MK_CHOU,
    MK_PASSED_PENG,
    N_CTX,
    N_FEAT,
    N_IN,
    N_OPT,
    NT_B1,
    NT_B2,
    NT_B3,
    NT_EPS,
    NT_ON,
    NT_W1,
    NT_W2,
    NT_W3,
    NT_YS,
    OX_FEAT,
    OX_LAID,
    OX_REST,
    W_COLS,
    i64,
)


@njit(cache=True, _nrt=False, inline="always")
def net_at(s):
    """Where seat ``s``'s network starts in ``fl``."""
    return FL_W + s * W_COLS + N_FEAT


@njit(cache=True, _nrt=False, inline="always")
def on(fl, s):
    """Seat ``s`` plays a network."""
    return fl[net_at(s) + NT_ON] != 0.0


@njit(cache=True, _nrt=False)
def context(hands, marks, melds, ints, fl, U, s, kind, card):
    """Seat ``s``'s context (``CX_*``) of its question (``kind`` 0 discard, 1 碰, 2 吃; ``card``
    the card on offer, -1 for a discard; ``U`` its unseen counts) into ``fl[FL_CTX:]``, and the
    first layer's context part ``b1 + W1[:N_CTX]ᵀ · context`` into ``fl[FL_H0:]``; clears the
    cards laid (``FL_LAID``)."""
    c = FL_CTX
    for i in range(N_CTX):
        fl[c + i] = 0.0
    seats = ints[I_SEATS]
    for r in range(seats):
        t = (s + r) % seats
        b = c + r * CX_SIZE
        hidden = i64(0)
        huxi = i64(0)
        for m in range(ints[I_NMELD + t]):
            if melds[t, m, MD_KIND] == MELD_WEI and t != s:
                hidden += 1  # face down: another seat sees neither its kind nor its 胡息
                continue
            for q in range(melds[t, m, MD_LEN]):
                fl[b + CX_TABLE + melds[t, m, MD_CARDS + q]] += 1.0
            huxi += melds[t, m, MD_HUXI]
        for k in range(20):
            fl[b + CX_BESIDE + k] = marks[MK_BESIDE, t, k]
        fl[b + CX_HIDDEN] = hidden
        fl[b + CX_HELD] = ints[I_HELD + t] / 10.0
        fl[b + CX_HUXI] = huxi / 10.0
        fl[b + CX_SEATED] = 1.0
    for k in range(20):
        fl[c + CX_CHOU + k] = marks[MK_CHOU, s, k]
        fl[c + CX_PASSED + k] = marks[MK_PASSED_PENG, s, k]
        fl[c + CX_UNSEEN + k] = U[k] / 4.0
    fl[c + CX_STOCK] = (DECK - ints[I_POS]) / 20.0
    fl[c + CX_DRAWS] = ints[I_DRAWS] / 20.0
    fl[c + CX_KIND + kind] = 1.0
    if card >= 0:
        fl[c + CX_CARD + card] = 1.0
    fl[c + CX_SEAT + s] = 1.0
    n = net_at(s)
    for j in range(H1):
        fl[FL_H0 + j] = fl[n + NT_B1 + j]
    for i in range(N_CTX):
        x = fl[c + i]
        if x != 0.0:
            row = n + NT_W1 + i * H1
            for j in range(H1):
                fl[FL_H0 + j] += x * fl[row + j]
    for k in range(20):
        fl[FL_LAID + k] = 0.0


@njit(cache=True, _nrt=False)
def value(fl, s, full):
    """The network's part of ``V`` for the packed rest hand ``full`` of seat ``s``, its
    features in ``fl[FL_F:]`` and the cards laid in ``fl[FL_LAID:]`` (``context`` came first):
    the answer's inputs into ``fl[FL_X:]``, then the forward pass."""
    n = net_at(s)
    for k in range(20):
        fl[FL_X + OX_REST + k] = ((full >> (W * k)) & 7) / 4.0
        fl[FL_X + OX_LAID + k] = fl[FL_LAID + k]
    for i in range(N_FEAT):
        fl[FL_X + OX_FEAT + i] = fl[FL_F + i]
    for j in range(H1):
        fl[FL_HH + j] = fl[FL_H0 + j]
    for i in range(N_OPT):
        x = fl[FL_X + i]
        if x != 0.0:
            row = n + NT_W1 + (N_CTX + i) * H1
            for j in range(H1):
                fl[FL_HH + j] += x * fl[row + j]
    out = fl[n + NT_B3]
    for q in range(H2):
        z = fl[n + NT_B2 + q]
        row = n + NT_W2 + q * H1
        for j in range(H1):
            h = fl[FL_HH + j]
            if h > 0.0:
                z += h * fl[row + j]
        if z > 0.0:
            out += z * fl[n + NT_W3 + q]
    return out * fl[n + NT_YS]


@njit(cache=True, _nrt=False)
def explore(fl, ints, s, m):
    """A random answer index below ``m`` with seat ``s``'s exploration chance ``NT_EPS``, else
    -1 (always -1 at ε = 0: play never draws). The stream is ``ints[I_XRNG]``, a 64-bit LCG
    (Knuth's MMIX constants) the recording driver seeds per hand."""
    eps = fl[net_at(s) + NT_EPS]
    if eps <= 0.0 or m < 2:
        return i64(-1)
    x = ints[I_XRNG] * i64(6364136223846793005) + i64(1442695040888963407)
    u = ((x >> 11) & ((i64(1) << 52) - 1)) / float(i64(1) << 52)
    x = x * i64(6364136223846793005) + i64(1442695040888963407)
    ints[I_XRNG] = x
    if u >= eps:
        return i64(-1)
    return i64(((x >> 11) & ((i64(1) << 52) - 1)) % m)


@njit(cache=True, _nrt=False)
def note(fl, ints, s):
    """With ``I_REC_ON``, note the context and the inputs ``value`` last wrote (the chosen
    answer) as a training row of seat ``s``."""
    n = ints[I_NREC]
    if ints[I_REC_ON] != 1 or n >= MAX_REC:
        return
    r = FL_XREC + n * N_IN
    for i in range(N_CTX):
        fl[r + i] = fl[FL_CTX + i]
    for i in range(N_OPT):
        fl[r + N_CTX + i] = fl[FL_X + i]
    fl[FL_REC_SEAT + n] = float(s)
    ints[I_NREC] = n + 1
