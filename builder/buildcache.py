"""The build's content-addressed cache and its output writing.

Every output (a counter face at one size, a map image, the module, the sheets PDF) is stored under
a key: a hash of exactly what it is made from (the data it reads, the layout, the fonts, and a hash
of the source files of the code that makes it, so a changed renderer invalidates its outputs). An
output whose key is cached is neither rendered nor rewritten. Each entry carries the SHA-256 of its
bytes and is verified on every read: a corrupt or truncated entry is dropped and rebuilt, never used.

The cache lives in ``<out>/.cache/`` (beside the games' folders, so it survives between runs and
goes away with the output). Build steps reach it through :func:`current`, which outside a
``build`` is a context without a cache (everything rendered, one process).
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
CACHE_DIR = ".cache"
CAN_FORK = hasattr(os, "fork")   # without fork (Windows) everything is drawn in this process


# ------------------------------------------------------------------------------------ keys

def _jsonable(obj):
    return str(obj)   # dates and other YAML scalars: their text is what the data says


def canonical(obj) -> bytes:
    """A stable byte form of data (mappings in key order), for hashing."""
    return json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":"),
                      default=_jsonable).encode()


def digest(*parts) -> str:
    """SHA-256 (hex) of parts: bytes as they are, anything else in its canonical form."""
    h = hashlib.sha256()
    for p in parts:
        b = p if isinstance(p, bytes) else canonical(p)
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


@lru_cache(maxsize=None)
def source_version(*names: str) -> str:
    """Hash of the files (sources, fonts) under the named parts of the ``builder`` package
    (folders or files, relative to it): the version of the code that makes an output."""
    h = hashlib.sha256()
    for name in names:
        base = PACKAGE / name
        files = sorted(p for p in base.rglob("*") if p.is_file() and "__pycache__" not in p.parts) \
            if base.is_dir() else [base]
        for p in files:
            h.update(str(p.relative_to(PACKAGE)).encode() + b"\0")
            h.update(p.read_bytes())
    return h.hexdigest()


# ----------------------------------------------------------------------------------- store

class Cache:
    """Verified content store: key -> bytes, with the SHA-256 of the bytes checked on every read.

    One SQLite file (``sqlite3`` of the standard library) rather than a file per entry: a cold
    build stores a thousand faces in one transaction instead of creating a thousand files. A
    damaged database is a cold cache, never an error of the build.

    What a run stores is kept in memory and written at :meth:`flush` (the build has the bytes in
    memory anyway): until then the run holds no write lock, so a build step in a child process
    (builder.background) reads the database meanwhile without waiting, and :meth:`detach` can let
    go of the connection before a fork without writing anything."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self.dropped = 0          # corrupt entries found in this run (removed at flush)
        self._db = None
        self._pending: dict[str, bytes] = {}   # stored in this run, written at flush
        self._bad: set[str] = set()            # corrupt keys found, deleted at flush

    def _conn(self):
        if self._db is None:
            import sqlite3
            self.path.parent.mkdir(parents=True, exist_ok=True)
            for attempt in (1, 2):
                try:
                    db = sqlite3.connect(self.path)
                    # no fsync at commit: a torn entry fails its hash, a torn database is rebuilt
                    db.execute("PRAGMA synchronous = OFF")
                    db.execute("CREATE TABLE IF NOT EXISTS entries "
                               "(key TEXT PRIMARY KEY, sha BLOB NOT NULL, data BLOB NOT NULL)")
                    db.commit()
                    self._db = db
                    break
                except sqlite3.DatabaseError:   # not a database any more: start a new one
                    with contextlib.suppress(Exception):
                        db.close()
                    with contextlib.suppress(OSError):
                        self.path.unlink()
                    if attempt == 2:
                        raise
        return self._db

    def get(self, key: str) -> bytes | None:
        import sqlite3
        data = self._pending.get(key)
        if data is not None or key in self._bad:
            return data
        try:
            row = self._conn().execute("SELECT sha, data FROM entries WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error:
            return None
        if row is None:
            return None
        sha, data = row
        if hashlib.sha256(data).digest() != sha:
            self.dropped += 1
            self._bad.add(key)
            return None
        return bytes(data)

    def put(self, key: str, data: bytes) -> None:
        self._pending[key] = data
        self._bad.discard(key)

    def flush(self) -> None:
        """Write and commit what this run stored (a crash before it only loses cache entries)."""
        import sqlite3
        if not self._pending and not self._bad:
            return
        with contextlib.suppress(sqlite3.Error):    # a cache that cannot be written is only slower
            db = self._conn()
            db.executemany("DELETE FROM entries WHERE key = ?", [(k,) for k in sorted(self._bad)])
            db.executemany("INSERT OR REPLACE INTO entries VALUES (?, ?, ?)",
                           [(k, hashlib.sha256(v).digest(), v) for k, v in self._pending.items()])
            db.commit()
        self._pending.clear()
        self._bad.clear()

    def detach(self) -> None:
        """Close the connection, keeping what is not written yet (before a fork: a connection
        must not cross one); the next read or flush opens a new one."""
        if self._db is not None:
            with contextlib.suppress(Exception):
                self._db.close()
            self._db = None

    def close(self) -> None:
        self.flush()
        self.detach()


@dataclass
class Context:
    """What the build steps share in one run: the cache, the number of worker processes, what
    was rebuilt and reused, and images already made in this process (render once, use twice)."""

    cache: Cache | None = None
    jobs: int = 1
    loose: bool = False      # writing into a staged folder (write_loose) rather than in place
    rebuilt: dict = field(default_factory=dict)    # kind -> count
    reused: dict = field(default_factory=dict)
    memo: dict = field(default_factory=dict)       # key -> bytes made or read in this run
    inputs: list = field(default_factory=list)     # the game's data files (for the manifest)
    files: dict = field(default_factory=dict)      # path -> bytes of every file written in this run
    known: dict = field(default_factory=dict)      # staged path -> (sha, stamp) the last build recorded
    writer: "LooseWriter | None" = None            # writes a staged folder's files in the background
    written: dict = field(default_factory=dict)    # final path -> bytes, once the staged folder is in place
    # in a step run in a child process (builder.background): what it would write and store, kept for the parent
    capture: dict | None = None
    stored: dict | None = None
    beside: dict = field(default_factory=dict)     # path -> bytes to write outside the staged folder, at the end
    prepared: dict = field(default_factory=dict)   # step -> what its prepare() made beforehand (builder.background)
    restore_from: tuple | None = None              # (staged folder, the folder it replaces): see unwrite
    faces: bool = True       # counter faces written as loose files (build --faces); else only held for the module
    held: dict = field(default_factory=dict)       # path -> bytes a later step reads that is not written (hold)
    derived: dict = field(default_factory=dict)    # what steps work out of the game more than once (face keys)

    def lookup(self, key: str) -> bytes | None:
        data = self.memo.get(key)
        if data is None and self.cache is not None:
            data = self.cache.get(key)
            if data is not None:
                self.memo[key] = data
        return data

    def store(self, key: str, data: bytes) -> None:
        self.memo[key] = data
        if self.stored is not None:
            self.stored[key] = data
        elif self.cache is not None:
            self.cache.put(key, data)

    def count(self, kind: str, rebuilt: int = 0, reused: int = 0) -> None:
        if rebuilt:
            self.rebuilt[kind] = self.rebuilt.get(kind, 0) + rebuilt
        if reused:
            self.reused[kind] = self.reused.get(kind, 0) + reused

    def summary(self) -> str:
        """What was rebuilt and what reused, e.g. 'rebuilt 2 counter faces, 1 module; reused ...'."""
        from builder.words import count

        def part(counts):   # kinds are singular nouns
            return ", ".join(count(n, kind) for kind, n in counts.items()) or "nothing"
        text = f"rebuilt {part(self.rebuilt)}; reused {part(self.reused)}"
        if self.cache is not None and self.cache.dropped:
            text += f" ({self.cache.dropped} corrupt cache entr{'y' if self.cache.dropped == 1 else 'ies'} dropped)"
        return text

    def write(self, path: Path, data: bytes) -> None:
        """Write one output file: in a staged folder without fsync, only if it changed and on the
        background writer when there is one (see :meth:`finish_writing`), otherwise atomically
        (builder.atomic)."""
        path = Path(path)
        self.files[path] = data
        if self.capture is not None:
            self.capture[path] = data
        elif not self.loose:
            from builder.atomic import write_bytes
            write_bytes(path, data)
        elif self.writer is not None:
            self.writer.put(path, data, self.known.get(path))
        else:
            write_loose(path, data, self.known.get(path))

    def hold(self, path: Path, data: bytes) -> None:
        """A file a later step of this run reads (:meth:`read`) but the build does not write: the
        module's counter faces when loose faces are not asked for (they are inside the module)."""
        self.held[Path(path)] = data

    @property
    def can_unwrite(self) -> bool:
        """Whether :meth:`unwrite` can put back what the previous output had (a staged build, or a
        step in a child whose writes are only kept); elsewhere files are replaced in place."""
        return self.restore_from is not None or self.capture is not None

    def unwrite(self, paths: list) -> None:
        """Take back files this run wrote (a step that failed half-way): each is as the previous
        output had it (linked back from ``restore_from``, the folder being replaced), or gone."""
        if self.writer is not None:
            self.writer.drain()
        for path in map(Path, paths):
            self.files.pop(path, None)
            if self.capture is not None:
                self.capture.pop(path, None)
                continue
            if not self.loose:
                continue    # written atomically in place: there is nothing older to put back
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)
            if self.restore_from is not None:
                stage, target = self.restore_from
                with contextlib.suppress(OSError, ValueError):
                    os.link(target / path.relative_to(stage), path)

    def write_beside(self, path: Path, data: bytes) -> None:
        """An output outside the game's staged folder (the sheets PDF beside it): written
        atomically by the build once the folder is in place, so a build that fails on the way
        leaves the previous file."""
        self.beside[Path(path)] = data

    def map(self, fn, tasks: list, chunksize: int = 1):
        """``fn`` over ``tasks``, the results in order (a generator): in ``min(jobs, len(tasks))``
        forked worker processes when there is more than one task, else in this process. What ``fn``
        reads must be set up before the first result is asked for (the workers are forked then).

        An exception a task raises is raised here. A worker that dies (killed, out of memory) is a
        BuildError, never a hang: concurrent.futures' process pool notices a lost worker, where
        multiprocessing.Pool waits for its result for ever (and its terminate can block on a
        task queue still full). After an error the tasks not started are cancelled."""
        if len(tasks) < 2 or self.jobs < 2 or not CAN_FORK:
            yield from map(fn, tasks)
            return
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        from builder.errors import BuildError
        # the background writer goes on meanwhile: a lock it holds at a fork stays held in the worker,
        # but a worker only draws, and never touches the writer, its queue or the files it writes
        pool = ProcessPoolExecutor(min(self.jobs, len(tasks)), mp_context=multiprocessing.get_context("fork"))
        try:
            yield from pool.map(fn, tasks, chunksize=chunksize)
        except BrokenProcessPool:
            raise BuildError("a worker process stopped before it finished (killed, or out of memory?)") from None
        finally:
            pool.shutdown(wait=True, cancel_futures=True)

    def finish_writing(self, abandon: bool = False) -> None:
        """Wait for the background writer; raises the OSError of the first file it could not
        write. ``abandon``: the build failed, drop what is not written yet."""
        if self.writer is not None:
            writer, self.writer = self.writer, None
            writer.finish(abandon)

    def read(self, path: Path) -> bytes:
        """A file's bytes: as this run wrote it (a later step gets an earlier step's images from
        memory, not from the disk), else from the disk."""
        data = self.files.get(Path(path))
        if data is None:
            data = self.held.get(Path(path))
        return data if data is not None else Path(path).read_bytes()

    def cached(self, kind: str | None, key: str, make) -> bytes:
        """The bytes under ``key``, made by ``make()`` (and stored) only when not cached; counted
        under ``kind`` in the summary unless it is None (a part of an output, not an output)."""
        data = self.lookup(key)
        if data is not None:
            if kind:
                self.count(kind, reused=1)
            return data
        data = make()
        self.store(key, data)
        if kind:
            self.count(kind, rebuilt=1)
        return data


