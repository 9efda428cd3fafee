"""A seeded, time-bounded fuzz of the command line over saves, modules and YAML (run by tests/test_fuzz_cli.py
in a process of its own, so its peak memory is its own). Each mutated input goes through ``main()`` as a user
would run it; the contract: exit 0, 1 or 2, no exception, no traceback. Prints one JSON line: the inputs
tried, the exit codes seen, the failures (at most 10) and the peak memory in MB.

    python tests/fuzz_cli.py WORKDIR SECONDS SEED
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import shutil
import sys
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

YAML_BITS = ["&a [*a]", "*nope", "!!timestamp x", "!!binary zz", "9" * 4400, "[", "{", "- -", ": :", "\t",
             "\x00", "~", "null", "[[], {}]", "!!python/object:os.system x", "'", '"\\x', "<<: *a", "? [a]"]
CMD_BITS = ["\x1b", "\\", "\t", ";", "/", "null", "LOG\t", "+/", "M/", "D/", "CHAT", "begin_save", "end_save",
            "'", "@@", "\x1b" * 5, "99999999999999999999", "-1"]


def mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.random()
        if op < 0.3 and b:
            b[rng.randrange(len(b))] = rng.randrange(256)
        elif op < 0.5 and b:
            del b[rng.randrange(len(b)):][: rng.randint(1, 64)]
        elif op < 0.7:
            i = rng.randrange(len(b) + 1)
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        elif op < 0.85 and len(b) > 2:
            b = b[: rng.randrange(1, len(b))]  # truncation
        elif b:
            i, j = sorted(rng.randrange(len(b)) for _ in range(2))
            b[i:i] = b[i:j][:4096]  # duplicate a slice
    return bytes(b)


def mutate_text(rng: random.Random, text: str, bits: list[str]) -> str:
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(text) + 1)
        op = rng.random()
        if op < 0.5:
            text = text[:i] + rng.choice(bits) + text[i:]
        elif op < 0.75:
            text = text[:i] + text[i + rng.randint(1, 40):]
        else:
            j = rng.randrange(len(text) + 1)
            text = text[:i] + text[min(i, j):max(i, j)][:2000] + text[i:]
    return text


def mutate_zip_entry(rng: random.Random, data: bytes, entry: str, bits: list[str]) -> bytes:
    from builder.vassal.archive import zip_bytes
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        entries = {n: z.read(n) for n in z.namelist()}
    raw = entries.get(entry, b"")
    if entry == "savedGame":
        from builder.vassal.savefile import decode_payload, encode_payload
        text, enc, key = decode_payload(raw)
        entries[entry] = encode_payload(mutate_text(rng, text, bits), rng.choice(["plain", "vcsk", "xz", "vobs"]))
    else:
        entries[entry] = mutate_text(rng, raw.decode("utf-8", "replace"), bits).encode("utf-8")
    return zip_bytes(entries)


def seeds(work: Path) -> dict:
    """Valid inputs to start from: the tiny game, a log of its module, the module itself."""
    from builder.cli import main
    from test_audit_support import LogBuilder, game, tiny_copy
    arg = tiny_copy(work / "seed")
    log = LogBuilder(game(str(arg)), {"blue-1": "B3", "blue-2": "B3", "red-1": "H5"}).move("blue-1", "C3") \
        .move("red-1", "G5").write(work / "seed.vlog")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["build", str(arg), "--only", "module", "--out", str(work / "dist"), "-q"]) == 0
    vmod = next((work / "dist").rglob("*.vmod"))
    return {"game": arg, "log": log.read_bytes(), "vmod": vmod.read_bytes()}


def cases(rng: random.Random, s: dict, work: Path):
    game_dir = s["game"].parent
    n = 0
    while True:
        n += 1
        kind = rng.choice(["yaml", "yaml", "save", "save", "save-text", "module", "module-xml"])
        if kind == "yaml":
            d = work / f"g{n}"
            shutil.copytree(game_dir, d)
            name = rng.choice(["game.yaml", "map.yaml"])
            (d / name).write_text(mutate_text(rng, (d / name).read_text(), YAML_BITS), encoding="utf-8",
                                  errors="surrogateescape")
            yield kind, ["validate", str(d / "game.yaml")], d
        elif kind in ("save", "save-text"):
            p = work / f"s{n}.vlog"
            try:
                data = (mutate_zip_entry(rng, s["log"], "savedGame", CMD_BITS) if kind == "save-text"
                        else mutate_bytes(rng, s["log"]))
            except Exception:  # noqa: BLE001 - the seed's own mutation failed; use raw bytes
                data = mutate_bytes(rng, s["log"])
            p.write_bytes(data)
            cmd = rng.choice([["dump", str(p)], ["dump", "--json", str(p)], ["audit", str(s["game"]), str(p)],
                              ["lint", str(p)]])
            yield kind, cmd, p
        else:
            p = work / f"m{n}.vmod"
            try:
                data = (mutate_zip_entry(rng, s["vmod"], "buildFile.xml", ["<", ">", "&", "\x00", "]]>",
                                                                                 "<!DOCTYPE x>", "\t", ";"])
                        if kind == "module-xml" else mutate_bytes(rng, s["vmod"]))
            except Exception:  # noqa: BLE001
                data = mutate_bytes(rng, s["vmod"])
            p.write_bytes(data)
            yield kind, rng.choice([["lint", str(p)], ["dump", str(p)], ["lint", "--json", str(p)]]), p


def main_(work: Path, seconds: float, seed: int) -> dict:
    from builder.cli import main
    rng = random.Random(seed)
    s = seeds(work)
    tried, codes, failures = 0, {}, []
    deadline = time.monotonic() + seconds
    for kind, argv, path in cases(rng, s, work):
        if time.monotonic() > deadline:
            break
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(argv)
        except SystemExit as exc:
            code = exc.code
        except BaseException as exc:  # noqa: BLE001 - the finding itself
            code = f"{type(exc).__name__}: {exc}"[:200]
        tried += 1
        codes[str(code)] = codes.get(str(code), 0) + 1
        if code not in (0, 1, 2) or "Traceback" in err.getvalue():
            keep = work / "failures" / f"{tried}-{path.name}"
            keep.parent.mkdir(exist_ok=True)
            (shutil.copytree if path.is_dir() else shutil.copy)(path, keep)
            failures.append({"kind": kind, "argv": argv, "code": code, "kept": str(keep),
                             "stderr": err.getvalue()[-300:]})
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    # VmHWM: this process's own peak (ru_maxrss carries the parent's size over fork and exec)
    peak_mb = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:")) / 1024
    return {"tried": tried, "codes": codes, "failures": failures[:10], "peak_mb": round(peak_mb)}


if __name__ == "__main__":
    work, seconds, seed = Path(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
    print(json.dumps(main_(work, seconds, seed)))
