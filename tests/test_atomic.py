"""Atomic output: the target is replaced whole or not at all, with ordinary permissions."""

import os

import pytest

from builder.atomic import atomic_path, write_bytes


def test_failed_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "out.vmod"
    target.write_bytes(b"good")
    with pytest.raises(RuntimeError):
        with atomic_path(target) as tmp:
            tmp.write_bytes(b"half")
            raise RuntimeError("build failed")
    assert target.read_bytes() == b"good"
    assert [p.name for p in tmp_path.iterdir()] == ["out.vmod"]


def test_written_file_has_umask_permissions(tmp_path):
    old = os.umask(0o022)
    try:
        write_bytes(tmp_path / "sub" / "a.png", b"x")
    finally:
        os.umask(old)
    assert (tmp_path / "sub" / "a.png").read_bytes() == b"x"
    assert (tmp_path / "sub" / "a.png").stat().st_mode & 0o777 == 0o644
