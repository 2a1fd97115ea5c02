"""Shipped rule variants and their loader (RULES.md §4–§8).

Expected values are copied by hand from the RULES.md tables (§4 points, §7 settlement, §8 the
two variant tables) and the seed texts they cite, never from the loader's output.
"""

from __future__ import annotations

import dataclasses
import doctest
import re
from importlib import resources
from pathlib import Path

import pytest

from zipai_sim.game import params as P
from zipai_sim.game import variants
from zipai_sim.game.variant_tables import describe, variants_table
from zipai_sim.game.variants import Variant, VariantError, list_variants, load_variant

KEYS = [
    "changde-paohuzi", "changsha-paohuzi", "guangxi-81", "guangxi-dazipai", "hunan-hengyang",
    "liuhu-dao",
]
STANDARD = {  # RULES.md §4 standard table, (small, big)
    "peng_black": (1, 3), "peng_red": (1, 3), "kan": (3, 6), "wei": (3, 6), "chou_wei": (3, 6),
    "pao": (6, 9), "ti": (9, 12), "yi_er_san": (3, 6), "er_qi_shi": (3, 6),
}
# RULES.md §8 first table: players, (dealer, other, stock), threshold, unit, discard win, 放炮
TABLE_1 = {
    "guangxi-81": (3, (21, 20, 19), 15, "duo", True, "pays_all"),
    "guangxi-dazipai": (3, (21, 20, 19), 15, "you", True, "double"),
    "hunan-hengyang": (3, (21, 20, 19), 10, "tun", True, "triple"),
    "changsha-paohuzi": (3, (21, 20, 19), 10, "pai", False, "none"),
    "changde-paohuzi": (3, (21, 20, 19), 15, "tun", False, "none"),
    "liuhu-dao": (4, (15, 14, 23), 6, "hu", True, "pays_all"),
}
# RULES.md §8 second table: santi, wukan, 提 count as 坎, wukan scope, two 提, 地胡
TABLE_2 = {
    "guangxi-81": (3, 5, True, "all", "no_discard", "first_discard"),
    "guangxi-dazipai": (3, 5, False, "all", "extra_card", "first_discard"),
    "hunan-hengyang": (3, 5, False, "liangzhang", "no_discard", "liangzhang"),
    "changsha-paohuzi": (3, 5, False, "all", "no_discard", "liangzhang"),
    "changde-paohuzi": (3, 5, False, "all", "no_discard", "liangzhang"),
    "liuhu-dao": (0, 0, False, "all", "no_discard", "first_discard"),
}
# RULES.md §8: 翻信 本醒 for guangxi-81 and liuhu-dao only
FANXING = {"guangxi-81": "ben", "liuhu-dao": "ben"}


def shipped_text(key: str) -> str:
    return (resources.files("zipai_sim") / "rules" / f"{key}.toml").read_text(encoding="utf-8")


def set_knob(text: str, section: str, key: str, value: str | None) -> str:
    """Replace (or, with value None, delete) ``key = ...`` inside ``[section]`` of TOML text."""
    lines, current = text.splitlines(), ""
    for i, line in enumerate(lines):
        head = re.match(r"\[([\w.]+)\]", line)
        if head:
            current = head.group(1)
        elif current == section and re.match(rf"{re.escape(key)}\s*=", line):
            lines[i] = "" if value is None else f"{key} = {value}"
            return "\n".join(lines) + "\n"
    raise AssertionError(f"no {key} in [{section}]")


def write(tmp_path: Path, text: str, name: str = "my.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load_edited(tmp_path: Path, section: str, key: str, value: str | None,
                base: str = "guangxi-81") -> Variant:
    return load_variant(write(tmp_path, set_knob(shipped_text(base), section, key, value)))


# --- the shipped variants match RULES.md §8 -----------------------------------------------


def test_list_variants_is_the_section_8_table():
    assert list_variants() == KEYS


