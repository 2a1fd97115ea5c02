"""Issue 10, the run model on the command line: bounds (§5) and outputs that never destroy each
other (§3).

What each test expects comes from the issue: every count flag has a cap and a clear one-line
error naming the flag (a typo must not run for an hour or end in a MemoryError); every seed
0 … 2**64−1 works in every command; ``--variant`` refuses what is not a small regular file
before reading it; two outputs of one command on one path are refused before any work; a partial
run is written beside a complete result, never over it; the summary is printed before the final
write, and a failed write keeps the result in a temporary file named on stderr (non-zero exit).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import polars as pl
import pytest
from test_cli import _console_script, assert_one_line_error, run

from zipai_sim.runs.io import read_metadata

TOP_SEED = 2**64 - 1  # the largest seed the issue asks every command to take


# --- seeds: 0 … 2**64−1 everywhere ------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["simulate", "--deals", "300", "--chunk-size", "128"],
    ["table", "deal", "--deals", "300", "--chunk-size", "128"],
    ["table", "convergence", "--deals", "300", "--points", "2", "--start", "100"],
])
def test_top_seed_works_and_is_stored_exactly(argv, tmp_path, capsys):
    """2**64−1 is over int64: the tables once failed after the compute (u64 → i64). The seed
    is stored exactly: UInt64 in a table's seed column, text in the metadata, as simulate."""
    out = tmp_path / "r.parquet"
    code, stdout, err = run(argv + ["--seed", str(TOP_SEED), "--out", str(out)], capsys)
    assert code == 0, err
    assert "Traceback" not in err and f"seed {TOP_SEED}" in stdout
    assert read_metadata(out)["seed"] == str(TOP_SEED)
    df = pl.read_parquet(out)
    if "seed" in df.columns:
        assert df.schema["seed"] == pl.UInt64 and set(df["seed"]) == {TOP_SEED}


