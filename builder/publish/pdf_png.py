"""PNG images into a reportlab PDF as they are, without decoding and deflating them again.

A PNG's IDAT data is a zlib stream of rows, each led by its filter byte; PDF reads exactly that as
a FlateDecode image with ``/DecodeParms << /Predictor 15 ... >>`` (PDF 1.7, 7.4.4.4). reportlab's
``drawImage`` instead decodes every image to RGB, hashes the pixels and deflates them again, which
was most of the time the counter sheets took. Each distinct PNG (by its bytes: the build's encoder
gives equal pixels equal bytes) is stored once however often it is placed.

This uses the few canvas internals ``drawImage`` itself uses (the document's XObject registry and
the page's list of forms in use); reportlab >= 4 keeps them as they are.
"""

from __future__ import annotations

import hashlib
import io
import struct

from reportlab.pdfbase import pdfdoc

from builder.render.png import SIGNATURE, png_bytes

_COLOURS = {0: ("DeviceGray", 1), 2: ("DeviceRGB", 3)}   # PNG colour type -> PDF colour space, channels


def png_parts(data: bytes) -> tuple[int, int, int, bytes] | None:
    """(width, height, colour type, concatenated IDAT data) of an 8-bit, non-interlaced grey or RGB
    PNG; None for any other PNG (palette, alpha, 16-bit, interlaced) or for bytes that are no PNG."""
    if not data.startswith(SIGNATURE):
        return None
    at, header, idat, ended = len(SIGNATURE), None, [], False
    while at + 8 <= len(data) and not ended:
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if len(body) != length:
            return None            # cut short
        if kind == b"IHDR" and length == 13:
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        ended = kind == b"IEND"
        at += 12 + length
    if header is None or not idat or not ended:
        return None
    width, height, depth, colour, _compression, _filter, interlace = header
    if depth != 8 or colour not in _COLOURS or interlace:
        return None
    return width, height, colour, b"".join(idat)


def as_embeddable(data: bytes) -> bytes:
    """PNG bytes png_parts accepts: the bytes themselves, or the image re-encoded as RGB."""
    if png_parts(data) is not None:
        return data
    from PIL import Image
    return png_bytes(Image.open(io.BytesIO(data)).convert("RGB"))


class PNGImageXObject(pdfdoc.PDFImageXObject):
    """An image XObject whose stream is a PNG's deflated rows, undone by the PNG predictor."""

    def __init__(self, name: str, data: bytes):
        parts = png_parts(data)
        if parts is None:
            raise ValueError("not an 8-bit grey or RGB PNG; pass it through as_embeddable first")
        self.name = name
        self.width, self.height, colour, self.streamContent = parts
        self.colorSpace, self._channels = _COLOURS[colour]
        self.bitsPerComponent = 8
        self._filters = ("FlateDecode",)
        self.mask = None

    def format(self, document):
        if type(document.encrypt) is not pdfdoc.NoEncryption:   # an encrypted stream: reportlab's own path
            return self.format_generic(document)
        # the bytes format_generic gives, written at once: reportlab's generic objects took most of the
        # sheets' PDF time (about 50 Python calls an image; tests/test_pdf_png.py holds the two equal)
        return b"".join((
            b"<<\n/BitsPerComponent 8 /ColorSpace /", self.colorSpace.encode("ascii"),
            b" /DecodeParms <<\n/BitsPerComponent 8 /Colors %d /Columns %d /Predictor 15\n>> /Filter /FlateDecode"
            b" /Height %d /Length %d \n  /Subtype /Image /Type /XObject /Width %d\n>>\nstream\n"
            % (self._channels, self.width, self.height, len(self.streamContent), self.width),
            self.streamContent, b"endstream\n"))

    def format_generic(self, document):
        stream = pdfdoc.PDFStream(content=self.streamContent)
        d = stream.dictionary
        d["Type"] = pdfdoc.PDFName("XObject")
        d["Subtype"] = pdfdoc.PDFName("Image")
        d["Width"] = self.width
        d["Height"] = self.height
        d["BitsPerComponent"] = self.bitsPerComponent
        d["ColorSpace"] = pdfdoc.PDFName(self.colorSpace)
        # one filter as a name, its parameters as a dictionary (a one-filter array wants an array of
        # parameters: poppler ignores a lone dictionary there and shears every row by its filter byte)
        d["Filter"] = pdfdoc.PDFName("FlateDecode")
        d["DecodeParms"] = pdfdoc.PDFDictionary({"Predictor": 15, "Colors": self._channels,
                                                 "BitsPerComponent": 8, "Columns": self.width})
        d["Length"] = len(self.streamContent)
        return stream.format(document)


def draw_png(canvas, data: bytes, x: float, y: float, width: float, height: float) -> None:
    """Place PNG bytes (see as_embeddable) with their lower left corner at (x, y), scaled to width x
    height points, as ``canvas.drawImage`` would."""
    name = hashlib.sha1(data).hexdigest()
    doc = canvas._doc
    reg = doc.getXObjectName(name)
    if doc.idToObject.get(reg) is None:
        image = PNGImageXObject(name, data)
        doc.Reference(image, reg)
        doc.addForm(name, image)
    canvas._currentPageHasImages = 1
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(width, height)
    canvas._code.append(f"/{reg} Do")
    canvas.restoreState()
    canvas._formsinuse.append(name)
