"""Rules judged per activation (builder.audit.activation): flips, Command Radius, Second Activations,
allotments, designated and eligible activations, first player, clean-up, the turn's end.

Every number, list and id comes from the rule's entry in the game data's ``rules`` (``spec``)."""

from __future__ import annotations

from types import SimpleNamespace

from builder.audit.report import unit_label

from . import Rule


def unit_data(ctx, unit) -> dict:
    return ctx.game.units.get(unit.unit_id) or {}


def type_of(ctx, unit) -> str:
    return unit.props.get("Type") or unit_data(ctx, unit).get("type") or ""


def formation_hq(ctx, formation: str):
    return ((ctx.game.by_id["formations"].get(formation) or {}).get("hq"))


def hq_piece(pos, ctx, formation):
    hq = formation_hq(ctx, formation)
    return next((u for u in pos.units.values() if u.unit_id == hq), None) if hq else None


def in_scope(spec, pos, scenario_id=None) -> bool:
    """Whether a rule applies in this scenario (``scenarios``: ids; absent: all) and turn (``turns``)."""
    scs = spec.get("scenarios")
    if scs and scenario_id not in scs:
        return False
    turns = spec.get("turns")
    return not turns or pos.turn in turns


def formation_name(ctx, fid) -> str:
    return (ctx.game.by_id["formations"].get(fid) or {}).get("name") or fid or "?"


class DataRule(Rule):
    """A rule configured by one entry of the data's ``rules``."""

    def __init__(self, ctx, spec: dict) -> None:
        super().__init__()
        self.ctx, self.spec = ctx, spec
        self.id = spec.get("id") or self.id
        self.reference = spec.get("reference") or ""
        self.description = spec.get("name") or self.description
        self.scenario = None            # set by the set-up rule's identification (begin)

    def begin(self, pos) -> None:
        from .setup import scenario_of
        sc, _ = scenario_of(self.ctx, pos)
        self.scenario = sc["id"] if sc else None

    def applies(self, pos) -> bool:
        return in_scope(self.spec, pos, self.scenario)

    def say(self, pos, unit, message, entry, frm="", to="") -> None:
        self.report(pos, unit, frm, to, message, entry)

    def act_name(self, act) -> str:
        return f"{'Second ' if act.second else ''}activation of {formation_name(self.ctx, act.formation)}"

    def formation_unit(self, act, unit) -> bool:
        return unit.props.get("Formation") == act.formation

    def exempt(self, unit) -> bool:
        return type_of(self.ctx, unit) in set(self.spec.get("exempt_types") or [])


def pseudo(uid: str, name: str = ""):
    return SimpleNamespace(unit_id=uid, name=name or uid)


class FlipOnce(DataRule):
    """R19: a unit of the active formation flips at most once per activation, before any movement."""

    def flip(self, ev, pos) -> None:
        act = self.engine.current if self.engine else None
        u = ev.unit
        if act is None or not self.formation_unit(act, u) or self.exempt(u):
            return
        if act.flips.get(u.piece_id, 0) >= 1:
            self.say(pos, u, f"flips a second time in the {self.act_name(act)}", ev.entry, u.location, u.location)
        elif u.piece_id in act.moved:
            self.say(pos, u, f"flips after it moved in the {self.act_name(act)}", ev.entry, u.location, u.location)


class CommandRadius(DataRule):
    """R32: at the end of an activation every unit of the formation that moved is within its HQ's radius."""

    def activation_end(self, act, pos) -> None:
        hq = hq_piece(pos, self.ctx, act.formation)
        if hq is None or hq.hex is None:
            return
        value = self.spec.get("value") or "command_radius"
        raw = hq.props.get(f"Front_{value}")
        try:
            radius = int(raw)
        except (TypeError, ValueError):
            return
        grid = self.ctx.grid
        for pid in act.moved:
            u = pos.units.get(pid)
            if u is None or u.hex is None or u is hq or not self.formation_unit(act, u) or self.exempt(u):
                continue
            d = grid.distance(hq.hex, u.hex)
            if d > radius:
                self.say(pos, u, f"ends the {self.act_name(act)} {d} hexes from its HQ {unit_label(hq)} in "
                                 f"{hq.hex and grid.name(hq.hex)}, "
                                 f"beyond its Command Radius {radius}", act.entry, "", u.location)


