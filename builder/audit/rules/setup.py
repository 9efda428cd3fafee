"""Set-up conformance (BCS 1.0f, PLS 5.x): the start position against the scenario's set-up list.

The scenario is the one the save names (its savedata description is the scenario's name, as our
module's scenario saves write it), else the one whose printed hexes the start position matches best
(at least ``match`` of them); a save from a later turn than the scenario's first is not a set-up and
is not judged. Every set-up entry's unit must be where the entry puts it (``hex``,
one of ``hexes``, ``near`` within N, an ``area``'s hexes, a ``box``, with its ``at_unit``), and each
of an entry's ``at_least_one_in`` place sets holds one of its units; a unit still in the module's
"To place" box is a choice not yet made, not a breach. Its face, Status
property (Support, Arty Points ...), the markers its entry puts with it (Fatigue, PD ...) and its
step losses must be as listed. A unit the set-up does not list must not be on the map. Judged only
when the position is the scenario's start (its first turn, the first phase on the tracker); a unit
whose set-up is a choice moved while the players set up (before the tracker first moves), or placed
later from its "To place" zone, is judged where it goes.

Step losses are read from the unit's Losses layer (the module's encoding: level k + 1 = k steps lost)
plus any step-loss markers it carries (the k-th loss marker by id shows k on its front, k + n on its back).
"""

from __future__ import annotations

from collections import Counter

from builder.module.maps import TO_PLACE

from . import Rule

CHOICE = ("area", "hexes", "near", "boxes", "entry", "entries", "at_hq")


def scenario_of(ctx, pos, match: float = 0.8):
    """(scenario, how) for a start position, or (None, why); found once per position."""
    found = getattr(pos, "_scenario_match", None)
    if found is None or found[0] != match:
        found = (match, _scenario_of(ctx, pos, match))
        pos._scenario_match = found
    return found[1]


def _scenario_of(ctx, pos, match: float):
    scenarios = list(ctx.game.by_id["scenarios"].values())
    want = pos.save_description.strip().lower()
    if want:
        for sc in scenarios:
            if want in {str(sc.get("name") or "").lower(), str(sc.get("id")).lower()}:
                return sc, f"the save names it ({pos.save_description})"
    at = {}
    for u in pos.units.values():
        at.setdefault(u.unit_id, u.location.name)
    best, best_n = None, 0.0
    for sc in scenarios:
        hexes = [e for e in sc.get("setup") or [] if isinstance(e, dict) and isinstance(e.get("hex"), str)]
        if not hexes:
            continue
        hit = sum(1 for e in hexes for uid in _ids(e) if at.get(uid) == e["hex"])
        share = hit / sum(len(_ids(e)) for e in hexes)
        if share > best_n:
            best, best_n = sc, share
    if best is not None and best_n >= match:
        return best, f"{best_n:.0%} of its printed hexes match"
    return None, "the save names no scenario and no scenario's set-up matches the start position"


def _ids(e: dict) -> list[str]:
    return [e["unit"]] if isinstance(e.get("unit"), str) else [u for u in e.get("units") or [] if isinstance(u, str)]


def loss_markers(ctx, kind: str) -> list[str]:
    return sorted(mid for mid, m in ctx.game.by_id["markers"].items() if m.get("kind") == kind)


def steps_lost(ctx, pos, unit, loss_ids: list[str]) -> int:
    """Steps a unit has lost: its Losses layer (our module's encoding) plus any step-loss markers it
    carries (a module that uses markers)."""
    lost = unit.losses
    if loss_ids:
        n = len(loss_ids)
        lost += sum(loss_ids.index(m.marker_id) + 1 + (n if m.level == 2 else 0)
                    for m in pos.markers_with(unit) if m.marker_id in loss_ids)
    return lost


