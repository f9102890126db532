"""Backups: all history as one zip of match files plus a CSV, and importing match files or such a zip."""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

from .matchfile import MatchFileError
from .csv import history_csv


@dataclass
class ImportReport:
    """What an import did: matches stored, matches already there, and files that could not be read."""

    imported: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)


def _slug(text: str) -> str:
    keep = "".join(ch if ch.isalnum() else "-" for ch in text.casefold())
    return "-".join(part for part in keep.split("-") if part)[:40] or "match"


def archive_bytes(library: Any) -> bytes:
    """A zip of every stored match as a match file, plus `history.csv` of the finished ones.

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
        zf.writestr("history.csv", history_csv(records))
    return buffer.getvalue()


def export_archive(library: Any, folder: Path, now: datetime | None = None, data: bytes | None = None) -> Path:
    """Write the archive (`data`, when already made) into `folder` and return its path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    stamp = (now or datetime.now(timezone.utc)).strftime("%Y%m%d-%H%M%S")
    path = folder / f"xeri-history-{stamp}.zip"
    tmp = path.with_suffix(".zip.tmp")
    tmp.write_bytes(archive_bytes(library) if data is None else data)
    tmp.replace(path)
    return path


def _texts(name: str, data: bytes) -> Iterable[tuple[str, str]]:
    """The match files in one file: itself, or each `.json` inside a zip."""
    if data[:4] == b"PK\x03\x04":
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            for inner in sorted(zf.namelist()):
                if inner.endswith(".json"):
                    yield f"{name}:{inner}", zf.read(inner).decode("utf-8")
    else:
        yield name, data.decode("utf-8")


def import_files(library: Any, files: Iterable[tuple[str, bytes]]) -> ImportReport:
    """Import match files and archives given as (name, content) into the `Library`; a match already
    stored is skipped, a file that cannot be read is reported and the others still imported."""
    report = ImportReport()
    for file_name, data in files:
        try:
            items = list(_texts(file_name, data))
        except (UnicodeDecodeError, zipfile.BadZipFile) as exc:
            report.failed.append((file_name, str(exc)))
            continue
        for name, text in items:
            try:
                done = library.import_match(text)
            except (MatchFileError, json.JSONDecodeError) as exc:
                report.failed.append((name, str(exc)))
                continue
            (report.imported if done.arrival == "new" else report.skipped).append(name)
    return report


def import_paths(library: Any, paths: Iterable[Path]) -> ImportReport:
    """`import_files` for files on disk; a file that cannot be read is reported."""
    readable, unreadable = [], []
    for path in map(Path, paths):
        try:
            readable.append((path.name, path.read_bytes()))
        except OSError as exc:
            unreadable.append((str(path), exc.strerror or str(exc)))
    report = import_files(library, readable)
    report.failed[:0] = unreadable
    return report
