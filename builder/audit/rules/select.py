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

import re

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
    """A region's printed name (its ``name`` in the map data), else its id."""
    for r in ctx.game.map_doc.get("regions") or []:
        if isinstance(r, dict) and r.get("id") == rid:
            return r.get("name") or rid
    return rid


def area_name(ctx, aid: str) -> str:
    """A setup or entry area's printed name, else its id."""
    md = ctx.game.map_doc
    for a in (md.get("setup_areas") or []) + (md.get("entry_areas") or []):
        if isinstance(a, dict) and a.get("id") == aid and a.get("name"):
            return str(a["name"])
    return aid


def terrain_name(ctx, tid) -> str:
    """A terrain type's printed name in lower case (it stands inside a sentence), else its id."""
    return str((ctx.terrain_types.get(tid) or {}).get("name") or tid or "unknown terrain").lower()


def either(names) -> str:
    """Names joined for a sentence: "a", "a or b", "a, b or c"."""
    names = list(names)
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def _all_of(names) -> str:
    """Names joined with "and" (a list inside a list joined with "or"): "a", "a and b", "a, b and c"."""
    names = list(names)
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def in_region(name: str) -> str:
    """Where a hex of a region is: "in Italy", "one of the Invadable coastal hexes" (a region named as hexes)."""
    return f"one of the {name}" if re.search(r"\bhexes\b", name, re.IGNORECASE) else f"in {name}"


def _area_hexes(ctx, aid: str) -> set:
    """The hexes of a setup area or an entry area."""
    grid, hexes = ctx.grid, {ctx.grid.parse(h) for h in ctx.game.area_hexes(aid)}
    for area in ctx.game.map_doc.get("entry_areas") or []:
        if isinstance(area, dict) and area.get("id") == aid:
            hexes |= {grid.parse(h) for h in area.get("hexes") or [] if isinstance(h, str)}
    return hexes - {None}


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
            hexes |= _area_hexes(ctx, aid)
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
        """The set as a noun phrase for a message, in the map's printed names: "Italy", "marsh or mountain
        hexes", "clear hexes in Yugoslavia", "Baltic or Black Sea ports", "X11 or X12", "Greater Germany or
        Italy except T21"; "any hex" when it names nothing."""
        s, ctx = self.spec, self.ctx
        regions, hexes = sorted(_ids(s.get("regions"))), sorted(_ids(s.get("hexes")))
        seas = sorted(_ids(s.get("ports"))) if s.get("ports") and s["ports"] is not True else []
        alone = len(regions) + bool(hexes) + bool(s.get("symbols")) + bool(s.get("ports")) + \
            bool(s.get("areas")) == 1       # one kind of place: its own list may say "or" ("X11 or X12")
        inner = either if alone else _all_of           # with other places: "Baltic, Black Sea or Baltic and ..."
        parts = [region_name(ctx, r) for r in regions]
        if hexes:
            parts.append(inner(hexes) if alone or len(hexes) == 1 else "hexes " + ", ".join(hexes))
        if s.get("symbols"):
            parts.append("hexes marked " + inner(sorted(_ids(s["symbols"]))))
        if s.get("ports"):
            parts.append(inner([region_name(ctx, p) for p in seas]) + " ports" if seas else "ports")
        if s.get("areas"):
            parts.extend(area_name(ctx, a) for a in sorted(_ids(s["areas"])))
        where = either(parts)
        if self.terrain:
            kinds = either(terrain_name(ctx, t) for t in sorted(self.terrain)) + " hexes"
            text = f"{kinds} in {where}" if where else kinds
        else:
            text = where or "any hex"
        if self.exclude is not None:
            text += " except " + self.exclude.describe()
        return text

    def _reads_terrain(self) -> bool:
        return bool(self.terrain) or (self.exclude is not None and self.exclude._reads_terrain())

    def terrain_note(self, h) -> str:
        """" (forest)": the terrain of hex *h* in brackets when this set reads terrain (what a player needs
        to see why *h* is in or out of it), else ""."""
        return f" ({terrain_name(self.ctx, self.ctx.terrain(h))})" if h is not None and self._reads_terrain() \
            else ""

    def hex_is(self, h) -> str:
        """What hex *h* is, in the terms of this set, as a clause: "J14 is mountain", "K5 is in Italy",
        "J14 is mountain, in Italy", "Z19 is a Baltic port", "V7 is marked 65"; "X11 is one of X11 or X12"
        when the set lists it by name."""
        name, facts = self.ctx.grid.name(h), self.facts(h)
        if facts:
            return f"{name} is {facts}"
        if self.any_hex and not self.terrain and self.exclude is not None:
            return f"{name} is outside {self.exclude.describe()}"
        listed = sorted(_ids(self.spec.get("hexes")))
        return f"{name} is one of {either(listed)}" if len(listed) > 1 else f"{name} is the hex the rule names"

    def facts(self, h) -> str:
        """What puts hex *h* in this set (or would): its terrain when the set reads terrain, the set's
        regions, areas, ports and symbols it is in: "mountain", "in Italy", "mountain, in Italy", "a Baltic
        port", "one of the Invadable coastal hexes"; "" when nothing but its name (a listed hex)."""
        ctx, s, facts = self.ctx, self.spec, []
        if self._reads_terrain():
            facts.append(terrain_name(ctx, ctx.terrain(h)))
        facts += [in_region(region_name(ctx, r)) for r in sorted(_ids(s.get("regions")))
                  if h in region_hexes(ctx, r)]
        if s.get("symbols") or s.get("ports"):
            symbols, ports = _ids(s.get("symbols")), s.get("ports")
            for loc in ctx.game.map_doc.get("locations") or []:
                if not isinstance(loc, dict) or not isinstance(loc.get("hex"), str) or ctx.grid.parse(loc["hex"]) != h:
                    continue
                if symbols and loc.get("symbol") in symbols:
                    facts.append(f"marked {loc['symbol']}")
                if ports and loc.get("port") and (ports is True or loc.get("port") in _ids(ports)):
                    facts.append(f"a {region_name(ctx, loc['port'])} port" if ports is not True else "a port")
        areas = [area_name(ctx, a) for a in sorted(_ids(s.get("areas"))) if h in _area_hexes(ctx, a)]
        if areas:
            facts.append("in " + either(areas))
        return ", ".join(dict.fromkeys(facts))


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
