"""Backups: all history as one zip of match files plus a CSV, and importing match files or such a zip."""

from __future__ import annotations

import contextlib
import io
import time
import zipfile
import zlib
from dataclasses import dataclass, field
from datetime import datetime, UTC
from pathlib import Path
from typing import Any, BinaryIO
from collections.abc import Callable, Iterable, Iterator

from .matchfile import MAX_FILE_CHARS, MatchFileError, size
from ..engine.messages import SaidError, Says
from ..i18n import ENGLISH, Translator
from .csv import history_csv

MAX_ENTRY_BYTES = MAX_FILE_CHARS
"""The largest match file read from a zip or a file: no real one comes near (see `MAX_FILE_CHARS`)."""
MAX_ENTRIES = 50_000
"""The most entries a zip may list: an export of 50,000 matches has as many."""
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


@dataclass
class ImportReport:
    """What an import did: matches stored, matches already there, files that could not be read, matches
    stored as new because another match had their id, and the storage fault that stopped it, if one did."""

    imported: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[tuple[str, SaidError]] = field(default_factory=list)
    """Each file (or zip entry) not imported, with why: `str()` says it in English, `Translator.say` in any."""
    differed: list[str] = field(default_factory=list)
    """Stored as new matches: a stored match had the file's id but other content (also in `imported`)."""
    stopped: Exception | None = None
    """The error that stopped the import (a full disk: a `StorageError`); what came before it is stored."""

    def _forget_frames(self, start: int) -> None:
        """Keep what the errors in `failed[start:]` say, not where they were raised: an error's traceback
        holds the frames it passed through, and with them the entry's bytes or text (a `JSONDecodeError`
        behind a refusal holds the whole text too). A report of a thousand refusals would keep them all."""
        for _, error in self.failed[start:]:
            _bare(error)


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


class _Refused(SaidError):
    """One file or zip entry that is not read, and why."""


def _bare(error: BaseException) -> BaseException:
    """`error` without its traceback and the errors it was raised from (see `ImportReport._forget_frames`)."""
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
    keep = "".join(ch if ch.isalnum() else "-" for ch in text.casefold())
    return "-".join(part for part in keep.split("-") if part)[:40] or "match"


def archive_bytes(library: Any, tr: Translator = ENGLISH) -> bytes:
    """A zip of every stored match as a match file, plus `history.csv` of the finished ones (its header in
    the words of `tr`).

    `library` is the service's `Library` (anything with `matches`, `export_match` and `get`).
    """
    buffer = io.BytesIO()
    records = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        for summary in sorted(library.matches(), key=lambda s: s.created):
            text = library.export_match(summary.id)
            name = f"{summary.created[:10]}-{_slug('-'.join(summary.sides))}-{summary.id[:8]}.json"
            zf.writestr(f"matches/{name}", text)
            records.append(library.get(summary.id))
        zf.writestr("history.csv", history_csv(records, tr))
    return buffer.getvalue()


def export_archive(library: Any, folder: Path, now: datetime | None = None, data: bytes | None = None,
                   tr: Translator = ENGLISH) -> Path:
    """Write the archive (`data`, when already made) into `folder` and return its path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
    path = folder / f"xeri-history-{stamp}.zip"
    tmp = path.with_suffix(".zip.tmp")
    data = archive_bytes(library, tr) if data is None else data
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    except BaseException:
        # A full disk stops the write halfway: what was written is no export, and must not look like one.
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise
    return path


def _open(source: Source) -> BinaryIO:
    return open(source, "rb") if isinstance(source, Path) else io.BytesIO(source)


def _read_capped(stream: BinaryIO, what: str, budget: _Budget | None = None) -> bytes:
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


def _texts(name: str, source: Source, report: ImportReport) -> Iterator[tuple[str, str | _Refused]]:
    """The match files in one file, one at a time: itself, or each `.json` inside a zip. A part that cannot
    be read comes as a `_Refused` in place of its text; only one entry is held in memory at a time.

    A zip's reading stops, saying so, once it has read `MAX_ARCHIVE_BYTES` (entries refused included) or
    spent `MAX_REFUSED_SECONDS` on entries not imported: those the reader refuses, and those `report` has
    in `failed` when the caller comes back for the next. No refusal keeps the frames it was raised in.
    """
    try:
        if not _is_zip(source):
            with _open(source) as stream:
                text = _text(_read_capped(stream, name))
            failures = len(report.failed)
            yield name, text
            report._forget_frames(failures)
            return
        budget = _Budget()
        with _open(source) as raw, zipfile.ZipFile(raw) as zf:
            for entry in _json_entries(zf):
                where = f"{name}:{entry.filename}"
                if budget.seconds < 0:
                    yield where, _Refused(ArchiveSays.TOO_SLOW, seconds=round(MAX_REFUSED_SECONDS))
                    return
                started, failures = clock(), len(report.failed)
                text = _entry_text(zf, entry, budget)
                if isinstance(text, _Refused):
                    _bare(text)
                yield where, text
                report._forget_frames(failures)
                if isinstance(text, _Refused) or len(report.failed) > failures:
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


def import_files(library: Any, files: Iterable[tuple[str, Source]], progress: Progress | None = None) -> ImportReport:
    """Import match files and archives given as (name, content or path) into the `Library`.

    A match already stored is skipped, a file that cannot be read is reported and the others still
    imported. The storage writes its index and players once for the whole import (`Library.batch`), so
    the time grows with the number of matches, not its square. `progress(done, total)` is told after
    every match file. An error that is not a file's (a storage error: a full disk) stops the import and
    is kept in `stopped`, for the caller to tell (or to raise, when it is a bug); what came before it stays.
    """
    files = list(files)
    total = sum(_count(name, source) for name, source in files)
    report = ImportReport()
    done = 0
    try:
        with library.batch():
            for file_name, source in files:
                for name, text in _texts(file_name, source, report):
                    done += 1
                    if isinstance(text, _Refused):
                        report.failed.append((name, text))
                    else:
                        _import_one(library, name, text, report)
                    if progress is not None:
                        progress(min(done, total), total)
    except Exception as exc:  # noqa: BLE001 - handed to the caller in `stopped`, never dropped
        report.stopped = exc
    return report


def _import_one(library: Any, name: str, text: str, report: ImportReport) -> None:
    try:
        done = library.import_match(text)
    except MatchFileError as exc:
        report.failed.append((name, exc))
        return
    if done.arrival == "known":
        report.skipped.append(name)
        return
    report.imported.append(name)
    if done.arrival == "differed":
        report.differed.append(name)


def import_paths(library: Any, paths: Iterable[Path], progress: Progress | None = None) -> ImportReport:
    """`import_files` for files on disk, read as they are imported (a zip is never read whole)."""
    paths = [Path(p) for p in paths]
    return import_files(library, [(path.name if path.exists() else str(path), path) for path in paths], progress)
