"""Which runs a figure draws, what each is called, and where it came from (issue 11).

A *run* is one simulation: a variant (key and rules hash) at a threshold, with a bot (for played
hands), a seed and a size ``n``, read from one file. Figures never merge two runs into one line
or bar: runs that differ stay apart and their legend labels say how (``split_runs``,
``label_runs``); rows that cannot be told apart (a variant key given twice with nothing to
separate the runs) are refused with a one-line ValueError, as is the same run given twice.

Provenance comes from the data: the identity columns of the frame (``variant``,
``rules_hash``, ``threshold``, ``bot``, ``seed``, ``source``, ``run_n``), which ``load_result``
fills from the Parquet key-value metadata of each file where the table itself lacks them. Each
figure shows it in a small footer and ``save_figure`` writes it into the file's metadata.
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from zipai_sim.plots.labels import text

#: columns that tell runs apart, in the order their differences are named in a label
ID_COLS = ("variant", "threshold", "rules_hash", "bot", "seed", "source")
FOOTER_GID = "zipai-sim-provenance"


@dataclass
class Run:
    """One run's identity (None where the data do not say) and its rows."""

    key: str
    threshold: int | None
    rules_hash: str | None
    bot: str | None
    seed: int | None
    source: str | None
    n: int | None
    rows: pl.DataFrame
    label: str = ""

    def describe(self) -> str:
        """The variant key, and ``@threshold`` when the run names one."""
        return self.key + (f" @{self.threshold}" if self.threshold is not None else "")


def id_cols(df: pl.DataFrame) -> list[str]:
    """The identity columns ``df`` has (``ID_COLS`` and ``run_n``), to carry through a select."""
    return [c for c in (*ID_COLS, "run_n") if c in df.columns]


