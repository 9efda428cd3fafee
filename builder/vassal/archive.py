"""Safe ZIP reading and deterministic, atomic ZIP writing.

Reading (:class:`SafeZip`) refuses, with a clear :class:`ArchiveError`:

* input that is not a ZIP (or is truncated so the central directory is gone);
* entry names that could escape a folder when extracted (zip-slip: absolute paths,
  ``..`` components, drive letters, backslashes, NUL);
* too many entries, entries or totals larger than the limits, and "bombs" (an
  entry whose inflated size is far larger than its compressed size). Sizes are enforced
  while inflating, not just taken from the (forgeable) headers.

Writing (:func:`write_zip_atomic`) produces byte-identical files for identical input:
fixed timestamps, fixed attributes, entries in the given order (or sorted), written to a
temporary file in the destination folder and moved into place with ``os.replace``.
"""

from __future__ import annotations

import io
import os
import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from builder.vassal.errors import ArchiveError, NotAZip
from builder.vassal.files import open_regular, read_regular

__all__ = [
    "Limits",
    "DEFAULT_LIMITS",
    "SafeZip",
    "check_entry_name",
    "zip_bytes",
    "write_zip_atomic",
    "FIXED_DATE_TIME",
]

FIXED_DATE_TIME = (1980, 1, 1, 0, 0, 0)


class Limits(NamedTuple):
    """Sizes a read refuses beyond (immutable; ``Limits(max_entry_size=...)`` to change one).
    A NamedTuple, not a dataclass: importing dataclasses (and the inspect module it loads) was a
    tenth of ``dump``'s start-up."""

    max_file_size: int = 2 * 1024**3           # size of the archive itself
    max_entries: int = 100_000
    max_entry_size: int = 512 * 1024**2         # inflated size of one entry
    max_total_size: int = 2 * 1024**3           # inflated size of all entries read
    max_ratio: int = 1_000                      # inflated / compressed, for entries > 1 MiB


DEFAULT_LIMITS = Limits()


def check_entry_name(name: str) -> str:
    """Return *name* if it is a safe relative archive path, else raise ArchiveError."""
    if not name or "\x00" in name:
        raise ArchiveError(f"unsafe entry name {name!r} (empty or NUL)")
    if "\\" in name:
        raise ArchiveError(f"unsafe entry name {name!r} (backslash)")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":"):
        raise ArchiveError(f"unsafe entry name {name!r} (absolute path)")
    parts = name.split("/")
    if any(p == ".." for p in parts):
        raise ArchiveError(f"unsafe entry name {name!r} (zip-slip: '..' component)")
    return name


class SafeZip:
    """A read-only view of a ZIP archive with safety checks (see module docstring)."""

    def __init__(self, source: str | os.PathLike | bytes, *, limits: Limits = DEFAULT_LIMITS,
                 what: str = "archive", stream: bool = False) -> None:
        """*stream*: read a path's entries from the open file as they are asked for instead of reading
        the whole file first (a long log: memory does not grow with its size); :meth:`close` it."""
        self.limits = limits
        self._read_total = 0
        self._file = None
        if isinstance(source, (bytes, bytearray, memoryview)):
            data = bytes(source)
            fh = io.BytesIO(data)
        elif stream:
            fh = self._file = open_regular(source, limits.max_file_size, what)
            data = fh.read(4)
            fh.seek(0)
        else:
            data = read_regular(source, limits.max_file_size, what)
            fh = io.BytesIO(data)
        try:
            self._open(fh, data, limits, what)
        except BaseException:
            self.close()
            raise

    def _open(self, fh, data: bytes, limits: Limits, what: str) -> None:
        if self._file is None and len(data) > limits.max_file_size:
            raise ArchiveError(f"{what} is too large ({len(data)} bytes)")
        if not data.startswith(b"PK"):
            raise NotAZip(f"not a ZIP archive (a VASSAL {what} is a ZIP file)")
        try:
            self._zip = zipfile.ZipFile(fh)
            infos = self._zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
            size = fh.seek(0, io.SEEK_END)
            fh.seek(max(0, size - 65_557))
            if data.startswith(b"PK\x03\x04") and b"PK\x05\x06" not in fh.read():
                raise ArchiveError(f"the file is truncated: the ZIP archive ends at byte {size} "
                                   f"with no central directory") from None
            raise ArchiveError(f"not a readable ZIP archive ({exc}); the file may be truncated") from None
        except Exception as exc:  # NotImplementedError (bogus version), struct.error, ...
            raise ArchiveError(f"not a readable ZIP archive ({type(exc).__name__}: {exc})") from None
        if len(infos) > limits.max_entries:
            raise ArchiveError(f"too many entries ({len(infos)}; limit {limits.max_entries})")
        for info in infos:
            check_entry_name(info.filename)
            if info.file_size > limits.max_entry_size:
                raise ArchiveError(f"entry {info.filename!r} is too large "
                                   f"({info.file_size} bytes; limit {limits.max_entry_size})")
            if info.flag_bits & 0x1:
                raise ArchiveError(f"entry {info.filename!r} is encrypted")
        self.infos = infos
        self._by_name: dict[str, zipfile.ZipInfo] = {}
        for info in infos:  # the first entry of a name wins, as with VASSAL's stream reader
            self._by_name.setdefault(info.filename, info)

    def close(self) -> None:
        """Close the file a streaming archive reads from (nothing to do for one read whole)."""
        f, self._file = self._file, None
        if f is not None:
            f.close()

    # -------------------------------------------------------------------------- queries
    def names(self) -> list[str]:
        return [i.filename for i in self.infos]

    def __contains__(self, name: str) -> bool:
        return name in self._by_name

    def info(self, name: str) -> zipfile.ZipInfo:
        try:
            return self._by_name[name]
        except KeyError:
            raise ArchiveError(f"entry {name!r} not found") from None

    def chunks(self, name: str, *, max_size: int | None = None, size: int = 1 << 20):
        """An entry's inflated bytes in chunks of *size*, with :meth:`read`'s limits (a long log is
        never held whole)."""
        info = self.info(name)
        limit = self.limits.max_entry_size if max_size is None else min(max_size, self.limits.max_entry_size)
        if info.file_size > limit:
            raise ArchiveError(f"entry {name!r} is too large ({info.file_size} bytes; limit {limit})")
        total = 0
        try:
            with self._zip.open(info) as fh:
                while True:
                    chunk = fh.read(size)
                    if not chunk:
                        break
                    total += len(chunk)
                    if total > limit:
                        raise ArchiveError(f"entry {name!r} inflates beyond {limit} bytes (zip bomb?)")
                    if (total > (1 << 20) and info.compress_size
                            and total / info.compress_size > self.limits.max_ratio):
                        raise ArchiveError(f"entry {name!r} has a compression ratio over "
                                           f"{self.limits.max_ratio}:1 (zip bomb?)")
                    yield chunk
        except ArchiveError:
            raise
        except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
            raise ArchiveError(f"entry {name!r} is corrupt or truncated ({exc})") from None
        except Exception as exc:  # zlib.error and friends
            raise ArchiveError(f"entry {name!r} is corrupt ({type(exc).__name__}: {exc})") from None
        self._read_total += total
        if self._read_total > self.limits.max_total_size:
            raise ArchiveError(f"archive inflates beyond {self.limits.max_total_size} bytes in total")

    def read(self, name: str, *, max_size: int | None = None) -> bytes:
        """Read one entry, enforcing size and ratio limits while inflating."""
        info = self.info(name)
        size = 1 << 20
        if info.compress_size and info.file_size <= self.limits.max_ratio * info.compress_size:
            # declared sizes within the ratio limit: one read (zipfile never inflates past the declared
            # size, which chunks() checks against the size limit first), no chunks to join
            size = max(size, info.file_size + 1)
        return b"".join(self.chunks(name, max_size=max_size, size=size))


