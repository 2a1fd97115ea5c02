"""The documentation: the README and the MkDocs site in docs/ (mkdocs.yml).

The site builds with ``mkdocs build --strict`` and no warning (broken links and anchors, pages
left out of the nav, docstring citations of a rules section that does not exist); the Python
examples of the README and of the guide run as they are written, and so do the README's
``uv run zipai-sim`` lines; the rules page keeps every § the code cites, the sources page every
seed text it names, and the knobs page every knob with each shipped variant's value.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import zipai_sim

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
PYTHON_PAGES = [README, *sorted((DOCS / "guide").glob("*.md"))]
SHIPPED = ["guangxi-81", "guangxi-dazipai", "hunan-hengyang", "changsha-paohuzi",
           "changde-paohuzi", "liuhu-dao"]
FENCE = re.compile(r"^```(\S*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)


def fenced(path: Path, lang: str) -> list[tuple[int, str]]:
    """The ``lang`` code blocks of a Markdown file: (line of the block's first line, code)."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start(2)) + 1, m.group(2))
            for m in FENCE.finditer(text) if m.group(1) == lang]


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# --- the site -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
         str(ROOT / "mkdocs.yml"), "--site-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=300)
    log = run.stdout + run.stderr
    assert run.returncode == 0, log
    warnings = [line for line in log.splitlines() if "WARNING" in line]
    assert not warnings, "\n".join(warnings)
    return out


def test_site_builds_strictly_with_every_page(site):
    for page in DOCS.rglob("*.md"):
        if "_ext" in page.parts:
            continue
        name = page.relative_to(DOCS).with_suffix("")
        folder = name.parent if name.name == "index" else name
        assert (site / folder / "index.html").is_file(), f"{rel(page)} was not built"
    assert not (site / "_ext").exists(), "the griffe extension must not be published as a page"


def test_site_renders_chinese(site):
    html = (site / "sources" / "index.html").read_text(encoding="utf-8")
    assert '<meta charset="utf-8"' in html
    assert "湖南衡阳的字牌怎么打的" in html and "扫穿" in html
    rules = (site / "RULES" / "index.html").read_text(encoding="utf-8")
    assert "§6 Winning" in rules and "三提五坎" in rules


def test_api_reference_documents_every_public_name(site):
    html = (site / "reference" / "index.html").read_text(encoding="utf-8")
    missing = [n for n in zipai_sim.__all__ if f'id="zipai_sim.{n}"' not in html]
    assert not missing, f"not in docs/reference/index.md: {missing}"
    assert "&gt;&gt;&gt;" in html and "<blockquote>" not in html  # doctests shown as code
    assert 'href="../RULES/#rules-s6"' in html  # a docstring's "RULES.md §6" links to §6


def test_site_needs_no_network(site):
    html = (site / "index.html").read_text(encoding="utf-8")
    assert not re.search(r'<(script|link)[^>]+(src|href)="https?://', html)


# --- the pages' own rules ---------------------------------------------------------------------

def test_readme_is_a_front_door():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines"
    assert lines[:6] == ["# zipai-sim", "", "```", "uv run zipai-sim simulate", "uv run pytest",
                         "```"]


def test_no_path_of_a_build_machine():
    pages = [README, ROOT / "mkdocs.yml", *DOCS.rglob("*.md"), *DOCS.rglob("*.py")]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for bad in ("/work/", "../shared", "shared/seeds", "/home/", "/root/", "/tmp/"):
            assert bad not in text, f"{rel(page)} names {bad!r}"


def _cited_sections() -> set[str]:
    found = set()
    for path in [*(ROOT / "zipai_sim").rglob("*.py"), *(ROOT / "zipai_sim").rglob("*.toml"),
                 *DOCS.rglob("*.md"), *(ROOT / "tests").glob("*.py")]:
        found |= set(re.findall(r"RULES\.md §(\d+(?:\.\d+)?)", path.read_text(encoding="utf-8")))
    return found


