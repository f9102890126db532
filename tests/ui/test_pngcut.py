"""Cutting and joining captured PNGs (`ui.pngcut`): the picture of a match is captured in bands that each fit
a browser's window; the bands joined must be the picture, pixel for pixel, whatever filter each row was
stored with."""

from __future__ import annotations

import random
import struct
import zlib

import pytest

from companion.ui.pngcut import NotAPicture, join_bands, opaque_rows, png_size
from tests.e2e.pixels import decode_png


def paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else b if pb <= pc else c


def encode(pixels: list[list[tuple[int, ...]]], filters: list[int]) -> bytes:
    """An 8-bit RGBA PNG of `pixels` (rows of RGBA tuples), row y stored with filter `filters[y]`."""
    height, width, bpp = len(pixels), len(pixels[0]), 4
    prev = bytes(width * bpp)
    out = []
    for y, row in enumerate(pixels):
        raw = bytes(v for px in row for v in px)
        kind, line = filters[y], bytearray(len(raw))
        for i, x in enumerate(raw):
            a = raw[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            line[i] = (x - (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]) & 255
        out.append(bytes([kind]) + bytes(line))
        prev = raw

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(out)))
            + chunk(b"IEND", b""))


def picture(width: int, height: int, seed: int) -> list[list[tuple[int, ...]]]:
    """An opaque picture with texture (every filter has work to do)."""
    rng = random.Random(seed)
    return [[(rng.randrange(256), (x * 7 + y) % 256, (x * y) % 251, 255) for x in range(width)] for y in range(height)]


def surface(card: list[list[tuple[int, ...]]], width: int, height: int, top: int, seed: int) -> bytes:
    """What a browser's capture gives: a surface `width` × `height`, transparent, with the card drawn moved up
    by `top` rows (a band), rows stored with filters chosen at random."""
    rng = random.Random(seed)
    clear = (0, 0, 0, 0)
    rows = [[card[y + top][x] if y + top < len(card) and x < len(card[0]) else clear for x in range(width)]
            for y in range(height)]
    return encode(rows, [rng.randrange(5) for _ in range(height)])


def test_bands_of_a_tall_picture_join_into_the_picture_pixel_for_pixel():
    card = picture(9, 23, seed=1)
    step = 8          # the window holds 10 rows: bands of 8
    bands = []
    for k in range(3):
        shot = surface(card, 12, 10, top=k * step, seed=10 + k)
        rows = opaque_rows(shot)
        bands.append((shot, min(step, rows)))
    assert [rows for _shot, rows in bands] == [8, 8, 7]
    joined = join_bands(bands, 9, opaque=True)
    width, height, rows = decode_png(joined)
    assert (width, height) == (9, 23)
    assert rows == [bytes(v for px in row for v in px[:3]) for row in card]


def test_a_capture_larger_than_the_picture_is_cut_to_it_and_keeps_its_alpha_unless_told():
    card = picture(5, 4, seed=2)
    shot = surface(card, 11, 9, top=0, seed=3)
    assert png_size(shot) == (11, 9)
    assert opaque_rows(shot) == 4
    width, height, rows = decode_png(join_bands([(shot, 4)], 5))
    assert (width, height) == (5, 4)
    assert rows == [bytes(v for px in row for v in px[:3]) for row in card]
    assert join_bands([(shot, 4)], 5)[25] == 6 and join_bands([(shot, 4)], 5, opaque=True)[25] == 2  # RGBA, RGB


def test_a_picture_that_fills_the_capture_is_opaque_to_its_last_row():
    card = picture(4, 6, seed=4)
    assert opaque_rows(encode(card, [4, 3, 2, 1, 0, 2])) == 6


def test_what_is_not_a_png_or_has_too_little_is_refused_in_words():
    with pytest.raises(NotAPicture):
        png_size(b"GIF89a")
    shot = surface(picture(3, 3, seed=5), 3, 3, top=0, seed=6)
    with pytest.raises(NotAPicture):
        join_bands([(shot, 4)], 3)        # four rows asked of three
    with pytest.raises(NotAPicture):
        join_bands([], 3)