class SecondActivation(DataRule):
    """R60 (with R54): a Second Activation needs the dice roll (chat) >= the HQ's activation value (+ bonus
    markers); never with a barred marker (Fat-4) on the HQ."""

    def activation_start(self, act, pos) -> None:
        if not act.second:
            return
        hq = hq_piece(pos, self.ctx, act.formation)
        if hq is None:
            return
        carried = {m.marker_id for m in pos.markers_with(hq)}
        barred = sorted(carried & set(self.spec.get("barred_markers") or []))
        if barred:
            self.say(pos, hq, f"{formation_name(self.ctx, act.formation)} takes a Second Activation with "
                              f"{', '.join(barred)} on its HQ", act.entry, "", hq.location)
            return
        if self.spec.get("barred_only"):
            return
        roll_spec = (self.engine.spec.get("second_roll") or {})
        dice = roll_spec.get("dice") or "1d6"
        first = self.engine.last_of(act.formation, before=act)
        roll = self.engine.last_roll(dice, since=first.entry if first else 0)
        try:
            need = int(hq.props.get(f"Front_{roll_spec.get('value') or 'activation'}"))
        except (TypeError, ValueError):
            return
        bonus = sum(v for m, v in (roll_spec.get("bonus") or {}).items() if m in carried)
        if roll is None:
            self.say(pos, hq, f"Second Activation of {formation_name(self.ctx, act.formation)} with no {dice} roll "
                              f"in the log since its activation", act.entry, "", hq.location)
        elif roll.total + bonus < need:
            self.say(pos, hq, f"Second Activation of {formation_name(self.ctx, act.formation)} on a roll of "
                              f"{roll.total}{f' + {bonus}' if bonus else ''}, below its Activation Roll {need}",
                     act.entry, "", hq.location)


class Allotments(DataRule):
    """R59: each formation activates once per turn (plus its Second); activations per allotment type per side
    and turn within the scenario's allotments (``allotments``: scenario -> side -> type -> count); all
    Tier 1 before Tier 2."""

    def activation_start(self, act, pos) -> None:
        if act.second:
            return
        engine = self.engine
        turn = engine.this_turn(act.side, act.turn)
        earlier = [a for a in turn if a is not act and not a.second]
        name = formation_name(self.ctx, act.formation)
        hq = hq_piece(pos, self.ctx, act.formation) or pseudo(act.formation, name)
        if any(a.formation == act.formation for a in earlier):
            self.say(pos, hq, f"{name} activates a second time this turn (not as its Second Activation)", act.entry)
            return
        if act.allotment is None and self.spec.get("allotment_required", True):
            self.say(pos, hq, f"{name} activates without spending an allotment (its marker came from no allotment box)",
                     act.entry)
            return
        table = ((self.spec.get("allotments") or {}).get(self.scenario or "") or {}).get(act.side) or {}
        if act.allotment in table:
            used = 1 + sum(1 for a in earlier if a.allotment == act.allotment)
            if used > int(table[act.allotment]):
                self.say(pos, hq, f"{name}: {act.allotment} activation number {used} this turn, the scenario allots "
                                  f"{table[act.allotment]}", act.entry)
        if act.tier == 1 and any((a.tier or 0) > 1 for a in earlier):
            self.say(pos, hq, f"{name}: a Tier 1 ({act.allotment}) activation after a Tier 2 one this turn", act.entry)


class DesignatedActivation(DataRule):
    """R61: on the listed turns of the listed scenarios, a side's allotment activates the listed formation."""

    def activation_start(self, act, pos) -> None:
        sp = self.spec
        if act.second or not self.applies(pos) or act.side != sp.get("side") or act.allotment != sp.get("allotment"):
            return
        want = sp.get("formation")
        if act.formation != want:
            name = formation_name(self.ctx, act.formation)
            hq = hq_piece(pos, self.ctx, act.formation) or pseudo(act.formation, name)
            self.say(pos, hq, f"the {act.allotment} allotment activates {name}; on this turn it must activate "
                              f"{formation_name(self.ctx, want)}", act.entry)


