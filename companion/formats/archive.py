"""Backups: all history as one zip of match files plus a CSV, and importing match files or such a zip."""

from __future__ import annotations

import io
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
"""The most a zip may unpack to in all: ten times a real history of 50,000 matches."""

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
    tmp.write_bytes(archive_bytes(library, tr) if data is None else data)
    tmp.replace(path)
    return path


def _open(source: Source) -> BinaryIO:
    return open(source, "rb") if isinstance(source, Path) else io.BytesIO(source)


def _read_capped(stream: BinaryIO, what: str) -> bytes:
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
                for name, text in _texts(file_name, source):
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
