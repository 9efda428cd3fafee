"""The NATO unit-symbol glyphs the counter renderer can draw.

Data files compose unit types from these names; the validator rejects any other name, so a type that asks
for a glyph we cannot draw fails at validation rather than printing a blank box. The renderer must draw
every name listed here (a test enforces it).
"""

KNOWN_GLYPHS = frozenset({
    "infantry", "armor", "mechanized", "motorized", "cavalry", "armored-cavalry", "recon", "mountain",
    "paratroop", "airborne", "shock", "engineer", "pioneer", "artillery", "anti-tank", "tank-destroyer",
    "assault-gun", "anti-aircraft", "flak", "machine-gun", "bicycle", "hq", "supply", "combat-trains", "rocket",
    "static", "motorcycle", "amphibious", "marine", "security", "police", "flamethrower", "heavy", "jaeger",
    "reserve", "cossack", "fortification", "ski", "guards", "light", "self-propelled", "towed", "headquarters-army",
    "partisan", "militia", "training",
})
