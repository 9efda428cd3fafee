"""Decoded, password-safe views of a save's command stream (used by ``vassal-builder dump``).

Player ids in VASSAL saves are the players' passwords (``PLAYER``, ``M/`` player id,
private/secret note owners, Mask/Invisible/Restricted states). Every view built here masks
them: structurally (the fields known to hold them) and, as a safety net, wherever one of
the collected values appears as a whole token anywhere else in the output.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any

from typing import TYPE_CHECKING

from builder.vassal.commands import AddPiece, ChangePiece, Command, Log, iter_leaves
from builder.vassal.errors import VassalFormatError
from builder.vassal.piece import Piece
from builder.vassal.savefile import SaveFile

if TYPE_CHECKING:  # pragma: no cover
    from builder.vassal.buildfile import BuildFile

__all__ = ["MASK", "collect_secrets", "save_report", "save_report_json", "save_report_json_chunks", "format_lines", "Masker", "module_summary",
           "module_lines"]

MASK = "********"
#: json.dumps(obj, ensure_ascii=False), one encoder made once (dumps makes one a call)
_JSON = json.JSONEncoder(ensure_ascii=False).encode
_DELIMS = ";/\t\\,|:"


def collect_secrets(save: SaveFile) -> set[str]:
    """Every player id (password) that appears in the save's commands.

    Includes ids inside piece states changed by ``D/`` commands (decoded with the type of
    the piece's earlier ``+/``), so masking a piece mid-log does not leak its owner.
    """
    out: set[str] = set()
    types: dict[str, str] = {}
    for _, c in save.leaves():
        try:
            out.update(v for v in c.secret_values() if v)
            _track(c, types)
            for _, inner in iter_leaves(c.inner) if isinstance(c, Log) else ((0, c),):
                if isinstance(inner, ChangePiece) and inner.piece_id in types:
                    for st in (inner.new_state, inner.old_state):
                        if st is not None:
                            out.update(Piece.decode(types[inner.piece_id], st).secret_values())
        except VassalFormatError:
            continue
    out.discard("null")
    return out


class Masker:
    """Replace secret values that appear as whole tokens inside strings."""

    def __init__(self, secrets: set[str], mask: str = MASK) -> None:
        self.mask = mask
        self.secrets = secrets
        if secrets:
            alts = "|".join(re.escape(s) for s in sorted(secrets, key=len, reverse=True))
            d = re.escape(_DELIMS)
            self._re = re.compile(rf"(?:(?<=^)|(?<=[{d}\s<>]))(?:{alts})(?=$|[{d}\s<>])")
            # Can an encoded object hold a secret? The same whole-token test on its JSON text
            # (ensure_ascii off), with what a boundary becomes there: a string's own quotes
            # (not a key's closing one, followed by ': '), escapes such as \t or \u001c. Sound
            # when a secret has no character JSON escapes ('"', '\', controls).
            # (One pattern per secret, the secret first: the search then runs at the speed of
            # a literal search instead of trying the boundaries at every position.)
            plain = not any(c in '"\\' or c < " " for v in secrets for c in v)
            self._in_text = [re.compile(
                rf'{re.escape(v)}(?:(?<=[{d}\s<>"]{re.escape(v)})|(?<=\\[tnrf]{re.escape(v)})'
                rf'|(?<=\\u00[01][0-9a-fA-F]{re.escape(v)}))(?=$|[{d}\s<>]|"(?!: ))')
                for v in secrets] if plain else None
        else:
            self._re = self._in_text = None

    def dumps(self, obj: Any) -> str:
        """``obj`` as JSON text (the C encoder), secrets masked; only an object whose text
        contains a secret is walked."""
        return self.checked(_JSON(obj), lambda: obj)

    def may_hold_secret(self, text: str) -> bool:
        """Can JSON *text* hold a secret as a whole token (see __init__; always when unsure)?"""
        return self._re is not None and (self._in_text is None or any(p.search(text) for p in self._in_text))

    def checked(self, text: str, obj) -> str:
        """*text* (the JSON of the object ``obj()`` gives) when no secret appears in it, else that
        object walked, masked and encoded again."""
        if not self.may_hold_secret(text):
            return text
        return _JSON(self(obj()))

    def __call__(self, obj: Any) -> Any:
        if self._re is None:
            return obj
        if isinstance(obj, str):
            if obj in self.secrets:
                return self.mask
            return self._re.sub(self.mask, obj)
        if isinstance(obj, list):
            return [self(v) for v in obj]
        if isinstance(obj, dict):
            return {k: self(v) for k, v in obj.items()}
        return obj


def _change_details(c: ChangePiece, types: dict[str, str], mask: str | None) -> dict[str, Any] | None:
    t = types.get(c.piece_id)
    if t is None:
        return None
    try:
        new = Piece.decode(t, c.new_state)
        old = Piece.decode(t, c.old_state) if c.old_state is not None else None
        new_layers, old_layers = new.layers, old.layers if old is not None else []
    except VassalFormatError:
        return None
    described_new = described_old = None   # each piece described once, when a layer changed
    changes = []
    for i, layer in enumerate(new_layers):
        before = old_layers[i] if i < len(old_layers) else None
        if before is not None and before.state_string() == layer.state_string():
            continue
        entry: dict[str, Any] = {"layer": i, "trait": layer.id}
        if described_new is None:
            described_new = new.describe(mask=mask)["layers"]
        entry["new"] = described_new[i]["state"]
        if before is not None:
            if described_old is None:
                described_old = old.describe(mask=mask)["layers"]  # type: ignore[union-attr]
            entry["old"] = described_old[i]["state"]
        changes.append(entry)
    return {"name": new.display_name, "changes": changes}


def _entry(c: Command, types: dict[str, str], mask: str | None, layers: bool = True) -> dict[str, Any]:
    try:
        d = c.to_dict(mask=mask) if layers or not isinstance(c, AddPiece) else c.to_dict(mask=mask, layers=False)
    except VassalFormatError as exc:
        d = {"type": "Malformed", "text": c.raw, "error": str(exc)}
    inner = c.inner if isinstance(c, Log) else c
    if isinstance(inner, ChangePiece):
        det = _change_details(inner, types, mask)
        if det is not None:
            (d["command"] if isinstance(c, Log) else d).update(det)
    return d


def _track(c: Command, types: dict[str, str]) -> None:
    for _, inner in iter_leaves(c.inner) if isinstance(c, Log) else ((0, c),):
        if isinstance(inner, AddPiece) and inner.piece_id:
            types[inner.piece_id] = inner.type_string


def _entries(save: SaveFile, counts: Counter, mask: str | None, *, layers: bool = True):
    """Each command's report entry (not yet masked), counting command types into *counts*; with
    *layers* false, (entry, command) pairs whose AddPiece entries lack their "layers" (the caller
    encodes them, see save_report_json)."""
    types: dict[str, str] = {}
    for index, (depth, c) in enumerate(save.leaves()):
        _track(c, types)
        counts[c.TYPE] += 1
        if isinstance(c, Log):
            for _, ic in iter_leaves(c.inner):
                counts[ic.TYPE] += 1
        e = {"index": index, "depth": depth}
        e.update(_entry(c, types, mask, layers))
        yield e if layers else (e, c)


def save_report(save: SaveFile, *, mask: str | None = MASK) -> dict[str, Any]:
    """``{"encoding", "counts", "commands"}`` — the ``dump --json`` object."""
    masker = Masker(collect_secrets(save), mask) if mask is not None else (lambda o: o)
    counts: Counter[str] = Counter()
    commands = [masker(e) for e in _entries(save, counts, mask)]
    return {"encoding": save.encoding, "counts": dict(sorted(counts.items())), "commands": commands}


def save_report_json(save: SaveFile, *, mask: str | None = MASK) -> str:
    """:func:`save_report` as JSON text, encoded command by command with the C encoder (a
    command is walked for secrets only when its text holds one)."""
    return "".join(save_report_json_chunks(save, mask=mask))


#: commands per chunk of :func:`save_report_json_chunks`
_CHUNK = 256


def save_report_json_chunks(save: SaveFile, *, mask: str | None = MASK) -> list[str]:
    """:func:`save_report_json`'s text in pieces (joined, they are that text): the commands a few
    hundred a piece. A writer then never builds one string of the whole report (one character
    beyond U+FFFF anywhere in it would make all of it four bytes a character), and the search for
    secrets runs once a piece: only a piece whose text holds one is checked command by command."""
    masker = Masker(collect_secrets(save) if mask is not None else set(), mask or MASK)
    counts: Counter[str] = Counter()
    entries = [_entry_text(e, c, mask) for e, c in _entries(save, counts, mask, layers=False)]
    head = _JSON({"encoding": save.encoding, "counts": dict(sorted(counts.items()))})
    out = [head[:-1] + ', "commands": [']
    for i in range(0, len(entries), _CHUNK):
        part = entries[i:i + _CHUNK]
        text = ",".join([t for t, _ in part])
        if masker.may_hold_secret(text):   # a superset of the commands that hold one (',' is a boundary)
            text = ",".join([masker.checked(t, obj) for t, obj in part])
        out.append("," + text if i else text)
    out.append("]}")
    return out


def _entry_text(e: dict[str, Any], c: Command, mask: str | None):
    """One entry as JSON text (not yet masked) and a function giving it as an object (to mask); an
    AddPiece's layers (its last key) from Piece.layers_json."""
    if not isinstance(c, AddPiece) or c.is_stack or e.get("type") != "AddPiece":
        return _JSON(e), lambda: e
    try:
        layers = c.piece.layers_json(mask=mask)
    except VassalFormatError:
        layers = None
    if layers is None:   # a piece whose layers do not decode: the entry the object path gives
        obj = {"index": e["index"], "depth": e["depth"], **_entry(c, {}, mask)}
        return _JSON(obj), lambda: obj
    return _JSON(e)[:-1] + ', "layers": ' + layers + "}", lambda: {**e, "layers": c.piece.describe(mask=mask)["layers"]}


def _change_text(ch: dict[str, Any]) -> str:
    def short(d: Any) -> str:
        if isinstance(d, dict) and len(d) == 1:
            d = next(iter(d.values()))
        return str(d)
    old = f"{short(ch['old'])} -> " if "old" in ch else "-> "
    return f"{ch['trait']} {old}{short(ch['new'])}"


def format_lines(save: SaveFile, *, mask: str | None = MASK) -> list[str]:
    """One readable line per command (nesting shown by indentation)."""
    masker = Masker(collect_secrets(save), mask) if mask is not None else (lambda o: o)
    lines = []
    types: dict[str, str] = {}
    for index, (depth, c) in enumerate(save.leaves()):
        _track(c, types)
        try:
            s = c.summary(mask=mask)
            inner = c.inner if isinstance(c, Log) else c
            if isinstance(inner, ChangePiece):
                det = _change_details(inner, types, mask)
                if det is not None:
                    s += f" {det['name']!r}: " + (", ".join(_change_text(ch) for ch in det["changes"])
                                                  or "no layer changed")
        except VassalFormatError as exc:
            s = f"Malformed {c.TYPE}: {exc}"
        s = s.replace("\n", "\\n").replace("\x1b", "\\e")
        lines.append(masker(f"{index:6d} {'  ' * max(depth - 1, 0)}{s}"))
    return lines


def module_summary(bf: "BuildFile") -> dict[str, Any]:
    """A short JSON-friendly description of a module's buildFile (for ``dump`` on a module)."""
    maps = []
    for m in bf.maps():
        boards = []
        for b in m.boards():
            g = b.grid
            boards.append({"name": b.name, "image": b.image, "grid": g.kind if g is not None else None})
        maps.append({"name": m.map_name, "class": m.short, "boards": boards})
    return {
        "name": bf.name, "version": bf.version, "vassal_version": bf.vassal_version,
        "root": bf.root.cls, "maps": maps,
        "piece_slots": len(bf.piece_slots()), "prototypes": len(bf.prototypes()),
        "predefined_setups": [{"name": s.name, "menu": s.is_menu, "file": s.file if s.use_file else None}
                              for s in bf.predefined_setups()],
        "turn_trackers": [t.name for t in bf.turn_trackers()],
    }


def module_lines(summary: dict[str, Any]) -> list[str]:
    s = summary
    lines = [f"module {s['name']!r} version {s['version']!r} (VASSAL {s['vassal_version'] or '?'}, root {s['root']})",
             f"  {len(s['maps'])} maps, {s['piece_slots']} piece slots, {s['prototypes']} prototypes, "
             f"{len(s['predefined_setups'])} predefined setups, turn trackers: {s['turn_trackers'] or 'none'}"]
    for m in s["maps"]:
        boards = ", ".join(f"{b['name']} [{b['grid'] or 'no grid'}]" for b in m["boards"]) or "no boards"
        lines.append(f"  map {m['name']!r}: {boards}")
    for ps in s["predefined_setups"]:
        kind = "menu" if ps["menu"] else (f"file {ps['file']}" if ps["file"] else "new game")
        lines.append(f"  setup {ps['name']!r}: {kind}")
    return lines
