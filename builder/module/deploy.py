"""A suggested legal deployment for set-up entries that leave the player a choice of hexes.

An entry naming an area (its listed hexes, every hex carrying its printed symbol, the hexes its
``places`` describe: builder.gamedata.places), a list of hexes, or "within N of a hex" gets a hex of
that choice for each unit: deterministic, within the game's stacking (``game.stacking``: limit, by-side
limits, unit-type weights, a terrain's stacking factor), on a hex the unit may enter (its movement
class's terrain cost is not ``prohibited`` and the terrain is playable), never with another side's
unit, spread along the area as the printed symbols run (a nearest-neighbour chain from the area's first
hex in reading order): every hex gets a unit before any gets a second. An entry's ``at_least_one_in``
place sets (a unit in Belgrade, one in the Hook of Holland) each get one of its units first;
``one_per_hex`` keeps one unit a hex among the entries of one area. Choices are made fewest hexes first
(a one-hex area before the wide territory around it). An entry offering ``boxes`` goes to the first.
The player may rearrange them.

An area the data gives only as a description (no hexes, no symbol, no places) is no hex list: its
units wait in "To place" on the Staging map.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.gamedata import mapterrain
from builder.gamedata.box_loads import MARKER_STACK   # copies of a marker in one box place

TO_PLACE, REINFORCEMENTS = "To place", "Reinforcements"

PROHIBITED = "prohibited"


class Deployer:
    def __init__(self, game, grid) -> None:
        self.game, self.grid = game, grid
        md = game.map_doc or {}
        self.layer, _ = mapterrain.resolve(md, grid)
        self.terrain_types = {t["id"]: t for t in md.get("terrain_types") or [] if isinstance(t, dict) and "id" in t}
        st = (game.doc.get("game") or {}).get("stacking") or {}
        self.limit = float(st["limit"]) if isinstance(st.get("limit"), (int, float)) else None
        self.by_side = {k: float(v) for k, v in (st.get("by_side") or {}).items() if isinstance(v, (int, float))}
        self.counts = st.get("counts") or "units"
        self.exempt = set(st.get("exempt_status") or [])
        self.weights = {tid: float(t["stacking"]) for tid, t in game.by_id["unit_types"].items()
                        if isinstance(t.get("stacking"), (int, float))}
        self.by_hex: dict = {}          # hex id -> {side: stacking points placed so far}
        self._areas: dict = {}

    # ------------------------------------------------------------------ choices
    def candidates(self, e: dict) -> list[str]:
        """The hexes a set-up entry lets the player choose from, in spreading order ([] if none is known)."""
        if isinstance(e.get("hexes"), list):
            return [h for h in e["hexes"] if isinstance(h, str) and self.grid.parse(h) is not None]
        near = e.get("near")
        if isinstance(near, dict) and isinstance(near.get("hex"), str):
            return self._near(near["hex"], int(near.get("within") or 1))
        if isinstance(e.get("area"), str):
            if e["area"] not in self._areas:
                self._areas[e["area"]] = self._chain(self.game.area_hexes(e["area"]))
            return self._areas[e["area"]]
        return []

    def _near(self, hex_id: str, within: int) -> list[str]:
        c = self.grid.parse(hex_id)
        if c is None:
            return []
        ring = sorted(((self.grid.distance(c, h), self.grid.name(h)) for h in self.grid.all_hexes()
                       if self.grid.distance(c, h) <= within))
        return [name for _, name in ring]

    def _chain(self, hex_ids: list[str]) -> list[str]:
        """The hexes ordered along the line they draw: start at the first in reading order (top, then
        left), then always the nearest hex not yet taken."""
        hexes = [(hid, self.grid.parse(hid)) for hid in dict.fromkeys(hex_ids)]
        hexes = [(hid, h) for hid, h in hexes if h is not None]
        if not hexes:
            return []

        def reading_of(item):
            x, y = self.grid.centre(item[1])
            return (round(y), round(x), item[0])
        reading = {hid: reading_of((hid, h)) for hid, h in hexes}   # once per hex, not once per comparison

        # the nearest untaken hex by rings around the last one (distance 1, 2, ...), the first in
        # reading order among a ring's: what min() over all untaken hexes by (distance, reading)
        # gives, without measuring every pair (an area of 400 hexes was 80,000 distances)
        to_axial = self.grid.lattice.to_axial
        at = {}
        for hid, h in hexes:
            at.setdefault(to_axial(h), []).append((hid, h))
        first = min(hexes, key=lambda it: reading[it[0]])
        out, left = [], len(hexes)

        def take(item):
            nonlocal left
            cell = at[to_axial(item[1])]
            cell.remove(item)
            if not cell:
                del at[to_axial(item[1])]
            out.append(item)
            left -= 1
        take(first)
        while left:
            q, r = to_axial(out[-1][1])
            if (q, r) in at:       # the same hex listed under two names: distance 0
                take(min(at[q, r], key=lambda it: reading[it[0]]))
                continue
            d = 1
            while True:
                ring = [it for cell in _ring(q, r, d) if cell in at for it in at[cell]]
                if ring:
                    take(min(ring, key=lambda it: reading[it[0]]))
                    break
                d += 1
        return [hid for hid, _ in out]

    # ------------------------------------------------------------------ legality
    def weight(self, unit: dict, status=()) -> float:
        if self.exempt & set(status or ()):
            return 0.0
        w = self.weights.get(unit.get("type"), 1.0)
        if self.counts == "steps":
            steps = unit.get("steps")
            w *= steps if isinstance(steps, int) and steps > 0 else 1
        return w

    def side_limit(self, side: str | None, hex_id: str) -> float | None:
        if self.limit is None:
            return None
        base = self.by_side.get(side or "", self.limit)
        tt = self._terrain(hex_id)
        factor = tt.get("stacking_factor")
        return base * factor if isinstance(factor, (int, float)) and not isinstance(factor, bool) else base

    def _terrain(self, hex_id: str) -> dict:
        h = self.grid.parse(hex_id)
        tid = self.layer.terrain(h) if h is not None else None
        return self.terrain_types.get(tid) or {}

    def may_enter(self, unit: dict, movement_class: str, hex_id: str) -> bool:
        tt = self._terrain(hex_id)
        if tt.get("playable") is False:
            return False
        cost = (tt.get("movement") or {})
        c = cost.get(movement_class, cost.get("all")) if movement_class else cost.get("all")
        return c != PROHIBITED

    def fits(self, side: str | None, hex_id: str, weight: float) -> bool:
        """Within the side's stacking limit, and no other side's unit there."""
        here = self.by_hex.get(hex_id, {})
        if any(s != side for s in here):
            return False
        limit = self.side_limit(side, hex_id)
        return limit is None or here.get(side, 0.0) + weight <= limit

    def occupy(self, hex_id: str, side: str | None, weight: float) -> None:
        here = self.by_hex.setdefault(hex_id, {})
        here[side] = here.get(side, 0.0) + weight

    # ------------------------------------------------------------------ choose
    def choose(self, unit: dict, side: str | None, movement_class: str, hexes: list[str], k: int, n: int,
               status=(), one_per_hex: bool = False, taken: set | None = None) -> str | None:
        """A hex for the k-th of n units of one entry: the least-filled legal hex, nearest the k-th of n
        evenly spaced points along the list; None when no hex of the list may take it. With
        ``one_per_hex`` no hex of ``taken`` (the hexes the entry's units already hold; all occupied hexes
        without it), and the chosen hex joins it."""
        if not hexes:
            return None
        w = self.weight(unit, status)
        target = (k + 0.5) * len(hexes) / max(n, 1) - 0.5
        best = None
        for i, hid in enumerate(hexes):
            if not self.may_enter(unit, movement_class, hid) or not self.fits(side, hid, w):
                continue
            here = self.by_hex.get(hid)
            if one_per_hex and (hid in taken if taken is not None else here):
                continue
            key = (bool(here), (here or {}).get(side, 0.0), abs(i - target), i)
            if best is None or key < best[0]:
                best = (key, hid)
        if best is None:
            return None
        self.occupy(best[1], side, w)
        if one_per_hex and taken is not None:
            taken.add(best[1])
        return best[1]


_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _ring(q: int, r: int, d: int):
    """The axial cells at distance d from (q, r)."""
    cq, cr = q + _DIRECTIONS[4][0] * d, r + _DIRECTIONS[4][1] * d
    for dq, dr in _DIRECTIONS:
        for _ in range(d):
            yield cq, cr
            cq, cr = cq + dq, cr + dr


# ---------------------------------------------------------------------- where every entry goes
@dataclass
class Target:
    """Where one piece of a scenario goes: a hex, or a place (``place``) in a zone (a box or a Staging box).
    Pieces sharing a place key share the place: a unit and the markers set up with it."""
    kind: str                  # "unit" | "marker"
    key: str                   # unit id or marker id
    hex: str | None = None
    zone: str | None = None
    place: str = ""
    entry: dict = field(default_factory=dict)
    face: str = "front"
    losses: int = 0


class ScenarioTargets:
    """Every set-up and reinforcement entry of a scenario resolved to targets, from the data alone (the
    module's Layout sizes its Staging boxes from these before any piece is drawn)."""

    def __init__(self, game, layout, scenario) -> None:
        self.game, self.layout = game, layout
        self.deployer = Deployer(game, layout.grid)
        self.targets: list[Target] = []
        self.where: dict[str, Target] = {}       # unit id -> its target
        self.notes: list[str] = []
        self._copies: dict = {}                  # (zone, marker id) -> copies placed
        self._one_per_hex: dict = {}             # area (or entry) -> hexes its one_per_hex units hold
        setup = [e for e in scenario.get("setup") or [] if isinstance(e, dict)]
        # fixed hexes and boxes first (they fill stacking the choices must respect), then the choices with
        # the fewest hexes (Vlasov's Prague before the Soviet territory around it), at_unit last
        fixed = ("hex", "box", "boxes")
        order = sorted(setup, key=lambda e: (2, 0) if "at_unit" in e else
                       ((0, 0) if any(k in e for k in fixed) else (1, len(self.deployer.candidates(e)))))
        for e in order:
            self._entry(e, reinforcement=False)
        for e in scenario.get("reinforcements") or []:
            if isinstance(e, dict):
                self._entry(e, reinforcement=True)

    def zone_places(self) -> dict[str, int]:
        out: dict[str, set] = {}
        for t in self.targets:
            if t.zone:
                out.setdefault(t.zone, set()).add(t.place)
        return {z: len(p) for z, p in out.items()}

    # ------------------------------------------------------------------ entries
    def _entry(self, e: dict, reinforcement: bool) -> None:
        ids = [e["unit"]] if isinstance(e.get("unit"), str) else list(e.get("units") or [])
        ids = [u for u in ids if isinstance(u, str)]
        hexes = None
        for k, uid in enumerate(ids):
            unit = self.game.units.get(uid)
            if unit is None:
                self.notes.append(f"unknown unit {uid!r}")
                continue
            if uid in self.where:
                self.notes.append(f"{uid} has more than one entry; placed by its first")
                continue
            side = e.get("side") or self.game.side_of(unit)
            chosen = False
            t = Target("unit", uid, entry=e, face=e.get("face", "front"), losses=int(e.get("step_losses") or 0))
            if reinforcement:
                self._zone(t, self.layout.staging_zone(REINFORCEMENTS, self._side(side), self._turn(e)), uid)
            elif isinstance(e.get("hex"), str):
                t.hex = e["hex"]
            elif isinstance(e.get("box"), str) and e["box"] in self.layout.box_zone:
                self._zone(t, self.layout.box_zone[e["box"]], uid)
            elif any(b in self.layout.box_zone for b in e.get("boxes") or []):
                # a choice of boxes: the first the module has (the player may move it to another)
                self._zone(t, self.layout.box_zone[next(b for b in e["boxes"] if b in self.layout.box_zone)], uid)
            elif isinstance(e.get("at_unit"), str) and e["at_unit"] in self.where:
                other = self.where[e["at_unit"]]
                t.hex, t.zone, t.place = other.hex, other.zone, other.place
            else:
                if hexes is None:
                    hexes = self.deployer.candidates(e)
                    wanted = self._wanted(e, hexes, len(ids))
                mclass = movement_class(self.game, unit)
                # one unit a hex among the entries of one area (3.7 B: the F infantry of two entries)
                taken = self._one_per_hex.setdefault(e.get("area") or id(e), set())
                t.hex = None
                for i, want in enumerate(wanted):   # at_least_one_in: a unit into each such set first
                    if want is not None:
                        t.hex = self.deployer.choose(unit, side, mclass, want, 0, 1, e.get("status") or (),
                                                     bool(e.get("one_per_hex")), taken)
                        if t.hex is not None:
                            wanted[i] = None
                            break
                if t.hex is None:
                    t.hex = self.deployer.choose(unit, side, mclass, hexes, k, len(ids), e.get("status") or (),
                                                 bool(e.get("one_per_hex")), taken)
                chosen = True
                if t.hex is None:
                    self._zone(t, self.layout.staging_zone(TO_PLACE, self._side(side)), uid)
            if t.hex is not None and not chosen:
                self.deployer.occupy(t.hex, side, self.deployer.weight(unit, e.get("status") or ()))
            self.where[uid] = t
            self.targets.append(t)
            for mid in e.get("with") or []:
                if isinstance(mid, str):
                    self.targets.append(Target("marker", mid, t.hex, t.zone, t.place, e))
        if isinstance(e.get("marker"), str):
            mid = e["marker"]
            marker = self.game.by_id["markers"].get(mid) or {}
            box = e.get("box") or (e.get("boxes") or [None])[0]
            if box in self.layout.box_zone and not reinforcement:
                zone = self.layout.box_zone[box]
            else:
                side = marker.get("side") or self._box_side(box)
                kind = REINFORCEMENTS if reinforcement else TO_PLACE
                zone = self.layout.staging_zone(kind, self._side(side), self._turn(e) if reinforcement else None)
            for _ in range(max(1, int(e.get("quantity") or 1))):
                # copies stack, at most MARKER_STACK to a place, so a stack stays inside its place
                n = self._copies[(zone, mid)] = self._copies.get((zone, mid), 0) + 1
                self.targets.append(Target("marker", mid, zone=zone, place=f"marker:{mid}:{(n - 1) // MARKER_STACK}",
                                           entry=e))

    def _wanted(self, e: dict, hexes: list[str], n: int) -> list:
        """The entry's ``at_least_one_in`` place sets as hex lists of its choice (in its spreading order),
        each to get one of its units before the rest spread out."""
        places = self.game.places()
        if places is None or not isinstance(e.get("at_least_one_in"), list):
            return []
        out = []
        for spec in e["at_least_one_in"][:n]:
            inside = places.select(spec) if isinstance(spec, dict) else frozenset()
            out.append([h for h in hexes if places.grid.parse(h) in inside])
        return out

    def _side(self, side):
        return side if side in self.layout.sides else (self.layout.sides or [None])[0]

    def _turn(self, e):
        return e.get("turn") if e.get("turn") in self.layout.turns else None

    @staticmethod
    def _zone(t: Target, zone: str, place: str) -> None:
        t.zone, t.place = zone, place

    def _box_side(self, box) -> str | None:
        for b in (self.game.map_doc or {}).get("boxes") or []:
            if isinstance(b, dict) and b.get("id") == box:
                return b.get("side")
        return None


def movement_class(game, unit) -> str:
    utype = game.by_id["unit_types"].get(unit.get("type")) or {}
    mc = unit.get("movement_class") or utype.get("movement_class") or (unit.get("front") or {}).get("movement_class")
    return mc if isinstance(mc, str) else ""
