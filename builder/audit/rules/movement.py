"""Movement rules: moving into prohibited terrain; a move longer than the movement allowance.

Which moves are judged against the allowance: with ``movement.phases`` in the data, a move in a phase
whose permission for the unit's side is ``operational`` or gives an ``allowance_multiplier``
(builder.audit.engines.phases); without it, moves of the phasing side in phases of kind ``movement``
(for data without kinds, a phase whose id or name has the word move/movement and none of the words
that mark another kind of movement).

The allowance is the ``<Face>_movement`` Marker property of the face showing, times the phase's
multiplier, with the data's modifiers (weather, markers such as OOS, doubled on arrival:
builder.audit.rules.allowance). Within one phase a unit may be dragged in several pieces: the cost is
the cheapest path from where it stood at its first move in the phase (a unit coming onto the map:
from its entry hexes, the entry hex's cost included) to where it is now, over the map's terrain and
hexsides (builder.audit.rules.terrain) and the enemy zones of control as they stand
(``zones_of_control``: entry and exit costs, stops, no ZOC-to-ZOC). Logs record only the ends of a
move, so the cheapest path is assumed; a finding carries it as ``finding.path`` ([(hex, MP to enter
it)], the start first with what was spent there) and ``finding.allowance``. ``movement.minimum_move``: a unit's single move of one hex is
legal whatever it costs, unless the step is prohibited.
"""

from __future__ import annotations

import re

from builder.audit import fastpaths
from builder.audit.report import explain_path

from . import Rule
from .allowance import Allowance
from builder.audit.engines.phases import Permission

from .terrain import DEFAULT_COST, TerrainCosts, ZocCosts, _cost, _number

OPERATIONAL = Permission("movement")     # the judged permission for data without movement.phases

MOVE_WORD = re.compile(r"\bmov(e|es|ement|ements|ing)\b", re.I)
OTHER_MOVEMENT = re.compile(r"\b(strategic|rail|sea|naval|air|retreats?|advances?|reaction|amphibious)\b", re.I)


def is_movement_phase(phase: dict) -> bool:
    if "kind" in phase:   # the data says what the phase is
        return phase["kind"] == "movement"
    text = " ".join(str(phase.get(k) or "").replace("-", " ").replace("_", " ") for k in ("id", "name"))
    return bool(MOVE_WORD.search(text)) and not OTHER_MOVEMENT.search(text)


def movement_phase_ids(ctx) -> set:
    """(player-turn id, phase id) of every movement phase by kind or name, over all the game's trackers."""
    out = set()
    for cal in ctx.calendars.values():
        for pt in cal.sequence:
            for ph in pt.get("phases") or []:
                if isinstance(ph, dict) and is_movement_phase(ph):
                    out.add((pt.get("id"), ph.get("id")))
    return out


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


class ProhibitedTerrain(Rule):
    id = "prohibited-terrain"
    description = "no move ends in terrain prohibited to the unit's movement class"

    def __init__(self, ctx, costs: TerrainCosts) -> None:
        super().__init__()
        self.ctx, self.costs = ctx, costs
        # the references of the terrain types that bar some class (each finding names its own)
        self.reference = "; ".join(sorted({t.get("source") for t in ctx.terrain_types.values()
                                           if t.get("source") and (t.get("playable") is False or "prohibited"
                                                                   in (t.get("movement") or {}).values())}))

    def move(self, ev, pos) -> None:
        h = ev.to.hex
        if h is None or (ev.frm.hex == h):
            return
        mclass = pos.movement_class(ev.unit)
        tt = self.costs.prohibited_terrain(h, mclass)
        if tt is None:
            return
        why = "not playable" if tt.get("playable") is False else f"prohibited to {mclass or 'its movement class'}"
        self.report(pos, ev.unit, ev.frm, ev.to,
                    f"{ev.to.name} is {tt.get('name') or tt.get('id')}, {why}", ev.entry,
                    reference=tt.get("source") or "")


