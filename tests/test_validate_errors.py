"""The validator on broken input: one case per error class, each with its exact message and line."""

import json
import re

import pytest

from builder.cli import main


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def run_validate(capsys, *args):
    code = main(["validate", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


def replace(path, old, new, count=1):
    text = path.read_text()
    assert old in text, f"test setup: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, count))


def line_of(path, needle):
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return n
    raise AssertionError(needle)


def errors(out):
    return [l for l in out.splitlines() if re.match(r"^[^:]+:\d+:\d+: (?!warning)", l)]


def test_tiny_game_is_valid(capsys, tiny_game):
    code, out, err = run_validate(capsys, tiny_game / "game.yaml")
    assert code == 0, out + err
    assert "6 units in all" in out and "5 combat units" in out and "1 scenario," in out
    assert "1 authored entry," in out and "6 printed counters (6 different pieces)" in out


def test_invalid_yaml_syntax(capsys, tiny_game):
    replace(tiny_game / "game.yaml", "  - {id: red, name: Red}", "  - {id: red, name: Red")
    code, out, _ = run_validate(capsys, tiny_game / "game.yaml")
    assert code == 1
    line = line_of(tiny_game / "game.yaml", "{id: red, name: Red")
    (err,) = errors(out)
    assert err.startswith("game.yaml:") and "invalid YAML" in err
    assert int(err.split(":")[1]) >= line and f"starts at line {line}" in err


def test_file_that_is_not_a_mapping(capsys, tmp_path):
    f = tmp_path / "list.yaml"
    f.write_text("- a\n- b\n")
    code, out, _ = run_validate(capsys, f)
    assert code == 1
    assert "list.yaml:1:1: the file holds a list: expected a YAML mapping" in out


def test_duplicate_key_is_reported_with_both_lines(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "    last_turn: 3\n", "    last_turn: 3\n    last_turn: 2\n")
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    first = line_of(game, "last_turn: 3")
    assert f"game.yaml:{first + 1}:5: duplicate key 'last_turn' (first defined on line {first})" in out


def test_wrong_type(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "    steps: 2\n", "    steps: two\n")
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    line = line_of(game, "steps: two")
    assert f"game.yaml:{line}:12: units[2].steps: expected a whole number, got 'two'" in out


def test_face_value_of_wrong_kind(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "front: {attack: 6, defense: 4", "front: {attack: six, defense: 4")
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    line = line_of(game, "attack: six")
    assert f"game.yaml:{line}:" in out and "units[2].front.attack: attack must be a whole number, got 'six'" in out


def test_unknown_key_suggests_the_intended_one(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "    nationality: blue-army\n    type: armor", "    nationalty: blue-army\n    type: armor")
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    line = line_of(game, "nationalty:")
    assert f"game.yaml:{line}:5: units[2].nationalty: unknown key 'nationalty'; did you mean 'nationality'?" in out


def test_typo_in_face_value_name(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "front: {attack: 6, defense: 4", "front: {atack: 6, defense: 4")
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    assert "units[2].front.atack: unknown value 'atack'; did you mean 'attack'?" in out


def test_empty_file(capsys, tmp_path):
    f = tmp_path / "empty.yaml"
    f.write_text("# nothing here\n\n")
    code, out, _ = run_validate(capsys, f)
    assert code == 1
    assert "empty.yaml:1:1: the file is empty: expected a YAML mapping" in out


def test_bytes_that_are_not_utf8(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    data = game.read_bytes().replace(b"Tiny Battle\n", b"Tiny Battle \xe9\n", 1)
    game.write_bytes(data)
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    assert re.search(r"game\.yaml:5:\d+: the file is not UTF-8 text \(byte 0xe9", out)


def test_file_over_the_size_limit(capsys, tmp_path, monkeypatch):
    import builder.gamedata.yamlsource as ys
    monkeypatch.setattr(ys, "MAX_FILE_BYTES", 1000)
    f = tmp_path / "big.yaml"
    f.write_text("a: " + "x" * 2000 + "\n")
    code, out, _ = run_validate(capsys, f)
    assert code == 1
    assert "big.yaml: file is 2,004 bytes, over the 1,000-byte limit" in out


def test_alias_bomb_is_refused(capsys, tmp_path):
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    prev = "a"
    for name in "bcdefghij":
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 10) + "]")
        prev = name
    f = tmp_path / "bomb.yaml"
    f.write_text("\n".join(lines) + "\n")
    code, out, _ = run_validate(capsys, f)
    assert code == 1
    assert "bomb.yaml:1:1: YAML aliases expand to more than 2,000,000 nodes (an alias bomb?); refusing to load" in out


def test_missing_file_or_folder(capsys, tmp_path):
    code, _, err = run_validate(capsys, tmp_path / "nowhere" / "game.yaml")
    assert code == 2
    assert "no such file or folder" in err
    code, _, err = run_validate(capsys, "no-such-game")
    assert code == 2 and "not a shipped game" in err


def test_missing_map_file(capsys, tiny_game):
    (tiny_game / "map.yaml").unlink()
    code, out, _ = run_validate(capsys, tiny_game / "game.yaml")
    assert code == 1
    line = line_of(tiny_game / "game.yaml", "map: map.yaml")
    assert f"game.yaml:{line}:8: game.map: map file map.yaml: file not found" in out


def test_dangling_references(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "  - {id: blue-2, name: \"2\", template: blue-inf}", "  - {id: blue-2, name: \"2\", template: blue-inf, nationality: grey-army}")
    replace(game, "      - {unit: red-1, hex: H5}", "      - {unit: red-9, hex: H5}")
    replace(game, "      - {unit: blue-3, hex: B4}", "      - {unit: blue-3, hex: Z99}")
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    errs = errors(out)
    assert len(errs) == 3, out
    assert any("units[1].nationality: unknown nationality 'grey-army'" in e for e in errs)
    assert any(f"game.yaml:{line_of(game, 'red-9')}:" in e and "unknown unit 'red-9'; did you mean 'red-" in e for e in errs)
    assert any(f"game.yaml:{line_of(game, 'Z99')}:" in e and "'Z99' is not a hex of this map" in e for e in errs)


def test_unit_placed_twice_and_turn_outside_calendar(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "      - {unit: red-2, turn: 2, hex: J5}", "      - {unit: red-2, turn: 7, hex: J5}\n      - {unit: blue-1, turn: 2, hex: A1}")
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    assert "reinforcements[0].turn: turn 7 is outside the game's turns 1-3" in out
    assert f"game.yaml:{line_of(game, 'blue-1, turn: 2')}:" in out
    assert "unit 'blue-1' is placed twice in this scenario (first at game.yaml:" in out


def test_stacking_over_the_limit_is_a_warning(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "      - {unit: blue-3, hex: B4}", "      - {unit: blue-3, hex: B3}")
    code, out, _ = run_validate(capsys, game)
    assert code == 0
    assert f"game.yaml:{line_of(game, 'units: [blue-1, blue-2], hex: B3')}:9: warning: scenarios[0].setup[0]: blue stacks 3 in B3 at setup, over the limit of 2" in out


def test_unknown_glyph_is_an_error(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "symbol: [armor]", "symbol: [armour]")
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    assert "unit_types[1].symbol[0]: no NATO glyph 'armour' can be drawn; did you mean 'armor'?" in out


def test_authored_must_name_a_value(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "      back: the reduced side", "      bak: the reduced side")
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    assert f"game.yaml:{line_of(game, 'bak: the')}:7: units[2].authored.bak: authored 'bak' names no value of this unit" in out


def test_all_errors_are_reported_in_one_run(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "    steps: 2\n", "    steps: two\n")
    replace(game, "      - {unit: red-1, hex: H5}", "      - {unit: red-9, hex: H5}")
    replace(game, "symbol: [armor]", "symbol: [armour]")
    code, out, _ = run_validate(capsys, game)
    assert code == 1 and len(errors(out)) == 3


def test_json_output(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    code, out, _ = run_validate(capsys, game, "--json")
    data = json.loads(out)
    assert code == 0
    assert {k: data[k] for k in ("game", "units", "counters", "scenarios", "authored", "errors", "warnings")} == {
        "game": "tiny", "units": 5, "counters": 6, "scenarios": 1, "authored": 1, "errors": [], "warnings": []}
    replace(game, "symbol: [armor]", "symbol: [armour]")
    code, out, _ = run_validate(capsys, game, "--json")
    data = json.loads(out)
    assert code == 1
    (err,) = data["errors"]
    assert err["file"] == "game.yaml" and err["line"] == line_of(game, "armour") and err["path"] == "unit_types[1].symbol[0]"


def test_authored_listing(capsys, tiny_game):
    code, out, _ = run_validate(capsys, tiny_game / "game.yaml", "--authored")
    assert code == 0
    line = line_of(tiny_game / "game.yaml", "back: the reduced side")
    assert f"authored: game.yaml:{line}:13: units[2].back: the reduced side is not printed; halved from the front" in out


def test_folder_of_files_merges_lists(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    text = game.read_text()
    head, units = text.split("units:\n", 1)
    units, scen = units.split("scenarios:\n", 1)
    folder = tiny_game / "data"
    folder.mkdir()
    (folder / "a.yaml").write_text(head.replace("map: map.yaml", "map: ../map.yaml") + "scenarios:\n" + scen)
    (folder / "b.yaml").write_text("units:\n" + units.split("  - id: blue-3")[0])
    (folder / "c.yaml").write_text("units:\n  - id: blue-3" + units.split("  - id: blue-3")[1])
    game.unlink()
    code, out, _ = run_validate(capsys, folder)
    assert code == 0, out
    assert "6 units in all" in out
    (folder / "c.yaml").write_text((folder / "c.yaml").read_text().replace("steps: 2", "steps: x"))
    code, out, _ = run_validate(capsys, folder)
    assert code == 1 and re.search(r"data/c\.yaml:\d+:\d+: units\[2\]\.steps", out)


def test_oversized_grid_is_refused_quickly(capsys, tiny_game):
    replace(tiny_game / "map.yaml", "rows: {first: 1, last: 10}", "rows: {first: 1, last: 999999}")
    code, out, _ = run_validate(capsys, tiny_game / "game.yaml")
    assert code == 1
    assert "map.yaml:7:12: grid.columns: the grid has 9,999,990 hexes, over the limit of 250,000" in out


def test_scenario_side_override_and_entry_choices(capsys, tiny_game):
    game, map_ = tiny_game / "game.yaml", tiny_game / "map.yaml"
    map_.write_text(map_.read_text() + "entry_areas:\n  - {id: east, name: East edge, hexes: [J5, J6]}\n"
                    "  - {id: north, name: North edge}\n")
    replace(game, "      - {unit: red-2, turn: 2, hex: J5}", "      - {unit: red-2, turn: 2, entries: [east, nort]}")
    replace(game, "      - {unit: red-1, hex: H5}", "      - {unit: red-1, hex: H5, side: green}")
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    assert "reinforcements[0].entries[1]: unknown entry area 'nort'; did you mean 'north'?" in out
    assert "setup[2].side: unknown side 'green'" in out
    assert len(errors(out)) == 2


def test_status_exempt_from_stacking(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "  stacking: {limit: 2}", "  stacking: {limit: 2, exempt_status: [Support]}")
    replace(game, "      - {unit: blue-3, hex: B4}", "      - {unit: blue-3, hex: B3, status: [Support]}")
    code, out, _ = run_validate(capsys, game)
    assert code == 0 and "warning:" not in out and "0 warnings" in out


@pytest.mark.parametrize("loader", ["_PyLoader", "_CLoader"])
def test_both_yaml_parsers_locate_alike(loader, monkeypatch):
    import builder.gamedata.yamlsource as ys
    if not hasattr(ys, loader):
        pytest.skip("PyYAML without libyaml")
    monkeypatch.setattr(ys, "_Loader", getattr(ys, loader))
    data, dups = ys.load_text("a: 1\nb:\n  - x\n  - {c: 2}\na: 3\n", "t.yaml")
    assert ys.locate(data, ["b", 1, "c"]) == ("t.yaml", 4, 9)
    assert [(d.line, d.column) for d in dups] == [(5, 1)]
    with pytest.raises(ys.YamlError) as exc:
        ys.load_text("a: [1,\n", "c.yaml")
    assert exc.value.diagnostics[0].line == 2 and "invalid YAML" in exc.value.diagnostics[0].message


def test_layout_condition_names_an_unknown_value_or_flag(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "      - {at: center, show: symbol}\n",
            "      - {at: center, show: symbol, fill_when: {hardd: \"#FFD400\"}}\n"
            "      - {at: top-left, show: arrow, when: atack}\n"
            "      - {at: top-right, show: dot, unless: nope}\n")
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    fill, arrow, dot = (line_of(game, s) for s in ("fill_when", "show: arrow", "show: dot"))
    assert (f"game.yaml:{arrow}:43: layouts[0].slots[2].when: unknown value or flag 'atack'; "
            "did you mean 'attack'?") in out
    assert f"game.yaml:{dot}:44: layouts[0].slots[3].unless: unknown value or flag 'nope'" in out
    assert f"game.yaml:{fill}:48: layouts[0].slots[1].fill_when.hardd: unknown value or flag 'hardd'" in out
    assert len(errors(out)) == 3


def test_layout_condition_accepts_flags_and_values(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "layouts:\n", "flags:\n  - {id: elite, name: Elite}\n\nlayouts:\n")
    replace(game, "      - {at: center, show: symbol}\n",
            "      - {at: center, show: symbol, fill_when: {elite: \"#FFD400\"}}\n"
            "      - {at: top-left, show: arrow, when: attack}\n"
            "      - {at: top-right, show: label, text: Elite, when: elite, unless: movement}\n")
    code, out, _ = run_validate(capsys, game)
    assert code == 0, out


def test_label_without_text_and_fill_when_off_the_symbol(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "      - {at: top, show: size}\n",
            "      - {at: top, show: size, fill_when: {attack: \"#FFD400\"}}\n"
            "      - {at: top-left, show: label, when: attack}\n")
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    size, label = line_of(game, "show: size"), line_of(game, "show: label")
    assert (f"game.yaml:{size}:31: layouts[0].slots[0].fill_when: fill_when colours the symbol: "
            "give it on the slot with show: symbol") in out
    assert (f"game.yaml:{label}:30: layouts[0].slots[1].show: a label prints the slot's text: "
            "give text (e.g. text: Support)") in out
    assert len(errors(out)) == 2


def test_setup_area_by_symbol(capsys, tiny_game):
    map_ = tiny_game / "map.yaml"
    map_.write_text(map_.read_text().replace("  - {hex: E5, name: Crossroads, vp: 1}",
                    "  - {hex: E5, name: Crossroads, vp: 1, symbol: star}\n  - {hex: F6, symbol: star}")
                    + "setup_areas:\n  - {id: stars, name: Star hexes, symbol: star}\n"
                      "  - {id: moons, name: Moon hexes, symbol: moon}\n")
    code, out, _ = run_validate(capsys, tiny_game / "game.yaml")
    assert code == 1
    assert f"map.yaml:{line_of(map_, 'symbol: moon')}:" in out and "setup_areas[1].symbol: no location carries the symbol 'moon'" in out
    from builder.gamedata.validate import validate_game
    assert validate_game(str(tiny_game / "game.yaml")).model.area_hexes("stars") == ["E5", "F6"]


def test_misspelt_required_key_is_one_error_not_two(capsys, tiny_game):
    game = tiny_game / "game.yaml"
    replace(game, "    nationality: blue-army\n    type: armor", "    nationalty: blue-army\n    type: armor")
    code, out, _ = run_validate(capsys, game)
    assert code == 1
    (err,) = errors(out)
    assert "did you mean 'nationality'" in err
