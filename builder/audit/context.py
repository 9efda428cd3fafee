"""What the audit knows of a game, from its data alone (no module file, no images needed).

* Locations: the module's own layout (builder.module.maps.Layout, fed the map step's image plan
  without drawing) gives every board's offset, size, VASSAL hex grid and box zones, so a map pixel
  is named exactly as VASSAL's Map.locationName names it: a zone's name inside a zone, else the
  board grid's hex ID (VASSAL does not snap when naming), else the board's name; "offboard" outside.
* Units: the palette definitions (builder.module.pieces.build_defs) give each unit's face levels,
  level k = (counter index, face), hence which ``<Face>_<value>`` Marker properties show.
* Turns: the module's turn trackers (builder.module.turns.calendars) with the data's sequence of
  play, so a tracker state gives (turn, player-turn, phase) with the phase's data id.
* Terrain: one terrain id per hex (builder.gamedata.mapterrain), terrain/hexside/line types, the
  hexside features by side and the line features by step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from builder.audit.errors import AuditInputError
from builder.geometry.hexes import Hex
from builder.geometry.vassal_grid import location_name

OFFBOARD = "offboard"
LOCATE_CACHE = 20_000     # map points remembered with their location


@dataclass(frozen=True)
class Location:
    """Where a piece is: the map, VASSAL's location name there, and the hex when it is one; ``index``: the
    hex's number in :attr:`AuditContext.hexes` (-1: not a hex), for tables indexed by hex (set by
    :meth:`AuditContext.locate`; derived from ``hex``, so not compared)."""

    map: str | None
    name: str
    hex: Hex | None = None
    kind: str = "offmap"        # hex | zone | board | offboard | offmap
    index: int = field(default=-1, compare=False)

    def __str__(self) -> str:
        return self.name


NOWHERE = Location(None, "off-map", None, "offmap")


@dataclass
class _Board:
    name: str
    left: int
    top: int
    width: int
    height: int
    vgrid: object = None
    zones: dict = field(default_factory=dict)       # name -> (x, y, w, h) board pixels


@dataclass
class PhaseInfo:
    """One phase of a tracker's sequence: indices in the tracker and the data's ids and names."""

    turn: int | None
    player_turn: str | None       # data id of the player-turn
    side: str | None              # the phasing side (None: both)
    phase_id: str | None
    phase_name: str
    rule: str = ""
    kind: str = ""                # the phase's data kind (movement, combat ...); "" when not given
    index: tuple = ()             # (turn index, player-turn index, phase index) on the tracker

    def label(self) -> str:
        return self.phase_name or self.phase_id or ""


class Calendar:
    """A turn tracker: its turns and, per player-turn, the data's phases."""

    def __init__(self, tracker_id: str, turns: list, sequence: list) -> None:
        self.tracker_id = tracker_id
        self.turns = turns
        self.sequence = [pt for pt in sequence if isinstance(pt, dict) and pt.get("phases")]

    def phase(self, turn_index: int, pt_index: int, phase_index: int) -> PhaseInfo:
        turn = self.turns[turn_index] if 0 <= turn_index < len(self.turns) else None
        if not 0 <= pt_index < len(self.sequence):
            return PhaseInfo(turn, None, None, None, "")
        pt = self.sequence[pt_index]
        phases = [p for p in pt.get("phases") or [] if isinstance(p, dict)]
        ph = phases[phase_index] if 0 <= phase_index < len(phases) else {}
        return PhaseInfo(turn, pt.get("id"), pt.get("side"), ph.get("id"),
                         ph.get("name") or ph.get("id") or "", ph.get("rule") or "", ph.get("kind") or "",
                         (turn_index, pt_index, phase_index))