@pytest.mark.parametrize("key", KEYS)
def test_table_1_values(key):
    players, (dealer, other, stock), threshold, unit, discard_win, fangpao = TABLE_1[key]
    v = load_variant(key)
    assert v.key == key
    assert (v.layout.players, v.layout.dealer_cards, v.layout.other_cards, v.layout.stock) == (
        players, dealer, other, stock)
    assert v.win.threshold == threshold and threshold in v.win.thresholds
    assert v.settle.unit == unit
    assert (v.win.discard_win, v.settle.fangpao) == (discard_win, fangpao)
    assert v.win.pair_rule == "one-pair-with-four" and v.win.kan_locked  # RULES.md §3


@pytest.mark.parametrize("key", KEYS)
def test_table_2_deal_rules(key):
    d = load_variant(key).deal
    assert (d.santi, d.wukan, d.ti_counts_as_kan, d.wukan_scope, d.two_ti, d.dihu) == TABLE_2[key]


@pytest.mark.parametrize("key", KEYS)
def test_fanxing_where_section_8_names_it(key):
    fx = load_variant(key).fanxing
    assert fx.enabled == (key in FANXING)
    if fx.enabled:
        assert (fx.match, fx.unit_per_match, fx.count) == (FANXING[key], 1, "all")  # §7.3


@pytest.mark.parametrize("key", [k for k in KEYS if k != "guangxi-dazipai"])
def test_standard_points_table(key):
    pts = load_variant(key).points
    assert {name: getattr(pts, name) for name in STANDARD} == STANDARD


def test_dazipai_you_table_and_thresholds():
    v = load_variant("guangxi-dazipai")
    # RULES.md §4 油 table: 碰 by colour, the rest standard
    assert v.points.peng_black == (1, 3) and v.points.peng_red == (3, 6)
    assert {n: getattr(v.points, n) for n in STANDARD if not n.startswith("peng")} == {
        n: STANDARD[n] for n in STANDARD if not n.startswith("peng")}
    assert v.win.thresholds == (15, 20, 25, 30)  # seed 004 篇4
    assert v.win.qiangzhao  # 抢招和, seed 004 篇4


def test_guangxi_81_settlement():
    v = load_variant("guangxi-81")
    assert v.win.priority == ("ti_wei", "hu", "pao_peng", "chi")  # §8: 提/偎 > 胡 > 跑/碰 > 吃
    s = v.settle
    assert (s.hu_per_unit, s.unit_base, s.unit_from_threshold) == (5, 0, False)  # ⌊胡/5⌋
    assert (s.zimo_multiplier, s.zimo_multiplies_fanxing) == (2, True)  # §7.2
    assert (s.huangzhuang_dealer, s.huangzhuang_others) == (-4, 2)  # 荒庄 −4/+2
    assert v.fanxing.sitter_max_shares == 3 and not v.layout.sitter  # §7.3, seed 000 ⑼


def test_hengyang_and_changde_tun():
    for key, threshold in [("hunan-hengyang", 10), ("changde-paohuzi", 15)]:
        s = load_variant(key).settle  # 囤 = 1 + ⌊(胡 − threshold)/3⌋, §7.1
        assert (s.hu_per_unit, s.unit_base, s.unit_from_threshold) == (3, 1, True)
    assert load_variant("hunan-hengyang").settle.dealer_passes_after_huangzhuang == 3  # 000 ⑴
    assert load_variant("hunan-hengyang").win.choupai_win  # seed 000 ⑴: 可以胡臭牌


def test_changsha_pai():
    v = load_variant("changsha-paohuzi")
    s = v.settle  # RULES.md §7.1 排
    assert v.win.piaohu
    assert (s.hu_per_unit, s.unit_base, s.unit_from_threshold) == (3, 0, False)
    assert (s.kahu_hu, s.kahu_units, s.piaohu_units, s.zimo_bonus_units) == (10, 5, 5, 2)
    assert dict(s.red_bonus) == {1: 1, 4: 1, 7: 1, 10: 2, 11: 2, 12: 2}
    assert (s.red_floor_from, s.red_floor_units) == (13, 10)


