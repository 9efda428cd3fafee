"""The game position: where every unit is, which face shows, who it is; the current turn and phase.

A unit is a piece carrying our ``UnitId`` Marker (builder.module.pieces); its identity and factors
come from its Marker properties, so a save tells who a piece is without the module. Pieces without
a UnitId (markers, foreign pieces) are tracked only as far as stacks need them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.audit.context import NOWHERE, AuditContext, Location, PhaseInfo
from builder.geometry.hexes import Hex


@dataclass
class Unit:
    piece_id: str
    unit_id: str
    name: str
    props: dict                     # Marker (and other trait) properties at placement
    level: int = 1                  # the Face layer's level: 1 = front of the first counter
    status: str = ""                # the Status dynamic property (BCS: Support ...)
    location: Location = NOWHERE
    face_index: int | None = None   # index of the Face layer in the state layers
    status_index: int | None = None # index of the Status layer in the state layers
    layer_types: list = field(default_factory=list, repr=False)   # type string of each layer
    losses: int = 0                 # steps lost on the unit's Losses layer (level - 1; BCS modules)
    loss_index: int | None = None   # index of the Losses layer in the state layers
    # from the Marker properties, which never change once the piece is placed (read on every event)
    side: str = field(init=False, default="")
    movement_class: str = field(init=False, default="")

    def __post_init__(self) -> None:
        self.side = self.props.get("Side", "")
        self.movement_class = self.props.get("MovementClass", "")

    @property
    def hex(self) -> Hex | None:
        return self.location.hex

    def statuses(self) -> set[str]:
        return {s.strip() for s in self.status.split(",") if s.strip()}


@dataclass
class MarkerPiece:
    """A marker piece (carries our ``MarkerId``): which marker, the face level showing, where it is."""

    piece_id: str
    marker_id: str
    kind: str
    level: int = 1
    location: Location = NOWHERE
    face_index: int | None = None
    layer_types: list = field(default_factory=list, repr=False)

    @property
    def hex(self) -> Hex | None:
        return self.location.hex


@dataclass
class Position:
    ctx: AuditContext
    units: dict = field(default_factory=dict)          # piece id -> Unit
    others: dict = field(default_factory=dict)         # piece id -> Location (non-unit pieces)
    stacks: dict = field(default_factory=dict)         # stack id -> [member piece ids], bottom first
    parent: dict = field(default_factory=dict)         # piece id -> stack id
    phase: PhaseInfo | None = None
    tracker: str | None = None
    by_hex: dict = field(default_factory=dict)         # Hex -> {piece id: Unit}
    markers: dict = field(default_factory=dict)        # piece id -> MarkerPiece
    save_description: str = ""                         # the save's own description (savedata)
    activation: object = None                          # the current Activation (builder.audit.activation)
    _markers_at: dict = field(default_factory=dict, repr=False, compare=False)   # hex -> its markers (until one moves)
    # sets of hexes whose units changed (an engine watching the occupancy takes and empties its own set)
    _watchers: list = field(default_factory=list, repr=False, compare=False)
    _index_watchers: list = field(default_factory=list, repr=False, compare=False)   # ... as hex indices
    _classes: dict = field(default_factory=dict, repr=False, compare=False)   # id(unit) -> (unit, level, class)

    # ------------------------------------------------------------------ queries
    @property
    def turn(self) -> int | None:
        return self.phase.turn if self.phase else None

    def phase_label(self) -> str:
        return self.phase.label() if self.phase else ""

    def units_at(self, h: Hex) -> list[Unit]:
        here = self.by_hex.get(h)
        return list(here.values()) if here else []

    def factor(self, unit: Unit, value_id: str) -> str | None:
        """The unit's value on the face showing, from its ``<Face>_<value>`` Marker property."""
        return unit.props.get(self.ctx.face_property(unit.unit_id, unit.level, value_id))

    def movement_class(self, unit: Unit) -> str:
        """The movement class of the face showing (``<Face>_movement_class``, BCS: the MA colour of each
        side), else the unit's ``MovementClass`` (remembered per unit and face: it reads nothing else)."""
        found = self._classes.get(id(unit))
        if found is None or found[0] is not unit or found[1] != unit.level:
            if len(self._classes) > 20_000:
                self._classes.clear()
            found = self._classes[id(unit)] = (unit, unit.level,
                                               self.factor(unit, "movement_class") or unit.movement_class)
        return found[2]

    def markers_at(self, loc: Location | Hex) -> list[MarkerPiece]:
        """Markers at a hex (or a location name: a box, a zone)."""
        if isinstance(loc, Location):
            return [m for m in self.markers.values() if m.location.map == loc.map and m.location.name == loc.name]
        found = self._markers_at.get(loc)
        if found is None:
            if not self.markers:
                return []
            found = self._markers_at[loc] = [m for m in self.markers.values() if m.location.hex == loc]
        return list(found)

    def add_marker(self, mk: MarkerPiece) -> None:
        self.markers[mk.piece_id] = mk
        self._markers_at.clear()

    def set_marker_location(self, mk: MarkerPiece, loc: Location) -> None:
        mk.location = loc
        self._markers_at.clear()

    def markers_with(self, unit: Unit) -> list[MarkerPiece]:
        """The markers a unit carries: those above it in its stack, up to the next unit (VASSAL players
        put a unit's markers on top of it)."""
        sid = self.parent.get(unit.piece_id)
        if sid is None:
            return []
        members = self.stacks.get(sid, [])
        out, seen = [], False
        for m in members:
            if m == unit.piece_id:
                seen = True
            elif seen:
                if m in self.units:
                    break
                if m in self.markers:
                    out.append(self.markers[m])
        return out

    def carrier(self, marker_piece: str) -> Unit | None:
        """The unit a marker rides on: the nearest unit below it in its stack."""
        sid = self.parent.get(marker_piece)
        members = self.stacks.get(sid, []) if sid is not None else []
        if marker_piece not in members:
            return None
        for m in reversed(members[:members.index(marker_piece)]):
            if m in self.units:
                return self.units[m]
        return None

    def watch(self) -> set:
        """A set that every hex whose units change (a unit leaves, enters, is placed or removed) is added
        to from now on, for its owner to read and empty (control judges those hexes again)."""
        found: set = set()
        self._watchers.append(found)
        return found

    def watch_index(self) -> set:
        """:meth:`watch` with the hexes as their indices (Location.index, AuditContext.hexes)."""
        found: set = set()
        self._index_watchers.append(found)
        return found

    def _touch(self, h: Hex) -> None:
        for w in self._watchers:
            w.add(h)

    def _touch_index(self, loc: Location) -> None:
        i = loc.index
        if i < 0:
            i = self.ctx.hex_index.get(loc.hex, -1)     # a Location made by hand
            if i < 0:
                return
        for w in self._index_watchers:
            w.add(i)

    def location_of(self, piece_id: str) -> Location | None:
        u = self.units.get(piece_id)
        if u is not None:
            return u.location
        return self.others.get(piece_id)

    # ------------------------------------------------------------------ changes
    def add_unit(self, unit: Unit) -> None:
        if unit.piece_id in self.units:
            self.remove(unit.piece_id)
        self.units[unit.piece_id] = unit
        if unit.location.hex is not None:
            self.by_hex.setdefault(unit.location.hex, {})[unit.piece_id] = unit
            if self._watchers:
                self._touch(unit.location.hex)
            if self._index_watchers:
                self._touch_index(unit.location)

    def set_location(self, unit: Unit, loc: Location) -> None:
        old_loc = unit.location
        old, new = old_loc.hex, loc.hex
        by_hex = self.by_hex
        if old is not None:
            here = by_hex.get(old)
            if here is not None:
                here.pop(unit.piece_id, None)
        unit.location = loc
        if new is not None:
            here = by_hex.get(new)
            if here is None:
                here = by_hex[new] = {}
            here[unit.piece_id] = unit
        if self._watchers:
            if old is not None:
                self._touch(old)
            if new is not None:
                self._touch(new)
        if self._index_watchers:
            if old is not None:
                self._touch_index(old_loc)
            if new is not None:
                self._touch_index(loc)

    def place(self, piece_id: str, loc: Location) -> None:
        u = self.units.get(piece_id)
        if u is not None:
            self.set_location(u, loc)
        else:
            self.others[piece_id] = loc
            if piece_id in self.markers:
                self.set_marker_location(self.markers[piece_id], loc)

    def leave_stack(self, piece_id: str) -> None:
        sid = self.parent.pop(piece_id, None)
        if sid is not None and sid in self.stacks:
            self.stacks[sid] = [m for m in self.stacks[sid] if m != piece_id]

    def join(self, piece_id: str, under: str | None) -> None:
        """Put a piece into the stack of *under* (a stack id or a piece in a stack)."""
        self.leave_stack(piece_id)
        if under is None:
            return
        sid = under if under in self.stacks else self.parent.get(under)
        if sid is None:                     # a lone piece: make an implicit stack of the two
            sid = "~" + under
            self.stacks[sid] = [under]
            self.parent[under] = sid
        self.stacks[sid].append(piece_id)
        self.parent[piece_id] = sid

    def set_stack(self, stack_id: str, members: list[str], loc: Location) -> None:
        old = self.stacks.get(stack_id, [])
        for m in old:
            self.parent.pop(m, None)
        keep = []
        for m in members:
            if m in self.units or m in self.others:
                self.leave_stack(m)
                self.parent[m] = stack_id
                self.place(m, loc)
                keep.append(m)
        self.stacks[stack_id] = keep
        self.others[stack_id] = loc

    def remove(self, piece_id: str) -> Unit | None:
        self.leave_stack(piece_id)
        members = self.stacks.pop(piece_id, None)
        for m in members or []:
            self.parent.pop(m, None)
        self.others.pop(piece_id, None)
        if self.markers.pop(piece_id, None) is not None:
            self._markers_at.clear()
        u = self.units.pop(piece_id, None)
        if u is not None and u.location.hex is not None:
            self.by_hex.get(u.location.hex, {}).pop(piece_id, None)
            if self._watchers:
                self._touch(u.location.hex)
            if self._index_watchers:
                self._touch_index(u.location)
        return u
