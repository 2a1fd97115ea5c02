"""A text frame written out: as the aligned table a command prints, as Markdown, as HTML."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the package imports this part eagerly and must not pull polars
    import polars as pl


def render(df: pl.DataFrame) -> str:
    """A text frame as the aligned table every command prints (Markdown-style ASCII)."""
    import polars as pl

    with pl.Config(tbl_formatting="ASCII_MARKDOWN", tbl_hide_column_data_types=True,
                   tbl_hide_dataframe_shape=True, tbl_rows=-1, tbl_cols=-1,
                   tbl_width_chars=1000, fmt_str_lengths=200):
        return str(df.fill_null(""))


def markdown(df: pl.DataFrame) -> str:
    """A text frame as a GitHub Markdown table (``|`` in cells escaped)."""
    rows = [[str(x or "").replace("|", "\\|") for x in row] for row in df.iter_rows()]
    lines = ["| " + " | ".join(df.columns) + " |", "|" + "---|" * len(df.columns)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def html_table(df: pl.DataFrame) -> str:
    """A text frame as a plain HTML table (for ``_repr_html_``)."""
    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(x or ''))}</td>" for x in row)
                   + "</tr>" for row in df.iter_rows())
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