class AuditContext:
    """The game as the audit sees it. Build with :meth:`from_report` (a validated game)."""

    def __init__(self, report) -> None:
        from builder.gamedata import mapterrain
        from builder.module import maps, pieces, turns
        from builder.render import counter_build, map_build

        game, grid = report.model, report.grid
        if game is None or grid is None or game.map_doc is None:
            raise AuditInputError(f"{report.game}: the game has no map with a grid; nothing to audit against")
        self.report, self.game, self.grid = report, game, grid
        self.game_id = report.game
        # hexes as small integers: index i of self.hexes (the grid's hexes, sorted); tables indexed by hex
        # (lists, not dicts keyed by Hex) read a Location's ``index``, given once when the location is made
        self.hexes: tuple = grid.all_hexes()
        self.hex_index: dict = {h: i for i, h in enumerate(self.hexes)}
        self._neighbour_index = None
        counters = {(pid, face): Path(rel).name for pid, face, rel in counter_build.counter_images(game)}
        self.defs = {d.key: d for d in pieces.build_defs(game, counters) if d.kind == "unit"}
        layout = maps.Layout(game, grid, SimpleNamespace(maps=map_build.game_map_images(game, grid)), draw=False)
        self.layout = layout
        self.main_map = layout.main.name
        self.box_zone = dict(layout.box_zone)          # box id -> the zone's name (a location name)
        self.zone_box = {z: b for b, z in self.box_zone.items()}
        self.boards: dict[str, list[_Board]] = {}
        for plan in layout.maps:
            self.boards[plan.name] = [
                _Board(b.name, b.offset[0], b.offset[1], b.size[0], b.size[1], b.vgrid, dict(b.zones))
                for b in plan.boards]
        self._loc_cache: dict = {}                      # (map, x, y) -> Location (at most LOCATE_CACHE)
        self._locations: dict = {}                      # Location -> the one object for it
        self._hexes_cache: dict = {}
        self._enemies: dict = {}
        self._face_keys: dict = {}
        self._face_props: dict = {}
        # turns: tracker id -> Calendar with the data's sequence
        cals, cal_of = turns.calendars(game)
        self.scenario_tracker = {sid: cal.tracker_id for sid, cal in cal_of.items()}
        doc_seq = game.doc.get("sequence") or []
        self.calendars: dict[str, Calendar] = {}
        for cal in cals:
            seq = doc_seq
            for sc in game.by_id["scenarios"].values():
                if cal.name.startswith("Turn (") and (sc.get("turns") or sc.get("sequence")) \
                        and cal.name == f"Turn ({sc.get('name') or sc['id']})":
                    seq = sc.get("sequence") or doc_seq
            self.calendars[cal.tracker_id] = Calendar(cal.tracker_id, list(cal.turns), seq)
        # terrain
        self.terrain_layer, _ = mapterrain.resolve(game.map_doc, grid)
        md = game.map_doc
        self.terrain_types = _index(md.get("terrain_types"))
        self.hexside_types = _index(md.get("hexside_types"))
        self.line_types = _index(md.get("line_types"))
        self.hexsides: dict[frozenset, list[str]] = {}
        for run in md.get("hexsides") or []:
            if not isinstance(run, dict):
                continue
            for pair in run.get("sides") or []:
                hs = [grid.parse(x) for x in pair if isinstance(x, str)]
                if len(hs) == 2 and None not in hs:
                    self.hexsides.setdefault(frozenset(hs), []).append(run.get("type"))
        self.lines: dict[tuple, list[str]] = {}       # (a, b) step along a line, both directions
        for line in md.get("lines") or []:
            if not isinstance(line, dict):
                continue
            path = [grid.parse(x) for x in line.get("path") or [] if isinstance(x, str)]
            for a, b in zip(path, path[1:]):
                if a is not None and b is not None:
                    self.lines.setdefault((a, b), []).append(line.get("type"))
                    self.lines.setdefault((b, a), []).append(line.get("type"))

    @classmethod
    def from_report(cls, report) -> "AuditContext":
        return cls(report)

    # ------------------------------------------------------------------ locations
    def locate(self, map_id: str | None, x: int, y: int) -> Location:
        """VASSAL's location name of a map point, with the hex when the name is one."""
        if map_id is None:
            return NOWHERE
        key = (map_id, x, y)
        found = self._loc_cache.get(key)
        if found is None:
            found = self._locate(map_id, x, y)
            # one object per location (a map has a few thousand; players drop pieces on many more pixels)
            if len(self._locations) >= LOCATE_CACHE:
                self._locations.clear()
            found = self._locations.setdefault(found, found)
            if len(self._loc_cache) >= LOCATE_CACHE:
                self._loc_cache.clear()         # bounded: a log of a million drops stays flat
            self._loc_cache[key] = found
        return found

    def _locate(self, map_id: str, x: int, y: int) -> Location:
        boards = self.boards.get(map_id)
        if boards is None:
            return Location(map_id, map_id, None, "board")
        for b in boards:
            if not (b.left <= x < b.left + b.width and b.top <= y < b.top + b.height):
                continue
            lx, ly = x - b.left, y - b.top
            for name, (zx, zy, zw, zh) in b.zones.items():
                if zx <= lx <= zx + zw and zy <= ly <= zy + zh:
                    return Location(map_id, name, None, "zone")
            if b.vgrid is not None:
                name = location_name(b.vgrid.grid, b.vgrid.numbering, (lx, ly), (b.width, b.height))
                h = self.grid.parse(name)
                if h is None:
                    return Location(map_id, name, None, "board")
                return Location(map_id, name, h, "hex", self.hex_index[h])
            return Location(map_id, b.name, None, "board")
        return Location(map_id, OFFBOARD, None, "offboard")

    def neighbour_index(self) -> tuple:
        """Per hex index, the indices of its neighbours on the grid (grid.neighbours' order), made once."""
        found = self._neighbour_index
        if found is None:
            index, neighbours = self.hex_index, self.grid.neighbours
            found = self._neighbour_index = tuple(tuple(index[n] for n in neighbours(h)) for h in self.hexes)
        return found

    # ------------------------------------------------------------------ units
    def face_key(self, unit_id: str, level: int) -> str:
        """``Front``/``Back``/``Front2``... for the unit's face level (1-based)."""
        key = (unit_id, level)
        found = self._face_keys.get(key)
        if found is None:
            from builder.module.names import face_key
            d = self.defs.get(unit_id)
            if d is not None and 1 <= level <= len(d.levels):
                index, face = d.levels[level - 1]
                found = face_key(face, index)
            else:
                found = "Back" if level == 2 else "Front"
            if len(self._face_keys) < 100_000:
                self._face_keys[key] = found
        return found

    def face_property(self, unit_id: str, level: int, value_id: str) -> str:
        """The Marker property holding *value_id* on that face: ``<face key>_<value id>``."""
        key = (unit_id, level, value_id)
        found = self._face_props.get(key)
        if found is None:
            found = f"{self.face_key(unit_id, level)}_{value_id}"
            if len(self._face_props) < 100_000:
                self._face_props[key] = found
        return found

    def terrain(self, h: Hex) -> str | None:
        return self.terrain_layer.terrain(h)

    # ------------------------------------------------------------------ data for the engines
    def spec(self, key: str) -> dict:
        """A top-level mapping of the game's data (zones_of_control, control, movement), or {}."""
        v = self.game.doc.get(key)
        return v if isinstance(v, dict) else {}

    def unit_data(self, unit_id: str) -> dict:
        """The unit's resolved data (templates applied), {} for an unknown id."""
        return self.game.units.get(unit_id) or {}

    def hexes_of(self, ids) -> set:
        """The hexes of regions, setup areas or entry areas named by *ids* (one id or a list)."""
        ids = [ids] if isinstance(ids, str) else list(ids or [])
        key = tuple(ids)
        cache = self._hexes_cache
        found = cache.get(key)
        if found is None:
            names: list = []
            md = self.game.map_doc or {}
            for i in ids:
                names += self.game.area_hexes(i)
                for coll in ("regions", "entry_areas"):
                    for r in md.get(coll) or []:
                        if isinstance(r, dict) and r.get("id") == i:
                            names += [h for h in r.get("hexes") or [] if isinstance(h, str)]
            found = cache[key] = {h for h in (self.grid.parse(n) for n in names) if h is not None}
        return found

    def own_tracker(self, scenario_id: str) -> bool:
        """Whether the scenario has a turn tracker of its own (its own turns or sequence)."""
        sc = self.game.by_id["scenarios"].get(scenario_id) or {}
        return bool(sc.get("turns") or sc.get("sequence"))

    def enemies(self, side: str) -> frozenset:
        """The sides hostile to *side*: the data's ``zones_of_control.enemies``, else every other side."""
        found = self._enemies.get(side)
        if found is None:
            table = self.spec("zones_of_control").get("enemies")
            if isinstance(table, dict) and side in table:
                found = frozenset(table[side] or [])
            else:
                found = frozenset(s for s in self.game.by_id["sides"] if s != side)
            self._enemies[side] = found
        return found

    def is_staging(self, loc: Location, kind: str) -> bool:
        """Whether *loc* is one of the module's staging zones of *kind* ("To place", "Reinforcements")."""
        return loc.kind == "zone" and loc.name.startswith(kind + ":")


def _index(items) -> dict:
    return {t["id"]: t for t in items or [] if isinstance(t, dict) and isinstance(t.get("id"), str)}
