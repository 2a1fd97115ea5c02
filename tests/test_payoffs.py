"""``play.payoffs``: an ``OutcomeCache`` changes which rows reach the settlement, never a payment.

The reference is ``settle_outcomes`` without a cache (every row through ``settle_batch.settle_rows``,
itself checked against hands worked by hand in test_settle.py and by the independent
recomputation of test_rules_checker.py)."""

import pickle
from importlib.resources import files

import numpy as np
import pytest

import zipai_sim as zs
from zipai_sim.kernels import play as kp
from zipai_sim.play.payoffs import OutcomeCache, settle_outcomes
from zipai_sim.runs.chunks import chunk_keys, chunk_sizes


def _rows(v, n: int, code: int, seed: int = 3) -> np.ndarray:
    cs = 64
    m = -(-n // cs)
    keys, sizes = chunk_keys(seed, 0, m), chunk_sizes(n, cs, 0, m)
    out = np.zeros((m, cs, kp.N_OUT), np.int64)
    kp.play_chunks(keys, sizes, v.params, int(v.win.choupai_win),
                   np.full(v.layout.players, code, np.int64), out, np.zeros((kp.MAX_SEATS, kp.N_FEAT)))
    return out.reshape(-1, kp.N_OUT)[:n]


def _sitter(tmp_path):
    text = files("zipai_sim.rules").joinpath("guangxi-81.toml").read_text(encoding="utf-8")
    path = tmp_path / "sitter.toml"
    path.write_text(text.replace('key = "guangxi-81"', 'key = "sitter-81"')
                    .replace("sitter = false", "sitter = true", 1), encoding="utf-8")
    return zs.load_variant(path)


def _shared_win(v) -> np.ndarray:
    """A shared win at the deal (RULES.md §6, seed 000 ⑻): the dealer and seat 1 each 三提 of
    27 油 (the row test_rules_exact.py's kernel hand gives); seat 2 pays each."""
    row = np.zeros(kp.N_OUT, np.int64)
    row[[kp.O_WINNER, kp.O_HOW, kp.O_PAYER, kp.O_HUXI]] = 0, kp.HOW_ZIMO, -1, 27
    row[[kp.O_RED, kp.O_BIG, kp.O_TOTAL, kp.O_TIANHU, kp.O_NCO]] = 3, 4, 21, 1, 1
    row[kp.O_CO:kp.O_CO + kp.CO_COLS] = -1
    b = kp.O_CO
    row[b + kp.CO_SEAT], row[b + kp.CO_RED], row[b + kp.CO_BIG] = 1, 3, 4
    row[b + kp.CO_TOTAL], row[b + kp.CO_ALL_PUNGS], row[b + kp.CO_FANXING] = 20, 0, 0
    return row


@pytest.mark.parametrize("key", ["guangxi-81", "changde-paohuzi", "liuhu-dao"])
def test_cached_settlement_is_the_plain_one_across_chunks(key):
    v = zs.load_variant(key)
    rows = np.concatenate([_rows(v, 300, kp.POL_GREEDY), _rows(v, 300, kp.POL_RANDOM)])
    want = settle_outcomes(v, rows)
    cache = OutcomeCache(v)
    for a in range(0, len(rows), 128):  # chunk after chunk: later chunks hit the cache
        got = settle_outcomes(v, rows[a:a + 128], cache)
        assert np.array_equal(got[0], want[0][a:a + 128])
        assert np.array_equal(got[1], want[1][a:a + 128])
    assert 0 < len(cache) < len(rows)  # outcomes repeat
    again = settle_outcomes(v, rows[::-1], cache)  # all hits
    assert np.array_equal(again[0], want[0][::-1]) and np.array_equal(again[1], want[1][::-1])


def test_sitter_share_and_shared_wins_and_odd_values_bypass_nothing(tmp_path):
    """The 数信 sitter's column, a shared win at the deal (settled alone, never cached under
    its first winner's key) and a value outside the packed key's range all settle as without
    a cache."""
    v = _sitter(tmp_path)
    rows = _rows(v, 200, kp.POL_GREEDY)
    rows[5] = _shared_win(v)
    cache = OutcomeCache(v)
    plain = settle_outcomes(v, rows)
    assert plain[0].shape[1] == 4
    for _ in range(2):
        got = settle_outcomes(v, rows, cache)
        assert np.array_equal(got[0], plain[0]) and np.array_equal(got[1], plain[1])
    alone = rows[5].copy()
    alone[kp.O_NCO] = 0  # the same first winner, not shared: a different settlement
    assert not np.array_equal(settle_outcomes(v, alone[None], cache)[0][0], plain[0][5])
    odd = rows[:3].copy()
    odd[:, kp.O_FANXING] = 300  # beyond the key's 8 bits
    assert np.array_equal(settle_outcomes(v, odd, cache)[0], settle_outcomes(v, odd)[0])


def test_cache_starts_over_when_full_and_pickles_empty():
    v = zs.load_variant("guangxi-81")
    rows = _rows(v, 400, kp.POL_RANDOM)
    want = settle_outcomes(v, rows)[0]
    cache = OutcomeCache(v)
    cache.MAX_ROWS = 40
    for a in range(0, len(rows), 25):
        assert np.array_equal(settle_outcomes(v, rows[a:a + 25], cache)[0], want[a:a + 25])
        assert len(cache) <= 40
    copy = pickle.loads(pickle.dumps(cache))
    assert len(copy) == 0 and np.array_equal(settle_outcomes(v, rows, copy)[0], want)
    with pytest.raises(ValueError, match="another variant"):
        settle_outcomes(zs.load_variant("changde-paohuzi"), rows, cache)
