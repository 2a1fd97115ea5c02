"""The hand analysis as one self-contained HTML page: ``render_page(data)`` → the document,
``write_page(data, path)`` → the file.

The page needs no server and no network: its CSS, its script (``page_assets``) and the table
pictures (SVG markup, already drawn by Python) are all inline, and the analysis itself rides in
a ``<script type="application/json" id="data">`` block that the script reads. One opens it from
disk in any browser and steps through the hand: the move, the table after it, and at an analysed
seat's decision the answers with their expected settled score, its 95% interval, the loss against
the best answer and the chance to win; below, the chance to win along the hand.

The data (a plain dict, JSON-able)::

    {"title": str, "lang": "zh" | "en", "header": str, "unit": str, "seats": [int, ...],
     "steps": [{"move": str, "svg": str,
                "decision": None | {"seat": int, "question": str, "played": str, "best": str,
                                    "rows": [{"answer": str, "value": float, "lo": float,
                                              "hi": float, "loss": float, "win": float,
                                              "played": bool, "best": bool}, ...]}}, ...],
     "curve": [{"step": int, "seat": int, "win": float, "lo": float, "hi": float}, ...]}

Step 0 is the deal. ``win``, ``lo`` and ``hi`` of the curve and ``win`` of a row are chances
(0..1); ``value``, ``lo``, ``hi`` and ``loss`` of a row are in the variant's ``unit``. Numbers
must be finite. Extra keys are carried along untouched.

Elements with stable ids (for tests and scripts): ``#step-index`` (text and ``data-step``: the
0-based current step), ``#move``, ``#table`` (the step's svg), ``#values`` (the answers, one
``<tr data-answer=… data-value=…>`` each, best value first, classes ``played`` / ``best``),
``#curve``, the buttons ``#first #prev #next #last`` and the range ``#slider``; ``body`` gets
``data-ready="1"`` once the script has run and ``data-step`` as it moves.

>>> page = render_page({"title": "t", "lang": "en", "header": "h", "unit": "pt", "seats": [0],
...                     "steps": [{"move": "deal", "svg": "<svg/>", "decision": None}],
...                     "curve": []})
>>> page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page
True
"""

from __future__ import annotations

import html
import json
import math
import os
from numbers import Integral, Real
from pathlib import Path
from typing import Any

from zipai_sim.analysis.page_assets import CSS, JS

__all__ = ["LABELS", "render_page", "script_json", "validate", "write_page"]

#: the page's words per language; ``{i}``, ``{n}``, ``{s}`` and ``{unit}`` are filled in
LABELS: dict[str, dict[str, str]] = {
    "zh": {
        "html_lang": "zh-CN", "first": "« 第一步", "prev": "◀ 上一步", "next": "下一步 ▶",
        "last": "最后一步 »", "step": "第 {i} 步 / 共 {n} 步", "step_short": "第 {i} 步",
        "step_axis": "步", "move": "本步", "table": "牌桌", "decision": "决定",
        "answer": "选择", "value": "期望得分（{unit}）", "interval": "95% 区间", "loss": "损失",
        "win": "胡牌概率", "played": "实际选择", "best": "最佳",
        "seat": "座位 {s}", "no_decision": "此步没有需要分析的决定",
        "curve": "胡牌概率（各决定处，95% 区间）", "curve_empty": "没有分析过的决定",
        "hint": "键盘：← → 翻步，Home / End 到首尾；点曲线上的点跳到该步",
    },
    "en": {
        "html_lang": "en", "first": "« first", "prev": "◀ prev", "next": "next ▶",
        "last": "last »", "step": "step {i} of {n}", "step_short": "step {i}",
        "step_axis": "step", "move": "move", "table": "table", "decision": "decision",
        "answer": "answer", "value": "value ({unit})", "interval": "95% interval",
        "loss": "loss", "win": "win chance", "played": "played", "best": "best",
        "seat": "seat {s}", "no_decision": "no analysed decision at this step",
        "curve": "chance to win at each decision (95% interval)",
        "curve_empty": "no analysed decisions",
        "hint": "keys: ← → step, Home / End first / last; click a point of the curve to go there",
    },
}

_TOP = {"title": str, "lang": str, "header": str, "unit": str, "seats": list, "steps": list,
        "curve": list}
_STEP = {"move": str, "svg": str}
_DECISION = {"seat": Integral, "question": str, "played": str, "best": str, "rows": list}
_ROW = {"answer": str, "value": Real, "lo": Real, "hi": Real, "loss": Real, "win": Real,
        "played": bool, "best": bool}
_POINT = {"step": Integral, "seat": Integral, "win": Real, "lo": Real, "hi": Real}


def _check(obj: Any, keys: dict[str, type], where: str) -> None:
    """``obj`` is a dict holding every key of ``keys`` with a value of its type (numbers finite,
    no bool where a number is wanted); else ValueError naming the place and the key."""
    if not isinstance(obj, dict):
        raise ValueError(f"{where}: expected a dict, got {type(obj).__name__}")
    for key, kind in keys.items():
        if key not in obj:
            raise ValueError(f"{where}: missing key {key!r}")
        v = obj[key]
        if kind is bool:
            ok = isinstance(v, bool)
        elif kind is Integral:
            ok = isinstance(v, Integral) and not isinstance(v, bool)
        elif kind is Real:
            ok = isinstance(v, Real) and not isinstance(v, bool) and math.isfinite(v)
        else:
            ok = isinstance(v, kind)
        if not ok:
            raise ValueError(f"{where}[{key!r}]: expected {kind.__name__}"
                             f"{' (finite)' if kind is Real else ''}, got {v!r}")