def test_changde_mingtang():
    v = load_variant("changde-paohuzi")
    assert v.mingtang.combine == "add" and v.mingtang.honghu_per_extra_red == 1
    assert dict(v.mingtang.values) == {"honghu": 3, "wuhu": 8, "dianhu": 6, "duizihu": 8,
                                       "tianhu": 6, "dihu": 6, "haidi": 6}
    assert v.settle.zimo_bonus_units == 1  # 自摸 +1 囤
    for key in set(KEYS) - {"changde-paohuzi"}:
        assert load_variant(key).mingtang.values == ()


# --- params tuple -----------------------------------------------------------------------


@pytest.mark.parametrize("key", KEYS)
def test_params_shape(key):
    p = load_variant(key).params
    assert len(p) == P.N_PARAMS
    assert all(type(x) is int for x in p)


def test_params_indices():
    g = load_variant("guangxi-81").params
    assert (g[P.SEATS], g[P.DEALER_CARDS], g[P.OTHER_CARDS], g[P.STOCK_LEN]) == (3, 21, 20, 19)
    assert (g[P.THRESHOLD], g[P.DISCARD_WIN], g[P.QIANGZHAO], g[P.PIAOHU]) == (15, 1, 1, 0)
    assert (g[P.TI_SMALL], g[P.TI_BIG], g[P.PAO_SMALL], g[P.PAO_BIG]) == (9, 12, 6, 9)
    assert (g[P.SANTI_MIN], g[P.WUKAN_MIN], g[P.TI_COUNTS_AS_KAN]) == (3, 5, 1)
    assert (g[P.TWO_TI_EXTRA], g[P.DIHU_LIANGZHANG], g[P.WUKAN_LIANGZHANG]) == (0, 0, 0)
    assert (g[P.FANXING], g[P.FANXING_MATCH], g[P.FANXING_COUNT_ALL]) == (1, P.MATCH_BEN, 1)
    d = load_variant("guangxi-dazipai").params
    assert (d[P.PENG_SMALL_BLACK], d[P.PENG_SMALL_RED], d[P.PENG_BIG_BLACK],
            d[P.PENG_BIG_RED]) == (1, 3, 3, 6)
    assert (d[P.TWO_TI_EXTRA], d[P.FANXING]) == (1, 0)
    h = load_variant("hunan-hengyang").params
    assert (h[P.WUKAN_LIANGZHANG], h[P.DIHU_LIANGZHANG], h[P.THRESHOLD]) == (1, 1, 10)
    assert load_variant("changsha-paohuzi").params[P.PIAOHU] == 1
    q = load_variant("liuhu-dao").params
    assert (q[P.SEATS], q[P.DEALER_CARDS], q[P.OTHER_CARDS], q[P.STOCK_LEN]) == (4, 15, 14, 23)
    assert (q[P.SANTI_MIN], q[P.WUKAN_MIN], q[P.THRESHOLD]) == (0, 0, 6)


