"""Hostile zips made on the fly (nothing big is committed): many large entries, and many entries that share one
entry's data. Written by hand, so a zip of thousands of 5 MiB entries takes one compression, not thousands."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

MiB = 1024 * 1024
_DEFLATED, _DOS_DATE = 8, 0x21   # 1980-01-01: the date does not matter here


def _deflated(size: int, fill: bytes) -> tuple[bytes, int]:
    """`size` bytes of `fill` as a raw deflate stream (a zip's), and their CRC-32."""
    chunk = fill * (MiB // len(fill))
    squeeze = zlib.compressobj(9, zlib.DEFLATED, -15)
    parts, crc, left = [], 0, size
    while left > 0:
        piece = chunk[:left]
        parts.append(squeeze.compress(piece))
        crc = zlib.crc32(piece, crc)
        left -= len(piece)
    parts.append(squeeze.flush())
    return b"".join(parts), crc


def _local(name: bytes, crc: int, data: bytes, size: int) -> bytes:
    return struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, _DEFLATED, 0, _DOS_DATE, crc, len(data), size,
                       len(name), 0) + name + data


def _central(name: bytes, crc: int, data: bytes, size: int, offset: int) -> bytes:
    return struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, _DEFLATED, 0, _DOS_DATE, crc, len(data), size,
                       len(name), 0, 0, 0, 0, 0, offset) + name


def _end(entries: int, directory: int, at: int) -> bytes:
    return struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, entries, entries, directory, at, 0)


def many_entries(path: Path, entries: int, size: int = 5 * MiB, fill: bytes = b"\0", wrong_crc: bool = False) -> Path:
    """A zip of `entries` match files (`matches/00000.json`, …), each `size` bytes of `fill`; with `wrong_crc`,
    each entry fails its check only once it has been unpacked in full."""
    data, crc = _deflated(size, fill)
    crc ^= wrong_crc
    directory = []
    with open(path, "wb") as out:
        for k in range(entries):
            name = f"matches/{k:05d}.json".encode()
            directory.append(_central(name, crc, data, size, out.tell()))
            out.write(_local(name, crc, data, size))
        at = out.tell()
        listing = b"".join(directory)
        out.write(listing + _end(entries, len(listing), at))
    return path


def shared_entries(path: Path, entries: int, size: int = 5 * MiB, fill: bytes = b"\0") -> Path:
    """A zip whose directory lists `entries` match files that all point at one entry of `size` bytes of `fill`:
    each is unpacked in full, though the zip holds its data once."""
    data, crc = _deflated(size, fill)
    name = b"matches/same.json"
    local = _local(name, crc, data, size)
    listing = _central(name, crc, data, size, 0) * entries
    path.write_bytes(local + listing + _end(entries, len(listing), len(local)))
    return path
