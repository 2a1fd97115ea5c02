"""The objects a result is shown through: ``Report`` (a header line, a text table and notes)
and ``ReportFrame`` (a result table that keeps its run, so a notebook shows what the command
line prints), and joining several results under one header."""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field

import polars as pl

from zipai_sim.report.header import header
from zipai_sim.report.numbers import check_per
from zipai_sim.report.render import html_table, markdown, render
from zipai_sim.report.views import frame_view


@dataclass
class Report:
    """What a command prints: the ``header`` line, the ``table`` (text columns) and ``notes``
    (legend lines). ``str(report)`` is the terminal text; in Jupyter it shows as HTML."""

    header: str
    table: pl.DataFrame
    notes: list[str] = field(default_factory=list)

    def text(self, as_markdown: bool = False) -> str:
        """The header, the table (aligned text, or Markdown) and the notes, one per line."""
        body = markdown(self.table) if as_markdown else render(self.table)
        return "\n".join([self.header, body, *self.notes])

    def __str__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        notes = "".join(f"<p>{html.escape(x)}</p>" for x in self.notes)
        return (f"<p><code>{html.escape(self.header)}</code></p>" + html_table(self.table)
                + notes)


class ReportFrame(pl.DataFrame):
    """A result table (a ``polars.DataFrame``: every frame operation works, and returns a plain
    frame) that keeps its run's header fields (``run``, keyword arguments of ``header``) and
    ``notes``, so that in a notebook it shows what the command line prints (``report``)."""

    run: dict | None = None
    notes: list[str] | None = None
    show: bool = True

    @classmethod
    def wrap(cls, df: pl.DataFrame, run: dict, notes: Sequence[str] = (),
             show: bool = True) -> ReportFrame:
        """``df`` with its run (``header`` keywords: variants, thresholds, seed, n, unit …);
        ``show=False`` for raw rows (records) that only carry the run to the tables made of
        them and display as a plain frame."""
        f = cls(df)
        f.run, f.notes, f.show = dict(run), list(notes), show
        return f

    def report(self, per: int | None = None) -> Report:
        """The header line, the formatted table (``frame_view``) and the notes."""
        return Report(header(**(self.run or {})), frame_view(self, check_per(per)),
                      list(self.notes or []))

    def _repr_html_(self, *args, **kwargs) -> str:
        if self.run is None or not self.show:  # raw rows, or unpickled (the run is not kept)
            return super()._repr_html_(*args, **kwargs)
        return self.report()._repr_html_()


def combine(frames: Sequence[pl.DataFrame], show: bool = True) -> ReportFrame:
    """Several results as one table (``pl.concat``) under one header (``run_of``)."""
    return ReportFrame.wrap(pl.concat(frames), run_of(frames), show=show)


def run_of(frames: Sequence[pl.DataFrame]) -> dict:
    """The ``header`` keywords of several ``ReportFrame`` results shown as one table (e.g. a
    threshold sweep): their variants and thresholds joined, the rest from the first; seconds
    summed."""
    runs = [f.run for f in frames if isinstance(f, ReportFrame) and f.run]
    if not runs:
        return {}
    out = dict(runs[0])
    out["variants"] = [v for r in runs for v in r.get("variants", ())]
    out["thresholds"] = [t for r in runs for t in r.get("thresholds", ())]
    if all(r.get("seconds") is not None for r in runs):
        out["seconds"] = sum(r["seconds"] for r in runs)
    return out
