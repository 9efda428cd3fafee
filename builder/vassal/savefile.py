"""``.vsav``/``.vlog`` containers (vassal-format.md §4.1, §4.2).

A save is a ZIP with ``savedGame`` (the command text), ``savedata`` (save metadata XML) and
``moduledata`` (a copy of the module's metadata). The ``savedGame`` payload comes in
three encodings:

* ``vcsk`` — ``!VCSK`` + key byte as two hex digits + ``hex(byte XOR key)`` per UTF-8 byte
  (every VASSAL up to 3.7);
* ``xz``   — an XZ stream (``FD 37 7A 58 5A 00`` magic) of the UTF-8 text, as VASSAL 3.8 writes
  it (CRC64 check, as xz-java's default);
* ``plain`` — the UTF-8 text itself (VASSAL accepts it; very old logs use it).

Also read and written: ``vobs`` — ``VOBS`` + one key byte + the UTF-8 bytes XOR key (the
binary obfuscation that replaces ``!VCSK`` in VASSAL after 3.7, engine PR #15060).

Reading::

    save = read_save("game.vsav")
    save.encoding            # "vcsk" | "xz" | "plain"
    for depth, cmd in save.leaves():
        print(cmd.TYPE, cmd.to_dict())

Writing: :meth:`SaveFile.to_bytes` returns the original file bytes when nothing changed;
otherwise it re-encodes the payload (same encoding and key unless changed) and writes a
deterministic ZIP with the entries in their original order.
"""

from __future__ import annotations

import lzma
import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from builder.vassal.archive import DEFAULT_LIMITS, Limits, SafeZip, write_bytes_atomic, zip_bytes
from builder.vassal.commands import Command, Node, iter_leaves, parse_commands
from builder.vassal.errors import NotAVassalFile, PayloadError, VassalFormatError
from builder.vassal.files import read_regular

__all__ = [
    "SaveFile", "read_save", "decode_payload", "encode_payload", "obfuscate", "deobfuscate",
    "VCSK_HEADER", "VOBS_HEADER", "XZ_MAGIC", "MAX_SAVED_GAME", "make_metadata", "read_metadata",
]

VCSK_HEADER = b"!VCSK"
VOBS_HEADER = b"VOBS"
#: xz preset used when writing (what VASSAL 3.8 uses, per pywargame's reader/writer notes)
XZ_PRESET = 3
XZ_MAGIC = b"\xfd7zXZ\x00"
#: largest decoded command text accepted (bytes)
MAX_SAVED_GAME = 256 * 1024**2

_HEXDIGITS = frozenset(b"0123456789abcdefABCDEF")


def _xor_table(key: int) -> bytes:
    return bytes(b ^ key for b in range(256))


def obfuscate(plain: bytes, key: int) -> bytes:
    """``!VCSK`` obfuscation: header, key as two lower-case hex digits, XOR-ed bytes as hex."""
    if not 0 <= key <= 255:
        raise ValueError("key must be 0..255")
    return VCSK_HEADER + b"%02x" % key + plain.translate(_xor_table(key)).hex().encode("ascii")


def deobfuscate(payload: bytes) -> tuple[bytes, int]:
    """Inverse of :func:`obfuscate`; returns (plain bytes, key). Raises PayloadError."""
    if not payload.startswith(VCSK_HEADER):
        raise PayloadError("not a !VCSK payload")
    body = payload[len(VCSK_HEADER):]
    if len(body) < 2:
        raise PayloadError("savedGame is truncated: the !VCSK header has no key")
    try:
        key = int(body[:2].decode("ascii"), 16)
        if not all(c in _HEXDIGITS for c in body[:2]):
            raise ValueError
    except (ValueError, UnicodeDecodeError):
        raise PayloadError(f"savedGame has an invalid obfuscation key {body[:2]!r}") from None
    hexpart = body[2:]
    if len(hexpart) % 2:
        raise PayloadError("savedGame is truncated: odd number of hex digits after !VCSK")
    try:
        data = bytes.fromhex(hexpart.decode("ascii"))
    except (ValueError, UnicodeDecodeError):
        bad = next((i for i, c in enumerate(hexpart) if c not in _HEXDIGITS), None)
        where = f" at offset {bad + 7}" if bad is not None else ""
        raise PayloadError(f"savedGame contains corrupt hex{where}") from None
    return data.translate(_xor_table(key)), key


