"""History zips and match files as bytes: reading every match file out of files and zips with bounded work
and memory, and writing a zip. What is stored and how is the service's (`service.backups`)."""

from __future__ import annotations

import io
import time
import unicodedata
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, BinaryIO, TypeVar

from ..engine.messages import SaidError, Says
from .matchfile import MAX_FILE_CHARS, size

MAX_ENTRY_BYTES = MAX_FILE_CHARS
"""The largest match file read from a zip or a file: no real one comes near (see `MAX_FILE_CHARS`)."""
MAX_ENTRIES = 50_001
"""The most entries a zip may list: an export of 50,000 matches has as many, and its history.csv."""
MAX_ARCHIVE_BYTES = 512 * 1024 * 1024
"""The most read from one zip in all, entries refused included: ten times a real history of 50,000 matches.
Every byte read costs time, whether it becomes a match or not: a zip of many large entries stops here."""
MAX_REFUSED_SECONDS = 20.0
"""The longest one zip may keep an import busy with entries that are not imported (reading them, then
refusing them): a real backup has few or none; a zip made of entries slow to refuse stops here."""
CHUNK_BYTES = 256 * 1024
"""How much of an entry is unpacked at a time, so that what is read is counted as it is read."""
_LOCAL_HEADER_BYTES = 30
"""The smallest a zip entry's local header can be: its data starts at least this far after its offset."""
clock = time.monotonic
"""Where the time limit reads the time (a test puts a clock of its own here)."""

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
    TOO_SLOW = ("the zip's entries that cannot be imported took more than {seconds} seconds to read; the entries "
                "from this one on were not read")
    OVERLAPPING = "entries of the zip share their data, as a zip made to exhaust memory does; it was not read"
    ENTRY_BROKEN = "the entry cannot be unpacked ({detail})"
    NOT_A_ZIP = "not a readable zip ({detail})"
    UNREADABLE = "cannot read the file ({detail})"


_E = TypeVar("_E", bound=BaseException)


class _Refused(SaidError):
    """One file or zip entry that is not read, and why."""


def forget_frames(failed: list[tuple[str, SaidError]], start: int) -> None:
    """Keep what the errors in `failed[start:]` say, not where they were raised: an error's traceback holds
    the frames it passed through, and with them the entry's bytes or text (a `JSONDecodeError` behind a
    refusal holds the whole text too). A report of a thousand refusals would keep them all."""
    for _, error in failed[start:]:
        _bare(error)


def _bare(error: _E) -> _E:
    """`error` without its traceback and the errors it was raised from (see `forget_frames`)."""
    error.__traceback__ = error.__context__ = error.__cause__ = None
    return error


@dataclass
class _Budget:
    """What reading one zip may still cost."""

    # The limits are read when a zip is opened (not when this class is made), so a test can lower them.
    bytes: int = field(default_factory=lambda: MAX_ARCHIVE_BYTES)
    """Bytes still to be read from its entries, refused ones included."""
    seconds: float = field(default_factory=lambda: MAX_REFUSED_SECONDS)
    """Seconds still to be spent on entries that are not imported."""


def _slug(text: str) -> str:
    """A file name's words from names as people write them: letters and digits kept whole, with their marks,
    in their own case (lowering changed letters: "İsmail" came out "i-smail", a final ς a σ), the rest a dash."""
    text = unicodedata.normalize("NFC", text)
    keep = "".join(ch if ch.isalnum() or unicodedata.category(ch).startswith("M") else "-" for ch in text)
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


def _read_capped(stream: IO[bytes], what: str, budget: _Budget | None = None) -> bytes:
    """At most `MAX_ENTRY_BYTES` of `stream`: the read stops there, whatever the zip says the size is. Each
    chunk is counted against `budget` as it is read, so an entry refused halfway still counts."""
    budget = budget if budget is not None else _Budget()
    parts: list[bytes] = []
    held = 0
    while held <= MAX_ENTRY_BYTES:
        part = stream.read(min(CHUNK_BYTES, MAX_ENTRY_BYTES + 1 - held))
        if not part:
            return b"".join(parts)
        held += len(part)
        budget.bytes -= len(part)
        parts.append(part)
        if budget.bytes < 0:
            break
    # Dropped before refusing: the refusal's traceback keeps this frame, and so whatever it still holds.
    parts.clear()
    del part
    if budget.bytes < 0:
        raise _Refused(ArchiveSays.UNPACKS_TOO_MUCH, size=size(MAX_ARCHIVE_BYTES))
    raise _Refused(ArchiveSays.TOO_BIG, name=what, size=size(MAX_ENTRY_BYTES))


