"""Panzers Last Stand: every set-up and reinforcement line of the rulebook (section 5) against the YAML.

The rulebook is read from ../shared/seeds (or $VASSAL_BUILDER_SHARED/seeds); without it the test is skipped.
This module has its own parser of the printed lines: each printed line is split into its units (with
[n] steps, status notes, assignments) and compared with the YAML entries that carry the same `printed:`
text, so a transcription slip in a hex, a unit, a step count, a status (and the markers it implies), an
assignment or an entry area fails the test. Status, assignment and places are read from the YAML fields
(status, with, assigned_to, at_hq, entry, entries), never from notes.
"""
from __future__ import annotations

import os
import re
from collections import defaultdict
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
GAME_DIR = ROOT / "counters" / "panzers-last-stand"
MAP_FILE = ROOT / "maps" / "panzers-last-stand.yaml"
_shared = os.environ.get("VASSAL_BUILDER_SHARED")
SHARED = Path(_shared) if _shared else Path(__file__).resolve().parents[2] / "shared"
RULEBOOK = SHARED / "seeds" / "panzers-last-stand-bcs-rules.txt"

pytestmark = pytest.mark.shared

HEX = r"[A-D]\d{1,2}\.\d{2}"
STATUS = re.compile(r"^(Support|PD|Fresh|Fat-[0-4]|Coordinated|Ghost|all|\d+ Arty Points?)$")
UNITWORD = re.compile(r"\b(Bn|Rgt|Bde|Co|HQ|Trains|KG|Grp|Kos|Stj|Inf|Fus|Div)\b")
SCENARIOS = [f"5.{k}" for k in range(1, 11)]
MONTHS = {"Jan": 1, "Feb": 2, "Mar": 3}


# --------------------------------------------------------------------------- YAML side
def load_game() -> dict:
    data: dict = {}
    for path in sorted(GAME_DIR.rglob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for key, value in doc.items():
            if isinstance(value, list):
                data.setdefault(key, []).extend(value)
            else:
                data[key] = value
    return data


# --------------------------------------------------------------------------- rulebook side
def _split(text: str, sep: str = ", ") -> list[str]:
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i].strip())
            i += len(sep)
            start = i
            continue
        i += 1
    tail = text[start:].strip()
    return parts + ([tail] if tail else [])


def _peel(text: str) -> tuple[str, list[str]]:
    """'X (a) (b)' -> ('X', ['a', 'b']) for balanced trailing parentheses."""
    groups: list[str] = []
    text = text.strip()
    while text.endswith(")"):
        depth = 0
        for j in range(len(text) - 1, -1, -1):
            depth += text[j] == ")"
            depth -= text[j] == "("
            if depth == 0:
                break
        groups.insert(0, text[j + 1:-1])
        text = text[:j].rstrip()
    return text, groups


def _is_annotation(part: str) -> bool:
    part = re.sub(r"\s*[–-] [Ss]ee [Ss]pecial [Rr]ule.*$", "", part)
    return bool(STATUS.match(part) or part.startswith(("Assigned ", "from ", "see ", "See "))
                or not UNITWORD.search(part))


def _kind(token: str) -> str:
    return "roman" if re.match(r"[IVX]+\b", token) else ("arabic" if token[:1].isdigit() else "word")


def parse_units(text: str) -> list[dict]:
    """A printed unit list -> [{name, steps, status, assigned, own, note}] in printed order."""
    items: list[dict] = []
    for raw in _split(text):
        for piece in _split(raw, " and ") if "/" in raw and " and " in raw else [raw]:
            items.extend(_parse_one(piece))
    _fill_bare(items)
    return items


