"""One run per output path (issue 10 §3): while a command runs, each file it will write is locked
by ``NAME.lock`` beside it (created with ``O_CREAT | O_EXCL``, holding the run's pid, host and
command line), taken before any work and removed when the command ends, however it ends. A
second run asking for the same path is refused at once, naming the path and the other run; a
lock left by a run that is gone (its pid no longer alive on this host) is taken over, with a
note on stderr.

Locks are taken only inside ``output_locks()`` (``cli.app``): ``cli.outputs.check_out`` calls
``lock_output`` for every output it checks, which does nothing outside that block.

>>> lock_path(Path("runs/x.parquet")).name
'x.parquet.lock'
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from zipai_sim.cli.bounds import CliError

#: the locks this command holds (lock file paths), or None outside ``output_locks``
_held: list[Path] | None = None


def lock_path(path: Path) -> Path:
    """The lock file of output ``path``: ``NAME.lock`` beside it (``x.parquet.lock``), beside the
    file a symlink names, so that two spellings of one file share one lock."""
    real = Path(os.path.realpath(path))
    return real.with_name(real.name + ".lock")


@contextmanager
def output_locks() -> Iterator[None]:
    """Hold the locks ``lock_output`` takes inside the block; remove them all when it ends (a
    return, an error, Ctrl-C)."""
    global _held
    outer, _held = _held, []
    try:
        yield
    finally:
        held, _held = _held, outer
        for lock in reversed(held):
            try:
                os.unlink(lock)
            except OSError:
                pass


def _owner(lock: Path) -> tuple[int | None, str, str]:
    """(pid, host, command) written in ``lock``; pid None when it cannot be read (a lock being
    written this instant, or not one of ours)."""
    try:
        text = lock.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None, "", ""
    fields = dict(line.partition(" ")[::2] for line in text.splitlines())
    pid = fields.get("pid", "")
    return (int(pid) if pid.isdigit() else None), fields.get("host", ""), \
        fields.get("command", "")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    except OSError:
        return True
    return True


def _create(lock: Path) -> bool:
    """Create ``lock`` holding this run's pid, host and command; False if it exists."""
    from zipai_sim.runs.provenance import command

    try:
        fd = os.open(lock, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(f"pid {os.getpid()}\nhost {socket.gethostname()}\ncommand {command()}\n")
    return True


def lock_output(path: Path) -> None:
    """Lock output ``path`` for this command (inside ``output_locks``; otherwise nothing).
    Raises CliError when another live run holds it, or the lock cannot be made."""
    if _held is None:
        return
    lock = lock_path(path)
    if lock in _held:  # asked twice in one command: ``distinct_outputs`` says what is wrong
        return
    try:
        if not _create(lock):
            pid, host, cmd = _owner(lock)
            here = socket.gethostname()
            if pid is None or host not in ("", here) or _alive(pid):
                who = f"pid {pid}" if pid is not None else "another run"
                who += f" on {host}" if host not in ("", here) else ""
                raise CliError(
                    f"{path} is being written by another run ({who}"
                    + (f": {cmd}" if cmd else "") + f"); wait for it to end, or if no such "
                    f"run is going on, remove the stale lock {lock}")
            # the run that made it is gone: take the lock over, and say so
            print(f"zipai-sim: note: taking over the stale lock {lock} of pid {pid}, which is "
                  f"no longer running", file=sys.stderr)
            lock.unlink(missing_ok=True)
            if not _create(lock):  # another run took it over first
                pid, _, cmd = _owner(lock)
                raise CliError(f"{path} is being written by another run (pid {pid}"
                               + (f": {cmd}" if cmd else "") + f"); wait for it to end, or "
                               f"if no such run is going on, remove the stale lock {lock}")
    except OSError as e:
        raise CliError(f"cannot write {path}: cannot make its lock {lock}: "
                       f"{e.strerror or e}") from None
    _held.append(lock)
