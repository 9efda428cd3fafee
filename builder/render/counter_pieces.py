"""Every physical counter of a game, with a stable piece id: a unit's main counter, its extra counters
(<unit>-2, <unit>-3 ...), and each marker (printed ``quantity`` times).

Image file names and sheet placements both come from here, so the module packager, the build step and the
sheets agree on what exists.
"""

from __future__ import annotations

from dataclasses import dataclass

FACES = ("front", "back")


@dataclass(frozen=True)
class Piece:
    piece_id: str       # stable file-name stem
    kind: str           # "unit" or "marker"
    source_id: str      # the unit's or marker's id in the data
    index: int          # 0: a unit's main counter; 1..: its extra counters
    quantity: int       # how many copies are printed
    side: str | None
    nationality: str | None
    has_back: bool      # whether the data gives a back face to draw (units always have one)

    @property
    def faces(self) -> tuple[str, ...]:
        return FACES if self.has_back else ("front",)


def unit_face_values(unit: dict, index: int, face: str) -> dict | None:
    """The values printed on a face of a unit's counter ``index``; None when the data omits that face."""
    if index == 0:
        values = unit.get(face)
    else:
        extras = unit.get("extra_counters") or []
        values = extras[index - 1].get(face) if index - 1 < len(extras) else None
    return values if isinstance(values, dict) else None


def pieces(game) -> list[Piece]:
    """All counters in data order: units (each with its extra counters), then markers."""
    out: list[Piece] = []
    taken: set[str] = set()
    for uid, unit in game.units.items():
        for index in range(game.counter_count(unit)):
            pid = uid if index == 0 else f"{uid}-{index + 1}"
            taken.add(pid)
            out.append(Piece(pid, "unit", uid, index, 1, game.side_of(unit), unit.get("nationality"), True))
    for mid, marker in game.by_id["markers"].items():
        # Markers and units are separate collections in the data; keep their file names apart if ids clash.
        pid = mid if mid not in taken else f"marker-{mid}"
        qty = marker.get("quantity", 1)
        side = marker.get("side")
        if not side and marker.get("nationality"):
            nat = game.by_id["nationalities"].get(marker["nationality"]) or {}
            side = nat.get("side")
        out.append(Piece(pid, "marker", mid, 0, qty if isinstance(qty, int) and qty > 0 else 1, side,
                         marker.get("nationality"), isinstance(marker.get("back"), dict)))
    return out
