"""Counter faces: colours, values placed by the layout, missing values, errors on bad input, determinism."""

from __future__ import annotations

import pytest
from PIL import ImageDraw

from builder.errors import BuildError
from builder.render import counter_face, counter_text, fonts
from builder.render.counter_build import png_bytes
from builder.render.counter_pieces import pieces
from test_counters_support import bcs_doc, bcs_game, tiny_game


def piece(game, pid):
    return next(p for p in pieces(game) if p.piece_id == pid)


def pixels(img):
    return img.get_flattened_data() if hasattr(img, "get_flattened_data") else img.getdata()


def near(a, b, tol=6):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def test_face_background_is_the_nationality_colour():
    game = tiny_game()
    blue = counter_face.render(game, piece(game, "blue-1"), "front", [75])[0]
    red = counter_face.render(game, piece(game, "red-1"), "front", [75])[0]
    assert near(blue.getpixel((4, 37)), (0x8F, 0xB4, 0xE3))
    assert near(red.getpixel((4, 37)), (0xE3, 0x8F, 0x8F))


def test_module_and_print_sizes_come_from_one_drawing():
    game = tiny_game()
    small, large = counter_face.render(game, piece(game, "blue-3"), "front", [75, 188])
    assert small.size == (75, 75) and large.size == (188, 188)
    assert near(large.resize((75, 75)).getpixel((37, 60)), small.getpixel((37, 60)), 60)


def test_values_text_drops_missing_values_with_their_separators():
    game = tiny_game()
    unit = game.units["blue-hq"]
    text = counter_text.expand("{attack}-{defense}-{movement}", game, unit, unit["front"], "x")
    assert text == "6"
    unit = game.units["blue-1"]
    assert counter_text.expand("{attack}-{defense}-{movement}", game, unit, {"attack": 4, "movement": 3},
                               "x") == "4-3"
    assert counter_text.expand("{attack}", game, unit, {}, "x") is None
    assert counter_text.expand("{name} ({size})", game, unit, {}, "x") == "1 (XX)"
    assert counter_text.expand("Ghost {{x}}", game, unit, {}, "x") == "Ghost {x}"


def test_back_face_differs_from_front_and_blank_back_shows_the_name():
    game = tiny_game()
    front, back = (counter_face.render(game, piece(game, "blue-1"), f, [75])[0] for f in ("front", "back"))
    assert png_bytes(front) != png_bytes(back)
    # red-1 has no back in the data: a plain face with only its name, no symbol frame.
    blank = counter_face.render(game, piece(game, "red-1"), "back", [150])[0]
    frame_edge = blank.crop((int(0.2 * 150), int(0.32 * 150), int(0.25 * 150), int(0.62 * 150)))
    assert all(near(px, (0xE3, 0x8F, 0x8F)) for px in pixels(frame_edge))


def test_box_by_and_color_by_colour_the_values():
    game = bcs_game()
    img = counter_face.draw_master(game, piece(game, "ss-pz-1"), "front", 300)
    # The AV box (full: white fill) sits in the bottom centre; MA is red by movement class.
    box = img.crop((120, 230, 180, 290))
    assert any(near(px, (255, 255, 255), 10) for px in pixels(box))
    ma = img.crop((200, 225, 295, 295))
    assert any(near(px, (0xD0, 0, 0), 40) for px in pixels(ma))
    back = counter_face.draw_master(game, piece(game, "ss-pz-1"), "back", 300).crop((120, 230, 180, 290))
    assert any(near(px, (255, 255, 0), 10) for px in pixels(back))


def test_formation_bar_and_steps_are_drawn():
    game = bcs_game()
    img = counter_face.draw_master(game, piece(game, "ss-pz-1"), "front", 300)
    assert near(img.getpixel((150, 5)), (0xD0, 0x20, 0x20))  # formation colour along the top
    plain = bcs_doc()
    plain["units"][0]["steps"] = 0
    no_steps = counter_face.draw_master(bcs_game(plain), piece(bcs_game(plain), "ss-pz-1"), "front", 300)
    assert png_bytes(img) != png_bytes(no_steps)


def test_markers_draw_text_pattern_and_plain_back():
    game = bcs_game()
    checks = counter_face.draw_master(game, piece(game, "dg"), "front", 160)
    assert near(checks.getpixel((5, 5)), (0, 0, 0)) and near(checks.getpixel((25, 5)), (0xC9, 0xA8, 0x6A))
    used = piece(game, "used")
    assert used.faces == ("front",) and used.quantity == 3
    back = counter_face.draw_master(game, used, "back", 50)  # printed behind a one-sided marker
    assert back.getcolors() == [(2500, (255, 255, 255))]


def test_value_longer_than_its_max_length_is_an_error_naming_unit_and_value():
    doc = bcs_doc()
    doc["units"][0]["front"]["ar"] = 12
    game = bcs_game(doc)
    with pytest.raises(BuildError, match=r"ss-pz-1.*ar = '12'.*too long"):
        counter_face.render(game, piece(game, "ss-pz-1"), "front", [75])


