"""PNG encoding for the build's images: every row unfiltered, one zlib stream, no metadata.

Pillow's encoder tries five row filters on every row and keeps the best guess; on flat-coloured
counters and maps that guess is worse than no filter at all, and slower: unfiltered rows deflated
at level 6 are 10-25 % smaller and 1.4 x (maps) to 1.5 x (module faces) faster to make. The bytes
depend only on the pixels, the level and the zlib library, so equal pixels give equal files. One
IDAT chunk, so a PDF can embed the stream as it is (see builder.publish.pdf_png).
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Pillow mode -> (PNG colour type, bytes per pixel); other modes go through Pillow
_MODES = {"L": (0, 1), "RGB": (2, 3), "LA": (4, 2), "RGBA": (6, 4)}
DEFAULT_LEVEL = 6


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _rows(img, bpp: int) -> bytes:
    """The image's rows, each led by filter type 0 (None)."""
    raw = memoryview(img.tobytes())
    stride = img.width * bpp
    return b"\0" + b"\0".join([raw[i:i + stride] for i in range(0, len(raw), stride)])


def _header(width: int, height: int, colour_type: int) -> bytes:
    return SIGNATURE + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0))


def png_bytes(img, level: int = DEFAULT_LEVEL) -> bytes:
    """The image as PNG bytes (8 bits per channel, unfiltered rows, deflate at ``level``)."""
    mode = _MODES.get(img.mode)
    if mode is None:    # palette, 1-bit, 16-bit: rare here, Pillow's encoder with fixed settings
        import io
        buf = io.BytesIO()
        img.save(buf, "PNG", optimize=False, compress_level=level)
        return buf.getvalue()
    colour_type, bpp = mode
    return b"".join((_header(*img.size, colour_type), _chunk(b"IDAT", zlib.compress(_rows(img, bpp), level)),
                     _chunk(b"IEND", b"")))


# ------------------------------------------------------------------------------------- bands
# A tall image made of independent horizontal bands (the contact sheet: a band per row of counters)
# is deflated band by band, each band ending on a full flush: its compressed bytes depend on its own
# pixels only, so a build caches them and redraws only the bands that changed. The bands are then
# joined into one zlib stream (a final empty block and the Adler-32 of the whole, combined from the
# bands'), so the PNG is the same whichever bands came from the cache.

_ADLER_BASE = 65521


@dataclass(frozen=True)
class Band:
    deflated: bytes    # raw deflate data ending on a full flush (byte-aligned, no final block)
    adler: int         # Adler-32 of the band's filtered rows
    length: int        # their length in bytes
    width: int
    height: int
    colour_type: int


    def to_bytes(self) -> bytes:
        return struct.pack(">IIIIB", self.adler, self.length, self.width, self.height, self.colour_type) + self.deflated

    @classmethod
    def from_bytes(cls, data: bytes) -> "Band":
        adler, length, width, height, colour_type = struct.unpack(">IIIIB", data[:17])
        return cls(data[17:], adler, length, width, height, colour_type)


def band(img, level: int = DEFAULT_LEVEL) -> Band:
    """One band (an RGB, RGBA, L or LA image: the full width, some rows) deflated on its own."""
    colour_type, bpp = _MODES[img.mode]
    rows = _rows(img, bpp)
    co = zlib.compressobj(level, zlib.DEFLATED, -15)
    return Band(co.compress(rows) + co.flush(zlib.Z_FULL_FLUSH), zlib.adler32(rows), len(rows),
                img.width, img.height, colour_type)


def _adler_combine(a: int, b: int, b_length: int) -> int:
    """Adler-32 of two byte strings joined, from theirs (zlib's adler32_combine)."""
    rem = b_length % _ADLER_BASE
    s1 = ((a & 0xFFFF) + (b & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    s2 = (rem * (a & 0xFFFF) + (a >> 16) + (b >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return s1 | (s2 << 16)


def png_from_bands(bands: list[Band]) -> bytes:
    """The PNG of the bands stacked top to bottom (all of one width and colour type)."""
    width, colour_type = bands[0].width, bands[0].colour_type
    if any(b.width != width or b.colour_type != colour_type for b in bands):
        raise ValueError("bands of different widths or colour types")
    adler = 1
    for b in bands:
        adler = _adler_combine(adler, b.adler, b.length)
    # zlib header (deflate, 32 K window), the bands, a final empty fixed-Huffman block, the checksum
    stream = b"".join([b"\x78\x9c", *(b.deflated for b in bands), b"\x03\x00", struct.pack(">I", adler)])
    return b"".join((_header(width, sum(b.height for b in bands), colour_type), _chunk(b"IDAT", stream),
                     _chunk(b"IEND", b"")))
