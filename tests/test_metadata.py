"""Every file the command line writes says which run made it (issue 10 §4), and one run at a
time writes an output path (issue 10 §3: "two processes on one path: the later wins silently").

Each command runs in-process at a tiny size; its Parquet key-value metadata (and a figure's
own metadata, PNG text chunks or SVG Dublin Core keywords) must hold the command line, the
variant key(s) and rules hash(es), thresholds, seed, n done and requested, partial, the
zipai_sim and numba versions, and where they apply the chunk size, policies and engine.
"""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
import sys
from pathlib import Path

import numba
import polars as pl
import pytest
from test_cli import assert_one_line_error, run

import zipai_sim as zs
from zipai_sim import tables as T
from zipai_sim.cli.locks import lock_output, lock_path, output_locks
from zipai_sim.plots.figures import read_figure_metadata
from zipai_sim.runs.io import read_metadata

HAND = "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十"  # 14 cards: 听 二/十 (README)

#: every file: one of each tuple (a one-variant file says ``variant``, a sweep ``variants``)
EVERY = (("command",), ("variant", "variants"), ("rules_hash", "rules_hashes"), ("thresholds",),
         ("seed",), ("n",), ("n_requested",), ("partial",), ("zipai_sim_version",),
         ("numba_version",))
CHUNKED = (("chunk_size",),)
PLAYED = (("policies",), ("engine",))


def check(meta: dict[str, str], argv: list[str], *extra: tuple[str, ...]) -> None:
    """``meta`` has every required key, the command line as run, a partial flag, versions."""
    for names in EVERY + extra:
        assert any(meta.get(k) for k in names), (names, argv, meta)
    assert meta["command"] == shlex.join(["zipai-sim", *argv]), meta["command"]
    assert meta["partial"] == "false"
    assert meta["zipai_sim_version"] == zs.__version__
    assert meta["numba_version"] == numba.__version__


# (argv with OUT standing for a file under tmp_path, files written: name -> extra keys)
COMMANDS = {
    "simulate": (["simulate", "--deals", "3000", "--chunk-size", "1024", "--threshold", "20",
                  "--sample-rows", "2", "--out", "OUT/s.parquet"],
                 {"s.parquet": CHUNKED, "s.rows.parquet": CHUNKED}),
    "balance": (["balance", "--variants", "guangxi-81", "liuhu-dao", "--hands", "200",
                 "--rows", "2", "--out", "OUT/b.parquet"],
                {"b.parquet": CHUNKED + PLAYED, "b.rows.parquet": CHUNKED + PLAYED}),
    "match": (["match", "--matches", "3", "--hands", "2", "--out", "OUT/m.parquet"],
              {"m.parquet": CHUNKED + PLAYED}),
    "arena": (["arena", "--challenger", "greedy", "--baseline", "random", "--decks", "20",
               "--variant", "guangxi-81", "--variant", "liuhu-dao", "--out", "OUT/a.parquet"],
              {"a.parquet": CHUNKED + PLAYED}),
    "table deal": (["table", "deal", "--variants", "guangxi-dazipai", "--deals", "1000",
                    "--thresholds", "15", "30", "--out", "OUT/d.parquet"],
                   {"d.parquet": CHUNKED}),
    "table opening": (["table", "opening", "--variants", "liuhu-dao", "guangxi-81", "--hands",
                       "60", "--records", "OUT/r.parquet", "--out", "OUT/o.parquet"],
                      {"o.parquet": CHUNKED + PLAYED, "r.parquet": CHUNKED + PLAYED}),
    "table tenpai": (["table", "tenpai", "--variants", "liuhu-dao", "--hands", "60",
                      "--out", "OUT/t.parquet"], {"t.parquet": CHUNKED + PLAYED}),
    "table waits": (["table", "waits", HAND, "--variant", "changsha-paohuzi", "--sims", "50",
                     "--play", "4", "--out", "OUT/w.parquet"], {"w.parquet": PLAYED}),
    "table convergence": (["table", "convergence", "--deals", "2000", "--points", "3",
                           "--out", "OUT/c.parquet"], {"c.parquet": CHUNKED}),
}


def _argv(argv: list[str], tmp_path: Path) -> list[str]:
    return [x.replace("OUT", str(tmp_path)) for x in argv]


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_file_carries_the_run(name, tmp_path, capsys):
    argv, files = COMMANDS[name]
    argv = _argv(argv, tmp_path)
    code, out, err = run(argv, capsys)
    assert code == 0, err
    for file, extra in files.items():
        check(read_metadata(tmp_path / file), argv, *extra)
    assert not list(tmp_path.glob("*.lock"))  # the run's locks are gone


