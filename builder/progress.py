"""Progress reporting for long work: a line on stderr that updates in place on a terminal, and
occasional plain lines elsewhere (CI logs), silent when asked."""

from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, enabled: bool = True, stream=None, min_interval: float = 0.2):
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.min_interval = min_interval if self.tty else 5.0
        self._last = 0.0

    def step(self, label: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if done < total and now - self._last < self.min_interval:
            return
        self._last = now
        pct = 100 * done // total if total else 100
        text = f"{label}: {done}/{total} ({pct}%)"
        if self.tty:
            end = "\n" if done >= total else ""
            self.stream.write(f"\r\033[K{text}{end}")
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def note(self, text: str) -> None:
        if self.enabled:
            if self.tty:
                self.stream.write("\r\033[K")
            self.stream.write(text + "\n")
            self.stream.flush()


SILENT = Progress(enabled=False)