@pytest.mark.parametrize(("section", "key", "value", "index", "expected"), [
    ("fanxing", "match", '"shang"', P.FANXING_MATCH, P.MATCH_SHANG),
    ("fanxing", "match", '"xia"', P.FANXING_MATCH, P.MATCH_XIA),
    ("fanxing", "match", '"gen"', P.FANXING_MATCH, P.MATCH_GEN),
    ("fanxing", "count", '"hand"', P.FANXING_COUNT_ALL, 0),
    ("fanxing", "return_on_four", "true", P.FANXING_RETURN_ON_FOUR, 1),
    ("fanxing", "wrap", "false", P.FANXING_WRAP, 0),
    ("fanxing", "enabled", "false", P.FANXING, 0),
    ("deal", "santi", "0", P.SANTI_MIN, 0),
    ("deal", "wukan", "6", P.WUKAN_MIN, 6),
    ("deal", "ti_counts_as_kan", "false", P.TI_COUNTS_AS_KAN, 0),
    ("deal", "wukan_scope", '"liangzhang"', P.WUKAN_LIANGZHANG, 1),
    ("deal", "two_ti", '"extra_card"', P.TWO_TI_EXTRA, 1),
    ("deal", "dihu", '"liangzhang"', P.DIHU_LIANGZHANG, 1),
    ("play", "passed_peng_chi", "true", P.PASSED_PENG_CHI, 1),
    ("play", "only_kan_discard", "\"break_kan\"", P.ONLY_KAN_SKIP, 0),
    ("win", "piaohu", "true", P.PIAOHU, 1),
    ("win", "qiangzhao", "false", P.QIANGZHAO, 0),
    ("win", "threshold", "20", P.THRESHOLD, 20),
    ("points", "peng_red", "[3, 6]", P.PENG_BIG_RED, 6),
    ("points", "chou_wei", "[2, 5]", P.CHOUWEI_SMALL, 2),
    ("points", "yi_er_san", "[4, 7]", P.YIERSAN_BIG, 7),
])
def test_each_params_knob_flips(tmp_path, section, key, value, index, expected):
    base = load_variant("guangxi-81")
    v = load_edited(tmp_path, section, key, value)
    assert base.params[index] != expected
    assert v.params[index] == expected
    assert v.rules_hash != base.rules_hash


# --- rules_hash, with_threshold, to_dict --------------------------------------------------


def test_rules_hash_ignores_comments_whitespace_and_metadata(tmp_path):
    text = shipped_text("guangxi-81")
    noisy = "# a user comment\n\n" + re.sub(r"(?m)^(\w+) = ", r"\1   =   ", text).replace(
        "[win]", "[win]   # edited\n")
    v = load_variant(write(tmp_path, noisy))
    base = load_variant("guangxi-81")
    assert re.fullmatch(r"[0-9a-f]{16}", base.rules_hash)
    assert v.rules_hash == base.rules_hash and v == base
    renamed = text.replace('description = """', 'description = """Mine. ')
    assert load_variant(write(tmp_path, renamed, "r.toml")).rules_hash == base.rules_hash


def test_rules_hash_changes_with_any_knob(tmp_path):
    base = load_variant("guangxi-81")
    # 荒庄 −6/+3 instead of −4/+2: still zero-sum, and not in params
    text = set_knob(set_knob(shipped_text("guangxi-81"), "settle", "huangzhuang_dealer", "-6"),
                    "settle", "huangzhuang_others", "3")
    changed = load_variant(write(tmp_path, text))
    assert changed.params == base.params and changed.rules_hash != base.rules_hash
    assert len({load_variant(k).rules_hash for k in KEYS}) == len(KEYS)


def test_with_threshold():
    v = load_variant("guangxi-dazipai")
    w = v.with_threshold(25)
    assert w.win.threshold == 25 and w.params[P.THRESHOLD] == 25
    assert w.rules_hash != v.rules_hash and v.win.threshold == 15  # original untouched
    assert w.win.thresholds == v.win.thresholds and w.key == v.key
    assert w.with_threshold(15) == v and w.with_threshold(15).rules_hash == v.rules_hash
    for bad in (-1, True, 2.5, "20"):
        with pytest.raises(VariantError, match=r"\[win\]\.threshold"):
            v.with_threshold(bad)


def test_variant_is_frozen_and_hashable():
    v = load_variant("guangxi-81")
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.key = "x"  # type: ignore[misc]
    assert {v: 1}[load_variant("guangxi-81")] == 1
    assert load_variant(v) is v


