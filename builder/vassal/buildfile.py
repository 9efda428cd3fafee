"""``buildFile.xml`` (and legacy ``buildFile``): secure reading, typed access, writing.

Reading is hardened: size limit, no DTD loading, no entity expansion, no network, and any
``<!DOCTYPE``/``<!ENTITY`` declaration is refused (VASSAL never writes one). Roots
``VASSAL.build.GameModule`` and the legacy ``VASSAL.launch.BasicModule`` are accepted.

The tree is a light wrapper over lxml elements (:class:`Component`): every element keeps
its tag (the Java class name), attributes, text and children, so a file re-serialises
without loss. Typed views give what the builder and the auditor need::

    bf = BuildFile.read("buildFile.xml")          # or read_module("game.vmod")
    for m in bf.maps():
        for b in m.boards():
            g = b.grid                              # HexGrid/SquareGrid/RegionGrid/ZonedGrid view
            print(m.map_name, b.name, g.kind if g else None, g.numbering.attrs if g and g.numbering else None)
    slot = bf.piece_slots()[0]; piece = slot.piece  # builder.vassal.piece.Piece

Writing::

    bf = BuildFile.new("My Game", version="1.0", vassal_version="3.6.0")
    m = bf.root.add("VASSAL.build.module.Map", mapName="Main Map")
    bf.write("buildFile.xml")                       # or bf.to_bytes()
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from lxml import etree

from builder.vassal.archive import SafeZip
from builder.vassal.errors import BuildFileError, VassalFormatError
from builder.vassal.files import InputFileError, read_regular
from builder.vassal.piece import Piece
from builder.vassal.sequence import decode, encode_str, parse_java_int

__all__ = [
    "BuildFile", "Component", "MapView", "BoardView", "GridView", "NumberingView", "ZoneView",
    "PieceSlotView", "PrototypeView", "PredefinedSetupView", "TurnTrackerView", "SetupStackView",
    "read_module", "MODULE_ROOTS", "MAX_BUILDFILE_SIZE", "P",
]

MODULE_ROOTS = ("VASSAL.build.GameModule", "VASSAL.launch.BasicModule")
MAX_BUILDFILE_SIZE = 64 * 1024**2
_ROOT_START = re.compile(rb"<[A-Za-z_]")
XML_DECL = b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'

#: common class-name prefixes
P = "VASSAL.build.module."
MAPPKG = P + "map."
BOARDPKG = MAPPKG + "boardPicker."
GRIDPKG = BOARDPKG + "board."


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                           dtd_validation=False, huge_tree=False, remove_blank_text=False)


def _java_bool(v: str | None, default: bool) -> bool:
    return default if v is None else v == "true"


def _num(v: str | None, default: Any, cast: type = float) -> Any:
    if v is None or v == "":
        return default
    try:
        return cast(float(v)) if cast is int and "." in v else cast(v)
    except (ValueError, OverflowError):
        return default


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        from builder.vassal.sequence import java_double
        return java_double(value)
    if isinstance(value, (list, tuple)):
        return encode_str([str(v) for v in value], ",")
    return "" if value is None else str(value)


class Component:
    """One buildFile element: ``cls`` (tag), ``attrs``, ``text``, children."""

    __slots__ = ("el",)

    def __init__(self, el: etree._Element) -> None:
        self.el = el

    # ---------------------------------------------------------------- basics
    @property
    def cls(self) -> str:
        return self.el.tag if isinstance(self.el.tag, str) else ""

    @property
    def short(self) -> str:
        return self.cls.rsplit(".", 1)[-1]

    @property
    def attrs(self) -> dict[str, str]:
        return dict(self.el.attrib)

    def get(self, name: str, default: str | None = None) -> str | None:
        return self.el.get(name, default)

    def set(self, name: str, value: Any) -> "Component":
        self.el.set(name, _fmt(value))
        return self

    @property
    def text(self) -> str:
        """VASSAL's ``Builder.getText``: all direct text nodes concatenated, then trimmed."""
        parts = [self.el.text or ""]
        for child in self.el:
            parts.append(child.tail or "")
        s = "".join(parts)
        return s.strip("".join(chr(i) for i in range(33)))

    @text.setter
    def text(self, value: str) -> None:
        self.el.text = value

    @property
    def name(self) -> str | None:
        for key in ("name", "mapName", "entryName", "description"):
            v = self.el.get(key)
            if v is not None:
                return v
        return None

    def children(self, short: str | None = None) -> list["Component"]:
        return [_wrap(c) for c in self.el if isinstance(c.tag, str)
                and (short is None or c.tag.rsplit(".", 1)[-1] == short)]

    def child(self, short: str) -> "Component | None":
        for c in self.el:
            if isinstance(c.tag, str) and c.tag.rsplit(".", 1)[-1] == short:
                return _wrap(c)
        return None

    def iter(self, *shorts: str) -> Iterator["Component"]:
        """Descendants (document order) whose class short name is one of *shorts* (all if none)."""
        for c in self.el.iterdescendants():
            if isinstance(c.tag, str) and (not shorts or c.tag.rsplit(".", 1)[-1] in shorts):
                yield _wrap(c)

    def add(self, cls: str, text: str | None = None, /, **attrs: Any) -> "Component":
        """Append a child element of class *cls* (full class name) with attributes, return it."""
        el = etree.SubElement(self.el, cls)
        for k in sorted(attrs):  # VASSAL writes attributes sorted by name
            el.set(k, _fmt(attrs[k]))
        if text is not None:
            el.text = text
        return _wrap(el)

    def remove(self) -> None:
        parent = self.el.getparent()
        if parent is not None:
            parent.remove(self.el)

    @property
    def parent(self) -> "Component | None":
        p = self.el.getparent()
        return _wrap(p) if p is not None else None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.short} {self.name!r}>"


