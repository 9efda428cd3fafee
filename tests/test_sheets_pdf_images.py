"""The counter images in the sheets PDF are the build's PNGs as they are (no decoding and deflating
again): a PDF reader gets back exactly the face's pixels, each distinct face stored once."""

import io
import re
import shutil
import subprocess

import pytest
from PIL import Image

from builder.publish.pdf_png import as_embeddable, png_parts
from builder.publish.sheets import write_sheets
from builder.render import counter_build
from builder.render.counter_pieces import pieces
from builder.render.png import png_bytes
from test_counters_support import bcs_game


def _print_faces(game) -> dict:
    px = counter_build.print_px(game)
    from builder.render.counter_face import render
    return {(p.piece_id, face): counter_build.png_bytes(render(game, p, face, [px])[0])
            for p in pieces(game) for face in ("front", "back")}


def test_png_parts_accepts_the_builds_pngs_and_refuses_others():
    rgb = Image.new("RGB", (5, 3), (10, 20, 30))
    assert png_parts(png_bytes(rgb))[:3] == (5, 3, 2)
    assert png_parts(png_bytes(rgb.convert("L")))[:3] == (5, 3, 0)
    for other in (rgb.convert("RGBA"), rgb.convert("P")):
        assert png_parts(png_bytes(other)) is None
        assert png_parts(as_embeddable(png_bytes(other)))[:3] == (5, 3, 2)
    assert png_parts(b"not a png") is None
    whole = png_bytes(rgb)
    assert png_parts(whole[:20]) is None and png_parts(whole[:-12]) is None   # cut short, or before its end


def _placed(game) -> set:
    from builder.publish.sheet_layout import layout
    from builder.publish.sheets import groups_for
    pages = layout(groups_for(game), "a4", counter_build.counter_info(game)["size_mm"], 0.0, (0.0, 0.0), "t", True)
    return {(pl.piece_id, pl.face) for page in pages for pl in page.placements}


def test_the_pdf_embeds_each_distinct_face_once_as_a_png_predicted_stream(tmp_path):
    game = bcs_game()
    faces = _print_faces(game)
    out = tmp_path / "s.pdf"
    write_sheets(game, out, with_calibration=False, faces=faces)
    data = out.read_bytes()
    distinct = {faces[k] for k in _placed(game)}
    assert len(distinct) < len(_placed(game))      # the game has equal faces: they are stored once
    headers = re.findall(rb"<<((?:[^<>]|<<[^<>]*>>)*?/Subtype /Image(?:[^<>]|<<[^<>]*>>)*)>>\s*stream", data)
    assert len(headers) == len(distinct)
    for h in headers:   # one filter as a name, its PNG predictor parameters as a dictionary
        assert re.search(rb"/DecodeParms <<\s*/BitsPerComponent 8 /Colors 3 /Columns \d+ /Predictor 15\s*>>", h), h
        assert re.search(rb"/Filter /FlateDecode\b", h), h
    for face in distinct:   # each face's deflated rows, byte for byte
        assert png_parts(face)[3] in data


@pytest.mark.skipif(shutil.which("pdfimages") is None, reason="poppler's pdfimages is not installed")
def test_a_pdf_reader_gets_back_the_faces_pixels(tmp_path):
    game = bcs_game()
    faces = _print_faces(game)
    out = tmp_path / "s.pdf"
    write_sheets(game, out, with_calibration=False, faces=faces)
    subprocess.run(["pdfimages", "-png", str(out), str(tmp_path / "img")], check=True, capture_output=True)
    got = {Image.open(p).convert("RGB").tobytes() for p in tmp_path.glob("img-*.png")}
    want = {Image.open(io.BytesIO(b)).convert("RGB").tobytes() for b in faces.values()}
    assert got and got <= want


def test_the_image_objects_written_at_once_are_reportlabs_own_formatting():
    # PNGImageXObject.format writes the bytes reportlab's generic objects give (format_generic), faster
    from reportlab.pdfbase import pdfdoc
    from builder.publish.pdf_png import PNGImageXObject
    doc = pdfdoc.PDFDocument()
    images = [Image.new("RGB", (188, 188), (200, 10, 30)), Image.new("L", (7, 300), 90),
              Image.new("RGB", (1, 1)), Image.new("RGB", (1234, 5), (1, 2, 3))]
    for i, img in enumerate(images):
        x = PNGImageXObject(f"im{i}", png_bytes(img))
        assert x.format(doc) == x.format_generic(doc)
    # an encrypted document takes reportlab's path, which encrypts the stream
    class Reversing:
        def encode(self, t):
            return t[::-1]
    doc.encrypt = Reversing()
    x = PNGImageXObject("im", png_bytes(images[0]))
    assert x.format(doc) == x.format_generic(doc) and x.streamContent[::-1] in x.format(doc)
