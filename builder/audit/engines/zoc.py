"""Zones of control from the data's ``zones_of_control``.

A unit projects a ZOC when it is a combat unit (``projected_by.combat_only``, default true) and none
of ``projected_by``'s exclusions applies: ``not_types`` (unit type ids), ``not_statuses`` (the
Status property, e.g. BCS Support), ``not_faces`` (``front``/``back`` of the face showing),
``not_flags``, ``not_nationalities``. Its zone is its own hex and the adjacent hexes, except hexes of
terrain ``not_into_terrain``, hexes across a hexside of a type in ``not_across_hexsides`` (unless the
same hexside also has a type in ``through_hexsides``, e.g. a bridge), and, for the nationalities or
sides of a ``confined`` entry, hexes outside its regions, and for the sides of a ``not_into_markers``
entry, hexes holding one of its markers (EotID: no Axis ZOC into a WA invasion-port hex, 9.4). The map's
terrain and hexside types with ``zoc: false`` block a ZOC too (a nationality's ZOC only in its country).

Movement: ``enter_cost`` / ``leave_cost`` MP to enter / leave a hex in an enemy ZOC (EZOC);
``rigid``: a unit entering an EZOC stops there (true, or a list of movement classes that stop);
``zoc_to_zoc: false``: no move directly from one EZOC hex into another. ``negated_by_friendly``
lists the purposes (``movement``, ``supply``, ``retreat``) for which a friendly unit in a hex
cancels the EZOC there. Enemies: ``enemies`` (side -> sides), else every other side.

The zone of every projecting unit is kept up to date incrementally (a move, a flip, a status
change, an addition or removal updates that unit only), so querying a hex is a dictionary look-up.
"""

from __future__ import annotations

from builder.audit.replay import Visitor

PURPOSES = ("movement", "supply", "retreat")
EMPTY: frozenset = frozenset()


