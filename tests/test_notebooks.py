"""The notebooks (issue 4 §3) run end to end at the small size, ``ZIPAI_NB_SIZE=ci``: each is
executed in memory by nbclient with the project's kernel, in a temporary working directory, so
the stored notebook and its full-size outputs are never rewritten; any cell error fails. The
stored copies must carry the outputs of a full-size run."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
NAMES = ["01_tianhu_and_fanxing", "02_variant_balance", "03_win_probability_tables",
         "04_hand_analysis", "05_bring_your_own_model"]


def first_output(nb: nbformat.NotebookNode) -> str:
    """Text printed by the first code cell (the size and seed line)."""
    cell = next(c for c in nb.cells if c.cell_type == "code")
    return "".join(o.get("text", "") for o in cell.get("outputs", []))


def errors(nb: nbformat.NotebookNode) -> list[str]:
    return [f"{o.ename}: {o.evalue}" for c in nb.cells if c.cell_type == "code"
            for o in c.get("outputs", []) if o.output_type == "error"]


def test_the_five_notebooks_are_there():
    assert [p.stem for p in NOTEBOOKS] == NAMES


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_notebook_carries_a_full_size_run(path):
    nb = nbformat.read(path, as_version=4)
    assert "size 'full'" in first_output(nb), "rerun it with ZIPAI_NB_SIZE=full (README)"
    assert not errors(nb)
    assert all(c.get("outputs") for c in nb.cells if c.cell_type == "code")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_at_ci_size(path, tmp_path, monkeypatch):
    monkeypatch.setenv("ZIPAI_NB_SIZE", "ci")  # the kernel inherits the environment
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell("import sys; print(sys.executable)"))
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert not errors(nb)
    kernel_python = nb.cells.pop(0).outputs[0]["text"].strip()
    assert Path(kernel_python).resolve() == Path(sys.executable).resolve()  # the venv's kernel
    assert "size 'ci'" in first_output(nb)
