"""The package's shape (issue 42): the import contract, no private name imported across
modules, numba code only in ``kernels`` and covered by the stale-cache guard, and the public API
(``import zipai_sim as zs``: names and signatures) as it was before the packages were moved.

``tests/api.txt`` was written by ``api_lines()`` on the commit before the move (c6df910): the
API a user programs against; a change to it must be deliberate (rewrite the file and say so, as
issue 41 did when it added ``Variant.with_knobs``).
"""

from __future__ import annotations

import ast
import inspect
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "zipai_sim"
API = Path(__file__).with_name("api.txt")


def _modules() -> list[tuple[str, ast.Module]]:
    out = []
    for p in sorted(PKG.rglob("*.py")):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append((".".join(parts), ast.parse(p.read_text(encoding="utf-8"))))
    return out


def test_import_contract_is_kept():
    """import-linter's layers (pyproject.toml [tool.importlinter]): cli > plots > studies |
    tables | exact > records > play > deals > report | runs | stats > kernels > game > version."""
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_no_private_name_is_imported_across_modules():
    bad = [f"{mod}: from {n.module} import {a.name}"
           for mod, tree in _modules() for n in ast.walk(tree)
           if isinstance(n, ast.ImportFrom) and n.module and n.module != "__future__"
           for a in n.names if a.name.startswith("_") and not a.name.startswith("__")]
    assert bad == []


def test_no_module_imports_the_package_root():
    """The root re-exports everything: a part importing it would import every layer."""
    def part(name: str) -> bool:
        return (PKG / name).is_dir() or (PKG / f"{name}.py").exists()

    bad = [mod for mod, tree in _modules() if mod != "zipai_sim" for n in ast.walk(tree)
           if (isinstance(n, ast.ImportFrom) and n.module == "zipai_sim" and n.level == 0
               and not all(part(a.name) for a in n.names))
           or (isinstance(n, ast.Import) and any(a.name == "zipai_sim" for a in n.names))]
    assert bad == []


def _jitted(tree: ast.Module) -> bool:
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            for d in n.decorator_list:
                f = d.func if isinstance(d, ast.Call) else d
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                if name in ("njit", "jit", "vectorize", "guvectorize", "generated_jit", "cfunc",
                            "overload", "jitclass"):
                    return True
    return False


def test_numba_code_lives_in_kernels_and_the_cache_guard_sees_it():
    """Numba's cache checks only a cached function's own file, so the guard in
    ``kernels/__init__`` hashes every file whose code ends up in cached machine code: every
    jitted module (all in ``kernels``) and whatever a kernel module imports from outside."""
    from zipai_sim import kernels

    mods = _modules()
    outside = [mod for mod, tree in mods if _jitted(tree) and not mod.startswith("zipai_sim.kernels")]
    assert outside == []
    guarded = {p.resolve() for p in kernels._sources()}
    needed = set()
    for mod, tree in mods:
        if not mod.startswith("zipai_sim.kernels"):
            continue
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom) and n.module and n.module.startswith("zipai_sim") \
                    and not n.module.startswith("zipai_sim.kernels"):
                for a in n.names:
                    target = f"{n.module}.{a.name}".split(".")[1:]
                    as_mod = PKG.joinpath(*target).with_suffix(".py")
                    needed.add(as_mod if as_mod.exists()
                               else PKG.joinpath(*n.module.split(".")[1:]).with_suffix(".py"))
    assert {p.resolve() for p in needed} <= guarded
    assert {m for m, t in mods if _jitted(t)}  # the scan does see the kernels


def api_lines() -> list[str]:
    """One line per public name of ``zipai_sim`` (and per public member of its classes): kind,
    name and signature."""
    import zipai_sim as zs

    out = []
    for name in sorted(zs.__all__):
        obj = getattr(zs, name)
        if inspect.isclass(obj):
            out.append(f"class {name}{_sig(obj)}")
            for m, v in sorted(vars(obj).items()):
                if m.startswith("_") and m not in ("__init__", "__call__"):
                    continue
                if isinstance(v, property):
                    out.append(f"  property {name}.{m}")
                elif isinstance(v, (staticmethod, classmethod)) or inspect.isfunction(v):
                    out.append(f"  def {name}.{m}{_sig(getattr(obj, m))}")
        elif callable(obj):
            out.append(f"def {name}{_sig(obj)}")
        else:
            out.append(f"{name}: {type(obj).__name__}")
    return out


def _sig(obj) -> str:
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return "(...)"


def test_public_api_is_as_before_the_move():
    want = API.read_text(encoding="utf-8").splitlines()
    got = api_lines()
    assert [x for x in got if x not in want] == [] and [x for x in want if x not in got] == []


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    API.write_text("\n".join(api_lines()) + "\n", encoding="utf-8")
elif __name__ == "__main__":
    pytest.main([__file__])


#: the one call up a package kept on purpose: ``HandRecord.replay()`` (a record read from a file
#: checks itself), named in the records contract's ``ignore_imports`` too
ALLOWED_UP = {("zipai_sim.records.format", "zipai_sim.records.replay")}


def test_no_import_cycle_among_the_packages_files():
    """No module reaches itself through imports (issue 55 §6): function-level imports count,
    imports for type checkers alone do not. A cycle prints as its modules in order."""
    import grimp

    g = grimp.build_graph("zipai_sim", exclude_type_checking_imports=True, cache_dir=None)
    edges = {m: {d for d in g.find_modules_directly_imported_by(m) if (m, d) not in ALLOWED_UP}
             for m in g.modules}
    cycles = []
    for start in sorted(edges):  # a depth-first walk from each module back to itself
        stack, seen = [(start, [start])], set()
        while stack:
            m, path = stack.pop()
            for d in sorted(edges[m]):
                if d == start:
                    cycles.append(" -> ".join([*path, d]))
                elif d not in seen and d > start:  # each cycle once, from its least module
                    seen.add(d)
                    stack.append((d, [*path, d]))
    assert cycles == []


def test_ruff_is_clean():
    """ruff with the project's settings (pyproject.toml [tool.ruff]) finds nothing."""
    import subprocess

    got = subprocess.run([sys.executable, "-m", "ruff", "check", "zipai_sim", "tests",
                          "benchmarks", "docs"], cwd=ROOT, capture_output=True, text=True)
    assert got.returncode == 0, got.stdout + got.stderr