class ZocMap(Visitor):
    def __init__(self, ctx) -> None:
        self.ctx = ctx
        spec = ctx.spec("zones_of_control")
        self.spec = spec
        self.enabled = bool(spec)
        self.rule = spec.get("rule") or ""
        by = spec.get("projected_by") or {}
        self.combat_only = by.get("combat_only", True)
        self.not_types = set(by.get("not_types") or [])
        self.not_statuses = set(by.get("not_statuses") or [])
        self.not_faces = {f.lower() for f in by.get("not_faces") or []}
        self.not_flags = set(by.get("not_flags") or [])
        self.not_nationalities = set(by.get("not_nationalities") or [])
        # the map's own ``zoc: false`` on terrain and hexside types, and the rules data's lists
        self.blocked_terrain = set(spec.get("not_into_terrain") or []) | \
            {t for t, d in ctx.terrain_types.items() if d.get("zoc") is False}
        self.blocked_sides = set(spec.get("not_across_hexsides") or []) | \
            {t for t, d in ctx.hexside_types.items() if d.get("zoc") is False}
        self.through_sides = set(spec.get("through_hexsides") or [])
        self.confined = [(set(c.get("nationalities") or []), set(c.get("sides") or []),
                          ctx.hexes_of(c.get("regions") or []))
                         for c in spec.get("confined") or [] if isinstance(c, dict)]
        self.marker_blocks = [(set(c.get("sides") or []), set(c.get("markers") or []))
                              for c in spec.get("not_into_markers") or [] if isinstance(c, dict)]
        self._gone = None                 # a marker being removed (its event comes before the removal)
        self.enter_cost = float(spec.get("enter_cost") or 0)
        self.leave_cost = float(spec.get("leave_cost") or 0)
        rigid = spec.get("rigid", False)
        self.rigid_all = rigid is True
        self.rigid_classes = set(rigid) if isinstance(rigid, list) else set()
        self.zoc_to_zoc = spec.get("zoc_to_zoc", True)
        self.negated = set(spec.get("negated_by_friendly") or [])
        # hexes as small integers (ctx.hexes): a zone is a frozenset of hex indices, each side's count of
        # units projecting into a hex a list indexed by hex; by_side, the view the path searches read, is
        # keyed by Hex and kept beside them
        self.hexes, self._hex_index = ctx.hexes, ctx.hex_index
        self._izone: dict = {}            # piece id -> (side, frozenset of hex indices)
        self.counts: dict = {}            # side -> [units of the side projecting into hex i] (list by index)
        self.version = 0                  # changes whenever any zone changes
        self.by_side: dict = {}           # side -> {hex: number of its units projecting into it}
        self.side_version: dict = {}      # side -> changes whenever one of its zones changes
        self._enemies: dict = {}          # side -> its enemies, sorted
        self._enemy_counts: dict = {}     # side -> the counts lists of its enemies
        self._reach: list = [None] * len(self.hexes)   # hex index -> the hex indices a ZOC from it reaches
        self._confined_index = [(nats, sides, frozenset(self._hex_index[h] for h in region if h in self._hex_index))
                                for nats, sides, region in self.confined]
        self._projects: dict = {}         # (unit id, type, nationality, status, level) -> projects a ZOC
        # id(unit) -> (unit, status, level, projects a ZOC, its zones by hex index: the table of the confined
        # entries that apply to it, which its nationality and side fix, or None when it projects none)
        self._unit_projects: dict = {}
        self._tables: dict = {(): self._reach}   # indices of the confined entries applying -> zones by hex index
        self._zones: dict = {}            # side -> the EnemyZone of the enemies' current state
        self.touched: set | None = None   # when a listener sets it (control): hex indices whose projecting sides changed

    @property
    def zone(self) -> dict:
        """piece id -> (side, frozenset of the hexes its ZOC covers), for every unit projecting one."""
        hexes = self.hexes
        return {pid: (side, frozenset(hexes[i] for i in z)) for pid, (side, z) in self._izone.items()}

    @property
    def count(self) -> dict:
        """hex -> {side: number of its units projecting into it} (made from the per-side lists when asked)."""
        out: dict = {}
        hexes = self.hexes
        for side, cnt in self.counts.items():
            for i, n in enumerate(cnt):
                if n:
                    out.setdefault(hexes[i], {})[side] = n
        return out

    def _counts_of(self, side: str) -> list:
        found = self.counts.get(side)
        if found is None:
            found = self.counts[side] = [0] * len(self.hexes)
        return found

    # ------------------------------------------------------------------ projection
    def projects(self, unit, pos) -> bool:
        """Whether *unit* projects a ZOC where it stands (by type, status, face, flags, nationality)."""
        if unit.location.hex is None:
            return False
        mine = self._unit_projects.get(id(unit))      # this unit's answer for its status and face
        if mine is not None and mine[0] is unit and mine[1] == unit.status and mine[2] == unit.level:
            return mine[3]
        props = unit.props
        key = (unit.unit_id, props.get("Type"), props.get("Nationality"), unit.status, unit.level)
        found = self._projects.get(key)
        if found is None:
            found = self._projects_now(unit)
            if len(self._projects) > 50_000:
                self._projects.clear()
            self._projects[key] = found
        if len(self._unit_projects) > 20_000:
            self._unit_projects.clear()
        self._unit_projects[id(unit)] = (unit, unit.status, unit.level, found, self._table(unit) if found else None)
        return found

    def _table(self, unit) -> list:
        """The zones by hex index of units to which the same confined entries apply (filled as asked)."""
        nat = unit.props.get("Nationality", "")
        key = tuple(k for k, (nats, sides, _) in enumerate(self._confined_index) if nat in nats or unit.side in sides)
        found = self._tables.get(key)
        if found is None:
            found = self._tables[key] = [None] * len(self.hexes)
        return found

    def _projects_now(self, unit) -> bool:
        data = self.ctx.unit_data(unit.unit_id)
        if self.combat_only and not self.ctx.game.is_combat(data or {"type": unit.props.get("Type")}):
            return False
        if unit.props.get("Type", data.get("type")) in self.not_types:
            return False
        if unit.statuses() & self.not_statuses:
            return False
        if self.not_faces and self.face(unit) in self.not_faces:
            return False
        if self.not_flags & set(data.get("flags") or []):
            return False
        return unit.props.get("Nationality", data.get("nationality")) not in self.not_nationalities

    def face(self, unit) -> str:
        d = self.ctx.defs.get(unit.unit_id)
        if d is not None and 1 <= unit.level <= len(d.levels):
            return d.levels[unit.level - 1][1].lower()
        return "back" if unit.level > 1 else "front"

    def zone_of(self, unit, pos) -> frozenset:
        """The hexes the unit's ZOC covers (empty if it projects none)."""
        hexes = self.hexes
        return frozenset(hexes[i] for i in self.zone_index(unit, pos))

    def zone_index(self, unit, pos) -> frozenset:
        """:meth:`zone_of` as hex indices (ctx.hexes)."""
        if not self.enabled:
            return EMPTY
        loc = unit.location
        i = loc.index
        if i < 0:
            if loc.hex is None:
                return EMPTY
            i = self._hex_index.get(loc.hex, -1)        # a Location made by hand
        if i < 0:
            return EMPTY
        mine = self._unit_projects.get(id(unit))        # projects()'s memo, read here
        if mine is None or mine[0] is not unit or mine[1] != unit.status or mine[2] != unit.level:
            if not self.projects(unit, pos):
                return EMPTY
            mine = self._unit_projects[id(unit)]
        table = mine[4]
        if table is None:
            return EMPTY
        out = table[i]
        if out is None:
            out = self._reach[i]
            if out is None:
                out = self._reach[i] = self._reach_of(i)
            if table is not self._reach:
                nat = unit.props.get("Nationality", "")
                for nats, sides, region in self._confined_index:
                    if nat in nats or unit.side in sides:
                        out = out & region
                table[i] = out
        if pos.markers:
            hexes = self.hexes
            for sides, markers in self.marker_blocks:
                if unit.side in sides:
                    out = frozenset(x for x in out if not markers & {m.marker_id for m in pos.markers_at(hexes[x])
                                                                       if m.piece_id != self._gone})
        return out

    def _reach_of(self, i: int) -> frozenset:
        """The hex and the neighbours a ZOC from it may enter by terrain and hexsides alone (as indices)."""
        ctx = self.ctx
        hexes = self.hexes
        h = hexes[i]
        out = {i}
        for j in ctx.neighbour_index()[i]:
            n = hexes[j]
            if ctx.terrain(n) in self.blocked_terrain:
                continue
            sides = set(ctx.hexsides.get(frozenset((h, n)), ()))
            if sides & self.blocked_sides and not sides & self.through_sides:
                continue
            out.add(j)
        return frozenset(out)

    def _update(self, unit, pos) -> None:
        """The unit's zone now against the one it had: only the hexes that differ are counted again."""
        pid, side = unit.piece_id, unit.side
        new = self.zone_index(unit, pos) if pid in pos.units else EMPTY
        old = self._izone.get(pid)
        if old is None:
            if not new:
                return                      # projected none, projects none: nothing changed
            gone = EMPTY
        elif old[0] == side:
            if old[1] == new:
                return
            gone, new_only = old[1] - new, new - old[1]
        else:
            gone = old[1]
        if old is not None and gone:
            self._take(old[0], gone)
        if old is not None:
            self.side_version[old[0]] = self.side_version.get(old[0], 0) + 1
        if new:
            self._izone[pid] = (side, new)
            self._give(side, new_only if old is not None and old[0] == side else new)
            self.side_version[side] = self.side_version.get(side, 0) + 1
        else:
            self._izone.pop(pid, None)
        self.version += 1

    def _take(self, side: str, idx) -> None:
        """One unit of *side* no longer projects into the hexes of indices *idx*."""
        cnt, mine, touched, hexes = self.counts[side], self.by_side[side], self.touched, self.hexes
        for i in idx:
            n = cnt[i] - 1
            cnt[i] = n
            if n:
                mine[hexes[i]] = n
            else:
                del mine[hexes[i]]
                if touched is not None:
                    touched.add(i)          # the sides projecting here changed

    def _give(self, side: str, idx) -> None:
        """One more unit of *side* projects into the hexes of indices *idx*."""
        cnt, touched, hexes = self._counts_of(side), self.touched, self.hexes
        mine = self.by_side.get(side)
        if mine is None:
            mine = self.by_side[side] = {}
        for i in idx:
            n = cnt[i] + 1
            cnt[i] = n
            mine[hexes[i]] = n
            if n == 1 and touched is not None:
                touched.add(i)

    # ------------------------------------------------------------------ queries
    def sides_in(self, h) -> dict:
        """side -> number of its units whose ZOC covers hex *h*."""
        i = self._hex_index.get(h)
        if i is None:
            return {}
        return {side: cnt[i] for side, cnt in self.counts.items() if cnt[i]}

    def enemy_counts(self, side: str) -> tuple:
        """The count lists (by hex index: enemy units projecting into the hex) of each enemy of *side*."""
        found = self._enemy_counts.get(side)
        if found is None:
            found = self._enemy_counts[side] = tuple(self._counts_of(e) for e in sorted(self.ctx.enemies(side)))
        return found

    def enemy_zoc_index(self, i: int, side: str) -> bool:
        """Whether the hex of index *i* is in the ZOC of an enemy of *side* (no negation)."""
        for cnt in self.enemy_counts(side):
            if cnt[i]:
                return True
        return False

    def enemy_zoc(self, h, side: str, pos=None, purpose: str = "movement", exclude=None) -> bool:
        """Whether hex *h* is in the ZOC of an enemy of *side*; with *pos*, a friendly unit in the hex
        (other than the unit *exclude*, e.g. the one moving there) negates it for the purposes the data
        lists."""
        i = self._hex_index.get(h)
        if i is None or not self.enemy_zoc_index(i, side):
            return False
        if pos is not None and purpose in self.negated:
            if any(u.side == side and u is not exclude for u in pos.units_at(h)):
                return False
        return True

    def enemy_hexes(self, side: str) -> "EnemyZone":
        """The hexes in an enemy ZOC of *side*, as a live view (``h in zone``) with a key that changes
        only when an enemy's zone changes (so path searches stay cached while one side moves)."""
        found = self._zones.get(side)
        if found is not None and found.seen == self.version:
            return found                                # no zone at all changed since it was asked for
        enemies = self._enemies.get(side)
        if enemies is None:
            enemies = self._enemies[side] = tuple(sorted(self.ctx.enemies(side)))
        versions = self.side_version
        key = (side, *[versions.get(e, 0) for e in enemies])
        if found is None or found.key != key:           # one view per state, so its set is made once
            found = self._zones[side] = EnemyZone([self.by_side.setdefault(e, {}) for e in enemies], key)
        found.seen = self.version
        return found

    def stops(self, movement_class: str) -> bool:
        """Whether a unit of this movement class must stop on entering an EZOC."""
        return self.rigid_all or movement_class in self.rigid_classes

    # ------------------------------------------------------------------ events
    def begin(self, pos) -> None:
        if self.enabled:
            for u in pos.units.values():
                self._update(u, pos)

    def move(self, ev, pos) -> None:
        if self.enabled:
            self._update(ev.unit, pos)

    flip = status = add = remove = move

    def marker(self, ev, pos) -> None:
        """A blocking marker placed, moved or removed: the zones of the units next to it change."""
        if not self.enabled or not any(ev.marker.marker_id in m for _, m in self.marker_blocks):
            return
        near = set()
        for loc in (ev.frm, ev.to):
            if loc is not None and loc.hex is not None:
                near |= {loc.hex, *self.ctx.grid.neighbours(loc.hex)}
        self._gone = ev.marker.piece_id if ev.kind == "remove" else None
        for h in near:
            for u in pos.units_at(h):
                self._update(u, pos)
        self._gone = None


class EnemyZone:
    """The enemy-ZOC hexes of a side: a live view over the enemies' zones; ``key`` identifies its state."""

    __slots__ = ("zones", "key", "_members", "seen")

    def __init__(self, zones: list, key: tuple) -> None:
        self.zones, self.key = zones, key
        self._members = None
        self.seen = -1                    # the ZocMap's version when it was last found current

    def members(self):
        """The hexes as a container with a fast ``in``, for searches (which see one state of the zones):
        the enemy's own table when there is one enemy side, else a set of them made once."""
        if len(self.zones) == 1:
            return self.zones[0]
        if self._members is None:
            self._members = frozenset(self)
        return self._members

    def lookup(self):
        """A container with the same ``in`` as the view, the fastest at hand without building one: the
        enemy's own table (one enemy side), the set :meth:`members` made, else the view itself."""
        if len(self.zones) == 1:
            return self.zones[0]
        return self if self._members is None else self._members

    def __contains__(self, h) -> bool:
        for z in self.zones:
            if h in z:
                return True
        return False

    def __iter__(self):
        seen = set()
        for z in self.zones:
            for h in z:
                if h not in seen:
                    seen.add(h)
                    yield h
