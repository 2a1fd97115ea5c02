"""Batch kernels behind the public API (``zipai_sim.deals.evaluate``): one pass that checks a
batch of
hands and counts its 提 and 坎, the opening evaluation of every row (``evaluate_batch``), one
pass that does both, and 听 (waits) of every row.

``check_hands`` finds that a row is wrong, not what is wrong: the caller then runs the slow checks
(``zipai_sim.game.cards.validate_counts``) to word the error.
"""

import numpy as np
from numba import njit, prange

from zipai_sim.kernels.hand import WORK, eval_packed, instant_counts, is_win, pack_hand, waits

CHECK_BLOCK = 16384  # rows per parallel task in check_hands
WAITS_BLOCK = 256  # rows per parallel task in waits_batch

# check_hands reads a row of 20 int8 counts as five 32-bit words of four counts and works on the
# four bytes of a word at once (SWAR, in 64-bit integers so that nothing overflows)
_ONES = np.uint64(0x01010101)  # 1 in every byte; (x * _ONES) >> 24 & 0xFF sums x's four bytes
_LOW7 = np.uint64(0x7F7F7F7F)
_ADD5 = np.uint64(0x7B7B7B7B)  # 0x7B + a byte of 0..0x7F sets bit 7 exactly when the byte is ≥ 5
_HIGH = np.uint64(0x80808080)
_BYTE = np.uint64(0xFF)
_S1, _S2, _S24, _U5 = np.uint64(1), np.uint64(2), np.uint64(24), np.uint64(5)


@njit(cache=True, _nrt=False, inline="always")
def check_row(words, row, lo, hi):
    """The check of one row: ``(ok, 提 count, 坎 count)`` of the five ``uint32`` words of
    counts from ``words[row]`` (``row: uint64``, unsigned: no negative-index wraparound, twice
    as fast). ok: every count in 0..4 and the card total in ``lo..hi``; the counts are only
    meaningful when ok. Bytewise on a word of four valid counts (0..4): a count is 4 when its
    bit 2 is set, and 3 when its bits 0 and 1 both are."""
    s = np.uint64(0)
    ti = np.uint64(0)
    kan = np.uint64(0)
    any_bits = np.uint64(0)
    ge5 = np.uint64(0)
    for j in range(5):
        w = np.uint64(words[row + np.uint64(j)])
        s += w  # bytes of ≤ 4 each: five words sum to ≤ 20 per byte, no carry
        ti += (w >> _S2) & _ONES
        kan += w & (w >> _S1) & _ONES
        any_bits |= w
        ge5 |= (w & _LOW7) + _ADD5
    total = np.int64(((s * _ONES) >> _S24) & _BYTE)
    # bit 7 of a byte: negative (any_bits) or ≥ 5 (ge5)
    ok = (((any_bits | ge5) & _HIGH) == 0) & (total >= lo) & (total <= hi)
    return (ok, np.int64(((ti * _ONES) >> _S24) & _BYTE),
            np.int64(((kan * _ONES) >> _S24) & _BYTE))


@njit(cache=True, parallel=True)
def check_hands(words, lo, hi, ti_out, kan_out):
    """Check hands and count their 提 (a count of 4) and 坎 (a count of 3) in one pass.

    ``words: uint32[5 n]`` is a C-contiguous ``int8[n, 20]`` batch of counts viewed flat as
    ``uint32`` (row ``i`` is ``words[5 i: 5 i + 5]``); ``ti_out``/``kan_out: int64[n]``. Returns
    the first row with a count outside 0..4 or a card total outside ``lo..hi``, or -1 when there
    is none (the 提 and 坎 of such a row are not meaningful; ``check_row``).
    """
    n = ti_out.shape[0]
    blocks = (n + CHECK_BLOCK - 1) // CHECK_BLOCK
    first = np.full(max(blocks, 1), n, np.int64)
    for b in prange(blocks):
        f = n
        for i in range(b * CHECK_BLOCK, min(n, (b + 1) * CHECK_BLOCK)):
            ok, ti_out[i], kan_out[i] = check_row(words, _U5 * np.uint64(i), lo, hi)
            f = min(f, n if ok else i)
        first[b] = f
    bad_row = first.min()
    return -1 if bad_row >= n else bad_row


EVAL_BLOCK = 4096  # rows per parallel task in evaluate_batch: one scratch allocation each


@njit(cache=True, _nrt=False, inline="always")
def evaluate_row(row, lz, is_dealer, P, free):
    """Opening evaluation of one hand ``row: int8[20]`` (counts 0..4) with 亮张 ``lz`` (-1
    unknown): ``(best 胡息 or -1 if not complete, instant shape code, 提 count, 坎 count)``,
    from the row packed once (``hand.eval_packed``, ``hand.instant_counts``; RULES.md §3, §4,
    §6). ``free``: ``int64[WORK]`` scratch."""
    full = pack_hand(row)
    code, ti, kan = instant_counts(full, P, is_dealer, lz)
    return eval_packed(full, -1, 1, 0, 0, P, free), code, ti, kan


