"""What the lint checks share: findings, and the module under inspection (loaded once, safely).

:func:`load` never raises for a bad module: archive and XML problems become findings (check
``archive``) and the checks that need a buildFile are then skipped. Everything is read with the
codec (:mod:`builder.vassal`): :class:`~builder.vassal.archive.SafeZip` for the archive,
:class:`~builder.vassal.buildfile.BuildFile` for the hardened XML, :func:`read_save` for setups.
"""

from __future__ import annotations

import io
import re
import zipfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from lxml import etree

from builder.vassal.archive import DEFAULT_LIMITS, Limits, SafeZip, check_entry_name
from builder.vassal.buildfile import (
    MAX_BUILDFILE_SIZE,
    BuildFile,
    Component,
    PredefinedSetupView,
    _minor_lt,
    piece_from_definition,
)
from builder.vassal.errors import ArchiveError, VassalFormatError
from builder.vassal.files import regular_file_problem
from builder.vassal.piece import Piece
from builder.vassal.savefile import SaveFile, read_save

__all__ = ["Finding", "Module", "Definition", "load", "ERROR", "WARNING"]

ERROR, WARNING = "error", "warning"
_LINE = re.compile(r"line (\d+)")


@dataclass(frozen=True)
class Finding:
    """One problem: ``MODULE:entry[:line]: severity: check: message``."""

    check: str                 # e.g. "images.missing"
    severity: str              # "error" | "warning"
    message: str
    entry: str | None = None   # archive entry (buildFile.xml, images/x.png, setup.vsav); None: the file
    line: int | None = None

    def format(self, module: str) -> str:
        where = module
        if self.entry is not None:
            where += f":{self.entry}"
            if self.line is not None:
                where += f":{self.line}"
        return f"{where}: {self.severity}: {self.check}: {' '.join(self.message.split())}"

    def to_dict(self) -> dict[str, Any]:
        return {"entry": self.entry, "line": self.line, "severity": self.severity,
                "check": self.check, "message": " ".join(self.message.split())}


@dataclass
class Definition:
    """A piece definition found in the buildFile: a PieceSlot/CardSlot, a PrototypeDefinition, or
    a marker definition embedded in a Place Marker / Replace trait of one of those."""

    kind: str                  # "PieceSlot" | "CardSlot" | "Prototype" | "marker"
    name: str
    line: int | None
    piece: Piece | None
    error: str | None = None
    gpid: str = ""

    @property
    def label(self) -> str:
        return f"{self.kind} {self.name!r}"


@dataclass
class Setup:
    view: PredefinedSetupView
    file: str
    save: SaveFile | None = None
    error: str | None = None


