"""Atomic file output: write to a temporary file beside the target, then rename over it, so a failed
or interrupted build never leaves a half-written file over a good one. The one implementation every
writer uses (images, PDFs, buildFiles, saves, modules)."""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from pathlib import Path

TMP_MARK = "~"  # .NAME.PID~random.tmp: the writer's process id tells a stale temporary from a live one
_TMP_NAME = re.compile(r"\..+\.(\d+)~[^/]*\.tmp")


@contextlib.contextmanager
def atomic_path(target: Path):
    """Yield a temporary path in the target's folder; on success it replaces ``target``."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}{TMP_MARK}", suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        # mkstemp makes the file private (0600); give it the mode the target has or a new file would get.
        os.chmod(tmp, _target_mode(target))
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def clean_stale_temporaries(folder: Path, recursive: bool = True) -> int:
    """Remove the temporaries a killed writer left in ``folder`` (and below it when ``recursive``):
    ``.NAME.PID~XXXX.tmp`` whose process is gone; a live writer's are kept. Returns how many."""
    removed = 0
    folder = Path(folder)
    if not folder.is_dir():
        return 0
    for path in (folder.rglob if recursive else folder.glob)(".*.tmp"):
        m = _TMP_NAME.fullmatch(path.name)
        if not m or _alive(int(m.group(1))) or not path.is_file():
            continue
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
            removed += 1
    return removed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


def write_bytes(target: Path, data: bytes) -> None:
    with atomic_path(target) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())  # the rename must not land before the bytes do


def _target_mode(target: Path) -> int:
    """The mode of the file being replaced, else 0666 minus the process umask."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask
