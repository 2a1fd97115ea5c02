"""A figure saved as PNG or SVG with its provenance in the file's metadata: the runs it draws
and the files they came from (``save_figure``, ``figure_metadata``), and that metadata read back
(``read_figure_metadata``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from zipai_sim.plots.footer import footer, footer_space
from zipai_sim.plots.runs import Run

#: the run keys a figure's metadata carries (``figure_run_metadata``), as Parquet files name them
RUN_KEYS = ("variants", "rules_hash", "thresholds", "seed", "n", "n_requested", "chunk_size",
            "policies", "engine", "partial")
#: other names the same keys have in some files' metadata (one variant, balance's per-run lists)
_ALIASES = {"variants": ("variants", "variant"), "rules_hash": ("rules_hash", "rules_hashes"),
            "policies": ("policies", "policy")}


def _joined(values) -> str:
    return ",".join(dict.fromkeys(str(v) for v in values if v is not None and v != ""))


def figure_run_metadata(fig, sources: Sequence[str | os.PathLike] = ()) -> dict[str, str]:
    """The runs a figure draws, as text keys (``RUN_KEYS``): variants, rules hashes, thresholds,
    seeds, ``n`` and policies (bots) from the runs drawn into it, and from the key-value
    metadata of the Parquet ``sources`` it was drawn from (``n_requested``, ``chunk_size``,
    ``engine``, ``partial``, and whatever the drawn rows lack); values that differ between files
    are joined with ``;`` (``partial``: true if any file is). With ``sources``, also ``sources``
    (the file names) and ``source_commands`` (the command lines that wrote them, ``;``-joined).
    """
    runs = getattr(fig, "_zipai_sim_runs", [])
    out: dict[str, str] = {}

    def column(r: Run, col: str, own: object) -> list:
        return r.rows[col].unique(maintain_order=True).to_list() if col in r.rows.columns \
            else [own]

    out["variants"] = _joined(r.key for r in runs)
    out["rules_hash"] = _joined(h for r in runs for h in column(r, "rules_hash", r.rules_hash))
    out["thresholds"] = _joined(t for r in runs for t in column(r, "threshold", r.threshold))
    out["seed"] = _joined(r.seed for r in runs)
    out["n"] = _joined(r.n for r in runs)
    out["policies"] = _joined(r.bot for r in runs)
    metas = []
    for path in sources:
        try:
            metas.append(pl.read_parquet_metadata(path))
        except (pl.exceptions.PolarsError, OSError):  # load_result has read it: not expected
            metas.append({})
    for key in RUN_KEYS:
        got = [next((m[k] for k in _ALIASES.get(key, (key,)) if m.get(k)), None) for m in metas]
        got = [g for g in got if g is not None]
        if key == "partial" and got:
            out[key] = "true" if "true" in got else "false"
        elif not out.get(key) and got:
            out[key] = ";".join(dict.fromkeys(got))
    if metas:
        out["sources"] = ",".join(Path(p).name for p in sources)
        out["source_commands"] = " ; ".join(m.get("command", "?") for m in metas)
    return {k: v for k, v in out.items() if v}


def figure_metadata(fig, fmt: str, sources: Sequence[str | os.PathLike] = ()
                    ) -> dict[str, object]:
    """``savefig(metadata=…)`` for ``fmt`` ("png" or "svg"): Title (the axes titles), Description
    (the provenance footer), Creator/Software (zipai-sim and matplotlib versions), and the run
    keys: ``provenance.common_metadata`` (this command line, zipai_sim and numba versions) and
    ``figure_run_metadata`` (the runs drawn, ``sources``: the files they came from). PNG holds
    each key as its own text chunk; SVG, whose metadata is Dublin Core, as ``key=value`` items
    of its ``dc:subject`` (Keywords). SVG gets ``Date: None``, so saving the same figure twice
    gives the same bytes. ``read_figure_metadata`` reads both back."""
    import matplotlib

    from zipai_sim.runs.provenance import common_metadata
    from zipai_sim.version import __version__

    foot = footer(fig)
    titles = [a.get_title() for a in fig.axes if a.get_title()]
    meta: dict[str, object] = {
        "Title": " / ".join(titles) or "zipai-sim figure",
        "Description": foot.get_text().replace("\n", " ") if foot is not None else "",
    }
    made = f"zipai-sim {__version__}, matplotlib {matplotlib.__version__}"
    keys = {**common_metadata(), **figure_run_metadata(fig, sources)}
    if fmt == "svg":
        meta.update(Creator=made, Date=None, Keywords=[f"{k}={v}" for k, v in keys.items()])
    else:
        meta["Software"] = made
        meta.update(keys)
    return meta


def read_figure_metadata(path: str | os.PathLike) -> dict[str, str]:
    """The metadata ``save_figure`` wrote into a PNG (its text chunks) or an SVG (Title,
    Description, Creator and the ``key=value`` Keywords), as one dict."""
    path = Path(path)
    if path.suffix.lower() == ".png":
        from PIL import Image

        with Image.open(path) as im:
            return dict(im.text)
    import xml.etree.ElementTree as ET

    ns = {"dc": "http://purl.org/dc/elements/1.1/",
          "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#"}
    root = ET.parse(path).getroot()
    out: dict[str, str] = {}
    for key in ("title", "description"):
        el = root.find(f".//dc:{key}", ns)
        if el is not None and el.text is not None:
            out[key.capitalize()] = el.text
    creator = root.find(".//dc:creator//dc:title", ns)
    if creator is not None and creator.text:
        out["Creator"] = creator.text
    for li in root.findall(".//dc:subject/rdf:Bag/rdf:li", ns):
        k, _, v = (li.text or "").partition("=")
        out[k] = v
    return out


def save_figure(ax, path: str | os.PathLike,
                sources: Sequence[str | os.PathLike] = ()) -> None:
    """Save ``ax``'s figure as PNG or SVG (by the file's suffix), room left for its provenance
    footer, with ``figure_metadata`` (``sources``: the Parquet files it was drawn from, whose
    run metadata it carries on), and close it. SVG files are reproducible (no date, fixed
    element ids). Raises ValueError for another suffix."""
    path = Path(path)
    fmt = path.suffix.lower().lstrip(".")
    if fmt not in ("png", "svg"):
        raise ValueError(f"--out must end in .png or .svg, got {path.name!r}")
    import matplotlib
    import matplotlib.pyplot as plt

    fig = ax.figure
    # tight_layout moves the axes a hair each time it runs: once per state, so that saving the
    # same figure twice writes the same bytes
    state = (footer(fig).get_text() if footer(fig) else "", tuple(fig.get_size_inches()),
             tuple(a.get_title() for a in fig.axes))
    if getattr(fig, "_zipai_sim_layout", None) != state:
        fig.tight_layout(rect=(0, footer_space(fig), 1, 1))
        fig._zipai_sim_layout = state
    # a fixed salt makes the SVG element ids (clip paths, glyphs) the same on every save
    with matplotlib.rc_context({"svg.hashsalt": "zipai-sim", "svg.fonttype": "path"}):
        fig.savefig(path, dpi=150, metadata=figure_metadata(fig, fmt, sources))
    plt.close(fig)
