"""``zipai-sim hand``, ``play`` and ``replay``: one hand at a time (its 胡息 and waits, one
seeded hand played move by move by the reference engine, a hand record replayed)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from zipai_sim.cli import bounds as B
from zipai_sim.cli.bounds import CliError as _Fail
from zipai_sim.cli.bounds import seed_arg
from zipai_sim.cli.outputs import check_out
from zipai_sim.play import POLICY_NAMES
from zipai_sim.report import DEFAULT_SEED


def cmd_hand(a: argparse.Namespace) -> int:
    """Print the best decomposition, 胡息, complete/win, and the waits (听) of a hand."""
    from zipai_sim.deals.evaluate import as_counts, explain, waits
    from zipai_sim.report import header

    v = B.load(a, a.variant)
    # one size check before any output: the analysis takes 2..22 cards, an incoming card
    # 1..21 (RULES.md §2 hand sizes + one card), and the waits need room for one more card
    size, most = int(as_counts(a.text).sum()), v.layout.dealer_cards
    lo, hi = (1, most) if a.incoming is not None else (2, most + 1)
    if not lo <= size <= hi:
        raise _Fail(f"the hand holds {size} card{'s' * (size != 1)}; `hand` takes {lo}..{hi} "
                    + ("with --incoming" if a.incoming is not None else
                       f"(1..{most} with --incoming)"))
    print(header([(v.key, v.rules_hash)], [v.win.threshold]))
    e = explain(a.text, v, incoming=a.incoming, source=a.source, liangzhang=a.liangzhang)
    print(e)
    if a.incoming is None and size > most:
        print(f"completing cards (听): none (a hand of {size} cards takes no further card)")
    elif a.incoming is None:
        win = v.win

        def wins(hx: int | None) -> bool:
            return hx is not None and hx >= 0 and (hx >= win.threshold
                                                   or (win.piaohu and hx == 0))

        w = waits(a.text, v)
        if w.height:
            print("completing cards (听; 胡息 as own draw / as another's card; * wins at the "
                  "threshold): " + ", ".join(
                      f"{r['card']}{'*' if wins(r['huxi_self']) or wins(r['huxi_other']) else ''}"
                      f" ({_hx(r['huxi_self'])} self / {_hx(r['huxi_other'])} other)"
                      for r in w.iter_rows(named=True)))
        else:
            print("completing cards (听): none")
    return 0


def _hx(x: int | None) -> str:
    return "-" if x is None else f"{x} 胡息"


def cmd_play(a: argparse.Namespace) -> int:
    """Play one seeded hand with the reference engine and print it move by move."""
    from zipai_sim.play.trace import play_seeded

    if a.deal < 0:
        raise _Fail(f"--deal must be ≥ 0, got {a.deal}")
    if a.jsonl is not None:
        check_out(a.jsonl, (".jsonl",))
    game, out = play_seeded(B.load(a, a.variant), a.seed, a.deal, a.policy)
    from zipai_sim.report import play_header

    print(play_header(game.v.key, game.v.rules_hash, game.v.win.threshold, game.seats, a.seed,
                      a.deal, a.policy))
    print("\n".join(game.log))
    if a.jsonl is not None:  # the hand record (docs/records.md); stdout stays the trace alone
        from zipai_sim.records.build import record_from_game
        from zipai_sim.records.file import write_records

        write_records(record_from_game(game, out, seed=a.seed, deal=a.deal,
                                       policies=[a.policy] * game.seats), a.jsonl)
        print(f"wrote {a.jsonl}", file=sys.stderr)
    return 0


def cmd_replay(a: argparse.Namespace) -> int:
    """Replay hand records (JSON lines, docs/records.md) through the reference engine, checking
    every move and the settlement; print each hand's trace as ``zipai-sim play`` printed it."""
    from zipai_sim.records.replay import replay_lines

    if a.set and a.variant is None:
        raise _Fail("--set changes a variant: name it with --variant (the records' own key)")
    variant = B.load(a, a.variant) if a.set else a.variant
    print("\n".join(replay_lines(a.file, a.hand, variant)))
    return 0


def add_hand(sub, doc) -> None:
    """The ``hand``, ``play`` and ``replay`` subcommands on the subparsers ``sub`` (``doc``: a
    docstring as help)."""
    hd = sub.add_parser("hand", help=doc(cmd_hand), description=cmd_hand.__doc__)
    hd.add_argument("text", help="the hand, e.g. '一二三 四五六 …' or 's1 s2 s3 …'")
    hd.add_argument("--variant", default="guangxi-81",
                    help="variant key or TOML path (default: %(default)s)")
    hd.add_argument("--incoming", default=None, metavar="CARD",
                    help="an incoming card, e.g. 十 or s10 (default: none; the waits are shown)")
    hd.add_argument("--source", choices=("self", "other"), default="self",
                    help="where the incoming card comes from (default: %(default)s)")
    hd.add_argument("--liangzhang", default=None, metavar="CARD",
                    help="the dealer's shown card, for 衡阳's 五坎 rule, e.g. 三 (default: none)")
    B.add_set(hd)
    hd.set_defaults(func=cmd_hand)
    pl = sub.add_parser("play", help=doc(cmd_play), description=cmd_play.__doc__)
    pl.add_argument("--variant", default="guangxi-81",
                    help="variant key or TOML path (default: %(default)s)")
    pl.add_argument("--seed", type=seed_arg, default=DEFAULT_SEED,
                      help="root seed (default: %(default)s)")
    pl.add_argument("--deal", type=int, default=0, metavar="I",
                    help="which deal of the seed's stream, as in simulate (default: 0)")
    pl.add_argument("--policy", choices=POLICY_NAMES, default="greedy",
                    help="policy of every seat (default: %(default)s)")
    pl.add_argument("--jsonl", type=Path, default=None, metavar="FILE",
                    help="also write the hand record to FILE.jsonl (docs/records.md; "
                    "`zipai-sim replay FILE` prints this trace again); default: none")
    B.add_set(pl)
    pl.set_defaults(func=cmd_play)
    rp = sub.add_parser("replay", help=doc(cmd_replay), description=cmd_replay.__doc__)
    rp.add_argument("file", type=Path, metavar="FILE", help="hand records, JSON lines")
    rp.add_argument("--hand", type=int, default=None, metavar="I",
                    help="replay only the I-th record of FILE, from 0 (default: all)")
    rp.add_argument("--variant", default=None,
                    help="variant key or TOML path the hands were played with (default: the "
                    "records' variant, checked against their rules hash)")
    B.add_set(rp)
    rp.set_defaults(func=cmd_replay)