class ActivationEligibility(DataRule):
    """R62: an allotment with conditions: ``budapest`` only for a formation of ``side`` whose HQ is within
    ``radius`` hexes of a hex of ``region``; ``reinforcement`` only on the turn the formation's HQ arrived."""

    def __init__(self, ctx, spec) -> None:
        super().__init__(ctx, spec)
        self.arrived: dict = {}

    def move(self, ev, pos) -> None:
        if ev.frm.hex is None and ev.to.hex is not None:
            self.arrived[ev.unit.unit_id] = pos.turn

    def activation_start(self, act, pos) -> None:
        sp = self.spec
        name = formation_name(self.ctx, act.formation)
        hq = hq_piece(pos, self.ctx, act.formation)
        who = hq or pseudo(act.formation, name)
        for cond in sp.get("conditions") or []:
            if cond.get("allotment") != act.allotment or act.second:
                continue
            why = self._breach(cond, act, hq, name)
            if why:                                      # the first condition it fails
                self.say(pos, who, why, act.entry)
                return

    def _breach(self, cond, act, hq, name) -> str | None:
        if cond.get("side") and act.side != cond["side"]:
            return f"{name} takes a {act.allotment} activation, allowed only to {cond['side']}"
        if cond.get("region"):
            hexes = _region_hexes(self.ctx, cond["region"])
            r = int(cond.get("radius") or 0)
            if hq is None or hq.hex is None or not hexes or \
                    min(self.ctx.grid.distance(hq.hex, h) for h in hexes) > r:
                where = "off the map" if hq is None or hq.hex is None else "in " + hq.location.name
                return f"{name} takes a {act.allotment} activation with its HQ {where}, more than {r} hexes from " \
                       f"{cond['region']}"
        if cond.get("arrival_turn") and (hq is None or self.arrived.get(hq.unit_id) != act.turn):
            return f"{name} takes a {act.allotment} activation, but its HQ did not arrive this turn"
        return None


def _region_hexes(ctx, region_id):
    for r in (ctx.game.map_doc or {}).get("regions") or []:
        if isinstance(r, dict) and r.get("id") == region_id:
            return [h for h in (ctx.grid.parse(x) for x in r.get("hexes") or []) if h is not None]
    return []


class FirstPlayer(DataRule):
    """R63: on a scenario's first turn the first activation is the scenario's first player's."""

    def activation_start(self, act, pos) -> None:
        sc = self.ctx.game.by_id["scenarios"].get(self.scenario or "")
        if sc is None or act.second:
            return
        first_turn = sc.get("first_turn") or 1
        if act.turn != first_turn or self.engine.this_turn(None, act.turn)[0] is not act:
            return
        want = sc.get("first_player")
        if want and act.side != want:
            name = formation_name(self.ctx, act.formation)
            self.say(pos, hq_piece(pos, self.ctx, act.formation) or pseudo(act.formation, name),
                     f"the first activation of turn {act.turn} is {act.side}'s ({name}); the scenario's first "
                     f"player is {want}", act.entry)


class CleanUp(DataRule):
    """R56: at the end of an activation no marker of the listed kinds or ids remains on the map."""

    def __init__(self, ctx, spec) -> None:
        super().__init__(ctx, spec)
        self.reported: set = set()      # marker pieces already reported (once each, not after every activation)

    def activation_end(self, act, pos) -> None:
        kinds, ids = set(self.spec.get("marker_kinds") or []), set(self.spec.get("markers") or [])
        for m in pos.markers.values():
            if m.location.hex is not None and (m.kind in kinds or m.marker_id in ids) and \
                    m.piece_id not in self.reported:
                self.reported.add(m.piece_id)
                self.say(pos, pseudo(m.marker_id), f"{m.marker_id} marker still in {m.location.name} after the "
                                                   f"{self.act_name(act)} (Clean Up removes it)", act.entry, "", m.location)


class TurnEnd(DataRule):
    """R57: when the turn advances, every HQ (units of ``types``) shows its first face (Unused), and the
    turn advances by one."""

    def phase(self, ev, pos) -> None:
        old, new = ev.old, ev.new
        if old is None or old.turn is None or new.turn is None or old.turn == new.turn:
            return
        types = set(self.spec.get("types") or [])
        for u in pos.units.values():
            if u.hex is not None and type_of(self.ctx, u) in types and u.level != 1:
                self.say(pos, u, f"turn {old.turn} ends with the HQ on its Used side", ev.entry, "", u.location)
        turns = self.ctx.calendars[pos.tracker].turns if pos.tracker in self.ctx.calendars else []
        if old.turn in turns and new.turn in turns and turns.index(new.turn) != turns.index(old.turn) + 1:
            self.say(pos, pseudo("turn"), f"the turn goes from {old.turn} to {new.turn}, not to the next turn",
                     ev.entry)