@dataclass
class Module:
    path: str
    zip: SafeZip | None = None
    buildfile: BuildFile | None = None
    buildfile_entry: str = "buildFile.xml"
    load_findings: list[Finding] = field(default_factory=list)
    moduledata: bytes | None = None
    moduledata_error: str | None = None

    # ---------------------------------------------------------------- archive views
    @cached_property
    def entries(self) -> set[str]:
        return set(self.zip.names()) if self.zip is not None else set()

    @cached_property
    def image_entries(self) -> dict[str, str]:
        """name relative to images/ -> full entry name (files only)."""
        return {n[len("images/"):]: n for n in self.entries
                if n.startswith("images/") and not n.endswith("/") and len(n) > len("images/")}

    @cached_property
    def has_classes(self) -> bool:
        return any(n.endswith(".class") for n in self.entries)

    def line(self, c: Component) -> int | None:
        return getattr(c.el, "sourceline", None)

    # ---------------------------------------------------------------- piece definitions
    @cached_property
    def definitions(self) -> list[Definition]:
        out: list[Definition] = []
        if self.buildfile is None:
            return out
        for s in self.buildfile.piece_slots():
            d = _define(s.short, s.entry_name or s.gpid, self.line(s), s.text, s.gpid)
            out.append(d)
        for p in self.buildfile.prototypes():
            out.append(_define("Prototype", p.get("name", "") or "", self.line(p), p.text))
        # marker definitions embedded in Place Marker / Replace traits (full AddPiece strings)
        todo = list(out)
        depth = 0
        while todo and depth < 5:
            nxt = []
            for d in todo:
                if d.piece is None:
                    continue
                for t in d.piece.layers:
                    if t.id in ("placemark;", "replace;"):
                        spec = t.get("marker_spec") or ""
                        if spec.startswith("+/"):
                            label = t.get('command_name') or t.get('description') or t.NAME
                            m = _define("marker", f"{d.name} > {label}",
                                        d.line, spec, t.get("gpid") or "")
                            nxt.append(m)
            out.extend(nxt)
            todo, depth = nxt, depth + 1
        return out

    # ---------------------------------------------------------------- setups
    @cached_property
    def setups(self) -> list[Setup]:
        out: list[Setup] = []
        if self.buildfile is None or self.zip is None:
            return out
        for v in self.buildfile.predefined_setups():
            if v.is_menu or not v.use_file:
                continue
            f = v.file or ""
            s = Setup(v, f)
            if f and f in self.zip:
                try:
                    s.save = read_save(self.zip.read(f))
                    list(s.save.leaves())          # parse the command tree now
                except (VassalFormatError, RecursionError) as exc:
                    s.save, s.error = None, str(exc) or type(exc).__name__
            out.append(s)
        return out

    @cached_property
    def map_ids(self) -> set[str]:
        """Every name a save may use for a map: ``mapName``, or ``Map<i>`` (build order)."""
        ids: set[str] = set()
        if self.buildfile is None:
            return ids
        for i, m in enumerate(self.buildfile.maps()):
            ids.add(f"Map{i}")
            if m.map_name:
                ids.add(m.map_name)
        return ids


def _define(kind: str, name: str, line: int | None, text: str, gpid: str = "") -> Definition:
    try:
        return Definition(kind, name, line, piece_from_definition(text, where=f"{kind} {name!r}"), gpid=gpid)
    except (VassalFormatError, RecursionError) as exc:
        return Definition(kind, name, line, None, str(exc) or type(exc).__name__, gpid=gpid)


# ------------------------------------------------------------------------------- loading

def _diagnose_zip(data: bytes, limits: Limits) -> list[Finding]:
    """Per-entry findings for an archive SafeZip refused (zip-slip names, oversized, encrypted)."""
    out: list[Finding] = []
    try:
        infos = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except Exception:  # noqa: BLE001 - SafeZip's own message is reported instead
        return out
    for info in infos[: limits.max_entries + 1]:
        try:
            check_entry_name(info.filename)
        except ArchiveError as exc:
            out.append(Finding("archive.unsafe-name", ERROR, f"{exc}; a safe reader refuses the whole "
                               "archive", entry=repr(info.filename)[1:-1] or "''"))
            continue
        if info.file_size > limits.max_entry_size:
            out.append(Finding("archive.oversized", ERROR, f"entry inflates to {info.file_size} bytes "
                               f"(limit {limits.max_entry_size})", entry=info.filename))
        if info.flag_bits & 0x1:
            out.append(Finding("archive.encrypted", ERROR, "entry is encrypted (VASSAL cannot read it)",
                               entry=info.filename))
    if len(infos) > limits.max_entries:
        out.append(Finding("archive.oversized", ERROR, f"too many entries ({len(infos)}; limit "
                           f"{limits.max_entries})"))
    return out


def _xml_finding(exc: VassalFormatError, data: bytes, entry: str) -> Finding:
    msg = str(exc)
    head = data[:4096].lower()
    root = re.search(rb"<[a-z_]", head)
    prolog = head[: root.start()] if root else head
    if b"<!entity" in prolog or b"<!doctype" in prolog or "DOCTYPE" in msg or "entities" in msg:
        return Finding("archive.xml-unsafe", ERROR, f"{msg} (refused: DTDs and entities can expand "
                       "without bound)", entry=entry)
    m = _LINE.search(msg)
    if "root element" in msg:
        return Finding("archive.xml-root", ERROR, msg, entry=entry, line=1)
    return Finding("archive.xml-invalid", ERROR, msg, entry=entry, line=int(m.group(1)) if m else None)


