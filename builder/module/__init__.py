"""Module packaging: assemble dist/GAME/GAME.vmod from the validated game, its rendered images and the codec.

One job per module:

* :mod:`.images`     — the counter and map PNGs (rendered by the map/counters steps when missing);
* :mod:`.names`      — display names and small shared helpers (sides, faces, value keys);
* :mod:`.pieces`     — each palette piece's trait chain (BasicPiece, face layer, Marker properties);
* :mod:`.prototypes` — the shared traits per side and unit type (Delete, Clone, flip report);
* :mod:`.maps`       — maps, boards, hex grids (from builder.geometry.vassal_derive), box zones;
* :mod:`.palettes`   — the PieceWindow (side → nationality/formation, markers tab);
* :mod:`.turns`      — TurnTracker(s) from ``turns`` and ``sequence``;
* :mod:`.setups`     — one .vsav per scenario (where every unit starts);
* :mod:`.package`    — the build step: buildFile.xml + moduledata + images + saves → one atomic zip.

VASSAL encoding stays in builder.vassal, rendering in builder.render: nothing here draws or escapes.
"""
