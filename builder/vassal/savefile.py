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

import codecs
import lzma
import os
import random
from collections.abc import Iterator
from pathlib import Path

from builder.vassal.archive import DEFAULT_LIMITS, Limits, SafeZip, write_bytes_atomic, zip_bytes
from builder.vassal.commands import Command, Node, iter_leaves, parse_commands
from builder.vassal.errors import NotAVassalFile, PayloadError, TruncatedError, VassalFormatError
from builder.vassal.files import read_regular
from builder.vassal.gcpause import gc_paused

__all__ = [
    "SaveFile", "SaveStream", "PayloadDecoder", "read_save", "decode_payload", "encode_payload", "obfuscate", "deobfuscate",
    "VCSK_HEADER", "VOBS_HEADER", "XZ_MAGIC", "MAX_SAVED_GAME", "make_metadata", "read_metadata",
]

VCSK_HEADER = b"!VCSK"
VOBS_HEADER = b"VOBS"
#: xz preset used when writing (what VASSAL 3.8 uses, per pywargame's reader/writer notes)
XZ_PRESET = 3
XZ_MAGIC = b"\xfd7zXZ\x00"
#: largest decoded command text accepted (bytes). With MAX_COMMANDS (builder.vassal.commands) it keeps
#: any input within the limits under a memory budget of 512 MB (decoding, the command tree, dump's lines):
#: real saves and logs hold a few MB of text; a bigger one is refused before it is parsed.
MAX_SAVED_GAME = 32 * 1024**2

_HEXDIGITS = frozenset(b"0123456789abcdefABCDEF")
_UTF8_SLICE = 1 << 16


def _xor_table(key: int) -> bytes:
    return bytes(b ^ key for b in range(256))


def _unhex(hexpart: bytes, offset: int) -> bytes:
    """Hex digits to bytes; PayloadError naming the first bad digit's offset in the payload."""
    try:
        return bytes.fromhex(str(hexpart, "ascii"))
    except (ValueError, UnicodeDecodeError):
        bad = next((i for i, c in enumerate(hexpart) if c not in _HEXDIGITS), None)
        where = f" at offset {offset + bad}" if bad is not None else ""
        raise PayloadError(f"savedGame contains corrupt hex{where}") from None


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
    data = _unhex(hexpart, 7)
    return data.translate(_xor_table(key)), key


def decode_payload(payload: bytes, *, max_size: int = MAX_SAVED_GAME) -> tuple[str, str, int | None]:
    """``savedGame`` bytes → (text, encoding, key). Raises PayloadError with a clear message
    (TruncatedError, with the offset, when the payload ends early)."""
    d = PayloadDecoder(max_size=max_size)
    text = d.feed(payload) + d.finish()
    return text, d.encoding, d.key


