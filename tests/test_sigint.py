"""Ctrl-C as a user sends it (issue 10): SIGINT to a child ``zipai-sim`` process started with
SIGINT enabled, once its progress bar shows. Every long command exits 130, prints and writes
what finished beside the requested name (never over it), with ``partial`` and ``n`` = the
work done in its metadata; the parts of a sweep stop at the same chunk; a run saved with
--checkpoint and continued with --resume equals the uninterrupted run."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

import polars as pl
import pytest
from test_cli import _console_script

from zipai_sim.runs.io import read_metadata


def _interrupt(argv: list[str], cwd, group: bool = False) -> tuple[int, bytes, str]:
    """Run ``zipai-sim argv``; SIGINT once a progress bar shows (``group``: to its whole process
    group, as a terminal's Ctrl-C reaches every process of the job). (exit code, stdout,
    stderr)."""
    exe = _console_script()
    if exe is None:
        pytest.skip("the zipai-sim console script is not installed")

    def child() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if group:
            os.setpgrp()  # its own group, so that killpg reaches it and its workers only

    p = subprocess.Popen([exe, *argv], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=child)
    got = bytearray()

    def pump() -> None:  # stderr as it comes: the bar is redrawn in place, without newlines
        while chunk := os.read(p.stderr.fileno(), 4096):
            got.extend(chunk)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 240  # a cold numba cache compiles first (~a minute)
        while b"/s]" not in got and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)  # a tqdm bar ("… 3.1Mdeal/s]") appears after 2 s of work
        assert p.poll() is None, got.decode(errors="replace")
        if group:
            os.killpg(p.pid, signal.SIGINT)
        else:
            p.send_signal(signal.SIGINT)
        p.wait(timeout=120)
        stdout = p.stdout.read()
        reader.join(timeout=5)
    finally:
        if p.poll() is None:
            p.kill()
    return p.returncode, stdout, got.decode(errors="replace")


def _partial(tmp_path, name: str, requested: int) -> dict[str, str]:
    assert not (tmp_path / f"{name}.parquet").exists()
    meta = read_metadata(tmp_path / f"{name}.partial.parquet")
    assert meta["partial"] == "true" and meta["n_requested"] == str(requested)
    assert 0 < int(meta["n"]) < requested
    return meta


def test_sigint_table_deal_sweep_stops_every_threshold_at_one_chunk(tmp_path):
    code, out, err = _interrupt(["table", "deal", "--variants", "guangxi-dazipai", "--deals",
                                 str(10**9), "--thresholds", "15", "20", "25", "--threads", "1",
                                 "--out", "d.parquet"], tmp_path)
    assert code == 130, err[-2000:]
    meta = _partial(tmp_path, "d", 10**9)
    df = pl.read_parquet(tmp_path / "d.partial.parquet")
    assert set(df["n"].to_list()) == {int(meta["n"])}  # the same decks at every threshold
    assert sorted(set(df["threshold"].to_list())) == [15, 20, 25]
    assert b"PARTIAL" in out and b"d.partial.parquet" in out


def test_sigint_table_convergence_keeps_the_points_reached(tmp_path):
    code, out, err = _interrupt(["table", "convergence", "--deals", str(10**9), "--threads",
                                 "1", "--out", "c.parquet"], tmp_path)
    assert code == 130, err[-2000:]
    meta = _partial(tmp_path, "c", 10**9)
    df = pl.read_parquet(tmp_path / "c.partial.parquet")
    assert df.height and df["n"].max() <= int(meta["n"])  # no row claims deals not done


@pytest.mark.parametrize("argv,name,requested", [
    (["balance", "--hands", str(10**8), "--thresholds", "15", "20", "--threads", "1"], "b",
     10**8),
    # in-process Ctrl-C tests cover these paths (test_runmodel, test_tables): -m slow here
    pytest.param(["match", "--matches", str(10**6)], "m", 10**6, marks=pytest.mark.slow),
    pytest.param(["table", "waits", "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十", "--variant",
                  "changsha-paohuzi", "--sims", str(10**9)], "w", 10**9,
                 marks=pytest.mark.slow),
    (["arena", "--challenger", "greedy", "--baseline", "random", "--decks", str(10**7),
      "--threads", "1", "--variant", "guangxi-81", "--variant", "hunan-hengyang"], "a", 10**7),
    pytest.param(["table", "opening", "--hands", str(10**6), "--thresholds", "15", "20",
                  "--threads", "1", "--records", "r.parquet"], "o", 10**6,
                 marks=pytest.mark.slow),
])
def test_sigint_hands_and_matches(argv, name, requested, tmp_path):
    code, out, err = _interrupt(argv + ["--out", f"{name}.parquet"], tmp_path)
    assert code == 130, err[-2000:]
    meta = _partial(tmp_path, name, requested)
    if name == "b":  # both thresholds on the same hands
        df = pl.read_parquet(tmp_path / "b.partial.parquet").filter(metric="huangzhuang")
        assert df["n"].to_list() == [int(meta["n"])] * 2
    if name == "a":  # both variants on the same decks
        assert pl.read_parquet(tmp_path / "a.partial.parquet")["decks"].to_list() == [
            int(meta["n"])] * 2
    if name == "o":
        assert (tmp_path / "r.partial.parquet").exists() and not (tmp_path / "r.parquet").exists()
    assert b"PARTIAL" in out


def test_ctrl_c_on_local_dask_workers_is_one_clean_stop(tmp_path):
    """A terminal's Ctrl-C reaches the Dask worker processes too: they used to print a
    KeyboardInterrupt traceback each; now the run stops as without Dask (exit 130, the
    finished batches written and kept for --resume) and stderr holds no traceback."""
    pytest.importorskip("distributed")
    argv = ["simulate", "--deals", str(10**9), "--seed", "5", "--dask-workers", "1",
            "--out", "d.parquet", "--checkpoint", "ck"]
    code, _, err = _interrupt(argv, tmp_path, group=True)
    assert code == 130, err[-2000:]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err[-3000:]
    assert "--resume ck" in err
    _partial(tmp_path, "d", 10**9)


def test_sigint_then_resume_equals_the_uninterrupted_run(tmp_path):
    argv = ["simulate", "--deals", str(2 * 10**7), "--threads", "1", "--seed", "77"]
    code, _, err = _interrupt(argv + ["--out", "s.parquet", "--checkpoint", "ck"], tmp_path)
    assert code == 130, err[-2000:]
    assert "--resume ck" in err
    _partial(tmp_path, "s", 2 * 10**7)
    exe = _console_script()
    more = [*argv[:-4], "--threads", "2", *argv[-2:]]  # thread count is no part of a result
    done = subprocess.run([exe, *more, "--out", "s.parquet", "--resume", "ck"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    whole = subprocess.run([exe, *more, "--out", "w.parquet"], cwd=tmp_path,
                           capture_output=True, text=True, timeout=600)
    assert whole.returncode == 0, whole.stderr
    cols = ["metric", "count", "n", "rate", "ci_low", "ci_high", "mean", "se"]
    got, want = (pl.read_parquet(tmp_path / f).select(cols) for f in ("s.parquet", "w.parquet"))
    assert got.equals(want)
    assert read_metadata(tmp_path / "s.parquet")["partial"] == "false"


def test_ctrl_c_after_the_run_finished_keeps_the_complete_result(tmp_path, capsys,
                                                                 monkeypatch):
    """SIGINT while the finished run is summarized and printed (here: inside ``report``): the
    complete result is still printed and written under its name, exit 0, with a note."""
    from test_cli import run

    from zipai_sim.deals.simulate import SimResult

    real = SimResult.report

    def report_after_ctrl_c(self, *a, **k):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
        return real(self, *a, **k)

    monkeypatch.setattr(SimResult, "report", report_after_ctrl_c)
    out = tmp_path / "s.parquet"
    code, stdout, err = run(["simulate", "--deals", "3000", "--chunk-size", "500", "--out",
                             str(out)], capsys)
    assert code == 0, err
    assert "Ctrl-C came after the run had finished" in err
    assert read_metadata(out)["partial"] == "false" and "| tianhu " in stdout
    assert signal.getsignal(signal.SIGINT) is not None  # the handler is given back
    monkeypatch.undo()  # and nothing of the held-back Ctrl-C reaches a later Python run
    from zipai_sim.deals.simulate import simulate_deals

    assert simulate_deals("guangxi-81", 3000, chunk_size=500, progress=False).n == 3000
