import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("VASSAL_BUILDER_SHARED", REPO.parent / "shared"))


@pytest.fixture
def tiny_game(tmp_path, monkeypatch) -> Path:
    """A writable copy of the README's tiny example game, made the working directory (so messages name
    files as a designer working there sees them)."""
    dest = tmp_path / "tiny-game"
    shutil.copytree(REPO / "examples" / "tiny-game", dest)
    monkeypatch.chdir(dest)
    return dest


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED
