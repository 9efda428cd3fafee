"""Reports a referee can use: --explain (the cheapest path hex by hex), --png and --html (the findings
drawn on the module's own map), the HTML page loaded in a real headless browser (Debian's Chromium)."""

from __future__ import annotations

import io
import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image

from test_audit_support import LogBuilder, run_audit, tiny_with_module

START = {"blue-1": "B3", "blue-2": "B3", "blue-3": "B4", "red-1": "H5"}
CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return tiny_with_module(tmp_path_factory.mktemp("audit-report"))


run = run_audit


def too_far(kit, path):
    """blue-2 B3 -> E3 costs 5 MP (tests/test_audit_cli.py); red-1 ends in the lake G5."""
    return LogBuilder(kit, START).move("blue-2", "E3").move("red-1", "G5").write(path)


def red_pixels(img: Image.Image, exact: bool = True) -> int:
    colours = img.convert("RGB").getcolors(1 << 24)
    if exact:
        return sum(n for n, c in colours if c == (200, 16, 16))
    return sum(n for n, (r, g, b) in colours if r > 170 and g < 70 and b < 70)


def test_explain_gives_the_path_hex_by_hex(tiny, tmp_path, capsys):
    arg, kit, _ = tiny
    log = too_far(kit, tmp_path / "far.vlog")
    code, out, _ = run(capsys, arg, log, "--explain")
    assert code == 1
    lines = out.splitlines()
    i = next(k for k, ln in enumerate(lines) if "movement-allowance" in ln)
    assert re.match(r"    cheapest path, \d+ step\(s\), allowance \d+ MP:$", lines[i + 1])
    steps = []
    for ln in lines[i + 2:]:
        if not ln.startswith("      "):
            break
        steps.append(ln.split())
    assert steps[0][:2] == ["B3", "start"] and steps[-1][0] == "E3"
    totals = [float(s[3]) for s in steps[1:]]
    assert totals == sorted(totals) and totals[-1] == 5
    assert steps[-1][-1] == "allowance" or any("over the allowance" in " ".join(s) for s in steps)
    code, out, _ = run(capsys, arg, log, "--json")
    f = next(f for f in json.loads(out)["findings"] if f["rule"] == "movement-allowance")
    ex = f["explain"]
    assert [s["hex"] for s in ex["path"]][0] == "B3" and ex["path"][-1]["hex"] == "E3"
    assert ex["cost"] == 5 and ex["cost"] > ex["allowance"]
    assert sum(s["cost"] for s in ex["path"][1:]) == 5
    assert sum(1 for s in ex["path"] if s.get("over")) == 1
    # other findings carry no path
    assert all("explain" not in g for g in json.loads(out)["findings"] if g["rule"] != "movement-allowance")


def test_png_draws_the_findings_deterministically(tiny, tmp_path, capsys):
    arg, kit, vmod = tiny
    log = too_far(kit, tmp_path / "far.vlog")
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    assert run(capsys, vmod, log, "--png", a, "-q")[0] == 1
    assert run(capsys, vmod, log, "--png", b, "-q")[0] == 1
    assert a.read_bytes() == b.read_bytes()
    img = Image.open(a)
    assert img.format == "PNG" and img.width > img.height > 300
    assert red_pixels(img) > 2000                      # arrows and outlines
    # from the data instead of the module: the same drawing on the same map
    c = tmp_path / "c.png"
    assert run(capsys, arg, log, "--png", c, "-q")[0] == 1
    assert Image.open(c).size == img.size and red_pixels(Image.open(c)) > 2000
    clean = LogBuilder(kit, START).move("blue-1", "C3").write(tmp_path / "ok.vlog")
    d = tmp_path / "d.png"
    assert run(capsys, vmod, clean, "--png", d, "-q")[0] == 0
    assert red_pixels(Image.open(d)) == 0


def test_png_for_several_files(tiny, tmp_path, capsys):
    _, kit, vmod = tiny
    f1 = too_far(kit, tmp_path / "one.vlog")
    f2 = LogBuilder(kit, START).write(tmp_path / "two.vlog")
    assert run(capsys, vmod, f1, f2, "--png", tmp_path / "out.png")[0] == 1
    assert (tmp_path / "out-one.png").is_file() and (tmp_path / "out-two.png").is_file()


def test_html_is_one_self_contained_file(tiny, tmp_path, capsys):
    _, kit, vmod = tiny
    log = too_far(kit, tmp_path / "far.vlog")
    page = tmp_path / "r.html"
    assert run(capsys, vmod, log, "--html", page, "-q")[0] == 1
    text = page.read_text("utf-8")
    assert text.startswith("<!DOCTYPE html>") and "<script" not in text
    assert not re.search(r"""(src|href)=["'](?!data:)""", text)      # nothing fetched from elsewhere
    uris = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', text)
    assert len(uris) == 1
    import base64
    assert red_pixels(Image.open(io.BytesIO(base64.b64decode(uris[0])))) > 2000
    assert text.count('<td class="n">') == 2 and "cheapest path, allowance" in text


