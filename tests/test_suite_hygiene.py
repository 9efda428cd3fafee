"""The test suite's own side effects (issue 12, point 9): no test runs the oracle's set-up (apt-get belongs
to .ci/run), no process a test starts outlives it, and .ci/run keeps its log inside the clone."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import oracle_support

REPO = Path(__file__).resolve().parents[1]


def test_an_oracle_not_set_up_is_skipped_without_running_its_set_up(tmp_path, monkeypatch):
    tool = tmp_path / "vassal-oracle"
    tool.mkdir()
    calls = tmp_path / "calls"
    (tool / "setup.sh").write_text(f'echo "$@" >> {calls}\n[ "$1" = --check ] && exit 1\nexit 0\n')
    (tool / "vassal-oracle").write_text("exit 0\n")
    monkeypatch.setattr(oracle_support, "ORACLE", tool / "vassal-oracle")
    monkeypatch.setattr(oracle_support.shutil, "which", lambda name: "/usr/bin/" + name)
    oracle_support.oracle_unavailable.cache_clear()
    try:
        reason = oracle_support.oracle_unavailable()
    finally:
        oracle_support.oracle_unavailable.cache_clear()
    assert reason and "not set up" in reason
    assert calls.read_text().split() == ["--check"]  # checked, never installed


def test_a_command_run_for_a_test_leaves_no_process_behind(tmp_path):
    pidfile = tmp_path / "pid"
    r = oracle_support.run_in_own_group(["bash", "-c", f"sleep 300 & echo $! > {pidfile}; echo started"], 30)
    assert r.stdout.strip() == "started"
    pid = int(pidfile.read_text())
    try:
        os.waitpid(pid, os.WNOHANG)  # not our child: raises, but a zombie would show in /proc
    except ChildProcessError:
        pass
    state = Path(f"/proc/{pid}/stat")
    assert not state.exists() or state.read_text().split()[2] == "Z", "the background sleep survived"


def test_ci_writes_its_log_inside_the_clone_and_git_ignores_it():
    ci = (REPO / ".ci" / "run").read_text()
    assert "/tmp" not in ci and ".ci/logs/vassal-oracle-setup.log" in ci
    r = subprocess.run(["git", "check-ignore", "-q", ".ci/logs/vassal-oracle-setup.log"], cwd=REPO)
    assert r.returncode == 0
