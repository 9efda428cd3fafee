"""A save cut short (issue 12, point 6, built in the codec by the audit work), seen from the command line:
dump shows what decodes, then one line saying it is truncated and where, exit 1; audit cannot judge it, exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from builder.cli import main
from builder.vassal.archive import zip_bytes
from builder.vassal.savefile import encode_payload, read_save

REPO = Path(__file__).resolve().parents[1]
LOG = REPO / "examples" / "tiny-game" / "moves.vlog"


@pytest.mark.parametrize("encoding", ["vcsk", "xz", "plain", "vobs"])
def test_dump_and_audit_of_a_log_cut_inside_its_commands(capsys, tmp_path, encoding):
    save = read_save(LOG)
    cut = save.text[: len(save.text) * 2 // 3]
    path = tmp_path / f"cut-{encoding}.vlog"
    path.write_bytes(zip_bytes({**save.entries, "savedGame": encode_payload(cut, encoding, 0x21)}))
    assert main(["dump", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out.startswith(f"{path}: {encoding} encoding")
    (line,) = err.strip().splitlines()
    assert "truncated at command" in line and "offset" in line
    assert main(["audit", str(REPO / "examples" / "tiny-game"), str(path)]) == 2
    assert "truncated" in capsys.readouterr().err


def test_dump_of_a_zip_cut_in_half(capsys, tmp_path):
    raw = LOG.read_bytes()
    path = tmp_path / "half.vlog"
    path.write_bytes(raw[: len(raw) // 2])
    assert main(["dump", str(path)]) == 1
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "truncated" in line and "byte" in line