def test_threshold_override_is_recorded(tmp_path, capsys):
    argv, _ = COMMANDS["simulate"]
    assert run(_argv(argv, tmp_path), capsys)[0] == 0
    meta = read_metadata(tmp_path / "s.parquet")
    assert meta["thresholds"] == "20"
    assert meta["rules_hash"] == zs.load_variant("guangxi-81").with_threshold(20).rules_hash


def test_rows_of_several_runs_carry_their_rules_hash(tmp_path, capsys):
    """balance rows and table rows that mix variants (or thresholds) say each row's rule set."""
    g81, liu = zs.load_variant("guangxi-81"), zs.load_variant("liuhu-dao")
    argv = _argv(["balance", "--variants", "guangxi-81", "liuhu-dao", "--hands", "100",
                  "--thresholds", "15", "20", "--rows", "1", "--out", "OUT/b.parquet"], tmp_path)
    assert run(argv, capsys)[0] == 0
    want = {(v.key, t, v.with_threshold(t).rules_hash) for v in (g81, liu) for t in (15, 20)}
    for file in ("b.parquet", "b.rows.parquet"):
        df = pl.read_parquet(tmp_path / file)
        assert df["rules_hash"].null_count() == 0
        assert set(df.select("variant", "threshold", "rules_hash").unique().rows()) == want
    argv = _argv(COMMANDS["table opening"][0], tmp_path)
    assert run(argv, capsys)[0] == 0
    for file in ("o.parquet", "r.parquet"):
        df = pl.read_parquet(tmp_path / file)
        assert set(df.select("variant", "rules_hash").unique().rows()) == {
            (liu.key, liu.rules_hash), (g81.key, g81.rules_hash)}


def test_written_from_python_says_so(tmp_path):
    path = tmp_path / "d.parquet"
    T.write_table(T.deal_table("guangxi-81", 500, seed=3, thresholds=[20]), path, "deal")
    meta = read_metadata(path)
    assert meta["command"] == "python" and meta["thresholds"] == "20"
    assert meta["numba_version"] == numba.__version__ and meta["n_requested"] == "500"
    assert meta["chunk_size"] and meta["partial"] == "false"


@pytest.mark.parametrize("fmt", ["png", "svg"])
def test_figures_carry_the_run(fmt, tmp_path, capsys):
    argv, _ = COMMANDS["balance"]
    assert run(_argv(argv, tmp_path), capsys)[0] == 0
    fig = tmp_path / f"seats.{fmt}"
    argv = ["plot", "seat-shares", "--from", str(tmp_path / "b.parquet"), "--out", str(fig)]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    meta = read_figure_metadata(fig)
    check(meta, argv, *CHUNKED, *PLAYED)
    assert meta["variants"] == "guangxi-81,liuhu-dao" and meta["sources"] == "b.parquet"
    assert meta["source_commands"].startswith("zipai-sim balance ")
    assert meta["rules_hash"] == ",".join(zs.load_variant(k).rules_hash
                                          for k in ("guangxi-81", "liuhu-dao"))


# --- one run per output path ----------------------------------------------------------------

SIM = ["simulate", "--deals", "2000", "--chunk-size", "1024"]


def test_a_second_run_on_a_locked_path_is_refused(tmp_path, capsys):
    out = tmp_path / "x.parquet"
    with output_locks():  # this process holds the lock, as another run would
        lock_output(out)
        assert lock_path(out).read_text().startswith(f"pid {os.getpid()}\n")
        line = assert_one_line_error(*run([*SIM, "--out", str(out)], capsys), str(out),
                                     f"pid {os.getpid()}", f"remove the stale lock "
                                     f"{lock_path(out)}")
        assert "another run" in line
        assert not out.exists() and lock_path(out).exists()  # refused before any work
    assert not lock_path(out).exists()
    assert run([*SIM, "--out", str(out)], capsys)[0] == 0  # free again


def test_a_stale_lock_is_taken_over(tmp_path, capsys):
    out = tmp_path / "x.parquet"
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                           capture_output=True, text=True, check=True)
    dead = int(child.stdout)  # a process that has ended
    lock_path(out).write_text(f"pid {dead}\nhost {socket.gethostname()}\ncommand zipai-sim "
                              f"simulate\n")
    code, _, err = run([*SIM, "--out", str(out)], capsys)
    assert code == 0, err
    assert f"taking over the stale lock {lock_path(out)} of pid {dead}" in err
    assert out.exists() and not lock_path(out).exists()


def test_the_lock_goes_after_an_error(tmp_path, capsys):
    out = tmp_path / "x.parquet"
    # --rows is checked after --out is locked: the error ends the run, the lock goes with it
    assert_one_line_error(*run(["balance", "--hands", "10", "--rows", "99999", "--out",
                                str(out)], capsys), "--rows")
    assert not list(tmp_path.iterdir())