def _chromium(page: Path, tmp: Path, *extra: str) -> subprocess.CompletedProcess:
    profile = tmp / f"profile-{len(list(tmp.glob('profile-*')))}"
    try:
        return subprocess.run([str(CHROMIUM), *FLAGS, f"--user-data-dir={profile}", "--enable-logging=stderr",
                               "--v=0", *extra, page.as_uri()], capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.mark.skipif(not CHROMIUM.is_file(), reason="/usr/bin/chromium is not installed")
def test_html_loads_in_chromium_without_console_errors_and_shows_the_findings(tiny, tmp_path, capsys):
    _, kit, vmod = tiny
    page = tmp_path / "r.html"
    assert run(capsys, vmod, too_far(kit, tmp_path / "far.vlog"), "--html", page, "-q")[0] == 1
    # the console check is real: a page with an error shows it
    bad = tmp_path / "bad.html"
    bad.write_text("<html><body><script>console.error('boom'); nope();</script></body></html>")
    r = _chromium(bad, tmp_path, "--dump-dom")
    if r.returncode != 0:
        pytest.skip(f"chromium cannot run here: {r.stderr.strip()[-200:]}")
    assert "INFO:CONSOLE" in r.stderr and "nope is not defined" in r.stderr
    shot = tmp_path / "shot.png"
    r = _chromium(page, tmp_path, "--window-size=1400,900", f"--screenshot={shot}")
    assert r.returncode == 0, r.stderr[-500:]
    assert "CONSOLE" not in r.stderr
    img = Image.open(shot)
    assert img.size == (1400, 900)
    assert red_pixels(img.crop((0, 0, 840, 900)), exact=False) > 300     # the map, left, with the findings
    r = _chromium(page, tmp_path, "--dump-dom")
    assert "CONSOLE" not in r.stderr and r.stdout.count('<td class="n">') == 2


def yellow_pixels(img: Image.Image) -> int:
    return sum(n for n, c in img.convert("RGB").getcolors(1 << 24) if c == (255, 214, 0))


def test_badges_of_findings_on_one_hex_sit_side_by_side():
    """Each number disc has its own place: findings on one hex (a move breaking two rules, or two moves
    ending there) fan out around it, none covering another (before, all sat on one spot)."""
    from builder.audit.mapview import badge_spots
    hex_px, rad = 50.0, 22.5
    a, b = (300.0, 300.0), (300.0 + 50 * math.sqrt(3), 300.0)          # neighbouring hexes
    centres = [a, a, None, b, a] + [a] * 15
    spots = badge_spots(centres, hex_px, rad)
    assert spots == badge_spots(centres, hex_px, rad) and spots[2] is None
    assert spots[0] == pytest.approx((a[0] + 0.95 * hex_px, a[1] - 0.95 * hex_px))    # the usual place
    assert spots[3] == pytest.approx((b[0] + 0.95 * hex_px, b[1] - 0.95 * hex_px))
    placed = [s for s in spots if s is not None]
    for i, p in enumerate(placed):
        for q in placed[i + 1:]:
            assert math.dist(p, q) >= 2 * rad                              # no disc covers another
    for s, c in zip(spots[:2] + spots[4:8], [a, a, a, a, a, a]):
        assert math.dist(s, c) < 2 * hex_px                                # and they stay by their hex


def test_png_shows_every_number_when_moves_end_in_one_hex(tiny, tmp_path, capsys):
    """blue-1 too goes B3 -> E3: the same view as too_far's (same points), one more disc, whole."""
    _, kit, vmod = tiny
    both = LogBuilder(kit, START).move("blue-2", "E3").move("blue-1", "E3").move("red-1", "G5") \
        .write(tmp_path / "both.vlog")
    a, b = tmp_path / "two.png", tmp_path / "three.png"
    assert run(capsys, vmod, too_far(kit, tmp_path / "far.vlog"), "--png", a, "-q")[0] == 1
    code, out, _ = run(capsys, vmod, both, "--png", b)
    assert code == 1 and sum("-> E3: movement-allowance" in ln for ln in out.splitlines()) == 2
    assert Image.open(a).size == Image.open(b).size
    # two discs in too_far's picture; three whole ones here (before, 1 and 2 on one spot: still two)
    assert yellow_pixels(Image.open(b)) > 1.4 * yellow_pixels(Image.open(a))
