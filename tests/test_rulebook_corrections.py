"""Data corrections measured against the rulebooks' own words (issue 14): the Bulgarian Danube border and the
Adriatic/Baltic blocked hexsides (EotID errata 2.12), the 11 Romanian hexes the Soviets hold at start
(19.1.1 B), and the PLS Tiger I company and red Move-side brigades (designer's notes). The data half of each
test always runs; the sentence it rests on is checked when ../shared/seeds holds the rulebook."""

from __future__ import annotations

import re
from functools import lru_cache

import pytest

from builder.gamedata.validate import validate_game
from builder.render.counter_pieces import unit_face_values
from conftest import SHARED

EOTID_RULES = SHARED / "seeds" / "end-of-the-iron-dream-rules.txt"
PLS_RULES = SHARED / "seeds" / "panzers-last-stand-bcs-rules.txt"


def rulebook(path):
    if not path.is_file():
        pytest.skip("rulebook not present in ../shared/seeds")
    return " ".join(path.read_text(encoding="utf-8").split())


@pytest.fixture(scope="module")
def eotid():
    r = validate_game("iron-dream")
    assert r.ok
    return r


def regions(report):
    return {x["id"]: set(x.get("hexes") or []) for x in report.model.map_doc["regions"]}


def hexsides(report, type_id=None, name=None):
    out = set()
    for run in report.model.map_doc["hexsides"]:
        if (type_id is None or run["type"] == type_id) and (name is None or run.get("name") == name):
            out |= {frozenset(p) for p in run["sides"]}
    return out


def test_bulgarian_northern_border_follows_the_danube_to_g31_g32_f31(eotid):
    text = rulebook(EOTID_RULES)
    assert "It runs along the Danube to the point where hexes G31, G32 and F31 all meet" in text
    g, reg = eotid.grid, regions(eotid)
    danube = hexsides(eotid, name="Danube")
    bulgaria, romania = reg["bulgaria"], reg["romania"]
    border = set()
    for h in bulgaria:
        for n in g.neighbours(g.parse(h)):
            if g.name(n) in romania:
                border.add(frozenset((h, g.name(n))))
    # west of the point: every hexside not touching a hex east of column 31 in rows F/G
    point = {"G31", "G32", "F31"}
    west = {s for s in border if all(int(h[1:]) <= 31 for h in s) and s != frozenset(("F31", "G32"))}
    assert len(west) >= 10
    assert west <= danube, sorted(tuple(sorted(s)) for s in west - danube)
    # the Danube border ends at the point: both hexsides reaching it from the west are border hexsides
    assert frozenset(("F31", "G31")) in west and point <= bulgaria | romania


def test_adriatic_and_baltic_blocked_hexsides_exist(eotid):
    text = rulebook(EOTID_RULES)
    assert "those in the Adriatic and Baltic areas" in text and "Those hexsides are all fully blocked" in text
    assert "Amphibious coastal assaults cannot be made into hexes H15 or G16" in text
    adriatic = hexsides(eotid, "blocked", "Adriatic blocked hexsides")
    baltic = hexsides(eotid, "blocked", "Baltic blocked hexsides")
    assert frozenset(("H15", "G16")) in adriatic and baltic
    seas = {x["id"]: set(x["hexes"]) for x in eotid.model.map_doc["regions"] if x.get("kind") == "sea"}
    g = eotid.grid
    for group, sea in ((adriatic, "adriatic"), (baltic, "baltic")):
        for side in group:
            a, b = (g.parse(h) for h in side)
            touching = {g.name(n) for n in set(g.neighbours(a)) | set(g.neighbours(b))}
            assert touching & seas[sea], (sorted(side), sea)       # on that sea's coast


def test_soviets_control_eleven_romanian_hexes_at_start(eotid):
    text = rulebook(EOTID_RULES)
    assert re.search(r"11 (?:Romanian )?hexes|eleven", text) and "19.1.1" in text
    reg = regions(eotid)
    start = reg["romania-soviet-start"]
    assert len(start) == 11 and start <= reg["romania"]
    # 4.1 E: the red-star hexes and everything east of them; the 11 are exactly those Romanian hexes
    stars = [loc["hex"] for loc in eotid.model.map_doc["locations"] if loc.get("symbol") == "red-star"]
    west_star = {}
    for h in stars:
        west_star[h[0]] = min(west_star.get(h[0], 99), int(h[1:]))
    east = {h for h in reg["romania"] if h[0] in west_star and int(h[1:]) >= west_star[h[0]]}
    assert east == start


@lru_cache(maxsize=1)
def pls():
    return validate_game("panzers-last-stand")


def _pls_unit(report, uid):
    return report.model.units[uid]


def test_3_ss_tiger_company_keeps_tiger_i_values():
    text = rulebook(PLS_RULES)
    assert "Panzer VIe Tiger I: 5 Breakthrough Hard Red AV, Range 3, 4/14 MA" in text
    assert "still retained the older Tiger I" in text
    r = pls()
    u = _pls_unit(r, "ger-9-3-ss-tgr-co")
    move, deployed = unit_face_values(u, 0, "front"), unit_face_values(u, 0, "back")
    assert (move["armor"], move["movement"], deployed["movement"], move["av_type"]) == (5, 14, 4, "red")
    tiger_ii = _pls_unit(r, "ger-509-tgr-bn")
    assert unit_face_values(tiger_ii, 0, "front")["armor"] == 7      # the Tiger II battalions keep 7


@pytest.mark.parametrize("uid", ["ger-239-stg-bde", "ger-303-stg-bde", "sov-207-su-bde", "sov-208-su-bde",
                                 "sov-209-su-bde"])
def test_brigades_with_a_red_non_support_move_side(uid):
    text = rulebook(PLS_RULES)
    assert "Why do StuG and SU Brigades have Red non-Support AV Move-sides?" in text
    assert "The independent 239th and 303rd StuG Bdes" in text and "(207th, 208th, and 209th)" in text
    r = pls()
    u = _pls_unit(r, uid)
    front, back = unit_face_values(u, 0, "front"), unit_face_values(u, 0, "back")
    assert front["movement"] > back["movement"]           # the front is the Move side (1.1c)
    assert front["av_type"] == "red" and not front.get("support")
