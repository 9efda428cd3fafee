#!/usr/bin/env python3
"""Benchmark the VASSAL codec: decode the largest real save and a generated 100,000-command log.

Prints a table with, for each file, the time of

* ``baseline``  — reading the ``savedGame`` entry and undoing the obfuscation with plain
  ``bytes.fromhex`` + XOR (``bytes.translate``) of the same bytes: the floor any reader pays;
* ``read``      — :func:`builder.vassal.savefile.read_save` + parsing the command tree into
  typed commands (every leaf visited);
* ``full``      — ``read`` plus decoding every piece's trait chain into trait objects with
  typed states, and every command's fields;
* ``pywargame`` — pywargame 0.8 reading the same file and decoding every piece as its own
  functions do it (``SaveIO.readSave``, then ``WithTraits.decodeAdd2`` of every ``+/`` line),
  run under a Python >= 3.12 found on this machine (skipped with a message when there is none
  or pywargame is not installed there; it is never a dependency of this project),

and the ratios of ``read``/``full`` to the baseline and to pywargame (``pyw/full``: how many
times faster we are). Then ``stream``: :class:`builder.vassal.savefile.SaveStream` over the same
file, every leaf visited, as commands per second (what the audit's streaming read costs; the audit
wants 100,000 commands/s end to end, so the decode alone must do several times that; pass the log
``benchmarks/bench_audit.py`` writes with ``--save`` to see its figure). Then, whole processes:
``vassal-builder dump --json`` of each file against a floor *script* (a fresh interpreter doing
the baseline) and against pywargame's ``dumpvsav -d``, each from compiled bytecode as an installed
package runs. Times are medians of R runs, in CPU seconds (a machine shared with other work
makes wall-clock ratios swing; CPU time is what the work itself costs).

The goal (issue 11) is stated on a 2,208-piece real save: Scenario B of the Almoravid module
(github.com/Cattlesquat/Almoravid, ``Scenario_B_Quelling_of_the_Tajo.vsav``). Pass it, or any
save, with ``--save`` (repeatable); without one the largest save in ../shared/real-vassal is used.

Usage: ``python benchmarks/bench_codec.py [--save FILE ...] [--shared DIR] [--commands N]
[--repeat R] [--python312 PATH]``. Environment: VASSAL_BUILDER_SHARED, BENCH_PYTHON312,
BENCH_SAVES (paths separated by os.pathsep).
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from builder.vassal.commands import (  # noqa: E402
    AddPiece,
    BeginSave,
    ChangePiece,
    Chat,
    Compound,
    EndSave,
    Log,
    MovePiece,
    NullCommand,
    RemovePiece,
)
from builder.vassal.piece import Piece  # noqa: E402
from builder.vassal.savefile import SaveFile, SaveStream, make_metadata, read_save  # noqa: E402
from builder.vassal.traits import BasicPiece, Delete, Embellishment, Marker  # noqa: E402

PYWARGAME_SNIPPET = r"""
import contextlib, io, sys, time
from pywargame.vassal.save import SaveIO
from pywargame.vassal.withtraits import WithTraits
path, repeat = sys.argv[1], int(sys.argv[2])
times = []
for _ in range(repeat):
    with contextlib.redirect_stdout(io.StringIO()):   # it prints a warning per unknown trait
        t = time.process_time()
        key, lines = SaveIO.readSave(path)
        pieces = [WithTraits.decodeAdd2(line, False) for line in lines if line.startswith('+')]
        times.append(time.process_time() - t)