class PayloadDecoder:
    """Incremental ``savedGame`` decoder: :meth:`feed` bytes as they are read, get text back;
    :meth:`finish` at the end. The encoding is told by the first bytes (see the module docstring).
    Reading a long log this way never holds its whole payload or text."""

    def __init__(self, *, max_size: int = MAX_SAVED_GAME) -> None:
        self.max_size = max_size
        self.encoding: str | None = None
        self.key: int | None = None
        self.consumed = 0               # payload bytes consumed
        self.decoded = 0                # bytes decoded
        self._head = b""                # bytes held until the encoding is known
        self._odd = b""                 # a dangling hex digit (vcsk)
        self._table: bytes | None = None
        self._xz = None
        self._utf8 = codecs.getincrementaldecoder("utf-8")()
        self._checked = False
        self._probe = ""

    # ---------------------------------------------------------------- feeding
    def feed(self, chunk: bytes) -> str:
        if self.encoding is None:
            self._head += chunk
            if len(self._head) < 7 and self._head and (VCSK_HEADER.startswith(self._head[:5])
                                                       or XZ_MAGIC.startswith(self._head[:6])
                                                       or VOBS_HEADER.startswith(self._head[:4])):
                return ""
            chunk, self._head = self._head, b""
            chunk = self._start(chunk)
        return self._text(self._bytes(chunk), final=False)

    def finish(self) -> str:
        if self.encoding is None:           # fewer than 7 bytes in all
            chunk, self._head = self._head, b""
            chunk = self._start(chunk)
            out = self._text(self._bytes(chunk), final=False)
        else:
            out = ""
        if self.encoding == "vcsk" and self._odd:
            raise TruncatedError("savedGame is truncated: odd number of hex digits after !VCSK "
                                 f"(ends at byte {self.consumed})", offset=self.consumed)
        if self.encoding == "xz":
            if not self._xz.eof:
                raise TruncatedError(f"savedGame XZ stream is truncated (ends at byte {self.consumed} "
                                     f"after {self.decoded} decoded bytes)", offset=self.consumed)
        out += self._text(b"", final=True)
        if not self._checked:
            self._check(out, final=True)
        return out

    # ---------------------------------------------------------------- stages
    def _start(self, payload: bytes) -> bytes:
        """Tell the encoding from the first bytes; returns the body after the header."""
        if payload.startswith(VCSK_HEADER):
            self.encoding = "vcsk"
            body = payload[len(VCSK_HEADER):7]     # the key's two digits (not a copy of the payload)
            if len(body) < 2:
                raise TruncatedError("savedGame is truncated: the !VCSK header has no key", offset=len(payload))
            try:
                if not all(c in _HEXDIGITS for c in body[:2]):
                    raise ValueError
                self.key = int(body[:2].decode("ascii"), 16)
            except (ValueError, UnicodeDecodeError):
                raise PayloadError(f"savedGame has an invalid obfuscation key {body[:2]!r}") from None
            self._table = _xor_table(self.key)
            self.consumed = 7
            return memoryview(payload)[7:]       # the hex digits, not copied
        if payload.startswith(VOBS_HEADER):
            self.encoding = "vobs"
            if len(payload) < 5:
                raise TruncatedError("savedGame is truncated: the VOBS header has no key", offset=len(payload))
            self.key = payload[4]
            self._table = _xor_table(self.key)
            self.consumed = 5
            return payload[5:]
        if payload.startswith(XZ_MAGIC):
            self.encoding = "xz"
            self._xz = lzma.LZMADecompressor(format=lzma.FORMAT_XZ, memlimit=256 * 1024**2)
            return payload
        if payload[:3] == b"!VC":
            raise PayloadError(f"unsupported savedGame encoding {payload[:5]!r}")
        self.encoding = "plain"
        return payload

    def _bytes(self, chunk: bytes) -> bytes:
        """Payload body bytes -> decoded UTF-8 bytes."""
        enc = self.encoding
        if enc == "vcsk":
            hexpart = self._odd + chunk if self._odd else chunk
            cut = len(hexpart) - len(hexpart) % 2
            hexpart, self._odd = hexpart[:cut], bytes(hexpart[cut:])
            if (self.decoded + cut // 2) > self.max_size:
                raise PayloadError(f"savedGame is too large (over {self.max_size} bytes decoded)")
            data = _unhex(hexpart, self.consumed)
            self.consumed += cut
            data = data.translate(self._table)
        elif enc == "vobs":
            if self.decoded + len(chunk) > self.max_size:
                raise PayloadError(f"savedGame is too large (over {self.max_size} bytes decoded)")
            self.consumed += len(chunk)
            data = chunk.translate(self._table)
        elif enc == "xz":
            d = self._xz
            if d.eof:
                if chunk.strip(b"\x00"):
                    raise PayloadError("savedGame has trailing data after the XZ stream")
                return b""
            try:
                data = d.decompress(chunk, max_length=self.max_size + 1 - self.decoded)
            except lzma.LZMAError as exc:
                raise PayloadError(f"savedGame XZ stream is corrupt ({exc})") from None
            self.consumed += len(chunk)
            if self.decoded + len(data) > self.max_size or (not d.eof and d.needs_input is False):
                raise PayloadError(f"savedGame is too large (XZ inflates beyond {self.max_size} bytes)")
            if d.eof and d.unused_data.strip(b"\x00"):
                raise PayloadError("savedGame has trailing data after the XZ stream")
        else:
            if self.decoded + len(chunk) > self.max_size:
                raise PayloadError(f"savedGame is too large ({self.decoded + len(chunk)} bytes)")
            self.consumed += len(chunk)
            data = chunk
        self.decoded += len(data)
        return data

    def _text(self, data: bytes, final: bool) -> str:
        # Decoded in slices, joined: CPython's UTF-8 decoder is several times slower once its output
        # holds a character beyond U+FFFF (one emoji in a menu name makes the whole text 4 bytes a
        # character); a slice without one decodes at ASCII speed and the join only widens it.
        n, step, at0 = len(data), _UTF8_SLICE, 0
        dec = self._utf8.decode
        try:
            if n <= 2 * step:
                text = dec(data, final)
            else:
                held0 = len(self._utf8.getstate()[0])     # bytes of a character begun before this call
                view, parts = memoryview(data), []
                for at0 in range(0, n, step):
                    parts.append(dec(view[at0:at0 + step], final and at0 + step >= n))
                text = "".join(parts)
        except UnicodeDecodeError as exc:
            start = exc.start
            if at0:   # where the one-call decode would have put it (exc.start counts held bytes first)
                start += at0 - len(self._utf8.getstate()[0]) + held0
            at = self.decoded - n + start
            hint = " (wrong obfuscation key?)" if self.encoding in ("vcsk", "vobs") else ""
            if final and exc.reason == "unexpected end of data":
                raise TruncatedError(f"savedGame is truncated inside a character at byte {at}",
                                     offset=at) from None
            raise PayloadError(f"savedGame is not valid UTF-8 at byte {at}{hint}") from None
        if not self._checked:
            self._check(text, final)
        return text

    def _check(self, text: str, final: bool) -> None:
        """A wrong key is told from the first characters (see :func:`_plausible`)."""
        if self.encoding not in ("vcsk", "vobs"):
            self._checked = True
            return
        self._probe += text
        if len(self._probe) < 4096 and not final:
            return
        self._checked = True
        if self._probe and not _plausible(self._probe):
            raise PayloadError("savedGame does not decode to VASSAL commands (wrong obfuscation key?)")
        self._probe = ""


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


class SaveFile:
    """A decoded save or log. ``entries`` keeps every ZIP entry (name → bytes) in file order.

    (Written out, not a dataclass: importing dataclasses, with the inspect module it loads, was a
    tenth of ``dump``'s start-up. Same constructor, equality and repr as the dataclass it was.)"""

    _FIELDS = ("text", "encoding", "key", "entries", "source", "_payload", "_text0", "_tree", "_meta0",
               "_entries0", "_tree_src")
    __hash__ = None   # mutable, compared by value

    def __init__(self, text: str, encoding: str = "vcsk", key: int | None = None,
                 entries: dict[str, bytes] | None = None, source: bytes | None = None,
                 _payload: bytes | None = None, _text0: str | None = None, _tree: Node | None = None,
                 _meta0: tuple = (), _entries0: dict | None = None, _tree_src: str | None = None) -> None:
        self.text = text
        self.encoding = encoding
        self.key = key
        self.entries: dict[str, bytes] = {} if entries is None else entries
        self.source = source              # original file (byte-identical writing)
        self._payload = _payload          # original savedGame bytes
        self._text0 = _text0              # text as read
        self._tree = _tree
        self._meta0 = _meta0
        self._entries0 = _entries0
        self._tree_src = _tree_src        # the text the tree was parsed from

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self._FIELDS)

    def __repr__(self) -> str:
        return f"SaveFile(encoding={self.encoding!r}, key={self.key!r})"

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
            with gc_paused():
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

    def truncation(self):
        """A TruncatedError (where the command text breaks) when it was cut short, else None
        (builder.vassal.commands.Completeness, the check every reader shares)."""
        from builder.vassal.commands import BeginSave, Completeness, Compound, EndSave, iter_top_level, last_top_offset
        check = Completeness()
        tree = self.commands
        if self.text is self._tree_src and tree.unchanged():   # the tree's items are the top-level commands
            items = tree.items if isinstance(tree, Compound) else [tree]
            check.count, check.last = len(items), items[-1]
            check.begin = isinstance(items[0], BeginSave)
            check.end = any(isinstance(i, EndSave) for i in items[1:])
            if check.problem() is None:
                return None
            check.last_offset = last_top_offset(self.text)
            return check.problem()
        try:
            for _ in iter_top_level([self.current_text()], check):
                pass
        except TruncatedError as exc:
            return exc
        return None

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


