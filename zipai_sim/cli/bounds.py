"""Bounds of the command line (issue 10 §5): every count flag has a cap, every seed flag takes
0 … 2**64−1, and ``--variant FILE`` reads only a small regular file.

The library's own bounds (``chunks.check_count``: 2**50, int64-safe arithmetic) say what can be
computed; these say what a command should start. A cap comes from one of two costs, whichever is
hit first (docs/decisions.md, "Run model: bounds and outputs"):

- time: about a day of work on a 64-core machine at the speeds measured on the 2-core reference
  box (deals 2×10⁶/s per core, whole hands 1.2×10⁴/s per core; the single-threaded loops of
  ``match`` and ``table waits`` on one core), rounded down to 1 or 5 × a power of ten, so that
  a typo (three zeros too many) is refused instead of running for weeks with nothing to show;
- memory: half of this machine's physical memory, at a generous size per kept item (a
  per-hand record, a sampled row, a match), so that a run is refused before it ends in a
  MemoryError after hours of work.

>>> seed_arg("18446744073709551615")
18446744073709551615
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterable

#: the seeds every command takes: 64 bits, the width of a UInt64 column and of a chunk key
#: (``runs.chunks.MAX_COLUMN_SEED``, spelt out: importing chunks pulls numpy before the
#: arguments are parsed; tests/test_imports.py checks the two agree)
MAX_CLI_SEED = (1 << 64) - 1

#: time caps (see the module docstring): the whole command, all variants and thresholds
MAX_DEALS = 10**13         # simulate, table deal (summed over its runs), table convergence
MAX_HANDS = 5 * 10**10     # balance, table opening/tenpai (played hands)
MAX_MATCHES = 5 * 10**7    # match (one core, ~750 matches of 8 hands a second)
MAX_MATCH_HANDS = 10**4    # match --hands, --max-hands: hands in one match
MAX_SIMS = 5 * 10**10      # table waits --sims (numpy, one core, ~9×10⁵/s)
MAX_PLAY = 5 * 10**8       # table waits --play (one core, ~5×10³ hands/s)
MAX_POINTS = 100           # table convergence --points: rows of a figure, not a data dump

#: bytes per kept item, generous (peak while built, copies included), for the memory caps
BYTES_RECORD_HAND = 2048   # table opening/tenpai: kernel rows, features, the records frame
BYTES_BALANCE_ROW = 1024   # balance --rows: one sampled hand
BYTES_SAMPLE_ROW = 256     # simulate --sample-rows: one sampled deal
BYTES_MATCH = 2048         # match: one per-match row (a Python dict until the frame is built)


class CliError(Exception):
    """An expected failure on the command line: bad input or an unwritable path."""


class Repeatable(argparse.Action):
    """A list flag (``nargs="+"`` or ``"*"``) that a repeated flag extends: ``--from a --from b``
    is ``--from a b``. argparse's own ``store`` keeps only the last use (silently dropping the
    rest) and its ``extend`` appends to the default; here the first use replaces the default."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        have = getattr(namespace, self.dest, None)
        first = have is None or have is self.default  # argparse stores the default object itself
        setattr(namespace, self.dest, list(values) if first else [*have, *values])


def add_variants(q: argparse.ArgumentParser) -> None:
    """``--variants`` (repeatable, default guangxi-81), as the sweep commands take it."""
    q.add_argument("--variants", action=Repeatable, nargs="+", default=["guangxi-81"],
                   metavar="VARIANT", help="variant keys or TOML paths (default: guangxi-81)")


def add_thresholds(q: argparse.ArgumentParser) -> None:
    """``--thresholds`` (repeatable, default None: each variant's own 起胡, RULES.md §8)."""
    q.add_argument("--thresholds", type=int, action=Repeatable, nargs="+", default=None,
                   metavar="T", help="起胡 thresholds to sweep for every variant, e.g. 15 20 25 "
                   "30 (default: each variant's own)")


def at_least_one(n: int, flag: str) -> None:
    """A run of zero deals, hands or matches is a mistake on the command line (Python accepts
    ``n = 0`` and returns an empty summary); zero and negatives get the same message."""
    if n < 1:
        raise CliError(f"{flag} must be ≥ 1, got {n}")


def distinct_runs(runs: Iterable) -> None:
    """Refuse a command that asks for one rule set at one threshold twice (a variant or a
    threshold given twice): its rows could not be told apart, in the table or in a figure
    (``plot`` refuses such a file). ``runs``: the variants, each at its threshold."""
    seen: set[tuple[str, int]] = set()
    for v in runs:
        key = (v.rules_hash, v.win.threshold)
        if key in seen:
            raise CliError(f"{v.key} at threshold {v.win.threshold} is asked for twice: give "
                           "each variant and threshold once")
        seen.add(key)


