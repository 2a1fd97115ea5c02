"""Packed hands: a hand as one int64, three bits per kind (bits 3k..3k+2 hold the count of kind
k, 0..4), and per-count bit masks in the same spacing.

The deal loop only needs, per seat, which kinds are held once, twice, three or four times; as
packed words these come from a few branch-free bit operations instead of a 20-step loop whose
branches mispredict on random hands. Full count vectors are unpacked only for the rare hands
that pass the cheap tests.
"""

from numba import njit, types
from numba.extending import intrinsic

W = 3  # bits per kind
LOW = sum(1 << (W * k) for k in range(20))  # the lowest bit of every kind's field
LOW10 = sum(1 << (W * k) for k in range(10))  # small kinds
RUN_STARTS = sum(1 << (W * k) for k in list(range(8)) + list(range(10, 18)))
EQS_SMALL = (1 << (W * 1)) | (1 << (W * 6)) | (1 << (W * 9))  # 二七十
EQS_BIG = EQS_SMALL << (W * 10)  # 贰柒拾
TWIN = W * 10  # shift from a small kind to its big twin


@njit(cache=True, _nrt=False, inline="always")
def pack(deck, a, b):
    """Packed counts of ``deck[a:b]``."""
    p = 0
    for i in range(a, b):
        p += 1 << (W * deck[i])
    return p


@njit(cache=True, _nrt=False)
def unpack(p, out):
    """Write the packed counts ``p`` into ``out: int8[20]``."""
    for k in range(20):
        out[k] = (p >> (W * k)) & 7


@njit(cache=True, _nrt=False, inline="always")
def classes(p):
    """Masks (one bit per kind, at 3k) of kinds held exactly 1, 2, 3 and 4 times."""
    b0 = p & LOW
    b1 = (p >> 1) & LOW
    b2 = (p >> 2) & LOW
    n1 = b0 & ~b1 & ~b2
    n2 = b1 & ~b0 & ~b2
    n3 = b0 & b1
    n4 = b2
    return n1, n2, n3, n4


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's ``ctpop`` of an int64: one ``popcnt`` instruction where the CPU has it."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])  # already cast to the signature's int64

    return sig, codegen


@njit(cache=True, _nrt=False, inline="always")
def popcount(x):
    """Number of set bits of an int64. One instruction: the loop it replaces (``x &= x - 1``
    until zero) ran 0–4 times by the hand, and its exit mispredicted about once a seat in the
    deal loop."""
    return _ctpop(x)


@njit(cache=True, _nrt=False, inline="always")
def run_cover(m1):
    """Kinds (spaced mask) among ``m1`` (kinds held) that some run or 二七十 of held kinds
    covers (RULES.md §3)."""
    r = m1 & (m1 >> W) & (m1 >> (2 * W)) & RUN_STARTS
    cov = r | (r << W) | (r << (2 * W))
    if m1 & EQS_SMALL == EQS_SMALL:
        cov |= EQS_SMALL
    if m1 & EQS_BIG == EQS_BIG:
        cov |= EQS_BIG
    return cov


@njit(cache=True, _nrt=False, inline="always")
def orphans(m1, m2, pl):
    """Kinds (as a spaced mask) among the free cards that can join no group (RULES.md §3): not
    in a run, 二七十 or 绞 with cards held, and not the pair when one is owed (``pl`` = 1).
    ``m1``/``m2``: free kinds held at least once / twice."""
    cov = run_cover(m1)
    j = (m1 & (m1 >> TWIN) & LOW10) & ((m2 | (m2 >> TWIN)) & LOW10)
    cov |= j | (j << TWIN)
    if pl == 1:
        cov |= m2
    return m1 & ~cov


@njit(cache=True, _nrt=False, inline="always")
def may_complete(p, inc):
    """Necessary test that the packed hand ``p`` (+ ``inc``, -1 for none, from any source)
    could be all groups; False means it certainly is not. The incoming card is added as a free
    card, which covers every way §6 lets it score (a 碰/偎/跑/提 only removes free cards)."""
    n1, n2, n3, n4 = classes(p)
    m1 = n1 | n2
    m2 = n2
    pl = 1 if n4 != 0 else 0
    if inc < 0:
        return orphans(m1, m2, pl) == 0
    b = 1 << (W * inc)
    x = (p >> (W * inc)) & 7
    if x == 3:
        pl = 1  # a 跑/提 adds a four-card group
        m1 |= b
    elif x == 1:
        m2 |= b
    else:
        m1 |= b
    o = orphans(m1, m2, pl)
    if x >= 2:
        o &= ~b  # 碰/偎/跑/提 may take the card and its copies out of the free cards
    return o == 0
