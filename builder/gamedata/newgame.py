"""``vassal-builder new NAME``: the files of a small complete game (two sides, a few units, a map with
terrain, a river hexside, a road, a setup area and an off-map box, one scenario) that validates and builds
as written, for a designer to change. The README's worked map is this map."""

from __future__ import annotations

import re

GAME_YAML = """\
# yaml-language-server: $schema={schema_dir}/game.schema.json
# {title}: written by 'vassal-builder new'. Change anything; 'vassal-builder validate .' checks it.
game:
  id: {id}
  title: {title}
  map: map.yaml              # a path ending in .yaml is relative to this file
  counter: {{size_mm: 15.875, image_px: 75}}
  stacking: {{limit: 2}}

sides:
  - {{id: blue, name: Blue}}
  - {{id: red, name: Red}}

nationalities:
  - {{id: blue-army, name: Blue Army, side: blue, text: "#000000", background: "#8fb4e3"}}
  - {{id: red-army, name: Red Army, side: red, text: "#000000", background: "#e38f8f"}}

movement_classes:
  - {{id: foot, name: Foot}}
  - {{id: tracked, name: Tracked, mechanized: true}}

unit_types:
  - {{id: infantry, name: Infantry, symbol: [infantry], movement_class: foot}}
  - {{id: armor, name: Armor, symbol: [armor], movement_class: tracked}}

sizes:
  - {{id: XX, name: Division, mark: XX}}

values:
  - {{id: attack, name: Attack, kind: integer, minimum: 0}}
  - {{id: defense, name: Defense, kind: integer, minimum: 0}}
  - {{id: movement, name: Movement allowance, kind: integer, minimum: 0}}

layouts:
  - id: standard
    slots:
      - {{at: top, show: size}}
      - {{at: center, show: symbol}}
      - {{at: symbol-right, text: "{{name}}"}}
      - {{at: bottom, text: "{{attack}}-{{defense}}-{{movement}}"}}

weather:
  - {{id: clear, name: Clear}}

turns:
  - {{turn: 1, weather: clear}}
  - {{turn: 2, weather: clear}}

sequence:
  - id: blue-turn
    name: Blue player-turn
    side: blue
    phases:
      - {{id: move, name: Movement, kind: movement}}
      - {{id: combat, name: Combat, kind: combat}}
  - id: red-turn
    name: Red player-turn
    side: red
    phases:
      - {{id: move, name: Movement, kind: movement}}
      - {{id: combat, name: Combat, kind: combat}}

units:
  - {{id: blue-1, name: "1", nationality: blue-army, type: infantry, size: XX, steps: 1,
     front: {{attack: 4, defense: 4, movement: 4}}}}
  - {{id: blue-2, name: "2", nationality: blue-army, type: armor, size: XX, steps: 1,
     front: {{attack: 6, defense: 3, movement: 6}}}}
  - {{id: red-1, name: "1", nationality: red-army, type: infantry, size: XX, steps: 1,
     front: {{attack: 3, defense: 5, movement: 3}}}}
  - {{id: red-2, name: "2", nationality: red-army, type: infantry, size: XX, steps: 1,
     front: {{attack: 3, defense: 5, movement: 3}}}}

scenarios:
  - id: first-battle
    name: First Battle
    first_turn: 1
    last_turn: 2
    first_player: blue
    setup:
      - {{unit: blue-1, hex: B3}}
      - {{unit: blue-2, area: blue-start}}
      - {{unit: red-1, hex: F4}}
      - {{unit: red-2, box: red-reserve}}
"""

MAP_YAML = """\
# yaml-language-server: $schema={schema_dir}/map.schema.json
map: {{id: {id}, title: {title} map}}
grid:
  orientation: flat          # flat-topped hexes in columns
  stagger: even
  hex_size: 80
  columns: {{first: 1, last: 8, labels: letters}}
  rows: {{first: 1, last: 6}}
  id: "{{col}}{{row}}"          # hex IDs like B3
  rows_run: south
  columns_run: east
terrain_types:               # what a hex can be, how it looks, what it costs per movement class
  - {{id: clear, name: Clear, color: "#EEEEDD", movement: {{all: 1}}}}
  - {{id: forest, name: Forest, color: "#4E8B3A", pattern: trees, movement: {{foot: 2, tracked: 3}}}}
  - {{id: lake, name: Lake, color: "#5B8FD9", movement: {{all: prohibited}}, playable: false}}
hexside_types:               # features along hex sides
  - {{id: river, name: River, color: "#2255CC", movement: {{all: 2}}}}
line_types:                  # features through hex centres
  - {{id: road, name: Road, color: "#8B5A2B", movement: {{all: 0.5}}}}
terrain:
  default: clear             # every hex not listed
  hexes: {{C2: forest, C3: forest, D3: forest, F2: lake}}
hexsides:                    # each side as the pair of hexes it separates
  - {{type: river, sides: [[E3, E4], [E4, F4], [E4, E5]]}}
lines:                       # hexes in order, each next to the previous
  - {{type: road, path: [A4, B4, C4, D4, E4, F4, G4, H4]}}
locations:
  - {{hex: E4, name: Bridge town, vp: 1}}
setup_areas:
  - {{id: blue-start, name: Blue set-up, hexes: [A2, A3, B2]}}
boxes:                       # off-map holding boxes
  - {{id: red-reserve, name: Red reserve, side: red}}
"""


def slug(name: str) -> str:
    """A game id from a folder name: letters, digits and - only."""
    s = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()
    return s if s and s[0].isalnum() else f"game-{s}".strip("-")


def files(name: str, schema_dir: str) -> dict[str, str]:
    """file name -> text of a new game called ``name``."""
    gid = slug(name)
    title = " ".join(w.capitalize() for w in gid.split("-")) or "New Game"
    fill = {"id": gid, "title": title, "schema_dir": schema_dir}
    return {"game.yaml": GAME_YAML.format(**fill), "map.yaml": MAP_YAML.format(**fill)}