# ------------------------------------------------------------------------------ typed views

class NumberingView(Component):
    """``HexGridNumbering``/``SquareGridNumbering`` with VASSAL's defaults."""

    __slots__ = ()

    @property
    def settings(self) -> dict[str, Any]:
        g = self.get
        return {
            "first": (g("first") or "H")[:1], "sep": g("sep", ""),
            "h_type": (g("hType") or "N")[:1], "v_type": (g("vType") or "N")[:1],
            "h_leading": _num(g("hLeading"), 1, int), "v_leading": _num(g("vLeading"), 1, int),
            "h_off": _num(g("hOff"), 1, int), "v_off": _num(g("vOff"), 1, int),
            "h_descend": _java_bool(g("hDescend"), False), "v_descend": _java_bool(g("vDescend"), False),
            "stagger": _java_bool(g("stagger"), True) if self.short == "HexGridNumbering" else False,
            "location_format": g("locationFormat", "$gridLocation$"),
        }


class ZoneView(Component):
    """``Zone``: name, polygon path (board pixels), own grid."""

    __slots__ = ()

    @property
    def path(self) -> list[tuple[int, int]]:
        pts = []
        for pair in (self.get("path") or "").split(";"):
            if "," in pair:
                x, y = pair.split(",", 1)
                try:
                    pts.append((int(x), int(y)))
                except ValueError:
                    continue
        return pts

    @property
    def use_parent_grid(self) -> bool:
        return _java_bool(self.get("useParentGrid"), False)

    @property
    def grid(self) -> "GridView | None":
        for c in self.children():
            if c.short in GridView.KINDS:
                return GridView(c.el)
        return None


