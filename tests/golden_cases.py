"""Golden outputs of the ``zipai-sim`` command line and the public Python API, for checking that
a reorganisation of the package (modules moved into sub-packages) changes no behaviour.

Every case runs at a small size, in-process through ``zipai_sim.cli.main`` (command-line cases)
or through the top-level ``zipai_sim`` names (Python cases) only: no internal module path is
named here, so the cases survive any move of the modules behind them. A case runs in a fresh
working folder, where it writes every output file (Parquet, JSON lines) under a relative name.
Its golden files, under ``tests/goldens/CASE/``, are:

* ``transcript.txt``: per step, the command line (or the Python call), the exit code, stdout
  and stderr;
* ``files/NAME.frame.txt`` for every Parquet file written: its schema, then one JSON line per
  row (floats as ``repr`` writes them: exact, with -0.0, nan and inf kept apart), and
  ``files/NAME.meta.json``: its key-value metadata, sorted; other files (JSON lines) byte for
  byte as ``files/NAME``.

What legitimately varies from run to run is normalised, and nothing else (``normalise``,
``normalise_metadata``):

* the wall time (``0.3 s``) and the throughput (``(178,049 deals/s, …``) in the header line
  every command prints (a line naming ``(rules HASH)``), and the ``seconds`` metadata key
  (``exact``);
* stderr: tqdm progress bars (drawn after two seconds of work, so only on a slow machine) and
  the one-line note that the numba kernels are being compiled (a cold cache only);
* the working folder's absolute path, should it appear anywhere (it does not today: every path
  given is relative);
* Parquet's own ``ARROW:schema`` key (Arrow's encoding of the schema, which the schema lines
  of ``NAME.frame.txt`` already hold).

The checkpoint cases (``CHECKPOINT_CASES``) resume, with the current code, an interrupted run
whose checkpoint folder (``tests/goldens/checkpoint-NAME/``: ``run.json`` and the Parquet part
files, whose values name aggregate classes by module path) was written by the code of the
commit these goldens were made on; tests/test_goldens.py checks that the resumed result equals
the stored result of the same run done uninterrupted (``checkpoint-NAME-whole``).

Regenerating
------------
``uv run python tests/golden_cases.py --write`` rewrites the goldens of every case (not the
checkpoint folders). Use it ONLY on a commit whose behaviour is known good (e.g. to add a case),
and review the diff: NEVER to make a failing tests/test_goldens.py pass; a failing golden means
that the behaviour changed, which is what the goldens are there to catch.

``uv run python tests/golden_cases.py --write-checkpoints`` rewrites the stored checkpoint
folders. They must stay as the pre-reorganisation code wrote them, so that resuming them checks
that checkpoints written before the move still load after it: never run this after the move.
(Each is the checkpoint of a run with ``--threads 1`` with every part after the first batch
removed: byte for byte what a run Ctrl-C'd after its first batch leaves, as checked when the
folders were made.)

``uv run python tests/golden_cases.py --list`` prints the cases; ``--run CASE`` prints one
case's golden files as generated now.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

# printed on stderr before a cold numba cache compiles (depends on the cache, not the code)
from zipai_sim.runs.driver import COMPILING

GOLDENS = Path(__file__).resolve().parent / "goldens"

#: a hand of 20 cards (waits 二 十 拾 in guangxi-81), as in the README
HAND = "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十"
#: a 天胡 dealer hand of guangxi-81 (README quickstart)
TIANHU = "拾拾拾 壹壹壹 一二三 二七十 四五六 柒捌玖 八八捌"



# --- the Python-API cases: each returns [(label, str or DataFrame)], written to the transcript

def api_explain() -> list[tuple[str, object]]:
    import zipai_sim as zs

    return [
        (f"str(zs.explain({TIANHU!r}, 'guangxi-81'))", str(zs.explain(TIANHU, "guangxi-81"))),
        ("str(zs.explain('五五五 一二三 七八九 壹贰叁 肆伍陆 柒捌玖 拾拾', 'guangxi-81', "
         "incoming='五', source='other'))",
         str(zs.explain("五五五 一二三 七八九 壹贰叁 肆伍陆 柒捌玖 拾拾", "guangxi-81",
                        incoming="五", source="other"))),
        (f"zs.waits({HAND!r}, 'changsha-paohuzi')", zs.waits(HAND, "changsha-paohuzi")),
        ("zs.evaluate_opening('一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十拾', 'guangxi-81')",
         zs.evaluate_opening("一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十拾", "guangxi-81")),
        ("zs.format_hand(zs.parse_hand('s1 s2 s3 b10 b10'))",
         zs.format_hand(zs.parse_hand("s1 s2 s3 b10 b10"))),
    ]


def api_calculate() -> list[tuple[str, object]]:
    import zipai_sim as zs

    return [(f"zs.calculate({HAND!r}, 'changsha-paohuzi', sims=2000, play=20, seed=13)",
             zs.calculate(HAND, "changsha-paohuzi", sims=2000, play=20, seed=13)),
            ("zs.calculate('一二三 七八九 壹贰叁 肆伍陆 柒捌玖 十十', 'guangxi-81', "
             "melds='碰 五五五', sims=1000, seed=14)",
             zs.calculate("一二三 七八九 壹贰叁 肆伍陆 柒捌玖 十十", "guangxi-81",
                          melds="碰 五五五", sims=1000, seed=14))]


def api_simulate_deals() -> list[tuple[str, object]]:
    import zipai_sim as zs

    r = zs.simulate_deals("hunan-hengyang", 20_000, seed=7, threads=2, chunk_size=8192,
                          sample_per_chunk=2, progress=False)
    d = zs.deal(2, "guangxi-81", 7)
    return [
        ("r = zs.simulate_deals('hunan-hengyang', 20_000, seed=7, threads=2, chunk_size=8192, "
         "sample_per_chunk=2, progress=False); r.summary", r.summary),
        ("r.rows", r.rows),
        ("r.huxi_distribution", r.huxi_distribution),
        ("str(r.report(100))", str(r.report(100))),
        ("zs.compare_exact(zs.exact_opening('hunan-hengyang'), r)",
         zs.compare_exact(zs.exact_opening("hunan-hengyang"), r)),
        ("d = zs.deal(2, 'guangxi-81', 7); [x.tolist() for x in d]",
         json.dumps([x.tolist() if hasattr(x, "tolist") else x for x in d])),
    ]


def api_simulate_hands() -> list[tuple[str, object]]:
    import zipai_sim as zs

    summary, rows, records = zs.simulate_hands("guangxi-81", 2000, seed=7, threads=2, rows=2,
                                               records=2, progress=False)
    zs.write_records(records, "hands.jsonl")
    logs = ["\n".join(rec.replay().log) for rec in zs.read_record("hands.jsonl")]
    ref = zs.simulate_hands("changsha-paohuzi", 10, seed=3, policies=["greedy", "random",
                                                                       "lookahead"],
                            engine="reference", progress=False)
    return [
        ("summary, rows, records = zs.simulate_hands('guangxi-81', 2000, seed=7, threads=2, "
         "rows=2, records=2, progress=False); summary", summary),
        ("str(summary.report())", str(summary.report())),
        ("rows", rows),
        ("zs.write_records(records, 'hands.jsonl'); "
         "[rec.replay().log for rec in zs.read_record('hands.jsonl')]", "\n\n".join(logs)),
        ("zs.simulate_hands('changsha-paohuzi', 10, seed=3, policies=['greedy', 'random', "
         "'lookahead'], engine='reference', progress=False)", ref),
    ]


def api_matches_arena() -> list[tuple[str, object]]:
    import zipai_sim as zs

    m = zs.simulate_matches("guangxi-81", 20, seed=7, hands=4, progress=False)
    a = zs.arena("guangxi-81", "greedy", "random", 300, seed=3, threads=2)
    return [
        ("m = zs.simulate_matches('guangxi-81', 20, seed=7, hands=4, progress=False); "
         "m.summary", m.summary),
        ("m.matches", m.matches),
        ("zs.play_match('hunan-hengyang', seed=7, match=1, hands=3)",
         zs.play_match("hunan-hengyang", seed=7, match=1, hands=3)),
        ("a = zs.arena('guangxi-81', 'greedy', 'random', 300, seed=3, threads=2)", a),
        ("str(a.report())", str(a.report())),
    ]


Step = Sequence[str] | Callable[[], list[tuple[str, object]]]


@dataclass(frozen=True)
class Case:
    """A golden case: ``steps`` run in order in one fresh folder; each is a ``zipai-sim``
    command line (its words after ``zipai-sim``) or a Python-API function. ``setup(folder)``
    prepares the folder first; files under the ``ignore`` folders get no golden."""

    name: str
    steps: tuple[Step, ...]
    setup: Callable[[Path], None] | None = None
    ignore: tuple[str, ...] = ()


def _cli(name: str, *argvs: Sequence[str]) -> Case:
    return Case(name, tuple(tuple(a) for a in argvs))


CASES: list[Case] = [
    _cli("simulate", ["simulate", "--variant", "guangxi-81", "--deals", "20000", "--seed", "7",
                      "--threads", "2", "--chunk-size", "4096", "--sample-rows", "2",
                      "--out", "sim.parquet"]),
    _cli("simulate-threshold", ["simulate", "--variant", "hunan-hengyang", "--deals", "10000",
                                "--seed", "3", "--threads", "2", "--threshold", "12",
                                "--per", "100", "--out", "sim.parquet"]),
    _cli("balance", ["balance", "--variants", "guangxi-81", "hunan-hengyang", "--hands", "2000",
                     "--seed", "5", "--threads", "2", "--rows", "3", "--out", "bal.parquet"]),
    _cli("balance-4-players", ["balance", "--variants", "liuhu-dao", "changde-paohuzi",
                               "--hands", "1500", "--seed", "5", "--threads", "2",
                               "--out", "bal.parquet"]),
    _cli("balance-sweep-policies", ["balance", "--variants", "guangxi-dazipai", "--thresholds",
                                    "15", "20", "--hands", "1000", "--policy", "greedy",
                                    "random", "lookahead", "--seed", "6", "--threads", "2",
                                    "--out", "sweep.parquet"]),
    _cli("balance-reference", ["balance", "--variants", "changsha-paohuzi", "--hands", "30",
                               "--engine", "reference", "--seed", "15", "--threads", "2",
                               "--out", "ref.parquet"]),
    _cli("match", ["match", "--variant", "guangxi-81", "--matches", "50", "--hands", "8",
                   "--seed", "4", "--out", "m.parquet"]),
    _cli("match-yinghuzi", ["match", "--variant", "hunan-hengyang", "--matches", "30", "--goal",
                            "yinghuzi", "--first-dealer", "rotate", "--seed", "4",
                            "--out", "m.parquet"]),
    _cli("match-hu100", ["match", "--variant", "changsha-paohuzi", "--goal", "hu100",
                         "--target", "60", "--policies", "greedy", "random", "random",
                         "--matches", "20", "--seed", "18", "--out", "m.parquet"]),
    _cli("arena", ["arena", "--challenger", "greedy", "--baseline", "random", "--decks", "500",
                   "--seed", "9", "--threads", "2", "--variant", "guangxi-81", "--variant",
                   "liuhu-dao", "--out", "a.parquet"]),
    _cli("arena-rollout", ["arena", "--challenger", "rollout", "--baseline", "greedy",
                           "--decks", "2", "--rollout-k", "2", "--seed", "16", "--threads", "2",
                           "--out", "a.parquet"]),
    _cli("compare", ["compare", "--variants", "guangxi-dazipai", "--thresholds", "15", "20",
                     "25", "--hands", "1000", "--seed", "10", "--threads", "2",
                     "--out", "c.parquet"]),
    _cli("table-deal", ["table", "deal", "--variants", "guangxi-81", "hunan-hengyang",
                        "--deals", "20000", "--thresholds", "15", "18", "--seed", "11",
                        "--threads", "2", "--out", "td.parquet"]),
    _cli("table-deal-customary", ["table", "deal", "--variants", "guangxi-dazipai",
                                  "--customary", "--all-metrics", "--deals", "5000", "--seed",
                                  "17", "--threads", "2", "--markdown", "--per", "1000",
                                  "--out", "td.parquet"]),
    _cli("table-opening", ["table", "opening", "--variants", "guangxi-81", "--hands", "100",
                           "--seed", "12", "--threads", "2", "--by", "seat", "tenpai",
                           "--bin", "opening_huxi=6", "--records", "rec.parquet",
                           "--out", "to.parquet"]),
    _cli("table-tenpai", ["table", "tenpai", "--variants", "changsha-paohuzi", "--hands",
                          "2000", "--seed", "12", "--threads", "2", "--out", "tt.parquet"]),
    _cli("table-waits", ["table", "waits", HAND, "--variant", "changsha-paohuzi", "--sims",
                         "2000", "--play", "50", "--seed", "13", "--threads", "2",
                         "--out", "tw.parquet"]),
    _cli("table-waits-meld", ["table", "waits", "一二三 七八九 壹贰叁 肆伍陆 柒捌玖 十十",
                              "--meld", "碰 五五五", "--variant", "guangxi-81", "--sims",
                              "1000", "--seed", "13", "--threads", "2", "--markdown",
                              "--out", "tw.parquet"]),
    _cli("table-convergence", ["table", "convergence", "--deals", "50000", "--points", "4",
                               "--start", "1000", "--seed", "14", "--threads", "2",
                               "--out", "tc.parquet"]),
    # the shipped exact tables (the customary thresholds print at once; others take minutes)
    _cli("exact", ["exact", "--variant", "guangxi-dazipai", "--out", "ex.parquet"]),
    _cli("exact-all", ["exact", "--variant", "hunan-hengyang", "--all", "--per", "1",
                       "--out", "ex.parquet"]),
    _cli("play", ["play", "--variant", "hunan-hengyang", "--seed", "7", "--deal", "3"],
         ["play", "--variant", "liuhu-dao", "--policy", "random", "--seed", "5", "--deal", "1"]),
    _cli("play-jsonl-replay", ["play", "--seed", "2026", "--deal", "934", "--jsonl",
                               "hand.jsonl"],
         ["replay", "hand.jsonl"],
         ["replay", "hand.jsonl", "--hand", "0", "--variant", "guangxi-81"]),
    _cli("variants", ["variants"], ["variants", "show", "hunan-hengyang"],
         ["variants", "show", "guangxi-81"]),
    _cli("hand", ["hand", HAND, "--variant", "guangxi-81"],
         ["hand", "五五五 一二三 七八九 壹贰叁 肆伍陆 柒捌玖 拾拾", "--incoming", "五",
          "--source", "other"],
         ["hand", TIANHU, "--variant", "guangxi-81"],
         ["hand", "一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十", "--variant", "hunan-hengyang",
          "--liangzhang", "三"]),
    _cli("errors", ["simulate", "--deals", "0", "--seed", "1"],
         ["simulate", "--variant", "nope", "--deals", "10", "--seed", "1"],
         ["hand", "一一一一一 二三", "--variant", "guangxi-81"],
         ["replay", "missing.jsonl"],
         ["balance", "--hands", "10", "--seed", "1", "--policy", "nobody"]),
    Case("api-explain", (api_explain,)),
    Case("api-calculate", (api_calculate,)),
    Case("api-simulate-deals", (api_simulate_deals,)),
    Case("api-simulate-hands", (api_simulate_hands,)),
    Case("api-matches-arena", (api_matches_arena,)),
]


# --- checkpoints: a run interrupted after its first batch, resumed by the current code

@dataclass(frozen=True)
class CheckpointRun:
    """A checkpointable command (``argv`` + ``--threads T --out OUT``) whose parts hold an
    aggregate class registered for checkpoints (``cls``, by its module path then)."""

    name: str
    argv: tuple[str, ...]
    out: str
    cls: str

    def line(self, threads: int) -> list[str]:
        return [*self.argv, "--threads", str(threads), "--out", self.out]

    @property
    def folder(self) -> Path:
        return GOLDENS / f"checkpoint-{self.name}"


CHECKPOINTS = [
    CheckpointRun("balance", ("balance", "--variants", "guangxi-81", "--thresholds", "15", "20",
                              "--hands", "10000", "--seed", "8"), "b.parquet",
                  "zipai_sim.play.balance._Sums"),
    CheckpointRun("arena", ("arena", "--challenger", "greedy", "--baseline", "random", "--decks",
                            "10000", "--seed", "9"), "a.parquet",
                  "zipai_sim.play.arena._Tally"),
    CheckpointRun("compare", ("compare", "--variants", "guangxi-81", "--thresholds", "15", "20",
                              "--hands", "10000", "--seed", "10"), "c.parquet",
                  "zipai_sim.play.compare._Paired"),
]
#: 10,000 items in chunks of 4,096: chunks 0-2; one thread makes batches of 2 chunks, so the
#: stored checkpoint holds chunks 0-1 and a resume computes chunk 2
FIRST_PART = "part-000-000000000000-0002.parquet"
RESUMED_PART = "part-000-000000000002-0001.parquet"


def _copy_checkpoint(ck: CheckpointRun) -> Callable[[Path], None]:
    def setup(folder: Path) -> None:
        shutil.copytree(ck.folder, folder / "ck")

    return setup


#: the uninterrupted runs (2 threads) and the resumed ones (2 threads, from the stored parts)
CHECKPOINT_CASES: dict[str, tuple[Case, Case]] = {
    ck.name: (Case(f"checkpoint-{ck.name}-whole", (tuple(ck.line(2)),)),
              Case(f"checkpoint-{ck.name}-resume", (tuple(ck.line(2) + ["--resume", "ck"]),),
                   setup=_copy_checkpoint(ck), ignore=("ck",)))
    for ck in CHECKPOINTS}

ALL_CASES: list[Case] = CASES + [c for pair in CHECKPOINT_CASES.values() for c in pair]


# --- running a case and normalising its outputs

_HEADER_SECONDS = re.compile(r"(?<=, )\d+(?:\.\d+)? s(?=$|[,;( ])")
_HEADER_RATE = re.compile(r"\([\d,]+(?:\.\d+)? ([a-z]+)/s, ")
_BAR = re.compile(r"\[(?:\d+:)?\d+:\d+")  # tqdm's [elapsed<remaining, rate]


_PKG = str(Path(importlib.util.find_spec("zipai_sim").origin).parent)


def normalise(text: str, folder: Path | None = None, stderr: bool = False) -> str:
    """``text`` (stdout or stderr) without what varies from run to run: the working folder's
    path, the header line's wall time and throughput, on stderr tqdm bars and the compiling
    note."""
    if folder is not None:
        for p in sorted({str(folder), os.path.realpath(folder)}, key=len, reverse=True):
            text = text.replace(p, "<TMP>")
    text = text.replace(_PKG, "<PKG>")  # where the package is installed (a shipped TOML's path)
    lines = []
    for line in text.split("\n"):
        if stderr:
            segs = [s for s in line.split("\r") if s.strip() and not _BAR.search(s)]
            if not segs and line.strip():  # a line of progress bars only
                continue
            line = "".join(segs) if "\r" in line else line
            if line == COMPILING:
                continue
        if "(rules " in line:  # a header line: variant (rules hash), …, seconds, rate
            line = _HEADER_SECONDS.sub("<SECONDS> s", line)
            line = _HEADER_RATE.sub(r"(<RATE> \1/s, ", line)
        lines.append(line)
    return "\n".join(lines)


def normalise_metadata(meta: dict[str, str], folder: Path | None = None) -> dict[str, str]:
    """A Parquet file's key-value metadata without what varies: the ``seconds`` a run took,
    the working folder's path; Arrow's ``ARROW:*`` keys left out (the schema, shown apart)."""
    out = {}
    for k, v in sorted(meta.items()):
        if k.startswith("ARROW:"):
            continue
        if k == "seconds":
            v = "<SECONDS>"
        if folder is not None:
            for p in sorted({str(folder), os.path.realpath(folder)}, key=len, reverse=True):
                v = v.replace(p, "<TMP>")
        out[k] = v.replace(_PKG, "<PKG>")
    return out


def _value(x: object) -> object:
    """A cell as JSON holds it exactly: JSON writes a float by ``repr`` (nan as NaN, inf as
    Infinity, -0.0 as -0.0), which reads back to the same double; a value JSON has no type
    for (bytes, dates, decimals) by its ``repr``."""
    if isinstance(x, (list, tuple)):
        return [_value(y) for y in x]
    if isinstance(x, dict):
        return {k: _value(v) for k, v in x.items()}
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return {type(x).__name__: repr(x)}


def frame_text(df: pl.DataFrame) -> str:
    """A frame as text: its shape and schema, then one JSON line per row, in column order, every
    value exact (``_value``)."""
    lines = [f"shape: {df.height} rows × {df.width} columns", "schema:"]
    lines += [f"  {name}: {dtype}" for name, dtype in df.schema.items()]
    lines.append("rows:")
    for row in df.iter_rows(named=True):
        lines.append(json.dumps({k: _value(v) for k, v in row.items()}, ensure_ascii=False))
    return "\n".join(lines) + "\n"


def _section(title: str, text: str) -> list[str]:
    if not text:
        return [f"--- {title}: (empty)"]
    return [f"--- {title}:", text if text.endswith("\n") else text + "\n(no newline at end)"]


def _run_step(step: Step, folder: Path) -> list[str]:
    out, err = io.StringIO(), io.StringIO()
    if callable(step):
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            got = step()
        lines = [f">>> {step.__name__}()"]
        for label, value in got:
            lines.append(f"... {label}")
            if isinstance(value, pl.DataFrame):
                lines.append(frame_text(value).rstrip("\n"))
            else:
                lines.append(normalise(str(value), folder))
    else:
        from zipai_sim.cli import main

        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(list(step))
            except SystemExit as e:  # argparse's errors exit through SystemExit
                code = e.code
        lines = [f"$ {shlex.join(['zipai-sim', *step])}", f"exit: {code}"]
    lines += _section("stdout", normalise(out.getvalue(), folder))
    lines += _section("stderr", normalise(err.getvalue(), folder, stderr=True))
    return lines


def run_case(case: Case, folder: Path) -> dict[str, bytes]:
    """Run ``case`` in the empty folder ``folder``; its golden files: relative path → bytes."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if case.setup is not None:
        case.setup(folder)
    before = {p for p in folder.rglob("*") if p.is_file()}
    transcript: list[str] = []
    with contextlib.chdir(folder):
        for step in case.steps:
            transcript += _run_step(step, folder) + [""]
    goldens = {"transcript.txt": "\n".join(transcript).encode()}
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder)
        if not p.is_file() or rel.parts[0] in case.ignore or p in before and case.setup:
            continue
        name = "files/" + rel.as_posix()
        if p.suffix == ".parquet":
            goldens[name + ".frame.txt"] = frame_text(pl.read_parquet(p)).encode()
            meta = normalise_metadata(pl.read_parquet_metadata(p), folder)
            goldens[name + ".meta.json"] = (json.dumps(meta, indent=1, ensure_ascii=False,
                                                       sort_keys=True) + "\n").encode()
        else:  # JSON lines, text: byte for byte
            goldens[name] = p.read_bytes()
    return goldens


