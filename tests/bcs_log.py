"""Scripted PLS (BCS) games for the rule tests, on builder.audit.script: a scenario's own set-up, the
Formation Activation markers in the Activation Display's boxes, then logged steps. A formation activates
when its marker is dragged into "<side>:active"; markers ride on a unit (above it in its stack) and move
with it; dice are reported as the module's dice buttons write them. No tests here."""

from __future__ import annotations

from builder.audit.script import ScriptedGame
from builder.module import activation
from builder.vassal.commands import Chat, MovePiece

PLS = "panzers-last-stand"


class BcsLog(ScriptedGame):
    """``markers``: {formation id: "<side>:<box id>"}; ``units``: {unit id: (hex, face level)} moved
    (with their markers) before the start, e.g. for a save from later in the game."""

    def __init__(self, scenario: str, turn: int | None = None, phase: str = "activations",
                 markers: dict | None = None, units: dict | None = None) -> None:
        super().__init__(PLS, scenario)
        self.riding: dict[str, list[str]] = {}
        self._riders_from_order()
        for uid, (hex_id, level) in (units or {}).items():
            self.move_unit(uid, hex_id, level=level)
        self.fam = {f: self.add_marker(f"fam-{f}", self.box(where)) for f, where in (markers or {}).items()}
        self.at(turn=turn if turn is not None else self.turn, phase=phase)
        self.start()

    def _riders_from_order(self) -> None:
        at: dict = {}
        for pid in self.order:
            p = self.pieces[pid]
            key = (p.map, p.x, p.y)
            if p.d.kind == "unit":
                at[key] = pid
                self.riding[pid] = []
            elif key in at:
                self.riding[at[key]].append(pid)

    def box(self, where: str) -> str:
        """"axis:active" -> the Activation Display zone's name."""
        side, box = where.split(":")
        spec = next(b for b in activation.display(self.kit.game)["boxes"] if b["id"] == box)
        return activation.zone_name(self.kit.game, side, spec)

    # ------------------------------------------------------------------ steps
    def move_unit(self, uid: str, to: str, level: int | None = None) -> "BcsLog":
        """Drag a unit and the markers on it (one entry)."""
        p = self.pieces[uid]
        old = (p.map, p.x, p.y)
        point = self.kit.point(to, p.d.side)
        cmds, below = [], None
        for pid in [uid, *self.riding.get(uid, [])]:
            q = self.pieces[pid]
            q.map, q.x, q.y = point
            cmds.append(MovePiece(pid, *point, below, *old, None))
            below = pid
        if self.started:
            self._log(*cmds)
        if level is not None and level != p.level:
            self.flip(uid, level)
        return self

    def activate(self, side: str, formation: str, box: str = "active") -> "BcsLog":
        return self.move(self.fam[formation], self.box(f"{side}:{box}"))

    def marker_on(self, marker_id: str, uid: str) -> str:
        """A marker dropped on a unit: it rides on it."""
        p = self.pieces[uid]
        pid = self.add_marker(marker_id, self.kit.grid.name(self.kit.grid.parse(self.hex_of(uid))))
        self._log(MovePiece(pid, p.map, p.x, p.y, uid, p.map, p.x, p.y, None))
        self.riding.setdefault(uid, []).append(pid)
        return pid

    def hex_of(self, uid: str) -> str:
        return self.kit.ctx.locate(*self.where(uid)).name

    def take_off(self, pid: str) -> "BcsLog":
        for riders in self.riding.values():
            if pid in riders:
                riders.remove(pid)
        return self.remove(pid)

    def roll(self, dice: str, result: str, player: str = "Axis") -> "BcsLog":
        self._log(Chat(f"** {dice} = {result} *** <{player}>"))
        return self

    def to_phase(self, turn: int, phase: str) -> "BcsLog":
        return self.at(turn=turn, phase=phase)


def display_markers(side_formations: dict, box: str = "available") -> dict:
    """{formation: "<side>:<box>"} for formations of each side in one box."""
    return {f: f"{side}:{box}" for side, fs in side_formations.items() for f in fs}
