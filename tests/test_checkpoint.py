"""Checkpoints (issue 10 §2): a run interrupted and resumed, with any thread count or batch
size, ends bit for bit as the uninterrupted run; a checkpoint of another run is refused."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from test_cli import run
from test_runmodel import _balance_interrupt_after, _ctrl_c_after, _interrupt_after

from zipai_sim.deals.simulate import simulate_deals
from zipai_sim.runs.checkpoint import CheckpointError, _from_frame, checkpoint
from zipai_sim.runs.io import read_metadata


def test_part_files_hold_values_exactly(tmp_path):
    from zipai_sim.studies.balance_sums import Sums

    sums = Sums(3)
    sums.wins[1], sums.score[2], sums.draws = 7, -12.0, 2.0 ** 60
    value = ([np.arange(6, dtype=np.int8).reshape(2, 3), None], (2 ** 63 + 5, -0.0, math.inf),
             {"a": np.uint64(2 ** 64 - 1), "b": np.bool_(True), "c": "二七十"}, sums)
    with checkpoint(tmp_path / "c") as c:
        c.segment({"x": 1}).save(0, 3, value)
    [part] = (tmp_path / "c").glob("part-*.parquet")
    got = _from_frame(part)
    assert got[0][0].dtype == np.int8 and got[0][0].tolist() == [[0, 1, 2], [3, 4, 5]]
    assert got[0][1] is None and got[1][0] == 2 ** 63 + 5
    assert math.copysign(1, got[1][1]) == -1 and got[1][2] == math.inf
    assert got[2] == {"a": 2 ** 64 - 1, "b": True, "c": "二七十"}
    assert type(got[3]) is Sums and got[3].wins.tolist() == [0, 7, 0]
    assert got[3].score.tolist() == [0, 0, -12.0] and got[3].draws == 2.0 ** 60


def test_checkpoint_refuses_a_folder_in_use_and_a_missing_one(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("other work")
    with pytest.raises(CheckpointError, match="not an empty folder"):
        with checkpoint(tmp_path / "full"):
            pass
    with pytest.raises(CheckpointError, match="no checkpoint there"):
        with checkpoint(tmp_path / "none", resume=True):
            pass


def _same(a, b) -> None:
    assert (a.n, a.partial) == (b.n, b.partial)
    assert np.array_equal(a.counts, b.counts) and np.array_equal(a.huxi_hist, b.huxi_hist)
    assert a.rows.equals(b.rows)


def test_simulate_deals_resumed_equals_the_uninterrupted_run(tmp_path, monkeypatch):
    args = dict(n=20_000, seed=11, chunk_size=1024, sample_per_chunk=2, progress=False)
    whole = simulate_deals("guangxi-81", threads=2, **args)
    _interrupt_after(monkeypatch, 2)  # batches of 4 chunks on 1 thread: 8 chunks saved
    with checkpoint(tmp_path / "c"):
        cut = simulate_deals("guangxi-81", threads=1, **args)
    assert cut.partial and cut.n == 8 * 1024
    assert len(list((tmp_path / "c").glob("part-*.parquet"))) == 2
    monkeypatch.undo()  # resumed with 2 threads and the default batch size
    with checkpoint(tmp_path / "c", resume=True):
        again = simulate_deals("guangxi-81", threads=2, **args)
    _same(again, whole)
    assert again.resumed == 8 * 1024  # the rate printed is of the deals dealt in this run
    assert "8,192 deals resumed from a checkpoint" in str(again.report())
    with checkpoint(tmp_path / "c", resume=True):  # all saved: nothing is computed
        _ctrl_c_after(monkeypatch, __import__("zipai_sim.deals.simulate").deals.simulate.ko,
                      "analyze_chunks", 0)
        _same(simulate_deals("guangxi-81", threads=2, **args), whole)


@pytest.mark.parametrize("change,key", [({"seed": 12}, "seed"), ({"n": 30_000}, "n"),
                                        ({"chunk_size": 2048}, "chunk_size")])
def test_resuming_another_run_is_refused(change, key, tmp_path):
    args = dict(n=20_000, seed=11, chunk_size=1024, progress=False)
    with checkpoint(tmp_path / "c"):
        simulate_deals("guangxi-81", **args)
    with pytest.raises(CheckpointError, match=f"another run \\({key} was"):
        with checkpoint(tmp_path / "c", resume=True):
            simulate_deals("guangxi-81", **{**args, **change})
    with pytest.raises(CheckpointError, match="another run"):
        with checkpoint(tmp_path / "c", resume=True):
            simulate_deals("guangxi-dazipai", **args)


def _cli_cut_then_resume(argv, out, tmp_path, capsys, monkeypatch, interrupt,
                         keep=lambda: None):
    """Run ``argv`` with --checkpoint, Ctrl-C'd by ``interrupt``; resume it (with ``keep``'s
    patches, e.g. a small chunk size, still on); return the resumed file and an uninterrupted
    run's file."""
    ck = tmp_path / "ck"
    interrupt()
    code, _, err = run(argv + ["--out", str(tmp_path / out), "--checkpoint", str(ck)], capsys)
    assert code == 130, err
    assert f"--resume {ck}" in err and not (tmp_path / out).exists()
    assert list(ck.glob("part-*.parquet"))  # something finished and was saved
    monkeypatch.undo()
    keep()
    code, stdout, err = run(argv + ["--out", str(tmp_path / out), "--resume", str(ck)], capsys)
    assert code == 0, err
    assert "PARTIAL" not in stdout
    code, _, err = run(argv + ["--out", str(tmp_path / ("whole-" + out))], capsys)
    assert code == 0, err
    return tmp_path / out, tmp_path / ("whole-" + out)


