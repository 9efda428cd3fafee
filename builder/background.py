"""Run a build step in a forked child process while this process runs the next one.

A build's steps are mostly independent: the map and the counters need nothing of each other, the
sheets PDF nothing of the module. Run one after the other, a core idles whenever a step works in
this process alone (EotID's single board is drawn here; the module is packaged here). So a step the
next one does not need runs in a child (forked: it starts with everything this process knows, the
validated game, the images made so far), and this process goes straight on.

The child changes nothing itself. What it would have written, stored in the cache and counted, its
progress notes and its result come back through a pipe when this process needs the step
(:meth:`StepInChild.join`), and are written, stored, counted and printed here then, as if the step
had run here: outputs, the cache and the summary are the same as a one-process build's. An error
the step raised (BuildError, OSError) is raised by ``join``; a child that dies is a BuildError.

The cache's SQLite connection must not cross a fork (SQLite keeps per-process lock state): it is
closed before the fork, and each process opens its own afterwards. A build writes the cache only
at its end (buildcache.Cache), so the child's reads never wait for a lock this process holds.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import traceback

from builder import buildcache
from builder.errors import BuildError

DIED = "a worker process stopped before it finished (killed, or out of memory?)"
AVAILABLE = buildcache.CAN_FORK   # where there is no fork (Windows) the steps run one after the other


class _Notes:
    """A child's progress: its notes kept for the parent to print; its step counts dropped (two
    steps updating one progress line would garble it)."""

    enabled = True

    def __init__(self):
        self.notes: list[str] = []

    def note(self, text: str) -> None:
        self.notes.append(text)

    def step(self, label: str, done: int, total: int) -> None:
        pass


class StepInChild:
    """``run(progress) -> list[Path]`` started in a forked child of this build; :meth:`join` gives its result."""

    def __init__(self, ctx: buildcache.Context, run):
        self.ctx = ctx
        # the background writer may go on writing meanwhile: the child never touches it (a lock the
        # thread holds at the fork stays held in the child, on objects the child does not use)
        if ctx.cache is not None:
            ctx.cache.detach()          # each process opens its own connection (nothing is written before the end)
        sys.stdout.flush()
        sys.stderr.flush()
        # the parent's summary lists the step's counts where the step stands in the build
        self._marks = (len(ctx.rebuilt), len(ctx.reused))
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:                    # the child: run, report, and leave without clean-up of the parent's objects
            os.close(read)
            try:
                _child(ctx, run, write)
            finally:
                os._exit(0)
        os.close(write)
        self.pid, self._read = pid, read

    def join(self, progress) -> list:
        """Wait for the step; write, store, count and print what it made; its paths.
        Raises what the step raised."""
        chunks = []
        with os.fdopen(self._read, "rb") as fh:
            self._read = None
            while chunk := fh.read(1 << 20):
                chunks.append(chunk)
        os.waitpid(self.pid, 0)
        self.pid = None
        if not chunks:
            raise BuildError(DIED)
        try:
            report = pickle.loads(b"".join(chunks))
        except Exception:   # noqa: BLE001 - cut short: the child died while it wrote
            raise BuildError(DIED) from None
        for text in report["notes"]:
            progress.note(text)
        ctx = self.ctx
        for key, data in report["stored"].items():
            ctx.store(key, data)
        for path, data in report["files"].items():
            ctx.write(path, data)
        for path, data in report["held"].items():
            ctx.hold(path, data)
        for path, data in report["beside"].items():
            ctx.write_beside(path, data)
        ctx.rebuilt = _merged(ctx.rebuilt, report["rebuilt"], self._marks[0])
        ctx.reused = _merged(ctx.reused, report["reused"], self._marks[1])
        if ctx.cache is not None:
            ctx.cache.dropped += report["dropped"]
        if "error" in report:
            raise report["error"]
        if "crash" in report:
            raise RuntimeError(f"a build step failed in its worker process:\n{report['crash']}")
        return report["result"]

    def abandon(self) -> None:
        """The build stops (an error, Ctrl-C): the child is stopped and nothing of it is used."""
        if self.pid is not None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self.pid = None
        if self._read is not None:
            os.close(self._read)
            self._read = None


def _merged(counts: dict, extra: dict, at: int) -> dict:
    """counts with extra's counts added, new kinds placed after the first ``at`` kinds."""
    items = list(counts.items())
    head, tail = dict(items[:at]), dict(items[at:])
    for kind, n in extra.items():
        if kind in head:
            head[kind] += n
        elif kind in tail:
            tail[kind] += n
        else:
            head[kind] = n
    return {**head, **tail}


def _child(parent: buildcache.Context, run, fd: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)   # Ctrl-C: the parent reports it, the child just goes
    ctx = buildcache.Context(cache=buildcache.Cache(parent.cache.path) if parent.cache is not None else None,
                             jobs=parent.jobs, loose=parent.loose, memo=parent.memo, inputs=parent.inputs,
                             files=dict(parent.files), known=parent.known, prepared=dict(parent.prepared),
                             faces=parent.faces, held=dict(parent.held), derived=parent.derived,
                             capture={}, stored={})
    notes = _Notes()
    report = {"notes": notes.notes}
    try:
        with buildcache.running(ctx):
            report["result"] = run(notes)
    except (BuildError, OSError) as exc:
        report["error"] = exc
    except BaseException:   # noqa: BLE001 - a bug: its traceback goes to the parent, which stops
        report["crash"] = traceback.format_exc()
    report.update(files=ctx.capture, held={p: d for p, d in ctx.held.items() if p not in parent.held},
                  stored=ctx.stored, beside=ctx.beside, rebuilt=ctx.rebuilt, reused=ctx.reused,
                  dropped=ctx.cache.dropped if ctx.cache is not None else 0)
    try:
        data = pickle.dumps(report, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:   # noqa: BLE001 - an exception that cannot be pickled: its text then
        report.pop("error", None)
        report["crash"] = traceback.format_exc()
        data = pickle.dumps(report, protocol=pickle.HIGHEST_PROTOCOL)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
