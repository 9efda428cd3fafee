"""``vassal-builder dump SAVE [--json]``: print the decoded command stream of a save or log."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from builder.vassal.archive import SafeZip
from builder.vassal.errors import NotAVassalFile, VassalFormatError
from builder.vassal.files import InputFileError, regular_file_problem
from builder.vassal.gcpause import gc_paused
from builder.vassal.report import format_lines, module_lines, module_summary, save_report, save_report_json_chunks
from builder.vassal.savefile import SaveFile, read_save


def register(sub, name, summary):
    p = sub.add_parser(name, help=summary, description=(
        "Decode a VASSAL saved game (.vsav) or log (.vlog) - !VCSK-obfuscated, XZ, VOBS or plain - and "
        "print its commands, one line each, in file order (nested commands indented). With --json, "
        "print one object {\"encoding\", \"counts\", \"commands\"}: encoding is vcsk, xz, plain or vobs; "
        "counts are per command type (AddPiece, MovePiece, Chat, Log, ...; a stack is an AddPiece of a "
        "stack; the command a Log entry wraps is counted too). Player passwords stored in saves are "
        "always masked. Given a module (.vmod) or a buildFile instead, it prints a summary of the module "
        "and dumps the predefined-setup saves packed in it (JSON: the same object plus \"module\" and "
        "\"setups\"). A save or log cut short is decoded as far as it goes, then one line says where it "
        "breaks (JSON: \"truncated\"), exit 1. A save too damaged to decode exits 1; a file that is missing, "
        "not a regular file or not a save or module at all exits 2."))
    p.add_argument("save", metavar="SAVE", help="a .vsav or .vlog file (or a .vmod / buildFile.xml)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return p


def _is_xml(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            head = fh.read(64).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return head.startswith(b"<")


def _is_module(path: Path) -> bool:
    try:
        z = SafeZip(path, what="file")
    except VassalFormatError:
        return False
    return "savedGame" not in z and ("buildFile.xml" in z or "buildFile" in z)


def _module(path: Path, as_json: bool) -> str:
    from builder.vassal.buildfile import BuildFile, read_module   # lxml loads for modules only

    if _is_xml(path):
        bf, setups = BuildFile.read(path), []
    else:
        bf = read_module(path)
        z = SafeZip(path, what="module")
        setups = []
        for s in bf.predefined_setups():
            if s.use_file and s.file and s.file in z:
                try:
                    setups.append((s.file, SaveFile.from_bytes(z.read(s.file))))
                except VassalFormatError as exc:   # one bad setup file does not hide the others
                    setups.append((s.file, exc))
    summary = module_summary(bf)
    if as_json:
        counts: dict[str, int] = {}
        reports = []
        for name, save in setups:
            if isinstance(save, VassalFormatError):
                reports.append({"file": name, "error": str(save)})
                continue
            r = save_report(save)
            for k, v in r["counts"].items():
                counts[k] = counts.get(k, 0) + v
            reports.append({"file": name, **r})
        return json.dumps({"encoding": None, "counts": dict(sorted(counts.items())), "commands": [],
                           "module": summary, "setups": reports}, ensure_ascii=False)
    lines = [f"{path}: not a saved game: " + module_lines(summary)[0]] + module_lines(summary)[1:]
    for name, save in setups:
        if isinstance(save, VassalFormatError):
            lines.append(f"setup file {name}: unreadable: {save}")
            continue
        lines.append(f"setup file {name}: {save.encoding} encoding")
        lines += format_lines(save)
    return "\n".join(lines)


def run(args) -> int:
    path = Path(args.save)
    problem = regular_file_problem(path)
    if problem:
        print(f"vassal-builder: dump: {args.save}: {problem}", file=sys.stderr)
        return 2
    with gc_paused():   # a report of every command: thousands of objects, no cycles
        return _dump(args, path)


def _dump(args, path: Path) -> int:
    cut = None
    try:
        if _is_xml(path) or _is_module(path):
            try:
                parts = [_module(path, args.json)]
            except VassalFormatError as exc:  # neither a save nor a readable module: nothing to dump
                raise NotAVassalFile(str(exc)) from None
        else:
            save = read_save(path)
            cut = save.truncation()
            if args.json:
                parts = save_report_json_chunks(save)   # C encoder: no indent, which forces the pure-Python one
                if cut is not None:
                    cut_json = json.dumps({"message": str(cut), "command": cut.command, "offset": cut.offset})
                    parts[-1] = parts[-1][:-1] + ', "truncated": ' + cut_json + "}"
            else:
                parts = ["\n".join([f"{args.save}: {save.encoding} encoding"] + format_lines(save))]
    except VassalFormatError as exc:  # 2: not a save at all; 1: a save too damaged to decode
        print(f"vassal-builder: dump: {args.save}: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, (NotAVassalFile, InputFileError)) else 1
    except RecursionError:
        print(f"vassal-builder: dump: {args.save}: commands are nested too deeply", file=sys.stderr)
        return 1
    except MemoryError:
        print(f"vassal-builder: dump: {args.save}: file is too large to decode", file=sys.stderr)
        return 1
    write = sys.stdout.write
    for part in parts:   # the report in pieces, never copied into one string
        write(part)
    write("\n")
    if cut is not None:    # what could be decoded is shown; the cut is one line and an error
        print(f"vassal-builder: dump: {args.save}: {cut}", file=sys.stderr)
        return 1
    return 0