def test_text_too_long_for_its_slot_is_an_error():
    doc = bcs_doc()
    doc["units"][3]["name"] = "Fourteenth Guards Rifle Division of the Don"
    game = bcs_game(doc)
    with pytest.raises(BuildError, match=r"sov-inf.*too long for its slot"):
        counter_face.render(game, piece(game, "sov-inf"), "front", [75])


def test_unknown_colour_is_a_clear_error():
    doc = bcs_doc()
    doc["nationalities"][0]["background"] = "grey"
    game = bcs_game(doc)
    with pytest.raises(BuildError, match=r"ger-pzg.*unknown colour 'grey'.*#RRGGBB"):
        counter_face.render(game, piece(game, "ger-pzg"), "front", [75])


def test_unknown_template_field_is_an_error():
    doc = bcs_doc()
    doc["layouts"][0]["slots"][1]["text"] = "{nmae}"
    game = bcs_game(doc)
    with pytest.raises(BuildError, match=r"\{nmae\}.*neither a declared value nor a unit field"):
        counter_face.render(game, piece(game, "sov-inf"), "front", [75])


def test_missing_font_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(fonts, "FONT_DIR", tmp_path)
    game = tiny_game()
    with pytest.raises(fonts.FontMissing, match=r"DejaVuSans.*missing.*reinstall"):
        counter_face.render(game, piece(game, "blue-1"), "front", [75])


def test_shipped_fonts_are_present_with_their_licence():
    for style in fonts.FONTS:
        assert fonts.font_path(style).stat().st_size > 100_000
    assert (fonts.FONT_DIR / "LICENSE-DejaVu.txt").read_text().count("Bitstream") > 2


def test_rendering_is_deterministic():
    game = bcs_game()
    for p in pieces(game):
        for face in p.faces:
            first = [png_bytes(i) for i in counter_face.render(game, p, face, [75, 125])]
            again = [png_bytes(i) for i in counter_face.render(bcs_game(), p, face, [75, 125])]
            assert first == again, (p.piece_id, face)


def test_fit_shrinks_then_wraps():
    draw = ImageDraw.Draw(counter_face.Image.new("RGB", (10, 10)))
    fitted = counter_text.fit(draw, "Home Army", 100, 80, 40, "bold", "x")
    assert fitted.lines == ["Home", "Army"] or fitted.size < 40
    with pytest.raises(counter_text.TextTooLong):
        counter_text.fit(draw, "Supercalifragilistic", 30, 10, 20, "bold", "x")


def test_back_shows_full_steps_unless_the_face_says_otherwise():
    """BCS prints a unit's steps on both sides; a game whose back is a reduced step gives it a 'steps' value."""
    def step_region(game, uid, face):
        img = counter_face.draw_master(game, piece(game, uid), face, 300)
        return png_bytes(img.crop((200, 80, 300, 220)))

    doc = bcs_doc()
    doc["units"][0]["back"] = dict(doc["units"][0]["front"])  # same values: only the face differs
    game = bcs_game(doc)
    assert step_region(game, "ss-pz-1", "front") == step_region(game, "ss-pz-1", "back")
    doc["values"].append({"id": "steps", "name": "Steps shown", "kind": "integer"})
    doc["units"][0]["back"]["steps"] = 1
    game = bcs_game(doc)
    assert step_region(game, "ss-pz-1", "front") != step_region(game, "ss-pz-1", "back")


def test_module_image_is_the_print_drawing_trimmed_to_the_screen_margin(monkeypatch):
    """Drawn once: the module's image is the print drawing with the band between the safe margin and the
    screen margin cut off, so what print keeps inside the safe margin reaches the screen margin."""
    from PIL import Image

    from builder.render import counter_build
    game = tiny_game()
    safe, screen = counter_face.safe_margin(game), counter_face.screen_margin(game)
    assert screen < safe
    side, px = 376, 80
    m = round(safe * side)
    master = Image.new("RGB", (side, side), (255, 255, 255))
    ImageDraw.Draw(master).rectangle((m, m, side - m - 1, side - m - 1), fill=(0, 0, 0))
    small = counter_build.module_image(master, counter_build._trim(game), px)
    edge = next(x for x in range(px) if small.getpixel((x, px // 2))[0] < 128)
    assert abs(edge - screen * px) <= 1
    assert small.getpixel((px // 2, px // 2)) == (0, 0, 0) and small.getpixel((0, 0)) == (255, 255, 255)
    # one drawing per face, the same pixels every time
    p = piece(game, "blue-3")
    sizes = [75, 188]
    first = counter_build._draw_pngs(game, p, "front", sizes)
    assert first == counter_build._draw_pngs(game, p, "front", sizes)
    drawn = []
    real = counter_face.draw_master

    def spy(*a):
        drawn.append(a[2])
        return real(*a)
    monkeypatch.setattr(counter_face, "draw_master", spy)
    counter_build.module_and_print(game, p, "front", sizes)
    assert drawn == ["front"]