def decode_payload(payload: bytes, *, max_size: int = MAX_SAVED_GAME) -> tuple[str, str, int | None]:
    """``savedGame`` bytes → (text, encoding, key). Raises PayloadError with a clear message."""
    key: int | None = None
    if payload.startswith(VCSK_HEADER):
        if (len(payload) - 7) // 2 > max_size:
            raise PayloadError(f"savedGame is too large (over {max_size} bytes decoded)")
        data, key = deobfuscate(payload)
        enc = "vcsk"
    elif payload.startswith(VOBS_HEADER):
        if len(payload) < 5:
            raise PayloadError("savedGame is truncated: the VOBS header has no key")
        if len(payload) - 5 > max_size:
            raise PayloadError(f"savedGame is too large (over {max_size} bytes decoded)")
        key = payload[4]
        data = payload[5:].translate(_xor_table(key))
        enc = "vobs"
    elif payload.startswith(XZ_MAGIC):
        enc = "xz"
        try:
            d = lzma.LZMADecompressor(format=lzma.FORMAT_XZ, memlimit=256 * 1024**2)
            data = d.decompress(payload, max_length=max_size + 1)
            if len(data) > max_size:
                raise PayloadError(f"savedGame is too large (XZ inflates beyond {max_size} bytes)")
            if not d.eof:
                raise PayloadError("savedGame XZ stream is truncated")
            if d.unused_data.strip(b"\x00"):
                raise PayloadError("savedGame has trailing data after the XZ stream")
        except lzma.LZMAError as exc:
            raise PayloadError(f"savedGame XZ stream is corrupt ({exc})") from None
    else:
        if payload[:3] == b"!VC":
            raise PayloadError(f"unsupported savedGame encoding {payload[:5]!r}")
        if len(payload) > max_size:
            raise PayloadError(f"savedGame is too large ({len(payload)} bytes)")
        data = payload
        enc = "plain"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        hint = " (wrong obfuscation key?)" if enc in ("vcsk", "vobs") else ""
        raise PayloadError(f"savedGame is not valid UTF-8 at byte {exc.start}{hint}") from None
    if enc in ("vcsk", "vobs") and text and not _plausible(text):
        raise PayloadError("savedGame does not decode to VASSAL commands (wrong obfuscation key?)")
    return text, enc, key


def _plausible(text: str) -> bool:
    """Does a de-obfuscated text look like VASSAL commands?

    A wrong key turns ESC separators into other characters, so a multi-command text without
    any ESC whose first command is not recognised is taken as a wrong key.
    """
    head = text[:64]
    ctrl = sum(1 for ch in head if ord(ch) < 32 and ch not in "\t\n\r\x1b")
    if ctrl > len(head) // 4:
        return False
    if "\x1b" in text:
        return True
    from builder.vassal.commands import Unknown, decode_leaf
    return not isinstance(decode_leaf(text), Unknown)


def encode_payload(text: str, encoding: str = "vcsk", key: int | None = None) -> bytes:
    """Command text → ``savedGame`` bytes in the given encoding."""
    data = text.encode("utf-8")
    if encoding == "vcsk":
        return obfuscate(data, random.randrange(256) if key is None else key)
    if encoding == "xz":
        return lzma.compress(data, format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=XZ_PRESET)
    if encoding == "vobs":
        k = random.randrange(1, 256) if key is None else key
        return VOBS_HEADER + bytes([k]) + data.translate(_xor_table(k))
    if encoding == "plain":
        return data
    raise ValueError(f"unknown savedGame encoding {encoding!r}")


