"""The match store: the `MatchStorage` backend on a data folder of small TinyDB files (see folder.py).

Saving a hand rewrites the match's own file and its index bucket (a 256th of the index): neither grows
with the number of stored matches. The index is a cache of the match files and is rebuilt from them
when it is missing, damaged or out of date. The store keeps documents; it never decides what a match
becomes (that is the service's).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable, Mapping

from filelock import FileLock, Timeout
from tinydb import Query
from tinydb.table import Document

from ..engine.match import Standing, standing
from ..formats.matchfile import match_to_dict
from ..service.ports import DamagedMatch, NoSuchMatch, StorageError, StoreClosed, StoreLocked
from ..service.records import DamagedFile, MatchRecord, MatchSummary, Player
from ..service.table import utc_now
from .documents import (DocumentError, check_summary_doc, is_id, match_name, record_from_doc, record_to_doc,
                        summary_doc, summary_from_doc, with_names)
from .files import clean_temp_files, move_durably
from .folder import (BIN, DAMAGE, DAMAGED, DOC_ID, INDEX, INDEX_TABLE, LOCK_NAME, MATCH_TABLE, MATCHES, DataFolder,
                     data_dir, db, put_doc, reason, replace_all, stamp)
from .people import PlayerBook, SettingsFile
from .schema import TooNew

__all__ = ["Store", "data_dir"]

_UNSTAMPED = ("updated", "stamp")
"""Index fields that alone do not justify rewriting the index (a live tap changes only these)."""


def _bucket(match_id: str) -> str:
    return match_id[:2]


class Store:
    """Matches, known players and settings in one data folder, held by one process at a time.

    Every method is safe to call from several threads: one re-entrant lock (`lock`) serialises them.
    Every write replaces a small file atomically and durably before the method returns.
    """

    def __init__(self, folder: Path | str | None = None, *, clock: Callable[[], str] = utc_now):
        self.folder = Path(folder) if folder is not None else data_dir()
        """The data folder."""
        self.clock = clock
        """Where the store (and the services over it) take the time from."""
        self.lock = threading.RLock()
        """Serialises every method; the service holds it around each read-change-write of a match."""
        self._files = DataFolder(self.folder, clock)
        self.damaged: list[DamagedFile] = self._files.damaged
        """Files that could not be read, found at open or later; each was moved aside, never deleted."""
        self._closed = True
        self.folder.mkdir(parents=True, exist_ok=True)
        # thread_local=False: the store may be closed from another thread than the one that opened it.
        self._file_lock = FileLock(self.folder / LOCK_NAME, thread_local=False)
        try:
            self._file_lock.acquire(blocking=False)
        except Timeout:
            raise StoreLocked(self.folder) from None
        self._closed = False
        self._records: dict[str, MatchRecord] = {}
        self._index: dict[str, dict[str, Any]] = {}
        self._summaries: dict[str, tuple[dict[str, Any], int, MatchSummary]] = {}
        self._players = PlayerBook(self._files)
        self._settings = SettingsFile(self._files)
        try:
            self._open()
        except BaseException:
            self._closed = True
            self._file_lock.release()
            raise

    # --- opening and closing -------------------------------------------------------------------
    def _open(self) -> None:
        for name in (MATCHES, INDEX, BIN, DAMAGED):
            (self.folder / name).mkdir(exist_ok=True)
        for folder in (self.folder, self.folder / MATCHES, self.folder / INDEX, self.folder / BIN):
            clean_temp_files(folder)
        self._empty_bin()  # left by a session that ended without closing: its deletions stand
        self._settings.load()
        self._load_index()
        self._reconcile()
        self._players.load((pid, name) for s in self._index.values()
                           for ids, members in zip(s["player_ids"], s["members"]) for pid, name in zip(ids, members))

    def close(self) -> None:
        """Empty the bin and let another process open the folder. Closing twice is harmless."""
        with self.lock:
            if self._closed:
                return
            self._closed = True
            try:
                self._empty_bin()
            finally:
                self._file_lock.release()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        """True once `close()` was called."""
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed("the match store is closed")

    def _empty_bin(self) -> None:
        for path in (self.folder / BIN).glob("*.json"):
            path.unlink(missing_ok=True)

    def _set_aside_match(self, path: Path, why: str, match_id: str,
                         summary: Mapping[str, Any] | None = None) -> DamagedFile:
        """Set a damaged match file aside, named from its index entry when there is one."""
        if summary is not None:
            name = match_name(summary_from_doc(summary, self._players.names()).sides)
            return self._files.set_aside(path, why, match_id, name, summary["created"])
        return self._files.set_aside(path, why, match_id)

    # --- settings and players ------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """The settings: language, theme, last rules, keep awake, and whatever else was stored."""
        with self.lock:
            self._check_open()
            return dict(self._settings.values)

    def update_settings(self, **changes: Any) -> dict[str, Any]:
        """Change some settings and store them; returns every setting."""
        with self.lock:
            self._check_open()
            return self._settings.update(changes)

    def players(self) -> list[Player]:
        """Every known player, sorted by name."""
        with self.lock:
            self._check_open()
            return self._players.sorted()

    def player_id(self, name: str) -> str:
        """The id of the player called `name` (case does not matter); a new player if there is none."""
        with self.lock:
            self._check_open()
            return self._players.id_of(name)

    def rename_player(self, player_id: str, name: str) -> None:
        """Give a player a new name; stored matches keep the id, and show the new name when loaded."""
        with self.lock:
            self._check_open()
            if self._players.rename(player_id, name):
                self._records.clear()  # cached records and summaries carry the old name

    # --- the index -----------------------------------------------------------------------------
    def _load_index(self) -> None:
        for path in sorted((self.folder / INDEX).glob("*.json")):
            prefix = path.stem
            if len(prefix) != 2 or not is_id(prefix * 16):
                continue
            try:
                entries = {}
                for doc in db(path).table(INDEX_TABLE).all():
                    summary = check_summary_doc(dict(doc))
                    if _bucket(summary["id"]) != prefix:
                        raise DocumentError(f"the index entry of match {summary['id']} is in the wrong file")
                    entries[summary["id"]] = summary
            except TooNew as exc:
                # The index is only a cache of the match files: set it aside and rebuild it.
                self._files.set_aside(path, str(exc))
                continue
            except DAMAGE as exc:
                self._files.set_aside(path, reason(exc))
                continue
            self._index.update(entries)

    def _reconcile(self) -> None:
        """Bring the index in line with the match files; check every file changed since it was indexed."""
        on_disk = {p.stem: p for p in (self.folder / MATCHES).glob("*.json") if is_id(p.stem)}
        dirty: set[str] = set()
        for match_id in [m for m in self._index if m not in on_disk]:
            del self._index[match_id]
            dirty.add(_bucket(match_id))
        for match_id, path in sorted(on_disk.items()):
            summary = self._index.get(match_id)
            try:
                now = stamp(path)
                if summary is not None and summary["stamp"] == now:
                    continue
                record, updated = self._read_match(path)
            except TooNew as exc:
                self._files.unreadable(path, str(exc), match_id)
            except DAMAGE as exc:
                self._set_aside_match(path, reason(exc), match_id, summary)
            else:
                self._index[match_id] = summary_doc(record, updated, now)
                dirty.add(_bucket(match_id))
                continue
            if self._index.pop(match_id, None) is not None:
                dirty.add(_bucket(match_id))
        for prefix in sorted(dirty):
            self._rewrite_bucket(prefix)

    def _bucket_docs(self, prefix: str) -> list[dict[str, Any]]:
        return [s for m, s in sorted(self._index.items()) if _bucket(m) == prefix]

    def _rewrite_bucket(self, prefix: str) -> None:
        entries = self._bucket_docs(prefix)
        path = self._files.bucket_path(prefix)
        if not entries:
            path.unlink(missing_ok=True)
            return
        if path.exists():
            path.unlink()  # a fresh file, written once and atomically
        db(path).table(INDEX_TABLE).insert_multiple(entries)

    def _put_summary(self, summary: dict[str, Any]) -> None:
        match_id = summary["id"]
        old = self._index.get(match_id)
        self._index[match_id] = summary
        if old is not None and _significant(old) == _significant(summary):
            return  # only the time and the file stamp changed: the next open learns them again
        prefix = _bucket(match_id)
        self._files.write(self._files.bucket_path(prefix), INDEX_TABLE,
                          lambda t: t.update(replace_all(summary), Query().id == match_id) or t.insert(summary),
                          lambda: self._bucket_docs(prefix))

    def _drop_summary(self, match_id: str) -> None:
        if self._index.pop(match_id, None) is not None:
            prefix = _bucket(match_id)
            path = self._files.bucket_path(prefix)
            if path.exists():
                self._files.write(path, INDEX_TABLE, lambda t: t.remove(Query().id == match_id),
                                  lambda: self._bucket_docs(prefix))

    # --- match files ---------------------------------------------------------------------------
    def _read_match(self, path: Path) -> tuple[MatchRecord, str]:
        doc = db(path).table(MATCH_TABLE).get(doc_id=DOC_ID)
        if doc is None:
            raise DocumentError("the file holds no match")
        record, updated = record_from_doc(dict(doc))
        if record.id != path.stem:
            raise DocumentError(f"the file name does not match the match id {record.id}")
        return record, updated

    def _write_match(self, record: MatchRecord, st: Standing | None, new: bool = False) -> MatchRecord:
        """Write the record's file and its index entry. `st` is its standing (the index keeps totals,
        winner and status); None when only the live taps changed, which the index need not hear of.

        The match is turned into its document once, and the index's fingerprint is taken from that.
        """
        updated = self.clock()
        path = self._files.match_path(record.id)
        match_doc = match_to_dict(record.match)
        doc = Document(record_to_doc(record, updated, match_doc), doc_id=DOC_ID)
        if new or not path.exists():
            # Straight in: a file holding an empty table must never exist, even for an instant.
            db(path).table(MATCH_TABLE).insert(doc)
        else:
            # What memory holds was read and checked, so it is what to write if the file went bad meanwhile.
            self._files.write(path, MATCH_TABLE, lambda t: put_doc(t, DOC_ID, doc), lambda: [doc],
                              lambda p, why: self._set_aside_match(p, why, record.id, self._index.get(record.id)))
        self._records[record.id] = record
        if st is None and record.id in self._index:
            summary = {**self._index[record.id], "updated": updated, "stamp": stamp(path)}
        else:
            summary = summary_doc(record, updated, stamp(path), st or standing(record.match), match_doc)
        self._put_summary(summary)
        return record

    def _load(self, match_id: str) -> MatchRecord:
        """The stored record with today's player names; `NoSuchMatch`, or `DamagedMatch` after moving it aside."""
        record = self._records.get(match_id)
        if record is not None:
            return record
        if match_id not in self._index:
            raise NoSuchMatch(f"there is no match with id {match_id!r}")
        path = self._files.match_path(match_id)
        try:
            record, _ = self._read_match(path)
        except FileNotFoundError:
            self._drop_summary(match_id)
            raise NoSuchMatch(f"the match {match_id!r} is no longer stored") from None
        except TooNew as exc:
            self._drop_summary(match_id)
            raise DamagedMatch(self._files.unreadable(path, str(exc), match_id)) from None
        except DAMAGE as exc:
            summary = self._index[match_id]
            self._drop_summary(match_id)
            raise DamagedMatch(self._set_aside_match(path, reason(exc), match_id, summary)) from None
        record = with_names(record, self._players.names())
        self._records[match_id] = record
        return record

    # --- matches -------------------------------------------------------------------------------
    def add(self, record: MatchRecord, st: Standing) -> MatchRecord:
        """Store a new match record (its id must be new: see `is_taken`)."""
        with self.lock:
            self._check_open()
            if self.is_taken(record.id):
                raise StorageError(f"a match with id {record.id} is already stored")
            return self._write_match(with_names(record, self._players.names()), st, new=True)

    def put(self, record: MatchRecord, st: Standing | None) -> MatchRecord:
        """Replace a stored match record; `st` None when only its live taps changed."""
        with self.lock:
            self._check_open()
            if record.id not in self._index:
                raise NoSuchMatch(f"the match {record.id!r} is no longer stored")
            return self._write_match(record, st)

    def get(self, match_id: str) -> MatchRecord:
        """The stored match; `NoSuchMatch` if there is none, `DamagedMatch` if its file cannot be read."""
        with self.lock:
            self._check_open()
            return self._load(match_id)

    def list_matches(self) -> list[MatchSummary]:
        """Every stored match, newest first, from the index alone."""
        with self.lock:
            self._check_open()
            ordered = sorted(self._index.values(), key=lambda s: (s["created"], s["id"]), reverse=True)
            return [self._summary(s) for s in ordered]

    def _summary(self, doc: dict[str, Any]) -> MatchSummary:
        # History screens list often: build each summary again only when its entry or a name changed.
        cached = self._summaries.get(doc["id"])
        if cached is not None and cached[0] is doc and cached[1] == self._players.version:
            return cached[2]
        summary = summary_from_doc(doc, self._players.names())
        self._summaries[doc["id"]] = (doc, self._players.version, summary)
        return summary

    def find_same(self, fingerprint: str) -> MatchRecord | None:
        """The oldest readable stored match whose content has this fingerprint, if any."""
        with self.lock:
            self._check_open()
            for summary in sorted(self._index.values(), key=lambda s: s["created"]):
                if summary["fingerprint"] == fingerprint:
                    try:
                        return self._load(summary["id"])
                    except DamagedMatch:
                        continue
            return None

    def is_taken(self, match_id: str) -> bool:
        """True when the id is not a well-formed id, or a match (stored or in the bin) has it."""
        with self.lock:
            return (not is_id(match_id) or match_id in self._index or self._files.match_path(match_id).exists()
                    or self._files.bin_path(match_id).exists())

    def delete(self, match_id: str) -> None:
        """Move the match into the bin; `restore` brings it back until the store closes."""
        with self.lock:
            self._check_open()
            if match_id not in self._index:
                raise NoSuchMatch(f"there is no match with id {match_id!r}")
            try:
                move_durably(self._files.match_path(match_id), self._files.bin_path(match_id))
            except FileNotFoundError:
                pass  # a file already gone is as good as deleted
            self._records.pop(match_id, None)
            self._drop_summary(match_id)

    def restore(self, match_id: str) -> MatchRecord:
        """Bring a deleted match back from the bin."""
        with self.lock:
            self._check_open()
            binned = self._files.bin_path(match_id)
            if not is_id(match_id) or not binned.exists() or match_id in self._index:
                raise NoSuchMatch(f"there is no deleted match with id {match_id!r} to restore")
            path = self._files.match_path(match_id)
            move_durably(binned, path)
            try:
                record, updated = self._read_match(path)
            except DAMAGE as exc:
                raise DamagedMatch(self._files.set_aside(path, reason(exc), match_id)) from None
            self._put_summary(summary_doc(record, updated, stamp(path)))
            return self._load(match_id)


def _significant(summary: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in _UNSTAMPED}