def validate(data: dict) -> None:
    """Check the shape of an analysis page's data (see the module docstring): every key present
    with a value of the right type, ``lang`` ``"zh"`` or ``"en"``, at least one step, curve steps
    within the steps.

    Raises:
        ValueError: naming the place and the missing or malformed key, e.g.
            ``steps[3].decision.rows[1]: missing key 'loss'``.
    """
    _check(data, _TOP, "data")
    if data["lang"] not in LABELS:
        raise ValueError(f"data['lang']: expected one of {sorted(LABELS)}, got {data['lang']!r}")
    for k, seat in enumerate(data["seats"]):
        if isinstance(seat, bool) or not isinstance(seat, Integral):
            raise ValueError(f"data['seats'][{k}]: expected int, got {seat!r}")
    if not data["steps"]:
        raise ValueError("data['steps']: expected at least one step (step 0: the deal)")
    for i, step in enumerate(data["steps"]):
        _check(step, _STEP, f"steps[{i}]")
        if "decision" not in step:
            raise ValueError(f"steps[{i}]: missing key 'decision'")
        d = step["decision"]
        if d is None:
            continue
        _check(d, _DECISION, f"steps[{i}].decision")
        if not d["rows"]:
            raise ValueError(f"steps[{i}].decision['rows']: expected at least one row")
        for j, row in enumerate(d["rows"]):
            _check(row, _ROW, f"steps[{i}].decision.rows[{j}]")
    for k, point in enumerate(data["curve"]):
        _check(point, _POINT, f"curve[{k}]")
        if not 0 <= int(point["step"]) < len(data["steps"]):
            raise ValueError(f"curve[{k}]['step']: {point['step']} is not a step index "
                             f"(0..{len(data['steps']) - 1})")


def _json_default(o: Any) -> Any:
    """numpy scalars (``.item()``) become plain numbers; anything else is not JSON."""
    if hasattr(o, "item") and type(o).__module__ == "numpy":
        return o.item()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def script_json(obj: Any) -> str:
    """``obj`` as JSON that is safe inside a ``<script>`` element: ``<``, ``>`` and ``&`` (only
    ever inside JSON strings) are written as ``\\u003c``, ``\\u003e``, ``\\u0026``, so neither
    ``</script>`` nor ``<!--`` in a text or an svg can end or confuse the script block;
    ``JSON.parse`` and ``json.loads`` read the original strings back.

    Raises:
        ValueError: on a non-finite float (JSON has none).
    """
    text = json.dumps(obj, ensure_ascii=False, allow_nan=False, default=_json_default)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def render_page(data: dict) -> str:
    """The analysis page for ``data`` (shape: the module docstring) as one complete, self-contained
    HTML document (UTF-8; inline CSS, script and pictures; no network access).

    Raises:
        ValueError: the data is malformed; the message names the place and the missing or
            malformed key (``validate``).
    """
    validate(data)
    words = LABELS[data["lang"]]
    e = html.escape
    labels = dict(words, value=words["value"].replace("{unit}", data["unit"]))
    n_moves = len(data["steps"]) - 1
    before, _, after = words["step"].partition("{i}")
    step_label = (f'{e(before)}<span id="step-index" data-step="0">0</span>'
                  f'{e(after.replace("{n}", str(n_moves)))}')
    head_cells = "".join(f"<th>{e(labels[k])}</th>" for k in ("answer", "value", "loss", "win"))
    return f"""<!DOCTYPE html>
<html lang="{e(words['html_lang'])}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>{e(data['title'])}</title>
<style>{CSS}</style>
</head>
<body>
<main>
<header>
<h1 id="title">{e(data['title'])}</h1>
<p id="header-line">{e(data['header'])}</p>
</header>
<nav>
<button type="button" id="first">{e(words['first'])}</button>
<button type="button" id="prev">{e(words['prev'])}</button>
<input type="range" id="slider" min="0" max="{n_moves}" step="1" value="0" \
aria-label="{e(words['step_axis'])}">
<button type="button" id="next">{e(words['next'])}</button>
<button type="button" id="last">{e(words['last'])}</button>
<span id="step-label">{step_label}</span>
<div class="hint">{e(words['hint'])}</div>
</nav>
<div id="move" aria-live="polite"></div>
<div class="grid">
<section id="table-panel" class="panel"><h2>{e(words['table'])}</h2><div id="table"></div>
</section>
<section id="decision" class="panel empty"><h2>{e(words['decision'])}</h2>
<div id="decision-title"></div><div id="decision-sub"></div>
<table id="values"><thead><tr>{head_cells}<th></th></tr></thead><tbody></tbody></table>
</section>
</div>
<section id="curve-panel" class="panel"><h2>{e(words['curve'])}</h2><div id="curve"></div>
</section>
</main>
<script type="application/json" id="data">{script_json(data)}</script>
<script type="application/json" id="labels">{script_json(labels)}</script>
<script>{JS}</script>
</body>
</html>
"""


def write_page(data: dict, path: str | os.PathLike[str]) -> Path:
    """Write ``render_page(data)`` to ``path`` (UTF-8) and return the path.

    Raises:
        ValueError: the data is malformed (``render_page``).
        OSError: the file cannot be written (e.g. its folder does not exist).
    """
    from zipai_sim.runs.io import write_text  # atomic, and its errors name the path

    text = render_page(data)
    out = Path(path)
    write_text(out, text)
    return out
