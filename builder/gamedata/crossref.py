"""Cross-reference checks that a schema cannot express: ids exist and are unique, values fit their
declarations, hexes exist on the grid, scenarios place known units once, turns lie in the calendar,
setup stacking stays within limits (a warning)."""

from __future__ import annotations

import difflib
from collections import defaultdict

from builder.gamedata.diagnostics import Diagnostic, format_path
from builder.gamedata.model import Game, apply_template
from builder.gamedata.yamlsource import locate, locate_key
from builder.symbols import KNOWN_GLYPHS

LOCATION_KEYS = ("hex", "hexes", "box", "boxes", "area", "near", "at_unit", "at_hq", "off_map", "entry", "entries")
# Keys that may be given together: a choice of hexes or an area narrowed by a distance.
COMBINABLE = ({"hexes", "near"}, {"area", "near"}, {"entry", "hex"}, {"entries", "hex"}, {"box", "at_hq"})


class Checker:
    def __init__(self, game: Game, grid=None):
        self.game = game
        self.doc = game.doc
        self.map = game.map_doc or {}
        self.grid = grid
        self.out: list[Diagnostic] = []

    # -- reporting ---------------------------------------------------------------------------------
    def error(self, root, path, message, severity="error"):
        file, line, col = locate(root, path)
        self.out.append(Diagnostic(file, line, col, format_path(path), message, severity))

    def error_at_key(self, root, path, message):
        file, line, col = locate_key(root, path)
        self.out.append(Diagnostic(file, line, col, format_path(path), message))

    def warn(self, root, path, message):
        self.error(root, path, message, "warning")

    def ref(self, root, path, value, collection, what, ids=None, declared_in=None):
        """Report ``value`` at ``path`` unless it names an item of ``collection``."""
        if value is None:
            return
        known = ids if ids is not None else self.game.by_id.get(collection, {})
        if not isinstance(value, str) or value not in known:
            hint = difflib.get_close_matches(str(value), list(known), n=1, cutoff=0.6)
            msg = f"unknown {what} '{value}'"
            if hint:
                msg += f"; did you mean '{hint[0]}'?"
            if not known and declared_in:
                msg += f" (none is declared under {declared_in})"
            elif len(known) <= 10 and (declared_in or not hint):
                msg += f" ({f'{declared_in} declares' if declared_in else 'known'}: {', '.join(sorted(known))})"
            self.error(root, path, msg)

    def items(self, key, root=None):
        root = self.doc if root is None else root
        value = root.get(key)
        if isinstance(value, list):
            for i, item in enumerate(value):
                if isinstance(item, dict):
                    yield i, item

    # -- checks ------------------------------------------------------------------------------------
    def run(self) -> list[Diagnostic]:
        self.unique_ids()
        self.declarations()
        self.units()
        self.markers()
        self.calendar()
        self.scenarios()
        self.map_checks()
        from .crossref_engines import check as engine_data
        engine_data(self)
        self.rule_refs()
        return self.out

    # ids the audit's rules name (builder.audit.rules.select): selector and place-set keys -> what they name
    RULE_REFS = {"sides": "sides", "nationalities": "nationalities", "types": "unit_types", "units": "units",
                 "flags": "flags", "movement_classes": "movement_classes", "phasing_sides": "sides",
                 "not_into_markers": "markers", "regions": "map:regions",
                 "from_boxes": "map:boxes", "dead_boxes": "map:boxes", "terrain": "map:terrain_types",
                 "not_across": "map:hexside_types", "closed_hexsides": "map:hexside_types",
                 "except_hexsides": "map:hexside_types", "hexes": "hex"}

    def rule_refs(self):
        """Every id the data's audit rules and stacking special cases name exists (a typo would silently
        make a rule judge nothing)."""
        def walk(node, path):
            if isinstance(node, list):
                for i, v in enumerate(node):
                    walk(v, path + (i,))
                return
            if not isinstance(node, dict):
                return
            for key, value in node.items():
                what = self.RULE_REFS.get(key)
                if what and isinstance(value, list) and all(isinstance(v, (str, int)) for v in value):
                    for i, v in enumerate(value):
                        if what == "hex":
                            self.hex_ref(path + (key, i), v)
                        elif what.startswith("map:"):
                            self.ref(self.doc, path + (key, i), v, None, _NAMES[what], ids=self.map_ids(what[4:]))
                        else:
                            self.ref(self.doc, path + (key, i), v, what, _NAMES[what])
                elif isinstance(value, (dict, list)):
                    walk(value, path + (key,))
        for i, rule in self.items("rules"):
            walk(rule, ("rules", i))
        for i, sc in self.items("scenarios"):
            for k, e in self.items("setup", sc):
                for j, spec in enumerate(e.get("at_least_one_in") or []):
                    self.place_set(self.doc, ("scenarios", i, "setup", k, "at_least_one_in", j), spec)
        stacking = (self.doc.get("game") or {}).get("stacking")
        if isinstance(stacking, dict):
            walk(stacking, ("game", "stacking"))

    def unique_ids(self):
        # Units and markers share one namespace: both become pieces that carry their id.
        seen: dict = {}
        for key in ("units", "markers"):
            for i, item in self.items(key):
                pid = item.get("id")
                if isinstance(pid, str):
                    if pid in seen:
                        file, line, _ = locate(self.doc, seen[pid])
                        self.error(self.doc, (key, i, "id"), f"duplicate id '{pid}' (first used at {file}:{line})")
                    else:
                        seen[pid] = (key, i, "id")
        for key in ("sides", "nationalities", "movement_classes", "unit_types", "sizes", "values", "flags",
                    "layouts", "formations", "weather", "templates", "scenarios"):
            first: dict = {}
            for i, item in self.items(key):
                iid = item.get("id")
                if isinstance(iid, str):
                    if iid in first:
                        file, line, _ = locate(self.doc, (key, first[iid], "id"))
                        self.error(self.doc, (key, i, "id"), f"duplicate id '{iid}' (first used at {file}:{line})")
                    else:
                        first[iid] = i

    def declarations(self):
        for i, nat in self.items("nationalities"):
            self.ref(self.doc, ("nationalities", i, "side"), nat.get("side"), "sides", "side")
        for i, utype in self.items("unit_types"):
            self.ref(self.doc, ("unit_types", i, "movement_class"), utype.get("movement_class"), "movement_classes", "movement class")
            self.ref(self.doc, ("unit_types", i, "layout"), utype.get("layout"), "layouts", "counter layout")
            for j, glyph in enumerate(utype.get("symbol") or []):
                if glyph not in KNOWN_GLYPHS:
                    hint = difflib.get_close_matches(str(glyph), sorted(KNOWN_GLYPHS), n=1)
                    self.error(self.doc, ("unit_types", i, "symbol", j),
                               f"no NATO glyph '{glyph}' can be drawn" + (f"; did you mean '{hint[0]}'?" if hint else
                               f" (known: {', '.join(sorted(KNOWN_GLYPHS))})"))
        for i, value in self.items("values"):
            if value.get("kind") == "choice" and not value.get("choices"):
                self.error(self.doc, ("values", i), "a 'choice' value needs 'choices'")
        for i, form in self.items("formations"):
            self.ref(self.doc, ("formations", i, "side"), form.get("side"), "sides", "side")
            self.ref(self.doc, ("formations", i, "nationality"), form.get("nationality"), "nationalities", "nationality")
            self.ref(self.doc, ("formations", i, "parent"), form.get("parent"), "formations", "formation")
            self.ref(self.doc, ("formations", i, "hq"), form.get("hq"), "units", "unit")
        value_ids = set(self.game.by_id["values"])
        unit_fields = {"name", "code", "size", "formation", "steps", "long_name"}
        for i, layout in self.items("layouts"):
            for j, slot in self.items("slots", layout):
                for field in _template_fields(slot.get("text", "")):
                    if field not in value_ids and field not in unit_fields:
                        self.error(self.doc, ("layouts", i, "slots", j, "text"),
                                   f"'{{{field}}}' is neither a declared value nor a unit field ({', '.join(sorted(unit_fields))})")
                for key in ("color_by", "box_by"):
                    by = slot.get(key)
                    if isinstance(by, dict) and by.get("value") not in value_ids:
                        self.ref(self.doc, ("layouts", i, "slots", j, key, "value"), by.get("value"), "values", "value")
                self.slot_conditions(("layouts", i, "slots", j), slot)

    def slot_conditions(self, path, slot):
        """when:/unless:/fill_when: name a declared value or flag; a label has words; fill_when is for the symbol."""
        known = {**self.game.by_id["values"], **self.game.by_id["flags"]}
        for key in ("when", "unless"):
            self.ref(self.doc, path + (key,), slot.get(key), None, "value or flag", ids=known)
        fills = slot.get("fill_when")
        if isinstance(fills, dict):
            for cid in fills:
                if cid not in known:
                    hint = difflib.get_close_matches(str(cid), list(known), n=1, cutoff=0.6)
                    self.error_at_key(self.doc, path + ("fill_when", cid), f"unknown value or flag '{cid}'"
                                      + (f"; did you mean '{hint[0]}'?" if hint else ""))
            if slot.get("show") != "symbol":
                self.error_at_key(self.doc, path + ("fill_when",), "fill_when colours the symbol: give it on the slot with show: symbol")
        if slot.get("show") == "label" and not slot.get("text"):
            self.error(self.doc, path + ("show",), "a label prints the slot's text: give text (e.g. text: Support)")

    def units(self):
        templates = self.game.by_id["templates"]
        for i, raw in self.items("units"):
            base = ("units", i)
            self.ref(self.doc, base + ("template",), raw.get("template"), "templates", "template")
            unit = apply_template(raw, templates.get(raw.get("template")))
            self.unit_fields(unit, base, raw)
        for i, raw in self.items("templates"):
            self.unit_fields(raw, ("templates", i), raw, template=True)

    def unit_fields(self, unit, base, raw, template=False):
        # Report at the unit's own line when the value came from its template.
        def at(key):
            return base + (key,) if key in raw else base
        for key, coll, what in (("nationality", "nationalities", "nationality"), ("side", "sides", "side"),
                                ("type", "unit_types", "unit type"), ("size", "sizes", "unit size"),
                                ("formation", "formations", "formation"), ("layout", "layouts", "counter layout"),
                                ("movement_class", "movement_classes", "movement class")):
            self.ref(self.doc, at(key), unit.get(key), coll, what)
        if not template:
            # A misspelt key is already reported with its likely meaning; don't also call it missing.
            known = _unit_keys()
            typos = [k for k in raw if isinstance(k, str) and k not in known]
            for key in ("nationality", "type", "size", "front"):
                if key not in unit and not difflib.get_close_matches(key, typos, n=1, cutoff=0.75):
                    self.error(self.doc, base, f"missing required key '{key}' (give it here or in the template)")
        for j, flag in enumerate(unit.get("flags") or []):
            self.ref(self.doc, at("flags") + ((j,) if "flags" in raw else ()), flag, "flags", "flag")
        for face in ("front", "back"):
            self.face_values(unit.get(face), at(face), raw.get(face) if isinstance(raw.get(face), dict) else None)
        for k, extra in enumerate(unit.get("extra_counters") or []):
            if isinstance(extra, dict):
                for face in ("front", "back"):
                    self.face_values(extra.get(face), at("extra_counters") + (k, face), extra.get(face))
        arrival = unit.get("arrival")
        if isinstance(arrival, dict):
            self.turn_in_calendar(at("arrival") + (("turn",) if "arrival" in raw else ()), arrival.get("turn"), None)
            self.place(at("arrival"), arrival)
        self.authored_paths(unit, base, raw)

    def face_values(self, face, path, raw_face):
        if not isinstance(face, dict):
            return
        values = self.game.by_id["values"]
        for key, value in face.items():
            vpath = path + (key,) if raw_face is not None and key in raw_face else path
            decl = values.get(key)
            if decl is None:
                self.ref(self.doc, vpath, key, "values", "value")
                continue
            problem = _value_problem(decl, value)
            if problem:
                self.error(self.doc, vpath, problem)

    def authored_paths(self, unit, base, raw):
        authored = unit.get("authored")
        if not isinstance(authored, dict):
            return
        for key in authored:
            if _resolve_path(unit, key) is _MISSING:
                where = base + ("authored", key) if key in (raw.get("authored") or {}) else base
                self.error_at_key(self.doc, where, f"authored '{key}' names no value of this unit")

    def markers(self):
        for i, marker in self.items("markers"):
            self.ref(self.doc, ("markers", i, "side"), marker.get("side"), "sides", "side")
            self.ref(self.doc, ("markers", i, "nationality"), marker.get("nationality"), "nationalities", "nationality")
        # piece layers name marker kinds that exist (a typo would silently draw those markers on top)
        kinds = {m.get("kind") for _, m in self.items("markers")}
        seen: dict = {}
        for i, layer in self.items("piece_layers"):
            for j, kind in enumerate(layer.get("kinds") or []):
                if kind not in kinds:
                    self.error(self.doc, ("piece_layers", i, "kinds", j), f"no marker has kind '{kind}'")
                elif kind in seen:
                    self.error(self.doc, ("piece_layers", i, "kinds", j), f"kind '{kind}' is already in layer '{seen[kind]}'")
                seen.setdefault(kind, layer.get("name"))
        named: set = set()
        for i, mk in self.items("marker_kinds"):      # a name for a kind no marker has is a typo
            if mk.get("id") not in kinds:
                self.error(self.doc, ("marker_kinds", i, "id"), f"no marker has kind '{mk.get('id')}'")
            elif mk.get("id") in named:
                self.error(self.doc, ("marker_kinds", i, "id"), f"kind '{mk.get('id')}' is named twice")
            named.add(mk.get("id"))
        if sum(1 for _, layer in self.items("piece_layers") if layer.get("units")) > 1:
            self.error(self.doc, ("piece_layers",), "more than one layer says 'units: true'")
        track = self.doc.get("turn_record_track")
        for j, mid in enumerate((track.get("markers") or []) if isinstance(track, dict) else []):
            self.ref(self.doc, ("turn_record_track", "markers", j), mid, "markers", "marker")
        # a combat results table's rows have one cell per result column
        for i, table in self.items("combat_results"):
            heads = [r for r in table.get("headings") or [] if isinstance(r, dict)]
            width = len(heads[0].get("cells") or []) if heads else 0
            for part in ("headings", "rows"):
                for j, row in enumerate(table.get(part) or []):
                    if isinstance(row, dict) and len(row.get("cells") or []) != width:
                        self.error(self.doc, ("combat_results", i, part, j, "cells"),
                                   f"{len(row.get('cells') or [])} cells; the table has {width} result columns")

    def calendar(self):
        self.turn_list(self.doc, ("turns",), self.doc.get("turns"))
        for i, block in self.items("sequence"):
            self.ref(self.doc, ("sequence", i, "side"), block.get("side"), "sides", "side")
            seen = set()
            for j, phase in self.items("phases", block):
                if phase.get("id") in seen:
                    self.error(self.doc, ("sequence", i, "phases", j, "id"), f"duplicate phase id '{phase.get('id')}'")
                seen.add(phase.get("id"))

    def turn_list(self, root, path, turns):
        if not isinstance(turns, list):
            return
        numbers = []
        for j, turn in enumerate(turns):
            if isinstance(turn, dict):
                self.ref(root, path + (j, "weather"), turn.get("weather"), "weather", "weather")
                if isinstance(turn.get("turn"), int):
                    if numbers and turn["turn"] != numbers[-1] + 1:
                        self.error(root, path + (j, "turn"), f"turn {turn['turn']} follows turn {numbers[-1]}: turns must be numbered consecutively")
                    numbers.append(turn["turn"])

    def turn_in_calendar(self, path, turn, scenario):
        if not isinstance(turn, int):
            return
        turns = self.game.turns_for(scenario)
        if turns and not (turns[0] <= turn <= turns[-1]):
            self.error(self.doc, path, f"turn {turn} is outside the game's turns {turns[0]}-{turns[-1]}")

    # -- scenarios ---------------------------------------------------------------------------------
    def scenarios(self):
        for s, scen in self.items("scenarios"):
            base = ("scenarios", s)
            self.turn_list(self.doc, base + ("turns",), scen.get("turns"))
            for key in ("first_turn", "last_turn"):
                self.turn_in_calendar(base + (key,), scen.get(key), scen)
            if isinstance(scen.get("first_turn"), int) and isinstance(scen.get("last_turn"), int) and scen["first_turn"] > scen["last_turn"]:
                self.error(self.doc, base + ("last_turn",), "the last turn comes before the first turn")
            self.ref(self.doc, base + ("first_player",), scen.get("first_player"), "sides", "side")
            for i, block in self.items("sequence", scen):
                self.ref(self.doc, base + ("sequence", i, "side"), block.get("side"), "sides", "side")
            self.ref(self.doc, base + ("first_turn_weather",), scen.get("first_turn_weather"), "weather", "weather")
            placed: dict = {}
            stacks: dict = defaultdict(lambda: defaultdict(float))
            first_at: dict = {}  # hex -> path of the first setup entry there, for locating warnings
            for kind in ("setup", "reinforcements", "removals"):
                for j, entry in self.items(kind, scen):
                    path = base + (kind, j)
                    units = self.entry_units(entry, path)
                    if kind != "removals":
                        for uid, upath in units:
                            if uid in placed:
                                file, line, _ = locate(self.doc, placed[uid])
                                self.error(self.doc, upath, f"unit '{uid}' is placed twice in this scenario (first at {file}:{line})")
                            else:
                                placed[uid] = upath
                        self.place(path, entry, require=kind != "removals" and not entry.get("event"))
                    self.ref(self.doc, path + ("marker",), entry.get("marker"), "markers", "marker")
                    for w, mid in enumerate(entry.get("with") or []):
                        self.ref(self.doc, path + ("with", w), mid, "markers", "marker")
                    self.ref(self.doc, path + ("assigned_to",), entry.get("assigned_to"), "formations", "formation")
                    self.ref(self.doc, path + ("side",), entry.get("side"), "sides", "side")
                    if kind != "setup":
                        self.turn_in_calendar(path + ("turn",), entry.get("turn"), scen)
                    exempt = set(((self.doc.get("game") or {}).get("stacking") or {}).get("exempt_status") or [])
                    if kind == "setup" and isinstance(entry.get("hex"), str):
                        first_at.setdefault(entry["hex"], path)
                    if kind == "setup" and isinstance(entry.get("hex"), str) and not exempt & set(entry.get("status") or []):
                        for uid, _ in units:
                            unit = self.game.units.get(uid)
                            if unit:
                                side = entry.get("side") or self.game.side_of(unit)
                                stacks[entry["hex"]][side] += self.stacking_weight(unit)
                        if entry.get("marker") in self.game.by_id["markers"]:
                            m = self.game.by_id["markers"][entry["marker"]]
                            stacks[entry["hex"]][m.get("side")] += float(m.get("stacking", 0)) * entry.get("quantity", 1)
            self.stacking(base, stacks, first_at)

    def entry_units(self, entry, path):
        units = []
        if "unit" in entry:
            units.append((entry["unit"], path + ("unit",)))
        for k, uid in enumerate(entry.get("units") or []):
            units.append((uid, path + ("units", k)))
        for uid, upath in units:
            self.ref(self.doc, upath, uid, "units", "unit")
        if not units and "marker" not in entry:
            self.error(self.doc, path, "names no unit, units or marker")
        return [(u, p) for u, p in units if isinstance(u, str)]

    def place(self, path, entry, require=False):
        kinds = [k for k in LOCATION_KEYS if k in entry]
        if require and not kinds:
            self.error(self.doc, path, "says nowhere: give one of hex, hexes, box, area, near, at_unit, entry, off_map")
        given = {k for k in kinds if k != "off_map"}
        if len(given) > 1 and not any(given <= combo for combo in COMBINABLE):
            self.error(self.doc, path, f"gives several places ({', '.join(kinds)}); give one")
        self.hex_ref(path + ("hex",), entry.get("hex"))
        for k, h in enumerate(entry.get("hexes") or []):
            self.hex_ref(path + ("hexes", k), h)
        near = entry.get("near")
        if isinstance(near, dict):
            self.hex_ref(path + ("near", "hex"), near.get("hex"))
            self.ref(self.doc, path + ("near", "unit"), near.get("unit"), "units", "unit")
        self.ref(self.doc, path + ("at_unit",), entry.get("at_unit"), "units", "unit")
        self.ref(self.doc, path + ("box",), entry.get("box"), None, "box", ids=self.map_ids("boxes"))
        self.ref(self.doc, path + ("area",), entry.get("area"), None, "setup area", ids=self.map_ids("setup_areas"))
        self.ref(self.doc, path + ("entry",), entry.get("entry"), None, "entry area", ids=self.map_ids("entry_areas"))
        for k, box in enumerate(entry.get("boxes") or []):
            self.ref(self.doc, path + ("boxes", k), box, None, "box", ids=self.map_ids("boxes"))
        for k, area in enumerate(entry.get("entries") or []):
            self.ref(self.doc, path + ("entries", k), area, None, "entry area", ids=self.map_ids("entry_areas"))

    def map_ids(self, key) -> dict:
        return {item.get("id"): item for item in (self.map.get(key) or []) if isinstance(item, dict)}

    def hex_ref(self, path, hex_id, root=None):
        if hex_id is None or self.grid is None:
            return
        if not isinstance(hex_id, str) or self.grid.parse(hex_id) is None:
            self.error(self.doc if root is None else root, path, f"'{hex_id}' is not a hex of this map")

    def stacking_weight(self, unit) -> float:
        size = self.game.by_id["sizes"].get(unit.get("size")) or {}
        utype = self.game.by_id["unit_types"].get(unit.get("type")) or {}
        weight = size.get("stacking", utype.get("stacking", 1))
        counts = ((self.doc.get("game") or {}).get("stacking") or {}).get("counts", "units")
        if counts == "steps" and isinstance(unit.get("steps"), int):
            weight *= unit["steps"]
        return float(weight)

    def stacking(self, base, stacks, first_at):
        rules = (self.doc.get("game") or {}).get("stacking")
        if not isinstance(rules, dict) or not isinstance(rules.get("limit"), (int, float)):
            return
        for hex_id, sides in sorted(stacks.items()):
            for side, weight in sides.items():
                limit = (rules.get("by_side") or {}).get(side, rules["limit"])
                if weight > limit:
                    self.warn(self.doc, first_at.get(hex_id, base + ("setup",)),
                              f"{side} stacks {weight:g} in {hex_id} at setup, over the limit of {limit:g}")

    # -- map ---------------------------------------------------------------------------------------
    def map_checks(self):
        if not self.map:
            return
        m = self.map
        ids: dict = {}
        for key in ("boxes", "setup_areas", "entry_areas", "regions"):
            for i, item in self.items(key, m):
                iid = item.get("id")
                if (key, iid) in ids:
                    self.error(m, (key, i, "id"), f"duplicate id '{iid}'")
                ids[(key, iid)] = i
                for k, h in enumerate(item.get("hexes") or []):
                    self.hex_ref((key, i, "hexes", k), h, m)
        seen_loc: dict = {}
        for i, loc in self.items("locations", m):
            h = loc.get("hex")
            self.hex_ref(("locations", i, "hex"), h, m)
            canon = self.canonical(h)
            if canon is not None:
                if canon in seen_loc:
                    file, line, _ = locate(m, ("locations", seen_loc[canon]))
                    self.error(m, ("locations", i, "hex"), f"hex {h} is described twice (first at {file}:{line}); merge the entries")
                seen_loc[canon] = i
            self.ref(m, ("locations", i, "region"), loc.get("region"), None, "region", ids=self.map_ids("regions"))
        symbols = {loc.get("symbol") for _, loc in self.items("locations", m)}
        for i, area in self.items("setup_areas", m):
            if area.get("symbol") is not None and area["symbol"] not in symbols:
                self.error(m, ("setup_areas", i, "symbol"), f"no location carries the symbol '{area['symbol']}'")
        for i, reg in self.items("regions", m):
            self.ref(m, ("regions", i, "parent"), reg.get("parent"), None, "region", ids=self.map_ids("regions"))
        for i, area in self.items("setup_areas", m):
            self.place_set(m, ("setup_areas", i, "places"), area.get("places"), symbols)
        self.terrain_checks(m)
        self.terrain_layer_checks(m)

    def place_set(self, root, path, spec, symbols=None):
        """The ids, hexes and row labels a place set (builder.gamedata.places) names exist."""
        if not isinstance(spec, dict):
            return
        m = self.map or {}
        areas = {**self.map_ids("setup_areas"), **self.map_ids("entry_areas")}
        for key, what, ids in (("regions", "region", self.map_ids("regions")), ("areas", "setup or entry area", areas),
                               ("terrain", "terrain type", self.map_ids("terrain_types"))):
            for k, v in enumerate(spec.get(key) or []):
                self.ref(root, path + (key, k), v, None, what, ids=ids)
        for k, h in enumerate(spec.get("hexes") or []):
            self.hex_ref(path + ("hexes", k), h, root)
        if symbols is None:
            symbols = {loc.get("symbol") for _, loc in self.items("locations", m)}
        for k, sym in enumerate(spec.get("symbols") or []):
            if sym not in symbols:
                self.error(root, path + ("symbols", k), f"no location carries the symbol '{sym}'")
        rows = spec.get("rows")
        if isinstance(rows, dict) and self.grid is not None:
            from builder.gamedata.mapterrain import _index
            for key in ("from", "to"):
                if key in rows and _index(rows[key], self.grid.spec.rows) is None:
                    self.error(root, path + ("rows", key), f"'{rows[key]}' is not a row label of this grid")
        within = spec.get("within")
        for key, sub in (("within", within.get("of") if isinstance(within, dict) else None),
                         ("adjacent_to", spec.get("adjacent_to")), ("not", spec.get("not"))):
            self.place_set(root, path + ((key, "of") if key == "within" else (key,)), sub, symbols)

    def terrain_layer_checks(self, m):
        # Compact terrain rows (codes, extent, a hex set twice): see mapterrain.py.
        from builder.gamedata import mapterrain
        self.out += mapterrain.check(m, self.grid)

    def canonical(self, hex_id):
        if self.grid is None or not isinstance(hex_id, str):
            return None
        return self.grid.parse(hex_id)

    def terrain_checks(self, m):
        terrain_ids = self.map_ids("terrain_types")
        side_ids = self.map_ids("hexside_types")
        line_ids = self.map_ids("line_types")
        terrain = m.get("terrain")
        if isinstance(terrain, dict):
            self.ref(m, ("terrain", "default"), terrain.get("default"), None, "terrain type", ids=terrain_ids,
                     declared_in="terrain_types")
            for code, tid in (terrain.get("codes") or {}).items():
                self.ref(m, ("terrain", "codes", code), tid, None, "terrain type", ids=terrain_ids,
                         declared_in="terrain_types")
            defined: dict = {}
            for hex_id, tid in (terrain.get("hexes") or {}).items():
                self.hex_ref(("terrain", "hexes", hex_id), hex_id, m)
                self.ref(m, ("terrain", "hexes", hex_id), tid, None, "terrain type", ids=terrain_ids,
                         declared_in="terrain_types")
                canon = self.canonical(hex_id)
                if canon is not None:
                    if canon in defined:
                        self.error(m, ("terrain", "hexes", hex_id), f"hex {hex_id} is given a terrain twice (also as {defined[canon]})")
                    defined[canon] = hex_id
        for i, run in self.items("hexsides", m):
            self.ref(m, ("hexsides", i, "type"), run.get("type"), None, "hexside type", ids=side_ids,
                     declared_in="hexside_types")
            for k, pair in enumerate(run.get("sides") or []):
                if isinstance(pair, list) and len(pair) == 2 and self.grid is not None:
                    a, b = (self.grid.parse(h) if isinstance(h, str) else None for h in pair)
                    if a is None or b is None:
                        bad = pair[0] if a is None else pair[1]
                        self.error(m, ("hexsides", i, "sides", k), f"'{bad}' is not a hex of this map")
                    elif b not in self.grid.neighbours(a):
                        self.error(m, ("hexsides", i, "sides", k), f"{pair[0]} and {pair[1]} are not adjacent, so they share no hexside")
        for i, line in self.items("lines", m):
            self.ref(m, ("lines", i, "type"), line.get("type"), None, "line type", ids=line_ids,
                     declared_in="line_types")
            path = line.get("path") or []
            prev = None
            for k, h in enumerate(path):
                cur = self.grid.parse(h) if self.grid is not None and isinstance(h, str) else None
                if self.grid is not None and cur is None:
                    self.error(m, ("lines", i, "path", k), f"'{h}' is not a hex of this map")
                elif prev is not None and cur is not None and cur not in self.grid.neighbours(prev):
                    self.error(m, ("lines", i, "path", k), f"{path[k - 1]} and {h} are not adjacent: a line runs from hex to neighbouring hex")
                prev = cur