def with_run_n(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with ``run_n``, each run's largest ``n`` (its deals), where it has an ``n`` column
    and no ``run_n``: kept before a figure picks rows whose ``n`` counts something else (the
    wins of a ``fanxing_k`` row, the complete hands of a ``dealer_huxi_H`` row)."""
    if "run_n" in df.columns or "n" not in df.columns:
        return df
    by = [c for c in ID_COLS if c in df.columns]
    return df.with_columns(pl.col("n").max().over(by).alias("run_n"))


def _run_n(rows: pl.DataFrame) -> int | None:
    """The run's size: its ``run_n`` (from the file's metadata), else the largest ``n`` of its
    rows (deals or hands of a table), else the number of distinct ``deal`` rows."""
    for col, how in (("run_n", "first"), ("n", "max"), ("deal", "n_unique")):
        if col in rows.columns and rows[col].drop_nulls().len():
            s = rows[col].drop_nulls()
            return int(s[0] if how == "first" else s.max() if how == "max" else s.n_unique())
    return None


def split_runs(df: pl.DataFrame, unique: Sequence[str], what: str,
               exclude: Sequence[str] = ()) -> list[Run]:
    """The runs of ``df`` in first-seen order, labelled (``label_runs`` in English).

    ``unique``: columns whose values appear once per run (e.g. ``("metric", "seat")`` in a
    balance table, ``("deal",)`` in per-hand rows); ``exclude``: identity columns drawn along an
    axis rather than told apart (``threshold`` in ``plot_tianhu_threshold``). Raises ValueError
    (``what`` names the figure) when a run's ``unique`` values repeat — two runs with nothing
    in the data to tell them apart, e.g. a repeated variant key — or when two files hold the
    same run."""
    cols = [c for c in ID_COLS if c in df.columns and c not in exclude]
    runs = []
    for key, part in df.group_by(cols, maintain_order=True):
        ident = dict(zip(cols, key))
        runs.append(Run(str(ident["variant"]), ident.get("threshold"), ident.get("rules_hash"),
                        ident.get("bot"), ident.get("seed"), ident.get("source"),
                        _run_n(part), part))
    for r in runs:
        u = [c for c in unique if c in r.rows.columns]
        dup = r.rows.filter(r.rows.select(u).is_duplicated()) if u else r.rows.clear()
        differ = [c.replace("_", " ") for c in exclude if dup.height and c in dup.columns
                  and c not in u and (dup.group_by(u).agg(pl.col(c).n_unique())[c].max()) > 1]
        if differ:  # e.g. two rule sets under one key, in a figure that draws a key as one line
            raise ValueError(f"{what}: {r.key} comes as runs that differ in {', '.join(differ)} "
                             f"(two rule sets under one variant key?), which this figure would "
                             f"draw as one line: give them different keys or plot them apart")
        if dup.height:
            same = [c.replace("_", " ") for c in cols if c != "source"]
            raise ValueError(
                f"{what}: {r.describe()} appears as two runs that nothing tells apart (same "
                f"{', '.join(same)}{' and file' if 'source' in cols else ''}): a repeated "
                f"variant key? Give each run once, or runs that differ in threshold, seed or bot")
    for i, a in enumerate(runs):
        for b in runs[i + 1:]:
            if a.source != b.source and _same_run(a, b):
                raise ValueError(f"{what}: {a.source} and {b.source} hold the same run "
                                 f"({a.describe()}): give it once")
    label_runs(runs, "en")
    return runs


def _same_run(a: Run, b: Run) -> bool:
    ident = ("key", "threshold", "rules_hash", "bot", "seed", "n")
    if any(getattr(a, f) != getattr(b, f) for f in ident):
        return False
    ra, rb = (r.rows.drop("source", strict=False) for r in (a, b))
    return ra.columns == rb.columns and ra.equals(rb)


def _field(run: Run, f: str, lang: str) -> str:
    v = getattr(run, f)
    if f == "threshold":
        return f"@{v}"
    if f == "rules_hash":
        return f"#{str(v)[:8]}"
    if f == "n":
        return f"n={v:,}" if v is not None else "n=?"
    if f == "source":
        return str(v)
    return f"{text(f, lang)} {v}"


def label_runs(runs: list[Run], lang: str) -> list[str]:
    """Set and return each run's legend label: its variant key, then what tells it apart from
    the other runs of the same key, in this order: ``@threshold``, ``#rules-hash`` (between runs
    at one threshold), bot, seed, ``n=…``, and the file name where nothing else does
    (``guangxi-81 @15``, ``guangxi-81 #3f2a9c1d``, ``guangxi-81 bot random``).
    """
    fields = ("threshold", "rules_hash", "bot", "seed", "n")
    for r in runs:
        same = [q for q in runs if q.key == r.key]
        # the rules hash covers the threshold too: it is news only between runs at one threshold
        shown = [f for f in fields if len({getattr(q, f) for q in same if f != "rules_hash"
                                           or q.threshold == r.threshold}) > 1]
        r.label = " ".join([r.key] + [_field(r, f, lang) for f in shown])
    labels = [r.label for r in runs]
    for r in runs:  # the file name only where nothing else tells two runs apart
        if labels.count(r.label) > 1 and r.source:
            r.label += f" {r.source}"
    return [r.label for r in runs]


def footer_text(runs: Sequence[Run], lang: str, unit: str = "deals") -> str:
    """The provenance line(s) of a figure: variants (key, rules hash, thresholds), ``n`` (in
    ``unit``, "deals" or "hands"), seeds, bots and, from several files, their names; each item
    only where the data carry it. Wrapped at about 110 characters."""
    specs: dict[str, tuple[list[str], list[str]]] = {}
    for r in runs:
        ths, hs = specs.setdefault(r.key, ([], []))
        cols = [c for c in ("threshold", "rules_hash") if c in r.rows.columns]
        pairs = r.rows.select(cols).unique(maintain_order=True).iter_rows(named=True) \
            if cols else [{}]
        for p in pairs:  # a threshold drawn along an axis: every threshold's own rules hash
            t, h = p.get("threshold", r.threshold), p.get("rules_hash", r.rules_hash)
            if t is not None and str(t) not in ths:
                ths.append(str(t))
            if h is not None and h[:8] not in hs:
                hs.append(h[:8])
    items = []
    for key, (ths, hs) in specs.items():
        items.append(key + (f" {text('threshold', lang)} {'/'.join(ths)}" if ths else "")
                     + (f" {text('rules', lang)} {'/'.join(hs)}" if hs else ""))
    parts = [", ".join(items)]
    ns = sorted({r.n for r in runs if r.n is not None})
    if ns:
        each = f" {text('each', lang)}" if len(runs) > 1 and len(ns) == 1 else ""
        parts.append(f"n = {', '.join(f'{n:,}' for n in ns)} {text(unit, lang)}{each}")
    for f in ("seed", "bot"):
        vals = list(dict.fromkeys(str(getattr(r, f)) for r in runs
                                  if getattr(r, f) is not None))
        if vals:
            parts.append(f"{text(f, lang)} {', '.join(vals)}")
    files = list(dict.fromkeys(r.source for r in runs if r.source))
    if len(files) > 1:
        parts.append(f"{text('file', lang)} {', '.join(files)}")
    return "\n".join(textwrap.wrap(" · ".join(parts), 110))


def footer(fig):
    """The figure's provenance footer Text, or None."""
    for t in fig.texts:
        if t.get_gid() == FOOTER_GID:
            return t
    return None


def add_footer(fig, line: str) -> None:
    """Add ``line`` to the figure's footer (one footer per figure: several plots drawn into one
    figure each add their own line once)."""
    foot = footer(fig)
    if foot is None:
        fig.text(0.01, 0.01, line, fontsize=6.5, color="0.35", ha="left", va="bottom",
                 gid=FOOTER_GID)
    elif line not in foot.get_text():
        foot.set_text(foot.get_text() + "\n" + line)


def footer_space(fig) -> float:
    """The fraction of the figure's height the footer needs at its bottom (0 without one)."""
    foot = footer(fig)
    if foot is None:
        return 0.0
    lines = foot.get_text().count("\n") + 1
    return min(0.4, (lines * 8.5 + 6) / (fig.get_figheight() * 72))


def _single(meta: dict[str, str], *keys: str) -> str | None:
    for k in keys:
        v = meta.get(k)
        if v is not None and v != "" and "," not in v:
            return v
    return None


def _line_up(meta: dict[str, str]) -> str | None:
    """The bot of a file's run: its name when every seat played it, else the seats' bots in
    seat order (dealer first) joined by "/" ("lookahead/greedy/random"): a file's ``policies``
    lists one bot per seat, and a figure's caption joins the bots of its runs with commas."""
    v = meta.get("policies") or meta.get("policy")
    if not v:
        return None
    seats = v.split(",")
    return seats[0] if len(set(seats)) == 1 else "/".join(seats)


def with_provenance(df: pl.DataFrame, meta: dict[str, str], source: str) -> pl.DataFrame:
    """``df`` with the identity columns it lacks filled from its file's metadata: ``rules_hash``
    (``rules_hash``, or per variant and threshold from ``variant_keys``/``thresholds``/
    ``rules_hashes``), ``seed``, ``bot`` (``policies``/``policy``), ``run_n`` (``n``), and
    ``source`` (the file name)."""
    add = []
    if "rules_hash" not in df.columns:
        one = _single(meta, "rules_hash")
        if one is not None:
            add.append(pl.lit(one).alias("rules_hash"))
        elif {"variant_keys", "thresholds", "rules_hashes"} <= meta.keys() and \
                "threshold" in df.columns:
            keys, ths, hs = (meta[k].split(",") for k in ("variant_keys", "thresholds",
                                                          "rules_hashes"))
            found: dict[tuple[str, str], set[str]] = {}
            if len(keys) == len(ths) == len(hs):
                for k, t, h in zip(keys, ths, hs):
                    found.setdefault((k, t), set()).add(h)
            # a key and threshold run under two rule sets stays unknown (null), so the runs
            # show up as ones nothing tells apart instead of taking one hash by chance
            hashes = [next(iter(found[(str(v), str(t))])) if len(found.get(
                (str(v), str(t)), ())) == 1 else None for v, t in zip(df["variant"],
                                                                      df["threshold"])]
            add.append(pl.Series("rules_hash", hashes, pl.String))
    seed, n = _single(meta, "seed"), _single(meta, "n")
    bot = _line_up(meta)
    # seeds are UInt64 (0 … 2**64−1, every command's range) in every frame, so files from
    # tables (UInt64 since issue 10), older tables (Int64) and simulate metadata concatenate
    # without a cast to a float; a Python-only seed beyond 2**64 stays text, never merged
    if "seed" in df.columns and df.schema["seed"].is_integer():
        df = df.with_columns(pl.col("seed").cast(pl.UInt64, strict=False))
    elif "seed" not in df.columns and seed is not None and seed.isdigit():
        big = int(seed) >= 1 << 64
        add.append(pl.lit(seed if big else int(seed), pl.String if big else pl.UInt64)
                   .alias("seed"))
    if "bot" not in df.columns and bot is not None:
        add.append(pl.lit(bot).alias("bot"))
    # a sample of a run's hands (balance --rows: ``rows_per_chunk``) is drawn from its rows, so
    # its size is theirs (``_run_n`` counts its deals), not the run's n
    if "run_n" not in df.columns and n is not None and n.isdigit() and \
            "rows_per_chunk" not in meta:
        add.append(pl.lit(int(n), pl.Int64).alias("run_n"))
    if "source" not in df.columns:
        add.append(pl.lit(source).alias("source"))
    return df.with_columns(add) if add else df


def load_result(paths: str | os.PathLike | Sequence[str | os.PathLike]) -> pl.DataFrame:
    """Read saved Parquet results into one frame (columns unioned), each row keeping the run it
    came from: a file without a ``variant`` column (a ``simulate`` summary) gets it from its
    metadata, and ``with_provenance`` adds ``rules_hash``, ``seed``, ``bot``, ``run_n`` and
    ``source`` (the file name) where the table lacks them. Raises OSError for a missing file,
    ValueError for one that is not Parquet or for the same file given twice."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    frames = []
    seen: set[Path] = set()
    for path in paths:
        path = Path(path)
        if path.is_dir():
            raise ValueError(f"{path} is a folder: give a Parquet result file")
        if not path.is_file():
            raise FileNotFoundError(f"no such file: {path}")
        if path.resolve() in seen:
            raise ValueError(f"{path} is given twice: give each result file once")
        seen.add(path.resolve())
        try:
            df = pl.read_parquet(path)
            meta = pl.read_parquet_metadata(path)
        except (pl.exceptions.PolarsError, OSError) as e:  # not Parquet
            raise ValueError(f"cannot read {path} as Parquet: {str(e).splitlines()[0]}") from None
        if "variant" not in df.columns:
            df = df.with_columns(pl.lit(meta.get("variant", path.stem)).alias("variant"))
        frames.append(with_provenance(df, meta, path.name))
    return pl.concat(frames, how="diagonal_relaxed")


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

    from zipai_sim.version import __version__
    from zipai_sim.runs.provenance import common_metadata

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
