"""SVG pictures of cards, hands and positions (zipai_sim.pictures): the markup parses, holds one
``g.card`` per card drawn with its kind, red and big cards are marked, a position draws its
repeated shapes once (``<defs>``, ids of its own), bad input is refused."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import numpy as np
import pytest

from zipai_sim.game.cards import CardError
from zipai_sim.pictures import Group, Offer, PositionView, Svg, draw_cards, draw_hand, draw_position

NS = "{http://www.w3.org/2000/svg}"
HREF = "{http://www.w3.org/1999/xlink}href"
RED = {1, 6, 9, 11, 16, 19}  # 二七十 贰柒拾


def _root(svg: Svg) -> ET.Element:
    return ET.fromstring(svg.text)


def _classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def _cards(el: ET.Element) -> list[ET.Element]:
    return [g for g in el.iter(f"{NS}g") if "card" in _classes(g)]


def _kinds(el: ET.Element) -> list[int]:
    return [int(g.get("data-kind")) for g in _cards(el)]


def _texts(el: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in el.iter(f"{NS}text")]


def _translate(el: ET.Element) -> tuple[float, float]:
    x, y = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", el.get("transform")).groups()
    return float(x), float(y)


def _view3() -> PositionView:
    """3 seats seen by the dealer: 4 cards in hand, 7 and 5 behind the others' backs."""
    return PositionView(
        seats=3, viewer=0, hand=[2, 0, 2, 1], hand_sizes=[4, 7, 5],
        groups=[[Group("peng", (5, 5, 5))],
                [Group("chi", (10, 11, 12)), Group("wei", (-1, -1, -1), hidden=True)], []],
        discards=[[3], [], [19, 9]], stock=40, to_move=1,
        offer=Offer(card=16, seat=2, drawn=True), huxi=[1, 3, 0], caption="摸 <柒> & 过")


def _view4(viewer: int = 2) -> PositionView:
    return PositionView(
        seats=4, viewer=viewer, hand=list(range(20)), hand_sizes=[20, 20, 20, 20],
        groups=[[Group("ti", (14,) * 4), Group("chouwei", (8, 8, 8))]] * 4,
        discards=[list(range(12))] * 4, stock=3, to_move=0, offer=Offer(3, viewer, False))


def test_a_row_of_cards_holds_each_kind_with_its_marks():
    root = _root(draw_cards([0, 1, 11, 19], face_down=2))
    cards = _cards(root)
    assert _kinds(root) == [0, 1, 11, 19, -1, -1]
    assert [sorted(_classes(g) - {"card"}) for g in cards] == [
        ["small"], ["red", "small"], ["big", "red"], ["big", "red"], ["back"], ["back"]]
    # each face-up card carries its character twice (top, and turned at the bottom)
    assert [_texts(g) for g in cards[:4]] == [["一"] * 2, ["二"] * 2, ["贰"] * 2, ["拾"] * 2]
    assert all(_texts(g) == [] for g in cards[4:])
    red_text = [t for t in root.iter(f"{NS}text") if "red" in _classes(t)]
    assert sorted("".join(t.itertext()) for t in red_text) == sorted("二二贰贰拾拾")
    assert {t.get("fill") for t in red_text} == {"#c0392b"}


def test_red_and_big_marks_fall_on_exactly_the_red_and_big_kinds():
    cards = _cards(_root(draw_cards(range(20))))
    assert {int(g.get("data-kind")) for g in cards if "red" in _classes(g)} == RED
    assert {int(g.get("data-kind")) for g in cards if "big" in _classes(g)} == set(range(10, 20))
    assert {int(g.get("data-kind")) for g in cards if "small" in _classes(g)} == set(range(10))
    # a big card's double inner frame: three rectangles against the small card's one
    assert {len(g.findall(f"{NS}rect")) for g in cards} == {1, 3}
    assert all(len(g.findall(f"{NS}rect")) == (3 if "big" in _classes(g) else 1) for g in cards)


def test_svg_object_shows_saves_and_sizes():
    svg = draw_cards([0])
    assert svg._repr_svg_() == svg.text == str(svg)
    assert (svg.width, svg.height) == (32, 101)  # one 30×99 card and a 1 px margin round it
    assert (draw_cards([0], scale=2).width, draw_cards([0], scale=2).height) == (64, 202)
    root = _root(svg)
    assert (root.get("width"), root.get("height")) == ("32", "101")
    assert "Noto Serif CJK SC" in root.get("font-family")
    assert not re.search(r"<image|<script|href=|@import|url\(", svg.text)


def test_save_writes_utf8(tmp_path):
    svg = draw_hand("壹贰叁")
    path = svg.save(tmp_path / "hand.svg")
    assert path.read_bytes().decode("utf-8") == svg.text


