"""``zipai-sim train``: fit the learned bot's weights by self-play rounds (issue 47;
``studies.train``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from zipai_sim.cli.bounds import CliError, at_least_one


def cmd_train(a: argparse.Namespace) -> int:
    """Fit the learned bot's value by rounds of self-play (ridge regression to the payments),
    of search labels, or of paired duels; a round's result is kept when it beats the weights it
    started from in a duplicate arena; print each round and write the weights file (with its
    metadata) to --out. ``--labels value`` fits the search's cut value instead."""
    from zipai_sim.cli import bounds as B
    from zipai_sim.play.learned import FEATURES, write
    from zipai_sim.studies.train import HOLD, train

    v = B.load(a, a.variant)
    if a.bot == "neural":
        return _neural(a, v)
    if a.eps != NEURAL_EPS or a.epochs != NEURAL_EPOCHS:
        raise CliError("--eps and --epochs are the neural bot's: give --bot neural")
    if a.hands is None:
        a.hands = DEFAULT_HANDS
    at_least_one(a.hands, "--hands")
    at_least_one(a.rounds, "--rounds")
    at_least_one(a.arena_decks, "--arena-decks")
    out = a.out if a.out is not None else Path(f"{v.key}.json")
    if out.exists() and out.is_dir():
        raise CliError(f"--out {out}: a folder; give a file name (VARIANT.json)")
    if a.labels == "value":
        return _value(a, v, out)
    start = None
    if a.start == "shipped":
        from zipai_sim.play.learned import weights

        start = tuple(float(x) for x in weights(v))
    r = train(v, a.hands, a.rounds, a.seed, a.arena_decks, start=start, progress=None,
              labels=a.labels, k=a.label_k)
    r.start_from = a.start
    unit = v.settle.unit
    lab = {"selfplay": "self-play", "search": f"search labels, {a.label_k} worlds",
           "cut": f"cut search labels, {a.label_k} worlds", "duel": "duels"}[a.labels]
    print(f"zipai-sim train · {v.key} ({v.rules_hash[:8]}) · seed {a.seed} · {a.hands:,} hands "
          f"a round ({lab}) · arena {a.arena_decks:,} decks · {r.seconds:.0f} s"
          + (" · PARTIAL" if r.partial else ""))
    print(f"| round | rows | held-out loss start → fit | fit − start ({unit}/hand) | "
          f"fit − study ({unit}/hand) | kept |")
    print("|---|---|---|---|---|---|")
    for x in r.rounds:
        d, lo, hi = x.vs_start
        s, slo, shi = x.vs_study
        loss = (f"{x.loss_start:.2f} → {x.loss_fit:.2f}" if x.loss_fit == x.loss_fit else
                "(duels: no loss)")
        print(f"| {x.round} | {x.rows:,} | {loss} | "
              f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}] | {s:+.3f} [{slo:+.3f}, {shi:+.3f}] | "
              f"{'yes' if x.kept else 'no'} |")
    print(f"(held-out: every {HOLD}th chunk of each round; arena: duplicate, paired t 95%)")
    print("weights: " + ", ".join(f"{f} {w:+.4g}" for f, w in zip(FEATURES, r.weights)))
    if r.partial and not r.rounds:
        print("zipai-sim: interrupted before a round finished: nothing written")
        return 130
    write(out, v, r.weights, r.meta())
    print(f"wrote {out}" + (" (from the rounds finished)" if r.partial else ""))
    return 130 if r.partial else 0


