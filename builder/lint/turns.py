"""Check ``turns``: every Turn Counter has levels, and every list level has items."""

from __future__ import annotations

from collections.abc import Iterator

from builder.lint.model import ERROR, Finding, Module
from builder.vassal.sequence import decode


def check(mod: Module) -> Iterator[Finding]:
    if mod.buildfile is None:
        return
    entry = mod.buildfile_entry
    for t in mod.buildfile.turn_trackers():
        label = f"turn counter {t.get('name', '')!r}"
        if not t.levels():
            yield Finding("turns.no-levels", ERROR, f"{label} has no turn levels", entry=entry, line=mod.line(t))
        for lv in t.iter("ListTurnLevel", "CounterTurnLevel"):
            what = f"{label} level {lv.get('property') or lv.get('name') or ''!r}"
            if lv.short == "ListTurnLevel":
                raw = lv.get("list") or ""
                items = [i for i in decode(raw, ",") if i] if raw else []
                if not items:
                    yield Finding("turns.empty-level", ERROR, f"{what} lists no items", entry=entry,
                                  line=mod.line(lv))
            else:
                for attr in ("start", "incr", "loopLimit"):
                    v = lv.get(attr)
                    if v not in (None, ""):
                        try:
                            int(v)
                        except ValueError:
                            yield Finding("turns.empty-level", ERROR, f"{what}: {attr}={v!r} is not an "
                                          "integer", entry=entry, line=mod.line(lv))
                if lv.get("incr") not in (None, "") and lv.get("incr").strip() == "0":
                    yield Finding("turns.empty-level", ERROR, f"{what}: incr=0 never advances",
                                  entry=entry, line=mod.line(lv))