def test_a_hand_reads_the_same_from_text_kinds_and_counts():
    counts = np.zeros(20, dtype=np.int8)
    counts[[0, 1, 2]] = 1
    want = draw_hand([0, 1, 2]).text
    assert draw_hand("一二三").text == want
    assert draw_hand("三 一，二").text == want
    assert draw_hand("s1 s2 S3").text == want
    assert draw_hand(counts).text == want
    assert draw_hand((2, 1, 0)).text == want


def test_a_hand_is_held_in_columns_small_then_big():
    root = _root(draw_hand("拾三一三叁"))
    cards = _cards(root)
    assert _kinds(root) == [0, 2, 2, 12, 19]
    (x0, _), (x1, y1), (x2, y2), (x3, _), (x4, _) = (_translate(g) for g in cards)
    assert x1 == x2 and y2 - y1 == pytest.approx(0.3 * 99)  # two 三: one column, stacked
    assert x0 < x1 < x3 < x4
    assert x3 - x1 > x1 - x0  # a wider gap before the big kinds


def test_a_hand_title_and_escaping():
    svg = draw_hand("七", title="<a & b>", lang="en")
    root = _root(svg)
    assert "<a & b> · 1 card" in _texts(root)
    assert "&lt;a &amp; b&gt;" in svg.text
    assert root.find(f"{NS}title").text == "s7"
    assert _root(draw_hand("七七", title="庄家")).find(f"{NS}title").text == "七七"
    assert "庄家 · 2张" in _texts(_root(draw_hand("七七", title="庄家")))


@pytest.mark.parametrize(("hand", "message"), [
    ([0, 20], "card kind 20 is outside 0..19"),
    ([-1], "card kind -1 is outside 0..19"),
    ([0, 1.5], "must be an integer"),
    ("三三三三三", "fifth 三"),
    ([19] * 5, "fifth 拾"),
    (np.zeros(19, dtype=np.int8), r"shape \(20,\), got shape \(19,\)"),
    (np.zeros((2, 20), dtype=np.int8), r"got shape \(2, 20\)"),
    (np.array([5] + [0] * 19), "fifth 一"),
    (np.array([-1] + [0] * 19), "negative count -1 of 一"),
])
def test_bad_hands_are_refused_by_name(hand, message):
    with pytest.raises(ValueError, match=message):
        draw_hand(hand)


def test_bad_text_raises_card_error_and_bad_options_value_error():
    with pytest.raises(CardError, match="'x'"):
        draw_hand("一x")
    with pytest.raises(ValueError, match='lang must be "zh" or "en"'):
        draw_hand("一", lang="fr")
    with pytest.raises(ValueError, match="scale must be a positive"):
        draw_cards([0], scale=0)
    with pytest.raises(ValueError, match="face_down must be >= 0"):
        draw_cards([0], face_down=-1)
    with pytest.raises(ValueError, match="card kind 20 is outside"):
        draw_cards([20])


def test_a_three_seat_position_draws_every_card_once():
    root = _root(draw_position(_view3()))
    # hand 4, backs 7 + 5, groups 3 + 3 + 3 hidden, discards 1 + 2, the offer: 29 cards
    assert Counter(_kinds(root)) == Counter(
        [0, 1, 2, 2] + [-1] * 12 + [5, 5, 5] + [10, 11, 12] + [-1] * 3 + [3, 19, 9] + [16])
    seats = {g.get("data-seat"): g for g in root.iter(f"{NS}g") if "seat" in _classes(g)}
    assert sorted(seats) == ["0", "1", "2"]
    assert sorted(_kinds(seats["0"])) == [0, 1, 2, 2, 3, 5, 5, 5]
    assert _kinds(seats["1"]) == [-1] * 7 + [10, 11, 12, -1, -1, -1]
    assert _kinds(seats["2"]) == [-1] * 5 + [19, 9]
    assert _classes(seats["0"]) == {"seat", "viewer"}
    assert _classes(seats["1"]) == {"seat", "to-move"}
    offer = [g for g in root.iter(f"{NS}g") if "offer" in _classes(g)]
    assert [(g.get("data-seat"), _kinds(g)) for g in offer] == [("2", [16])]
    stock = [g for g in root.iter(f"{NS}g") if "stock" in _classes(g)]
    assert [(g.get("data-count"), _cards(g)) for g in stock] == [("40", [])]
    red = {int(g.get("data-kind")) for g in _cards(root) if "red" in _classes(g)}
    assert red == {1, 11, 19, 9, 16}
    texts = _texts(root)
    for label in ("庄家 (视角) · 胡息 1", "▶ 下家 · 胡息 3", "上家 · 胡息 0", "摸 <柒> & 过",
                  "底牌 40", "7张", "5张", "摸出", "碰", "吃", "偎"):
        assert label in texts


def test_position_labels_in_english():
    texts = _texts(_root(draw_position(_view3(), lang="en")))
    for label in ("seat 0 (dealer) (view) · huxi 1", "▶ seat 1 · huxi 3", "seat 2 · huxi 0",
                  "stock 40", "7 cards", "drawn", "peng", "chi", "wei"):
        assert label in texts


