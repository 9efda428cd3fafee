"""Counts in words for messages: ``count(1, "scenario")`` is "1 scenario", ``count(2_656, "value")`` "2,656 values"."""

from __future__ import annotations

_IRREGULAR = {"entry": "entries", "copy": "copies", "hex": "hexes", "box": "boxes"}


def count(n: int, noun: str, plural: str | None = None) -> str:
    last = noun.rsplit(" ", 1)[-1]
    many = plural or (noun[: len(noun) - len(last)] + _IRREGULAR.get(last, last + "s"))
    return f"{n:,} {noun if n == 1 else many}"
