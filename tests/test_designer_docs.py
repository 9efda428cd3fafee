"""Docs a designer can write from (issue 12, point 10): the generated key reference, the schemas' path,
`vassal-builder new`, the README's worked map and its hexside error, and the example log with its audit."""

from __future__ import annotations

import json
import re
import runpy
from pathlib import Path

from builder.cli import main
from builder.gamedata.newgame import files
from builder.gamedata.schemadoc import markdown
from builder.shipped import SCHEMA_DIR

REPO = Path(__file__).resolve().parents[1]
README = (REPO / "README.md").read_text()


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_committed_data_reference_is_current():
    assert (REPO / "docs" / "data-reference.md").read_text() == markdown(), \
        "regenerate: vassal-builder schema --markdown > docs/data-reference.md"


def test_data_reference_names_every_key_of_the_schemas():
    text = markdown()
    for name in ("game.counter.size_mm", "game.max_image_megapixels", "units[].front", "hexsides[].sides",
                 "hexside_types[].movement", "lines[].path", "setup_areas[].hexes", "boxes[].name", "grid.hex_size"):
        assert f"- `{name}`" in text, name


def test_schema_command(capsys):
    code, out, _ = run(capsys, "schema", "--path")
    assert code == 0 and Path(out.strip()) == SCHEMA_DIR and (Path(out.strip()) / "game.schema.json").is_file()
    code, out, _ = run(capsys, "schema", "map")
    assert code == 0 and json.loads(out)["$id"].endswith("map.schema.json")
    code, out, _ = run(capsys, "schema", "--markdown")
    assert code == 0 and out == markdown()
    code, _, err = run(capsys, "schema", "nope")
    assert code == 2 and "known: game, map, grid" in err


def test_new_game_validates_and_builds(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "new", "my-skirmish")
    assert code == 0 and "my-skirmish/game.yaml" in out
    first = (tmp_path / "my-skirmish" / "game.yaml").read_text().splitlines()[0]
    assert first == f"# yaml-language-server: $schema={SCHEMA_DIR.as_posix()}/game.schema.json"
    code, out, err = run(capsys, "validate", "my-skirmish")
    assert code == 0, out + err
    assert out.startswith("my-skirmish: valid: 4 combat units (blue 2, red 2; 4 units in all)") and "1 scenario," in out
    code, _, err = run(capsys, "build", "my-skirmish", "-q")
    assert code == 0, err
    built = tmp_path / "dist" / "my-skirmish"
    assert (built / "my-skirmish.vmod").is_file() and (built / "map.png").is_file()
    code, _, err = run(capsys, "new", "my-skirmish")
    assert code == 2 and "already exists" in err


def test_readme_worked_map_is_what_new_writes_and_its_error_is_real(capsys, tmp_path, monkeypatch):
    block = re.search(r"`skirmish/map.yaml`;.*?```yaml\n(.*?)```", README, re.S).group(1)
    assert block == files("skirmish", "X")["map.yaml"].split("\n", 1)[1]
    for words in ("`lines`", "`sides: [[E3, E4], ...]`", "`hexside_types`", "`setup_areas`", "`boxes`"):
        assert words in README
    monkeypatch.chdir(tmp_path)
    run(capsys, "new", "skirmish")
    m = tmp_path / "skirmish" / "map.yaml"
    m.write_text(m.read_text().replace("{type: river, sides", "{type: rivr, sides"))
    code, out, _ = run(capsys, "validate", "skirmish")
    assert code == 1 and out.splitlines()[0] in README


def test_example_log_regenerates_byte_for_byte_and_audits_to_one_finding(capsys, monkeypatch):
    script = runpy.run_path(str(REPO / "examples" / "make-tiny-log.py"))["script"]
    log = REPO / "examples" / "tiny-game" / "moves.vlog"
    assert script().log_bytes() == log.read_bytes(), "regenerate: python examples/make-tiny-log.py"
    monkeypatch.chdir(REPO)  # as the README runs it
    code, out, _ = run(capsys, "audit", "examples/tiny-game", "examples/tiny-game/moves.vlog")
    lines = out.splitlines()
    assert code == 1
    findings = [l for l in lines if l.startswith("entry ")]
    assert len(findings) == 1 and findings[0] in README
    assert lines[-1].endswith("1 finding, 0 warning(s)") and lines[-1] in README
