"""Where a bot's data file is found: a folder named by an environment variable first, then the
package's shipped file (the learned bot's weights, ``play.learned``; the neural bot's models,
``play.neural``)."""

from __future__ import annotations

import os
from pathlib import Path


def locate(env: str, name: str, shipped: Path, files: str) -> Path | None:
    """The data file ``name`` in the folder the environment variable ``env`` names, if it is
    there, else ``shipped`` if it exists, else None. Raises ValueError when ``env`` is set but
    names no folder (a typo would otherwise play the shipped file without a word); ``files``
    says what the folder holds, for the message."""
    d = os.environ.get(env)
    if d:
        if not Path(d).is_dir():
            raise ValueError(f"{env}={d} is not a folder: it names the folder of {files} read "
                             f"before the shipped ones; unset it to play the shipped ones")
        q = Path(d) / name
        if q.is_file():
            return q
    return shipped if shipped.is_file() else None
