"""Reading an input file from disk: regular files only, never more than a size limit.

A device (``/dev/zero``) reports size 0 and never ends, a FIFO blocks on open or read: both are refused
before a byte is read. The file is opened non-blocking, checked with ``fstat`` on the open descriptor
(no race with a swapped path), and read up to its limit plus one byte, so a file growing while read is
caught too.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from builder.vassal.errors import VassalFormatError


class InputFileError(VassalFormatError):
    """The path cannot be read as an input: missing, a folder, a device or pipe, unreadable."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def regular_file_problem(path: str | os.PathLike) -> str | None:
    """Why ``path`` is not a readable regular file (without opening it), or None."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if not stat.S_ISREG(st.st_mode):
        kind = _kind(st.st_mode)
        return f"is {kind}, not a regular file" if kind.startswith("a") else "not a regular file"
    return None


def open_regular(path: str | os.PathLike, max_size: int, what: str = "file"):
    """``path`` opened for binary reading, checked as :func:`read_regular` checks it (a regular file of
    at most ``max_size`` bytes); for a reader that streams a large file instead of holding it."""
    fd = _open_checked(path, max_size, what)
    try:
        return os.fdopen(fd, "rb")
    except OSError as exc:
        os.close(fd)
        raise InputFileError(f"cannot read {what}: {exc.strerror or exc}") from None


def _open_checked(path: str | os.PathLike, max_size: int, what: str) -> int:
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise InputFileError(f"cannot read {what}: no such file") from None
    except OSError as exc:
        raise InputFileError(f"cannot read {what}: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise InputFileError(f"cannot read {what}: it is {_kind(st.st_mode)}, not a regular file")
        if st.st_size > max_size:
            raise InputFileError(f"{what} is too large ({st.st_size:,} bytes; limit {max_size:,})")
    except OSError as exc:
        os.close(fd)
        raise InputFileError(f"cannot read {what}: {exc.strerror or exc}") from None
    except InputFileError:
        os.close(fd)
        raise
    return fd


def read_regular(path: str | os.PathLike, max_size: int, what: str = "file") -> bytes:
    """The bytes of the regular file ``path``; InputFileError if it is not one, is unreadable or is larger
    than ``max_size`` bytes."""
    fd = _open_checked(path, max_size, what)
    try:
        with os.fdopen(fd, "rb", closefd=False) as fh:
            # read its size plus one byte (a read of max_size would allocate that much first), then on
            # up to the limit if the file grew while being read
            size = os.fstat(fd).st_size
            data = fh.read(size + 1)
            if len(data) > size:
                data += fh.read(max_size + 1 - len(data))
    except OSError as exc:
        raise InputFileError(f"cannot read {what}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > max_size:
        raise InputFileError(f"{what} is too large (over {max_size:,} bytes)")
    return data
