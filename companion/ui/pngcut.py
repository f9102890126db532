"""Cutting and joining the PNGs that Flutter's capture (`ft.Screenshot.capture`) gives, with the standard library.

In a browser, Flutter's web engine (CanvasKit) hands back a picture of its whole drawing surface, the size of
the browser's window: the captured control is drawn at its top left, at the pixel ratio asked for, with
transparent pixels beyond it when the window is larger, and cut off where the window is smaller. So the page
captures a tall picture in bands that each fit the window (`PageAdapter.capture`), and these functions keep the
top left `width` × `rows` of each band and join the bands into one PNG.

Neither needs the pixels themselves: a PNG row is stored "filtered", each byte told from the bytes to its left
and above it only, so the left part of a row and the first rows of an image are valid as they are. Only the
first row of each band after the first is unfiltered (it was told from an empty row above, not from the band
before), which is one row's work. Everything else is zlib's, in C: fast enough in a browser tab's Python too.
"""

from __future__ import annotations

import struct
import zlib

SIGNATURE = b"\x89PNG\r\n\x1a\n"


class NotAPicture(ValueError):
    """The bytes are not a PNG this module can cut: 8-bit RGB or RGBA, not interlaced."""


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, from its header."""
    if not data.startswith(SIGNATURE) or len(data) < 24 or data[12:16] != b"IHDR":
        raise NotAPicture("not a PNG")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def chunks(data: bytes) -> tuple[tuple[int, int, int, int, int, int, int] | None, bytes]:
    """A PNG's header fields (IHDR: width, height, depth, colour type, compression, filter, interlace; None when
    there is none) and its image data (every IDAT chunk, joined), still compressed."""
    pos, idat, header = 8, [], None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR" and len(chunk) == 13:
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat.append(chunk)
        elif kind == b"IEND":
            break
    return header, b"".join(idat)


def _read(data: bytes) -> tuple[int, int, int, bytes]:
    """(width, height, bytes per pixel, the filtered rows one after another, each with its filter byte)."""
    width, height = png_size(data)
    header, idat = chunks(data)
    if header is None or header[2] != 8 or header[3] not in (2, 6) or header[6] != 0:
        raise NotAPicture(f"a PNG this module does not cut: {header}")
    bpp = 4 if header[3] == 6 else 3
    try:
        raw = zlib.decompress(idat)
    except zlib.error as exc:
        raise NotAPicture(f"damaged PNG data: {exc}") from None
    if len(raw) < height * (width * bpp + 1):
        raise NotAPicture("PNG data shorter than its header says")
    return width, height, bpp, raw


def opaque_rows(data: bytes) -> int | None:
    """How many rows from the top of an RGBA PNG have a fully opaque first pixel: where a captured control
    with a background of its own ends, on a surface cleared to transparent. None for a PNG without alpha."""
    width, height, bpp, raw = _read(data)
    if bpp != 4:
        return None
    stride, above = width * bpp + 1, 0
    for y in range(height):
        kind, alpha = raw[y * stride], raw[y * stride + 4]
        # The first pixel has nothing to its left: Sub and Paeth leave it as stored, Up adds the one above.
        if kind in (2, 4):
            alpha = (alpha + above) & 255
        elif kind == 3:
            alpha = (alpha + above // 2) & 255
        if alpha != 255:
            return y
        above = alpha
    return height


def _unfiltered_first(row: bytes, bpp: int) -> bytes:
    """The first row of an image (its filter byte first) stored unfiltered (filter 0): the row above it was
    empty, so Up leaves it as it is, and Paeth works as Sub."""
    kind, line = row[0], bytearray(row[1:])
    if kind in (1, 4):
        for i in range(bpp, len(line)):
            line[i] = (line[i] + line[i - bpp]) & 255
    elif kind == 3:
        for i in range(bpp, len(line)):
            line[i] = (line[i] + line[i - bpp] // 2) & 255
    elif kind not in (0, 2):
        raise NotAPicture(f"unknown PNG filter {kind}")
    return b"\x00" + bytes(line)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def _without_alpha(row: bytes, width: int) -> bytes:
    """A filtered RGBA row (its filter byte first) as the same row of RGB: every filter works channel by channel
    (a byte is told from the same channel of the pixel to its left and above), so the colours stay valid."""
    rgb = bytearray(width * 3)
    for channel in range(3):
        rgb[channel::3] = row[1 + channel::4]
    return row[:1] + bytes(rgb)


def join_bands(bands: list[tuple[bytes, int]], width: int, opaque: bool = False) -> bytes:
    """One PNG of the top left `width` pixels of each band's first `rows` rows, the bands one under another
    (`bands`: (PNG, rows) pairs, each PNG at least `width` wide and `rows` high, all of one colour type).
    `opaque`: every pixel kept is opaque, so the PNG is written without its alpha channel (smaller)."""
    if not bands or width <= 0:
        raise NotAPicture("nothing to join")
    out: list[bytes] = []
    kind = None
    for n, (data, rows) in enumerate(bands):
        w, h, bpp, raw = _read(data)
        if w < width or h < rows or rows <= 0:
            raise NotAPicture(f"a band of {w}×{h} has no {width}×{rows} to give")
        if kind is not None and bpp != kind:
            raise NotAPicture("bands of different colour types")
        kind = bpp
        stride, keep = w * bpp + 1, width * bpp + 1
        for y in range(rows):
            row = raw[y * stride:y * stride + keep]
            if y == 0 and n > 0:
                row = _unfiltered_first(row, bpp)
            out.append(_without_alpha(row, width) if opaque and bpp == 4 else row)
    height = sum(rows for _data, rows in bands)
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if kind == 4 and not opaque else 2, 0, 0, 0)
    return SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(b"".join(out), 9)) + _chunk(b"IEND", b"")
