"""What a data-configured rule speaks of: which units (a selector), which hexes (a place set), when (turns,
phases, weather). Shared by the rule classes of builder.audit.rules; all from the game's data, nothing
game-specific here.

A unit selector is a mapping of any of ``sides``, ``nationalities``, ``types``, ``units`` (unit ids),
``flags``, ``movement_classes``, ``mechanized`` (bool), ``combat`` (bool), and ``not`` (a selector of units
to leave out). A place set is a mapping of any of ``regions`` (region ids; a region's child regions too),
``hexes``, ``symbols`` (printed location symbols), ``terrain`` (terrain type ids), ``ports`` (true: any port;
or sea ids), ``areas`` (setup or entry area ids), and ``not`` (a place set to leave out). When: ``turns``,
``phases`` (phase ids), ``phase_kinds``, ``weather`` (weather ids of the turn), ``sides`` (the phasing side).
"""

from __future__ import annotations

from builder.audit import fastpaths


_NO_PHASE = object()        # a phase no position has (a memo's start: not the object itself, no cycle)


def _ids(value) -> set:
    if value is None:
        return set()
    return {value} if isinstance(value, (str, int)) else {v for v in value if isinstance(v, (str, int))}


class UnitSelector:
    def __init__(self, ctx, spec: dict | None) -> None:
        spec = spec if isinstance(spec, dict) else {}
        self.ctx, self.empty = ctx, not spec
        self.sides, self.nats = _ids(spec.get("sides")), _ids(spec.get("nationalities"))
        self.types, self.units = _ids(spec.get("types")), _ids(spec.get("units"))
        self.flags, self.mclasses = _ids(spec.get("flags")), _ids(spec.get("movement_classes"))
        self.mechanized, self.combat = spec.get("mechanized"), spec.get("combat")
        self.exclude = UnitSelector(ctx, spec["not"]) if isinstance(spec.get("not"), dict) else None
        self._memo = {} if fastpaths.ENABLED else None   # Unit -> answer (a unit's identity never changes)

    def matches(self, unit) -> bool:
        memo = self._memo
        if memo is None:
            return self._matches(unit)
        if self.empty:
            return True                     # no condition: every unit (what _matches answers)
        key = id(unit)
        found = memo.get(key)
        if found is None or found[0] is not unit:
            if len(memo) > 20_000:          # a log that keeps adding pieces: stay bounded
                memo.clear()
            found = memo[key] = (unit, self._matches(unit))
        return found[1]

    def _matches(self, unit) -> bool:
        data = self.ctx.game.units.get(unit.unit_id) or {}
        if self.sides and unit.side not in self.sides:
            return False
        if self.nats and unit.props.get("Nationality", "") not in self.nats:
            return False
        if self.types and unit.props.get("Type", "") not in self.types:
            return False
        if self.units and unit.unit_id not in self.units:
            return False
        if self.flags and not (set(data.get("flags") or []) & self.flags):
            return False
        if self.mclasses and unit.movement_class not in self.mclasses:
            return False
        if self.mechanized is not None and is_mechanized(self.ctx, unit) != bool(self.mechanized):
            return False
        if self.combat is not None and self.ctx.game.is_combat(data) != bool(self.combat):
            return False
        return not (self.exclude is not None and self.exclude.matches(unit))


def is_mechanized(ctx, unit) -> bool:
    mc = ctx.game.by_id["movement_classes"].get(unit.movement_class) or {}
    return bool(mc.get("mechanized"))


def _region_index(ctx) -> dict:
    found = getattr(ctx, "_region_hexes", None)
    if found is not None:
        return found
    regions = [r for r in ctx.game.map_doc.get("regions") or [] if isinstance(r, dict) and r.get("id")]
    own = {r["id"]: {ctx.grid.parse(h) for h in r.get("hexes") or [] if isinstance(h, str)} - {None}
           for r in regions}
    children: dict = {}
    for r in regions:
        if r.get("parent"):
            children.setdefault(r["parent"], []).append(r["id"])
    found = {}
    for rid in own:
        hexes, todo, seen = set(), [rid], set()
        while todo:
            x = todo.pop()
            if x in seen:
                continue
            seen.add(x)
            hexes |= own.get(x, set())
            todo.extend(children.get(x, []))
        found[rid] = frozenset(hexes)
    ctx._region_hexes = found
    return found


def region_hexes(ctx, rid: str) -> frozenset:
    return _region_index(ctx).get(rid, frozenset())


def region_name(ctx, rid: str) -> str:
    for r in ctx.game.map_doc.get("regions") or []:
        if isinstance(r, dict) and r.get("id") == rid:
            return r.get("name") or rid
    return rid


