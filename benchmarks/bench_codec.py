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
package runs.

How it is measured (the machine is shared, so single timings swing; the ratios must not):

* **CPU time** (``time.process_time``; user + system of a child process from ``getrusage``), not
  wall-clock: what the work itself costs, not how long a busy machine made it wait.
* **Rounds, alternated**: after one unmeasured warm-up of each side, every round times the floor
  and our decode one right after the other (the order reversed every other round: A B, B A, ...),
  and the figure is the **median of the per-round ratios** (the min beside it, as ``med/min``).
  A slow spell of the machine then slows both sides of a round instead of one side of the ratio.
* **No page-fault noise, on both sides alike**: before the in-process rounds the benchmark asks
  glibc's malloc (``mallopt``) to keep freed memory in the heap (no trimming, no ``mmap`` for
  buffers up to 32 MB). After the warm-up, neither side pays the kernel for zero-filled pages
  again: what a round measures is the work of the decode, not how many multi-MB buffers
  the allocator happened to return to the system since the last round (that swung the floor's
  time 15-36 ms on the Almoravid save). The ``faults`` columns show the minor page faults per run
  (0 when this worked). Without glibc the rounds run as they are, and the output says so.
* **Warm and cold**: the in-process rounds repeat the decode in one process, so the codec's
  memos (a piece type's layer plan, ...) are warm, as in a process that reads saves of the same
  module one after the other. ``cold`` repeats the rounds with a **fresh interpreter per run**
  (modules imported before the clock starts, first-touch page faults included, for the floor and
  for us alike): the first decode of a process, as ``dump`` does it.
* **Instructions** (``--callgrind``, needs valgrind): the floor and the full decode counted by
  ``valgrind --tool=callgrind`` in a child (PYTHONHASHSEED=0): instructions of a process doing
  k decodes minus those of one doing k-1 (k = 1: cold, 2: warm), so the interpreter's start-up
  cancels out. Deterministic: the figure to compare two versions of the code with; it leaves out
  the kernel's work (page faults) and memory stalls, which the CPU times include.

The goal (issue 11) is stated on a 2,208-piece real save: Scenario B of the Almoravid module
(github.com/Cattlesquat/Almoravid, ``Scenario_B_Quelling_of_the_Tajo.vsav``): ``full/base`` (in
process, warm) at most 5x, 10x faster than pywargame, ``dump/floor`` at most 8x. Pass it, or any
save, with ``--save`` (repeatable); without one the largest save in ../shared/real-vassal is used.

Usage: ``python benchmarks/bench_codec.py [--save FILE ...] [--shared DIR] [--commands N]
[--rounds R] [--cold-rounds C] [--callgrind] [--python312 PATH]``. Environment:
VASSAL_BUILDER_SHARED, BENCH_PYTHON312, BENCH_SAVES (paths separated by os.pathsep).
"""
from __future__ import annotations

import argparse
import os
import re
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


def rule(header: str) -> None:
    """A table's column heads and the line under them."""
    print(header)
    print("-" * len(header))


def keep_heap() -> bool:
    """Ask glibc's malloc to keep freed memory in the heap (never trim it, no ``mmap`` for buffers
    up to 32 MB), so a round reuses the pages the warm-up touched instead of faulting in fresh ones
    (see the module docstring). Applies to the floor and our decode alike. False without glibc."""
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6")
        m_trim_threshold, m_mmap_threshold = -1, -3
        return bool(libc.mallopt(m_mmap_threshold, 32 * 1024**2)) and bool(libc.mallopt(m_trim_threshold, 2**30))
    except (OSError, AttributeError):
        return False


def measure(fn) -> tuple[float, int]:
    """(CPU seconds, minor page faults) of one call."""
    r0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    t = time.process_time()
    fn()
    t = time.process_time() - t
    return t, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - r0


def rounds(fns: dict, n: int, measure_one=None) -> dict[str, list[tuple[float, int]]]:
    """Time each of *fns* once per round, n rounds, after one unmeasured warm-up of each; the order
    of the calls is reversed every other round (A B C, C B A, ...), so a slow spell of the machine
    falls on every side of a round's ratios. {name: [(CPU seconds, faults) per round]}."""
    one = measure_one or (lambda name, fn: measure(fn))
    names = list(fns)
    if measure_one is None:
        for name in names:
            fns[name]()
    out: dict[str, list[tuple[float, int]]] = {name: [] for name in names}
    for r in range(n):
        for name in (names if r % 2 == 0 else names[::-1]):
            out[name].append(one(name, fns[name]))
    return out


def med(samples: list[tuple[float, int]]) -> float:
    return statistics.median(t for t, _ in samples)


def faults(samples: list[tuple[float, int]]) -> int:
    return int(statistics.median(f for _, f in samples))


def ratio(num: list[tuple[float, int]], den: list[tuple[float, int]]) -> tuple[float, float]:
    """(median, min) of the per-round ratios num/den."""
    rs = [a / b for (a, _), (b, _) in zip(num, den) if b > 0]
    return statistics.median(rs), min(rs)


#: whole processes run as an installed package runs: from compiled bytecode (pip compiles it when it
#: installs; PYTHONDONTWRITEBYTECODE, set in some shells and CI, would recompile every module each run)
PROCESS_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_process(argv: list[str]) -> tuple[float, int]:
    """CPU time (user + system) and minor faults of a whole process, interpreter start-up included."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, env=PROCESS_ENV)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime,
            after.ru_minflt - before.ru_minflt)


def process_rounds(argvs: dict[str, list[str]], n: int) -> dict[str, list[tuple[float, int]]]:
    """:func:`rounds` of whole processes (after one unmeasured run of each, which writes the
    bytecode caches)."""
    for argv in argvs.values():
        run_process(argv)
    return rounds(dict(argvs), n, lambda name, argv: run_process(argv))


def child_run(kind: str, path: str, runs: int = 1) -> tuple[float, int]:
    """A fresh interpreter decoding *path* *runs* times (``--child``): the modules are imported
    before the clock starts; (CPU seconds, minor faults) of the last run, as it printed them."""
    r = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--child", kind, path, str(runs)],
                       capture_output=True, text=True, env=PROCESS_ENV, check=True)
    t, f = r.stdout.split()
    return float(t), int(f)


def callgrind_instructions(kind: str, path: str, runs: int) -> int | None:
    """Instructions valgrind's callgrind counts for a child process doing *runs* decodes."""
    env = dict(PROCESS_ENV, PYTHONHASHSEED="0")
    r = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                        sys.executable, str(Path(__file__).resolve()), "--child", kind, path, str(runs)],
                       capture_output=True, text=True, env=env)
    m = re.search(r"Collected\s*:\s*(\d+)", r.stderr)
    if r.returncode != 0 or m is None:
        print(f"  callgrind failed ({kind}, {runs} runs): {r.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
        return None
    return int(m.group(1))


def child_main(kind: str, path: str, runs: int) -> int:
    """``--child KIND PATH RUNS``: decode RUNS times, print the CPU time and faults of the last."""
    fn = CHILD_KINDS[kind]
    t, f = 0.0, 0
    for _ in range(runs):
        t, f = measure(lambda: fn(Path(path)))
    print(f"{t:.6f} {f}")
    return 0


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


#: what ``--child`` can run
CHILD_KINDS = {"floor": baseline, "read": ours_read, "full": ours_full}


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
    if sys.argv[1:2] == ["--child"]:
        return child_main(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--save", action="append", default=[], help="a save to measure (repeatable)")
    ap.add_argument("--shared", default=os.environ.get("VASSAL_BUILDER_SHARED") or str(REPO.parent / "shared"))
    ap.add_argument("--commands", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=15, help="alternated rounds in process and of whole processes")
    ap.add_argument("--cold-rounds", type=int, default=7, help="alternated rounds of fresh interpreters (cold)")
    ap.add_argument("--repeat", type=int, default=5, help="runs of pywargame (median)")
    ap.add_argument("--callgrind", action="store_true", help="also count instructions with valgrind (slow)")
    ap.add_argument("--python312", default=None)
    args = ap.parse_args()
    R, C = max(1, args.rounds), max(1, args.cold_rounds)

    files: list[tuple[str, Path, bool]] = []       # (label, path, generated)
    given = args.save + [p for p in os.environ.get("BENCH_SAVES", "").split(os.pathsep) if p]
    for p in given:
        files.append((Path(p).name[:32], Path(p), False))
    real = Path(args.shared) / "real-vassal"
    saves = sorted([p for p in real.glob("*.vsav")] + [p for p in real.glob("*.vlog")],
                   key=lambda p: zipfile.ZipFile(p).getinfo("savedGame").file_size) if real.is_dir() else []
    if saves and not given:
        files.append(("largest real save", saves[-1], False))
    elif not given:
        print(f"(no real saves under {real}: skipping the real-save row)")
    tmp = Path(tempfile.mkdtemp(prefix="bench-codec-"))
    gen = tmp / f"generated-{args.commands}.vlog"
    t = time.perf_counter()
    generate_log(gen, args.commands)
    print(f"generated {gen.name} ({gen.stat().st_size:,} bytes) in {time.perf_counter() - t:.1f} s")
    files.append((f"generated {args.commands:,}-command log", gen, True))

    py = find_python312(args.python312)
    if py is None:
        print("pywargame comparison skipped: no Python >= 3.12 with pywargame 0.8 found "
              "(set BENCH_PYTHON312 or --python312; e.g. python3.12 -m venv v && v/bin/pip install pywargame==0.8.0)")
    kept = keep_heap()

    header = (f"{'file':<32} {'commands':>9} {'pieces':>7} {'baseline':>9} {'read':>8} {'full':>8} "
              f"{'read/base':>9} {'full/base med/min':>17} {'faults b/f':>11} {'pywargame':>10} {'pyw/full':>8}")
    print()
    print(f"in-process decode, warm (CPU time, medians of {R} alternated rounds; ratios: median/min of the "
          f"per-round ratios; heap kept: {'yes' if kept else 'no (not glibc): page faults included'})")
    rule(header)
    for label, path, _ in files:
        n = ours_read(path)
        pieces = sum(1 for _, c in read_save(path).leaves()
                     if isinstance(c.inner if isinstance(c, Log) else c, AddPiece))
        res = rounds({"base": lambda: baseline(path), "read": lambda: ours_read(path),
                      "full": lambda: ours_full(path)}, R)
        base, rd, fl = med(res["base"]), med(res["read"]), med(res["full"])
        (rr, _), (fr, fmin) = ratio(res["read"], res["base"]), ratio(res["full"], res["base"])
        pw = pywargame_time(py, path, args.repeat) if py else None
        pws = f"{pw * 1000:8.1f}ms" if pw else f"{'n/a':>10}"
        r2 = f"{pw / fl:8.1f}" if pw else f"{'n/a':>8}"
        fa = f"{faults(res['base'])}/{faults(res['full'])}"
        print(f"{label:<32} {n:>9,} {pieces:>7,} {base * 1000:7.1f}ms {rd * 1000:6.1f}ms {fl * 1000:6.1f}ms "
              f"{rr:9.1f} {fr:9.2f} / {fmin:5.2f} {fa:>11} {pws} {r2}", flush=True)

    print()
    print(f"cold: a fresh interpreter per run (modules imported first; CPU time, medians of {C} alternated rounds)")
    header = f"{'file':<32} {'baseline':>9} {'full':>8} {'full/base med/min':>17} {'faults b/f':>13}"
    rule(header)
    for label, path, _ in files:
        res = rounds({"floor": str(path), "full": str(path)}, C, lambda kind, p: child_run(kind, p))
        fr, fmin = ratio(res["full"], res["floor"])
        fa = f"{faults(res['floor'])}/{faults(res['full'])}"
        print(f"{label:<32} {med(res['floor']) * 1000:7.1f}ms {med(res['full']) * 1000:6.1f}ms "
              f"{fr:9.2f} / {fmin:5.2f} {fa:>13}", flush=True)

    if args.callgrind:
        print()
        if shutil.which("valgrind") is None:
            print("instructions: skipped (valgrind not found; e.g. apt-get install valgrind)")
        else:
            print("instructions (valgrind callgrind, PYTHONHASHSEED=0; a decode = a process doing k decodes "
                  "minus one doing k-1; real saves only)")
            header = (f"{'file':<32} {'floor':>12} {'full warm':>13} {'full cold':>13} "
                      f"{'warm/floor':>10} {'cold/floor':>10}")
            rule(header)
            for label, path, generated in files:
                if generated:
                    continue
                counts = {(kind, k): callgrind_instructions(kind, str(path), k)
                          for kind in ("floor", "full") for k in (0, 1, 2)}
                if None in counts.values():
                    continue
                floor = counts["floor", 2] - counts["floor", 1]
                warm = counts["full", 2] - counts["full", 1]
                cold = counts["full", 1] - counts["full", 0]
                print(f"{label:<32} {floor:>12,} {warm:>13,} {cold:>13,} {warm / floor:10.2f} {cold / floor:10.2f}",
                      flush=True)

    print()
    print(f"streamed decode (SaveStream, every leaf visited; CPU time, medians of {R} alternated rounds)")
    header = f"{'file':<32} {'leaves':>9} {'baseline':>9} {'stream':>8} {'stream/base':>11} {'commands/s':>11}"
    rule(header)
    for label, path, _ in files:
        leaves = ours_stream(path)
        res = rounds({"base": lambda: baseline(path), "stream": lambda: ours_stream(path)}, R)
        st = med(res["stream"])
        print(f"{label:<32} {leaves:>9,} {med(res['base']) * 1000:7.1f}ms {st * 1000:6.1f}ms "
              f"{ratio(res['stream'], res['base'])[0]:11.1f} {leaves / st:11,.0f}", flush=True)

    header = (f"{'file':<32} {'floor script':>12} {'dump --json':>11} {'dump/floor med/min':>18} "
              f"{'pyw dump -d':>11} {'pyw/dump':>8}")
    print()
    print(f"whole process (CPU time, medians of {R} alternated rounds; pywargame: median of {args.repeat} runs)")
    rule(header)
    for label, path, _ in files:
        res = process_rounds({"floor": [sys.executable, "-c", FLOOR_SNIPPET, str(path)],
                              "dump": [sys.executable, "-m", "builder", "dump", "--json", str(path)]}, R)
        floor, dump = med(res["floor"]), med(res["dump"])
        dr, dmin = ratio(res["dump"], res["floor"])
        pwd = med(process_rounds({"pyw": [py, "-m", "pywargame.vassal.dumpvsav", "-d", str(path)]},
                                 args.repeat)["pyw"]) if py else None
        pws = f"{pwd * 1000:9.0f}ms" if pwd else f"{'n/a':>11}"
        r = f"{pwd / dump:8.1f}" if pwd else f"{'n/a':>8}"
        print(f"{label:<32} {floor * 1000:10.0f}ms {dump * 1000:9.0f}ms {dr:10.2f} / {dmin:5.2f} {pws} {r}",
              flush=True)
    print()
    print("ratios to pywargame are how many times faster we are (> 1: faster).")
    shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
