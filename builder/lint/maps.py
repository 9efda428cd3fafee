"""Check ``maps``: maps, boards, grids and zones VASSAL cannot use as written.

* ``maps.duplicate-name``: two maps with one ``mapName`` (saves name maps by it);
* ``maps.board-size``: a board with no image and no positive width/height (a 0×0 board);
* ``maps.grid-spacing``: a hex or square grid whose ``dx``/``dy`` is not a number > 0;
* ``maps.numbering``: grid-numbering settings VASSAL cannot parse or that are out of range;
* ``maps.zone-path``: a zone with no polygon (error) or fewer than 3 points (warning).
"""

from __future__ import annotations

from collections.abc import Iterator

from builder.lint.model import ERROR, WARNING, Finding, Module


def _int(v: str | None) -> int | None:
    try:
        return int(v.strip()) if v is not None else None
    except ValueError:
        return None


def _float(v: str | None) -> float | None:
    try:
        return float(v) if v is not None else None
    except ValueError:
        return None


def _numbering(mod: Module, n, entry: str) -> Iterator[Finding]:
    line = mod.line(n)
    for attr in ("hLeading", "vLeading", "hOff", "vOff", "hDrawOff", "vDrawOff", "fontSize", "rotateText"):
        v = n.get(attr)
        if v is None or v == "":
            continue
        i = _int(v)
        if i is None:
            yield Finding("maps.numbering", ERROR, f"{n.short} {attr}={v!r} is not an integer (VASSAL "
                          "fails to load the module)", entry=entry, line=line)
        elif attr in ("hLeading", "vLeading") and not 0 <= i <= 10:
            yield Finding("maps.numbering", ERROR, f"{n.short} {attr}={i} is out of range (0..10 digits "
                          "of padding)", entry=entry, line=line)
        elif attr == "fontSize" and i <= 0:
            yield Finding("maps.numbering", ERROR, f"{n.short} fontSize={i} must be positive",
                          entry=entry, line=line)
        elif attr == "rotateText" and i not in (0, 90, 180, 270):
            yield Finding("maps.numbering", WARNING, f"{n.short} rotateText={i}: VASSAL offers 0, 90, 180 "
                          "or 270", entry=entry, line=line)
    for attr, allowed in (("hType", "NA"), ("vType", "NA"), ("first", "HV")):
        v = n.get(attr)
        if v is not None and (v[:1] not in allowed or not v):
            yield Finding("maps.numbering", ERROR, f"{n.short} {attr}={v!r}: expected one of "
                          f"{', '.join(allowed)}", entry=entry, line=line)
    for attr in ("hDescend", "vDescend", "stagger", "visible"):
        v = n.get(attr)
        if v is not None and v not in ("true", "false"):
            yield Finding("maps.numbering", WARNING, f"{n.short} {attr}={v!r} is not true/false (read as "
                          "false)", entry=entry, line=line)


def _grid(mod: Module, g, entry: str) -> Iterator[Finding]:
    if g.short in ("HexGrid", "SquareGrid"):
        for attr in ("dx", "dy"):
            v = g.get(attr)
            if v is None:
                continue
            f = _float(v)
            if f is None or not f > 0 or f != f or f == float("inf"):
                yield Finding("maps.grid-spacing", ERROR, f"{g.short} {attr}={v!r}: hex/square spacing "
                              "must be a number > 0", entry=entry, line=mod.line(g))
        for attr in ("x0", "y0"):
            v = g.get(attr)
            if v is not None and _int(v) is None:
                yield Finding("maps.grid-spacing", ERROR, f"{g.short} {attr}={v!r} is not an integer "
                              "(VASSAL fails to load the module)", entry=entry, line=mod.line(g))
    n = g.numbering if hasattr(g, "numbering") else None
    if n is not None:
        yield from _numbering(mod, n, entry)


def check(mod: Module) -> Iterator[Finding]:
    if mod.buildfile is None:
        return
    bf = mod.buildfile
    entry = mod.buildfile_entry
    seen: dict[str, int | None] = {}
    for m in bf.maps():
        name = m.map_name
        if name and name in seen:
            yield Finding("maps.duplicate-name", ERROR, f"map name {name!r} is used twice (also line "
                          f"{seen[name]}): saves refer to maps by name", entry=entry, line=mod.line(m))
        seen.setdefault(name, mod.line(m))
        for b in m.boards():
            if not b.image:
                w, h = _int(b.get("width")), _int(b.get("height"))
                if not (w and h and w > 0 and h > 0):
                    yield Finding("maps.board-size", ERROR, f"board {b.name or ''!r} of map {name!r} has no "
                                  "image and no positive width/height: it is 0×0 pixels", entry=entry,
                                  line=mod.line(b))
    for g in bf.root.iter("HexGrid", "SquareGrid", "RegionGrid", "ZonedGrid"):
        yield from _grid(mod, g, entry)
    for z in bf.zones():
        raw = (z.get("path") or "").strip()
        pts = z.path
        label = f"zone {z.get('name', '')!r}"
        if not raw or not pts:
            yield Finding("maps.zone-path", ERROR, f"{label} has an empty path (no polygon: it contains no "
                          "point)", entry=entry, line=mod.line(z))
        elif len(pts) < 3:
            yield Finding("maps.zone-path", WARNING, f"{label} has only {len(pts)} point(s): its polygon "
                          "has no area", entry=entry, line=mod.line(z))
