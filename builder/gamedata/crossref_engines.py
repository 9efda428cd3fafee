"""Cross-references of the data the audit's engines read (``zones_of_control``, ``control``,
``movement``): every id they name must exist, so a misspelt terrain type or region is an error at its
``file:line:col``, not a rule silently judged without it."""

from __future__ import annotations


def check(c) -> None:
    """Run on a crossref.Checker *c*."""
    doc = c.doc
    terrain = {t.get("id"): t for t in c.map.get("terrain_types") or [] if isinstance(t, dict)}
    hexsides = {t.get("id"): t for t in c.map.get("hexside_types") or [] if isinstance(t, dict)}
    places = {**c.map_ids("regions"), **c.map_ids("setup_areas"), **c.map_ids("entry_areas")}

    def refs(path, values, collection, what, ids=None):
        for i, v in enumerate(values or []):
            c.ref(doc, path + (i,), v, collection, what, ids=ids)

    z = doc.get("zones_of_control")
    if isinstance(z, dict):
        base = ("zones_of_control",)
        for side, enemies in (z.get("enemies") or {}).items():
            c.ref(doc, base + ("enemies", side), side, "sides", "side")
            refs(base + ("enemies", side), enemies, "sides", "side")
        by = z.get("projected_by") or {}
        for key, coll, what in (("not_types", "unit_types", "unit type"), ("not_flags", "flags", "flag"),
                                ("not_nationalities", "nationalities", "nationality")):
            refs(base + ("projected_by", key), by.get(key), coll, what)
        refs(base + ("not_into_terrain",), z.get("not_into_terrain"), None, "terrain type", terrain)
        for key in ("not_across_hexsides", "through_hexsides"):
            refs(base + (key,), z.get(key), None, "hexside type", hexsides)
        for i, e in c.items("confined", z):
            refs(base + ("confined", i, "nationalities"), e.get("nationalities"), "nationalities", "nationality")
            refs(base + ("confined", i, "sides"), e.get("sides"), "sides", "side")
            refs(base + ("confined", i, "regions"), e.get("regions"), None, "region or area", places)
        if isinstance(z.get("rigid"), list):
            refs(base + ("rigid",), z["rigid"], "movement_classes", "movement class")
    ctl = doc.get("control")
    if isinstance(ctl, dict):
        for i, e in c.items("initial", ctl):
            path = ("control", "initial", i)
            c.ref(doc, path + ("side",), e.get("side"), "sides", "side")
            refs(path + ("regions",), e.get("regions"), None, "region", places)
            refs(path + ("areas",), e.get("areas"), None, "area", places)
            for k, h in enumerate(e.get("hexes") or []):
                c.hex_ref(path + ("hexes", k), h)
    mv = doc.get("movement")
    if isinstance(mv, dict):
        for i, p in c.items("phases", mv):
            refs(("movement", "phases", i, "sides"), p.get("sides"), "sides", "side")
            refs(("movement", "phases", i, "types"), p.get("types"), "unit_types", "unit type")
        markers = c.game.by_id.get("markers", {})
        for i, m in c.items("modifiers", mv):
            when, path = m.get("when") or {}, ("movement", "modifiers", i, "when")
            for key, coll, what in (("weather", "weather", "weather"), ("types", "unit_types", "unit type"),
                                    ("sides", "sides", "side"), ("nationalities", "nationalities", "nationality"),
                                    ("movement_classes", "movement_classes", "movement class"),
                                    ("units", "units", "unit")):
                refs(path + (key,), when.get(key), coll, what)
            for k, v in enumerate(when.get("markers") or []):
                mid, _, face = str(v).partition(":")
                c.ref(doc, path + ("markers", k), mid, None, "marker", ids=markers)
                if face and face not in ("front", "back"):
                    c.error(doc, path + ("markers", k), f"'{v}': the face after ':' is front or back")