class SaveStream:
    """A save or log read as a stream: iterate to get its top-level commands one at a time as
    (number, offset, node); the payload is inflated, decoded and parsed chunk by chunk, so memory
    does not grow with the log's length. At the end of the iteration a text cut short raises
    :class:`TruncatedError` (number and offset of the command where it broke). ``savedata`` and
    ``moduledata`` (small) are read at once."""

    def __init__(self, source: str | os.PathLike | bytes, *, limits: Limits = DEFAULT_LIMITS,
                 max_saved_game: int = MAX_SAVED_GAME, chunk_size: int = 1 << 20) -> None:
        # a path is read from the open file as the commands go (a long log is never held whole)
        z = SafeZip(source, limits=limits, what="saved game", stream=True)
        try:
            if "savedGame" not in z:
                if "buildFile.xml" in z or "buildFile" in z:
                    raise NotAVassalFile("this is a VASSAL module, not a saved game or log (no savedGame entry)")
                raise NotAVassalFile("not a VASSAL saved game or log (no savedGame entry)")
            self._zip, self.max_saved_game, self.chunk_size = z, max_saved_game, chunk_size
            self.savedata = z.read("savedata") if "savedata" in z else None
            self.moduledata = z.read("moduledata") if "moduledata" in z else None
        except BaseException:
            z.close()
            raise
        self.decoder = PayloadDecoder(max_size=max_saved_game)

    @property
    def encoding(self) -> str | None:
        return self.decoder.encoding

    def close(self) -> None:
        """Close the file (done when the iteration ends; for a reader that stops early)."""
        self._zip.close()

    def __enter__(self) -> "SaveStream":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _text(self) -> Iterator[str]:
        d = self.decoder
        try:
            for chunk in self._zip.chunks("savedGame", max_size=self.max_saved_game * 2 + 7, size=self.chunk_size):
                yield d.feed(chunk)
        finally:
            self.close()
        yield d.finish()

    def __iter__(self) -> Iterator[tuple[int, int, Node]]:
        from builder.vassal.commands import Completeness, iter_top_level
        return iter_top_level(self._text(), Completeness())   # raises a cut at the end

    def entries(self, *, chat: bool = True) -> Iterator[tuple[int, int, Node]]:
        """The iteration for a reader that only applies the commands: the log entries of one command after
        the saved position given as their command (iter_top_level's *unwrap*; their Log wrappers are never
        read), without *chat* each chat line as the one UNREAD_CHAT; once it ends, :attr:`unwrapped` tells
        how many were."""
        from builder.vassal.commands import Completeness, iter_top_level
        self._check = Completeness()
        return iter_top_level(self._text(), self._check, unwrap=True, chat=chat)

    @property
    def unwrapped(self) -> int:
        """How many log entries :meth:`entries` gave as their command."""
        check = getattr(self, "_check", None)
        return check.unwrapped if check is not None else 0


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
