"""Counter-based random numbers for the kernels (splitmix64).

Each deal owns a stream: its start state is a hash of the chunk key and the deal's index in the
chunk, so deal ``j`` is the same whatever the thread count and however many numbers earlier deals
drew. numba's ``np.random`` is several times slower and its state is per thread, which would tie
results to scheduling.
"""

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)
_TWO32 = np.uint64(1 << 32)
_ONE = np.uint64(1)


@njit(cache=True, _nrt=False, inline="always")
def mix64(z):
    """splitmix64 finalizer: a bijection of uint64 with good avalanche."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, _nrt=False, inline="always")
def deal_state(chunk_key, j):
    """Start state of deal ``j`` (0-based, inside its chunk) of the chunk keyed ``chunk_key``."""
    return mix64(chunk_key + GOLDEN * (np.uint64(j) + _ONE))


@njit(cache=True, _nrt=False, inline="always")
def next_u64(state):
    """Advance the splitmix64 counter; returns ``(new_state, output)``."""
    state = state + GOLDEN
    return state, mix64(state)


@njit(cache=True, _nrt=False, inline="always")
def bounded(state, spare, have, m):
    """Uniform integer in ``[0, m)`` for ``1 <= m < 2**32``, exact (Lemire's method: the few
    32-bit values that would bias it are rejected). Each splitmix64 output gives two 32-bit
    draws, high half first; ``spare``/``have`` carry the unused low half between calls.
    Returns ``(state, spare, have, value)``."""
    mm = np.uint64(m)
    while True:
        if have == 1:
            x = spare
            have = 0
        else:
            state, r = next_u64(state)
            x = r >> _S32
            spare = r & _LOW32
            have = 1
        prod = x * mm
        low = prod & _LOW32
        if low >= mm or low >= (_TWO32 - mm) % mm:
            return state, spare, have, np.int64(prod >> _S32)


@njit(cache=True, _nrt=False, inline="always")
def pair_draws(state, m):
    """The next two ``bounded`` draws, in ``[0, m)`` then ``[0, m - 1)``, from one splitmix64
    output when the stream holds no spare half (``have == 0``) and neither draw can be rejected:
    returns ``(ok, state, r1, r2)`` with ``r1``, ``r2`` as uint64. ``ok`` is False when either
    product falls in the low band where Lemire's method might reject (``low < m``, a superset of
    the rejections; under 40 in a billion pairs): the caller then draws with ``bounded`` from the
    unchanged ``state``, so the numbers are always ``bounded``'s."""
    mm = np.uint64(m)
    m2 = mm - _ONE
    nxt = state + GOLDEN
    r = mix64(nxt)
    p1 = (r >> _S32) * mm
    p2 = (r & _LOW32) * m2
    ok = ((p1 & _LOW32) >= mm) & ((p2 & _LOW32) >= m2)
    return ok, nxt, p1 >> _S32, p2 >> _S32