_NAMES = {"sides": "side", "nationalities": "nationality", "unit_types": "unit type", "units": "unit",
          "flags": "flag", "movement_classes": "movement class", "markers": "marker", "map:regions": "region",
          "map:boxes": "box", "map:terrain_types": "terrain type", "map:hexside_types": "hexside type"}


def _unit_keys() -> frozenset:
    from builder.gamedata.schemacheck import GAME_SCHEMA_ID, schemas
    return frozenset(schemas()[GAME_SCHEMA_ID]["properties"]["units"]["items"]["properties"])


def _template_fields(text: str) -> list[str]:
    import string
    try:
        return [f.split(":")[0].split("!")[0] for _, f, _, _ in string.Formatter().parse(text) if f]
    except ValueError:
        return []


def _value_problem(decl: dict, value) -> str | None:
    kind = decl.get("kind")
    name = decl.get("id")
    if kind == "integer":
        letters = decl.get("letters") or {}
        if isinstance(value, bool) or not (isinstance(value, int) or (isinstance(value, str) and value in letters)):
            allowed = f" or one of {', '.join(letters)}" if letters else ""
            return f"{name} must be a whole number{allowed}, got {value!r}"
    elif kind == "number":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"{name} must be a number, got {value!r}"
    elif kind == "boolean":
        if not isinstance(value, bool):
            return f"{name} must be true or false, got {value!r}"
    elif kind == "choice":
        choices = decl.get("choices") or []
        if value not in choices:
            hint = difflib.get_close_matches(str(value), [str(c) for c in choices], n=1)
            return f"{name} must be one of {', '.join(map(str, choices))}, got {value!r}" + (f" (did you mean '{hint[0]}'?)" if hint else "")
    elif kind == "text":
        if not isinstance(value, (str, int)):
            return f"{name} must be text, got {value!r}"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in decl and value < decl["minimum"]:
            return f"{name} {value} is below the minimum {decl['minimum']}"
        if "maximum" in decl and value > decl["maximum"]:
            return f"{name} {value} is above the maximum {decl['maximum']}"
    if "max_length" in decl and len(str(value)) > decl["max_length"]:
        return f"{name} '{value}' is too long for its slot (at most {decl['max_length']} characters)"
    return None


_MISSING = object()


def _resolve_path(obj, dotted: str):
    import re
    node = obj
    for part in re.findall(r"[A-Za-z0-9_]+|\[\d+\]", dotted):
        if part.startswith("["):
            idx = int(part[1:-1])
            if not isinstance(node, list) or idx >= len(node):
                return _MISSING
            node = node[idx]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return _MISSING
    return node
