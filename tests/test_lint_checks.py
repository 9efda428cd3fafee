"""`vassal-builder lint`: each check against a deliberately broken copy of the tiny example game's
module (built once per session), asserting the exact check id and archive entry."""

from __future__ import annotations

import json

import pytest

from builder.cli import main as cli_main
from builder.lint import CHECKS, Finding
from builder.vassal.archive import Limits
from builder.vassal.savefile import read_save
from test_lint_support import buildfile, entries, ids, run, tiny_vmod, with_buildfile, write

P = "VASSAL.build.module."


def one(result, check: str) -> Finding:
    found = [f for f in result.findings if f.check == check]
    assert len(found) == 1, [f.format("M") for f in result.findings]
    return found[0]


# ------------------------------------------------------------------------------ clean

def test_checks_are_registered_in_order():
    assert [c.name for c in CHECKS] == ["archive", "images", "prototypes", "pieces", "maps", "setups", "turns"]


def test_our_tiny_module_lints_clean(capsys):
    r = run(tiny_vmod())
    assert r.findings == []
    assert cli_main(["lint", str(tiny_vmod()), "--strict"]) == 0
    out = capsys.readouterr()
    assert out.out == ""
    assert "0 error(s), 0 warning(s)" in out.err


# ------------------------------------------------------------------------------ archive

def test_not_a_zip(tmp_path, capsys):
    p = tmp_path / "x.vmod"
    p.write_bytes(b"hello, not a zip at all")
    f = one(run(p), "archive.not-zip")
    assert f.entry is None and f.severity == "error"
    assert cli_main(["lint", str(p)]) == 2  # not a module at all: nothing to lint
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith(f"{p}: error: archive.not-zip: ")