class MovementAllowance(Rule):
    id = "movement-allowance"
    description = ("cheapest path cost of a move, from where the unit began the phase, over terrain, hexsides "
                   "and enemy ZOC, is within its allowance")

    def __init__(self, ctx, costs: TerrainCosts, value_id: str, reference: str, engines) -> None:
        super().__init__()
        self.ctx, self.costs, self.value_id = ctx, costs, value_id
        self.reference = reference
        self.engines = engines
        self.permissions = engines.permissions
        self.phases = movement_phase_ids(ctx)
        self.allowance = Allowance(ctx, engines, value_id)
        spec = ctx.spec("movement")
        mm = spec.get("minimum_move")
        self.minimum_move = mm if isinstance(mm, dict) else ({} if mm else None)
        self.enemy_hex_is_assault = spec.get("enemy_hex") == "assault"
        self._reported: set = set()     # piece ids already reported in this phase
        self.not_judged = 0
        self.last_path = None           # (cost, path) of the last finding, for reports that explain it
        self._zoc_last = None           # (zone, zone key, stops, ZocCosts) of the last move judged
        self._fast = fastpaths.ENABLED
        self._perm_phase = None         # the phase the memo below is for
        self._perm: dict = {}           # (side, unit type) -> permission judged in that phase (fastpaths)

    @classmethod
    def from_context(cls, ctx, costs, engines) -> "MovementAllowance | None":
        values = ctx.game.by_id["values"]
        vid = "movement" if "movement" in values else next(
            (k for k, v in values.items() if re.search(r"movement", str(v.get("name") or ""), re.I)), None)
        if vid is None:
            return None
        return cls(ctx, costs, vid, (values.get(vid) or {}).get("source") or "", engines)

    def phase(self, ev, pos) -> None:
        self._reported.clear()

    def permission(self, pos, unit):
        """The permission the move is judged under: None when not judged by the allowance."""
        if self._fast:                  # the same answer for every unit of a side and type in a phase
            if pos.phase is not self._perm_phase:
                self._perm_phase, self._perm = pos.phase, {}
            key = (unit.side, unit.props.get("Type"))
            found = self._perm.get(key, self)
            if found is self:
                found = self._perm[key] = self._permission(pos, unit)
            return found
        return self._permission(pos, unit)

    def _permission(self, pos, unit):
        if self.permissions.known:
            for p in self.permissions.allowed(pos.phase, unit.side, unit.props.get("Type")):
                if p.judged_by_allowance():
                    return p
            return None
        ph = pos.phase
        if ph is None or (ph.player_turn, ph.phase_id) not in self.phases:
            return None
        return OPERATIONAL if ph.side is None or ph.side == unit.side else None

    def zoc_costs(self, unit, pos, mclass: str | None = None) -> ZocCosts | None:
        """What enemy ZOC does to the unit's paths now; None when the data's ZOC changes no path. *mclass*: the
        unit's movement class, when the caller has it."""
        z = self.engines.zoc
        if not z.enabled or not (z.enter_cost or z.leave_cost or z.rigid_all or z.rigid_classes or not z.zoc_to_zoc):
            return None
        zone = z.enemy_hexes(unit.side)
        hexes, key = zone, zone.key
        stops = z.stops(pos.movement_class(unit) if mclass is None else mclass)
        if "movement" in z.negated:         # friendly units cancel the EZOC where they stand
            hexes = frozenset(h for h in zone if not any(u.side == unit.side and u is not unit
                                                         for u in pos.units_at(h)))
            key = key + (z.version, unit.piece_id)
        else:                               # one ZocCosts per state of the enemies' zones (one view per state:
            last = self._zoc_last           # the same view, the same key)
            if last is not None and (last[0] is zone or last[1] == key) and last[2] == stops:
                return last[3]
        found = ZocCosts(hexes, key, z.enter_cost, z.leave_cost, stops, z.zoc_to_zoc)
        if "movement" not in z.negated:
            self._zoc_last = (zone, key, stops, found)
        return found

    def move(self, ev, pos) -> None:
        u = ev.unit
        to = ev.to.hex
        if to is None or u.piece_id in self._reported:
            return
        perm = self.permission(pos, u)
        if perm is None:
            return
        # (the players' set-up is judged by the set-up rule: a set-up move is asked for below, where the rule
        # would count or report it; everything before is only read)
        act = self.engines.ledger.get(u.piece_id)
        began = act.start if act is not None and act.start is not None else ev.frm
        entering = began.hex is None
        if entering and self.ctx.is_staging(began, "To place"):
            return                                   # a set-up placement, not a move
        mc = pos.movement_class(u)
        ma, why = self.allowance.of(u, pos, perm, entering, began)
        if ma is None:
            if not self.engines.is_setup_move(ev, pos):
                self.not_judged += 1
            return
        if self._fast and began.hex == to:
            return                                   # back where it began the phase: a path of no step, no cost
        if self.costs.prohibited_terrain(to, mc) is not None:
            return                                   # the prohibited-terrain rule reports it
        if self.enemy_hex_is_assault:
            here = pos.by_hex.get(to)
            if here and (len(here) > 1 or not self._fast):     # (fastpaths: the unit alone there is no assault)
                foes = self.ctx.enemies(u.side)
                for x in here.values():
                    if x.side in foes:
                        return                       # an assault (movement.enemy_hex): the assault rules price it
        start = began.hex if not entering else self._entry_starts(u, ev, mc)
        if start is None:
            return
        zoc = self.zoc_costs(u, pos, mc)
        if self._fast and not entering:
            # the short test, the one-hex minimum, then the path a finding reports, searched once
            if self.costs.within_or_path(start, to, mc, ma, zoc,
                                         lambda: self._minimum_move(start, ev, act, mc, ma, zoc)):
                return
        elif self.costs.within(start, to, mc, ma, zoc=zoc) or self._minimum_move(start, ev, act, mc, ma, zoc):
            return
        if self.engines.is_setup_move(ev, pos):
            return                              # the players' set-up, judged by the set-up rule
        found = self.costs.path(start, to, mc, ma, zoc=zoc)
        self.last_path = found
        self._reported.add(u.piece_id)
        start_name = self._start_name(start, u)
        face = self.ctx.face_key(u.unit_id, u.level)
        mods = f", {'; '.join(why)}" if why else ""
        over = "terrain" + (" and enemy ZOC" if zoc is not None else "")
        if found is None:
            msg = f"no path from {start_name} to {ev.to.name} for {mc or 'the unit'}"
            if zoc is not None:
                msg += " (enemy ZOC included)"
        else:
            msg = (f"cheapest path {start_name} -> {ev.to.name} costs {_fmt(found[0])} MP over the {over}, "
                   f"more than the MA {_fmt(ma)} ({face} face, {mc or 'no movement class'}{mods})")
            if not entering and began.hex != ev.frm.hex:
                msg += f"; {start_name} is where it began moving this phase"
            if not entering and self.ctx.grid.distance(start, to) == 1:
                barred = self.costs.barring_hexside(start, to, mc)
                if barred is not None:        # a one-hex move: say why the step itself is not the path
                    msg += f"; the direct step is barred: {barred} between {start_name} and {ev.to.name}"
            if entering:
                msg += "; counted from its entry hex"
        f = self.report(pos, u, start_name, ev.to, msg, ev.entry)
        if found is not None:                        # the working, for --explain and the map
            f.explain = explain_path(self.ctx, found, ma)
        # for reports that explain a finding (--explain, the map): the path hex by hex and the allowance
        f.path = [(self.ctx.grid.name(h), c) for h, c in found[1]] if found is not None else []
        f.allowance = ma

    def counts_from_entry(self, ev, pos) -> bool:
        """Whether this move onto the map is judged here, its MPs counted from the unit's entry hexes: the
        unit may move in this phase and has an allowance, so it may go on beyond its entry hex in the same
        drag (BCS 2.1d v) and the arrival rule leaves where it ends to this one."""
        u = ev.unit
        perm = self.permission(pos, u)
        return perm is not None and self.allowance.of(u, pos, perm, True, ev.frm)[0] is not None

    def _entry_starts(self, u, ev, mc):
        """Entering the map: [(entry hex, the cost of entering it)] of the scheduled entry hexes; None if
        every one is barred."""
        starts = []
        for h in self._entry_hexes(u, ev):
            tt = self.costs.terrain_type(h)
            c = _number(_cost((tt or {}).get("movement"), mc), 1e9) if tt else None
            if tt is not None and (tt.get("playable") is False or c is None and
                                   _cost(tt.get("movement"), mc) == "prohibited"):
                continue
            starts.append((h, DEFAULT_COST if c is None else c))
        return starts or None

    def _entry_hexes(self, u, ev):
        sched = self.engines.arrivals.schedule.get(u.unit_id)
        entry_hexes = sched.hexes if sched is not None and sched.hexes else None
        if not entry_hexes:
            act = self.engines.ledger.get(u.piece_id)
            first = ev.to.hex if act is None or act.entered_at is None else act.entered_at
            entry_hexes = {first}
        return entry_hexes

    def _start_name(self, start, u) -> str:
        """How a finding names where the path starts (the hex, or the entry hexes)."""
        if not isinstance(start, list):
            return self.ctx.grid.name(start)
        if len(start) == 1:
            return self.ctx.grid.name(start[0][0])
        sched = self.engines.arrivals.schedule.get(u.unit_id)
        return f"its entry area ({sched.where})" if sched else "the map edge"

    def _minimum_move(self, start, ev, act, mc, ma, zoc) -> bool:
        if self.minimum_move is None or (act is not None and act.moves):
            return False                             # only a unit's single move
        if isinstance(start, list) or self.ctx.grid.distance(start, ev.to.hex) != 1:
            return False
        if self.costs.step(start, ev.to.hex, mc, ma) is None:
            return False                             # prohibited or blocked hexside
        if zoc is not None and not zoc.zoc_to_zoc and start in zoc.hexes and ev.to.hex in zoc.hexes:
            return False
        return True

