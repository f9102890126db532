"""History zips and match files as bytes: reading every match file out of files and zips with bounded work
and memory, and writing a zip. What is stored and how is the service's (`service.backups`)."""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, BinaryIO

from ..engine.messages import SaidError, Says
from .matchfile import MAX_FILE_CHARS, size

MAX_ENTRY_BYTES = MAX_FILE_CHARS
"""The largest match file read from a zip or a file: no real one comes near (see `MAX_FILE_CHARS`)."""
MAX_ENTRIES = 50_000
"""The most entries a zip may list: an export of 50,000 matches has as many."""
MAX_ARCHIVE_BYTES = 512 * 1024 * 1024
"""The most a zip may unpack to in all: ten times a real history of 50,000 matches."""

Source = bytes | Path
"""A file to import: its content (from the browser), or its path (from the command line)."""
Progress = Callable[[int, int], None]
"""Told (match files done, match files in all) as an import goes on."""


class ArchiveSays(Says):
    """Why a file or a zip entry is not read."""

    __prefix__ = "error.archive"
    TOO_BIG = "{name} is larger than {size}; no match file is that big, so it was not read"
    NOT_UTF8 = "the file is not UTF-8 text"
    TOO_MANY_ENTRIES = "the zip lists {entries} entries; a history zip holds at most {max}"
    UNPACKS_TOO_MUCH = "the zip unpacks to more than {size}; the entries from this one on were not read"
    ENTRY_BROKEN = "the entry cannot be unpacked ({detail})"
    NOT_A_ZIP = "not a readable zip ({detail})"
    UNREADABLE = "cannot read the file ({detail})"


class _Refused(SaidError):
    """One file or zip entry that is not read, and why."""


def _slug(text: str) -> str:
    keep = "".join(ch if ch.isalnum() else "-" for ch in text.casefold())
    return "-".join(part for part in keep.split("-") if part)[:40] or "match"


def archive_name(created: str, sides: Iterable[str], match_id: str) -> str:
    """The name of a match's file inside a history zip: its date, its sides and the start of its id."""
    return f"matches/{created[:10]}-{_slug('-'.join(sides))}-{match_id[:8]}.json"


def zip_bytes(files: Iterable[tuple[str, str]]) -> bytes:
    """A zip (deflated) of the given (name, text) files, in that order, each as UTF-8."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in files:
            zf.writestr(name, text)
    return buffer.getvalue()


def _open(source: Source) -> BinaryIO:
    return open(source, "rb") if isinstance(source, Path) else io.BytesIO(source)


def _read_capped(stream: IO[bytes], what: str) -> bytes:
    """At most `MAX_ENTRY_BYTES` of `stream`: the read stops there, whatever the zip says the size is."""
    data = stream.read(MAX_ENTRY_BYTES + 1)
    if len(data) > MAX_ENTRY_BYTES:
        raise _Refused(ArchiveSays.TOO_BIG, name=what, size=size(MAX_ENTRY_BYTES))
    return data


def _text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")  # a byte-order mark, as some editors write, is not part of the text
    except UnicodeDecodeError:
        raise _Refused(ArchiveSays.NOT_UTF8) from None


def _is_zip(source: Source) -> bool:
    with _open(source) as stream:
        return stream.read(4) == b"PK\x03\x04"


def _json_entries(zf: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    entries = zf.infolist()
    if len(entries) > MAX_ENTRIES:
        raise _Refused(ArchiveSays.TOO_MANY_ENTRIES, entries=len(entries), max=MAX_ENTRIES)
    return [e for e in sorted(entries, key=lambda e: e.filename) if e.filename.endswith(".json") and not e.is_dir()]


def _count(name: str, source: Source) -> int:
    """How many match files a source holds (1 when it is not a readable zip: it is one file to report)."""
    try:
        if _is_zip(source):
            with zipfile.ZipFile(_open(source)) as zf:
                return len(_json_entries(zf))
    except (OSError, zipfile.BadZipFile, _Refused, ValueError, EOFError):
        pass
    return 1


def _texts(name: str, source: Source) -> Iterator[tuple[str, str | _Refused]]:
    """The match files in one file, one at a time: itself, or each `.json` inside a zip. A part that cannot
    be read comes as a `_Refused` in place of its text; only one entry is held in memory at a time."""
    try:
        if not _is_zip(source):
            with _open(source) as stream:
                yield name, _text(_read_capped(stream, name))
            return
        with zipfile.ZipFile(_open(source)) as zf:
            entries = _json_entries(zf)
            unpacked = 0
            for entry in entries:
                where = f"{name}:{entry.filename}"
                try:
                    with zf.open(entry) as stream:
                        data = _read_capped(stream, entry.filename)
                    unpacked += len(data)
                    if unpacked > MAX_ARCHIVE_BYTES:
                        yield where, _Refused(ArchiveSays.UNPACKS_TOO_MUCH, size=size(MAX_ARCHIVE_BYTES))
                        return
                    yield where, _text(data)
                except _Refused as exc:
                    yield where, exc
                except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError, ValueError) as exc:
                    # A broken, encrypted or oddly compressed entry: this one is reported, the others go on.
                    # The zip reader's own words (`Bad CRC-32`) stay as it says them, inside the sentence.
                    yield where, _Refused(ArchiveSays.ENTRY_BROKEN, detail=str(exc))
    except _Refused as exc:
        yield name, exc
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
        yield name, _Refused(ArchiveSays.NOT_A_ZIP, detail=str(exc))
    except OSError as exc:
        yield name, _Refused(ArchiveSays.UNREADABLE, detail=exc.strerror or str(exc))


def count_match_files(files: Iterable[tuple[str, Source]]) -> int:
    """How many match files the sources hold in all (a zip counts its `.json` entries, anything else 1)."""
    return sum(_count(name, source) for name, source in files)


def match_texts(files: Iterable[tuple[str, Source]]) -> Iterator[tuple[str, str | Refused]]:
    """Every match file in the sources, one at a time, as (where, text): a file itself, or each `.json`
    entry of a zip (`zip name:entry name`). A part that cannot be read comes as a `Refused` saying why, in
    place of its text; only one entry is held in memory at a time."""
    for name, source in files:
        yield from _texts(name, source)


def sources(paths: Iterable[Path]) -> list[tuple[str, Source]]:
    """Files on disk as sources to read, named by their file name (their path when they are not there)."""
    return [(path.name if path.exists() else str(path), path) for path in (Path(p) for p in paths)]


Refused = _Refused
"""One file or zip entry that is not read, and why (a `SaidError`)."""
