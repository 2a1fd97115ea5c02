"""Library errors in the words of the command line: parameter names become the flags that set
them."""

from __future__ import annotations

import re

#: library parameters and the command-line flags that set them, so that an error raised by the
#: library under a command names the flag the user typed (``first_dealer`` → ``--first-dealer``)
FLAGS = {"first_dealer": "--first-dealer", "max_hands": "--max-hands", "chunk_size":
         "--chunk-size", "sample_per_chunk": "--sample-rows", "own_draws": "--own-draws",
         "threads": "--threads", "seed": "--seed", "hands": "--hands", "target": "--target",
         "matches": "--matches", "sims": "--sims", "play": "--play", "stock": "--stock",
         "discards": "--discards", "seat": "--seat", "step": "--step", "points": "--points",
         "start": "--start", "metric": "--metric", "rows": "--rows", "deal": "--deal",
         "bins": "--bin", "thresholds": "--thresholds", "per": "--per", "worlds": "--worlds",
         "policy": "--policy"}
# not after a dot: ``[layout].stock`` names a variant file's key, not a flag
_PARAM = re.compile(r"(?<![\w.-])(" + "|".join(FLAGS) + r")\b(?= (must|and|is|\(|'))")


def flag_message(message: str) -> str:
    """A library error as the command line shows it: parameter names that open a complaint
    (``max_hands must be ≥ 8``) become flags (``--max-hands must be ≥ 8``).

    >>> flag_message("first_dealer must be a player 0..2 or 'rotate', got 7")
    "--first-dealer must be a player 0..2 or 'rotate', got 7"
    >>> flag_message("my.toml: [layout].stock must be an integer in 0..80, got -1")
    'my.toml: [layout].stock must be an integer in 0..80, got -1'
    """
    return _PARAM.sub(lambda m: FLAGS[m.group(1)], message)