def stored(case: Case) -> dict[str, bytes]:
    """The golden files stored for ``case``: relative path → bytes."""
    d = GOLDENS / case.name
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*"))
            if p.is_file()}


def write_goldens(cases: list[Case]) -> None:
    """Rewrite the stored goldens of ``cases`` (see the module docstring: known-good code only)."""
    for case in cases:
        with tempfile.TemporaryDirectory(prefix="golden-") as tmp:
            got = run_case(case, Path(tmp) / "run")
        d = GOLDENS / case.name
        shutil.rmtree(d, ignore_errors=True)
        for rel, data in got.items():
            (d / rel).parent.mkdir(parents=True, exist_ok=True)
            (d / rel).write_bytes(data)
        print(f"wrote {d.relative_to(GOLDENS.parent)} ({len(got)} files)")


def write_checkpoints() -> None:
    """Rewrite the stored checkpoint folders: each run with ``--threads 1 --checkpoint ck`` to
    its end, then every part after the first batch removed, which leaves the folder exactly as
    a run Ctrl-C'd after its first batch leaves it (pre-reorganisation code only: see the
    module docstring)."""
    from zipai_sim.cli import main

    for ck in CHECKPOINTS:
        with tempfile.TemporaryDirectory(prefix="golden-ck-") as tmp:
            with contextlib.chdir(tmp), contextlib.redirect_stdout(io.StringIO()):
                code = main(ck.line(1) + ["--checkpoint", "ck"])
            assert code == 0, (ck.name, code)
            parts = sorted(p.name for p in (Path(tmp) / "ck").glob("part-*.parquet"))
            assert parts == [FIRST_PART, RESUMED_PART], parts
            (Path(tmp) / "ck" / RESUMED_PART).unlink()
            tree = pl.read_parquet_metadata(Path(tmp) / "ck" / FIRST_PART)["tree"]
            assert f'"o": "{ck.cls}"' in tree, tree[:200]
            shutil.rmtree(ck.folder, ignore_errors=True)
            shutil.copytree(Path(tmp) / "ck", ck.folder)
        print(f"wrote {ck.folder.relative_to(GOLDENS.parent)}: run.json, {FIRST_PART}")


def main(argv: list[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", action="store_true",
                   help="rewrite every case's goldens (known-good code only)")
    g.add_argument("--write-checkpoints", action="store_true",
                   help="rewrite the stored checkpoint folders (pre-reorganisation code only)")
    g.add_argument("--list", action="store_true", help="print the cases")
    g.add_argument("--run", metavar="CASE", help="print one case's golden files, as made now")
    a = ap.parse_args(argv)
    if a.list:
        for case in ALL_CASES:
            for step in case.steps:
                print(case.name, step.__name__ + "()" if callable(step)
                      else shlex.join(["zipai-sim", *step]))
    elif a.run:
        [case] = [c for c in ALL_CASES if c.name == a.run]
        with tempfile.TemporaryDirectory(prefix="golden-") as tmp:
            for rel, data in run_case(case, Path(tmp) / "run").items():
                print(f"===== {rel}\n{data.decode(errors='replace')}")
    elif a.write_checkpoints:
        write_checkpoints()
    else:
        write_goldens(ALL_CASES)
    return 0


if __name__ == "__main__":
    sys.exit(main())