times.sort()
print(times[len(times) // 2], len(lines), len(pieces))
"""

FLOOR_SNIPPET = r"""
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    payload = z.read("savedGame")
if payload[:5] == b"!VCSK":
    key = int(payload[5:7], 16)
    sys.stdout.write(str(len(bytes.fromhex(payload[7:].decode("ascii")).translate(bytes(b ^ key for b in range(256))))))
"""


def median_of(fn, repeat: int) -> float:
    """Median CPU time of fn (process_time: what the work costs, not how long a busy machine
    made it wait; the baseline is measured the same way, so the ratios stay comparable)."""
    times = []
    for _ in range(repeat):
        t = time.process_time()
        fn()
        times.append(time.process_time() - t)
    return statistics.median(times)


#: whole processes run as an installed package runs: from compiled bytecode (pip compiles it when it
#: installs; PYTHONDONTWRITEBYTECODE, set in some shells and CI, would recompile every module each run)
PROCESS_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def process_time(argv: list[str], repeat: int) -> float:
    """Median CPU time (user + system) of a whole process, interpreter start-up included (after one
    unmeasured run, which writes the bytecode caches)."""
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=PROCESS_ENV)
    times = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=PROCESS_ENV)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


def baseline(path: Path) -> None:
    with zipfile.ZipFile(path) as z:
        payload = z.read("savedGame")
    if payload[:5] == b"!VCSK":
        key = int(payload[5:7], 16)
        table = bytes(b ^ key for b in range(256))
        bytes.fromhex(payload[7:].decode("ascii")).translate(table)


def ours_read(path: Path) -> int:
    save = read_save(path)
    return sum(1 for _ in save.leaves())


def ours_full(path: Path) -> int:
    save = read_save(path)
    n = 0
    for _, c in save.leaves():
        inner = c.inner if isinstance(c, Log) else c
        if isinstance(inner, AddPiece):
            for t in inner.piece.layers:   # every trait object, with its typed state
                t.state_dict()
        inner.fields()
        n += 1
    return n


def _leaves(node) -> int:
    """Leaf commands of a node, a Log counted as the command it wraps (bench_audit.py's count)."""
    while isinstance(node, Log):
        node = node.inner
    return sum(map(_leaves, node.items)) if isinstance(node, Compound) else 1


def ours_stream(path: Path) -> int:
    """Stream the file (SaveStream) and visit every leaf, as benchmarks/bench_audit.py's decode does."""
    return sum(_leaves(node) for _, _, node in SaveStream(path))


def generate_log(path: Path, n: int) -> None:
    """A log with n logged commands after a small save: moves, chats, state changes, adds, removes."""
    def counter(name, x, y, uid):
        layer = Embellishment(images=["a.png", "b.png"], level_names=["", ""], name="Step",
                              increase_keystroke="70,130", up_command="Flip")
        layer.state = "1"
        mark = Marker(keys=["Side"])
        mark.set_values(["Blue"])
        basic = BasicPiece(image="a.png", name=name)
        basic.set_state("Main Map", x, y, "1", {"UniqueID": uid})
        return Piece([Delete(command_name="Delete"), layer, mark, basic])

    pieces = [AddPiece(str(1700000000000 + i), counter(f"Unit {i}", 100 + i, 69, str(1700000000000 + i)))
              for i in range(200)]
    items = [BeginSave(), NullCommand(), Compound([NullCommand(), *pieces]), EndSave()]
    for i in range(n):
        pid = str(1700000000000 + i % 200)
        k = i % 5
        if k == 0:
            items.append(Log(MovePiece(pid, "Main Map", 160 + i % 50, 104, None, "Main Map", 100, 69, None, "pw")))
        elif k == 1:
            items.append(Log(Chat(f"* Unit {i % 200} moves 0201 &rarr; 0302 *")))
        elif k == 2:
            p = counter(f"Unit {i % 200}", 100, 69, pid)
            old = p.state_string()
            p.find(Embellishment).value = 2
            items.append(Log(ChangePiece(pid, p.state_string(), old)))
        elif k == 3:
            items.append(Log(AddPiece(str(1800000000000 + i), counter("New", 10, 10, str(1800000000000 + i)))))
        else:
            items.append(Log(RemovePiece(str(1800000000000 + i - 1))))
    text = Compound(items).encode()
    SaveFile.new(text, encoding="vcsk", key=0x37,
                 savedata=make_metadata(version="1", vassal_version="3.6.0", date_saved=0),
                 moduledata=make_metadata(name="Bench", version="1", vassal_version="3.6.0", date_saved=0)
                 ).write(path)


def find_python312(explicit: str | None) -> str | None:
    cands = [explicit, os.environ.get("BENCH_PYTHON312"), "/tmp/venv312/bin/python",
             shutil.which("python3.12"), shutil.which("python3.13")]
    pyenv = Path.home() / ".pyenv" / "versions"
    if pyenv.is_dir():
        cands += [str(p / "bin" / "python3") for p in sorted(pyenv.iterdir()) if p.name.startswith(("3.12", "3.13"))]
    for c in cands:
        if not c or not Path(c).exists():
            continue
        r = subprocess.run([c, "-c", "import sys, pywargame.vassal.save; print(sys.version_info >= (3, 12))"],
                           capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.strip() == "True":
            return c
    return None


def pywargame_time(py: str, path: Path, repeat: int) -> float | None:
    r = subprocess.run([py, "-c", PYWARGAME_SNIPPET, str(path), str(repeat)], capture_output=True, text=True,
                       timeout=3600)
    if r.returncode != 0:
        print(f"  pywargame failed on {path.name}: {r.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return float(r.stdout.split()[0])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", action="append", default=[], help="a save to measure (repeatable)")
    ap.add_argument("--shared", default=os.environ.get("VASSAL_BUILDER_SHARED") or str(REPO.parent / "shared"))
    ap.add_argument("--commands", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--python312", default=None)
    args = ap.parse_args()

    files: list[tuple[str, Path]] = []
    given = args.save + [p for p in os.environ.get("BENCH_SAVES", "").split(os.pathsep) if p]
    for p in given:
        files.append((Path(p).name[:32], Path(p)))
    real = Path(args.shared) / "real-vassal"
    saves = sorted([p for p in real.glob("*.vsav")] + [p for p in real.glob("*.vlog")],
                   key=lambda p: zipfile.ZipFile(p).getinfo("savedGame").file_size) if real.is_dir() else []
    if saves and not given:
        files.append(("largest real save", saves[-1]))
    elif not given:
        print(f"(no real saves under {real}: skipping the real-save row)")
    tmp = Path(tempfile.mkdtemp(prefix="bench-codec-"))
    gen = tmp / f"generated-{args.commands}.vlog"
    t = time.perf_counter()
    generate_log(gen, args.commands)
    print(f"generated {gen.name} ({gen.stat().st_size:,} bytes) in {time.perf_counter() - t:.1f} s")
    files.append((f"generated {args.commands:,}-command log", gen))

    py = find_python312(args.python312)
    if py is None:
        print("pywargame comparison skipped: no Python >= 3.12 with pywargame 0.8 found "
              "(set BENCH_PYTHON312 or --python312; e.g. python3.12 -m venv v && v/bin/pip install pywargame==0.8.0)")

    header = (f"{'file':<32} {'commands':>9} {'pieces':>7} {'baseline':>9} {'read':>8} {'full':>8} "
              f"{'read/base':>9} {'full/base':>9} {'pywargame':>10} {'pyw/full':>8}")
    print()
    print("in-process decode (CPU time, median of", args.repeat, "runs)")
    print(header)
    print("-" * len(header))
    for label, path in files:
        base = median_of(lambda: baseline(path), args.repeat)
        n = ours_read(path)
        pieces = sum(1 for _, c in read_save(path).leaves()
                     if isinstance(c.inner if isinstance(c, Log) else c, AddPiece))
        rd = median_of(lambda: ours_read(path), args.repeat)
        fl = median_of(lambda: ours_full(path), args.repeat)
        pw = pywargame_time(py, path, args.repeat) if py else None
        pws = f"{pw * 1000:8.1f}ms" if pw else f"{'n/a':>10}"
        r2 = f"{pw / fl:8.1f}" if pw else f"{'n/a':>8}"
        print(f"{label:<32} {n:>9,} {pieces:>7,} {base * 1000:7.1f}ms {rd * 1000:6.1f}ms {fl * 1000:6.1f}ms "
              f"{rd / base:9.1f} {fl / base:9.1f} {pws} {r2}", flush=True)

    print()
    print("streamed decode (SaveStream, every leaf visited; CPU time, median of", args.repeat, "runs)")
    header = f"{'file':<32} {'leaves':>9} {'baseline':>9} {'stream':>8} {'stream/base':>11} {'commands/s':>11}"
    print(header)
    print("-" * len(header))
    for label, path in files:
        base = median_of(lambda: baseline(path), args.repeat)
        leaves = ours_stream(path)
        st = median_of(lambda: ours_stream(path), args.repeat)
        print(f"{label:<32} {leaves:>9,} {base * 1000:7.1f}ms {st * 1000:6.1f}ms {st / base:11.1f} "
              f"{leaves / st:11,.0f}", flush=True)

    header = (f"{'file':<32} {'floor script':>12} {'dump --json':>11} {'dump/floor':>10} "
              f"{'pyw dump -d':>11} {'pyw/dump':>8}")
    print()
    print("whole process (CPU time, median of", args.repeat, "runs)")
    print(header)
    print("-" * len(header))
    for label, path in files:
        floor = process_time([sys.executable, "-c", FLOOR_SNIPPET, str(path)], args.repeat)
        dump = process_time([sys.executable, "-m", "builder", "dump", "--json", str(path)], args.repeat)
        pwd = process_time([py, "-m", "pywargame.vassal.dumpvsav", "-d", str(path)], args.repeat) if py else None
        pws = f"{pwd * 1000:9.0f}ms" if pwd else f"{'n/a':>11}"
        r = f"{pwd / dump:8.1f}" if pwd else f"{'n/a':>8}"
        print(f"{label:<32} {floor * 1000:10.0f}ms {dump * 1000:9.0f}ms {dump / floor:10.1f} {pws} {r}", flush=True)
    print()
    print("ratios to pywargame are how many times faster we are (> 1: faster).")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
