"""Bad map input: hexes off the grid, hexsides that are not adjacent, unknown terrain, one hex defined twice.

Each case breaks one line of a small terrain map (a copy of examples/tiny-game) and checks that
``vassal-builder validate`` names that file and line with a clear message.
"""

import re

import pytest

from builder.cli import main

TERRAIN_MAP = """\
# yaml-language-server: $schema=../../schemas/map.schema.json
map: {id: tiny, title: Tiny Battle map}
grid:
  orientation: flat
  stagger: even
  hex_size: 80
  columns: {first: 1, last: 10, labels: letters}
  rows: {first: 1, last: 10}
  id: "{col}{row}"
  rows_run: south
  columns_run: east
terrain_types:
  - {id: clear, name: Clear, color: "#EEEEDD"}
  - {id: forest, name: Forest, color: "#88AA66", pattern: trees}
  - {id: lake, name: Lake, color: "#6699DD", playable: false}
hexside_types:
  - {id: river, name: River, color: "#3366CC"}
line_types:
  - {id: road, name: Road, color: "#AA3300"}
terrain:
  default: clear
  codes: {".": clear, f: forest, "~": lake}
  rows:
    - {column: B, codes: "..ff......"}
    - {column: C, from: 3, codes: "f~~f"}
  hexes:
    E6: forest
hexsides:
  - type: river
    sides: [[C3, C4], [C7, C8]]
lines:
  - {type: road, path: [A1, A2, A3]}
locations:
  - {hex: E5, name: Crossroads, vp: 1}
"""


@pytest.fixture
def game(tiny_game):
    (tiny_game / "map.yaml").write_text(TERRAIN_MAP)
    return tiny_game


def validate(capsys, game):
    code = main(["validate", str(game / "game.yaml")])
    out = capsys.readouterr().out
    return code, [l for l in out.splitlines() if re.match(r"^[^:]+:\d+:\d+: (?!warning)", l)]


def edit(game, old, new):
    path = game / "map.yaml"
    text = path.read_text()
    assert old in text, f"test setup: {old!r} not in map.yaml"
    path.write_text(text.replace(old, new, 1))
    return path


def line_of(game, needle):
    for n, line in enumerate((game / "map.yaml").read_text().splitlines(), 1):
        if needle in line:
            return n
    raise AssertionError(needle)


def only_error(capsys, game):
    code, errs = validate(capsys, game)
    assert code == 1, errs
    assert len(errs) == 1, errs
    return errs[0]


def test_terrain_map_is_valid(capsys, game):
    code, errs = validate(capsys, game)
    assert code == 0 and errs == []


def test_terrain_hex_outside_the_grid(capsys, game):
    edit(game, "    E6: forest", "    K11: forest")
    err = only_error(capsys, game)
    assert err.startswith(f"map.yaml:{line_of(game, 'K11: forest')}:")
    assert "'K11' is not a hex of this map" in err


def test_terrain_row_running_off_the_grid(capsys, game):
    edit(game, 'codes: "f~~f"}', 'codes: "f~~f....f"}')
    err = only_error(capsys, game)
    assert err.startswith(f"map.yaml:{line_of(game, 'f~~f....f')}:")
    assert "run off the grid: row 11 (character 9) is past the last, 10" in err


def test_terrain_row_label_not_on_the_grid(capsys, game):
    edit(game, '{column: B, codes', '{column: Q, codes')
    err = only_error(capsys, game)
    assert err.startswith(f"map.yaml:{line_of(game, 'column: Q')}:")
    assert "column 'Q' is not on the grid" in err


def test_hexside_pair_not_adjacent(capsys, game):
    edit(game, "[C7, C8]", "[C7, C9]")
    err = only_error(capsys, game)
    assert err.startswith(f"map.yaml:{line_of(game, '[C7, C9]')}:")
    assert "hexsides[0].sides[1]: C7 and C9 are not adjacent, so they share no hexside" in err


def test_hexside_hex_outside_the_grid(capsys, game):
    edit(game, "[C7, C8]", "[C7, Z8]")
    err = only_error(capsys, game)
    assert err.startswith(f"map.yaml:{line_of(game, '[C7, Z8]')}:") and "'Z8' is not a hex of this map" in err