@njit(cache=True, parallel=True)
def evaluate_batch(counts, lz, is_dealer, P, huxi_out, instant_out):
    """Opening evaluation of ``counts: int8[n, 20]`` (counts 0..4, checked by the caller) with
    亮张 ``lz: int64[n]`` (-1 unknown): best 胡息 (-1 if not complete) and instant shape code
    per row, as ``eval_hand`` and ``instant_shape`` give them (``evaluate_row``)."""
    n = counts.shape[0]
    blocks = (n + EVAL_BLOCK - 1) // EVAL_BLOCK
    for b in prange(blocks):
        free = np.empty(WORK, np.int64)
        for i in range(b * EVAL_BLOCK, min(n, (b + 1) * EVAL_BLOCK)):
            hx, code, _ti, _kan = evaluate_row(counts[i], lz[i], is_dealer, P, free)
            huxi_out[i] = hx
            instant_out[i] = code


COMPLETE = 1  # evaluate_checked's flags: bit 0 complete, bit 1 win
WIN = 2


@njit(cache=True)
def opening_outputs(n):
    """Fresh outputs for ``evaluate_checked`` over ``n`` rows: ``(huxi int64[n], instant
    int8[n], ti int8[n], kan int8[n], flags uint8[n])``.

    Allocated by numba (plain ``malloc``), not by numpy: numpy advises transparent huge pages
    for every array of 4 MB or more, and where the system's THP defrag setting is ``madvise``
    a first touch may then wait for the kernel to compact memory. ``evaluate_opening`` on 10⁷
    hands (two threads) ran its first calls in a process at 0.42–0.45 of the bare kernel with
    numpy's arrays, and at 0.72–0.83 with these (docs/decisions.md)."""
    return (np.empty(n, np.int64), np.empty(n, np.int8), np.empty(n, np.int8),
            np.empty(n, np.int8), np.empty(n, np.uint8))


@njit(cache=True, parallel=True)
def evaluate_checked(counts, lo, hi, lz, is_dealer, P, huxi_out, instant_out, ti_out, kan_out,
                     flags_out):
    """``zipai_sim.evaluate_opening`` in one pass over ``counts: int8[n, 20]``: each row is
    checked (counts 0..4, card total in ``lo..hi``; ``check_row``), its 提 and 坎 counted
    (``ti_out``, ``kan_out: int8[n]``), and evaluated as ``evaluate_batch`` evaluates it
    (``evaluate_row``: best 胡息 ``huxi_out: int64[n]``, -1 if not complete; instant
    code ``instant_out: int8[n]``; 亮张 ``lz: int64``, the same for every row, -1 unknown),
    with ``flags_out: uint8[n]``: ``COMPLETE`` (all groups) | ``WIN`` (an instant win, or
    complete with 胡息 that wins, ``hand.is_win``: the threshold, 飘胡 where allowed; RULES.md
    §6); one byte where two bool arrays cost 10 MB more of fresh pages a 10⁷ rows. Returns the
    first bad row, or -1; bad rows are not evaluated and their outputs are not meaningful.

    One pass where the call made three before (``check_hands``, the evaluation, the flags); the
    提 and 坎 come from the packed row the evaluation reads, so the check keeps only its
    verdict. ``counts`` must be C-contiguous and 4-byte aligned (``evaluate._as_batch`` makes
    it so)."""
    n = counts.shape[0]
    words = counts.reshape(-1).view(np.uint32)  # ``check_row``'s view of the counts
    blocks = (n + EVAL_BLOCK - 1) // EVAL_BLOCK
    first = np.full(max(blocks, 1), n, np.int64)
    for b in prange(blocks):
        free = np.empty(WORK, np.int64)
        f = n
        for i in range(b * EVAL_BLOCK, min(n, (b + 1) * EVAL_BLOCK)):
            ok, _ti, _kan = check_row(words, _U5 * np.uint64(i), lo, hi)
            if not ok:
                f = min(f, i)
                continue
            hx, code, ti, kan = evaluate_row(counts[i], lz, is_dealer, P, free)
            huxi_out[i] = hx
            instant_out[i] = code
            ti_out[i] = ti
            kan_out[i] = kan
            flags_out[i] = ((COMPLETE if hx >= 0 else 0)
                            | (WIN if code != 0 or is_win(hx, P) else 0))
        first[b] = f
    bad_row = first.min()
    return -1 if bad_row >= n else bad_row


@njit(cache=True, parallel=True)
def waits_batch(hands, table_huxi, table_fours, P, out):
    """``hand.waits`` of every row of ``hands: int8[n, 20]`` with ``table_huxi``/``table_fours:
    int64[n]`` into ``out: int64[n, 20, 2]`` (胡息 as own draw / as another's card, -1 where the
    card does not complete the hand)."""
    n = hands.shape[0]
    blocks = (n + WAITS_BLOCK - 1) // WAITS_BLOCK
    for b in prange(blocks):
        for i in range(b * WAITS_BLOCK, min(n, (b + 1) * WAITS_BLOCK)):
            waits(hands[i], table_huxi[i], table_fours[i], P, out[i])
