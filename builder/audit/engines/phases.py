"""Which phases let whom move, and how: the data's ``movement.phases``.

Each permission names a phase ``kind`` (the sequence of play's phase kinds), ``who`` may move in it
(``phasing``: the player-turn's side; ``non-phasing``; ``any``), and the ``movement`` it allows:
``operational`` (judged against the allowance over the path), ``strategic`` (judged when the data
gives an ``allowance_multiplier``, e.g. 3 x MA; ``unlimited`` is not judged), ``sea``, ``air``,
``retreat-advance`` (after combat), ``retreat`` (retreats only), ``placement`` (only units coming onto the map: reinforcements,
set-up). ``once: true``: a unit that finished moving may not move again in that phase; ``max_hexes``:
at most that many hexes from where it stood when the phase began (retreats, advances); ``sides`` and
``types`` (unit types) narrow a permission to some units. A player-turn
without a side has every side phasing (BCS activations). Without ``movement.phases`` in the data
nothing here is judged (``known`` is False).
"""

from __future__ import annotations

from dataclasses import dataclass

MOVEMENTS = ("operational", "strategic", "sea", "air", "retreat-advance", "retreat", "placement")


@dataclass(frozen=True)
class Permission:
    kind: str
    who: str = "phasing"
    movement: str = "operational"
    once: bool = False
    allowance_multiplier: float | None = None
    unlimited: bool = False
    sides: tuple = ()
    types: tuple = ()
    max_hexes: int | None = None
    rule: str = ""

    def judged_by_allowance(self) -> bool:
        return not self.unlimited and (self.movement == "operational" or self.allowance_multiplier is not None)

    def multiplier(self) -> float:
        return 1.0 if self.allowance_multiplier is None else float(self.allowance_multiplier)


class MovementPermissions:
    def __init__(self, ctx) -> None:
        spec = ctx.spec("movement")
        self.rule = spec.get("rule") or ""
        self.by_kind: dict[str, list[Permission]] = {}
        for p in spec.get("phases") or []:
            if not isinstance(p, dict) or not p.get("kind"):
                continue
            perm = Permission(p["kind"], p.get("who") or "phasing", p.get("movement") or "operational",
                              bool(p.get("once")), p.get("allowance_multiplier"), bool(p.get("unlimited")),
                              tuple(p.get("sides") or ()), tuple(p.get("types") or ()), p.get("max_hexes"),
                              p.get("rule") or "")
            self.by_kind.setdefault(perm.kind, []).append(perm)
        self.known = bool(self.by_kind)
        self._allowed: dict = {}          # (phase kind, phasing side, side, unit type) -> permissions

    @staticmethod
    def role(phase, side: str) -> str:
        """``phasing`` or ``non-phasing`` for a unit of *side* in *phase*."""
        return "phasing" if phase is None or phase.side is None or phase.side == side else "non-phasing"

    def allowed(self, phase, side: str, unit_type: str | None = None) -> list[Permission]:
        """The permissions that let a unit of *side* (and type) move in *phase* (empty: it may not)."""
        return list(self.allowing(phase, side, unit_type))

    def allowing(self, phase, side: str, unit_type: str | None = None) -> tuple:
        """:meth:`allowed` as the memoised tuple itself (not to be changed; for the engines' own use)."""
        if phase is None:
            return ()
        key = (phase.kind, phase.side, side, unit_type)
        found = self._allowed.get(key)
        if found is None:
            role = self.role(phase, side)
            found = tuple(p for p in self.by_kind.get(phase.kind, ())
                          if (p.who == "any" or p.who == role) and (not p.sides or side in p.sides)
                          and (not p.types or unit_type in p.types))
            if len(self._allowed) > 10_000:
                self._allowed.clear()
            self._allowed[key] = found
        return found

    def kinds_allowing(self, movement: str) -> set:
        return {k for k, perms in self.by_kind.items() if any(p.movement == movement for p in perms)}
