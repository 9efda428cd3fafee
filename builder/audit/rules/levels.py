"""Marker levels built up on the map (``check: marker-levels`` entries of the data's ``rules`` list): EotID
fortifications (22.x), where each factor spent raises a hex's fort level by one.

``levels`` maps marker ids to the level they show (``fort-1: 1, fort-2: 2, fort-3: 3``); a hex's level is the
highest level of those markers in it, and every rise of it at the end of a logged action spends that many
factors. Then: ``max_per_player_turn`` (factors per player-turn), ``max_per_hex`` (per hex per player-turn),
``max_total`` (over the game), ``allowed`` (a place set where a level may rise) or ``prohibited`` (no rise at all,
e.g. with ``turns: [1]``), with the usual when keys (``turns``, ``phases`` ...).
"""

from __future__ import annotations

from . import Rule
from .select import PlaceSet, When


class MarkerLevels(Rule):
    id = "marker-levels"
    description = "levels built with markers (fortifications): per turn, per hex, in all, where"
    end_entry_after = frozenset({"marker"})          # what touches the hexes end_entry judges

    def __init__(self, ctx, spec: dict) -> None:
        super().__init__()
        self.ctx, self.spec = ctx, spec
        self.id, self.reference = spec.get("id") or self.id, spec.get("reference") or ""
        self.name = spec.get("name") or ""
        self.levels = {k: float(v) for k, v in (spec.get("levels") or {}).items() if isinstance(v, (int, float))}
        self.when = When(ctx, spec)
        self.allowed = PlaceSet(ctx, spec["allowed"]) if isinstance(spec.get("allowed"), dict) else None
        self.prohibited = bool(spec.get("prohibited"))
        self.per_turn, self.per_hex = spec.get("max_per_player_turn"), spec.get("max_per_hex")
        self.total_max = spec.get("max_total")
        self._level: dict = {}          # hex -> level at the end of the last action
        self._touched: set = set()
        self._turn_key = None
        self._spent = 0.0               # this player-turn
        self._hex_spent: dict = {}      # hex -> factors this player-turn
        self._total = 0.0

    def checks(self) -> list[tuple[str, str, str]]:
        return [(self.id, self.reference, self.name or self.description)]

    def _hex_level(self, pos, h) -> float:
        return max([self.levels.get(m.marker_id, 0.0) for m in pos.markers_at(h)] + [0.0])

    def begin(self, pos) -> None:
        for m in pos.markers.values():
            if m.location.hex is not None and m.marker_id in self.levels:
                self._level[m.location.hex] = self._hex_level(pos, m.location.hex)

    def marker(self, ev, pos) -> None:
        if ev.marker.marker_id not in self.levels:
            return
        for loc in (ev.frm, ev.to):
            if loc is not None and loc.hex is not None:
                self._touched.add(loc.hex)

    def end_entry(self, entry, pos) -> None:
        if not self._touched:
            return
        touched, self._touched = self._touched, set()
        ph = pos.phase
        key = (ph.turn, ph.player_turn) if ph is not None else None
        if key != self._turn_key:
            self._turn_key, self._spent, self._hex_spent = key, 0.0, {}
        for h in sorted(touched, key=self.ctx.grid.name):
            new, old = self._hex_level(pos, h), self._level.get(h, 0.0)
            self._level[h] = new
            rise = new - old
            if rise <= 0 or not self.when.applies(pos):
                continue
            self._spent += rise
            self._hex_spent[h] = self._hex_spent.get(h, 0.0) + rise
            self._total += rise
            name = self.ctx.grid.name(h)
            msg = None
            if self.prohibited:
                msg = f"{name} rises to level {_fmt(new)} now"
            elif self.allowed is not None and not self.allowed.contains(h):
                msg = f"{name}{self.allowed.terrain_note(h)} is outside {self.allowed.describe()}"
            elif isinstance(self.per_hex, (int, float)) and self._hex_spent[h] > self.per_hex:
                msg = f"{_fmt(self._hex_spent[h])} factors in {name} this player-turn, at most {_fmt(self.per_hex)}"
            elif isinstance(self.per_turn, (int, float)) and self._spent > self.per_turn:
                msg = f"factor {_fmt(self._spent)} this player-turn (in {name}), at most {_fmt(self.per_turn)}"
            elif isinstance(self.total_max, (int, float)) and self._total > self.total_max:
                msg = f"factor {_fmt(self._total)} of the game (in {name}), at most {_fmt(self.total_max)}"
            if msg:
                self._finding(pos, h, msg, entry)

    def _finding(self, pos, h, msg, entry) -> None:
        from builder.audit.report import Finding
        lead = f"{self.name}: " if self.name else ""
        self.result.add(Finding(pos.turn, pos.phase_label(), "", "", "", self.ctx.grid.name(h), self.id,
                                self.reference, lead + msg, entry))


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"