@dataclass
class SaveFile:
    """A decoded save or log. ``entries`` keeps every ZIP entry (name → bytes) in file order."""

    text: str = field(repr=False)
    encoding: str = "vcsk"
    key: int | None = None
    entries: dict[str, bytes] = field(default_factory=dict, repr=False)
    source: bytes | None = field(default=None, repr=False)   # original file (byte-identical writing)
    _payload: bytes | None = field(default=None, repr=False)  # original savedGame bytes
    _text0: str | None = field(default=None, repr=False)      # text as read
    _tree: Node | None = field(default=None, repr=False)
    _meta0: tuple = field(default=(), repr=False)
    _entries0: dict | None = field(default=None, repr=False)
    _tree_src: str | None = field(default=None, repr=False)   # the text the tree was parsed from

    # ---------------------------------------------------------------- construction
    @classmethod
    def from_bytes(cls, data: bytes, *, limits: Limits = DEFAULT_LIMITS,
                   max_saved_game: int = MAX_SAVED_GAME) -> "SaveFile":
        z = SafeZip(data, limits=limits, what="saved game")
        if "savedGame" not in z:
            if "buildFile.xml" in z or "buildFile" in z:
                raise NotAVassalFile("this is a VASSAL module, not a saved game or log "
                                        "(no savedGame entry)")
            raise NotAVassalFile("not a VASSAL saved game or log (no savedGame entry)")
        entries: dict[str, bytes] = {}
        for name in z.names():
            if name in entries:
                continue  # VASSAL uses the first entry of a name
            entries[name] = z.read(name, max_size=(max_saved_game * 2 + 7) if name == "savedGame" else None)
        payload = entries["savedGame"]
        text, enc, key = decode_payload(payload, max_size=max_saved_game)
        sf = cls(text=text, encoding=enc, key=key, entries=entries, source=data)
        sf._payload = payload
        sf._text0 = text
        sf._meta0 = (enc, key)
        sf._entries0 = dict(entries)
        return sf

    @classmethod
    def new(cls, commands: "str | Node" = "", *, encoding: str = "vcsk", key: int | None = None,
            savedata: bytes | None = None, moduledata: bytes | None = None) -> "SaveFile":
        """A new save from a command text or tree; entries savedGame, savedata, moduledata."""
        text = commands if isinstance(commands, str) else commands.encode()
        entries: dict[str, bytes] = {"savedGame": b""}
        if savedata is not None:
            entries["savedata"] = savedata
        if moduledata is not None:
            entries["moduledata"] = moduledata
        return cls(text=text, encoding=encoding, key=key, entries=entries)

    # ---------------------------------------------------------------- commands
    @property
    def commands(self) -> Node:
        """The command tree (parsed on first access; re-parsed if :attr:`text` was replaced).
        Edit either the tree or ``text``; the tree wins while ``text`` is unchanged."""
        if self._tree is None or self.text is not self._tree_src:
            self._tree = parse_commands(self.text)
            self._tree_src = self.text
        return self._tree

    @commands.setter
    def commands(self, node: Node) -> None:
        self._tree = node
        self._tree_src = self.text

    def leaves(self) -> Iterator[tuple[int, Command]]:
        return iter_leaves(self.commands)

    def current_text(self) -> str:
        if self._tree is not None and self.text is self._tree_src:
            return self._tree.encode()
        return self.text

    @property
    def savedata(self) -> bytes | None:
        return self.entries.get("savedata")

    @property
    def moduledata(self) -> bytes | None:
        return self.entries.get("moduledata")

    @property
    def is_log(self) -> bool:
        from builder.vassal.commands import Log
        return any(isinstance(c, Log) for _, c in self.leaves())

    # ---------------------------------------------------------------- writing
    def payload(self) -> bytes:
        text = self.current_text()
        if self._payload is not None and text == self._text0 and (self.encoding, self.key) == self._meta0:
            return self._payload
        if self.encoding in ("vcsk", "vobs") and self.key is None:
            self.key = random.randrange(1, 256)
        return encode_payload(text, self.encoding, self.key)

    def modified(self) -> bool:
        """True if :meth:`to_bytes` would differ from the file that was read."""
        return self.source is None or self.payload() is not self._payload or \
            self._entries_changed()

    def _entries_changed(self) -> bool:
        return self._entries0 is None or self._entries0 != self.entries

    def to_bytes(self) -> bytes:
        payload = self.payload()
        if self.source is not None and payload is self._payload and not self._entries_changed():
            return self.source
        entries = dict(self.entries)
        entries["savedGame"] = payload
        order = ["savedGame"] + [n for n in entries if n != "savedGame"]
        return zip_bytes([(n, entries[n]) for n in order])

    def write(self, path: str | os.PathLike) -> Path:
        dest = Path(path)
        write_bytes_atomic(dest, self.to_bytes())
        return dest


def read_save(source: str | os.PathLike | bytes, *, limits: Limits = DEFAULT_LIMITS,
              max_saved_game: int = MAX_SAVED_GAME) -> SaveFile:
    """Read a ``.vsav``/``.vlog`` from a path or bytes. Raises :class:`VassalFormatError`."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    else:
        data = read_regular(source, limits.max_file_size)
    return SaveFile.from_bytes(data, limits=limits, max_saved_game=max_saved_game)


# ------------------------------------------------------------------------- metadata

def make_metadata(*, name: str | None = None, version: str = "", vassal_version: str = "3.6.0",
                  description: str | None = None, date_saved: int = 0,
                  extra1: str | None = None, extra2: str | None = None) -> bytes:
    """``moduledata`` (with *name*) or ``savedata`` (without) XML, as VASSAL writes it (§1.3).

    ``date_saved`` is milliseconds since the epoch; pass a fixed value for reproducible files.
    """
    from lxml import etree

    root = etree.Element("data", version="1")

    def add(tag: str, text: str | None) -> None:
        el = etree.SubElement(root, tag)
        if text:
            el.text = text

    add("version", version)
    if extra1 is not None:
        add("extra1", extra1)
    if extra2 is not None:
        add("extra2", extra2)
    if not vassal_version:
        raise ValueError("VassalVersion must not be empty (VASSAL would look for a legacy buildFile)")
    add("VassalVersion", vassal_version)
    add("dateSaved", str(int(date_saved)))
    if description is not None:
        add("description", description)
    if name is not None:
        add("name", name)
    etree.indent(root, space="  ")
    return (b'<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
            + etree.tostring(root, encoding="UTF-8") + b"\n")


def read_metadata(data: bytes) -> dict[str, str]:
    """Parse ``moduledata``/``savedata`` securely into {element: trimmed text} (first of each)."""
    from lxml import etree

    if len(data) > 1024**2:
        raise VassalFormatError("metadata entry is too large")
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise VassalFormatError("metadata has a DOCTYPE/ENTITY declaration (not allowed)")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError as exc:
        raise VassalFormatError(f"metadata is not well-formed XML: {exc}") from None
    out: dict[str, str] = {}
    for el in root:
        if isinstance(el.tag, str) and el.tag not in out and el.get("lang") is None:
            out[el.tag] = (el.text or "").strip()
    return out
