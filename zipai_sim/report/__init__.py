"""Results as a person reads them: one number formatter, one header line, one HTML view.

Every command and every result object goes through here, so the terminal and a notebook show
the same text (issue 11). The parts, each importing only those listed after it:

- ``frames``: ``Report`` (what a command prints) and ``ReportFrame`` (a result table that keeps
  its run and shows as the command line would), ``combine`` and ``run_of``;
- ``render``: a text frame as the aligned terminal table, Markdown or HTML;
- ``views``: result frames as text frames (``frame_view``, ``metric_view``, ``exact_view``);
- ``header``: the one header line of a run (``header``, ``play_header``, ``run_fields``) and
  ``DEFAULT_SEED``;
- ``numbers``: the scale (``DEFAULT_PER``, ``--per``) and digits of rates, means and
  differences;
- ``flags``: library errors with the command-line flags in place of parameter names.

Every name is importable from ``zipai_sim.report`` as before the split.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# the light parts (no polars), bound here once: "header" and "render" are also the names of
# their modules, and a part loaded later would leave the module where the function should be
from zipai_sim.report.flags import FLAGS, flag_message
from zipai_sim.report.header import DEFAULT_SEED, header, play_header, run_fields
from zipai_sim.report.numbers import (
    DEFAULT_PER,
    check_per,
    decimals,
    diff_text,
    fixed,
    mean_text,
    rate_text,
    scale_for,
    sig,
    unit_label,
)
from zipai_sim.report.render import html_table, markdown, render

# the parts that import polars (most of a second), loaded on first use: the command line takes
# DEFAULT_SEED and check_per from here while it builds its parser
_LAZY: dict[str, str] = {
    "Report": "frames",
    "ReportFrame": "frames",
    "combine": "frames",
    "run_of": "frames",
    "IDENTITY": "views",
    "exact_view": "views",
    "frame_view": "views",
    "metric_view": "views",
}

if TYPE_CHECKING:  # the same names for type checkers and the API reference (griffe reads these)
    from zipai_sim.report.frames import Report, ReportFrame, combine, run_of
    from zipai_sim.report.views import IDENTITY, exact_view, frame_view, metric_view


def __getattr__(name: str) -> Any:
    part = _LAZY.get(name)
    if part is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{part}"), name)
    globals()[name] = value  # the next look-up is an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "DEFAULT_PER",
    "DEFAULT_SEED",
    "FLAGS",
    "IDENTITY",
    "Report",
    "ReportFrame",
    "check_per",
    "combine",
    "decimals",
    "diff_text",
    "exact_view",
    "fixed",
    "flag_message",
    "frame_view",
    "header",
    "html_table",
    "markdown",
    "mean_text",
    "metric_view",
    "play_header",
    "rate_text",
    "render",
    "run_fields",
    "run_of",
    "scale_for",
    "sig",
    "unit_label",
]