# ------------------------------------------------------------------------------ writing

Entries = Mapping[str, bytes] | Iterable[tuple[str, bytes] | tuple[str, bytes, bool]]


def _entry_list(entries: Entries, sort: bool, compress: bool) -> list[tuple[str, bytes, bool]]:
    raw = list(entries.items()) if isinstance(entries, Mapping) else list(entries)
    items: list[tuple[str, bytes, bool]] = []
    seen: set[str] = set()
    for item in raw:
        name, data = item[0], item[1]
        deflate = bool(item[2]) if len(item) > 2 else compress
        check_entry_name(name)
        if name in seen:
            raise ArchiveError(f"duplicate entry name {name!r}")
        seen.add(name)
        if not isinstance(data, (bytes, bytearray)):
            raise TypeError(f"entry {name!r}: data must be bytes")
        items.append((name, bytes(data), deflate))
    if sort:
        items.sort(key=lambda kv: kv[0])
    return items


def zip_bytes(entries: Entries, *, sort: bool = False, compress: bool = True,
              compresslevel: int = 6) -> bytes:
    """Build a deterministic ZIP in memory: fixed timestamps and attributes, entries in the
    given (or sorted) order. An entry may be ``(name, data, deflate)`` to choose per entry
    (e.g. store already-compressed PNGs); otherwise *compress* applies."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data, deflate in _entry_list(entries, sort, compress):
            method = zipfile.ZIP_DEFLATED if deflate else zipfile.ZIP_STORED
            info = zipfile.ZipInfo(name, date_time=FIXED_DATE_TIME)
            info.compress_type = method
            info.create_system = 0
            info.external_attr = 0
            zf.writestr(info, data, compress_type=method, compresslevel=compresslevel if deflate else None)
    return buf.getvalue()


def write_zip_atomic(path: str | os.PathLike, entries: Entries, *, sort: bool = False,
                     compress: bool = True) -> Path:
    """Write *entries* ((name, bytes) pairs or a mapping) to *path* deterministically and atomically.

    The archive is built in a temporary file beside *path* and moved into place with
    ``os.replace``; on any error the destination is left untouched.
    """
    dest = Path(path)
    data = zip_bytes(entries, sort=sort, compress=compress)
    write_bytes_atomic(dest, data)
    return dest


def write_bytes_atomic(path: str | os.PathLike, data: bytes) -> None:
    """The one atomic writer of the whole project (builder.atomic.write_bytes: fsync, then rename;
    keeps the replaced file's mode), imported when something is written (reading never needs it)."""
    from builder.atomic import write_bytes
    write_bytes(path, data)
