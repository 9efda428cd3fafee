"""builder.audit.script: scripted games written as real logs and saves of our modules; the audit
replays them as written, and the real engine loads them (oracle)."""

from __future__ import annotations

import pytest

from builder.audit.replay import Replayer, Visitor, read_commands
from builder.audit.script import ScriptedGame, ScriptError
from builder.vassal.savefile import read_save
from test_audit_support import game


@pytest.fixture(scope="module")
def eotid():
    return game("iron-dream")


class Events(Visitor):
    def __init__(self):
        self.seen = []

    def move(self, ev, pos):
        self.seen.append(("move", ev.unit.unit_id, ev.frm.name, ev.to.name, ev.entry))

    def flip(self, ev, pos):
        self.seen.append(("flip", ev.unit.unit_id, ev.old_level, ev.new_level, ev.entry))

    def remove(self, ev, pos):
        self.seen.append(("remove", ev.unit.unit_id, ev.entry))

    def add(self, ev, pos):
        self.seen.append(("add", ev.unit.unit_id, ev.unit.location.name, ev.entry))

    def phase(self, ev, pos):
        self.seen.append(("phase", ev.new.turn, ev.new.phase_id, ev.entry))


def replay(kit, path):
    ev = Events()
    r = Replayer(kit.ctx, [ev])
    r.run(read_commands(path))
    return ev.seen, r


def test_scenario_start_is_the_modules_set_up(eotid, tmp_path):
    g = ScriptedGame(eotid, scenario="iron-dream")
    _, r = replay(eotid, g.write(tmp_path / "start.vsav"))
    placed = {u.unit_id: u.location.name for u in r.pos.units.values()}
    assert placed["bul-army"] == "C28" and placed["ger-su-8"] == "T21"
    assert placed["ger-inf-80"] in eotid.game.area_hexes("france-benelux")   # an area set-up: a suggested hex
    assert placed["ger-okh"] == "Reinforcements: Axis, Turn 4"
    assert r.pos.turn == 1 and r.pos.phase.phase_id == "axis-reinforcement"
    assert r.stats.warnings == []


def test_steps_become_log_entries_in_order(eotid, tmp_path):
    g = ScriptedGame(eotid, scenario="iron-dream", units={"ger-inf-80": "Z13", "ger-inf-74": "X12"})
    g.at(turn=3, phase="axis-operational-movement").start()
    g.move("ger-inf-80", "Y13", "X12").flip("ger-inf-80").next_phase()
    g.remove("ger-inf-74").place("ger-okh", "T21").chat("done")
    g.next_phase(3)                                      # past the Axis end phases to the WA first phase
    seen, r = replay(eotid, g.write(tmp_path / "game.vlog"))
    assert seen[:6] == [
        ("move", "ger-inf-80", "Z13", "Y13", 1), ("move", "ger-inf-80", "Y13", "X12", 2),
        ("flip", "ger-inf-80", 1, 2, 3), ("phase", 3, "axis-prepared-assault", 4),
        ("remove", "ger-inf-74", 5), ("move", "ger-okh", "Reinforcements: Axis, Turn 4", "T21", 6)]
    assert seen[-1] == ("phase", 3, "wa-replacement", 10)
    assert r.stats.entries == 10 and r.stats.is_log and r.stats.warnings == []
    assert g.current_phase() == (3, "wa-player-turn", "wa-replacement")
    # the save written now holds the position after the steps
    _, now = replay(eotid, g.write(tmp_path / "now.vsav"))
    u = next(u for u in now.pos.units.values() if u.unit_id == "ger-inf-80")
    assert (u.location.name, u.level) == ("X12", 2)
    assert "ger-inf-74" not in {u.unit_id for u in now.pos.units.values()}
    assert now.pos.phase.phase_id == "wa-replacement"


def test_files_carry_the_modules_metadata_and_are_deterministic(eotid, tmp_path):
    def make():
        g = ScriptedGame(eotid, units={"ger-inf-80": "N1"}).at(turn=2).start()
        return g.move("ger-inf-80", "N2").log_bytes()
    a, b = make(), make()
    assert a == b
    (tmp_path / "a.vlog").write_bytes(a)
    save = read_save(tmp_path / "a.vlog")
    assert b"End of the Iron Dream" in save.entries["moduledata"]


def test_turns_roll_over_and_bad_steps_are_one_line_errors(eotid):
    g = ScriptedGame(eotid).at(turn=1, phase="soviet-stavka").start()
    g.next_phase()
    assert g.current_phase() == (2, "axis-player-turn", "axis-reinforcement")
    for bad, text in [(lambda: g.move("no-such-unit", "C28"), "not in the position"),
                      (lambda: g.place("ger-inf-80", "ZZ99"), "neither a hex"),
                      (lambda: g.phase("no-phase"), "no phase"),
                      (lambda: g.at(turn=99), "turn 99"),
                      (lambda: g.place("not-a-unit", "C28"), "not a unit")]:
        with pytest.raises(ScriptError, match=text):
            bad()


def test_bcs_status_and_step_levels(tmp_path):
    pls = game("panzers-last-stand")
    uid = "ger-16-xvii-alarm-bn"
    g = ScriptedGame(pls, units={uid: "A10.09"}, status={uid: "Support"}).start()
    g.set_status(uid, "").move(uid, "A10.10")
    _, r = replay(pls, g.write(tmp_path / "s.vlog"))
    u = next(u for u in r.pos.units.values() if u.unit_id == uid)
    assert u.status == "" and u.location.name == "A10.10"


# ---------------------------------------------------------------------- the real engine
@pytest.mark.oracle
@pytest.mark.parametrize("name,scenario,unit,path", [
    ("iron-dream", "iron-dream", "ger-inf-80", ["Z13", "Y13", "X12"]),
    ("panzers-last-stand", None, "ger-153-fus", ["A10.10", "A10.11", "A11.11"]),
])
def test_the_engine_loads_scripted_logs(name, scenario, unit, path, tmp_path):
    from oracle_support import run_oracle
    from test_module_support import vmod
    kit = game(name)
    g = ScriptedGame(kit, scenario=scenario, units={unit: path[0]}).start()
    g.move(unit, *path[1:]).flip(unit).next_phase().chat("scripted")
    log = g.write(tmp_path / "game.vlog")
    save = g.write(tmp_path / "now.vsav")
    # the engine decodes every logged command, and executes the start position (it does not step
    # through a log's entries: 'where' is the start for the log, the end for the save of the end)
    for f, where in ((log, path[0]), (save, path[-1])):
        o = run_oracle(vmod(name), "--save", str(f), "--exec")
        s = o["save"]
        assert not s.get("load_error") and s["undecoded"] == [] and s["decode_errors"] == [], s
        assert o["errors"] == [], o["errors"]
        piece = next(p for p in s["pieces"] if p["id"] == unit)
        assert piece["location"] == where
        if f is save:
            assert (piece["map"], piece["x"], piece["y"]) == g.where(unit)
        else:
            logged = s["command_counts"].get("VASSAL.build.module.BasicLogger$LogCommand")
            assert logged == len(g.entries), s["command_counts"]