def test_rules_page_has_every_cited_section():
    text = (DOCS / "RULES.md").read_text(encoding="utf-8")
    headings = dict(re.findall(r"^#+ §(\d+(?:\.\d+)?) .*\{#(rules-s[\d-]+)\}$", text, re.M))
    for n, anchor in headings.items():
        assert anchor == "rules-s" + n.replace(".", "-")
    for n in [str(i) for i in range(1, 11)] + [f"5.{i}" for i in range(1, 9)] + [
            f"7.{i}" for i in range(1, 5)]:
        assert n in headings, f"docs/RULES.md has no heading §{n}"
    cited = _cited_sections()
    assert cited and cited <= set(headings), sorted(cited - set(headings))


def test_sources_page_has_every_cited_seed_text():
    text = (DOCS / "sources.md").read_text(encoding="utf-8")
    named = set()
    for path in [*(ROOT / "zipai_sim").rglob("*.py"), *(ROOT / "zipai_sim").rglob("*.toml"),
                 *DOCS.rglob("*.md")]:
        named |= set(re.findall(r"\b(\d{3}_[0-9a-f]{16}\.txt)", path.read_text(encoding="utf-8")))
    headings = set(re.findall(r"^## (\d{3}_[0-9a-f]{16}\.txt) \{#seed-\d{3}\}$", text, re.M))
    assert len(headings) == 5 and named <= headings, sorted(named - headings)


def test_knobs_page_lists_every_knob_with_the_shipped_values():
    text = (DOCS / "knobs.md").read_text(encoding="utf-8")
    shipped = {k: zipai_sim.load_variant(k).to_dict() for k in SHIPPED}
    assert sorted(shipped) == sorted(zipai_sim.list_variants())
    for sec, knobs in shipped[SHIPPED[0]].items():
        if not isinstance(knobs, dict) or sec == "path":
            continue
        part = re.search(rf"^## `\[{sec}\]`.*?(?=^## |\Z)", text, re.M | re.S)
        assert part, f"docs/knobs.md has no section [{sec}]"
        header = "| knob | " + " | ".join(f"`{k}`" for k in SHIPPED) + " |"
        assert header in part.group(0), f"[{sec}]: no table of the shipped values"
        rows = {}
        for line in part.group(0).splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == len(SHIPPED) + 1 and cells[0].startswith("`"):
                rows.setdefault(cells[0].strip("`"), []).append(cells[1:])
        for knob in knobs:
            assert knob in rows, f"docs/knobs.md does not list [{sec}].{knob}"
            values = [json.loads(c.strip("`")) for c in rows[knob][-1]]
            assert values == [shipped[k][sec][knob] for k in SHIPPED], f"[{sec}].{knob}"


def test_every_module_and_name_the_docs_give_exists():
    """A ``zipai_sim.x.y`` in the README or a page is importable (module paths move)."""
    import importlib

    def exists(dotted: str) -> bool:
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:i]))
            except ImportError:
                continue
            for name in parts[i:]:
                if not hasattr(obj, name):
                    return False
                obj = getattr(obj, name)
            return True
        return False

    for page in [README, *DOCS.rglob("*.md")]:
        for dotted in sorted(set(re.findall(r"zipai_sim(?:\.[A-Za-z_]\w*)+",
                                            page.read_text(encoding="utf-8")))):
            assert exists(dotted), f"{rel(page)} names {dotted}, which does not exist"


def test_every_file_the_docs_give_exists():
    """A ``zipai_sim/…`` path in the README or a page names a file or folder of the package."""
    for page in [README, *DOCS.rglob("*.md")]:
        for path in set(re.findall(r"zipai_sim/[\w/.*-]*\w", page.read_text(encoding="utf-8"))):
            pattern = re.sub(r"\b[A-Z]+\b", "*", path)  # KEY.parquet: a placeholder
            assert list(ROOT.glob(pattern)), f"{rel(page)} names {path}, which does not exist"


# --- the examples run -------------------------------------------------------------------------

