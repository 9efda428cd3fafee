"""The map document reduced to what drawing needs: types by id and every layer keyed by Hex.

Built only from a map that validated, so lookups here may assume ids resolve; anything that still does
not (a hexside naming an unknown type) raises BuildError naming it rather than drawing something wrong.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.errors import BuildError
from builder.gamedata import mapterrain


@dataclass
class MapData:
    grid: object
    doc: dict
    terrain_types: dict = field(default_factory=dict)
    hexside_types: dict = field(default_factory=dict)
    line_types: dict = field(default_factory=dict)
    layer: mapterrain.TerrainLayer = field(default_factory=mapterrain.TerrainLayer)
    hexsides: list = field(default_factory=list)    # (type dict, Hex, Hex)
    runs: list = field(default_factory=list)        # (type dict, run name, [(Hex, Hex), ...]): one per hexsides entry
    lines: list = field(default_factory=list)       # (type dict, [Hex, ...])
    locations: dict = field(default_factory=dict)   # Hex -> location dict
    nation: dict = field(default_factory=dict)      # Hex -> nation region id
    regions: dict = field(default_factory=dict)     # id -> region dict
    boxes: list = field(default_factory=list)
    box_places: dict = field(default_factory=dict)  # box id -> counter places it must show (gamedata.box_loads)
    place_px: int = 0                               # one counter place, counter plus gap, in pixels
    label_layout: object = None                     # map_labels.Layout, computed once for every board

    def terrain_of(self, h) -> dict | None:
        tid = self.layer.terrain(h)
        return self.terrain_types.get(tid) if tid else None

    def arrow_target(self, a, b):
        """The playable one of two hexes when exactly one is (a crossing there is an arrow: sea to coast)."""
        play = [(self.terrain_of(h) or {}).get("playable", True) is not False for h in (a, b)]
        if play[0] != play[1]:
            return a if play[0] else b
        return None

    @property
    def arrow_kinds(self) -> set:
        """Ids of crossing hexside types drawn as arrows (some side of theirs has a target), for the legend."""
        return {k["id"] for k, a, b in self.hexsides if k.get("style") == "crossing" and self.arrow_target(a, b)}


def _by_id(items) -> dict:
    return {i["id"]: i for i in items or [] if isinstance(i, dict) and isinstance(i.get("id"), str)}


def load(map_doc: dict, grid) -> MapData:
    data = MapData(grid, map_doc)
    data.terrain_types = _by_id(map_doc.get("terrain_types"))
    data.hexside_types = _by_id(map_doc.get("hexside_types"))
    data.line_types = _by_id(map_doc.get("line_types"))
    data.layer, _ = mapterrain.resolve(map_doc, grid)
    parse = grid.parse
    for run in map_doc.get("hexsides") or []:
        kind = data.hexside_types.get(run.get("type"))
        if kind is None:
            raise BuildError(f"hexside type {run.get('type')!r} is not declared")
        sides = [(parse(a), parse(b)) for a, b in run.get("sides") or []]
        data.hexsides += [(kind, a, b) for a, b in sides]
        data.runs.append((kind, run.get("name") or kind["id"], sides))
    for line in map_doc.get("lines") or []:
        kind = data.line_types.get(line.get("type"))
        if kind is None:
            raise BuildError(f"line type {line.get('type')!r} is not declared")
        data.lines.append((kind, [parse(h) for h in line.get("path") or []]))
    for loc in map_doc.get("locations") or []:
        h = parse(loc.get("hex", ""))
        if h is not None:
            data.locations[h] = loc
    data.regions = _by_id(map_doc.get("regions"))
    for reg in data.regions.values():
        if reg.get("kind") == "nation":
            for hid in reg.get("hexes") or []:
                h = parse(hid)
                if h is not None:
                    data.nation.setdefault(h, reg["id"])
    data.boxes = [b for b in map_doc.get("boxes") or [] if isinstance(b, dict)]
    return data