class GridView(Component):
    """A board's grid: ``HexGrid``, ``SquareGrid``, ``RegionGrid`` or ``ZonedGrid``."""

    KINDS = {"HexGrid": "hex", "SquareGrid": "square", "RegionGrid": "region", "ZonedGrid": "zoned"}
    __slots__ = ()

    @property
    def kind(self) -> str:
        return self.KINDS.get(self.short, "other")

    @property
    def settings(self) -> dict[str, Any]:
        g = self.get
        if self.kind == "hex":
            dy = _num(g("dy"), 64.0)
            return {"sideways": _java_bool(g("sideways"), False), "x0": _num(g("x0"), 0, int),
                    "y0": _num(g("y0"), 32, int), "dx": _num(g("dx"), (3 ** 0.5) / 2 * dy),
                    "dy": dy, "snap_to": _java_bool(g("snapTo"), True),
                    "edges_legal": _java_bool(g("edgesLegal"), False),
                    "corners_legal": _java_bool(g("cornersLegal"), False)}
        if self.kind == "square":
            return {"x0": _num(g("x0"), 0, int), "y0": _num(g("y0"), 0, int),
                    "dx": _num(g("dx"), 48.0), "dy": _num(g("dy"), 48.0),
                    "snap_to": _java_bool(g("snapTo"), True)}
        return dict(self.attrs)

    @property
    def numbering(self) -> NumberingView | None:
        for c in self.children():
            if c.short.endswith("GridNumbering"):
                return NumberingView(c.el)
        return None

    def zones(self) -> list[ZoneView]:
        return [ZoneView(c.el) for c in self.children("Zone")]

    def regions(self) -> list[Component]:
        return self.children("Region")

    @property
    def background(self) -> "GridView | None":
        """ZonedGrid only: the background grid."""
        for c in self.children():
            if c.short in ("HexGrid", "SquareGrid", "RegionGrid"):
                return GridView(c.el)
        return None


class BoardView(Component):
    __slots__ = ()

    @property
    def image(self) -> str:
        return self.get("image", "") or ""

    @property
    def grid(self) -> GridView | None:
        for c in self.children():
            if c.short in GridView.KINDS:
                return GridView(c.el)
        return None

    @property
    def size(self) -> tuple[int, int] | None:
        w, h = self.get("width"), self.get("height")
        if w is None or h is None:
            return None
        return (_num(w, 0, int), _num(h, 0, int))


class SetupStackView(Component):
    __slots__ = ()

    def piece_slots(self) -> list["PieceSlotView"]:
        return [PieceSlotView(c.el) for c in self.iter("PieceSlot", "CardSlot")]


class MapView(Component):
    __slots__ = ()

    @property
    def map_name(self) -> str:
        return self.get("mapName", "") or ""

    @property
    def edge(self) -> tuple[int, int]:
        legacy = self.get("edge")
        if legacy and "," in legacy and self.get("edgeWidth") is None:
            w, h = legacy.split(",", 1)
            return (_num(w, 0, int), _num(h, 0, int))
        return (_num(self.get("edgeWidth"), 0, int), _num(self.get("edgeHeight"), 0, int))

    @property
    def board_picker(self) -> Component | None:
        return self.child("BoardPicker")

    def boards(self) -> list[BoardView]:
        bp = self.board_picker
        return [BoardView(c.el) for c in bp.iter("Board")] if bp is not None else []

    def setup_stacks(self) -> list[SetupStackView]:
        return [SetupStackView(c.el) for c in self.iter("SetupStack", "DrawPile")]

    def zones(self) -> list[ZoneView]:
        return [ZoneView(c.el) for c in self.iter("Zone")]


class PieceSlotView(Component):
    """``PieceSlot``/``CardSlot``: ``entryName``, ``gpid``, text = AddPiece string (§2.7)."""

    __slots__ = ()

    @property
    def gpid(self) -> str:
        return self.get("gpid", "") or ""

    @property
    def entry_name(self) -> str:
        return self.get("entryName", "") or ""

    @property
    def piece(self) -> Piece:
        return piece_from_definition(self.text, where=f"PieceSlot {self.entry_name!r}")

    @piece.setter
    def piece(self, piece: Piece) -> None:
        self.text = piece.add_piece_string()