# One interpreter runs every example (importing zipai_sim takes seconds): each page's python
# blocks in order in a fresh namespace (a page reads top to bottom) and its own empty folder, then
# the README's ``uv run zipai-sim …`` lines through the console script's entry point.
RUNNER = r"""
import contextlib, io, json, os, sys, traceback
from importlib.metadata import entry_points

job = json.loads(sys.argv[1])
results = {}
for page, blocks in job["pages"].items():
    folder = os.path.join(job["tmp"], page.replace("/", "_"))
    os.makedirs(folder)
    os.chdir(folder)
    namespace, results[page] = {"__name__": "__main__"}, "ok"
    for line, code in blocks:
        try:
            exec(compile("\n" * (line - 1) + code, page, "exec"), namespace)
        except BaseException:
            results[page] = f"the example at {page} line {line} failed:\n" + traceback.format_exc()
            break
folder = os.path.join(job["tmp"], "cli")
os.makedirs(folder)
os.chdir(folder)
(run,) = [e.load() for e in entry_points(group="console_scripts") if e.name == "zipai-sim"]
for argv in job["commands"]:
    out, err = io.StringIO(), io.StringIO()
    sys.argv = ["zipai-sim", *argv]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            run()
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:
        code, err = 1, io.StringIO(traceback.format_exc())
    results[" ".join(argv)] = "ok" if code == 0 else f"exit {code}:\n{err.getvalue()[-3000:]}"
with open(job["out"], "w", encoding="utf-8") as f:
    json.dump(results, f)
"""

EXAMPLE_PAGES = [p for p in PYTHON_PAGES if fenced(p, "python")]
README_COMMANDS = [shlex.split(line.split("  #")[0])[3:]
                   for _, code in fenced(README, "bash")
                   for line in code.replace("\\\n", " ").splitlines()  # continued lines
                   if line.startswith("uv run zipai-sim ")]


@pytest.fixture(scope="module")
def examples(tmp_path_factory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("examples")
    job = {"tmp": str(tmp), "out": str(tmp / "results.json"), "commands": README_COMMANDS,
           "pages": {rel(p): fenced(p, "python") for p in EXAMPLE_PAGES}}
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONIOENCODING": "utf-8"}
    run = subprocess.run([sys.executable, "-c", RUNNER, json.dumps(job)], cwd=tmp, env=env,
                         capture_output=True, text=True, encoding="utf-8", timeout=900)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-6000:]
    return json.loads((tmp / "results.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", EXAMPLE_PAGES, ids=rel)
def test_python_examples_run(page, examples):
    """Output-only or pseudo blocks use another fence (text, bash), so every python block runs."""
    assert examples[rel(page)] == "ok", examples[rel(page)]


def test_readme_command_lines_run(examples):
    assert README_COMMANDS
    for argv in README_COMMANDS:
        assert examples[" ".join(argv)] == "ok", f"uv run zipai-sim {' '.join(argv)}: " + \
            examples[" ".join(argv)]


def test_every_module_has_its_reference_page():
    """Each module of the package is rendered on its package's page of the API reference
    (docs/reference/PACKAGE.md), so a new module cannot go undocumented."""
    import pkgutil

    import zipai_sim

    pages = "".join(p.read_text(encoding="utf-8")
                    for p in (ROOT / "docs" / "reference").glob("*.md"))
    mods = [m.name for m in pkgutil.walk_packages(zipai_sim.__path__, "zipai_sim.")
            if m.name.count(".") >= 2 or m.ispkg]
    missing = [m for m in mods if f"::: {m}\n" not in pages and m != "zipai_sim.version"]
    assert missing == []


def test_only_seed_texts_are_linked_not_rng_seeds():
    sys.path.insert(0, str(DOCS / "_ext"))
    try:
        import zipai_docs
    finally:
        sys.path.remove(str(DOCS / "_ext"))
    assert zipai_docs.link_citations("see seed 001 here") == "see [seed 001][seed-001] here"
    # a run's RNG seed of three digits is no seed text: the build would fail on a dead reference
    assert zipai_docs.link_citations("200 decks, seed 777, 2 threads") == \
        "200 decks, seed 777, 2 threads"
