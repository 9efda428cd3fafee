"""Hex sets the data describes instead of listing: a setup area's ``places`` and a set-up entry's
``at_least_one_in`` (a place set, the vocabulary of the rules' place sets in builder.audit.rules.select,
plus ``within``, ``rows`` and ``adjacent_to``).

A place set selects the union of its ``regions`` (with their child regions), ``hexes``, ``symbols``
(printed location symbols), ``ports`` (true: any port; or the sea ids a port opens on), ``areas`` (setup
or entry areas, resolved the same way) and ``within`` ({distance: N, of: place set}); every hex when it
names none of these. Then it keeps only hexes of its ``terrain`` types, on its ``rows`` ({from, to}: row
labels of the grid, inclusive, e.g. "on or north of row F" is {from: F} on a map whose rows run north),
``adjacent_to`` a hex of another place set, and not in its ``not`` place set.

From the data alone (game and grid), so the module's suggested deployment and the audit's set-up check
read the same hexes. A reference to an unknown id selects nothing here (the validator reports it); an
area that names itself, directly or through others, is read once.
"""

from __future__ import annotations

from builder.geometry.hexes import Hex

SELECTING = ("regions", "hexes", "symbols", "ports", "areas", "within")


def _ids(value) -> list:
    if value is None:
        return []
    return [value] if isinstance(value, (str, int)) else [v for v in value if isinstance(v, (str, int))]


class Places:
    """The place sets and areas of one game on its grid (results cached per area)."""

    def __init__(self, game, grid) -> None:
        self.game, self.grid = game, grid
        self.md = game.map_doc or {}
        self._areas: dict[str, frozenset] = {}
        self._regions: dict | None = None
        self._terrain = None
        self._busy: set = set()

    # ------------------------------------------------------------------ the pieces
    def region(self, rid: str) -> frozenset:
        if self._regions is None:
            regions = [r for r in self.md.get("regions") or [] if isinstance(r, dict) and r.get("id")]
            own = {r["id"]: self._parse(r.get("hexes")) for r in regions}
            children: dict = {}
            for r in regions:
                if r.get("parent"):
                    children.setdefault(r["parent"], []).append(r["id"])
            self._regions = {}
            for top in own:
                hexes, todo, seen = set(), [top], set()
                while todo:
                    x = todo.pop()
                    if x not in seen:
                        seen.add(x)
                        hexes |= own.get(x, set())
                        todo.extend(children.get(x, []))
                self._regions[top] = frozenset(hexes)
        return self._regions.get(rid, frozenset())

    def _parse(self, names) -> set:
        return {h for h in (self.grid.parse(n) for n in _ids(names) if isinstance(n, str)) if h is not None}

    def area(self, area_id: str) -> frozenset:
        """A setup or entry area's hexes: its listed hexes, every location with its symbol, its places."""
        found = self._areas.get(area_id)
        if found is not None:
            return found
        if area_id in self._busy:              # an area naming itself: read once
            return frozenset()
        self._busy.add(area_id)
        try:
            hexes: set = set()
            for coll in ("setup_areas", "entry_areas"):
                for a in self.md.get(coll) or []:
                    if isinstance(a, dict) and a.get("id") == area_id:
                        hexes |= self._parse(a.get("hexes"))
                        if a.get("symbol"):
                            hexes |= self._symbols([a["symbol"]])
                        if isinstance(a.get("places"), dict):
                            hexes |= self.select(a["places"])
            found = self._areas[area_id] = frozenset(hexes)
        finally:
            self._busy.discard(area_id)
        return found

    def _symbols(self, symbols) -> set:
        want = set(_ids(symbols))
        return self._parse([loc["hex"] for loc in self.md.get("locations") or []
                            if isinstance(loc, dict) and loc.get("symbol") in want and isinstance(loc.get("hex"), str)])

    def _ports(self, ports) -> set:
        seas = None if ports is True else set(_ids(ports))
        return self._parse([loc["hex"] for loc in self.md.get("locations") or []
                            if isinstance(loc, dict) and loc.get("port") and isinstance(loc.get("hex"), str)
                            and (seas is None or loc["port"] in seas)])

    def terrain_of(self, h: Hex):
        if self._terrain is None:
            from builder.gamedata import mapterrain
            self._terrain, _ = mapterrain.resolve(self.md, self.grid)
        return self._terrain.terrain(h)

    def row_label_index(self, label) -> int | None:
        from builder.gamedata.mapterrain import _index
        return _index(label, self.grid.spec.rows)

    def _local_row(self, h: Hex) -> int:
        for e in self.grid.extents:
            if e.contains(h):
                return h.row - e.sheet.origin_row
        return h.row

    # ------------------------------------------------------------------ a place set
    def select(self, spec: dict) -> frozenset:
        """The hexes of a place set (see the module docstring)."""
        if not isinstance(spec, dict):
            return frozenset()
        grid = self.grid
        if any(k in spec for k in SELECTING):
            hexes: set = set()
            for rid in _ids(spec.get("regions")):
                hexes |= self.region(rid)
            hexes |= self._parse(spec.get("hexes"))
            if spec.get("symbols"):
                hexes |= self._symbols(spec["symbols"])
            if spec.get("ports"):
                hexes |= self._ports(spec["ports"])
            for aid in _ids(spec.get("areas")):
                hexes |= self.area(aid)
            within = spec.get("within")
            if isinstance(within, dict) and isinstance(within.get("distance"), int):
                centres, n = self.select(within.get("of") or {}), within["distance"]
                hexes |= {h for h in grid.all_hexes() if any(grid.distance(c, h) <= n for c in centres)}
        else:
            hexes = set(grid.all_hexes())
        terrain = set(_ids(spec.get("terrain")))
        if terrain:
            hexes = {h for h in hexes if self.terrain_of(h) in terrain}
        rows = spec.get("rows")
        if isinstance(rows, dict):
            lo = self.row_label_index(rows["from"]) if "from" in rows else None
            hi = self.row_label_index(rows["to"]) if "to" in rows else None
            hexes = {h for h in hexes if (lo is None or self._local_row(h) >= lo)
                     and (hi is None or self._local_row(h) <= hi)}
        if isinstance(spec.get("adjacent_to"), dict):
            near = self.select(spec["adjacent_to"])
            hexes = {h for h in hexes if any(n in near for n in grid.neighbours(h))}
        if isinstance(spec.get("not"), dict):
            hexes -= self.select(spec["not"])
        return frozenset(hexes)

    def names(self, hexes) -> list[str]:
        """Canonical hex IDs in the grid's order (column, then row): deterministic."""
        return [self.grid.name(h) for h in sorted(hexes)]
