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


@njit(cache=True, inline="always")
def mix64(z):
    """splitmix64 finalizer: a bijection of uint64 with good avalanche."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True, inline="always")
def deal_state(chunk_key, j):
    """Start state of deal ``j`` (0-based index inside its chunk) of the chunk keyed ``chunk_key``."""
    return mix64(chunk_key + GOLDEN * (np.uint64(j) + _ONE))


@njit(cache=True, inline="always")
def next_u64(state):
    """Advance the splitmix64 counter; returns ``(new_state, output)``."""
    state = state + GOLDEN
    return state, mix64(state)


@njit(cache=True, inline="always")
def bounded(state, m):
    """Uniform integer in ``[0, m)`` for ``1 <= m < 2**32`` (Lemire's method, exact: rejects the
    few values that would bias it). Uses the high 32 bits of one splitmix64 output per try.
    Returns ``(new_state, value)``."""
    mm = np.uint64(m)
    state, r = next_u64(state)
    prod = (r >> _S32) * mm
    low = prod & _LOW32
    if low < mm:
        t = (_TWO32 - mm) % mm
        while low < t:
            state, r = next_u64(state)
            prod = (r >> _S32) * mm
            low = prod & _LOW32
    return state, np.int64(prod >> _S32)
