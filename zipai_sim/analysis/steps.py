"""An ``Analysis`` as the page's data (``analysis.page``): one step per move with the table as
the analysed seat saw it after the move, and one step per analysed decision (the table at the
question, the card on offer marked) with its answers' values; the win-chance curve."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from zipai_sim.game.cards import card_name
from zipai_sim.game.sections import UNIT_NAMES

if TYPE_CHECKING:  # annotations only: ``Analysis.to_html`` calls down into this module
    from zipai_sim.analysis.hand import Analysis, Decision

_ASK = {"zh": {"discard": "打哪张", "peng": "碰 {c}?", "chi": "吃 {c}?", "hu": "胡 {c}?"},
        "en": {"discard": "which discard", "peng": "peng {c}?", "chi": "chi {c}?",
               "hu": "hu on {c}?"}}
_SEAT = {"zh": "座位 {s}", "en": "seat {s}"}
#: the reference engine's move words (``Game.say``) in Chinese, for a zh page
_ZH = (("荒庄: the stock is empty", "荒庄: 底牌摸完"), (" draws ", " 摸 "), (" discards ", " 打 "),
       ("extra card", "补牌"), ("(dealt)", "(起手)"), ("胡息 on", "胡息, 胡"), ("(zimo", "(自摸"),
       ("(fangpao", "(放炮"), ("(drawn", "(胡别家摸的牌"), (", santi", ", 三提"),
       (", wukan", ", 五坎"))


def move_text(line: str, lang: str) -> str:
    """A move as the engine logs it (``0: discards 三``), in ``lang``: the log itself in
    English, its words in Chinese for zh (``0: 打 三``)."""
    if lang == "zh":
        for a, b in _ZH:
            line = line.replace(a, b)
    return line


def question_text(d: Decision, lang: str) -> str:
    """What the decision asked, e.g. ``碰 三?`` / ``which discard``."""
    q = d.question
    return _ASK[lang][q.kind].format(c=card_name(q.card) if q.card >= 0 else "")


def page_data(a: Analysis, lang: str = "zh", title: str | None = None) -> dict:
    """The page's data dict (``analysis.page`` module docstring) for analysis ``a``; the table
    pictures in ``lang`` (zh/en). Raises ValueError for another ``lang``."""
    from zipai_sim.pictures import draw_position

    if lang not in _ASK:
        raise ValueError(f"lang must be 'zh' or 'en', got {lang!r}")
    w = a.walk
    by_moves: dict[int, list[Decision]] = {}
    for d in a.decisions:
        by_moves.setdefault(d.question.moves, []).append(d)
    steps, curve = [], []
    for m, view in enumerate(w.views):
        move = ("发牌" if lang == "zh" else "deal") if m == 0 else move_text(view.caption, lang)
        steps.append({"move": move, "svg": draw_position(replace(view, caption=move),
                                                         lang=lang).text, "decision": None})
        for d in by_moves.get(m, []):
            played, best = d.played, d.best
            q = d.question
            text = f"{q.seat}: {question_text(d, lang)}"
            rows = [{"answer": r.answer, "value": r.value, "lo": r.lo, "hi": r.hi,
                     "loss": r.loss, "win": r.win, "played": r.played, "best": r.best}
                    for r in d.rows]
            steps.append({"move": text, "svg": draw_position(q.view, lang=lang).text,
                          "decision": {"seat": q.seat, "question": question_text(d, lang),
                                       "played": played.answer if played else "",
                                       "best": best.answer, "rows": rows}})
            at = played or best
            curve.append({"step": len(steps) - 1, "seat": q.seat, "win": at.win,
                          "lo": at.win_lo, "hi": at.win_hi})
    end = w.log[-1] if w.log and w.log[-1].startswith("荒庄") else None
    if end is not None:
        steps.append({"move": move_text(end, lang), "svg": steps[-1]["svg"], "decision": None})
    h = a.record.header
    name = title or (f"{a.variant.key} · seed {h['seed']} deal {h['deal']} · "
                     + ", ".join(_SEAT[lang].format(s=s) for s in a.seats))
    unit = UNIT_NAMES.get(a.unit, a.unit) if lang == "zh" else a.unit
    return {"title": name, "lang": lang, "header": a.header, "unit": unit,
            "seats": list(a.seats), "steps": steps, "curve": curve}


def write_html(a: Analysis, path, lang: str = "zh", title: str | None = None):
    """Write analysis ``a`` as the self-contained page (``analysis.page.write_page``) in
    ``lang`` (zh/en); returns its path. Raises ValueError for another ``lang``, OSError naming
    the path when it cannot be written."""
    from zipai_sim.analysis.page import write_page

    return write_page(page_data(a, lang, title), path)
