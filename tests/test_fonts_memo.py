"""The memoised font (builder.render.fonts.MemoFont) answers exactly as Pillow's own font does:
the same ink boxes and the same drawn pixels, whether an answer is new or remembered."""

from PIL import Image, ImageDraw, ImageFont

from builder.render import fonts

TEXTS = ["4", "2-3-5", "Pz.Gren 1/103", "ÄÖü", "", "B21.32"]


def _plain(size, style="bold"):
    return ImageFont.FreeTypeFont(str(fonts.font_path(style)), size)


def _drawn(font, text, xy, **kw):
    img = Image.new("RGB", (160, 60), (240, 230, 200))
    ImageDraw.Draw(img).text(xy, text, font=font, fill=(10, 20, 30), anchor="mm", **kw)
    return img.tobytes()


def test_boxes_same_as_pillow_first_and_again():
    memo, plain = fonts.MemoFont(str(fonts.font_path("bold")), 23), _plain(23)
    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    for _ in range(2):   # the second pass is answered from the memo
        for text in TEXTS:
            for anchor in ("mm", "lm", "rm", None):
                for stroke in (0, 2):
                    assert draw.textbbox((3.25, 7.5), text, font=memo, anchor=anchor, stroke_width=stroke) == \
                        draw.textbbox((3.25, 7.5), text, font=plain, anchor=anchor, stroke_width=stroke)


def test_drawn_pixels_same_as_pillow_at_fractional_positions():
    memo, plain = fonts.MemoFont(str(fonts.font_path("regular")), 19), _plain(19, "regular")
    for _ in range(2):
        for text in TEXTS:
            for xy in ((80, 30), (80.5, 30.25), (79.75, 29.5)):
                assert _drawn(memo, text, xy) == _drawn(plain, text, xy)
                assert _drawn(memo, text, xy, stroke_width=2, stroke_fill=(250, 250, 250)) == \
                    _drawn(plain, text, xy, stroke_width=2, stroke_fill=(250, 250, 250))


def test_a_remembered_mask_is_not_changed_by_drawing_through_it():
    memo = fonts.MemoFont(str(fonts.font_path("bold")), 30)
    first = _drawn(memo, "2-3", (80, 30))
    img = Image.new("RGBA", (160, 60), (0, 0, 0, 0))   # colour text (RGBA) goes round the memo
    ImageDraw.Draw(img).text((80, 30), "2-3", font=memo, fill=(200, 0, 0, 128), anchor="mm")
    assert _drawn(memo, "2-3", (80, 30)) == first


def test_memo_is_bounded():
    memo = fonts.MemoFont(str(fonts.font_path("regular")), 12)
    memo.MAX_KEPT = 5
    draw = ImageDraw.Draw(Image.new("L", (10, 10)))
    for n in range(20):
        draw.textbbox((0, 0), f"C{n:02d}", font=memo)
    assert len(memo._boxes) == 5


def test_build_fonts_are_memoised():
    assert isinstance(fonts.font(20, "bold"), fonts.MemoFont)
