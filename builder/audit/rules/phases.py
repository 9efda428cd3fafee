"""Phase discipline (data: ``movement.phases``, builder.audit.engines.phases).

A unit moved onto a hex in a phase that gives its side no movement is a finding (the non-phasing
side's moves outside its allowed reactions: retreats, advances, placements as the data lists them);
so is a unit already on the map moved in a phase that allows only ``placement`` (units coming onto
the map). In a phase whose permission says ``once: true``, a unit that finished moving (another unit
moved after it) may not move again: several drags in a row are one move. Where every permission
the unit has gives ``max_hexes`` (retreats, advances), a move farther than that from where it stood
when the phase began is a finding; with ``zones_of_control.no_retreat_into``, so is a unit whose only
permission is ``retreat`` ending in an enemy ZOC that no friendly unit there negates. Set-up placements (from the
module's "To place" zones) and moves into boxes (eliminated, to a holding box) are not judged here;
undone commands never are.
"""

from __future__ import annotations

from builder.audit import fastpaths

from . import Rule


class PhaseDiscipline(Rule):
    id = "phase-discipline"
    description = "units move only in phases that let their side move them, and only once where the data says so"

    def __init__(self, ctx, engines) -> None:
        super().__init__()
        self.ctx, self.engines = ctx, engines
        self.permissions = engines.permissions
        spec = ctx.spec("movement")
        self.reference = spec.get("rule") or ""
        self.once_rule = spec.get("once_rule") or ""
        self._reported: set = set()
        self._fast = fastpaths.ENABLED
        self._memo_phase, self._memo = None, {}

    def phase(self, ev, pos) -> None:
        self._reported.clear()

    def _allowed(self, ph, u) -> tuple:
        """(the unit's permissions in phase *ph*, what the move checks ask of them: every one has max_hexes,
        every one is a retreat, every one a placement, one says once). Fastpaths: remembered per side and
        unit type for the phase; only read."""
        if not self._fast:
            return _with_flags(self.permissions.allowed(ph, u.side, u.props.get("Type")))
        if ph is not self._memo_phase:
            self._memo_phase, self._memo = ph, {}
        key = (u.side, u.props.get("Type"))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = _with_flags(self.permissions.allowed(ph, u.side, u.props.get("Type")))
        return found

    def _side_name(self, side: str) -> str:
        return (self.ctx.game.by_id["sides"].get(side) or {}).get("name") or side or "?"

    def move(self, ev, pos) -> None:
        u, ph = ev.unit, pos.phase
        frm, to = ev.frm, ev.to
        # (equal locations have the same hex: the dataclass comparison only where the hexes are the same)
        if to.hex is None or frm is to or (frm.hex == to.hex and frm == to) or ph is None or not ph.kind \
                or u.piece_id in self._reported:
            return
        perms, all_max, all_retreat, all_placement, any_once = self._allowed(ph, u)
        if perms and not (all_max or all_retreat or all_placement or any_once):
            return                              # a permission with no condition: nothing to judge
        if self.engines.is_setup_move(ev, pos):
            return                              # the players' set-up, judged by the set-up rule
        if self.ctx.is_staging(ev.frm, "To place"):
            return
        role = self.permissions.role(ph, u.side)
        label = ph.label() or ph.phase_id
        if not perms:
            self._reported.add(u.piece_id)
            others = [p.movement for p in self.permissions.by_kind.get(ph.kind, ())]
            why = f"the {role} side may not move in a {ph.kind} phase"
            if others:
                why += f" ({', '.join(sorted(set(others)))} only for the " + \
                       ("phasing side)" if role == "non-phasing" else "non-phasing side)")
            self.report(pos, u, ev.frm, ev.to, f"{self._side_name(u.side)} unit moved in the {label}: {why}",
                        ev.entry, reference=ph.rule or self.reference)
            return
        act = self.engines.ledger.get(u.piece_id)
        began = act.start if act is not None and act.start is not None else ev.frm
        if all_max and began.hex is not None:
            far = self.ctx.grid.distance(began.hex, ev.to.hex)
            limit = max(p.max_hexes for p in perms)
            if far > limit:
                self._reported.add(u.piece_id)
                kinds = " or ".join(sorted({p.movement for p in perms}))
                self.report(pos, u, began, ev.to,
                            f"{self._side_name(u.side)} unit moved {far} hexes from {began.name} in the {label}; "
                            f"the {role} side may move only by {kinds} there, at most {limit} hex(es)",
                            ev.entry, reference=perms[0].rule or ph.rule)
                return
        z = self.engines.zoc
        if all_retreat and z.enabled and z.spec.get("no_retreat_into") \
                and z.enemy_zoc(ev.to.hex, u.side, pos, "retreat", exclude=u):
            self._reported.add(u.piece_id)
            self.report(pos, u, ev.frm, ev.to, f"retreats into {ev.to.name}, in an enemy zone of control no "
                        f"friendly unit there negates", ev.entry, reference=z.rule or perms[0].rule)
            return
        if all_placement and ev.frm.hex is not None:
            self._reported.add(u.piece_id)
            self.report(pos, u, ev.frm, ev.to,
                        f"only units coming onto the map may be placed in the {label}; this unit was already "
                        f"on the map at {ev.frm.name}", ev.entry, reference=perms[0].rule or ph.rule)
            return
        if any_once and u.piece_id in self.engines.ledger.finished:
            self._reported.add(u.piece_id)
            self.report(pos, u, ev.frm, ev.to,
                        f"moved again in the {label} after other units had moved (a unit that finished "
                        f"moving may not move again in the same phase)", ev.entry,
                        reference=self.once_rule or next((p.rule for p in perms if p.once), ""))


def _with_flags(perms: list) -> tuple:
    """(perms, all have max_hexes, all are retreats, all are placements, one says once)."""
    return (perms, all(p.max_hexes is not None for p in perms), all(p.movement == "retreat" for p in perms),
            all(p.movement == "placement" for p in perms), any(p.once for p in perms))
