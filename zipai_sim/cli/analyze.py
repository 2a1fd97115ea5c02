"""``zipai-sim analyze``: every decision of a recorded hand valued (or one typed position):
each legal answer's expected settled score with its 95% interval, the answer played, its loss
against the best and the chance to win (``zipai_sim.analysis``, issue 40)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from zipai_sim.cli.bounds import CliError as _Fail
from zipai_sim.cli.bounds import seed_arg
from zipai_sim.cli.outputs import check_out, partial_path


def cmd_analyze(a: argparse.Namespace) -> int:
    """Analyse a recorded hand (FILE.jsonl from `play --jsonl`) or a typed --position: every
    legal answer of each decision valued in worlds consistent with what that seat had seen."""
    from zipai_sim.analysis import PositionError, analyze, analyze_position
    from zipai_sim.analysis.hand import load_record

    if (a.file is None) == (a.position is None):
        raise _Fail("give a hand record FILE.jsonl or --position TEXT (one of them)")
    for path, suffixes in ((a.out, (".parquet",)), (a.html, (".html",))):
        if path is not None:
            check_out(path, suffixes)
    if a.threads is not None:
        import numba

        if not 1 <= a.threads <= numba.config.NUMBA_NUM_THREADS:
            raise _Fail(f"--threads must be 1..{numba.config.NUMBA_NUM_THREADS}, got "
                        f"{a.threads}")
        numba.set_num_threads(a.threads)
    if a.position is not None:
        for flag, val in (("--out", a.out), ("--html", a.html), ("--hand", a.hand),
                          ("--seat", a.seat)):
            if val is not None:
                raise _Fail(f"{flag} applies to a hand record, not to --position")
        text = a.position
        if "\n" not in text and (":" not in text or Path(text).is_file()):  # a file's name
            try:
                text = Path(text).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as e:
                why = "not UTF-8 text" if isinstance(e, UnicodeDecodeError) else \
                    (e.strerror or str(e))
                raise _Fail(f"--position {a.position}: cannot read it as a position file "
                            f"({why}); give the text itself, one 'key: value' a line") from None
        try:
            d = analyze_position(text, a.variant, worlds=a.worlds, policy=a.policy,
                                 seed=a.seed, lang=a.lang)
        except PositionError as e:  # its words (seat, stock …) are the position's, not flags
            raise _Fail(f"--position: {e}") from None
        from zipai_sim.report import header

        v = d.question.start.v
        print(header([(v.key, v.rules_hash)], [v.win.threshold], seed=a.seed,
                     extra=[f"position, seat {d.question.seat}", f"{a.worlds} worlds",
                            f"play-outs by {a.policy}"]))
        print(d)
        return 0
    rec = load_record(a.file, a.hand)
    if a.hand is None:
        a.hand = 0
    seat = a.seat[0] if a.seat is not None and len(a.seat) == 1 else a.seat
    an = analyze(rec, seat, worlds=a.worlds, policy=a.policy, seed=a.seed,
                 variant=a.variant, lang=a.lang)
    print(an.header)
    for d in an.decisions:
        print(d)
    worst = an.costliest()
    if worst is not None and worst.played is not None:
        q = worst.question
        print(f"costliest decision: #{worst.index} (seat {q.seat}, after move {q.moves}): "
              f"played {worst.played.answer}, best {worst.best.answer}, loss "
              f"{worst.played.loss:.2f} [{worst.played.loss_lo:.2f}, "
              f"{worst.played.loss_hi:.2f}] {an.unit}")
    if a.out is not None:  # a partial analysis goes beside the name: that name is a whole one
        out = partial_path(a.out) if an.partial else a.out
        an.to_parquet(out)
        print(f"wrote {out}", file=sys.stderr)
    if a.html is not None:
        out = a.html.with_name(a.html.name.removesuffix(".html") + ".partial.html") \
            if an.partial else a.html
        an.to_html(out, a.lang)
        print(f"wrote {out}", file=sys.stderr)
    return 130 if an.partial else 0


#: ``analysis.hand.DEFAULT_WORLDS`` and ``DEFAULT_POLICY``, spelt out: analysis imports numba,
#: and --help must not (tests/test_imports.py checks they agree)
DEFAULT_WORLDS = 64
DEFAULT_POLICY = "study"


def add_analyze(sub, doc) -> None:
    """The ``analyze`` subcommand on the subparsers ``sub`` (``doc``: a docstring as help)."""
    from zipai_sim.play import POLICY_NAMES, SEARCH_POLICIES
    from zipai_sim.report import DEFAULT_SEED

    # analysis.hand's PLAYOUT_POLICIES, made from the light bot table: analysis pulls numba
    playout = tuple(x for x in POLICY_NAMES if x not in SEARCH_POLICIES)

    an = sub.add_parser("analyze", help=doc(cmd_analyze), description=cmd_analyze.__doc__)
    an.add_argument("file", type=Path, nargs="?", default=None, metavar="FILE",
                    help="a hand record, JSON lines (docs/records.md)")
    an.add_argument("--hand", type=int, default=None, metavar="I",
                    help="the I-th record of FILE, from 0 (default: the only one)")
    an.add_argument("--seat", type=int, action="append", default=None, metavar="S",
                    help="analyse seat S (repeatable; default: every seat)")
    an.add_argument("--worlds", type=int, default=DEFAULT_WORLDS, metavar="K",
                    help="worlds each answer is played out in (default: %(default)s)")
    an.add_argument("--policy", choices=playout, default=DEFAULT_POLICY,
                    help="the bot every seat plays on in the worlds (default: %(default)s)")
    an.add_argument("--seed", type=seed_arg, default=DEFAULT_SEED,
                    help="the worlds' seed (default: %(default)s)")
    an.add_argument("--variant", default=None,
                    help="variant key or TOML path (default: the record's; for --position: "
                    "its variant: line, else guangxi-81)")
    an.add_argument("--position", default=None, metavar="TEXT",
                    help="a typed position instead of a record: its text or a file holding it "
                    "(docs/guide/analysis.md)")
    an.add_argument("--out", type=Path, default=None, metavar="FILE",
                    help="also write every answer's row to FILE.parquet")
    an.add_argument("--html", type=Path, default=None, metavar="FILE",
                    help="also write the page that steps through the hand to FILE.html")
    an.add_argument("--lang", choices=("zh", "en"), default="zh",
                    help="answer labels and the page's words (default: %(default)s)")
    an.add_argument("--threads", type=int, default=None, metavar="N",
                    help="threads (default: all cores; the numbers do not depend on it)")
    an.set_defaults(func=cmd_analyze)
