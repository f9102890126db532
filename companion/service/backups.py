"""Backups: every stored match into one zip (match files plus the history CSV), and match files or such zips
back into the store."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from ..engine.messages import SaidError
from typing import TYPE_CHECKING

from ..formats.matchfile import MatchFileError
from ..i18n import ENGLISH, Translator
from .library import Arrival, Library
from .ports import NoSuchMatch

if TYPE_CHECKING:
    from ..formats.archive import Progress, Source

# The zip and CSV modules are imported by the methods that use them: no start-up screen exports or imports, and a
# first visit of the browser build paid for them before its first screen (`browser_build.SNAPSHOT_ALSO`).


@dataclass
class ImportReport:
    """What an import did: matches stored, matches already there, files that could not be read, matches
    stored as new because another match had their id, and the storage fault that stopped it, if one did."""

    imported: list[str] = field(default_factory=list)
    """Each file (or zip entry) stored as a new match."""
    skipped: list[str] = field(default_factory=list)
    """Each file whose match was already stored."""
    failed: list[tuple[str, SaidError]] = field(default_factory=list)
    """Each file (or zip entry) not imported, with why: `str()` says it in English, `Translator.say` in any."""
    differed: list[str] = field(default_factory=list)
    """Stored as new matches: a stored match had the file's id but other content (also in `imported`)."""
    stopped: Exception | None = None
    """The error that stopped the import (a full disk: a `StorageError`); what came before it is stored."""


def history_file_name(now: datetime | None = None) -> str:
    """The name of a history export, with when it was made: the same on every front door (the browser build's
    download had no date, so a second one was "xeri-history (1).zip")."""
    return f"xeri-history-{(now or datetime.now(UTC)).strftime('%Y%m%d-%H%M%S')}.zip"


class Backups:
    """All history out as one zip, and match files or history zips in."""

    def __init__(self, library: Library):
        self.library = library

    # --- out -----------------------------------------------------------------------------------------
    def archive(self, tr: Translator = ENGLISH) -> bytes:
        """A zip of every stored match as a match file, plus `history.csv` of the finished ones (its header in
        the words of `tr`)."""
        from ..formats.archive import archive_name, zip_bytes
        from ..history.csv import history_csv

        library = self.library
        files, records = [], []
        for s in sorted(library.matches(), key=lambda s: s.created):
            try:  # an export may run beside the app (it needs no lock): a match deleted meanwhile is left out
                files.append((archive_name(s.created, s.sides, s.id), library.export_match(s.id)))
                records.append(library.get(s.id))
            except NoSuchMatch:
                continue
        return zip_bytes([*files, ("history.csv", history_csv(records, tr))])

    def export(self, folder: Path, *, data: bytes | None = None, tr: Translator = ENGLISH,
               now: datetime | None = None) -> Path:
        """Write the archive (`data`, when already made) into `folder` and return its path. The file appears
        whole or not at all: it is written beside its name first."""
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / history_file_name(now)
        tmp = path.with_suffix(".zip.tmp")
        data = self.archive(tr) if data is None else data
        try:
            tmp.write_bytes(data)
            tmp.replace(path)
        except BaseException:
            # A full disk stops the write halfway: what was written is no export, and must not look like one.
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
            raise
        return path

    # --- in ------------------------------------------------------------------------------------------
    def import_files(self, files: Iterable[tuple[str, Source]], progress: Progress | None = None) -> ImportReport:
        """Import match files and archives given as (name, content or path).

        A match already stored is skipped, a file that cannot be read is reported and the others still
        imported. The storage writes its index and players once for the whole import (`Library.batch`), so
        the time grows with the number of matches, not its square. `progress(done, total)` is told after
        every match file. An error that is not a file's (a storage error: a full disk) stops the import and
        is kept in `stopped`, for the caller to tell (or to raise, when it is a bug); what came before it stays.
        """
        from ..formats.archive import count_match_files, match_texts

        files = list(files)
        total = count_match_files(files)
        report = ImportReport()
        done = 0
        try:
            with self.library.batch():
                for name, text in match_texts(files, report.failed):
                    done += 1
                    if isinstance(text, SaidError):
                        report.failed.append((name, text))
                    else:
                        self._import_one(name, text, report)
                    if progress is not None:
                        progress(min(done, total), total)
        except Exception as exc:  # noqa: BLE001 - handed to the caller in `stopped`, never dropped
            report.stopped = exc
        return report

    def import_paths(self, paths: Iterable[Path], progress: Progress | None = None) -> ImportReport:
        """`import_files` for files on disk, read as they are imported (a zip is never read whole)."""
        from ..formats.archive import sources

        return self.import_files(sources(paths), progress)

    def _import_one(self, name: str, text: str, report: ImportReport) -> None:
        try:
            done = self.library.import_match(text)
        except MatchFileError as exc:
            report.failed.append((name, exc))
            return
        if done.arrival is Arrival.KNOWN:
            report.skipped.append(name)
            return
        report.imported.append(name)
        if done.arrival is Arrival.DIFFERED:
            report.differed.append(name)