def policy_arg(names):
    """An argparse ``type`` taking one of the bot ``names`` or ``MODULE:ATTR`` (a batch policy,
    ``play.external.load_batch_policy``, imported when the command runs)."""
    def check(text: str) -> str:
        if text in names or (":" in text and all(text.partition(":")[::2])):
            return text
        raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from "
                                         f"{', '.join(names)}, or MODULE:ATTR)")
    return check


def resolve_policy(policy: object, flag: str = "--policy"):
    """A bot name (or list) as it is, ``MODULE:ATTR`` as its batch policy
    (``play.external.resolve``); CliError naming ``flag`` when it cannot be loaded."""
    from zipai_sim.play.external import resolve

    try:
        return resolve(policy)
    except ValueError as e:
        raise CliError(f"{flag}: {e}") from None


def seed_arg(text: str) -> int:
    """argparse ``type`` of ``--seed``: a whole number in 0 … 2**64−1."""
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if not 0 <= seed <= MAX_CLI_SEED:
        raise argparse.ArgumentTypeError(
            f"must be in 0..2**64-1 ({MAX_CLI_SEED}), got {text}")
    return seed


def memory_bytes() -> int:
    """Physical memory of this machine, or 8 GiB where the OS does not say (Windows)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return 8 << 30


def memory_cap(bytes_each: int) -> int:
    """How many items of ``bytes_each`` fit in half of the physical memory."""
    return memory_bytes() // 2 // bytes_each


def check_cap(total: int, cap: int, flag: str, what: str, why: str, runs: int = 1) -> None:
    """Refuse ``total`` items (``what``: "deals", "hands" …) over ``cap``, naming ``flag``;
    ``runs`` > 1 says the total is the flag's value times that many runs."""
    if total <= cap:
        return
    times = f" × {runs} runs (variants × thresholds)" if runs > 1 else ""
    raise CliError(f"{flag}{times} asks for {total:,} {what}; at most {cap:,} ({why})")


def time_cap(total: int, cap: int, flag: str, what: str, runs: int = 1,
             cores: str = "64 cores") -> None:
    """``check_cap`` for a cap on time (module docstring): about a day on ``cores``."""
    check_cap(total, cap, flag, what, f"about a day of work on {cores}", runs)


def mem_cap(total: int, bytes_each: int, flag: str, what: str, runs: int = 1) -> None:
    """``check_cap`` for a cap on memory: ``total`` items of ``bytes_each`` kept at once."""
    gib = memory_bytes() / (1 << 30)
    check_cap(total, memory_cap(bytes_each), flag, what,
              f"they are kept in memory, about {bytes_each:,} bytes each, and this machine "
              f"has {gib:,.0f} GiB", runs)


def _is_path(name: str) -> bool:
    """The rule of ``variants.load_variant``: a name that is not a shipped key and ends in .toml
    or holds a path separator is a file."""
    from zipai_sim.game.variants import list_variants

    return name not in list_variants() and (name.endswith(".toml") or "/" in name
                                            or os.sep in name)


def check_variant_files(flag: str, names: Iterable[str] | str | None) -> None:
    """Refuse a ``--variant``/``--variants`` file that is not a regular file or is larger than
    1 MiB, before any work (``variants.read_variant_file`` checks it again as
    it reads, without blocking on a FIFO; ``variants.MAX_VARIANT_BYTES``)."""
    from zipai_sim.game.variants import VariantError, read_variant_file

    if names is None:
        return
    for name in [names] if isinstance(names, str) else names:
        if isinstance(name, str) and _is_path(name):
            try:
                read_variant_file(name)
            except VariantError as e:
                raise CliError(f"{flag} {e}") from None


def knob_arg(text: str) -> tuple[str, object]:
    """``--set KNOB=VALUE``: the knob's name and its value (``variants.knob_value``: TOML syntax,
    or else the text as a string)."""
    from zipai_sim.game.variants import knob_value

    name, eq, value = text.partition("=")
    if not eq or not name.strip() or not value.strip():
        raise argparse.ArgumentTypeError(
            f"--set takes KNOB=VALUE, e.g. settle.huangzhuang_dealer=-2, got {text!r}")
    return name.strip(), knob_value(value.strip())


def add_set(q: argparse.ArgumentParser) -> None:
    """``--set KNOB=VALUE`` (repeatable): a rule knob changed for this run."""
    q.add_argument("--set", dest="set", type=knob_arg, action="append", default=None,
                   metavar="KNOB=VALUE",
                   help="change a rule knob for this run: SECTION.KEY as in the variant's TOML "
                   "file, e.g. settle.huangzhuang_dealer=-2 (repeatable; checked as a file is; "
                   "the rules hash changes; docs/knobs.md lists the knobs)")


def load(a: argparse.Namespace, name: object):
    """The variant ``name`` (key, path or Variant) with the command's ``--set`` knobs applied
    (``variants.with_knobs``)."""
    from zipai_sim.game.variants import load_variant, with_knobs

    v = load_variant(name)
    sets = getattr(a, "set", None)
    return with_knobs(v, dict(sets)) if sets else v