class PlaceSet:
    def __init__(self, ctx, spec: dict | None) -> None:
        spec = spec if isinstance(spec, dict) else {}
        self.ctx, self.spec = ctx, spec
        grid, md = ctx.grid, ctx.game.map_doc
        hexes = set()
        for rid in _ids(spec.get("regions")):
            hexes |= region_hexes(ctx, rid)
        hexes |= {grid.parse(h) for h in _ids(spec.get("hexes"))} - {None}
        symbols, ports = _ids(spec.get("symbols")), spec.get("ports")
        for loc in md.get("locations") or []:
            if not isinstance(loc, dict) or not isinstance(loc.get("hex"), str):
                continue
            if symbols and loc.get("symbol") in symbols:
                hexes.add(grid.parse(loc["hex"]))
            if ports and loc.get("port") and (ports is True or loc.get("port") in _ids(ports)):
                hexes.add(grid.parse(loc["hex"]))
        for aid in _ids(spec.get("areas")):
            hexes |= {grid.parse(h) for h in ctx.game.area_hexes(aid)} - {None}
            for area in md.get("entry_areas") or []:
                if isinstance(area, dict) and area.get("id") == aid:
                    hexes |= {grid.parse(h) for h in area.get("hexes") or [] if isinstance(h, str)} - {None}
        self.hexes = frozenset(hexes - {None})
        self.terrain = _ids(spec.get("terrain"))
        self.exclude = PlaceSet(ctx, spec["not"]) if isinstance(spec.get("not"), dict) else None
        self.any_hex = not (self.hexes or spec.get("regions") or spec.get("hexes") or symbols or ports
                            or spec.get("areas"))
        self._memo = {} if fastpaths.ENABLED else None      # hex -> answer (fastpaths: it reads only the hex)

    def contains(self, h) -> bool:
        memo = self._memo
        if memo is None:
            return self._contains(h)
        found = memo.get(h)
        if found is None:
            if len(memo) > 50_000:
                memo.clear()
            found = memo[h] = self._contains(h)
        return found

    def _contains(self, h) -> bool:
        if h is None:
            return False
        if not self.any_hex and h not in self.hexes:
            return False
        if self.terrain and self.ctx.terrain(h) not in self.terrain:
            return False
        return not (self.exclude is not None and self.exclude.contains(h))

    def describe(self) -> str:
        s = self.spec
        parts = [region_name(self.ctx, r) for r in sorted(_ids(s.get("regions")))]
        if s.get("hexes"):
            parts.append(", ".join(sorted(_ids(s["hexes"]))))
        if s.get("symbols"):
            parts.append("hexes marked " + ", ".join(sorted(_ids(s["symbols"]))))
        if s.get("ports"):
            parts.append("ports" if s["ports"] is True else ", ".join(sorted(_ids(s["ports"]))) + " ports")
        if s.get("areas"):
            parts.append(", ".join(sorted(_ids(s["areas"]))))
        text = " or ".join(parts) or "any hex"
        if self.terrain:
            names = [(self.ctx.terrain_types.get(t) or {}).get("name") or t for t in sorted(self.terrain)]
            text += " (" + " or ".join(names).lower() + " only)"
        if self.exclude is not None:
            text += " but not " + self.exclude.describe()
        return text


class When:
    """The turns, phases, weather and phasing side a rule applies to (all when none is given)."""

    def __init__(self, ctx, spec: dict) -> None:
        self.ctx = ctx
        self.turns, self.phases = _ids(spec.get("turns")), _ids(spec.get("phases"))
        self.kinds, self.weather = _ids(spec.get("phase_kinds")), _ids(spec.get("weather"))
        self.sides = _ids(spec.get("phasing_sides"))
        self._fast = fastpaths.ENABLED
        self._last = (_NO_PHASE, False)     # (the phase last judged, the answer): one phase, one answer

    def applies(self, pos) -> bool:
        ph = pos.phase
        if self._fast:
            last = self._last
            if last[0] is ph:
                return last[1]
            ok = self._applies(ph)
            self._last = (ph, ok)
            return ok
        return self._applies(ph)

    def _applies(self, ph) -> bool:
        if self.turns and (ph is None or ph.turn not in self.turns):
            return False
        if self.phases and (ph is None or ph.phase_id not in self.phases):
            return False
        if self.kinds and (ph is None or phase_kind(self.ctx, ph.phase_id) not in self.kinds):
            return False
        if self.weather and (ph is None or turn_weather(self.ctx, ph.turn) not in self.weather):
            return False
        return not (self.sides and (ph is None or ph.side not in self.sides))


def phase_kind(ctx, phase_id) -> str | None:
    kinds = getattr(ctx, "_phase_kinds", None)
    if kinds is None:
        kinds = {}
        for cal in ctx.calendars.values():
            for pt in cal.sequence:
                for ph in pt.get("phases") or []:
                    if isinstance(ph, dict) and ph.get("id"):
                        kinds.setdefault(ph["id"], ph.get("kind"))
        ctx._phase_kinds = kinds
    return kinds.get(phase_id)


def turn_weather(ctx, turn) -> str | None:
    for t in ctx.game.doc.get("turns") or []:
        if isinstance(t, dict) and t.get("turn") == turn:
            return t.get("weather")
    return None


def box_ids(ctx, location) -> str | None:
    """The data id of the box a location names (a zone), else None."""
    if location.kind != "zone":
        return None
    for b in ctx.game.map_doc.get("boxes") or []:
        if isinstance(b, dict) and location.name in (b.get("name"), b.get("id")):
            return b.get("id")
    return None
