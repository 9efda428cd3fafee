"""Replacement steps (``check: replacements`` entries of the data's ``rules`` list).

A step is gained when a unit flips to a stronger face (its face level goes down: back -> front, or from a
second counter to the first) or comes back out of one of the ``dead_boxes`` (rebuilt, one step). Entry keys:
``units`` and when (``turns``, ``phases``, ``phase_kinds`` ...) select the steps judged; then one of
``prohibited: true`` (no such step at all: EotID 6.8 no replacements on Turn 1, 7.16 D irreplaceable units,
23.2 C nothing comes back from the Permanently Destroyed box), ``max_steps_per_unit`` (per unit per
player-turn: 7.16 A) or ``max_steps`` (for all the selected units together per player-turn: 7.13-7.15).
``dead_boxes`` (box ids) says which boxes a return from counts; without it no return is judged.
"""

from __future__ import annotations

from . import Rule
from .select import UnitSelector, When, box_ids


class _Entry:
    def __init__(self, ctx, spec: dict) -> None:
        self.id, self.reference = spec.get("id") or "replacements", spec.get("reference") or ""
        self.message = spec.get("name") or ""
        self.units, self.when = UnitSelector(ctx, spec.get("units")), When(ctx, spec)
        self.prohibited = bool(spec.get("prohibited"))
        self.per_unit = spec.get("max_steps_per_unit") if isinstance(spec.get("max_steps_per_unit"), int) else None
        self.total = spec.get("max_steps") if isinstance(spec.get("max_steps"), int) else None
        self.boxes = set(spec.get("dead_boxes") or [])
        self.flips = spec.get("flips", True) is not False
        self.count: dict = {}            # (player-turn key, piece id or "*") -> steps


class Replacements(Rule):
    id = "replacements"
    description = "replacement steps: when, how many, which units (data: rules, check: replacements)"
    merges = True                       # consecutive entries of the data are judged by one object (fastpaths)

    def __init__(self, ctx, spec: dict) -> None:
        super().__init__()
        self.ctx = ctx
        self.entries = [_Entry(ctx, spec)]
        self.id, self.reference = self.entries[0].id, self.entries[0].reference

    def merge(self, other: "Replacements") -> None:
        """Judge *other*'s entries too, after this one's (each entry keeps its own counts)."""
        self.entries += other.entries

    def checks(self) -> list[tuple[str, str, str]]:
        return [(e.id, e.reference, e.message or e.id) for e in self.entries]

    def moves_matter(self, pos) -> bool:
        return any(e.when.applies(pos) for e in self.entries)

    def flip(self, ev, pos) -> None:
        if ev.new_level < ev.old_level:
            self._gain(pos, ev.unit, ev.old_level - ev.new_level, None, ev.entry,
                       f"flipped to a stronger face ({self.ctx.face_key(ev.unit.unit_id, ev.new_level)})")

    def move(self, ev, pos) -> None:
        box = box_ids(self.ctx, ev.frm)
        if box is None or box_ids(self.ctx, ev.to) == box:
            return
        self._gain(pos, ev.unit, 1, box, ev.entry, f"came back from {ev.frm.name} to {ev.to.name}")

    def _gain(self, pos, unit, steps: int, box, entry: int, what: str) -> None:
        ph = pos.phase
        pt = (ph.turn, ph.player_turn) if ph is not None else (None, None)
        for e in self.entries:
            if (box is not None and box not in e.boxes) or (box is None and not e.flips):
                continue
            if not e.when.applies(pos) or not e.units.matches(unit):
                continue
            lead = f"{e.message}: " if e.message else ""
            if e.prohibited:
                self.report(pos, unit, "", unit.location, f"{lead}{unit.unit_id} {what}", entry,
                            reference=e.reference, rule_id=e.id)
                continue
            if e.per_unit is not None:
                key = (pt, unit.piece_id)
                e.count[key] = e.count.get(key, 0) + steps
                if e.count[key] > e.per_unit:
                    self.report(pos, unit, "", unit.location,
                                f"{lead}{unit.unit_id} {what}: {e.count[key]} steps this player-turn, "
                                f"at most {e.per_unit} per unit", entry, reference=e.reference, rule_id=e.id)
            if e.total is not None:
                key = (pt, "*")
                e.count[key] = e.count.get(key, 0) + steps
                if e.count[key] > e.total:
                    self.report(pos, unit, "", unit.location,
                                f"{lead}{unit.unit_id} {what}: step {e.count[key]} of these this player-turn, "
                                f"at most {e.total}", entry, reference=e.reference, rule_id=e.id)