class PrototypeView(Component):
    __slots__ = ()

    @property
    def piece(self) -> Piece:
        return piece_from_definition(self.text, where=f"Prototype {self.name!r}")

    @piece.setter
    def piece(self, piece: Piece) -> None:
        self.text = piece.add_piece_string()


class PredefinedSetupView(Component):
    __slots__ = ()

    @property
    def is_menu(self) -> bool:
        return _java_bool(self.get("isMenu"), False)

    @property
    def use_file(self) -> bool:
        return _java_bool(self.get("useFile"), False)

    @property
    def file(self) -> str | None:
        return self.get("file")

    def setups(self) -> list["PredefinedSetupView"]:
        return [PredefinedSetupView(c.el) for c in self.children("PredefinedSetup")]


_LEVELS = ("CounterTurnLevel", "ListTurnLevel")


class TurnTrackerView(Component):
    __slots__ = ()

    def levels(self) -> list[Component]:
        """Top-level turn levels (CounterTurnLevel/ListTurnLevel); each may nest more."""
        return [c for c in self.children() if c.short in _LEVELS]

    def decode_state(self, state: str) -> list[dict[str, Any]]:
        """Decode a ``TURN<id>`` state (§4.7) against this tracker's levels.

        Returns every level depth-first as ``{"level", "property", "value", "current"}``;
        ``current`` marks the chain of levels the tracker is on (its turn display).
        """
        toks = decode(state, "|") if state else []
        cur_top = parse_java_int(toks[0]) if toks else 0
        out: list[dict[str, Any]] = []

        def walk(view: Component, tok: str, on_path: bool) -> None:
            sd = decode(tok, ";") if tok else []
            subs = [c for c in view.children() if c.short in _LEVELS]
            cur = parse_java_int(sd[0]) if sd else None
            if view.short == "CounterTurnLevel":
                value = str(_num(view.get("start"), 1, int) if cur is None else cur)
            else:
                items = decode(view.get("list"), ",") if view.get("list") else []
                i = 0 if cur is None else cur
                value = items[i] if 0 <= i < len(items) else ""
            cur_sub = (parse_java_int(sd[1]) if len(sd) > 1 else 0) or 0
            out.append({"level": view.get("name", ""), "property": view.get("property", ""),
                        "value": value, "current": on_path})
            rest = sd[4:]
            for i, sub in enumerate(subs):
                walk(sub, rest[i] if i < len(rest) else "", on_path and i == cur_sub)

        for i, level in enumerate(self.levels()):
            walk(level, toks[i + 1] if i + 1 < len(toks) else "", i == (cur_top or 0))
        return out

    def turn_text(self, state: str) -> str:
        """The values of the current chain of levels, e.g. ``"3 Blue"``."""
        return " ".join(d["value"] for d in self.decode_state(state) if d["current"])


_VIEWS = {"Map": MapView, "PrivateMap": MapView, "PlayerHand": MapView, "Board": BoardView,
          "PieceSlot": PieceSlotView, "CardSlot": PieceSlotView, "PrototypeDefinition": PrototypeView,
          "PredefinedSetup": PredefinedSetupView, "TurnTracker": TurnTrackerView, "Zone": ZoneView,
          "SetupStack": SetupStackView, "DrawPile": SetupStackView}


def _wrap(el: etree._Element) -> Component:
    tag = el.tag if isinstance(el.tag, str) else ""
    short = tag.rsplit(".", 1)[-1]
    if short in GridView.KINDS:
        return GridView(el)
    if short.endswith("GridNumbering"):
        return NumberingView(el)
    return _VIEWS.get(short, Component)(el)


def piece_from_definition(text: str, *, where: str = "definition") -> Piece:
    """Decode the ``+/null/type/state`` text of a PieceSlot or PrototypeDefinition."""
    if not text.startswith("+/"):
        raise VassalFormatError(f"{where}: piece definition does not start with '+/'")
    toks = decode(text[2:], "/")
    if len(toks) < 3:
        raise VassalFormatError(f"{where}: piece definition needs id, type and state")
    return Piece.decode(toks[1], toks[2])