def test_to_dict_matches_the_toml_shape():
    import tomllib

    v = load_variant("changde-paohuzi")
    d = v.to_dict()
    raw = tomllib.loads(shipped_text("changde-paohuzi"))
    for sec in ("layout", "points", "win", "deal", "play", "fanxing", "settle", "mingtang"):
        assert d[sec] == raw[sec]
    assert d["rules_hash"] == v.rules_hash and d["path"].endswith("changde-paohuzi.toml")


# --- loading by path ----------------------------------------------------------------------


def test_load_copied_file_by_path(tmp_path):
    path = write(tmp_path, shipped_text("liuhu-dao"), "copy.toml")
    for arg in (path, str(path)):
        v = load_variant(arg)
        assert v.key == "liuhu-dao" and v.path == path
        assert v == load_variant("liuhu-dao")


def test_shipped_files_live_in_the_package_without_init():
    folder = resources.files("zipai_sim") / "rules"
    names = sorted(r.name for r in folder.iterdir())
    assert names == [f"{k}.toml" for k in KEYS]  # data only: no __init__.py


# --- errors name the file and the key -----------------------------------------------------


@pytest.mark.parametrize(("section", "key", "value", "message"), [
    ("win", "threshold", "-3", "my.toml: [win].threshold must be an integer in 0..1000, got -3"),
    ("win", "threshold", "true", "[win].threshold must be an integer in 0..1000, got true"),
    ("win", "threshold", '"15"', '[win].threshold must be an integer in 0..1000, got "15"'),
    ("layout", "sitter", "1", "[layout].sitter must be a boolean, got 1"),
    ("layout", "players", "5", "[layout].players must be one of 3, 4, got 5"),
    ("win", "threshold", "99999999999999999999", "[win].threshold must be an integer in 0..1000"),
    ("points", "kan", "[3, -6]", "[points].kan must be a [small, big] pair of integers in 0..1000"),
    ("points", "ti", "[9]", "[points].ti must be a [small, big] pair"),
    ("points", "pao", "6", "[points].pao must be a [small, big] pair"),
    ("deal", "two_ti", '"bonus"', '[deal].two_ti must be one of "no_discard", "extra_card"'),
    ("fanxing", "match", '"same"', '[fanxing].match must be one of "ben", "shang", "xia", "gen"'),
    ("settle", "unit", '"yuan"', '[settle].unit must be one of "duo", "tun", "pai", "you"'),
    ("deal", "santi", "6", "[deal].santi must be an integer in 0..5, got 6"),
    ("settle", "hu_per_unit", "0", "[settle].hu_per_unit must be an integer in 1..1000000, got 0"),
    ("win", "kan_locked", "false", "[win].kan_locked must be true"),
    ("win", "priority", '["hu", "chi"]', "[win].priority must be a list holding each of"),
    ("win", "thresholds", "[]", "[win].thresholds must be a non-empty list"),
    ("settle", "red_bonus", "[[1, 1], [1, 2]]", "[settle].red_bonus must be a list of"),
    ("layout", "stock", "18", "[layout] must deal 80 cards"),
    ("settle", "fangpao", '"none"', "[settle].fangpao must name a payer"),
])
def test_bad_knob_names_file_and_key(tmp_path, section, key, value, message):
    with pytest.raises(VariantError) as err:
        load_edited(tmp_path, section, key, value)
    assert "my.toml: " in str(err.value)
    assert message in str(err.value)
    assert isinstance(err.value, ValueError)


def test_unknown_key(tmp_path):
    text = shipped_text("guangxi-81").replace("threshold = 15", "treshold = 15")
    with pytest.raises(VariantError, match=r"my\.toml: unknown key \[win\]\.treshold"):
        load_variant(write(tmp_path, text))
    with pytest.raises(VariantError, match=r"my\.toml: unknown section \[extra\]"):
        load_variant(write(tmp_path, shipped_text("guangxi-81") + "[extra]\nx = 1\n"))
    with pytest.raises(VariantError, match=r"my\.toml: \[mingtang\]\.values must be a table"):
        load_variant(write(tmp_path, shipped_text("guangxi-81") + "shibada_plus = 2\n"))


