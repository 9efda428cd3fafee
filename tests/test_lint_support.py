"""Shared by tests/test_lint_*.py: the tiny example game's module, built once per session, and
helpers that write deliberately broken copies of it. No tests here."""

from __future__ import annotations

import atexit
import io
import shutil
import tempfile
import zipfile
from functools import lru_cache
from pathlib import Path

from builder.cli import main as cli_main
from builder.lint import lint
from builder.vassal.archive import SafeZip, zip_bytes
from builder.vassal.buildfile import BuildFile

REPO = Path(__file__).resolve().parents[1]


@lru_cache(maxsize=None)
def _root() -> Path:
    root = Path(tempfile.mkdtemp(prefix="vb-lint-tests-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return root


@lru_cache(maxsize=None)
def tiny_vmod() -> Path:
    """The tiny example game's module, built with the CLI (`build ... --only module`)."""
    out = _root() / "built"
    import contextlib
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        rc = cli_main(["build", str(REPO / "examples" / "tiny-game" / "game.yaml"), "--only", "module",
                       "--out", str(out)])
    assert rc == 0
    found = sorted(out.rglob("*.vmod"))
    assert len(found) == 1, found
    return found[0]


@lru_cache(maxsize=None)
def _entries() -> tuple[tuple[str, bytes], ...]:
    z = SafeZip(tiny_vmod())
    return tuple((n, z.read(n)) for n in z.names())


def entries() -> dict[str, bytes]:
    return dict(_entries())


def buildfile() -> BuildFile:
    return BuildFile.from_bytes(entries()["buildFile.xml"])


def write(name: str, ents: dict[str, bytes] | list[tuple[str, bytes]]) -> Path:
    """A module with exactly these entries (unsafe names allowed: written with zipfile)."""
    dest = _root() / "broken" / name
    dest.parent.mkdir(parents=True, exist_ok=True)
    items = list(ents.items()) if isinstance(ents, dict) else list(ents)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for n, data in items:
            zf.writestr(n, data)
    dest.write_bytes(buf.getvalue())
    return dest


def with_buildfile(name: str, edit) -> Path:
    """A copy of the tiny module whose buildFile was changed by ``edit(bf)`` (lxml tree)."""
    bf = buildfile()
    edit(bf)
    ents = entries()
    ents["buildFile.xml"] = bf.to_bytes()
    return write(name, ents)


def run(path: Path, **kw):
    return lint(path, **kw)


def ids(result) -> list[str]:
    return [f.check for f in result.findings]


__all__ = ["tiny_vmod", "entries", "buildfile", "write", "with_buildfile", "run", "ids", "zip_bytes"]
