"""One saved game per scenario: every set-up entry as an AddPiece where the scenario puts it.

* ``hex`` → the hex centre on its sheet's board; ``box`` → the next free counter place of the box, so
  pieces waiting in a box lie side by side (a unit's markers share its place, a marker's copies theirs);
* a player's choice (``area``, ``hexes``, ``near``) → a suggested legal hex of the choice (deploy.py),
  else "To place: <side>" on the Staging map;
* ``at_unit`` → wherever that unit was put (else "To place");
* reinforcements → "Reinforcements: <side>, Turn N" (or "Reinforcements: <side>" when the entry has
  no turn: an event or a condition); the entry's ``side`` wins, as a unit may change sides;
* ``status`` (BCS: Support, Ghost ...) → the piece's Status property;
* ``face: back`` and step losses select the face layer's level; in games with step-loss markers
  (BCS) losses are the level of the unit's own Losses layer (a badge, pieces.py), and the entry's
  ``with`` markers stack with the unit.

A unit is placed once (its first entry). Pieces use the palette's exact type strings (the engine
matches them to the PieceSlots); ids are 1, 2, ... in placement order, then one Stack per occupied
point, as VASSAL writes stacks after their members.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.vassal.commands import AddPiece, BeginSave, BoardPicker, Compound, EndSave, NullCommand, SetupStack
from builder.vassal.piece import Piece
from builder.vassal.savefile import SaveFile, make_metadata

from . import activation, cups, layers, turntrack
from .pieces import placed_strings

SAVE_KEY = 0x5A          # fixed obfuscation key: equal data give equal bytes


@dataclass
class Placement:
    d: object                 # PieceDef
    map: str
    x: int
    y: int
    level: int = 1
    location: str = ""        # the location name VASSAL reports there: hex ID or zone name
    losses: int = 0           # steps lost, on the unit's Losses layer
    entry: dict = field(default_factory=dict)


class ScenarioPlan:
    """The scenario's targets (deploy.ScenarioTargets, computed by the Layout) as map points: a hex's
    centre, or the next free counter place of a box, so pieces waiting in a box lie side by side."""

    def __init__(self, game, layout, defs, scenario):
        self.game, self.layout, self.scenario = game, layout, scenario
        self.units = {d.key: d for d in defs if d.kind == "unit"}
        self.markers = {d.key: d for d in defs if d.kind == "marker"}
        self.loss_markers = sorted(k for k, d in self.markers.items()
                                   if (game.by_id["markers"][k].get("kind") == "step-loss"))
        self.placements: list[Placement] = []
        targets = layout.targets[scenario["id"]]
        self.notes: list[str] = list(targets.notes)
        places: dict[str, dict[str, int]] = {}       # zone -> place key -> index
        # a cup's pieces are its deck's contents, at the deck's point (cups.py)
        self.cup_zones = {layout.box_zone[b]: b for b in cups.boxes(game) if b in layout.box_where}
        track = turntrack.markers(game)      # the turn record track's markers start on the first turn
        for t in targets.targets:
            if t.kind != "unit" and t.key in track:
                continue
            if t.hex is not None:
                point = layout.hex_place(t.hex)   # the name VASSAL reports there (a seam hex: its board's ID)
            elif t.zone in self.cup_zones:
                point = layout.box_point(self.cup_zones[t.zone])
            else:
                index = places.setdefault(t.zone, {}).setdefault(t.place, len(places[t.zone]))
                point = layout.place_point(t.zone, index)
            if t.kind == "unit":
                d = self.units.get(t.key)
                if d is None:
                    self.notes.append(f"unknown unit {t.key!r}")
                    continue
                level = d.level_of(t.face, 0 if self.loss_markers else t.losses)
                self.placements.append(Placement(d, *point[:3], level=level, location=point[3], entry=t.entry,
                                                 losses=t.losses if d.max_losses else 0))
                if self.loss_markers and t.losses > 0 and not d.max_losses:
                    n = len(self.loss_markers)    # step-loss-1..4: front -1..-4, back -5..-8
                    self._marker(self.loss_markers[(t.losses - 1) % n], point, "back" if t.losses > n else "front")
            else:
                self._marker(t.key, point, "front")
        first = turntrack.first_turn(game, scenario)
        if track and first is not None and turntrack.zone(game, first) in layout.zone_inner:
            for i, mid in enumerate(track):
                self._marker(mid, layout.place_point(turntrack.zone(game, first), i),
                             turntrack.starting_face(game, scenario, mid))
        placed = {p.d.key for p in self.placements}
        starts: dict[str, int] = {}        # the formations in play: their activation markers start available
        for mid, zone in activation.starting_markers(game, scenario):
            if mid not in placed and zone in layout.zone_inner:
                starts[zone] = starts.get(zone, -1) + 1
                self._marker(mid, layout.place_point(zone, starts[zone]), "front")
        self.where = {t.key: t for t in targets.targets if t.kind == "unit"}

    def _marker(self, mid, point, face) -> None:
        d = self.markers.get(mid)
        if d is None:
            self.notes.append(f"unknown marker {mid!r}")
            return
        self.placements.append(Placement(d, *point[:3], level=d.level_of(face), location=point[3]))

    # ------------------------------------------------------------------ save
    def commands(self, calendar=None) -> Compound:
        adds, stacks, decks = [], {}, {}
        for n, p in enumerate(self.placements, start=1):
            pid = str(n)
            status = ",".join(str(x) for x in p.entry.get("status") or []) if p.d.kind == "unit" else ""
            t, st = placed_strings(p.d, p.map, p.x, p.y, p.level, status, p.losses)
            adds.append(AddPiece(pid, type_string=t, state_string=st))
            if p.location in self.cup_zones:
                decks.setdefault((p.location, p.map, p.x, p.y), []).append(pid)
                continue
            # pieces of different game piece layers never share a stack (layers.py)
            layer = layers.index(self.game, p.d.properties.get(layers.PROPERTY))
            stacks.setdefault((p.map, p.x, p.y, layer), []).append(pid)
        n = len(self.placements)
        for (m, x, y, layer), members in stacks.items():
            n += 1
            adds.append(AddPiece(str(n), Piece.new_stack(m, x, y, members, layer)))
        for (zone, m, x, y), members in decks.items():
            n += 1
            adds.append(AddPiece(str(n), Piece([cups.deck_piece(zone, self.layout.counter_px, m, x, y, members)])))
        items = [BeginSave(), NullCommand(), Compound([NullCommand(), *adds])]
        for plan in self.layout.maps:
            items.append(BoardPicker(plan.name, plan.selection()))
        if self.cup_zones:     # the game is not new: VASSAL does not lay out the (empty) draw piles again
            items.append(SetupStack())
        if calendar is not None:
            items.append(calendar.command(self.scenario.get("first_turn") or calendar.turns[0]))
        items.append(EndSave())
        return Compound(items)


def save_bytes(plan: ScenarioPlan, calendar, module_name: str, version: str) -> bytes:
    sc = plan.scenario
    save = SaveFile.new(plan.commands(calendar), encoding="vcsk", key=SAVE_KEY,
                        savedata=make_metadata(version=version, vassal_version="3.6.0", date_saved=0,
                                               description=sc.get("name") or sc["id"]),
                        moduledata=make_metadata(name=module_name, version=version, vassal_version="3.6.0",
                                                 date_saved=0, description=module_name))
    return save.to_bytes()