def load(path: str | Path, *, limits: Limits = DEFAULT_LIMITS, display: str | None = None) -> Module:
    """Open *path* (a .vmod, or a bare buildFile.xml) for linting; problems become findings."""
    p = Path(path)
    mod = Module(display or str(path))
    add = mod.load_findings.append
    problem = regular_file_problem(p)  # a FIFO would block the open below, a device never end
    if problem:
        raise OSError(f"{path}: {problem}")
    try:
        with open(p, "rb") as fh:
            head = fh.read(64)
    except OSError as exc:
        raise OSError(f"cannot read {path}: {exc.strerror or exc}") from None
    if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):      # a bare buildFile
        mod.buildfile_entry = p.name
        try:
            mod.buildfile = BuildFile.read(p)
        except VassalFormatError as exc:
            add(_xml_finding(exc, p.read_bytes()[:4096], p.name))
        return mod
    try:
        mod.zip = SafeZip(p, limits=limits, what="module")
    except ArchiveError as exc:
        data = b""
        try:
            data = p.read_bytes() if p.stat().st_size <= limits.max_file_size else b""
        except OSError:
            pass
        per_entry = _diagnose_zip(data, limits) if data.startswith(b"PK") else []
        if per_entry:
            mod.load_findings.extend(per_entry)
        elif not data.startswith(b"PK"):
            add(Finding("archive.not-zip", ERROR, f"{exc}"))
        else:
            add(Finding("archive.unreadable", ERROR, f"{exc}"))
        return mod
    z = mod.zip
    if "savedGame" in z:
        add(Finding("archive.not-module", ERROR, "this is a saved game or log (it has a savedGame entry), "
                    "not a module"))
        return mod
    if "extensiondata" in z:
        add(Finding("archive.not-module", WARNING, "has an extensiondata entry: VASSAL treats this file "
                    "as an extension, not a module", entry="extensiondata"))
    # moduledata decides which build file VASSAL reads (vassal-format.md §1.2)
    meta_version = None
    if "moduledata" not in z:
        mod.moduledata_error = "missing"
    else:
        try:
            mod.moduledata = z.read("moduledata", max_size=1 << 20)
            root = etree.parse(io.BytesIO(mod.moduledata), etree.XMLParser(
                resolve_entities=False, no_network=True, load_dtd=False)).getroot()
            vv = root.findtext("VassalVersion")
            meta_version = vv.strip() if vv is not None else None
            if b"<!entity" in mod.moduledata[:4096].lower():
                mod.moduledata_error = "it declares XML entities"
            elif meta_version is None:
                mod.moduledata_error = "it has no VassalVersion element"
            elif meta_version == "":
                mod.moduledata_error = "its VassalVersion is empty (VASSAL then looks for the legacy buildFile entry)"
        except ArchiveError as exc:
            mod.moduledata_error = str(exc)
        except etree.XMLSyntaxError as exc:
            mod.moduledata_error = f"it is not well-formed XML ({exc})"
    legacy = meta_version is not None and (meta_version == "" or _minor_lt(meta_version, (3, 5)))
    if legacy and "buildFile" in z:
        mod.buildfile_entry = "buildFile"
    elif legacy and "buildFile.xml" in z:
        add(Finding("archive.moduledata", ERROR, f"moduledata VassalVersion {meta_version!r} is below 3.5, "
                    "so VASSAL looks for the legacy 'buildFile' entry, which is missing: the module "
                    "will not open", entry="moduledata"))
        mod.buildfile_entry = "buildFile.xml"
    elif "buildFile.xml" in z:
        mod.buildfile_entry = "buildFile.xml"
    elif "buildFile" in z:
        mod.buildfile_entry = "buildFile"
    else:
        add(Finding("archive.no-buildfile", ERROR, "no buildFile.xml (or legacy buildFile) entry: not a "
                    "VASSAL module"))
        return mod
    entry = mod.buildfile_entry
    try:
        data = z.read(entry, max_size=MAX_BUILDFILE_SIZE)
    except ArchiveError as exc:
        add(Finding("archive.oversized", ERROR, str(exc), entry=entry))
        return mod
    try:
        mod.buildfile = BuildFile.from_bytes(data, where=entry)
    except VassalFormatError as exc:
        add(_xml_finding(exc, data, entry))
    return mod
