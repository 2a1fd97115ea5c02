"""Reading small input files safely: only a regular file, only up to a size limit, and never
blocking (a FIFO or a device given by mistake is refused at once instead of read forever).

>>> read_small_file("/dev/zero", 1 << 20)
Traceback (most recent call last):
...
ValueError: /dev/zero is not a regular file (a character device)
"""

from __future__ import annotations

import os
import stat


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a file"


def read_small_file(path: str | os.PathLike, limit: int) -> str:
    """The UTF-8 text of ``path``, a regular file of at most ``limit`` bytes.

    The file is opened non-blocking (opening a FIFO would otherwise wait for a writer) and
    checked on the open descriptor, so what is read is what was checked. Raises ValueError for
    something that is not a regular file (folder, FIFO, device) or is larger than ``limit``;
    OSError when it cannot be opened; UnicodeDecodeError for text that is not UTF-8.
    """
    name = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(name, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{name} is not a regular file ({_kind(st.st_mode)})")
        if st.st_size > limit:
            raise ValueError(f"{name} is {st.st_size:,} bytes; at most {limit:,} are read")
        # one byte more than the limit tells a file that grew since the check
        data = b""
        while len(data) <= limit:
            chunk = os.read(fd, limit + 1 - len(data))
            if not chunk:
                break
            data += chunk
        if len(data) > limit:
            raise ValueError(f"{name} is over {limit:,} bytes; at most {limit:,} are read")
    finally:
        os.close(fd)
    return data.decode("utf-8")
