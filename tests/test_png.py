"""The build's PNG encoder: exact pixels back for every mode it writes itself, one IDAT chunk
(so a PDF can embed the stream), the same bytes for the same pixels."""

import io
import random
import struct
import zlib

import pytest
from PIL import Image

from builder.render.png import Band, band, png_bytes, png_from_bands


def _noisy(mode: str, size=(37, 11)) -> Image.Image:
    rnd = random.Random(mode)
    bands = len(Image.new(mode, (1, 1)).getbands())
    img = Image.new(mode, size)
    img.frombytes(bytes(rnd.randrange(256) for _ in range(size[0] * size[1] * bands)))
    return img


def _chunks(data: bytes) -> list[bytes]:
    kinds, at = [], 8
    while at < len(data):
        n = struct.unpack(">I", data[at:at + 4])[0]
        kinds.append(data[at + 4:at + 8])
        at += 12 + n
    return kinds


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L", "LA"])
def test_pixels_round_trip_in_one_idat(mode):
    img = _noisy(mode)
    data = png_bytes(img)
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.mode == mode and back.size == img.size and back.tobytes() == img.tobytes()
    assert _chunks(data) == [b"IHDR", b"IDAT", b"IEND"]
    assert png_bytes(_noisy(mode)) == data


def test_other_modes_go_through_pillow_and_stay_readable():
    img = _noisy("RGB").convert("P")
    back = Image.open(io.BytesIO(png_bytes(img)))
    assert back.convert("RGB").tobytes() == img.convert("RGB").tobytes()



def _idat(data: bytes) -> bytes:
    at, out = 8, b""
    while at < len(data):
        n = struct.unpack(">I", data[at:at + 4])[0]
        if data[at + 4:at + 8] == b"IDAT":
            out += data[at + 8:at + 8 + n]
        at += 12 + n
    return out


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_bands_deflated_apart_join_into_one_valid_png(mode):
    img = _noisy(mode, (29, 40))
    cuts = [0, 1, 8, 23, 40]
    bands = [band(img.crop((0, a, 29, b)), level) for (a, b), level in zip(zip(cuts, cuts[1:]), (1, 6, 3, 9))]
    data = png_from_bands([Band.from_bytes(b.to_bytes()) for b in bands])
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.mode == mode and back.size == img.size and back.tobytes() == img.tobytes()
    zlib.decompress(_idat(data))      # the stream's Adler-32, combined from the bands', is right
    assert _chunks(data) == [b"IHDR", b"IDAT", b"IEND"]


def test_bands_of_other_widths_are_refused():
    with pytest.raises(ValueError, match="widths"):
        png_from_bands([band(_noisy("RGB", (5, 2))), band(_noisy("RGB", (6, 2)))])
