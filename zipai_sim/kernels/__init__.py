"""Numba kernels: numpy arrays and the variant's integer tuple in, numpy arrays out.

Nothing here validates input; the public API of the packages above (``zipai_sim.deals``,
``zipai_sim.play``, ...) does. Every kernel has a slow
pure-Python twin in ``zipai_sim.game.reference`` that the tests compare it against.

Numba's on-disk cache checks only the source file of the cached function itself, so a kernel
that inlines or calls code from another file keeps its old machine code when only that other
file changes (an edited ``hand.py`` under a cached ``opening.py``). On import, the cache files
of the package are dropped whenever any kernel source differs from the last import's.
"""

import hashlib
import os
from pathlib import Path

_PKG = Path(__file__).resolve().parent.parent


def _sources() -> list[Path]:
    """Every file whose code or constants end up in cached machine code: the kernels and what
    they import from outside ``kernels`` (tests/test_architecture.py keeps this list whole)."""
    return sorted(list(Path(__file__).resolve().parent.rglob("*.py"))
                  + [_PKG / "game" / "params.py", _PKG / "game" / "cards.py"])


def drop_stale_caches(pkg: Path, sources: list[Path], stamp: Path) -> bool:
    """Delete numba's cache files (``*.nbi``, ``*.nbc``) under ``pkg`` unless ``sources`` hash
    to the digest kept in ``stamp``; then keep the new digest. Returns whether it deleted."""
    digest = hashlib.sha1()
    for f in sources:
        digest.update(str(f.relative_to(pkg)).encode())
        digest.update(f.read_bytes())
    want = digest.hexdigest()
    try:
        if stamp.read_text() == want:
            return False
    except OSError:
        pass
    try:
        for f in pkg.rglob("__pycache__/*.nb[ic]"):
            f.unlink(missing_ok=True)
        stamp.parent.mkdir(exist_ok=True)
        tmp = stamp.with_name(f"{stamp.name}.{os.getpid()}.tmp")
        tmp.write_text(want)
        os.replace(tmp, stamp)
    except OSError:
        pass  # a read-only install: its caches were written by the same sources
    return True


drop_stale_caches(_PKG, _sources(),
                  Path(__file__).resolve().parent / "__pycache__" / "kernel-sources.sha1")