class SetupConformance(Rule):
    id = "R01"
    description = "the start position is the scenario's set-up: hexes, steps, statuses, markers; nothing extra"

    def __init__(self, ctx, spec: dict) -> None:
        super().__init__()
        self.ctx, self.spec = ctx, spec
        self.id = spec.get("id") or self.id
        self.reference = spec.get("reference") or ""
        self.loss_ids = loss_markers(ctx, spec.get("loss_marker_kind") or "step-loss")
        self.match = float(spec.get("match") or 0.8)
        self.scenario = None
        self._entries: dict = {}
        self._stage = False             # the players' set-up: from the start until the tracker moves
        self._entry_now = 0             # the log entry of a later placement (0: the start position)

    def begin(self, pos) -> None:
        sc, how = scenario_of(self.ctx, pos, self.match)
        self.scenario = sc
        if sc is None:
            self.result.warn(f"{self.id}: set-up not judged: {how}")
            return
        ph, first = pos.phase, sc.get("first_turn")
        if ph is not None and ph.index and ((first is not None and ph.turn != first) or tuple(ph.index[1:]) != (0, 0)):
            self.scenario = None            # a later position of the game: moved units are no breach
            self.result.warn(f"{self.id}: set-up not judged: the position is turn {ph.turn}, {ph.label()}, "
                             f"not the start of {sc.get('name') or sc['id']}")
            return
        self._entries = {uid: e for e in sc.get("setup") or [] if isinstance(e, dict) for uid in _ids(e)}
        self._stage = True
        by_uid = {}
        for u in pos.units.values():
            by_uid.setdefault(u.unit_id, u)
        listed = set()
        for e in sc.get("setup") or []:
            if not isinstance(e, dict):
                continue
            for uid in _ids(e):
                listed.add(uid)
                u = by_uid.get(uid)
                if u is None:
                    self._say(pos, uid, None, f"listed in the set-up ({e.get('printed') or e.get('hex') or ''}) "
                                                f"but not in the save")
                    continue
                self._judge(pos, u, e, by_uid)
            self._at_least_one(pos, e, by_uid)
        arriving = {uid: e for e in sc.get("reinforcements") or [] if isinstance(e, dict) for uid in _ids(e)}
        for u in pos.units.values():
            if u.unit_id in listed or u.location.hex is None:
                continue
            e = arriving.get(u.unit_id)
            why = (f"a reinforcement ({e.get('date') or 'turn ' + str(e.get('turn'))}), on the map at the start"
                   if e else f"not in {sc.get('name') or sc['id']}'s set-up, yet on the map")
            self._say(pos, u.unit_id, u, why)

    def move(self, ev, pos) -> None:
        """A unit whose set-up is a choice moved while the players set up (before the tracker first
        moves), or a unit placed later from its "To place" zone: judged where it goes."""
        e = self._entries.get(ev.unit.unit_id) if self.scenario is not None else None
        from_zone = ev.frm.kind == "zone" and ev.frm.name.startswith(TO_PLACE + ":")
        if e is None or not (from_zone or self._stage and any(k in e for k in CHOICE)):
            return
        by_uid = {}
        for u in pos.units.values():
            by_uid.setdefault(u.unit_id, u)
        self._entry_now = ev.entry
        try:
            self._judge(pos, ev.unit, e, by_uid, where_only=True)
        finally:
            self._entry_now = 0

    def phase(self, ev, pos) -> None:
        self._stage = False

    def _at_least_one(self, pos, e, by_uid) -> None:
        """Each of the entry's ``at_least_one_in`` place sets holds one of its units (judged once every
        unit of the entry is placed: none waits in "To place" or is missing)."""
        places = self.ctx.game.places()
        specs = [s for s in e.get("at_least_one_in") or [] if isinstance(s, dict)]
        units = [by_uid.get(uid) for uid in _ids(e)]
        if not specs or places is None or any(u is None or u.location.hex is None for u in units):
            return
        for spec in specs:
            inside = places.select(spec)
            if not any(u.location.hex in inside for u in units):
                names = ", ".join(places.names(inside)[:8]) or "no hex"
                self._say(pos, units[0].unit_id, units[0], f"none of {', '.join(_ids(e))} sets up in {names}; "
                                                           f"the set-up wants at least one there")

    # ------------------------------------------------------------------ one entry
    def _judge(self, pos, u, e, by_uid, where_only: bool = False) -> None:
        ctx, grid = self.ctx, self.ctx.grid
        loc = u.location
        placed = True
        if any(k in e for k in CHOICE) and loc.kind == "zone" and loc.name.startswith(TO_PLACE + ":"):
            placed = False              # still in "To place": the player's choice is not yet made
        want = None
        if isinstance(e.get("hex"), str):
            want = e["hex"]
            # A seam hex has an ID on each sheet (A63.14 is B1.14): the hex decides, not its spelling.
            same = loc.hex == grid.parse(want) if grid is not None and loc.hex is not None else loc.name == want
            if not same:
                self._say(pos, u.unit_id, u, f"set up in {loc.name}, the scenario prints {want}")
        elif isinstance(e.get("box"), str):
            p = ctx.layout.box_point(e["box"])
            if p is not None and loc.name != p[3]:
                self._say(pos, u.unit_id, u, f"set up in {loc.name}, the scenario puts it in {p[3]}")
        elif placed and isinstance(e.get("at_unit"), str) and e["at_unit"] in by_uid:
            other = by_uid[e["at_unit"]].location
            if other.hex is not None and loc.name != other.name:
                self._say(pos, u.unit_id, u, f"set up in {loc.name}, not with {e['at_unit']} ({other.name})")
        elif placed and loc.hex is not None:
            ok = True
            if isinstance(e.get("near"), dict):
                c = grid.parse(str(e["near"].get("hex")))
                n = int(e["near"].get("within") or 0)
                ok = c is not None and grid.distance(c, loc.hex) <= n
                why = f"w/i {n} of {e['near'].get('hex')}"
            elif isinstance(e.get("hexes"), list):
                ok = loc.name in e["hexes"]
                why = "one of " + ", ".join(e["hexes"])
            elif isinstance(e.get("area"), str):
                hexes = ctx.game.area_hexes(e["area"])
                ok = not hexes or loc.name in hexes
                why = f"in area {e['area']}"
            if not ok:
                self._say(pos, u.unit_id, u, f"set up in {loc.name}, the scenario wants it {why}")
        if where_only:
            return
        # face, status, markers, steps
        d = ctx.defs.get(u.unit_id)
        losses = int(e.get("step_losses") or 0)
        if d is not None:
            level = d.level_of(e.get("face", "front"), 0 if self.loss_ids else losses)
            if u.level != level:
                self._say(pos, u.unit_id, u, f"shows face level {u.level}, the set-up wants {level}"
                                             f" ({e.get('face', 'front')})")
        want_status = Counter(str(s) for s in e.get("status") or [])
        if u.status_index is not None and Counter(u.statuses()) != want_status:
            self._say(pos, u.unit_id, u, f"status {sorted(u.statuses()) or 'none'}, the set-up prints "
                                         f"{sorted(want_status) or 'none'}")
        carried = Counter(m.marker_id for m in pos.markers_with(u) if m.marker_id not in self.loss_ids)
        want_with = Counter(str(m) for m in e.get("with") or [])
        if placed and carried != want_with:
            self._say(pos, u.unit_id, u, f"carries markers {sorted(carried.elements()) or 'none'}, the set-up "
                                         f"wants {sorted(want_with.elements()) or 'none'}")
        if self.loss_ids:
            lost = steps_lost(ctx, pos, u, self.loss_ids)
            if lost != losses:
                full = u.props.get("Steps") or "?"
                self._say(pos, u.unit_id, u, f"has lost {lost} step(s), the set-up prints "
                                             f"{'[' + str(int(full) - losses) + ']' if losses else 'full strength'}"
                                             f" ({full} steps at full strength)")

    def _say(self, pos, uid, unit, message) -> None:
        from types import SimpleNamespace
        u = unit or SimpleNamespace(unit_id=uid, name=(self.ctx.defs.get(uid).name if uid in self.ctx.defs else uid))
        where = unit.location if unit is not None else ""
        self.report(pos, u, "", where, message, self._entry_now)
