"""Words on the figures, in English/pinyin (``lang="en"``, the default) or Chinese (``"zh"``):
axis labels, legend entries, metric, seat and unit names (issue 11).

Terms follow RULES.md: 天胡 tianhu, 地胡 dihu, 荒庄 huangzhuang, 翻信 fanxing, 胡息 huxi, 起胡
the threshold; seats in turn order 庄家 (dealer, 0), 下家 (next, 1), 对家 (opposite, 2 of 4),
上家 (previous, the last); units 舵 duo, 油 you, 囤 tun, 排 pai, 胡 hu.

>>> text("no_winner", "zh")
'荒庄 (无人胡牌)'
>>> metric_name("tianhu", "zh"), seat_name(2, 3, "zh"), seat_name(2, 4, "zh")
('天胡', '上家', '对家')
"""

from __future__ import annotations

from zipai_sim.game.sections import UNIT_NAMES

LANGS = ("en", "zh")

#: every label a figure draws: key → (English / pinyin, Chinese); ``{…}`` fields are filled in
TEXT: dict[str, tuple[str, str]] = {
    "threshold_x": ("threshold (huxi / you / hu)", "起胡 (胡息 / 油 / 胡)"),
    "per_deals": ("{metric} per {per:,} deals", "{metric} (每 {per:,} 局)"),
    "variant": ("variant", "玩法"),
    "huxi_win_x": ("huxi of the winning hand", "胡牌的胡息"),
    "share_win_hands": ("share of winning hands", "占胡牌局的比例"),
    "huxi_dealer_x": ("huxi of the complete dealer hand (at the deal)", "庄家起手成牌的胡息"),
    "share_dealer": ("share of complete dealer hands", "占庄家起手成牌的比例"),
    "share_hands": ("share of hands", "占总局数的比例"),
    "no_winner": ("no winner (huangzhuang)", "荒庄 (无人胡牌)"),
    "edge_y": ("dealer edge (units per hand)", "庄家优势 (每局计分单位)"),
    "edge_legend": ("dealer mean score, 95% interval", "庄家平均得分, 95% 区间"),
    "sweep_y": ("{metric} minus the variant as it is ({unit})", "{metric}: 减去原规则 ({unit})"),
    "sweep_legend": ("paired difference, 95% interval", "配对差值, 95% 区间"),
    "sweep_zero": ("the variant as it is", "原规则"),
    "sweep_base": ("its own value ({value})", "原规则取值 ({value})"),
    "fanxing_x": ("fanxing matches", "翻信 (相同牌张数)"),
    "share_wins": ("share of wins", "占胡牌的比例"),
    "deals_n": ("deals", "局数"),
    "rate_y": ("{metric} rate", "{metric} 比率"),
    "interval": ("95% interval", "95% 区间"),
    "score_x": ("score of seat {seat} (units per hand)", "{name} 每局得分 (计分单位)"),
    "seat": ("seat {seat}", "{name}"),
    "seat_dealer": ("seat 0 (dealer)", "庄家"),
    # the win-chance figure of an analysed hand (plots.win_chance)
    "win_x": ("decision (in the order asked)", "决策序号 (按提问顺序)"),
    "win_y": ("chance to win the hand", "胡牌概率"),
    "win_mistake": ("clear mistake (loss > 0 at 95%)", "明显失误 (95% 区间内损失 > 0)"),
    "win_loss": ("−{loss:.1f} {unit}", "−{loss:.1f} {unit}"),
    # the provenance footer (plots.footer.footer_text)
    "rules": ("rules", "规则"),
    "threshold": ("threshold", "起胡"),
    "deals": ("deals", "局"),
    "hands": ("hands", "局"),
    "decisions": ("decisions", "个决策"),
    "each": ("each", "每组"),
    "seed": ("seed", "种子"),
    "bot": ("bot", "策略"),
    "file": ("file", "文件"),
}

_METRICS = {
    "tianhu": "天胡", "tianhu_complete": "天胡 (成牌)", "tianhu_santi": "天胡 (三提)",
    "tianhu_wukan": "天胡 (五坎)", "tianhu_extra_card": "天胡 (提后补牌)", "dihu": "地胡",
    "instant_nondealer": "闲家起手胡", "dealer_two_ti": "庄家双提",
    "dealer_complete": "庄家起手成牌", "huangzhuang": "荒庄", "haidi": "海底胡",
    "win": "胡牌", "zimo": "自摸", "fangpao": "放炮", "fanxing": "翻信", "huxi": "胡息",
}
#: the variants' units of score (pinyin → Chinese), and the word for an unknown one
UNITS = {**UNIT_NAMES, "units": "计分单位"}
_SEATS = {3: ("庄家", "下家", "上家"), 4: ("庄家", "下家", "对家", "上家")}


def check_lang(lang: object) -> str:
    """``lang`` itself when it is ``"en"`` or ``"zh"``; raises ValueError otherwise."""
    if lang not in LANGS:
        raise ValueError(f"lang must be 'en' (English / pinyin) or 'zh' (Chinese), got {lang!r}")
    return str(lang)


def text(key: str, lang: str, **fields: object) -> str:
    """The label ``key`` of ``TEXT`` in ``lang``, its ``{…}`` fields filled from ``fields``."""
    return TEXT[key][LANGS.index(lang)].format(**fields)


def metric_name(metric: str, lang: str) -> str:
    """A result metric as a figure names it: the pinyin key itself (``tianhu``) or the Chinese
    term (天胡); an unknown metric keeps its key."""
    return _METRICS.get(metric, metric) if lang == "zh" else metric


def unit_name(unit: str, lang: str) -> str:
    """A settlement unit (``Variant.settle.unit``: duo, you, tun, pai, hu) in ``lang``."""
    return UNITS.get(unit, unit) if lang == "zh" else unit


def seat_name(seat: int, seats: int | None, lang: str) -> str:
    """Seat ``seat`` of a ``seats``-player table: "seat 0 (dealer)", "seat 1", … or 庄家, 下家,
    对家, 上家; a table size other than 3 or 4 (or None, unknown) names the seat by number
    (Chinese "2 号位")."""
    if lang != "zh":
        return text("seat_dealer", lang) if seat == 0 else text("seat", lang, seat=seat)
    names = _SEATS.get(seats or 0)
    if seat == 0:
        return names[0] if names else "庄家"
    return names[seat] if names and seat < len(names) else f"{seat} 号位"


def every_text(lang: str) -> str:
    """All the fixed words of the figures in ``lang`` (for the missing-glyph test)."""
    i = LANGS.index(lang)
    words = [v[i] for v in TEXT.values()]
    if lang == "zh":
        words += list(_METRICS.values()) + list(UNITS.values())
        words += [s for names in _SEATS.values() for s in names] + ["号位"]
    return " ".join(words)
