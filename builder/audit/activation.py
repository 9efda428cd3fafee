"""Activations read from the log: which formation is active, with which allotment, its SNAFU result,
whether it is a Second Activation; the dice the players rolled (the dice buttons' chat reports).

Data: ``activation_display`` (builder.module.activation): its boxes per side are zones of the module's
Activation Display map, and a marker of ``marker_kind`` names its formation (``markers[].formation``).
A formation's activation begins when its marker is moved into a box of role ``active`` (its allotment is
the ``allotment`` box it came from), a Second Activation when it is moved into a box of role
``second``; the activation ends when the marker leaves for any other box, when another activation
begins, or when the turn changes. A marker of ``snafu_kind`` put into the active box is the result.
Nothing here is game-specific: any chit-pull or formation-activation game can describe its display so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from builder.module import activation as display

# the module's dice buttons report "** <name> = <result> *** <player>" (builder.module.package)
DICE_REPORT = re.compile(r"^\*\* (?P<dice>\S+) = (?P<result>[\d, ]+?) \*\*\*")


@dataclass
class Activation:
    formation: str
    side: str
    turn: int | None
    entry: int
    allotment: str | None = None      # the allotment box's allotment ("primary" ...), None: none spent
    tier: int | None = None
    second: bool = False
    snafu: str | None = None          # the result marker's id
    number: int = 0                   # 1, 2 ... in the log
    moved: dict = field(default_factory=dict)      # piece id -> hex where it began moving
    flips: dict = field(default_factory=dict)      # piece id -> flips in this activation

    def record(self, kind: str, ev) -> None:
        """A unit's move or flip during this activation (the rules see it first)."""
        if kind == "move" and ev.frm.hex is not None:
            self.moved.setdefault(ev.unit.piece_id, ev.frm.hex)
        elif kind == "flip":
            self.flips[ev.unit.piece_id] = self.flips.get(ev.unit.piece_id, 0) + 1


@dataclass
class Roll:
    dice: str
    values: list
    total: int
    entry: int


class ActivationEngine:
    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.spec = display.display(ctx.game) or {}
        self.zones = display.zones(ctx.game)                    # zone name -> (side, box)
        kind = self.spec.get("marker_kind")
        self.formation_of = {mid: m.get("formation") for mid, m in ctx.game.by_id["markers"].items()
                             if m.get("kind") == kind and m.get("formation")}
        self.snafu_kind = self.spec.get("snafu_kind")
        self.current: Activation | None = None
        self.history: list[Activation] = []
        self.rolls: list[Roll] = []

    @property
    def configured(self) -> bool:
        return bool(self.zones and self.formation_of)

    def box(self, loc):
        if loc is None or loc.kind != "zone":
            return None
        return self.zones.get(loc.name)

    # ------------------------------------------------------------------ events -> (kind, activation)
    def marker(self, ev, pos) -> list:
        mk = ev.marker
        out = []
        if mk.kind == self.snafu_kind and ev.kind in ("add", "move"):
            to = self.box(ev.to)
            if to is not None and to[1].get("role") in ("active", "second") and self.current is not None:
                self.current.snafu = mk.marker_id
            return out
        formation = self.formation_of.get(mk.marker_id)
        if formation is None or ev.kind not in ("add", "move"):
            return out
        to, frm = self.box(ev.to), self.box(ev.frm)
        role = to[1].get("role") if to else None
        cur = self.current
        if cur is not None and cur.formation == formation and role not in ("active", "second"):
            out.append(("end", self._end()))
        elif cur is not None and cur.formation == formation and role == "second" and not cur.second:
            out.append(("end", self._end()))
        if role in ("active", "second") and (self.current is None or self.current.formation != formation
                                             or (role == "second") != self.current.second):
            if self.current is not None:
                out.append(("end", self._end()))
            box = frm[1] if frm else {}
            side = to[0]
            act = Activation(formation, side, pos.turn, ev.entry,
                             box.get("allotment") if box.get("role") == "allotment" else None,
                             box.get("tier"), role == "second", number=len(self.history) + 1)
            if role == "second":
                prev = self.last_of(formation)
                if prev is not None:
                    act.allotment, act.tier = prev.allotment, prev.tier
            self.current = act
            self.history.append(act)
            out.append(("start", act))
        return out

    def _end(self) -> Activation:
        act, self.current = self.current, None
        return act

    def turn_changed(self) -> list:
        return [("end", self._end())] if self.current is not None else []

    def finish(self) -> list:
        return self.turn_changed()

    def chat(self, text: str, entry: int) -> None:
        m = DICE_REPORT.match(text)
        if not m:
            return
        values = [int(v) for v in re.findall(r"\d+", m.group("result"))]
        self.rolls.append(Roll(m.group("dice"), values, sum(values), entry))

    # ------------------------------------------------------------------ queries
    def last_of(self, formation: str, before: Activation | None = None) -> Activation | None:
        for act in reversed(self.history):
            if act.formation == formation and act is not before:
                return act
        return None

    def this_turn(self, side: str | None, turn) -> list[Activation]:
        return [a for a in self.history if a.turn == turn and (side is None or a.side == side)]

    def last_roll(self, dice: str, since: int = 0) -> Roll | None:
        for r in reversed(self.rolls):
            if r.dice == dice and r.entry >= since:
                return r
        return None