_CURRENT: list[Context] = []


def current() -> Context:
    """The running build's context; outside a build, one without a cache, in one process."""
    return _CURRENT[-1] if _CURRENT else Context()


@contextlib.contextmanager
def running(ctx: Context):
    _CURRENT.append(ctx)
    try:
        yield ctx
    finally:
        _CURRENT.pop()


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


# ---------------------------------------------------------------------------- output files

def write_loose(path: Path, data: bytes, known: tuple | None = None) -> bool:
    """Write one file of a staged output folder (see :func:`staged_dir`): nothing when it already
    holds these bytes, else a new file (never in place: it may be a hard link to the previous
    output). No fsync: the folder appears as a whole. ``known``: the (SHA-256, stamp) the last
    build recorded for this file; a file with that stamp is known by its hash, not read again.
    Returns whether it wrote."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None:
        if st.st_size == len(data):
            if known is not None and known[1] == [st.st_size, st.st_mtime_ns, st.st_ino]:
                same = known[0] == hashlib.sha256(data).hexdigest()
            else:
                same = Path(path).read_bytes() == data
            if same:
                return False
        os.unlink(path)
    try:
        fh = open(path, "wb")
    except FileNotFoundError:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        fh = open(path, "wb")
    with fh:
        fh.write(data)
    return True


class LooseWriter:
    """Writes a staged folder's files on one background thread, in the order given: opening and
    writing files releases the GIL, so the build goes on drawing and packaging meanwhile (a build
    writes thousands of small images, and creating a file is slow on a busy disk). After the first
    error nothing more is written; :meth:`finish` raises it."""

    def __init__(self):
        import queue
        import threading
        self._queue = queue.Queue()
        self._error: OSError | None = None
        self._abandoned = False
        self._thread = threading.Thread(target=self._run, name="loose-writer", daemon=True)
        self._thread.start()

    def put(self, path: Path, data: bytes, known: tuple | None = None) -> None:
        self._queue.put((path, data, known))

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            if self._error is None and not self._abandoned:
                try:
                    write_loose(*item)
                except OSError as exc:
                    self._error = exc
            self._queue.task_done()

    def drain(self) -> None:
        """Wait until everything put so far is written (or skipped after an error)."""
        self._queue.join()

    def finish(self, abandon: bool = False) -> None:
        """Wait for the thread; ``abandon``: what is not written yet is not written (the build
        failed and its staged folder goes)."""
        self._abandoned = abandon
        self._queue.put(None)
        self._thread.join()
        if self._error is not None and not abandon:
            raise self._error


_RENAME_EXCHANGE = 2


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux renameat2 RENAME_EXCHANGE); False where unavailable."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    AT_FDCWD = -100
    return fn(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0


@contextlib.contextmanager
def staged_dir(target: Path):
    """Yield a temporary sibling of ``target`` that starts as a copy of it (hard links: nothing
    is rewritten); on success it takes target's place at once, on failure it is removed and
    target is untouched. A failed or interrupted build never leaves a half-written folder."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_dead_stages(target)
    stage = Path(tempfile.mkdtemp(prefix=f".{target.name}.{os.getpid()}~", suffix=".tmp", dir=target.parent))
    try:
        if target.is_dir():
            shutil.copytree(target, stage, copy_function=os.link, dirs_exist_ok=True)
        yield stage
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    os.chmod(stage, 0o777 & ~_umask())
    if target.is_dir() and _exchange(stage, target):
        shutil.rmtree(stage, ignore_errors=True)          # now the previous output
        return
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
        os.rmdir(old)
        os.replace(target, old)
        os.replace(stage, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(stage, target)


def _remove_dead_stages(target: Path) -> None:
    """Staged folders a killed build left beside target (``.NAME.PID~XXXX.tmp``, PID gone)."""
    from builder.atomic import _TMP_NAME, _alive

    for path in target.parent.glob(f".{target.name}.*.tmp"):
        m = _TMP_NAME.fullmatch(path.name)
        if m and path.is_dir() and not _alive(int(m.group(1))):
            shutil.rmtree(path, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# ------------------------------------------------------------------------------- manifest

def game_inputs(sources, report) -> list[Path]:
    """The data files a game was built from: its counter files and its map's files."""
    from builder.gamedata.sources import resolve_map

    files = set(sources.counter_files)
    if report.model is not None:
        files |= set(resolve_map(report.model.doc, sources) or ())
    return sorted(files)


class Manifest:
    """The record of a game's last complete build: a key over everything it was made from (the
    tool's own files, the schemas, the game's data files, the steps) and the SHA-256 of every
    file it wrote. When the key is the same and every file still has its hash, nothing changed:
    the build is answered without validating or rendering anything."""

    def __init__(self, out_root: Path, sources, steps: list[str], options: list[str] = ()):
        self.out_root = Path(out_root)
        self.steps = list(steps)
        # in the key, not the name: a build with other options replaces what this record describes
        self.options = list(options)
        self.sources = sources
        self.path = None
        if sources is not None:
            name = digest([str(p) for p in sources.counter_files], self.steps)[:32]
            self.path = self.out_root / CACHE_DIR / "manifests" / f"{name}.json"

    def _key(self, inputs: list[str]) -> str:
        from builder.shipped import SCHEMA_DIR
        return digest("build-manifest", source_version("."), _folder_version(SCHEMA_DIR), self.steps, self.options,
                      [str(p) for p in self.sources.counter_files], [(p, file_digest(Path(p))) for p in inputs])

    def unchanged(self) -> tuple[str, list[str]] | None:
        """(game id, output paths) when nothing changed since the recorded build, else None."""
        if self.path is None:
            return None
        try:
            m = json.loads(self.path.read_text())
            if m["key"] != self._key(m["inputs"]):
                return None
            for rel, (sha, stamp) in m["outputs"].items():
                # a file with the size, time and inode it was written with is what was written;
                # any other is hashed and must still be the bytes written
                path = self.out_root / rel
                if _stamp(path) != stamp and file_digest(path) != sha:
                    return None
            return m["game"], [str(self.out_root / rel) for rel in m["outputs"]]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def recorded_outputs(self) -> dict[str, tuple]:
        """{path relative to the output root: (SHA-256, stamp)} of the last recorded build."""
        try:
            return {rel: tuple(v) for rel, v in json.loads(self.path.read_text())["outputs"].items()}
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return {}

    def record(self, game_id: str, inputs: list[Path], written: list[Path], contents: dict | None = None) -> None:
        """``contents``: {path: bytes} of files this run wrote, hashed from memory rather than read back."""
        if self.path is None:
            return
        contents = contents or {}
        ins = sorted({str(Path(p).resolve()) for p in [*self.sources.counter_files, *inputs]})
        outputs = {os.path.relpath(p, self.out_root): (digest_bytes(contents[p]) if p in contents
                                                       else file_digest(Path(p)), _stamp(Path(p))) for p in written}
        data = json.dumps({"game": game_id, "key": self._key(ins), "inputs": ins, "outputs": outputs},
                          indent=1, sort_keys=True).encode()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=self.path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, self.path)


def _stamp(path: Path) -> list | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns, st.st_ino]


def _folder_version(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(Path(folder).glob("*")) if Path(folder).is_dir() else []:
        if p.is_file():
            h.update(p.name.encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def digest_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def file_digest(path: Path) -> str | None:
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()
    except OSError:
        return None
