"""Enough PNG reading (stdlib only) to ask a screenshot whether text was drawn: the browser tests check
that Hangul names show as letters, not as empty boxes."""

from __future__ import annotations

import zlib

from companion.ui.pngcut import chunks


def decode_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB(A) bytes) of an 8-bit, non-interlaced RGB or RGBA PNG (Chromium's)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    header, idat = chunks(data)
    assert header is not None, "a PNG without a header"
    width, height, depth, colour, _c, _f, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, f"unsupported PNG {header}"
    bpp = 4 if colour == 6 else 3
    raw, stride, rows, prev = zlib.decompress(idat), width * bpp, [], bytearray(width * bpp)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, [bytes(r if bpp == 3 else bytes(v for j, v in enumerate(r) if j % 4 != 3)) for r in rows]


def ink(data: bytes) -> frozenset[tuple[int, int]]:
    """The pixels of a screenshot that stand out from its most common colour (the background): the
    shapes of what is drawn on it, whatever its colours."""
    width, height, rows = decode_png(data)
    counts: dict[bytes, int] = {}
    for row in rows:
        for x in range(width):
            px = row[3 * x:3 * x + 3]
            counts[px] = counts.get(px, 0) + 1
    bg = max(counts, key=counts.get)
    return frozenset((x, y) for y, row in enumerate(rows) for x in range(width)
                     if sum(abs(row[3 * x + k] - bg[k]) for k in range(3)) > 120)


def label_shape(data: bytes, margin: int = 8) -> frozenset[tuple[int, int]]:
    """The ink `margin` px or more inside the edges (a label's, not its button's outline), moved to the
    top left corner: where on the button it sits, to a fraction of a pixel, does not count."""
    width, height, _rows = decode_png(data)
    inside = [(x, y) for x, y in ink(data) if margin <= x < width - margin and margin <= y < height - margin]
    if not inside:
        return frozenset()
    left, top = min(x for x, _ in inside), min(y for _, y in inside)
    return frozenset((x - left, y - top) for x, y in inside)


def unlike(a: frozenset, b: frozenset, share: float = 0.3) -> bool:
    """True when two shapes differ in more than `share` of their pixels: other letters, not the same
    boxes drawn a fraction of a pixel apart."""
    return len(a ^ b) > share * len(a | b)


def text_lines(shape: frozenset[tuple[int, int]], gap: int = 2) -> int:
    """How many lines of text a label's ink makes: bands of rows with ink, apart by `gap` or more empty rows
    (a name wrapped mid-word makes two)."""
    rows = sorted({y for _x, y in shape})
    if not rows:
        return 0
    return 1 + sum(1 for a, b in zip(rows, rows[1:]) if b - a > gap)