# ------------------------------------------------------------------------------- document

class BuildFile:
    """A module definition. ``root`` is the GameModule component."""

    def __init__(self, tree: etree._ElementTree, *, created: bool = False) -> None:
        self.tree = tree
        self.root = Component(tree.getroot())
        self.created = created

    # ---------------------------------------------------------------- reading
    @classmethod
    def from_bytes(cls, data: bytes, *, max_size: int = MAX_BUILDFILE_SIZE,
                   where: str = "buildFile") -> "BuildFile":
        if len(data) > max_size:
            raise BuildFileError(f"{where} is too large ({len(data)} bytes; limit {max_size})")
        m = _ROOT_START.search(data)
        prolog = (data[: m.start()] if m else data).lower()
        if b"<!entity" in prolog:
            raise BuildFileError(f"{where} declares XML entities (not allowed)")
        if b"<!doctype" in prolog:
            raise BuildFileError(f"{where} has a DOCTYPE declaration (not allowed: VASSAL never writes one)")
        try:
            root = etree.parse(io.BytesIO(data), _parser())
        except etree.XMLSyntaxError as exc:
            raise BuildFileError(f"{where} is not well-formed XML: {exc}") from None
        docinfo = root.docinfo
        if docinfo.doctype or (docinfo.internalDTD is not None):
            raise BuildFileError(f"{where} has a DOCTYPE declaration (not allowed)")
        tag = root.getroot().tag
        if tag not in MODULE_ROOTS:
            raise BuildFileError(f"{where}: root element is {tag!r}, expected one of {', '.join(MODULE_ROOTS)}")
        return cls(root)

    @classmethod
    def read(cls, path: str | os.PathLike) -> "BuildFile":
        p = Path(path)
        try:
            data = read_regular(p, MAX_BUILDFILE_SIZE, p.name)
        except InputFileError as exc:
            raise BuildFileError(str(exc)) from None
        return cls.from_bytes(data, where=p.name)

    @classmethod
    def new(cls, name: str, *, version: str = "1.0", vassal_version: str = "3.6.0",
            description: str = "", next_piece_slot_id: int = 1, standard: bool = True) -> "BuildFile":
        """A fresh module root; with *standard* the singletons VASSAL expects are added."""
        root = etree.Element("VASSAL.build.GameModule")
        for k, v in sorted({"ModuleOther1": "", "ModuleOther2": "", "VassalVersion": vassal_version,
                            "description": description, "name": name,
                            "nextPieceSlotId": str(next_piece_slot_id), "version": version}.items()):
            root.set(k, v)
        bf = cls(etree.ElementTree(root), created=True)
        if standard:
            for c in ("BasicCommandEncoder", "Documentation", "PlayerRoster", "GlobalOptions",
                      "Chatter", "KeyNamer"):
                bf.root.add(P + c)
            bf.root.add("VASSAL.i18n.Language")
            bf.root.add(P + "properties.GlobalProperties")
            bf.root.add(P + "PrototypesContainer")
        return bf

    # ---------------------------------------------------------------- writing
    def to_bytes(self, *, pretty: bool | None = None) -> bytes:
        """Serialise as UTF-8 with VASSAL's XML declaration.

        *pretty* (default: only for files made with :meth:`new`) re-indents with 4 spaces;
        a file that was read keeps its own whitespace.
        """
        root = self.tree.getroot()
        if pretty is None:
            pretty = self.created
        if pretty:
            import copy
            root = copy.deepcopy(root)
            etree.indent(root, space="    ")
        return XML_DECL + etree.tostring(root, encoding="UTF-8", xml_declaration=False)

    def write(self, path: str | os.PathLike, *, pretty: bool | None = None) -> Path:
        from builder.vassal.archive import write_bytes_atomic
        dest = Path(path)
        write_bytes_atomic(dest, self.to_bytes(pretty=pretty))
        return dest

    # ---------------------------------------------------------------- typed access
    @property
    def name(self) -> str:
        return self.root.get("name", "") or ""

    @property
    def version(self) -> str:
        return self.root.get("version", "") or ""

    @property
    def vassal_version(self) -> str:
        return self.root.get("VassalVersion", "") or ""

    @property
    def legacy_root(self) -> bool:
        return self.root.cls == "VASSAL.launch.BasicModule"

    def maps(self) -> list[MapView]:
        return [MapView(c.el) for c in self.root.iter("Map", "PrivateMap", "PlayerHand")]

    def map(self, name: str) -> MapView | None:
        for m in self.maps():
            if m.map_name == name:
                return m
        return None

    def boards(self) -> list[BoardView]:
        return [b for m in self.maps() for b in m.boards()]

    def piece_slots(self) -> list[PieceSlotView]:
        return [PieceSlotView(c.el) for c in self.root.iter("PieceSlot", "CardSlot")]

    def prototypes(self) -> list[PrototypeView]:
        return [PrototypeView(c.el) for c in self.root.iter("PrototypeDefinition")]

    def prototype(self, name: str) -> PrototypeView | None:
        for p in self.prototypes():
            if p.get("name") == name:
                return p
        return None

    def predefined_setups(self) -> list[PredefinedSetupView]:
        """Every PredefinedSetup, menus and nested ones included (document order)."""
        return [PredefinedSetupView(c.el) for c in self.root.iter("PredefinedSetup")]

    def turn_trackers(self) -> list[TurnTrackerView]:
        return [TurnTrackerView(c.el) for c in self.root.iter("TurnTracker")]

    def zones(self) -> list[ZoneView]:
        return [ZoneView(c.el) for c in self.root.iter("Zone")]

    def setup_stacks(self) -> list[SetupStackView]:
        return [SetupStackView(c.el) for c in self.root.iter("SetupStack", "DrawPile")]

    def player_sides(self) -> list[str]:
        roster = self.root.child("PlayerRoster")
        if roster is None:
            return []
        return [c.text for c in roster.iter() if c.text]

    def max_gpid(self) -> int:
        best = 0
        for s in self.piece_slots():
            try:
                best = max(best, int(s.gpid))
            except ValueError:
                continue
        return best