def test_truncated_zip(tmp_path):
    data = tiny_vmod().read_bytes()
    p = tmp_path / "cut.vmod"
    p.write_bytes(data[: len(data) // 2])
    r = run(p)
    assert ids(r) == ["archive.unreadable"]
    assert "truncated" in r.findings[0].message


def test_zip_slip_entry_is_named():
    ents = list(entries().items()) + [("../../evil.png", b"x")]
    r = run(write("slip.vmod", ents))
    f = one(r, "archive.unsafe-name")
    assert f.entry == "../../evil.png" and f.severity == "error"
    assert r.errors == 1


def test_oversized_entry_against_limits():
    r = run(tiny_vmod(), limits=Limits(max_entry_size=30_000))
    found = [f for f in r.findings if f.check == "archive.oversized"]
    assert [f.entry for f in found] == ["images/map.png"]


def test_no_buildfile():
    ents = entries()
    del ents["buildFile.xml"]
    assert ids(run(write("nobf.vmod", ents))) == ["archive.no-buildfile"]


def test_xml_entity_bomb_is_refused():
    bomb = (b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
            b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n'
            b'<VASSAL.build.GameModule name="&lol2;"/>')
    ents = entries()
    ents["buildFile.xml"] = bomb
    f = one(run(write("bomb.vmod", ents)), "archive.xml-unsafe")
    assert f.entry == "buildFile.xml"


def test_invalid_xml_has_a_line():
    ents = entries()
    ents["buildFile.xml"] = b'<?xml version="1.0"?>\n<VASSAL.build.GameModule name="x">\n<a>\n</VASSAL.build.GameModule>\n'
    f = one(run(write("badxml.vmod", ents)), "archive.xml-invalid")
    assert f.entry == "buildFile.xml" and f.line is not None


def test_missing_and_unparseable_moduledata_warn():
    ents = entries()
    del ents["moduledata"]
    r = run(write("nomd.vmod", ents))
    assert ids(r) == ["archive.moduledata"] and r.errors == 0
    ents["moduledata"] = b"<data><oops"
    f = one(run(write("badmd.vmod", ents)), "archive.moduledata")
    assert f.entry == "moduledata" and f.severity == "warning"


# ------------------------------------------------------------------------------ images

def test_missing_image():
    ents = entries()
    del ents["images/blue-1-front.png"]
    f = one(run(write("noimg.vmod", ents)), "images.missing")
    assert f.entry == "buildFile.xml" and f.line and "'blue-1-front.png'" in f.message


def test_image_names_are_case_sensitive():
    ents = entries()
    ents["images/Map.png"] = ents.pop("images/map.png")
    r = run(write("case.vmod", ents))
    f = one(r, "images.missing")
    assert "'map.png'" in f.message and "case-sensitive" in f.message
    assert one(r, "images.unused").entry == "images/Map.png"


def test_unused_image_is_a_warning(capsys):
    ents = entries()
    ents["images/spare.png"] = ents["images/red-1-front.png"]
    p = write("spare.vmod", ents)
    f = one(run(p), "images.unused")
    assert (f.entry, f.severity) == ("images/spare.png", "warning")
    assert cli_main(["lint", str(p)]) == 0
    assert cli_main(["lint", str(p), "--strict"]) == 1
    out = capsys.readouterr().out
    assert f"{p}:images/spare.png: warning: images.unused: " in out


# ------------------------------------------------------------------------------ prototypes

def test_missing_prototype():
    def edit(bf):
        bf.prototypes()[0].set("name", "Renamed")
    r = run(with_buildfile("noproto.vmod", edit))
    missing = [f for f in r.findings if f.check == "prototypes.missing"]
    assert missing and all(f.entry == "buildFile.xml" and f.line for f in missing)
    assert one(r, "prototypes.unused").message.startswith("prototype 'Renamed'")


# ------------------------------------------------------------------------------ pieces

def test_undecodable_piece_slot():
    def edit(bf):
        bf.piece_slots()[0].text = "not a piece definition"
    r = run(with_buildfile("badslot.vmod", edit))
    f = one(r, "pieces.undecodable")
    assert f.line == buildfile().piece_slots()[0].el.sourceline


def test_unknown_trait_is_a_warning_but_core_traits_are_not():
    def edit(bf):
        s = bf.piece_slots()
        s[0].text = s[0].text.replace("+/null/", "+/null/myCustomTrait;x;y\t", 1)
        s[1].text = s[1].text.replace("+/null/", "+/null/submenu;Menu;\t", 1)
    r = run(with_buildfile("custom.vmod", edit))
    f = one(r, "pieces.unknown-trait")
    assert "'myCustomTrait;'" in f.message and f.severity == "warning"
    assert "submenu" not in " ".join(x.message for x in r.findings)


# ------------------------------------------------------------------------------ maps

def test_hex_grid_spacing_numbering_zone_and_duplicate_maps():
    def edit(bf):
        grid = next(bf.root.iter("HexGrid"))
        grid.set("dx", "0")
        grid.numbering.set("hLeading", "-1")
        next(bf.root.iter("Zone")).set("path", "")
        maps = bf.maps()
        maps[1].set("mapName", maps[0].map_name)
    r = run(with_buildfile("maps.vmod", edit))
    for check in ("maps.grid-spacing", "maps.numbering", "maps.zone-path", "maps.duplicate-name"):
        f = one(r, check)
        assert f.severity == "error" and f.entry == "buildFile.xml" and f.line


def test_board_without_image_or_size():
    def edit(bf):
        b = bf.boards()[0]
        b.el.attrib.pop("image")
        for k in ("width", "height"):
            b.el.attrib.pop(k, None)
    r = run(with_buildfile("board.vmod", edit))
    one(r, "maps.board-size")


# ------------------------------------------------------------------------------ setups

def _replace_setup(name: str, data: bytes | None):
    ents = entries()
    if data is None:
        del ents["meeting.vsav"]
    else:
        ents["meeting.vsav"] = data
    return run(write(name, ents))


def test_setup_places_pieces_on_an_unknown_map():
    save = read_save(entries()["meeting.vsav"])
    save.text = save.text.replace("Main Map", "Nowhere Map")
    r = _replace_setup("nomap.vmod", save.to_bytes())
    f = one(r, "setups.unknown-map")
    assert f.entry == "meeting.vsav" and "'Nowhere Map'" in f.message and f.severity == "error"


def test_setup_file_missing_or_unreadable():
    f = one(_replace_setup("nosetup.vmod", None), "setups.missing-file")
    assert f.entry == "buildFile.xml" and "'meeting.vsav'" in f.message
    f = one(_replace_setup("badsetup.vmod", b"garbage"), "setups.unreadable")
    assert f.entry == "meeting.vsav"


def test_setup_cut_short_is_an_error():
    save = read_save(entries()["meeting.vsav"])
    save.text = save.text[:save.text.rindex("end_save")]          # the position loses its end_save
    f = one(_replace_setup("cutsetup.vmod", save.to_bytes()), "setups.truncated")
    assert f.entry == "meeting.vsav" and f.severity == "error"
    assert "savedGame is truncated at command" in f.message and "ends with a command separator" in f.message


def test_setup_piece_without_a_piece_slot_warns():
    def edit(bf):
        for s in bf.piece_slots():
            s.set("gpid", "9" + s.gpid)
    f = one(run(with_buildfile("gpid.vmod", edit)), "setups.unknown-gpid")
    assert f.entry == "meeting.vsav" and f.severity == "warning"


# ------------------------------------------------------------------------------ turns

def test_turn_levels():
    def empty(bf):
        next(bf.root.iter("ListTurnLevel")).set("list", "")
    one(run(with_buildfile("emptylevel.vmod", empty)), "turns.empty-level")

    def none(bf):
        t = bf.turn_trackers()[0]
        for lv in t.levels():
            lv.remove()
    one(run(with_buildfile("nolevels.vmod", none)), "turns.no-levels")


# ------------------------------------------------------------------------------ CLI

def test_json_output(capsys):
    ents = entries()
    del ents["images/blue-1-front.png"]
    p = write("json.vmod", ents)
    assert cli_main(["lint", str(p), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["errors"] == 1 and doc["module"] == str(p)
    assert [f["check"] for f in doc["findings"]] == ["images.missing"]
    assert doc["findings"][0]["entry"] == "buildFile.xml"


def test_usage_and_unreadable_file(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        cli_main(["lint"])
    assert exc.value.code == 2
    capsys.readouterr()
    assert cli_main(["lint", str(tmp_path / "absent.vmod")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("vassal-builder: lint: ")


def test_old_moduledata_version_without_legacy_buildfile_is_an_error():
    ents = entries()
    ents["moduledata"] = ents["moduledata"].replace(b"<VassalVersion>3.6.0</VassalVersion>",
                                                    b"<VassalVersion>3.2.17</VassalVersion>")
    assert b"3.2.17" in ents["moduledata"]
    f = one(run(write("oldmd.vmod", ents)), "archive.moduledata")
    assert (f.entry, f.severity) == ("moduledata", "error")


def test_a_saved_game_is_not_a_module(tmp_path):
    p = tmp_path / "s.vmod"
    p.write_bytes(entries()["meeting.vsav"])
    assert ids(run(p)) == ["archive.not-module"]


def test_bare_buildfile_is_linted_without_archive_checks(tmp_path):
    p = tmp_path / "buildFile.xml"
    p.write_bytes(entries()["buildFile.xml"])
    assert run(p).findings == []
