"""The provenance footer of a figure: the variants, rules hashes, thresholds, sizes, seeds,
bots and files of the runs it draws, in a small text at its bottom (issue 11)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from zipai_sim.plots.labels import text
from zipai_sim.plots.runs import Run

FOOTER_GID = "zipai-sim-provenance"


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
