"""Hand records (docs/records.md): written by both engines, read back, and replayed move by move
through the reference engine (RULES.md §5–§7), with the settlement; malformed and tampered
records fail with the line named."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_cli import run

import zipai_sim as zs
from zipai_sim.game.cards import parse_hand
from zipai_sim.game.reference import shuffled_deck
from zipai_sim.kernels import play as kp
from zipai_sim.play.engine import Game
from zipai_sim.play.policies import GreedyPolicy
from zipai_sim.records.build import record_from_game, record_from_kernel
from zipai_sim.runs.chunks import chunk_keys

VARIANTS = zs.list_variants()
DOC = Path(__file__).parent.parent / "docs" / "records.md"


def seating(seats: int, first: str) -> list[str]:
    other = "random" if first == "greedy" else "greedy"
    return [first if s % 2 == 0 else other for s in range(seats)]


def round_trip(variant: str, n: int, seed: int, first: str) -> list[zs.HandRecord]:
    """Kernel records of ``n`` hands, through a JSON-lines text, replayed by the reference."""
    seats = zs.load_variant(variant).layout.players
    _, recs = zs.simulate_hands(variant, n, seed, seating(seats, first), records=n, threads=1)
    back = zs.read_record("".join(r.to_jsonl() for r in recs))
    assert [r.events for r in back] == [r.events for r in recs]
    for r in back:
        zs.replay_record(r)  # raises ReplayError at the first divergent event
    return back


@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_records_replay_through_the_reference_engine(variant):
    """≥ 1,000 hands a variant, every move and the settlement (issue 11 "Done when")."""
    recs = round_trip(variant, 1_000, seed=11, first="greedy")
    assert len(recs) == 1_000
    events = {e["event"] for r in recs for e in r.events}
    assert {"draw", "discard", "chi", "peng", "wei", "pao", "ti", "hu", "huang"} <= events
    assert sum(any(e["event"] == "hu" for e in r.events) for r in recs) > 100


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_kernel_records_replay_many(variant):
    """4,000 hands a variant with each first seat: ``round_trip`` asserts that the records read
    back unchanged and that every one replays through the reference engine (ReplayError)."""
    for first, seed in (("random", 12), ("greedy", 13)):
        round_trip(variant, 4_000, seed, first)


@pytest.mark.parametrize("variant", VARIANTS)
def test_both_engines_write_the_same_record(variant):
    """The numba kernel's record (final hands rebuilt from its moves) equals the reference
    engine's (its own final state), field for field; only the header's engine differs."""
    seats = zs.load_variant(variant).layout.players
    for pols, n in ((["random"] * seats, 40), (seating(seats, "greedy"), 8)):
        _, a = zs.simulate_hands(variant, n, 7, pols, engine="reference", records=n)
        _, b = zs.simulate_hands(variant, n, 7, pols, records=n, threads=1)
        for x, y in zip(a, b, strict=True):
            assert x.header["engine"] == "reference" and y.header["engine"] == "numba"
            assert x.events[1:] == y.events[1:]
            assert {**x.header, "engine": ""} == {**y.header, "engine": ""}


def deck_of(variant: str, hands: dict[int, str], liangzhang: str, top: str = "") -> list[int]:
    """A deck with the given seats' hands (the dealer's without its 亮张), the 亮张 and the stock's
    first cards; every other card in a fixed shuffled order."""
    v = zs.load_variant(variant)
    seats, h = v.layout.players, v.layout.other_cards
    left = np.full(20, 4)
    fixed = {s: list(np.repeat(np.arange(20), parse_hand(t))) for s, t in hands.items()}
    lz, stock_top = int(np.argmax(parse_hand(liangzhang))), list(zs.parse_hand(top).nonzero()[0])
    for k in [x for c in fixed.values() for x in c] + [lz] + stock_top:
        left[k] -= 1
    rest = list(np.repeat(np.arange(20), left))
    np.random.default_rng(1).shuffle(rest)
    deck = []
    for s in range(seats):
        cards = fixed.get(s, [])
        deck += cards + rest[: h - len(cards)]
        rest = rest[h - len(cards):]
    return [int(k) for k in deck + [lz] + stock_top + rest]


SANTI = "一一一一 二二二二 三三三三"
SPECIAL = {  # (variant, deck): the rare paths of RULES.md §6 at the deal
    "santi-tianhu": ("guangxi-81", lambda: deck_of("guangxi-81", {0: SANTI}, "四")),
    "shared-santi": ("guangxi-81", lambda: deck_of(
        "guangxi-81", {1: SANTI + " 七八九十壹贰叁肆",
                       2: "四四四四五五五五六六六六 伍陆柒捌玖拾七八"}, "九")),
    "wukan-dihu": ("changde-paohuzi", lambda: shuffled_deck(int(chunk_keys(5, 0, 1)[0]), 13984)),
    "extra-card-tianhu": ("guangxi-dazipai",
                          lambda: shuffled_deck(int(chunk_keys(5, 0, 1)[0]), 154736)),
    "first-discard-fangpao": ("hunan-hengyang",
                              lambda: shuffled_deck(int(chunk_keys(1, 0, 1)[0]), 1607)),
}


@pytest.mark.parametrize("case", SPECIAL)
def test_wins_at_the_deal_record_and_replay(case):
    variant, make = SPECIAL[case]
    v, deck = zs.load_variant(variant), make()
    seats = v.layout.players
    g = Game(v, deck, [GreedyPolicy() for _ in range(seats)])
    out = g.play()
    a = record_from_game(g, out, deck, policies=["greedy"] * seats)
    moves, row = kp.play_one(v, deck, [kp.POL_GREEDY] * seats)
    b = record_from_kernel(v, deck, moves, row, policies=["greedy"] * seats)
    assert a.events[1:] == b.events[1:]
    assert zs.replay_record(zs.read_record(b.to_jsonl())[0]).log[:-2] == g.log
    hu = [e for e in a.events if e["event"] == "hu"]
    if case == "santi-tianhu":
        assert (hu[0]["seat"], hu[0]["instant"], hu[0]["tianhu"]) == (0, "santi", True)
        assert [x["kind"] for x in hu[0]["groups"]][:3] == ["ti"] * 3
        assert hu[0]["groups"][-1]["kind"] == "rest"
    elif case == "shared-santi":  # equal points: both win (§6, seed 000 ⑻)
        assert [(e["seat"], e["shared"], e["instant"]) for e in hu] == [
            (1, False, "santi"), (2, True, "santi")]
        assert sum(a.settlement["payments"]) == 0 and a.settlement["payments"][0] < 0
    elif case == "wukan-dihu":
        assert (hu[0]["seat"], hu[0]["instant"], hu[0]["dihu"]) == (1, "wukan", True)
    elif case == "extra-card-tianhu":
        assert [e["event"] for e in a.events[2:5]] == ["ti", "ti", "extra"]
        assert (hu[0]["seat"], hu[0]["tianhu"], hu[0]["instant"]) == (0, True, "")
    else:
        assert (hu[0]["how"], hu[0]["payer"], hu[0]["dihu"]) == ("fangpao", 0, False)
    for e in hu:  # the groups score the 胡息 (§4)
        assert sum(x["huxi"] for x in e["groups"]) == e["huxi"]


@pytest.mark.parametrize("engine", ["numba", "reference"])
def test_the_liangzhang_won_on_at_the_deal_is_in_no_hand(engine):
    """A 地胡 on the 亮张 (changde: a non-dealer wins with it at the deal): the `end` line's
    dealer hand is the dealt 21 less the 亮张, the card won on (docs/records.md: "the card won
    on is in no hand"). It listed all 21, 81 cards in the record."""
    from zipai_sim.game.cards import parse_hand

    n = 412  # deal 411 of seed 11 is one (random play: the reference engine plays it quickly)
    _, recs = zs.simulate_hands("changde-paohuzi", n, 11, ["random"] * 3, records=n,
                                threads=1, engine=engine, progress=False)
    seen = 0
    for r in recs:
        hu = [e for e in r.events if e["event"] == "hu"]
        if not (hu and r.events[2]["event"] == "hu" and hu[0]["seat"] != 0):
            continue  # only a win at the deal by a non-dealer (dealt 提 stay in hand then)
        deal, end = r.events[1], r.events[-2]
        dealt, left = parse_hand(deal["hands"][0]), parse_hand(end["hands"][0])
        lz = int(parse_hand(deal["liangzhang"]).argmax())
        assert left[lz] == dealt[lz] - 1 and left.sum() == dealt.sum() - 1, r.to_jsonl()
        seen += 1
    assert seen > 0


def test_a_threshold_sweep_record_replays_under_its_own_rules():
    v = zs.load_variant("guangxi-dazipai").with_threshold(25)
    _, recs = zs.simulate_hands(v, 30, 2, records=30, threads=1)
    assert {r.header["threshold"] for r in recs} == {25}
    assert recs[0].header["rules_hash"] == v.rules_hash != zs.load_variant(
        "guangxi-dazipai").rules_hash
    for r in recs:
        r.replay()


def test_the_documented_example_reads_and_replays():
    text = DOC.read_text(encoding="utf-8")
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    trace = text.split("prints\n\n```\n", 1)[1].split("```", 1)[0].splitlines()
    (rec,) = zs.read_record(block)
    assert rec.replay().log == trace[1:]
    assert [e["event"] for e in rec.events] == ["header", "deal", "discard", "chi", "discard",
                                                "peng", "discard", "hu", "end", "settlement"]


# --- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize("variant,seed,deal,policy", [
    ("guangxi-81", 2026, 934, "greedy"), ("changsha-paohuzi", 5, 3, "random"),
    ("liuhu-dao", 2026, 2, "greedy")])