def test_line_path_not_adjacent(capsys, game):
    edit(game, "path: [A1, A2, A3]", "path: [A1, A2, A5]")
    err = only_error(capsys, game)
    assert err.startswith(f"map.yaml:{line_of(game, '[A1, A2, A5]')}:")
    assert "A2 and A5 are not adjacent" in err


def test_unknown_terrain_type_for_a_hex(capsys, game):
    edit(game, "    E6: forest", "    E6: forrest")
    err = only_error(capsys, game)
    assert err.startswith(f"map.yaml:{line_of(game, 'E6: forrest')}:")
    assert "unknown terrain type 'forrest'; did you mean 'forest'?" in err


def test_unknown_terrain_type_for_a_code(capsys, game):
    edit(game, '"~": lake}', '"~": lakes}')
    err = only_error(capsys, game)
    assert err.startswith(f"map.yaml:{line_of(game, 'lakes}')}:") and "unknown terrain type 'lakes'" in err


def test_unknown_terrain_code_in_a_row(capsys, game):
    edit(game, '"..ff......"', '"..fX......"')
    err = only_error(capsys, game)
    assert err.startswith(f"map.yaml:{line_of(game, '..fX')}:")
    assert "unknown terrain code 'X' (character 4); codes: .f~" in err


def test_unknown_hexside_type(capsys, game):
    edit(game, "  - type: river", "  - type: rivr")
    err = only_error(capsys, game)
    assert err.startswith(f"map.yaml:{line_of(game, 'type: rivr')}:") and "unknown hexside type 'rivr'" in err


def test_hex_given_terrain_by_a_row_and_by_hexes(capsys, game):
    edit(game, "    E6: forest", "    B3: forest")
    err = only_error(capsys, game)
    first = line_of(game, '{column: B, codes')
    assert err.startswith(f"map.yaml:{line_of(game, 'B3: forest')}:")
    assert f"hex B3 is given a terrain twice (first at map.yaml:{first})" in err


def test_hex_given_terrain_by_two_rows(capsys, game):
    edit(game, '    - {column: C, from: 3, codes: "f~~f"}',
         '    - {column: C, from: 3, codes: "f~~f"}\n    - {column: C, from: 6, codes: "f"}')
    err = only_error(capsys, game)
    first = line_of(game, 'from: 3')
    assert err.startswith(f"map.yaml:{line_of(game, 'from: 6')}:")
    assert f"hex C6 is given a terrain twice (first at map.yaml:{first})" in err


def test_keep_codes_define_nothing(capsys, game):
    # '.' keeps the default: a row with dots over hexes set under hexes is not a second definition.
    edit(game, "    E6: forest", "    B5: forest\n    B1: lake")
    code, errs = validate(capsys, game)
    assert code == 0 and errs == []


def test_location_described_twice(capsys, game):
    edit(game, "  - {hex: E5, name: Crossroads, vp: 1}",
         "  - {hex: E5, name: Crossroads, vp: 1}\n  - {hex: E5, name: Inn}")
    err = only_error(capsys, game)
    assert err.startswith(f"map.yaml:{line_of(game, 'name: Inn')}:")
    assert f"hex E5 is described twice (first at map.yaml:{line_of(game, 'Crossroads')})" in err


def test_row_needs_a_sheet_on_a_sheeted_grid(capsys, game):
    edit(game, '  id: "{col}{row}"', '  id: "{sheet}{col}{row}"\n  sheets: [{id: N, origin: {col: 0, row: 0}}]')
    edit(game, "    E6: forest", "    NE6: forest")
    edit(game, "[[C3, C4], [C7, C8]]", "[[NC3, NC4]]")
    edit(game, "path: [A1, A2, A3]", "path: [NA1, NA2]")
    edit(game, "{hex: E5,", "{hex: NE5,")
    code, errs = validate(capsys, game)
    rows = [e for e in errs if "give the row's 'sheet'" in e]
    assert len(rows) == 2 and rows[0].startswith(f"map.yaml:{line_of(game, '{column: B')}:")
