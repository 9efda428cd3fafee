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

SIGNATURE = b"\x89PNG\r\n\x1a\n"
# Pillow mode -> (PNG colour type, bytes per pixel); other modes go through Pillow
_MODES = {"L": (0, 1), "RGB": (2, 3), "LA": (4, 2), "RGBA": (6, 4)}
DEFAULT_LEVEL = 6


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_bytes(img, level: int = DEFAULT_LEVEL) -> bytes:
    """The image as PNG bytes (8 bits per channel, unfiltered rows, deflate at ``level``)."""
    mode = _MODES.get(img.mode)
    if mode is None:    # palette, 1-bit, 16-bit: rare here, Pillow's encoder with fixed settings
        import io
        buf = io.BytesIO()
        img.save(buf, "PNG", optimize=False, compress_level=level)
        return buf.getvalue()
    colour_type, bpp = mode
    width, height = img.size
    raw = memoryview(img.tobytes())
    stride = width * bpp
    # filter type 0 (None) before every row
    rows = b"\0" + b"\0".join([raw[i:i + stride] for i in range(0, len(raw), stride)])
    return b"".join((SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)),
                     _chunk(b"IDAT", zlib.compress(rows, level)), _chunk(b"IEND", b"")))
