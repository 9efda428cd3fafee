"""The findings of one audit, in order, without holding them all in memory.

A log of a million commands can break rules a quarter of a million times; an audit keeps its memory flat
by holding the first :data:`KEEP` findings as objects and writing later ones, in compressed batches, to an
anonymous temporary file (deleted when the log is) that is read back whenever the findings are iterated.
Counts by rule are kept as findings arrive. A batch of plain findings (builder.audit.report.Finding, whose
fields are strings, numbers and the lists and dicts of their working) is written with :mod:`marshal`, several
times faster than pickle for that; anything else is pickled. It behaves as a list for what readers do with one: ``len``,
truth, iteration, indexing (near the start, and ``[-1]``), ``== []``, ``append``/``extend``; a copy of it
pickles whole (worker processes send their results so).
"""

from __future__ import annotations

import marshal
import pickle
import tempfile
import zlib

KEEP = 2000          # findings held as objects (every report of a short log)
BATCH = 500          # findings per compressed block in the file
_PICKLED, _MARSHALLED = b"p", b"m"   # how a block is written


class FindingLog:
    def __init__(self, items=(), keep: int = KEEP) -> None:
        self.keep = keep
        self.counts: dict = {}          # rule id -> findings
        self.command_base = None        # set when the replay ends: a finding's command = base + its entry
        self._head: list = []
        self._batch: list = []          # written when full, at the next append (the newest stays editable)
        self._file = None
        self._spilled = 0
        self.extend(items)

    # ------------------------------------------------------------------ adding
    def append(self, finding) -> None:
        self.counts[finding.rule] = self.counts.get(finding.rule, 0) + 1
        if len(self._head) < self.keep and not self._spilled and not self._batch:
            self._head.append(finding)
            return
        if len(self._batch) >= BATCH:
            self._flush()
        self._batch.append(finding)

    def extend(self, items) -> None:
        for f in items:
            self.append(f)

    def _flush(self) -> None:
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="vassal-builder-audit-")
        kind, data = _dump(self._batch)
        block = kind + zlib.compress(data, 1)
        self._file.seek(0, 2)
        self._file.write(len(block).to_bytes(8, "little") + block)
        self._spilled += len(self._batch)
        self._batch = []

    # ------------------------------------------------------------------ reading
    def _spilled_items(self):
        f = self._file
        if f is None:
            return
        f.seek(0)
        left = self._spilled
        while left > 0:
            size = int.from_bytes(f.read(8), "little")
            block = f.read(size)
            batch = _load(block[:1], zlib.decompress(block[1:]))
            left -= len(batch)
            yield from batch

    def __iter__(self):
        base = self.command_base
        yield from self._head
        for group in (self._spilled_items(), list(self._batch)):
            for x in group:
                if base is not None and not x.command:
                    x.command = base + x.entry
                yield x

    def __len__(self) -> int:
        return len(self._head) + self._spilled + len(self._batch)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __getitem__(self, i):
        if isinstance(i, slice):
            return list(self)[i]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("finding index out of range")
        if i < len(self._head):
            return self._head[i]
        if i >= n - len(self._batch):
            return self._batch[i - (n - len(self._batch))]
        for k, x in enumerate(self, 0):
            if k == i:
                return x
        raise IndexError("finding index out of range")

    def __eq__(self, other) -> bool:
        if isinstance(other, FindingLog):
            other = list(other)
        return isinstance(other, list) and len(other) == len(self) and list(self) == other

    __hash__ = None

    def __repr__(self) -> str:
        return f"FindingLog({len(self)} findings, {self._spilled} on disk)"

    def set_command_base(self, base: int) -> None:
        """The replay's number of start-position commands: findings held here get their command number
        now, written ones when read back."""
        self.command_base = base
        for f in self._head:
            if not f.command:
                f.command = base + f.entry
        for f in self._batch:
            if not f.command:
                f.command = base + f.entry

    def __getstate__(self) -> dict:
        return {"keep": self.keep, "counts": dict(self.counts), "command_base": self.command_base,
                "items": list(self)}

    def __setstate__(self, state: dict) -> None:
        self.__init__(keep=state["keep"])
        self.extend(state["items"])
        self.command_base = state["command_base"]

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def _dump(batch: list) -> tuple[bytes, bytes]:
    """(kind, bytes) of a batch: the findings' own attributes marshalled when every one is a plain Finding
    whose attributes marshal can write, else the batch pickled."""
    from builder.audit.report import Finding
    if all(type(x) is Finding for x in batch):
        try:
            return _MARSHALLED, marshal.dumps([x.__dict__ for x in batch])
        except ValueError:                  # an attribute marshal cannot write
            pass
    return _PICKLED, pickle.dumps(batch, protocol=pickle.HIGHEST_PROTOCOL)


def _load(kind: bytes, data: bytes) -> list:
    if kind == _PICKLED:
        return pickle.loads(data)
    from builder.audit.report import Finding
    out, new = [], object.__new__
    for attrs in marshal.loads(data):
        f = new(Finding)
        f.__dict__.update(attrs)
        out.append(f)
    return out