def _neural(a: argparse.Namespace, v) -> int:
    """``--bot neural``: grow the neural bot's network by Deep Monte-Carlo self-play rounds
    (``studies.neural``) and write the best round's model file."""
    import time

    from zipai_sim.studies.neural import HOLD, train_neural

    if getattr(a, "run_checkpoint", None) or getattr(a, "run_resume", None):
        raise CliError("--checkpoint/--resume: not with --bot neural (a round's rows are "
                       "gigabytes); Ctrl-C keeps the rounds finished and writes the best of "
                       "them, and a shorter --rounds run is the same run's first rounds")
    if a.labels != DEFAULT_LABELS or a.start != "start":
        raise CliError("--labels and --start are the learned bot's; --bot neural trains by "
                       "self-play from learned's weights (docs/guide/neural.md)")
    hands = NEURAL_HANDS if a.hands is None else a.hands
    at_least_one(hands, "--hands")
    at_least_one(a.rounds, "--rounds")
    at_least_one(a.arena_decks, "--arena-decks")
    at_least_one(a.epochs, "--epochs")
    if not 0 <= a.eps < 1:
        raise CliError(f"--eps must be in [0, 1), got {a.eps}")
    out = a.out if a.out is not None else Path(f"{v.key}.npz")
    if out.exists() and out.is_dir():
        raise CliError(f"--out {out}: a folder; give a file name (VARIANT.npz)")
    unit = v.settle.unit
    print(f"zipai-sim train --bot neural · {v.key} ({v.rules_hash[:8]}) · seed {a.seed} · "
          f"{a.rounds} rounds of {hands:,} self-play hands (ε {a.eps}, {a.epochs} epochs) · "
          f"arena {a.arena_decks:,} decks against learned a round; about 1,000 hands/s and "
          f"15 s a million rows here (2 cores), plus the kernels' first compile", flush=True)
    t0 = time.perf_counter()

    def say(s: str) -> None:
        print(f"[{time.perf_counter() - t0:6.0f} s] {s}", flush=True)

    r = train_neural(v, hands, a.rounds, a.seed, a.arena_decks, a.eps, a.epochs,
                     progress=None, say=say)
    print(f"| round | rows | held-out loss start → fit ({unit}²) | neural − learned "
          f"({unit}/hand) | s |")
    print("|---|---|---|---|---|")
    for x in r.rounds:
        d, lo, hi = x.vs_learned
        print(f"| {x.round} | {x.rows:,} | {x.loss_start:.2f} → {x.loss_fit:.2f} | "
              f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}] | {x.seconds:.0f} |")
    print(f"(held-out: every {HOLD}th chunk of each round; arena: duplicate, paired t 95%, on "
          f"decks of the round's own seed: a training figure, not a strength)")
    if r.model is None:
        print("zipai-sim: interrupted before a round finished: nothing written")
        return 130
    r.model.save(out)
    print(f"wrote {out} (round {r.best}'s network, model {r.model.hash})"
          + (" (from the rounds finished)" if r.partial else ""))
    return 130 if r.partial else 0


def _value(a: argparse.Namespace, v, out: Path) -> int:
    """``--labels value``: fit the search's cut value under the weights the learned bot reads
    now, and write them with it (``studies.value``)."""
    from zipai_sim.play import learned
    from zipai_sim.studies.value import fit_value

    src = learned.find(v.key)
    base = learned.read(src)
    r = fit_value(v, a.hands, a.seed, progress=None)
    unit = v.settle.unit
    print(f"zipai-sim train · {v.key} ({v.rules_hash[:8]}) · seed {a.seed} · {a.hands:,} hands "
          f"(cut value, self-play at {src.name}'s weights) · {r.seconds:.0f} s"
          + (" · PARTIAL" if r.partial else ""))
    print(f"held-out loss ({unit}² a rest hand): mean payment {r.loss_mean:.3f} → fit "
          f"{r.loss_fit:.3f} · {r.rows:,} rows")
    print("value: " + ", ".join(f"{f} {w:+.4g}" for f, w in zip(learned.FEATURES, r.value)))
    if r.partial:
        print("zipai-sim: interrupted: a cut value from part of the hands is not written")
        return 130
    meta = {k: x for k, x in base.items() if k not in ("variant", "rules_hash", "features",
                                                         "weights", "value", "value_trained")}
    learned.write(out, v, base["weights"], {**meta, "value": list(r.value), **r.meta()})
    print(f"wrote {out}")
    return 0