def read_module(source: str | os.PathLike | bytes) -> BuildFile:
    """The BuildFile of a ``.vmod`` (``buildFile.xml``, or legacy ``buildFile``)."""
    z = SafeZip(source, what="module")
    if "savedGame" in z:
        raise BuildFileError("this is a saved game or log, not a module")
    name = None
    meta_version = None
    if "moduledata" in z:
        try:
            md = etree.parse(io.BytesIO(z.read("moduledata", max_size=1 << 20)), _parser()).getroot()
            vv = md.findtext("VassalVersion")
            meta_version = vv.strip() if vv else None
        except etree.XMLSyntaxError:
            meta_version = None
    if meta_version is not None and _minor_lt(meta_version, (3, 5)) and "buildFile" in z:
        name = "buildFile"
    elif "buildFile.xml" in z:
        name = "buildFile.xml"
    elif "buildFile" in z:
        name = "buildFile"
    if name is None:
        raise BuildFileError("not a VASSAL module: no buildFile.xml or buildFile entry")
    return BuildFile.from_bytes(z.read(name, max_size=MAX_BUILDFILE_SIZE), where=name)


def _minor_lt(version: str, ref: tuple[int, int]) -> bool:
    parts = []
    for p in version.split(".")[:2]:
        digits = "".join(ch for ch in p if ch.isdigit()) or "0"
        parts.append(int(digits[:9]))
    while len(parts) < 2:
        parts.append(0)
    return tuple(parts) < ref
