"""Win-probability tables (issue 4 §1): every table is a polars DataFrame with counts and Wilson
95% intervals, writable to Parquet with its run metadata (``write_table``) and printable as
Markdown (``to_markdown``).

- ``deal_table``: 天胡 and 地胡 rates by variant and threshold, from ``simulate_deals``
  (RULES.md §6, §9); ``convergence_table``: one rate as deals accumulate.
- ``opening_records`` → ``opening_table``: P(the seat wins the hand) and mean settled score by
  seat and opening features (胡息 fixed at the deal, 坎, 提, red cards, 听), from whole hands
  played by the numba engine; ``tenpai_table``: the exact chance that a dealt 听 hand's waits
  turn up beside what greedy play made of it.
- ``calculate``: the hand calculator, a hand's waits with their 胡息 and the chance they come.

>>> t = calculate("一二三 四五六 七八九 壹贰叁 肆伍陆 柒捌玖 十十", "guangxi-81")
>>> t["card"].to_list(), t["win_self"].to_list()[:3]    # 听 二 十 拾, none reaches 15 胡
(['二', '十', '拾', 'any'], [False, False, False])
"""

from zipai_sim.tables.deal import DEAL_METRICS, convergence_points, convergence_table, deal_table
from zipai_sim.tables.opening import (
    FEATURES,
    opening_records,
    opening_runs,
    opening_table,
    tenpai_table,
)
from zipai_sim.tables.output import formatted, table_metadata, to_markdown, with_wilson, write_table
from zipai_sim.tables.waits import calculate, p_none, parse_melds

__all__ = [
    "DEAL_METRICS",
    "FEATURES",
    "calculate",
    "convergence_points",
    "convergence_table",
    "deal_table",
    "formatted",
    "opening_records",
    "opening_runs",
    "opening_table",
    "p_none",
    "parse_melds",
    "table_metadata",
    "tenpai_table",
    "to_markdown",
    "with_wilson",
    "write_table",
]