def test_play_jsonl_then_replay_prints_the_same(tmp_path, capsys, variant, seed, deal, policy):
    path = tmp_path / "hand.jsonl"
    code, played, err = run(["play", "--variant", variant, "--seed", str(seed), "--deal",
                             str(deal), "--policy", policy, "--jsonl", str(path)], capsys)
    assert code == 0, err
    assert f"wrote {path}" in err
    code, replayed, err = run(["replay", str(path)], capsys)
    assert code == 0, err
    assert replayed.splitlines() == played.splitlines()
    assert len(played.splitlines()) > 3


def test_replay_prints_every_record_or_one(tmp_path, capsys):
    _, recs = zs.simulate_hands("guangxi-81", 3, 4, records=3, threads=1)
    path = zs.write_records(recs, tmp_path / "three.jsonl")
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 0, err
    assert out.count("settlement (duo)") == 3 and out.count("\n\n") == 2
    code, one, err = run(["replay", str(path), "--hand", "2"], capsys)
    assert code == 0 and one.strip() == out.split("\n\n")[2].strip()
    code, _, err = run(["replay", str(path), "--hand", "3"], capsys)
    assert code == 2 and "hand must be 0..2" in err


def test_cli_errors_are_one_line_naming_the_line(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    code, _, err = run(["play", "--jsonl", str(tmp_path / "hand.txt")], capsys)
    assert code == 2 and ".jsonl" in err
    path.write_text('{"event":"header"\n', encoding="utf-8")
    code, out, err = run(["replay", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.splitlines() == [(f"zipai-sim: error: {path} line 1: not JSON: Expecting ',' "
                                 "delimiter (column 18)")]


# --- malformed and tampered records ----------------------------------------------------------

def example_lines() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    return text.split("```json\n", 1)[1].split("```", 1)[0].splitlines()


def edited(i: int, **change) -> list[str]:
    lines = example_lines()
    e = json.loads(lines[i])
    for k, x in change.items():
        if x is None:
            del e[k]
        else:
            e[k] = x
    lines[i] = json.dumps(e, ensure_ascii=False)
    return lines


@pytest.mark.parametrize("lines,needle", [
    (lambda: example_lines()[:3] + ["{oops"] + example_lines()[3:], "line 4: not JSON"),
    (lambda: edited(2, event="discrad"), "line 3: unknown event 'discrad'"),
    (lambda: edited(2, card=None), "line 3: event 'discard' lacks the field 'card'"),
    (lambda: edited(2, card="X"), "line 3: event 'discard': card must be one card"),
    (lambda: edited(2, seat=3), "line 3: event 'discard': seat must be a seat 0..2"),
    (lambda: edited(2, crad="三"), "line 3: event 'discard' has unknown field(s) crad"),
    (lambda: edited(3, bi="贰柒拾"), "line 4: event 'chi': bi must be a list of card texts"),
    (lambda: edited(0, version=7), "line 1: record format version 7 is not supported"),
    (lambda: edited(1, stock="叁十"), "line 2: the deal holds 63 cards, not the 80"),
    (lambda: example_lines()[1:], "line 1: expected a 'header' line"),
    (lambda: example_lines()[:-1], "is cut short at line 9 (no 'settlement' line)"),
    (lambda: example_lines()[:2] + example_lines()[9:],
     "line 3: 'settlement' cannot follow 'deal' (expected"),
    (lambda: example_lines()[:1] + example_lines()[2:], "line 2: 'discard' cannot follow"),
    (list, "no hand record"),
])
def test_malformed_records_name_the_line(lines, needle):
    with pytest.raises(zs.RecordError, match=None) as e:
        zs.read_record(lines())
    assert needle in str(e.value), str(e.value)


def test_malformed_file_names_the_file(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text("\n".join(edited(4, seat="1")) + "\n", encoding="utf-8")
    with pytest.raises(zs.RecordError, match=f"{path} line 5: event 'discard': seat must be"):
        zs.read_record(path)


def replay_error(lines: list[str]) -> str:
    (rec,) = zs.read_record(lines)
    with pytest.raises(zs.ReplayError) as e:
        rec.replay()
    return str(e.value)


def test_a_discard_not_held_is_caught_at_its_line():
    msg = replay_error(edited(2, card="九"))  # the dealer holds no 九
    assert msg.startswith("<lines> line 3: seat 0 may not discard 九 here: it holds 一三四"), msg


def test_a_discard_changed_to_another_held_card_is_caught():
    """The dealer holds two 拾: discarding one instead of 贰 is legal, but seat 1's 吃 of 贰
    (line 4) no longer happens."""
    msg = replay_error(edited(2, card="拾"))
    assert msg.startswith("<lines> line 4: seat 1 may not 吃 壹贰叁 比 贰柒拾 on 拾"), msg


def test_every_changed_discard_is_caught():
    """The last discard of each hand changed to another card the seat may discard: legal where
    it is made, so the record fails later — at a claim, a win, or at worst the cards left in
    hand (the ``end`` line)."""
    from zipai_sim.records.build import apply_moves
    from zipai_sim.records.replay import move_of

    _, recs = zs.simulate_hands("guangxi-81", 60, 8, records=60, threads=1)
    lines_hit = []
    for r in recs:
        moves = r.moves()
        last = max((n for n, (_, e) in enumerate(moves) if e["event"] == "discard"), default=None)
        if last is None:
            continue
        i, e = moves[last]
        state = apply_moves(zs.load_variant("guangxi-81"), r.deck(),
                            [move_of(x) for _, x in moves[:last]])
        hand = state.players[e["seat"]].hand
        other = [k for k in range(20) if 0 < hand[k] < 3 and zs.format_hand(
            np.eye(20, dtype=np.int8)[k]) != e["card"]]
        if not other:
            continue
        lines = r.to_jsonl().splitlines()
        lines[i] = json.dumps({**e, "card": zs.format_hand(np.eye(20, dtype=np.int8)[other[0]])},
                              ensure_ascii=False)
        msg = replay_error(lines)
        hit = int(msg.split(" line ")[1].split(":")[0])
        assert hit > i + 1, msg  # the changed line itself is legal
        lines_hit.append(msg)
    assert len(lines_hit) > 30
    assert any("differs in end hands" in m for m in lines_hit)


def test_a_changed_end_line_is_caught():
    msg = replay_error(edited(8, hands=["", "", ""]))
    assert msg.startswith("<lines> line 9: the replayed hand differs in end hands: the record "
                          "has ['', '', ''], the engine gives ['一四五五六七七八十"), msg


@pytest.mark.parametrize("i,change,needle", [
    (7, {"huxi": 18}, ("line 8: the hand diverges from the record: the record has '1: 胡 "
                       "(fangpao) 18 胡息 on 三', the engine plays "
                       "'1: 胡 (fangpao) 15 胡息 on 三'")),
    (7, {"fanxing": 2}, ("line 8: the replayed hand differs in hu fanxing: the record has 2, "
                         "the engine gives 1")),
    (7, {"groups": []}, "line 8: the replayed hand differs in hu groups"),
    (9, {"payments": [-4, 4, 0]}, "line 10: the replayed hand differs in settlement payments"),
    # 翻信 turns the stock's top card (§7.3): 肆, which the winner lacks, instead of 叁
    (1, {"stock": "肆十叁一二叁玖八二玖叁陆八一柒拾四伍肆"},
     "line 8: the replayed hand differs in hu fanxing: the record has 1, the engine gives 0"),
    (0, {"rules_hash": "0" * 16}, "line 1: the record was played under rules 0000000000000000"),
    # header fields that contradict the rules hash or the seating are refused, not ignored
    (0, {"threshold": 10}, "line 1: the header's threshold is 10, but its rules "
                           "2bd4db2c7ba96a7d give 15"),
    (0, {"dealer": 1}, "line 1: the header's dealer is 1, but docs/records.md: seat 0 deals "
                       "give 0"),
    # a record of the user's own TOML (its key is not shipped) needs the file to replay
    (0, {"variant": "my-rules"}, "line 1: the record was played under variant 'my-rules', "
                                 "which is not shipped: give its TOML file (--variant FILE"),
])
def test_tampered_records_fail_at_the_first_divergent_event(i, change, needle):
    msg = replay_error(edited(i, **change))
    assert needle in msg, msg