def _parse_one(piece: str) -> list[dict]:
    name, groups = _peel(piece)
    status, assigned, own, notes, inner = [], None, None, [], None
    for g in groups:
        if g in ("+", "-"):
            name += f" ({g})"
            continue
        parts = _split(g)
        if not all(_is_annotation(p) for p in parts):
            inner = g
            continue
        for p in parts:
            m = re.search(r"\s*[–-] [Ss]ee [Ss]pecial [Rr]ule.*$", p)
            if m:
                notes.append(p[m.start():].strip(" –-"))
                p = p[:m.start()]
            if STATUS.match(p):
                status.append(p)
            elif p.startswith("Assigned "):
                assigned = p[len("Assigned "):]
            elif p.startswith("from "):
                own = p[len("from "):]
            elif p.lower().startswith("see "):
                notes.append(p)
            else:
                own = p
    steps = None
    m = re.search(r"\s*\[(\d+)\]", name)
    if m:
        steps = int(m.group(1))
        name = re.sub(r"\s+", " ", name[:m.start()] + name[m.end():]).strip()
    if name.endswith("*Out of CR"):
        name = name[: -len("*Out of CR")].strip()
        status.append("Out of CR")
    if inner is not None:
        subs = parse_units(inner)
        for s in subs:
            s["group"] = name
        return subs
    return [dict(name=name, steps=steps, status=status, assigned=assigned, own=own, notes=notes, group=None)]


def _fill_bare(items: list[dict]) -> None:
    """'I/284, II/284 Inf Bn' -> 'I/284 Inf Bn', 'II/284 Inf Bn' (same designation style only)."""
    for i, it in enumerate(items):
        if " " in it["name"] or it["name"] == "HQ" or it["group"] is not None and False:
            continue
        for nxt in items[i + 1:]:
            if " " in nxt["name"]:
                first, rest = nxt["name"].split(" ", 1)
                if _kind(first) == _kind(it["name"]):
                    it["name"] = f"{it['name']} {rest}"
                break


def parse_rulebook(text: str) -> dict:
    """-> {scenario: {'title', 'first', 'last', 'setup': [...], 'reinf': [...], 'use': src}}"""
    lines = [l.strip() for l in text.splitlines()]
    starts = [i for i, l in enumerate(lines) if l == "5.0 Scenarios"]
    start = starts[-1]
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("Spring Awakening Scenario Historical"))
    out: dict = {}
    sc = side = mode = date = None
    for l in lines[start:end]:
        if not l:
            continue
        m = re.match(r"^(5\.(?:10|[1-9])) (.+)$", l)
        if m and len(l) < 90:
            sc = m.group(1)
            out[sc] = dict(title=m.group(2), setup=[], reinf=[], use=None)
            side = mode = date = None
            continue
        m = re.search(r"First Turn: (\d+ \w+ 45) Last Turn: (\d+ \w+ 45)", l)
        if m and sc:
            out[sc]["first"], out[sc]["last"] = m.groups()
        m = re.match(r"^(Axis|Soviet) (Set Up|Reinforcements)(.*)$", l)
        if m:
            side = m.group(1).lower()
            mode = "setup" if m.group(2) == "Set Up" else "reinf"
            date = None
            u = re.search(r"Use those in (5\.\d+)", l)
            if u:
                out[sc]["use"] = u.group(1)
                mode = None
            elif "None" in m.group(3):
                mode = None
            continue
        if l.startswith(("Victory Conditions", "Formation Activation Markers")):
            if l.startswith("Victory"):
                mode = None
            continue
        if mode == "setup":
            m = re.match(rf"^({HEX}|Dead Pile|See above): (.+)$", l)
            if m:
                out[sc]["setup"].append(dict(side=side, loc=m.group(1), text=m.group(2), printed=l))
        elif mode == "reinf":
            if re.fullmatch(r"\d{1,2} (Jan|Feb|Mar) 45", l):
                date = l
                continue
            if l.startswith("Do not use"):
                continue
            out[sc]["reinf"].append(dict(side=side, date=date, printed=l))
    return out


def date_key(s: str) -> tuple[int, int]:
    d, mo, _ = s.split()
    return MONTHS[mo], int(d)


# --------------------------------------------------------------------------- comparison
def tokens(s: str) -> set[str]:
    return set(re.sub(r"[(),]", " ", s).split())


