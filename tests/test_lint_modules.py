"""`vassal-builder lint` on whole modules: our two shipped games (session-built, shared with the
module tests), the real files in ../shared/real-vassal (skipped when absent), and a cross-check
with the real engine (../shared/tools/vassal-oracle; skipped when it cannot run)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from builder.lint import lint
from oracle_support import run_oracle
from test_lint_support import entries, write

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("VASSAL_BUILDER_SHARED", REPO.parent / "shared"))
REAL = SHARED / "real-vassal"

@pytest.mark.parametrize("game", ["iron-dream", "panzers-last-stand"])
def test_shipped_modules_lint_clean(game):
    from test_module_support import vmod
    r = lint(vmod(game))
    assert r.findings == [], [f.format(game) for f in r.findings]


def _real(name: str) -> Path:
    p = REAL / name
    if not p.is_file():
        pytest.skip(f"{p} not present")
    return p


def test_engine_test_module_lints_without_errors():
    r = lint(_real("vassal-test-predefined-setups.vmod"))
    assert r.errors == 0, [f.format("m") for f in r.findings]
    # its 'pds1' setup is set to use a file but names none: VASSAL starts a new game
    assert [f.check for f in r.findings] == ["setups.missing-file"]
    assert r.findings[0].severity == "warning"


@pytest.mark.parametrize("name", ["almoravid-buildFile.xml", "jspy-buildFile-trc.xml"])
def test_real_buildfiles_decode_everywhere(name):
    r = lint(_real(name))
    checks = {f.check for f in r.findings}
    assert not any(c.endswith(".failed") or c.startswith(("archive.", "pieces.")) for c in checks), checks
    assert checks <= {"prototypes.missing", "prototypes.unused"}, checks


def test_almoravid_marker_uses_an_undefined_prototype():
    """A real finding: two Place Marker definitions name prototype 'Ravage on 3 Marker', which the
    buildFile does not define (the engine expands it to nothing)."""
    r = lint(_real("almoravid-buildFile.xml"))
    missing = [f for f in r.findings if f.check == "prototypes.missing"]
    assert len(missing) == 2 and all("'Ravage on 3 Marker'" in f.message for f in missing)


@pytest.mark.oracle
def test_oracle_and_lint_agree_on_a_missing_image(tmp_path):
    ents = entries()
    del ents["images/red-2-front.png"]
    p = write("oracle-missing.vmod", ents)
    report = run_oracle(p, timeout=300)
    assert report.get("loaded") is True, report.get("load_error")
    ours = sorted({f.message.split("'")[1] for f in lint(p).findings if f.check == "images.missing"})
    assert report["images"]["missing"] == ours == ["red-2-front.png"]