@pytest.mark.parametrize("command", [
    ["simulate", "--deals", "10"], ["balance", "--hands", "10"], ["match", "--matches", "1"],
    ["play"], ["table", "deal", "--deals", "10"], ["table", "opening", "--hands", "10"],
    ["table", "waits", "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十", "--sims", "10"],
    ["table", "convergence", "--deals", "10"],
])
@pytest.mark.parametrize("seed", [str(2**64), "-1"])
def test_seed_outside_64_bits_is_refused(command, seed, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert_one_line_error(*run(command + ["--seed", seed], capsys), "--seed", "2**64-1")
    assert not list(tmp_path.iterdir())


def test_table_seed_column_python_range():
    from zipai_sim import tables as T

    t = T.deal_table("guangxi-81", n=100, seed=TOP_SEED, thresholds=[15])
    assert t.schema["seed"] == pl.UInt64 and t["seed"].unique().to_list() == [TOP_SEED]
    with pytest.raises(ValueError, match=r"seed must be in 0\.\.2\*\*64-1"):
        T.convergence_table("guangxi-81", n=100, seed=2**64)


def test_plot_reads_a_top_seed_simulate_file(tmp_path, capsys):
    """plot fills the seed of a simulate summary from its metadata: 2**64−1 fits (UInt64)."""
    from zipai_sim.plots.figures import load_result

    path = tmp_path / "s.parquet"
    code, _, err = run(["simulate", "--deals", "200", "--chunk-size", "128", "--seed",
                        str(TOP_SEED), "--out", str(path)], capsys)
    assert code == 0, err
    df = load_result(path)
    assert df.schema["seed"] == pl.UInt64 and set(df["seed"]) == {TOP_SEED}


# --- caps on every count ----------------------------------------------------------------------

WAIT = "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十"


@pytest.mark.parametrize("argv,needles", [
    # time: 10¹² draws of numpy on one core is weeks (and once a 1 TB array: MemoryError)
    (["table", "waits", WAIT, "--sims", str(10**12)], ["--sims", "one core"]),
    (["table", "waits", WAIT, "--play", str(10**9)], ["--play"]),
    # a table of 100,000 rows is not a convergence plot
    (["table", "convergence", "--points", "100000"], ["--points", "100"]),
    (["table", "convergence", "--points", "0"], ["--points"]),
    # one run of n read at each point: the cap is the simulate cap of 10¹³ deals
    (["table", "convergence", "--deals", str(2 * 10**13)], ["--deals"]),
    (["simulate", "--deals", str(10**14)], ["--deals", "64 cores"]),
    # four customary thresholds: the cap is on the whole command
    (["table", "deal", "--variants", "guangxi-dazipai", "--customary", "--deals",
      str(3 * 10**12)], ["--deals", "× 4 runs"]),
    (["balance", "--hands", str(10**11)], ["--hands"]),
    (["match", "--matches", str(10**9)], ["--matches"]),
    (["match", "--max-hands", str(10**6)], ["--max-hands"]),
    (["match", "--hands", str(10**6), "--max-hands", str(10**6)], ["--hands"]),
    # memory: records and sampled rows are kept until the end
    (["table", "opening", "--hands", str(10**9)], ["--hands", "memory"]),
    (["table", "tenpai", "--hands", str(10**9)], ["--hands", "memory"]),
    (["simulate", "--deals", str(10**11), "--sample-rows", "65536"],
     ["--sample-rows", "memory"]),
    (["balance", "--hands", str(10**9), "--rows", "4096"], ["--rows", "memory"]),
])
def test_counts_over_their_cap_are_refused_at_once(argv, needles, tmp_path, capsys,
                                                   monkeypatch):
    monkeypatch.chdir(tmp_path)
    t0 = time.perf_counter()
    assert_one_line_error(*run(argv, capsys), *needles)
    assert time.perf_counter() - t0 < 30  # refused, not started
    assert not list(tmp_path.iterdir())


def test_exact_threshold_outside_the_knob_range(tmp_path, capsys, monkeypatch):
    """A threshold no hand reaches (the knobs stop at 1000 胡息) would enumerate for minutes to
    print zeros: refused before the enumeration."""
    monkeypatch.chdir(tmp_path)
    _no_work(monkeypatch, "zipai_sim.exact.opening.exact_opening")
    assert_one_line_error(*run(["exact", "--thresholds", "15", str(10**30)], capsys),
                          "--thresholds", "0..1000")
    assert not list(tmp_path.iterdir())


# --- --variant FILE: a small regular file only ----------------------------------------------

def _fifo_guard(path: Path) -> threading.Thread:
    """If the command opens the FIFO and waits for a writer, let it go after 5 s, so a
    regression fails the test instead of hanging it."""
    def unblock() -> None:
        time.sleep(5)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            os.close(fd)
        except OSError:
            pass
    t = threading.Thread(target=unblock, daemon=True)
    t.start()
    return t


@pytest.mark.parametrize("kind", ["device", "folder", "fifo", "big"])
@pytest.mark.parametrize("command,flag", [
    (["simulate", "--deals", "10"], "--variant"),
    (["table", "deal", "--deals", "10", "--variants", "guangxi-81"], "--variants"),
    (["hand", "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十拾"], "--variant"),
])
def test_variant_file_must_be_small_and_regular(kind, command, flag, tmp_path, capsys,
                                                monkeypatch):
    monkeypatch.chdir(tmp_path)
    if kind == "device":
        path = Path("/dev/zero")
    elif kind == "folder":
        path = tmp_path / "rules.toml"
        path.mkdir()
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        path = tmp_path / "pipe.toml"
        os.mkfifo(path)
        _fifo_guard(path)
    else:  # a TOML comment 2 MiB long: valid TOML, but over the 1 MiB limit
        path = tmp_path / "big.toml"
        path.write_text("#" * (2 << 20) + "\n")
    before = set(tmp_path.iterdir())
    t0 = time.perf_counter()
    line = assert_one_line_error(*run([*command, flag, str(path)], capsys), flag, str(path))
    assert time.perf_counter() - t0 < 4  # not read, and not waited on
    assert ("not a regular file" in line) == (kind != "big")
    if kind == "big":
        assert "1,048,576" in line
    assert set(tmp_path.iterdir()) == before


def test_load_variant_refuses_a_device_by_parameter():
    from zipai_sim.game.variants import VariantError, load_variant

    with pytest.raises(VariantError, match="/dev/zero: the variant file is not a regular"):
        load_variant("/dev/zero")


# --- two outputs of one command on one path ---------------------------------------------------

def _no_work(monkeypatch, *targets: str) -> None:
    def refuse(*a, **k):
        raise AssertionError("work started before the outputs were checked")
    for target in targets:
        monkeypatch.setattr(target, refuse)


@pytest.mark.parametrize("argv", [
    ["balance", "--hands", "50", "--rows", "2", "--rows-out", "X.parquet", "--out",
     "X.parquet"],
    ["balance", "--hands", "50", "--rows", "2", "--rows-out", "sub/../X.parquet", "--out",
     "X.parquet"],
    ["table", "opening", "--hands", "50", "--records", "X.parquet", "--out", "./X.parquet"],
    ["table", "tenpai", "--hands", "50", "--records", "X.parquet", "--out", "link.parquet"],
])
def test_two_outputs_on_one_path_are_refused_before_work(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "X.parquet").write_bytes(b"an earlier result")
    (tmp_path / "link.parquet").symlink_to(tmp_path / "X.parquet")
    _no_work(monkeypatch, "zipai_sim.studies.balance.hands_runs",
             "zipai_sim.tables.opening_runs")
    line = assert_one_line_error(*run(argv, capsys), "both name")
    assert re.search(r"--(out|rows-out|records) and --(out|rows-out|records)", line)
    assert (tmp_path / "X.parquet").read_bytes() == b"an earlier result"


def test_exact_out_and_checkpoint_on_one_path(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _no_work(monkeypatch, "zipai_sim.exact.opening.exact_opening")
    assert_one_line_error(*run(["exact", "--out", "e.parquet", "--checkpoint", "e.parquet"],
                               capsys), "--out and --checkpoint")
    assert not list(tmp_path.iterdir())


# --- a partial run never replaces a complete one ----------------------------------------------

def _ctrl_c_after(monkeypatch, owner, name: str, calls: int) -> None:
    """Replace ``owner.name`` by a wrapper that raises KeyboardInterrupt on call ``calls + 1``
    (as SIGINT lands between two batches): the ``calls`` finished calls are kept."""
    real, seen = getattr(owner, name), []

    def wrapper(*args, **kw):
        if len(seen) == calls:
            raise KeyboardInterrupt
        seen.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(owner, name, wrapper)


def _interrupt_after(monkeypatch, calls: int) -> None:
    """Ctrl-C during the deal kernel call after ``calls`` finished ones."""
    import zipai_sim.deals.simulate as sim

    monkeypatch.setattr(sim, "BATCH_DEALS", 1024)  # 4 chunks of 1024 deals a call, 1 thread
    _ctrl_c_after(monkeypatch, sim.ko, "analyze_chunks", calls)


def test_partial_simulate_is_written_beside_a_complete_result(tmp_path, capsys, monkeypatch):
    out = tmp_path / "run.parquet"
    argv = ["simulate", "--deals", "20000", "--chunk-size", "1024", "--threads", "1",
            "--seed", "9", "--out", str(out), "--sample-rows", "3"]
    code, _, err = run(argv, capsys)
    assert code == 0, err
    complete = out.read_bytes()
    _interrupt_after(monkeypatch, 2)
    code, stdout, err = run(argv, capsys)
    assert code == 130, err
    assert out.read_bytes() == complete  # the complete result is untouched
    part = tmp_path / "run.partial.parquet"
    meta = read_metadata(part)
    # 2 calls × 4 chunks × 1024 deals finished before the interrupt
    assert (meta["partial"], meta["n"], meta["n_requested"]) == ("true", "8192", "20000")
    assert pl.read_parquet(part).filter(metric="tianhu")["n"].item() == 8192
    assert f"wrote {part} (partial: 8,192 of 20,000 deals)" in stdout
    rows = pl.read_parquet(tmp_path / "run.partial.rows.parquet")
    assert rows.height == 8 * 3  # 3 sampled deals from each of the 8 chunks done
    assert stdout.index("tianhu") < stdout.index("wrote")  # figures first


def test_a_complete_rerun_removes_the_stale_partial(tmp_path, capsys, monkeypatch):
    """An interrupted run leaves ``run.partial.parquet`` and its rows; once the same command
    completes, they no longer describe any run of that output: removed, and said so."""
    out = tmp_path / "run.parquet"
    argv = ["simulate", "--deals", "6000", "--chunk-size", "1024", "--threads", "1",
            "--seed", "9", "--out", str(out), "--sample-rows", "2"]
    with monkeypatch.context() as m:
        _interrupt_after(m, 1)
        assert run(argv, capsys)[0] == 130
    part, part_rows = tmp_path / "run.partial.parquet", tmp_path / "run.partial.rows.parquet"
    assert part.exists() and part_rows.exists() and not out.exists()
    code, stdout, err = run(argv, capsys)
    assert code == 0, err
    assert out.exists() and (tmp_path / "run.rows.parquet").exists()
    assert not part.exists() and not part_rows.exists()
    assert f"removed {part} (an earlier interrupted run of this output)" in stdout
    assert f"removed {part_rows} (an earlier interrupted run of this output)" in stdout
    assert read_metadata(out)["n"] == "6000"


def test_sigint_to_a_real_simulate_child(tmp_path):
    """SIGINT to a child process started with SIGINT enabled, once its progress bar shows:
    exit 130, the partial result beside the requested name, no file under that name."""
    exe = _console_script()
    if exe is None:
        pytest.skip("the zipai-sim console script is not installed")
    out = tmp_path / "big.parquet"
    p = subprocess.Popen([exe, "simulate", "--deals", str(10**9), "--threads", "1", "--out",
                          str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    got = bytearray()

    def pump() -> None:  # stderr as it comes: the bar is redrawn in place, without newlines
        while chunk := os.read(p.stderr.fileno(), 4096):
            got.extend(chunk)

    threading.Thread(target=pump, daemon=True).start()
    try:
        deadline = time.monotonic() + 240  # a cold numba cache compiles first (~a minute)
        while b"deal" not in got and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)  # the tqdm bar appears after 2 s of dealing
        assert p.poll() is None, got.decode(errors="replace")
        p.send_signal(signal.SIGINT)
        p.wait(timeout=60)
        stdout = p.stdout.read()
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 130, (got.decode(errors="replace")[-2000:], stdout[-2000:])
    assert not out.exists()
    meta = read_metadata(tmp_path / "big.partial.parquet")
    assert meta["partial"] == "true" and 0 < int(meta["n"]) < 10**9
    assert b"PARTIAL" in stdout and b"big.partial.parquet" in stdout


# --- a failed final write keeps the result -----------------------------------------------------

@pytest.mark.parametrize("argv,target,shown", [
    (["simulate", "--deals", "3000", "--chunk-size", "512"], "zipai_sim.deals.simulate.simulate_deals",
     "| tianhu "),
    (["balance", "--hands", "60"], "zipai_sim.studies.balance.hands_runs", "| win "),
    (["table", "deal", "--deals", "3000"], "zipai_sim.tables.deal_table", "| tianhu "),
])
def test_failed_final_write_keeps_the_result(argv, target, shown, tmp_path, capsys,
                                             monkeypatch):
    """The folder disappears during the run (as a read-only remount would do): the figures are
    printed, the result is kept in a temporary file whose name is printed, and the exit code
    says it failed."""
    import importlib

    folder = tmp_path / "results"
    folder.mkdir()
    keep = tmp_path / "tmp"
    keep.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(keep))
    module, name = target.rsplit(".", 1)
    mod = importlib.import_module(module)
    real = getattr(mod, name)

    def run_then_lose_the_folder(*a, **k):
        got = real(*a, **k)
        shutil.rmtree(folder)
        return got

    monkeypatch.setattr(mod, name, run_then_lose_the_folder)
    code, stdout, err = run(argv + ["--seed", "4", "--out", str(folder / "r.parquet")], capsys)
    assert code not in (0, 130), (code, err)
    assert shown in stdout  # the figures are printed before the write
    assert "wrote" not in stdout
    m = re.search(r"kept in (\S+\.parquet)", err)
    assert m and "cannot write" in err, err
    kept = Path(m.group(1))
    assert kept.parent == keep and kept.exists()
    assert read_metadata(kept)["seed"] == "4"
    assert pl.read_parquet(kept).height > 0


# --- balance and match: the same run model as simulate (runs.run_batches) ---------------------

def _balance_interrupt_after(monkeypatch, calls: int, chunk: int = 16) -> None:
    """Ctrl-C during the play kernel call after ``calls`` finished ones; chunks of ``chunk``
    hands, so that with one thread a batch (2 chunks) is ``2 × chunk`` hands."""
    import zipai_sim.studies.balance as bal
    from zipai_sim.kernels import play as kp

    monkeypatch.setattr(bal, "DEFAULT_HAND_CHUNK", chunk)  # the CLI's chunk and --rows bound
    _ctrl_c_after(monkeypatch, kp, "play_chunks", calls)


def _counts(df: pl.DataFrame) -> pl.DataFrame:
    return pl.DataFrame(df).select("variant", "threshold", "metric", "seat", "count", "n")


def test_partial_balance_is_written_beside_and_equals_a_run_of_the_hands_done(
        tmp_path, capsys, monkeypatch):
    from zipai_sim.studies.balance import simulate_hands

    out = tmp_path / "b.parquet"
    out.write_bytes(b"a complete earlier result")
    _balance_interrupt_after(monkeypatch, 1)
    code, stdout, err = run(["balance", "--hands", "100", "--threads", "1", "--seed", "5",
                             "--rows", "2", "--out", str(out)], capsys)
    assert code == 130, err
    assert out.read_bytes() == b"a complete earlier result"  # never replaced by a partial
    assert not (tmp_path / "b.rows.parquet").exists()
    part = tmp_path / "b.partial.parquet"
    meta = read_metadata(part)
    # one batch of 2 chunks × 16 hands finished before the interrupt
    assert (meta["partial"], meta["n"], meta["n_requested"]) == ("true", "32", "100")
    assert "PARTIAL: interrupted after 32 of 100 hands" in stdout
    assert ", 32 hands," in stdout.splitlines()[0]  # the header's n is the hands done
    assert f"wrote {part} (partial: 32 of 100 hands)" in stdout
    assert stdout.index("| win ") < stdout.index("wrote")  # figures first
    # the first 32 hands of a run are the same hands: an uninterrupted run of exactly them
    monkeypatch.undo()
    whole = simulate_hands("guangxi-81", 32, seed=5, chunk_size=16, threads=1, progress=False)
    assert _counts(pl.read_parquet(part)).equals(_counts(whole))
    rows = pl.read_parquet(tmp_path / "b.partial.rows.parquet")
    assert rows["deal"].to_list() == [0, 1, 16, 17]  # 2 kept hands of each finished chunk


def _assert_sweep_cut_in_round_2(code: int, stdout: str, err: str, out) -> None:
    """A ``--thresholds 15 20 25`` sweep of 100 hands (7 chunks of 16, batches of 2 chunks, the
    three runs in lockstep: 3 kernel calls a round) cut in round 2: exit 130, nothing at the
    requested name, every run keeps the same 32 hands (round 1), as metadata and header say."""
    assert code == 130, err
    assert not out.exists()
    part = out.with_name(out.stem + ".partial.parquet")
    meta = read_metadata(part)
    assert (meta["partial"], meta["n"], meta["n_requested"], meta["thresholds"]) == (
        "true", "32", "100", "15,20,25")
    assert "n_per_run" not in meta
    assert "PARTIAL: interrupted after 32 of 100 hands" in stdout.splitlines()[0]
    df = pl.read_parquet(part)
    if "metric" in df.columns:  # balance: every run's hands
        assert set(df.filter(metric="huangzhuang")["n"].to_list()) == {32}


def test_interrupted_balance_sweep_stops_every_run_at_one_chunk(tmp_path, capsys, monkeypatch):
    """Ctrl-C during round 2 (the 6th kernel call): every threshold keeps round 1's 32 hands,
    each equal to an uninterrupted run of 32 hands."""
    from zipai_sim.studies.balance import simulate_hands

    _balance_interrupt_after(monkeypatch, 5)
    out = tmp_path / "s.parquet"
    code, stdout, err = run(["balance", "--hands", "100", "--threads", "1", "--seed", "6",
                             "--thresholds", "15", "20", "25", "--out", str(out)], capsys)
    _assert_sweep_cut_in_round_2(code, stdout, err, out)
    monkeypatch.undo()
    from zipai_sim.game.variants import load_variant

    v = load_variant("guangxi-81").with_threshold(20)
    got = pl.read_parquet(tmp_path / "s.partial.parquet").filter(threshold=20)
    want = simulate_hands(v, 32, seed=6, chunk_size=16, progress=False)
    assert _counts(got).equals(_counts(want))


def test_simulate_hands_returns_the_partial_summary(monkeypatch):
    """As simulate_deals: Ctrl-C returns what finished rather than raising; the run info says
    partial (header) and n is the hands done."""
    from zipai_sim.studies.balance import simulate_hands

    _balance_interrupt_after(monkeypatch, 2)
    s, rows, recs = simulate_hands("guangxi-81", 200, seed=2, chunk_size=10, threads=1,
                                   rows=1, records=50, progress=False)
    assert s.run["n"] == 40 and s.filter(metric="huangzhuang")["n"].item() == 40
    assert "PARTIAL: interrupted after 40 of 200 hands" in str(s.report())
    assert rows.height == 4 and len(recs) == 40  # records only of hands counted


def _match_interrupt_after(monkeypatch, calls: int) -> None:
    """Ctrl-C in match ``calls + 1`` (a match is a chunk; batches of one match here)."""
    import zipai_sim.studies.match as mt

    monkeypatch.setattr(mt, "MATCH_BATCH", 1)
    _ctrl_c_after(monkeypatch, mt, "_run", calls)


def test_partial_match_is_written_beside_and_equals_a_run_of_the_matches_done(
        tmp_path, capsys, monkeypatch):
    from zipai_sim.studies.match import simulate_matches

    out = tmp_path / "m.parquet"
    out.write_bytes(b"a complete earlier result")
    _match_interrupt_after(monkeypatch, 3)
    code, stdout, err = run(["match", "--matches", "10", "--hands", "3", "--seed", "7",
                             "--out", str(out)], capsys)
    assert code == 130, err
    assert out.read_bytes() == b"a complete earlier result"
    part = tmp_path / "m.partial.parquet"
    meta = read_metadata(part)
    assert (meta["partial"], meta["n"], meta["matches"], meta["n_requested"]) == (
        "true", "3", "3", "10")
    assert "PARTIAL: interrupted after 3 of 10 matches" in stdout.splitlines()[0]
    assert ", 3 matches," in stdout.splitlines()[0]
    assert f"wrote {part} (partial: 3 of 10 matches)" in stdout
    monkeypatch.undo()
    whole = simulate_matches("guangxi-81", 3, seed=7, hands=3, progress=False)
    assert pl.read_parquet(part).equals(whole.matches)
    assert not whole.partial and whole.n == whole.n_requested == 3


def test_match_without_out_still_exits_130(capsys, monkeypatch):
    _match_interrupt_after(monkeypatch, 1)
    code, stdout, err = run(["match", "--matches", "5", "--hands", "2"], capsys)
    assert code == 130 and "PARTIAL: interrupted after 1 of 5 matches" in stdout, err


def test_compile_note_when_the_cache_is_cold(tmp_path, monkeypatch, capsys):
    """A kernel with no compiled signature and no cache index (a new module: its index would be
    in its own __pycache__) is cold: one line on stderr; once compiled, or with
    progress=False, nothing."""
    import importlib
    import sys

    from zipai_sim.runs.driver import COMPILING, cold, compile_note

    (tmp_path / "coldmod.py").write_text(
        "from numba import njit\n\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop("coldmod", None)
    f = importlib.import_module("coldmod").twice
    assert cold(f)
    compile_note(f, progress=False)
    assert capsys.readouterr().err == ""
    compile_note(f)
    assert capsys.readouterr().err == COMPILING + "\n"
    assert f(2) == 4
    assert not cold(f)
    compile_note(f)
    assert capsys.readouterr().err == ""


# --- table opening and table tenpai: the same run model (runs.run_batches) --------------------

def _same_columns(written: pl.DataFrame, want: pl.DataFrame) -> bool:
    """A written table equals ``want`` in ``want``'s columns (files add a rules_hash column)."""
    return written.select(want.columns).equals(pl.DataFrame(want))


def _opening_interrupt_after(monkeypatch, calls: int, chunk: int = 16) -> None:
    """As ``_balance_interrupt_after``, for ``opening_records`` (its default chunk size too)."""
    import zipai_sim.tables.opening as op

    _balance_interrupt_after(monkeypatch, calls, chunk)
    monkeypatch.setattr(op, "DEFAULT_HAND_CHUNK", chunk)


@pytest.mark.parametrize("kind", ["opening", "tenpai"])
def test_partial_opening_table_is_written_beside_and_equals_a_run_of_the_hands_done(
        kind, tmp_path, capsys, monkeypatch):
    from zipai_sim import tables as T

    out, recs = tmp_path / "t.parquet", tmp_path / "r.parquet"
    out.write_bytes(b"a complete earlier result")
    recs.write_bytes(b"complete earlier records")
    _opening_interrupt_after(monkeypatch, 1)
    code, stdout, err = run(["table", kind, "--hands", "100", "--threads", "1", "--seed", "5",
                             "--out", str(out), "--records", str(recs)], capsys)
    assert code == 130, err
    assert out.read_bytes() == b"a complete earlier result"  # never replaced by a partial
    assert recs.read_bytes() == b"complete earlier records"
    part, rpart = tmp_path / "t.partial.parquet", tmp_path / "r.partial.parquet"
    # one batch of 2 chunks × 16 hands finished before the interrupt
    for meta in (read_metadata(part), read_metadata(rpart)):
        assert (meta["partial"], meta["n"], meta["n_requested"]) == ("true", "32", "100")
    head = stdout.splitlines()[0]
    assert "PARTIAL: interrupted after 32 of 100 hands" in head and ", 32 hands," in head
    assert f"wrote {part} (partial: 32 of 100 hands)" in stdout
    assert stdout.index("| variant") < stdout.index("wrote")  # figures first
    # the first 32 hands of a run are the same hands: an uninterrupted run of exactly them
    monkeypatch.undo()
    whole = T.opening_records("guangxi-81", 32, seed=5, chunk_size=16, threads=1,
                              progress=False)
    assert whole.run["n"] == 32 and "extra" not in whole.run
    assert _same_columns(pl.read_parquet(rpart), whole)
    table = T.opening_table(whole) if kind == "opening" else T.tenpai_table(whole)
    assert _same_columns(pl.read_parquet(part), table)


def test_interrupted_opening_sweep_stops_every_run_at_one_chunk(tmp_path, capsys, monkeypatch):
    """Ctrl-C during round 2 (the 6th kernel call): every threshold keeps round 1's 32 hands,
    each equal to an uninterrupted run of 32 hands."""
    from zipai_sim import tables as T
    from zipai_sim.game.variants import load_variant

    _opening_interrupt_after(monkeypatch, 5)
    out = tmp_path / "s.parquet"
    code, stdout, err = run(["table", "opening", "--hands", "100", "--threads", "1", "--seed",
                             "6", "--thresholds", "15", "20", "25", "--out", str(out)], capsys)
    _assert_sweep_cut_in_round_2(code, stdout, err, out)
    monkeypatch.undo()
    v = load_variant("guangxi-81").with_threshold(20)
    got = pl.read_parquet(tmp_path / "s.partial.parquet").filter(threshold=20)
    want = T.opening_table(T.opening_records(v, 32, seed=6, chunk_size=16, progress=False))
    assert _same_columns(got, want)


def test_run_batches_plans_its_batches_lazily():
    """A run of the library's largest size (2**50 items, one a chunk and a batch) must not lay
    out its 2**50 batch ranges before the first batch: with a list of them it filled the memory
    (a fresh user's zs.simulate_hands(..., 10**15)). A Ctrl-C after two batches keeps two."""
    from zipai_sim.runs.driver import run_batches

    calls = []

    def work(first: int, k: int) -> int:
        if len(calls) == 2:
            raise KeyboardInterrupt
        calls.append((first, k))
        return k

    r = run_batches(2**50, 1, 1, work, lambda a, b: a + b, 0, progress=False)
    assert calls == [(0, 1), (1, 1)]
    assert (r.state, r.done, r.partial) == (2, 2, True)


def test_output_is_written_when_the_reader_leaves(tmp_path):
    """``zipai-sim simulate ... | head``: the table is printed before the file is written, and
    a reader gone before the end used to end the command with status 0 and no file."""
    exe = _console_script()
    if exe is None:
        pytest.skip("zipai-sim console script not installed")
    out = tmp_path / "s.parquet"
    r, w = os.pipe()
    os.close(r)  # the reader has left before anything is printed
    try:
        p = subprocess.run([exe, "simulate", "--deals", "2000", "--out", str(out)], stdout=w,
                           stderr=subprocess.PIPE, text=True, timeout=600)
    finally:
        os.close(w)
    assert p.returncode == 0, p.stderr
    assert pl.read_parquet(out).height > 0