def test_a_four_seat_position_sits_round_the_viewer_and_stays_compact():
    svg = draw_position(_view4(viewer=2))
    root = _root(svg)
    assert svg.width <= 900 and svg.height <= 700
    parent = {c: p for p in root.iter() for c in p}
    seats = {int(g.get("data-seat")): g for g in root.iter(f"{NS}g") if "seat" in _classes(g)}
    at = {s: _translate(parent[g]) for s, g in seats.items()}
    # seat 2 views: its next seat (3) on the right, the one before (1) left, seat 0 opposite
    assert at[0][1] < at[1][1] == at[3][1] < at[2][1]
    assert at[1][0] < at[0][0] < at[3][0]
    assert [t for t in _texts(root) if t.split(" ")[0] in ("庄家", "下家", "对家", "上家", "▶")
            ] == ["▶ 庄家", "下家", "上家", "对家 (视角)"]  # drawn top, left, right, bottom
    # hands 20 (face up) + 3 × 20 backs, groups 4 × 7, discards 4 × 12, the offer
    assert len(_cards(root)) == 20 + 60 + 28 + 48 + 1


def test_a_position_draws_each_repeated_shape_once_under_ids_of_its_own():
    """Backs and the faces' paper are ``<defs>`` shapes drawn with ``<use>``: each defined once
    and used, every use found in the same picture; two different positions (a page may hold
    both) share no id, and the same position is drawn the same."""
    three, four = draw_position(_view3()), draw_position(_view4())
    ids = []
    for svg in (three, four):
        root = _root(svg)
        defined = [el.get("id") for el in root.iter() if el.get("id")]
        assert len(defined) == len(set(defined))
        assert {u.get(HREF) for u in root.iter(f"{NS}use")} == {f"#{i}" for i in defined}
        ids.append(set(defined))
    assert not ids[0] & ids[1]
    assert not ids[0] & {el.get("id") for el in _root(draw_position(_view3(), lang="en")).iter()}
    assert draw_position(_view3()).text == three.text
    # one back pattern per size (others' hands, a hidden 偎, the stock); cards keep their marks
    assert three.text.count("<path") == 3
    for g in _cards(_root(three)):
        assert len(g.findall(f"{NS}use")) == 1
        assert len(g.findall(f"{NS}text")) == (0 if g.get("data-kind") == "-1" else 2)
    assert "<use" not in draw_hand("一二三三").text + draw_cards([0, 0], face_down=2).text


def test_scale_scales_the_picture():
    one, two = draw_position(_view3()), draw_position(_view3(), scale=2)
    assert 2 * one.width - 2 <= two.width <= 2 * one.width  # each rounded up to whole px
    assert 2 * one.height - 2 <= two.height <= 2 * one.height


@pytest.mark.parametrize(("change", "message"), [
    ({"seats": 5}, "seats must be 3 or 4"),
    ({"hand_sizes": [4, 7]}, r"hand_sizes has 2 entries; expected one per seat \(3\)"),
    ({"hand": [2, 0, 2]}, r"holds 3 cards but view.hand_sizes\[0\] is 4"),
    ({"hand": [2, 2, 2, 2, 2], "hand_sizes": [5, 7, 5]}, "view.hand holds a fifth 三"),
    ({"to_move": 3}, "to_move is 3; seats are 0..2"),
    ({"groups": [[Group("pong", (5, 5, 5))], [], []]}, "unknown group name 'pong'"),
    ({"groups": [[Group("peng", (-1, -1, -1))], [], []]}, "card kind -1 is outside"),
    ({"discards": [[20], [], []]}, r"view.discards\[0\]: card kind 20"),
    ({"offer": Offer(16, 3, True)}, "offer.seat is 3"),
    ({"huxi": [1, 2]}, "huxi has 2 entries"),
])
def test_inconsistent_views_are_refused_by_name(change, message):
    view = _view3()
    for k, v in change.items():
        setattr(view, k, v)
    with pytest.raises(ValueError, match=message):
        draw_position(view)


def test_position_lang_is_checked():
    with pytest.raises(ValueError, match='lang must be "zh" or "en"'):
        draw_position(_view3(), lang="de")


def test_a_bare_table_draws_only_the_backs():
    view = PositionView(seats=4, viewer=3, hand=[], hand_sizes=[2, 1, 0, 0],
                        groups=[[], [], [], []], discards=[[], [], [], []], stock=0, to_move=3)
    root = _root(draw_position(view, lang="en"))
    assert _kinds(root) == [-1] * 3
    assert [g for g in root.iter(f"{NS}g") if "offer" in _classes(g)] == []
    assert [g.get("data-count") for g in root.iter(f"{NS}g") if "stock" in _classes(g)] == ["0"]
    assert {"stock 0", "2 cards", "1 card", "0 cards", "▶ seat 3 (view)"} <= set(_texts(root))