def _numbers(path):
    return pl.read_parquet(path).select(pl.selectors.numeric() | pl.selectors.string())


def test_cli_simulate_checkpoint_then_resume(tmp_path, capsys, monkeypatch):
    argv = ["simulate", "--deals", "20000", "--chunk-size", "1024", "--threads", "1",
            "--seed", "3"]
    got, whole = _cli_cut_then_resume(argv, "s.parquet", tmp_path, capsys, monkeypatch,
                                      lambda: _interrupt_after(monkeypatch, 1))
    assert _numbers(got).equals(_numbers(whole))
    assert read_metadata(got)["n"] == "20000"


def test_cli_balance_sweep_checkpoint_then_resume(tmp_path, capsys, monkeypatch):
    argv = ["balance", "--hands", "100", "--threads", "1", "--seed", "8",
            "--thresholds", "15", "20"]
    import zipai_sim.studies.balance as bal

    got, whole = _cli_cut_then_resume(
        argv, "b.parquet", tmp_path, capsys, monkeypatch,
        lambda: _balance_interrupt_after(monkeypatch, 3),  # in round 2: 2 kernel calls a round
        lambda: monkeypatch.setattr(bal, "DEFAULT_HAND_CHUNK", 16))
    cols = ["variant", "threshold", "metric", "seat", "count", "n", "mean", "rate"]
    assert pl.read_parquet(got).select(cols).equals(pl.read_parquet(whole).select(cols))


def test_cli_convergence_checkpoint_then_resume(tmp_path, capsys, monkeypatch):
    """5 chunks of 65,536 deals in batches of 4 (4 × threads); the first batch is one kernel
    call for its chunks and one for each of the 4 points inside it (the head of a chunk)."""
    argv = ["table", "convergence", "--deals", "300000", "--points", "5", "--start", "100",
            "--threads", "1", "--seed", "3"]

    def cut():
        import zipai_sim.tables.deal as d

        monkeypatch.setattr(d, "BATCH_DEALS", 1)
        _ctrl_c_after(monkeypatch, d.ko, "analyze_chunks", 5)

    got, whole = _cli_cut_then_resume(argv, "c.parquet", tmp_path, capsys, monkeypatch, cut)
    assert _numbers(got).equals(_numbers(whole))


def test_damaged_part_and_other_run_messages(tmp_path, capsys):
    from test_cli import assert_one_line_error

    argv = ["table", "deal", "--variants", "guangxi-dazipai", "--deals", "3000", "--seed", "2",
            "--chunk-size", "500", "--thresholds", "15", "20", "--out",
            str(tmp_path / "d.parquet")]
    code, _, err = run(argv + ["--checkpoint", str(tmp_path / "ck")], capsys)
    assert code == 0, err
    # another threshold list: the message names the option, not a list of rules hashes
    other = argv[:-4] + ["15", "25", "--out", str(tmp_path / "e.parquet")]
    line = assert_one_line_error(*run(other + ["--resume", str(tmp_path / "ck")], capsys))
    assert "thresholds was [15, 20], now [15, 25]" in line
    part = sorted((tmp_path / "ck").glob("part-*.parquet"))[0]
    part.write_bytes(part.read_bytes()[:100])
    line = assert_one_line_error(*run(argv[:-1] + [str(tmp_path / "f.parquet"), "--resume",
                                                   str(tmp_path / "ck")], capsys))
    assert f"part file {part} is damaged" in line and "delete it" in line
    part.unlink()  # as the message says: that batch and the ones after it are dealt again
    code, _, err = run(argv[:-1] + [str(tmp_path / "f.parquet"), "--resume",
                                    str(tmp_path / "ck")], capsys)
    assert code == 0, err
    assert _numbers(tmp_path / "f.parquet").equals(_numbers(tmp_path / "d.parquet"))
    (tmp_path / "file").write_text("x")
    assert "a file, not a folder" in assert_one_line_error(*run(
        argv[:-1] + [str(tmp_path / "g.parquet"), "--checkpoint", str(tmp_path / "file")],
        capsys))