def test_missing_key(tmp_path):
    with pytest.raises(VariantError, match=r"my\.toml: missing key '\[fanxing\]\.wrap'"):
        load_edited(tmp_path, "fanxing", "wrap", None)
    with pytest.raises(VariantError, match=r"my\.toml: missing key 'name'"):
        load_variant(write(tmp_path, re.sub(r'(?m)^name = .*$', "", shipped_text("liuhu-dao"))))


def test_cross_knob_rules(tmp_path):
    text = shipped_text("guangxi-81")
    dealer = set_knob(set_knob(text, "layout", "dealer_cards", "22"), "layout", "stock", "18")
    with pytest.raises(VariantError, match=r"\[layout\]\.dealer_cards must be other_cards \+ 1"):
        load_variant(write(tmp_path, dealer))  # sums to 80, but not 亮张 = other + 1
    sitter = set_knob(shipped_text("liuhu-dao"), "layout", "sitter", "true")
    with pytest.raises(VariantError, match=r"\[layout\]\.sitter = true needs players = 3"):
        load_variant(write(tmp_path, sitter))
    scope = set_knob(shipped_text("liuhu-dao"), "deal", "wukan_scope", '"liangzhang"')
    with pytest.raises(VariantError, match=r"wukan_scope .* needs \[deal\]\.wukan > 0"):
        load_variant(write(tmp_path, scope))
    hz = set_knob(text, "settle", "huangzhuang_dealer", "-5")  # −5 + 2 × 2 ≠ 0 (RULES.md §7.2)
    with pytest.raises(VariantError, match=r"荒庄 payments must sum to 0 .* = -5 \+ 2 × 2 = -1"):
        load_variant(write(tmp_path, hz))
    fangpao = set_knob(shipped_text("changsha-paohuzi"), "settle", "fangpao", '"double"')
    with pytest.raises(VariantError, match=r'fangpao must be "none" when \[win\]\.discard_win'):
        load_variant(write(tmp_path, fangpao))


def test_unknown_variant_name_lists_known_keys():
    with pytest.raises(VariantError) as err:
        load_variant("guangxi-82")
    assert isinstance(err.value, ValueError)
    assert all(k in str(err.value) for k in KEYS)
    with pytest.raises(TypeError):
        load_variant(81)  # type: ignore[arg-type]


def test_unreadable_files(tmp_path):
    with pytest.raises(VariantError, match=r"nope\.toml: cannot read"):
        load_variant(tmp_path / "nope.toml")
    with pytest.raises(VariantError, match=r"my\.toml: not valid TOML"):
        load_variant(write(tmp_path, "key = \n"))


# --- the CLI helpers ----------------------------------------------------------------------


def test_variants_table():
    t = variants_table()
    assert t["key"].to_list() == KEYS
    assert {"key", "name", "players", "threshold", "unit", "discard_win", "instant", "two_ti",
            "dihu", "fanxing"} <= set(t.columns)
    row = t.row(KEYS.index("liuhu-dao"), named=True)
    assert (row["players"], row["threshold"], row["instant"], row["fanxing"]) == (4, 6, "none",
                                                                                  "ben")
    assert "亮张" in t.row(KEYS.index("hunan-hengyang"), named=True)["instant"]


def test_describe():
    text = describe("guangxi-dazipai")
    v = load_variant("guangxi-dazipai")
    assert text.startswith("guangxi-dazipai: ")
    assert v.rules_hash in text and "[points]" in text
    assert "peng_red = [3, 6]" in text and "thresholds = [15, 20, 25, 30]" in text


def test_module_doctests():
    assert doctest.testmod(variants).failed == 0