def _text(data: bytes) -> str:
    """The text of a match file. A byte-order mark stays in it: `parse`, the one reader of match files, skips one
    (as `score` does), so a file is read the same way whichever command reads it."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass  # refused outside the handler: the decode error holds all the bytes, and would stay with the refusal
    raise _Refused(ArchiveSays.NOT_UTF8)


def _is_zip(source: Source) -> bool:
    with _open(source) as stream:
        return stream.read(4) == b"PK\x03\x04"


def _json_entries(zf: zipfile.ZipFile) -> list[zipfile.ZipInfo]:
    """The match files a zip lists, by name; the whole zip refused when it lists more entries than any
    history, or entries whose data overlap (a zip of a thousand entries pointing at one unpacks it a
    thousand times, though it holds it once)."""
    entries = zf.infolist()
    if len(entries) > MAX_ENTRIES:
        raise _Refused(ArchiveSays.TOO_MANY_ENTRIES, entries=len(entries), max=MAX_ENTRIES)
    placed = sorted(entries, key=lambda e: e.header_offset)
    for this, after in zip(placed, placed[1:]):
        if this.header_offset + _LOCAL_HEADER_BYTES + this.compress_size > after.header_offset:
            raise _Refused(ArchiveSays.OVERLAPPING)
    return [e for e in sorted(entries, key=lambda e: e.filename) if e.filename.endswith(".json") and not e.is_dir()]


def _count(name: str, source: Source) -> int:
    """How many match files a source holds (1 when it is not a readable zip: it is one file to report)."""
    try:
        if _is_zip(source):
            with _open(source) as stream, zipfile.ZipFile(stream) as zf:
                return len(_json_entries(zf))
    except (OSError, zipfile.BadZipFile, _Refused, ValueError, EOFError):
        pass  # `_texts` reports it, as one file
    return 1


def _texts(name: str, source: Source, failed: list[tuple[str, SaidError]]) -> Iterator[tuple[str, str | _Refused]]:
    """The match files in one file, one at a time: itself, or each `.json` inside a zip. A part that cannot
    be read comes as a `_Refused` in place of its text; only one entry is held in memory at a time.

    A zip's reading stops, saying so, once it has read `MAX_ARCHIVE_BYTES` (entries refused included) or
    spent `MAX_REFUSED_SECONDS` on entries not imported: those the reader refuses, and those the caller put
    in `failed` (the import's report) before it comes back for the next. No refusal keeps the frames it was raised in.
    """
    try:
        if not _is_zip(source):
            with _open(source) as stream:
                whole = _text(_read_capped(stream, name))
            failures = len(failed)
            yield name, whole
            forget_frames(failed, failures)
            return
        budget = _Budget()
        with _open(source) as raw, zipfile.ZipFile(raw) as zf:
            for entry in _json_entries(zf):
                where = f"{name}:{entry.filename}"
                if budget.seconds < 0:
                    yield where, _Refused(ArchiveSays.TOO_SLOW, seconds=round(MAX_REFUSED_SECONDS))
                    return
                started, failures = clock(), len(failed)
                text = _entry_text(zf, entry, budget)
                if isinstance(text, _Refused):
                    _bare(text)
                yield where, text
                forget_frames(failed, failures)
                if isinstance(text, _Refused) or len(failed) > failures:
                    budget.seconds -= clock() - started
                if budget.bytes < 0:
                    return  # the entry that went over was refused, saying that the rest is not read
                del text
    except _Refused as exc:
        yield name, _bare(exc)
    except (zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
        yield name, _Refused(ArchiveSays.NOT_A_ZIP, detail=str(exc))
    except OSError as exc:
        yield name, _Refused(ArchiveSays.UNREADABLE, detail=exc.strerror or str(exc))


def _entry_text(zf: zipfile.ZipFile, entry: zipfile.ZipInfo, budget: _Budget) -> str | _Refused:
    """The text of one zip entry, or why it is not read."""
    if entry.file_size > MAX_ENTRY_BYTES:
        # The zip reader never unpacks more than the size an entry declares: this one need not be unpacked.
        return _Refused(ArchiveSays.TOO_BIG, name=entry.filename, size=size(MAX_ENTRY_BYTES))
    try:
        with zf.open(entry) as stream:
            return _text(_read_capped(stream, entry.filename, budget))
    except _Refused as exc:
        return exc
    except (zipfile.BadZipFile, zlib.error, EOFError, RuntimeError, NotImplementedError, ValueError) as exc:
        # A broken, encrypted or oddly compressed entry: this one is reported, the others go on.
        # The zip reader's own words (`Bad CRC-32`) stay as it says them, inside the sentence.
        return _Refused(ArchiveSays.ENTRY_BROKEN, detail=str(exc))


def count_match_files(files: Iterable[tuple[str, Source]]) -> int:
    """How many match files the sources hold in all (a zip counts its `.json` entries, anything else 1)."""
    return sum(_count(name, source) for name, source in files)


def match_texts(files: Iterable[tuple[str, Source]],
                failed: list[tuple[str, SaidError]]) -> Iterator[tuple[str, str | Refused]]:
    """Every match file in the sources, one at a time, as (where, text): a file itself, or each `.json`
    entry of a zip (`zip name:entry name`). A part that cannot be read comes as a `Refused` saying why, in
    place of its text; only one entry is held in memory at a time. `failed` is where the caller keeps the
    files it could not use (its report): their time counts against a zip's limit, and their frames are
    let go (see `forget_frames`)."""
    for name, source in files:
        yield from _texts(name, source, failed)


def sources(paths: Iterable[Path]) -> list[tuple[str, Source]]:
    """Files on disk as sources to read, named by their file name (their path when they are not there)."""
    return [(path.name if path.exists() else str(path), path) for path in (Path(p) for p in paths)]


Refused = _Refused
"""One file or zip entry that is not read, and why (a `SaidError`)."""
