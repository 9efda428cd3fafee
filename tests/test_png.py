"""The build's PNG encoder: exact pixels back for every mode it writes itself, one IDAT chunk
(so a PDF can embed the stream), the same bytes for the same pixels."""

import io
import random
import struct

import pytest
from PIL import Image

from builder.render.png import png_bytes


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