@pytest.fixture(scope="module")
def rulebook() -> dict:
    if not RULEBOOK.exists():
        pytest.skip(f"rulebook not found: {RULEBOOK}")
    return parse_rulebook(RULEBOOK.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def game() -> dict:
    return load_game()


class Ctx:
    def __init__(self, game: dict):
        self.units = {u["id"]: u for u in game["units"]}
        self.templates = {t["id"]: t for t in game.get("templates", [])}
        self.forms = {f["id"]: f for f in game["formations"]}
        self.types = {t["id"]: t for t in game["unit_types"]}

    def steps(self, uid: str) -> int:
        u = self.units[uid]
        if "steps" in u:
            return u["steps"]
        return self.templates.get(u.get("template"), {}).get("steps", 0)

    def utype(self, uid: str) -> str:
        u = self.units[uid]
        return u.get("type") or self.templates.get(u.get("template"), {}).get("type")

    def expected_name(self, entry: dict, uid: str) -> str:
        m = re.search(r"as printed: ([^;]+)", entry.get("notes", ""))
        if m:
            return m.group(1).strip()
        u = self.units[uid]
        return u.get("long_name") or u["name"]

    def form_matches(self, label: str, fid: str | None) -> bool:
        if fid is None or fid not in self.forms:
            return False
        return tokens(label) <= tokens(self.forms[fid]["name"]) | {"Div", "Corps"}

    def hq_of(self, label: str) -> set[str]:
        label = label.replace(" HQ", "")
        return {u["id"] for u in self.units.values()
                if self.utype(u["id"]) == "hq" and self.form_matches(label, u.get("formation"))}


def entries_units(e: dict) -> list[str]:
    return list(e.get("units") or ([e["unit"]] if "unit" in e else []))


def compare_items(ctx: Ctx, where: str, items: list[dict], entries: list[dict], kind: str, errors: list[str]) -> None:
    yunits = [(e, uid) for e in entries for uid in entries_units(e)]
    if len(items) != len(yunits):
        errors.append(f"{where}: {len(items)} units printed, {len(yunits)} in YAML "
                      f"({[i['name'] for i in items]} vs {[u for _, u in yunits]})")
        return
    for it, (e, uid) in zip(items, yunits):
        if uid not in ctx.units:
            errors.append(f"{where}: unknown unit {uid}")
            continue
        exp = ctx.expected_name(e, uid)
        if exp != it["name"]:
            errors.append(f"{where}: printed {it['name']!r}, YAML {uid} is {exp!r}")
        u = ctx.units[uid]
        full = u.get("long_name") or u["name"]
        if it["name"] in ("HQ", "Combat Trains"):
            want = "hq" if it["name"] == "HQ" else "combat-trains"
            if ctx.utype(uid) != want:
                errors.append(f"{where}: {it['name']!r} mapped to {uid} of type {ctx.utype(uid)}")
        elif it["name"].split()[0] != full.split()[0]:
            errors.append(f"{where}: printed {it['name']!r} does not designate {uid} ({full!r})")
        # steps
        if it["steps"] is None:
            if e.get("step_losses"):
                errors.append(f"{where}: {uid} printed at full strength, YAML step_losses {e['step_losses']}")
        else:
            have = ctx.steps(uid) - e.get("step_losses", 0)
            if "step_losses" not in e or have != it["steps"]:
                errors.append(f"{where}: {uid} printed [{it['steps']}], YAML gives {have} "
                              f"(steps {ctx.steps(uid)}, losses {e.get('step_losses')})")
        # status, the markers it puts on the unit, and assignment (set-ups and reinforcements alike)
        ys = list(e.get("status", []))
        if ys != it["status"]:
            errors.append(f"{where}: {uid} status {it['status']} vs YAML {ys}")
        want_with = sorted({m for m in map(status_marker, it["status"]) if m})
        if sorted(set(e.get("with", []))) != want_with:
            errors.append(f"{where}: {uid} status {it['status']} wants markers {want_with}, YAML with {e.get('with')}")
        if ("Ghost" in it["status"]) != (e.get("face") == "back"):
            errors.append(f"{where}: {uid} Ghost/face mismatch")
        ya = e.get("assigned_to")
        if (it["assigned"] is None) != (ya is None) or (ya and not ctx.form_matches(it["assigned"], ya)):
            errors.append(f"{where}: {uid} assigned {it['assigned']!r} vs YAML {ya!r}")
        if it["own"] and not ctx.form_matches(it["own"], u.get("formation")):
            errors.append(f"{where}: {uid} printed as of {it['own']!r}, YAML formation {u.get('formation')!r}")


def status_marker(status: str) -> str | None:
    """The marker a printed status puts on the unit (BCS 1.7, 1.8a, 3.2d); None for statuses without one."""
    m = re.fullmatch(r"Fat-([0-4])", status)
    if m:
        return f"fatigue-{m.group(1)}"
    return {"Fresh": "fatigue-fresh", "PD": "prepared-defense", "Coordinated": "coordination"}.get(status)


def check_location(ctx: Ctx, where: str, loc: str, e: dict, errors: list[str]) -> None:
    keys = {k for k in ("hex", "hexes", "near", "at_unit", "at_hq", "entry", "entries", "event", "box", "boxes",
                        "area", "off_map") if k in e}
    low = loc.lower()
    if re.fullmatch(HEX, loc):
        ok = keys == {"hex"} and e["hex"] == loc
    elif loc == "Dead Pile":
        ok = keys == {"box"} and e["box"].startswith("dead-pile")
    elif low == "at hq assigned":
        ok = keys == {"at_hq"} and e["at_hq"] == "assigned"
    elif low == "at any hq":
        ok = keys == {"at_hq"} and e["at_hq"] == "any"
    elif low.startswith("at "):
        ok = keys == {"at_unit"} and e["at_unit"] in ctx.hq_of(loc[3:])
    elif loc.startswith("w/i"):
        _, n, hx = loc.split()
        ok = keys == {"near"} and e["near"] == {"hex": hx, "within": int(n)}
    elif re.search(HEX, loc):
        ok = keys == {"hexes"} and e["hexes"] == re.findall(HEX, loc)
    elif re.fullmatch(r"[A-H]", loc):
        ok = keys == {"entry"} and e["entry"] == f"entry-{loc.lower()}"
    elif re.fullmatch(r"[A-H]( or [A-H])+", loc):
        ok = keys == {"entries"} and e["entries"] == [f"entry-{a.lower()}" for a in loc.split(" or ")]
    elif loc.startswith("See Surge"):
        ok = keys == {"event", "box"}
    else:
        ok = False
    if not ok:
        errors.append(f"{where}: location {loc!r} vs YAML {({k: e[k] for k in keys})}")


def test_pls_rulebook_setups_and_reinforcements(rulebook, game):
    ctx = Ctx(game)
    scen = {s["source"].replace("PLS ", ""): s for s in game["scenarios"]}
    assert sorted(scen, key=lambda s: int(s.split(".")[1])) == SCENARIOS
    errors: list[str] = []
    n_setup = n_reinf = 0
    for sc in SCENARIOS:
        y = scen[sc]
        src = rulebook[sc]["use"] or sc
        book = rulebook[src]
        last = date_key(rulebook[sc]["last"])
        by_printed: dict[str, list[dict]] = defaultdict(list)
        for e in y.get("setup", []):
            by_printed[e.get("printed", "")].append(e)
        seen_units: set[str] = set()
        for e in y.get("setup", []):
            for uid in entries_units(e):
                if uid in seen_units:
                    errors.append(f"{sc}: {uid} placed twice in the set-up")
                seen_units.add(uid)
        used = set()
        for ln in book["setup"]:
            where = f"{sc} set-up {ln['printed'][:60]!r}"
            if ln["loc"] == "See above":
                name = re.sub(r"\s*\(.*\)$", "", ln["text"])
                placed = [e for es in by_printed.values() for e in es for uid in entries_units(e)
                          if ctx.expected_name(e, uid) == name or ctx.units.get(uid, {}).get("long_name") == name
                          or name in ctx.units.get(uid, {}).get("notes", "")]
                if not placed:
                    errors.append(f"{where}: referenced unit {name!r} is not placed")
                n_setup += 1
                continue
            es = by_printed.get(ln["printed"])
            if not es:
                errors.append(f"{where}: line missing from YAML")
                continue
            used.add(ln["printed"])
            for e in es:
                check_location(ctx, where, ln["loc"], e, errors)
            compare_items(ctx, where, parse_units(ln["text"]), es, "setup", errors)
            n_setup += 1
        for p in set(by_printed) - used:
            errors.append(f"{sc}: YAML set-up entries with printed {p!r} not in the rulebook")
        # reinforcements, removals, events
        rby: dict[tuple, list[dict]] = defaultdict(list)
        for e in y.get("reinforcements", []):
            rby[(e.get("date"), e.get("printed", ""))].append(e)
        rem = {(e.get("date"), e.get("printed", "")): e for e in y.get("removals", [])}
        rused = set()
        conditions = {e.get("condition") for e in y.get("reinforcements", [])} | {e.get("condition") for e in y.get("removals", [])}
        specials = " ".join(y.get("special_rules", []))
        for ln in book["reinf"]:
            if ln["date"] is None or date_key(ln["date"]) > last:
                continue
            p = ln["printed"]
            key = (ln["date"], p)
            where = f"{sc} {ln['date']} {p[:60]!r}"
            n_reinf += 1
            if p.startswith("Add: "):
                n = int(re.match(r"Add: (\d+) Arty", p).group(1))
                es = rby.get(key, [])
                if not (len(es) == 1 and es[0].get("marker") == "arty-points" and es[0].get("quantity") == n
                        and es[0].get("date") == ln["date"] and es[0].get("box", "").startswith("arty-pool")):
                    errors.append(f"{where}: arty points not matched")
                rused.add(key)
                continue
            if p.startswith("Remove: "):
                e = rem.get(key)
                if not e or not e.get("units"):
                    errors.append(f"{where}: removal not matched")
                continue
            m = re.match(rf"^(At [^:]+|w/i \d+ {HEX}|[^:]*{HEX}[^:]*|[A-H]( or [A-H])?|See Surge Offensive[^:]*): (.+)$", p)
            if not m:
                if p not in conditions and p not in specials:
                    errors.append(f"{where}: event/condition line not recorded")
                continue
            loc, body = m.group(1), m.group(3)
            body = re.sub(r" – .*$", "", body)
            es = rby.get(key)
            if not es:
                errors.append(f"{where}: line missing from YAML")
                continue
            rused.add(key)
            items = parse_units(body)
            arty = [i for i in items if re.fullmatch(r"\d+ Arty Points?", i["name"])]
            items = [i for i in items if i not in arty]
            ues = [e for e in es if "marker" not in e]
            mes = [e for e in es if "marker" in e]
            if [int(a["name"].split()[0]) for a in arty] != [e.get("quantity") for e in mes]:
                errors.append(f"{where}: arty points in the line not matched")
            for e in es:
                if e.get("date") != ln["date"]:
                    errors.append(f"{where}: date {e.get('date')!r} vs {ln['date']!r}")
                check_location(ctx, where, loc, e, errors)
            compare_items(ctx, where, items, ues, "reinf", errors)
        for p in set(rby) - rused:
            errors.append(f"{sc}: YAML reinforcements with printed {p!r} not matched")
    print(f"PLS rulebook check: {n_setup} set-up lines, {n_reinf} reinforcement lines compared")
    assert not errors, f"{len(errors)} mismatches:\n" + "\n".join(errors[:200])
    assert n_setup > 1000 and n_reinf > 100


def test_pls_setup_hexes_exist_on_the_grid(game):
    """Every hex named by a set-up or reinforcement is on one of the four sheets of the map grid."""
    grid = yaml.safe_load(MAP_FILE.read_text(encoding="utf-8"))["grid"]
    cols, rows = grid["columns"], grid["rows"]
    sheets = {s["id"] for s in grid["sheets"]}
    bad = []
    for s in game["scenarios"]:
        for e in s.get("setup", []) + s.get("reinforcements", []):
            hexes = ([e["hex"]] if "hex" in e else []) + e.get("hexes", []) + ([e["near"]["hex"]] if "near" in e else [])
            for h in hexes:
                m = re.fullmatch(r"([A-D])(\d+)\.(\d\d)", h)
                if not (m and m.group(1) in sheets and cols["first"] <= int(m.group(2)) <= cols["last"]
                        and rows["first"] <= int(m.group(3)) <= rows["last"]):
                    bad.append((s["id"], h))
    assert not bad, bad


def test_pls_counts(game):
    units = game["units"]
    assert len({u["id"] for u in units}) == len(units) >= 800
    assert len(game["scenarios"]) == 10
