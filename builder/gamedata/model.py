"""The resolved game: templates applied, collections indexed by id. Read-only input to every later stage."""

from __future__ import annotations

from dataclasses import dataclass, field

# Keys whose mappings merge (unit value wins) when a unit uses a template; everything else is replaced.
MERGED_KEYS = ("front", "back", "arrival", "authored")
COLLECTIONS = ("sides", "nationalities", "movement_classes", "unit_types", "sizes", "values", "flags", "layouts",
               "formations", "markers", "weather", "templates", "units", "scenarios")


def apply_template(unit: dict, template: dict | None) -> dict:
    # No deep copies: the resolved game is read-only, so units share their template's values
    # (a merged key gets a mapping of its own).
    if not template:
        return dict(unit)
    out = {k: v for k, v in template.items() if k != "id"}
    for key, value in unit.items():
        if key in MERGED_KEYS and isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = {**out[key], **value}
        else:
            out[key] = value
    return out


class IdIndex(dict):
    """id -> item. Looking up a value that cannot be an id (a list where the data should name one, which
    the schema reports) finds nothing instead of raising."""

    def get(self, key, default=None):
        try:
            return super().get(key, default)
        except TypeError:
            return default

    def __contains__(self, key) -> bool:
        try:
            return super().__contains__(key)
        except TypeError:
            return False


def index(items) -> dict:
    """id -> item for a list of mappings; the first wins on duplicates (the validator reports them)."""
    out: dict = IdIndex()
    for item in items or []:
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            out.setdefault(item["id"], item)
    return out


@dataclass
class Game:
    doc: dict
    map_doc: dict | None = None
    by_id: dict = field(default_factory=dict)  # collection name -> IdIndex {id: item}
    units: dict = field(default_factory=IdIndex)  # unit id -> resolved unit (templates applied)

    @classmethod
    def from_documents(cls, doc: dict, map_doc: dict | None = None) -> "Game":
        game = cls(doc, map_doc)
        for name in COLLECTIONS:
            value = doc.get(name)
            game.by_id[name] = index(value if isinstance(value, list) else [])
        templates = game.by_id["templates"]
        for uid, unit in game.by_id["units"].items():
            game.units[uid] = apply_template(unit, templates.get(unit.get("template")))
        return game

    @property
    def id(self) -> str:
        info = self.doc.get("game") or {}
        return info.get("id", "") if isinstance(info, dict) else ""

    def side_of(self, unit: dict) -> str | None:
        if unit.get("side"):
            return unit["side"]
        nat = self.by_id["nationalities"].get(unit.get("nationality"))
        return nat.get("side") if nat else None

    def is_combat(self, unit: dict) -> bool:
        if "combat" in unit:
            return bool(unit["combat"])
        utype = self.by_id["unit_types"].get(unit.get("type")) or {}
        return bool(utype.get("combat", True))

    def counter_count(self, unit: dict) -> int:
        return 1 + len(unit.get("extra_counters") or [])

    def turns_for(self, scenario: dict | None = None) -> list[int]:
        turns = (scenario or {}).get("turns") or self.doc.get("turns") or []
        return [t["turn"] for t in turns if isinstance(t, dict) and isinstance(t.get("turn"), int)]

    def area_hexes(self, area_id: str) -> list[str]:
        """The hexes of a setup area: its listed hexes, then every location carrying its symbol, then the
        hexes its ``places`` describe (builder.gamedata.places), in the grid's order."""
        for area in (self.map_doc or {}).get("setup_areas") or []:
            if isinstance(area, dict) and area.get("id") == area_id:
                hexes = [h for h in area.get("hexes") or [] if isinstance(h, str)]
                symbol = area.get("symbol")
                if symbol:
                    hexes += [loc["hex"] for loc in (self.map_doc or {}).get("locations") or []
                              if isinstance(loc, dict) and loc.get("symbol") == symbol
                              and isinstance(loc.get("hex"), str) and loc["hex"] not in hexes]
                places = self.places()
                if isinstance(area.get("places"), dict) and places is not None:
                    listed = {places.grid.parse(h) for h in hexes}
                    hexes += [n for n in places.names(places.select(area["places"]))
                              if places.grid.parse(n) not in listed]
                return hexes
        return []

    def places(self):
        """The game's place sets on its grid (builder.gamedata.places.Places), None without a usable grid."""
        found = self.__dict__.get("_places", False)
        if found is False:
            found = None
            spec = (self.map_doc or {}).get("grid")
            if isinstance(spec, dict):
                from builder.geometry import Grid
                from builder.gamedata.places import Places
                try:
                    found = Places(self, Grid.from_spec(spec))
                except Exception:  # noqa: BLE001 - a grid the validator reports; no place sets then
                    found = None
            self.__dict__["_places"] = found
        return found

    def summary(self) -> dict:
        by_side: dict[str, int] = {}
        combat = 0
        counters = 0
        for unit in self.units.values():
            if self.is_combat(unit):
                side = self.side_of(unit) or "?"
                by_side[side] = by_side.get(side, 0) + 1
                combat += 1
            counters += self.counter_count(unit)
        pieces = counters  # a unit's counters are pieces of their own; a marker is one piece printed N times
        for marker in self.by_id["markers"].values():
            qty = marker.get("quantity", 1)
            counters += qty if isinstance(qty, int) else 1
            pieces += 1
        return {"units": combat, "all_units": len(self.units), "units_by_side": by_side, "counters": counters,
                "pieces": pieces, "scenarios": len(self.by_id["scenarios"])}
