"""Cold start (issue 55): ``import zipai_sim``, ``zipai-sim --help`` and an argument error load
none of the heavy libraries (numba, polars, scipy, matplotlib, statsmodels take seconds
together); the package's names are loaded on first use, and the values the command line spells
out to stay light agree with the modules they come from.

Asserted on ``sys.modules`` in a fresh interpreter, never on a clock: benchmarks/coldstart.py
times it.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "zipai_sim"
HEAVY = ("numba", "polars", "scipy", "matplotlib", "statsmodels")
COMMANDS = ("simulate", "hand", "play", "replay", "balance", "match", "table", "plot", "arena",
            "compare", "exact", "fair", "analyze", "train", "variants")


def _loaded_after(code: str) -> list[str]:
    """The heavy top-level packages in ``sys.modules`` after running ``code`` in a fresh
    interpreter (its output silenced, SystemExit caught)."""
    probe = (
        "import contextlib, io, json, sys\n"
        "quiet = io.StringIO()\n"
        "with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):\n"
        "    try:\n"
        + "".join(f"        {line}\n" for line in code.splitlines())
        + "    except SystemExit:\n"
        "        pass\n"
        f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_import_loads_no_heavy_library():
    assert _loaded_after("import zipai_sim") == []


@pytest.mark.parametrize("argv", [["--help"], ["simulate", "--deals", "abc"]])
def test_cli_parses_without_heavy_libraries(argv):
    assert _loaded_after(f"from zipai_sim.cli.app import main\nmain({argv!r})") == []


@pytest.mark.parametrize("argv", [
    ["arena", "--challenger", "greedy", "--baseline", "random", "--decks", "0"],
    ["arena", "--challenger", "greedy", "--baseline", "random", "--chunk-size", "0"],
    ["arena", "--challenger", "rollout", "--baseline", "random", "--rollout-k", "abc"],
    ["compare", "--hands", "0"],
    ["compare", "--variants", "guangxi-81"],
])
def test_argument_errors_found_after_parsing_load_no_heavy_library(argv):
    """A bad count, chunk size or run list is said before the study (numba, polars) loads."""
    assert _loaded_after(f"from zipai_sim.cli.app import main\nmain({argv!r})") == []


def test_every_command_help_loads_no_heavy_library():
    calls = "\n".join(f"try:\n    main([{c!r}, '--help'])\nexcept SystemExit:\n    pass"
                      for c in COMMANDS)
    assert _loaded_after(f"from zipai_sim.cli.app import main\n{calls}") == []


def test_every_public_name_resolves():
    import zipai_sim as zs
    from zipai_sim.exact.opening import compare

    assert all(getattr(zs, name) is not None for name in zs.__all__)
    assert set(zs.__all__) <= set(dir(zs))
    assert zs.compare_exact is compare
    with pytest.raises(AttributeError, match="no_such_name"):
        zs.no_such_name  # noqa: B018


def _type_checking_names(path: Path) -> dict[str, str]:
    """Name → ``module`` (or ``module:attr`` when renamed) of the ``if TYPE_CHECKING:`` imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If)
                 and getattr(n.test, "id", None) == "TYPE_CHECKING")
    return {a.asname or a.name: n.module + (f":{a.name}" if a.asname else "")
            for n in block.body if isinstance(n, ast.ImportFrom) for a in n.names}


def test_lazy_tables_match_what_type_checkers_see():
    """The ``_LAZY`` tables load what the ``TYPE_CHECKING`` imports (read by type checkers and
    the API reference) name, and cover ``__all__``."""
    import zipai_sim
    import zipai_sim.report as report

    assert _type_checking_names(PKG / "__init__.py") == zipai_sim._LAZY
    assert set(zipai_sim.__all__) == {*zipai_sim._LAZY, "__version__", "warmup"}
    want = {name: f"zipai_sim.report.{part}" for name, part in report._LAZY.items()}
    assert _type_checking_names(PKG / "report" / "__init__.py") == want
    assert set(report.__all__) <= set(dir(report))
    assert all(getattr(report, name) is not None for name in report.__all__)


def test_no_lazy_name_is_a_submodule():
    """Loading a submodule binds its name on the package, over a lazy name never loaded yet
    (``report.header``, the module, in place of ``header``, the function): the lazy names and
    the submodules' names must differ."""
    import zipai_sim
    import zipai_sim.report as report

    for package, table in ((PKG, zipai_sim._LAZY), (PKG / "report", report._LAZY)):
        parts = {p.stem for p in package.glob("*.py")} | {p.name for p in package.iterdir()
                                                          if (p / "__init__.py").exists()}
        assert set(table) & parts == set()


def test_report_names_are_the_functions_whatever_loads_first():
    code = ("import zipai_sim.report.frames, zipai_sim.report.views\n"
            "from zipai_sim.report import header, render\n"
            "import types; assert not isinstance(header, types.ModuleType)\n"
            "assert not isinstance(render, types.ModuleType)\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_values_the_cli_spells_out_agree():
    """The command line copies a few values to keep the heavy modules out of --help."""
    from zipai_sim.analysis import hand
    from zipai_sim.cli import analyze, bounds, plot, train
    from zipai_sim.plots.figures import PLOTS
    from zipai_sim.runs.chunks import MAX_COLUMN_SEED
    from zipai_sim.studies import train as studies_train

    assert bounds.MAX_CLI_SEED == MAX_COLUMN_SEED
    assert sorted(plot.PLOT_KINDS) == sorted(PLOTS)
    assert (analyze.DEFAULT_WORLDS, analyze.DEFAULT_POLICY) == (hand.DEFAULT_WORLDS,
                                                                hand.DEFAULT_POLICY)
    names = ("DEFAULT_HANDS", "DEFAULT_ROUNDS", "DEFAULT_ARENA_DECKS", "DEFAULT_LABELS",
             "LABELS", "DEFAULT_LABEL_K")
    assert [getattr(train, n) for n in names] == [getattr(studies_train, n) for n in names]
    from zipai_sim.studies import neural

    assert (train.NEURAL_HANDS, train.NEURAL_EPS, train.NEURAL_EPOCHS, train.DEFAULT_ROUNDS,
            train.DEFAULT_ARENA_DECKS) == (neural.DEFAULT_HANDS, neural.DEFAULT_EPS,
                                           neural.DEFAULT_EPOCHS, neural.DEFAULT_ROUNDS,
                                           neural.DEFAULT_ARENA_DECKS)


def test_cli_choices_agree_with_the_heavy_modules():
    """Choices built from the light bot table name what the heavy modules accept."""
    from zipai_sim.analysis.hand import PLAYOUT_POLICIES
    from zipai_sim.cli.app import build_parser
    from zipai_sim.studies.arena import KERNEL_POLICIES

    sub = next(a for a in build_parser()._actions if a.dest == "command").choices
    policy = next(a for a in sub["analyze"]._actions if a.dest == "policy")
    assert tuple(policy.choices) == PLAYOUT_POLICIES
    fair_policy = next(a for a in sub["fair"]._actions if a.dest == "policy")
    assert all(fair_policy.type(name) == name for name in KERNEL_POLICIES)
