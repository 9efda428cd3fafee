"""One saved game per scenario: every set-up entry as an AddPiece where the scenario puts it.

* ``hex`` → the hex centre on its sheet's board; ``box`` → the box zone's centre;
* a player's choice (``area``, ``hexes``, ``near``, ``boxes``) → "To place: <side>" on the Staging map,
  except an area of a single hex (e.g. the hex printed H1), which is no choice;
* ``at_unit`` → wherever that unit was put (else "To place");
* reinforcements → "Reinforcements: <side>, Turn N" (or "Reinforcements: <side>" when the entry has
  no turn: an event or a condition); the entry's ``side`` wins, as a unit may change sides;
* ``status`` (BCS: Support, Ghost ...) → the piece's Status property;
* ``face: back`` and step losses select the face layer's level; in games with step-loss markers
  (BCS) losses are those markers instead, stacked with the unit, as are the entry's ``with`` markers.

A unit is placed once (its first entry). Pieces use the palette's exact type strings (the engine
matches them to the PieceSlots); ids are 1, 2, ... in placement order, then one Stack per occupied
point, as VASSAL writes stacks after their members.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from builder.vassal.commands import AddPiece, BeginSave, BoardPicker, Compound, EndSave, NullCommand
from builder.vassal.piece import Piece
from builder.vassal.savefile import SaveFile, make_metadata

from .maps import REINFORCEMENTS, TO_PLACE
from .pieces import placed_strings

SAVE_KEY = 0x5A          # fixed obfuscation key: equal data give equal bytes
CHOICE_KEYS = ("area", "hexes", "near", "boxes", "entry", "entries", "at_hq")


@dataclass
class Placement:
    d: object                 # PieceDef
    map: str
    x: int
    y: int
    level: int = 1
    location: str = ""        # the location name VASSAL reports there: hex ID or zone name
    entry: dict = field(default_factory=dict)


class ScenarioPlan:
    def __init__(self, game, layout, defs, scenario):
        self.game, self.layout, self.scenario = game, layout, scenario
        self.units = {d.key: d for d in defs if d.kind == "unit"}
        self.markers = {d.key: d for d in defs if d.kind == "marker"}
        self.loss_markers = sorted(k for k, d in self.markers.items()
                                   if (game.by_id["markers"][k].get("kind") == "step-loss"))
        self.placements: list[Placement] = []
        self.where: dict[str, tuple] = {}     # unit id -> (map, x, y, location name)
        self.notes: list[str] = []
        setup = [e for e in scenario.get("setup") or [] if isinstance(e, dict)]
        # at_unit entries last, so the unit they join is already placed
        for e in sorted(setup, key=lambda e: "at_unit" in e):
            self._entry(e, reinforcement=False)
        for e in scenario.get("reinforcements") or []:
            if isinstance(e, dict):
                self._entry(e, reinforcement=True)

    # ------------------------------------------------------------------ entries
    def _entry(self, e: dict, reinforcement: bool) -> None:
        ids = [e["unit"]] if isinstance(e.get("unit"), str) else list(e.get("units") or [])
        for uid in ids:
            d = self.units.get(uid)
            if d is None:
                self.notes.append(f"unknown unit {uid!r}")
                continue
            if uid in self.where:
                self.notes.append(f"{uid} has more than one entry; placed by its first")
                continue
            point = self._point(e, d.side if not e.get("side") else e["side"], reinforcement)
            self.where[uid] = point
            losses = int(e.get("step_losses") or 0)
            level = d.level_of(e.get("face", "front"), 0 if self.loss_markers else losses)
            self.placements.append(Placement(d, *point[:3], level=level, location=point[3], entry=e))
            for mid, face in self._with_markers(e, losses):
                self._marker(mid, point, face)
        if isinstance(e.get("marker"), str):
            side = self.markers[e["marker"]].side if e["marker"] in self.markers else None
            box = e.get("box") or (e.get("boxes") or [None])[0]
            point = self.layout.box_point(box) if box and not reinforcement else None
            if point is None:
                point = self.layout.staging_point(REINFORCEMENTS if reinforcement else TO_PLACE,
                                                  side or self._box_side(box),
                                                  e.get("turn") if reinforcement else None)
            for _ in range(max(1, int(e.get("quantity") or 1))):
                self._marker(e["marker"], point, "front")

    def _point(self, e, side, reinforcement) -> tuple[str, int, int, str]:
        if reinforcement:
            return self.layout.staging_point(REINFORCEMENTS, side, e.get("turn"))
        if isinstance(e.get("hex"), str):
            return (*self.layout.hex_point(e["hex"]), e["hex"])
        if isinstance(e.get("box"), str):
            p = self.layout.box_point(e["box"])
            if p is not None:
                return p
        if isinstance(e.get("at_unit"), str) and e["at_unit"] in self.where:
            return self.where[e["at_unit"]]
        if isinstance(e.get("area"), str) and "near" not in e:
            hexes = self.game.area_hexes(e["area"])
            if len(hexes) == 1:   # an area of one hex is no choice: put the unit there
                return (*self.layout.hex_point(hexes[0]), hexes[0])
        return self.layout.staging_point(TO_PLACE, side)

    def _box_side(self, box) -> str | None:
        for b in (self.game.map_doc or {}).get("boxes") or []:
            if isinstance(b, dict) and b.get("id") == box:
                return b.get("side")
        return None

    def _with_markers(self, e, losses):
        out = [(m, "front") for m in e.get("with") or [] if isinstance(m, str)]
        if self.loss_markers and losses > 0:
            n = len(self.loss_markers)    # step-loss-1..4: front -1..-4, back -5..-8
            out.append((self.loss_markers[(losses - 1) % n], "back" if losses > n else "front"))
        return out

    def _marker(self, mid, point, face) -> None:
        d = self.markers.get(mid)
        if d is None:
            self.notes.append(f"unknown marker {mid!r}")
            return
        self.placements.append(Placement(d, *point[:3], level=d.level_of(face), location=point[3]))

    # ------------------------------------------------------------------ save
    def commands(self, calendar=None) -> Compound:
        adds, stacks = [], {}
        for n, p in enumerate(self.placements, start=1):
            pid = str(n)
            status = ",".join(str(x) for x in p.entry.get("status") or []) if p.d.kind == "unit" else ""
            t, st = placed_strings(p.d, p.map, p.x, p.y, p.level, status)
            adds.append(AddPiece(pid, type_string=t, state_string=st))
            stacks.setdefault((p.map, p.x, p.y), []).append(pid)
        n = len(self.placements)
        for (m, x, y), members in stacks.items():
            n += 1
            adds.append(AddPiece(str(n), Piece.new_stack(m, x, y, members, 1)))
        items = [BeginSave(), NullCommand(), Compound([NullCommand(), *adds])]
        for plan in self.layout.maps:
            items.append(BoardPicker(plan.name, plan.selection()))
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