# studies.train's defaults and label kinds, spelt out: studies.train imports numpy and the
# play kernels, and --help must not (tests/test_imports.py checks they agree)
DEFAULT_HANDS = 200_000
DEFAULT_ROUNDS = 4
DEFAULT_ARENA_DECKS = 4_000
DEFAULT_LABELS = "selfplay"
LABELS = ("selfplay", "search", "cut", "duel")
DEFAULT_LABEL_K = 8
NEURAL_HANDS = 60_000
NEURAL_EPS = 0.05
NEURAL_EPOCHS = 2


def add_train(sub, doc) -> None:
    """The ``train`` subcommand on the subparsers ``sub`` (``doc``: a docstring as help)."""
    from zipai_sim.cli.bounds import add_set, seed_arg
    from zipai_sim.report import DEFAULT_SEED

    q = sub.add_parser("train", help=doc(cmd_train), description=cmd_train.__doc__)
    q.add_argument("--variant", default="guangxi-81",
                   help="variant key or TOML path (default: %(default)s)")
    q.add_argument("--bot", choices=("learned", "neural"), default="learned",
                   help="what to train: learned (its linear weights, --labels) or neural (a "
                   "network by Deep Monte-Carlo self-play; writes a model file) (default: "
                   "%(default)s)")
    q.add_argument("--hands", type=int, default=None, metavar="N",
                   help=f"hands a round (--labels duel: decks each step's duel plays) (default: "
                   f"{DEFAULT_HANDS}; --bot neural {NEURAL_HANDS})")
    q.add_argument("--eps", type=float, default=NEURAL_EPS, metavar="P",
                   help="--bot neural: a seat's chance to answer at random in self-play "
                   "(exploration) (default: %(default)s)")
    q.add_argument("--epochs", type=int, default=NEURAL_EPOCHS, metavar="E",
                   help="--bot neural: passes of the fit over each round's rows (default: "
                   "%(default)s)")
    q.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS, metavar="R",
                   help="rounds at most; learned stops at the first without a measurable "
                   "gain, neural plays them all and keeps the best (default: %(default)s)")
    q.add_argument("--arena-decks", type=int, default=DEFAULT_ARENA_DECKS, metavar="N",
                   help="duplicate decks each new fit plays against the old (default: "
                   "%(default)s)")
    q.add_argument("--seed", type=seed_arg, default=DEFAULT_SEED,
                   help="root seed (default: %(default)s)")
    q.add_argument("--out", type=Path, default=None, metavar="FILE",
                   help="weights file to write (default: VARIANT.json in the current folder); "
                   "put it to use with ZIPAI_SIM_WEIGHTS=its folder")
    q.add_argument("--labels", choices=(*LABELS, "value"), default=DEFAULT_LABELS,
                   help="what the fit learns from: selfplay (the payment each noted rest hand "
                   "ended with), search (every discard candidate of one searching seat a hand "
                   "played out in K shared worlds), cut (the same in the search's cut worlds, "
                   "valued by the cut value: an expert-iteration round) or duel (each weight stepped up or down, kept "
                   "when it wins a paired duplicate duel); value: keep the current weights and "
                   "fit the search's cut value to self-play payments under them "
                   "(default: %(default)s)")
    q.add_argument("--label-k", type=int, default=DEFAULT_LABEL_K, metavar="K",
                   help="worlds a searched question plays each candidate in (--labels search, "
                   "cut; default: %(default)s)")
    q.add_argument("--start", choices=("start", "shipped"), default="start",
                   help="the first round's weights: the hand-set START or the variant's weights "
                   "file (as the learned bot reads it; an iteration round) (default: "
                   "%(default)s)")
    add_set(q)
    g = q.add_mutually_exclusive_group()
    g.add_argument("--checkpoint", dest="run_checkpoint", type=Path, metavar="DIR", default=None,
                   help="save every finished batch in DIR (a new or empty folder)")
    g.add_argument("--resume", dest="run_resume", type=Path, metavar="DIR", default=None,
                   help="continue the run saved in DIR (same command and options)")
    q.set_defaults(func=cmd_train)
