"""The match store: the `MatchStorage` backend on a data folder of small TinyDB files (see folder.py).

Saving a hand rewrites the match's own file and its index bucket (a 256th of the index): neither grows
with the number of stored matches. The index is a cache of the match files and is rebuilt from them
when it is missing, damaged or out of date. The store keeps documents; it never decides what a match
becomes (that is the service's).
"""

from __future__ import annotations

import logging
import threading
from contextvars import ContextVar
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator, Mapping

from tinydb.table import Document

from ..engine.match import Standing, standing
from ..formats.matchfile import match_to_dict
from ..history.scored import ScoredMatch, figures_doc, from_figures, score_record
from ..service.ports import DamagedMatch, NoSuchMatch, StorageError, StoreClosed
from ..records import DamagedFile, MatchRecord, MatchSummary, Player
from ..clock import utc_now
from .documents import (DocumentError, is_id, match_name, record_from_doc, record_to_doc, seal,
                        summary_doc, summary_from_doc, with_names)
from .files import clean_temp_files, disk_faults, folder_syncs_at_end, move_durably, write_atomic
from .folder import (BIN, DAMAGE, DAMAGED, DOC_ID, INDEX, INDEX_TABLE, MATCH_TABLE, MATCHES, DataFolder,
                     data_dir, db, put_doc, reason, stamp, write_table, write_tables)
from .index import Index, bucket_of, is_empty, read_buckets
from .lock import FolderLock
from .people import PlayerBook, SettingsFile
from .schema import TooNew

__all__ = ["Store", "data_dir"]

log = logging.getLogger(__name__)

_UNSTAMPED = ("updated", "stamp", "check")
"""Index fields that alone do not justify rewriting the index (a live tap changes only these)."""
FOLDERS = (DAMAGED, MATCHES, INDEX, BIN)
"""The folders inside the data folder, `damaged` first: a file in the place of another is moved into it."""


def _selected(doc: dict[str, Any], player: str | None, rules: str | None, empty: bool) -> bool:
    """Whether `Store.history` lists the history entry `doc` under these filters."""
    return ((player is None or any(player in ids for ids in doc["player_ids"]))
            and (rules is None or doc["rules"] == rules) and (empty or not is_empty(doc)))


class Store:
    """Matches, known players and settings in one data folder, held by one process at a time.

    Every method is safe to call from several threads: one re-entrant lock (`lock`) serialises them.
    Every write replaces a small file atomically and durably before the method returns. A write the disk
    refuses raises `DiskFault` and changes nothing that was saved; the index, a cache, is left to be
    rebuilt when only it could not be written.

    Opened with `read_only` (an export), it takes no lock and writes nothing, not even the index it
    rebuilds or a damaged file set aside: it reads a folder it may not write, or one another app is
    using. That is safe because every file here is replaced whole by a rename, never rewritten in
    place: each file read is one version of it, old or new, never half of each. A match the other app
    deletes meanwhile is `NoSuchMatch`, as for any reader.
    """

    HOLDS_LOCK = True
    """Whether the store holds the folder's lock file (`FolderLock`): one process at a time, and a folder deleted
    while the app runs noticed by it."""

    def __init__(self, folder: Path | str | None = None, *, clock: Callable[[], str] = utc_now,
                 read_only: bool = False):
        self.path = Path(folder) if folder is not None else data_dir()
        """The data folder, where this store keeps its files."""
        self.clock = clock
        """Where the store (and the services over it) take the time from."""
        self.read_only = read_only
        """Opened to read only: no lock, no write (see the class)."""
        self.lock = threading.RLock()
        """Serialises every method; the service holds it around each read-change-write of a match."""
        self._files = DataFolder(self.path, clock, read_only=read_only)
        self.damaged: list[DamagedFile] = self._files.damaged
        """Files that could not be read, found at open or later; each was moved aside, never deleted."""
        self.remade = 0
        """How many times the data folder was found deleted while the app ran, and made again."""
        self._closed = True
        self._file_lock = None if read_only or not self.HOLDS_LOCK else FolderLock(self.path)
        self._closed = False
        self._records: dict[str, MatchRecord] = {}
        self._index = Index()
        self._unsaved_buckets: set[str] = set()
        """Buckets memory holds but the disk refused: written again with the next write of the store."""
        self._batch: ContextVar[int] = ContextVar(f"xeri_store_batch_{id(self)}", default=0)
        """How deep this thread (or task: the browser build's round holds a batch across awaits, while the
        page saves in another task of the same thread) is in `batch`."""
        self._summaries: dict[str, tuple[dict[str, Any], int, MatchSummary]] = {}
        self._scored: dict[str, tuple[dict[str, Any], int, ScoredMatch]] = {}
        self._players = PlayerBook(self._files, deferred=self._in_batch)
        self._settings = SettingsFile(self._files)
        try:
            with self._disk("open the data folder"):
                self._open()
        except BaseException:
            self._closed = True
            if self._file_lock is not None:
                self._file_lock.release()
            raise

    # --- opening and closing -------------------------------------------------------------------
    def _open(self) -> None:
        if not self.read_only:
            for name in FOLDERS:
                self._files.make_folder(name)
            for folder in (self.path, self.path / MATCHES, self.path / INDEX, self.path / BIN):
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
            if self.read_only:  # nothing to write, no lock to let go
                return
            try:
                self._write_unsaved()
                self._empty_bin()
            except OSError as exc:  # the bin is emptied at the next open; the index rebuilt from the files
                log.warning("closing the data folder %s: %s", self.path, exc)
            finally:
                if self._file_lock is not None:
                    self._file_lock.release()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def folder(self) -> Path | None:
        """The data folder, for people: where to find the files and backups on this device."""
        return self.path

    @property
    def closed(self) -> bool:
        """True once `close()` was called."""
        return self._closed

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed("the match store is closed")

    def _disk(self, doing: str) -> AbstractContextManager[None]:
        """Turn what the disk refuses into a `DiskFault` saying what could not be done."""
        return disk_faults(doing, self.path)

    @contextmanager
    def _writing(self, doing: str) -> Iterator[None]:
        """A method that writes: the store open, the folder where it was (see `check_folder`), faults told."""
        with self.lock:
            self._check_open()
            if self.read_only:
                raise StorageError(f"could not {doing}: the data folder was opened to read only")
            with self._disk(doing):
                self.check_folder()
                yield

    def _empty_bin(self) -> None:
        for path in (self.path / BIN).glob("*.json"):
            if path.is_file():
                path.unlink(missing_ok=True)

    def _set_aside_match(self, path: Path, why: str, match_id: str,
                         summary: Mapping[str, Any] | None = None) -> DamagedFile:
        """Set a damaged match file aside, named from its index entry when there is one."""
        if summary is not None:
            name = match_name(summary_from_doc(summary, self._players.names()).sides)
            return self._files.set_aside(path, why, match_id, name, summary["created"])
        return self._files.set_aside(path, why, match_id)

    # --- the folder deleted while the app runs ----------------------------------------------------
    def check_folder(self) -> bool:
        """Make the data folder again if it was deleted (or replaced) while the app ran; True if it was.

        The lock file this store holds stays open, so its file cannot be reused: when the lock file at
        the folder's path is no longer that file, the folder went away. It is made again and locked
        again at once (so a second app cannot take it), and what memory holds is written back: the
        settings, the players, and the matches opened since the app started. Matches never opened are
        gone with the folder (a backup brings them back). `StoreLocked` when another app took the new
        folder first.
        """
        with self.lock:
            if self._closed or self._file_lock is None:   # read only, or a folder no other process sees
                return False
            if not self._file_lock.lost():
                return False
            log.warning("the data folder %s was deleted while the app ran: making it again", self.path)
            self._file_lock.take_again()
            self.remade += 1
            for name in FOLDERS:
                self._files.make_folder(name)
            for match_id in list(self._index):
                if match_id not in self._records:
                    self._index.pop(match_id)  # its file went with the folder
            self._settings.save()
            self._players.save()
            for record in list(self._records.values()):
                path = self._files.match_path(record.id)
                summary = self._index.get(record.id)
                doc = Document(record_to_doc(record, summary["updated"] if summary else self.clock()), doc_id=DOC_ID)
                db(path).table(MATCH_TABLE).insert(doc)
            self._unsaved_buckets |= {bucket_of(m) for m in self._index}
            self._write_unsaved()
            return True

    # --- figures kept between runs --------------------------------------------------------------
    def _kept_path(self, name: str) -> Path:
        if not name.replace("-", "").isalpha():
            raise ValueError(f"not a name for kept figures: {name!r}")
        return self.path / f"{name}.kept"

    def read_kept(self, name: str) -> bytes | None:
        """Figures worked out from the matches and kept under `name` (a cache: see `keep`), None when none are."""
        with self.lock:
            self._check_open()
            try:
                return self._kept_path(name).read_bytes()
            except OSError:
                return None

    def read_kept_with_key(self, name: str) -> tuple[str, bytes | None]:
        """`history_key` and `read_kept`, read together (no write between them)."""
        with self.lock:
            return self.history_key(), self.read_kept(name)

    def keep(self, name: str, data: bytes) -> None:
        """Keep figures worked out from the matches (`history.pages`), replacing those kept under `name`: a cache,
        never synced or exported, which its reader checks against the history's key. A read-only store keeps
        nothing."""
        with self.lock:
            self._check_open()
            if self.read_only:
                return
            with self._disk("keep the history's figures"):
                write_atomic(self._kept_path(name), data, tell=False)

    # --- settings and players ------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """The settings: language, theme, last rules, keep awake, and whatever else was stored."""
        with self.lock:
            self._check_open()
            return dict(self._settings.values)

    def update_settings(self, **changes: Any) -> dict[str, Any]:
        """Change some settings and store them; returns every setting."""
        with self._writing("save the settings"):
            return self._settings.update(changes)

    def players(self) -> list[Player]:
        """Every known player, sorted by name."""
        with self.lock:
            self._check_open()
            return self._players.sorted()

    def player_id(self, name: str) -> str:
        """The id of the player called `name` (case does not matter); a new player if there is none."""
        with self._writing("save the new player"):
            return self._players.id_of(name)

    def rename_player(self, player_id: str, name: str) -> None:
        """Give a player a new name; stored matches keep the id, and show the new name when loaded."""
        with self._writing("save the player's new name"):
            if self._players.rename(player_id, name):
                self._records.clear()  # cached records and summaries carry the old name

    # --- many writes as one --------------------------------------------------------------------
    def _in_batch(self) -> bool:
        return self._batch.get() > 0

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Many writes of this thread (or task) as one (an import): each match file is written as ever, but the
        index buckets and `players.json` are written once, at the end. A crash inside loses only index entries
        and players, which the next open rebuilds from the match files. Other threads and tasks write as ever."""
        depth = self._batch.get()
        token = self._batch.set(depth + 1)
        try:
            with folder_syncs_at_end():
                yield
        finally:
            self._batch.reset(token)
            if depth == 0:
                with self.lock:
                    if not self._closed:
                        self._players.save_if_held()
                        self._write_unsaved()

    # --- the index -----------------------------------------------------------------------------
    def _load_index(self) -> None:
        for entry in read_buckets(self.path / INDEX, self._files):
            self._index.put(entry)

    def _reconcile(self) -> None:
        """Bring the index in line with the match files; check every file changed since it was indexed."""
        on_disk = {p.stem: p for p in (self.path / MATCHES).glob("*.json") if is_id(p.stem)}
        dirty: set[str] = set()
        for match_id in [m for m in self._index if m not in on_disk]:
            self._index.pop(match_id)
            dirty.add(bucket_of(match_id))
        for match_id, path in sorted(on_disk.items()):
            summary = self._index.get(match_id)
            try:
                now = stamp(path)
                if summary is not None and summary["stamp"] == now:
                    continue
                record, updated = self._read_match(path)
            except FileNotFoundError:
                pass  # deleted since the folder was listed: by another app, when this store only reads
            except TooNew as exc:
                self._files.unreadable(path, str(exc), match_id)
            except DAMAGE as exc:
                if path.exists():  # else deleted while it was read (TinyDB reads a missing file as empty)
                    self._set_aside_match(path, reason(exc), match_id, summary)
            else:
                self._index.put(summary_doc(record, updated, now))
                dirty.add(bucket_of(match_id))
                continue
            if self._index.pop(match_id) is not None:
                dirty.add(bucket_of(match_id))
        self._unsaved_buckets |= dirty
        self._write_unsaved()

    def _write_bucket(self, prefix: str) -> None:
        """Write one bucket file from memory, or note it for later when the disk refuses: the index is a
        cache of the match files, so a save whose match file is written has succeeded."""
        if self._in_batch() or self.read_only:
            self._unsaved_buckets.add(prefix)
            return
        entries = self._index.bucket(prefix)
        path = self._files.bucket_path(prefix)
        try:
            if entries:
                write_table(path, INDEX_TABLE, entries)
            else:
                path.unlink(missing_ok=True)
        except OSError as exc:
            log.warning("the index file %s could not be written (%s); it is rebuilt when it can be", path, exc)
            self._unsaved_buckets.add(prefix)
        else:
            self._unsaved_buckets.discard(prefix)

    def _write_unsaved(self) -> None:
        prefixes = sorted(self._unsaved_buckets)
        if len(prefixes) > 1 and not self._in_batch():
            # Many at once (the end of a batch): synced together, far quicker than one by one.
            written = [(prefix, self._index.bucket(prefix)) for prefix in prefixes]
            try:
                write_tables([(self._files.bucket_path(prefix), INDEX_TABLE, entries)
                              for prefix, entries in written if entries])
            except OSError as exc:
                log.info("the index files could not be written together (%s): one by one", exc)
            else:
                self._unsaved_buckets -= {prefix for prefix, entries in written if entries}
        for prefix in sorted(self._unsaved_buckets):
            self._write_bucket(prefix)

    def _put_summary(self, summary: dict[str, Any]) -> None:
        old = self._index.put(seal(summary))
        prefix = bucket_of(summary["id"])
        if old is not None and _significant(old) == _significant(summary) and prefix not in self._unsaved_buckets:
            return  # only the time and the file stamp changed: the next open learns them again
        if self._in_batch():
            self._unsaved_buckets.add(prefix)  # written once, when the batch ends
            return
        self._write_bucket(prefix)
        self._write_unsaved()

    def _drop_summary(self, match_id: str) -> None:
        if self._index.pop(match_id) is not None:
            self._write_bucket(bucket_of(match_id))

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
        old = self._index.get(record.id)
        if st is None and old is not None:
            summary = {**old, "updated": updated, "stamp": stamp(path)}
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
        if not path.exists():
            self._drop_summary(match_id)
            raise NoSuchMatch(f"the match {match_id!r} is no longer stored")
        try:
            with self._disk("read the match"):
                record, _ = self._read_match(path)
        except TooNew as exc:
            self._drop_summary(match_id)
            raise DamagedMatch(self._files.unreadable(path, str(exc), match_id)) from None
        except DAMAGE as exc:
            summary = self._index.get(match_id)
            self._drop_summary(match_id)
            if not path.exists():  # deleted while it was read: by another app, when this store only reads
                raise NoSuchMatch(f"the match {match_id!r} is no longer stored") from None
            raise DamagedMatch(self._set_aside_match(path, reason(exc), match_id, summary)) from None
        record = with_names(record, self._players.names())
        self._records[match_id] = record
        return record

    # --- matches -------------------------------------------------------------------------------
    def add(self, record: MatchRecord, st: Standing) -> MatchRecord:
        """Store a new match record (its id must be new: see `is_taken`)."""
        with self._writing("save the new match"):
            if self.is_taken(record.id):
                raise StorageError(f"a match with id {record.id} is already stored")
            return self._write_match(with_names(record, self._players.names()), st, new=True)

    def put(self, record: MatchRecord, st: Standing | None) -> MatchRecord:
        """Replace a stored match record; `st` None when only its live taps changed."""
        with self._writing("save the match"):
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

    def history(self, *, player: str | None = None, rules: str | None = None, empty: bool = True,
                limit: int | None = None) -> list[MatchSummary]:
        """The history's matches (`MatchSummary.is_history`), newest first by `when` then id: those seating
        `player`, of the rule set `rules`, with or without the matches stopped before their first hand
        (`empty`), at most `limit`. Only the summaries returned are built: a page of a long history costs a page."""
        with self.lock:
            self._check_open()
            out: list[MatchSummary] = []
            for doc in self._index.history():
                if limit is not None and len(out) >= limit:
                    break
                if _selected(doc, player, rules, empty):
                    out.append(self._summary(doc))
            return out

    def history_count(self, *, player: str | None = None, rules: str | None = None, empty: bool = True) -> int:
        """How many matches `history` lists with these filters (and no limit), without building them."""
        with self.lock:
            self._check_open()
            if player is None and rules is None:
                return self._index.history_size(empty)
            return sum(1 for doc in self._index.history() if _selected(doc, player, rules, empty))

    def playing(self) -> list[MatchSummary]:
        """The matches in play (neither decided nor abandoned), any order."""
        with self.lock:
            self._check_open()
            return [self._summary(doc) for doc in self._index.playing()]

    def seen_players(self) -> set[str]:
        """The ids of the players some stored match seats."""
        with self.lock:
            self._check_open()
            return self._index.seen()

    def history_key(self) -> str:
        """A digest of the history's matches and when each last changed (see `Index.history_key`)."""
        with self.lock:
            self._check_open()
            return self._index.history_key()

    def updated(self, match_id: str) -> str | None:
        """When the stored match last changed, from the index alone (None when it is not stored)."""
        with self.lock:
            self._check_open()
            found = self._index.get(match_id)
            return str(found["updated"]) if found is not None else None

    def _summary(self, doc: dict[str, Any]) -> MatchSummary:
        # History screens list often: build each summary again only when its entry or a name changed.
        cached = self._summaries.get(doc["id"])
        if cached is not None and cached[0] is doc and cached[1] == self._players.version:
            return cached[2]
        summary = summary_from_doc(doc, self._players.names())
        self._summaries[doc["id"]] = (doc, self._players.version, summary)
        return summary

    def list_scored(self) -> list[ScoredMatch]:
        """The history (`MatchSummary.is_history`) scored, from the index alone: each entry keeps its match's
        figures, written with each save. Where an entry's figures cannot be read (the index is only a cache), the
        match file is scored instead and the entry put right; a match whose file cannot be read is left out."""
        with self.lock:
            self._check_open()
            out = []
            for doc in self._index.values():
                cached = self._scored.get(doc["id"])
                if cached is not None and cached[0] is doc and cached[1] == self._players.version:
                    out.append(cached[2])
                    continue
                summary = self._summary(doc)
                if not summary.is_history:
                    continue
                try:
                    scored = from_figures(summary, doc.get("figures"))
                except ValueError:
                    try:
                        record = self._load(summary.id)
                    except (DamagedMatch, NoSuchMatch):
                        continue
                    scored = score_record(record)
                    doc = seal({**doc, "figures": figures_doc(scored)})
                    self._put_summary(doc)
                    scored = from_figures(self._summary(doc), doc["figures"])
                self._scored[doc["id"]] = (doc, self._players.version, scored)
                out.append(scored)
            return out

    def scored_with_key(self) -> tuple[str, list[ScoredMatch]]:
        """`history_key` and `list_scored`, read together (no write between them): the figures of that very key."""
        with self.lock:
            return self.history_key(), self.list_scored()

    def find_same(self, fingerprint: str) -> MatchRecord | None:
        """The oldest readable stored match whose content has this fingerprint, if any."""
        with self.lock:
            self._check_open()
            for summary in self._index.with_fingerprint(fingerprint):
                try:
                    return self._load(summary["id"])
                except (DamagedMatch, NoSuchMatch):
                    continue
            return None

    def is_taken(self, match_id: str) -> bool:
        """True when the id is not a well-formed id, or a match (stored or in the bin) has it."""
        with self.lock:
            return (not is_id(match_id) or match_id in self._index or self._files.match_path(match_id).exists()
                    or self._files.bin_path(match_id).exists())

    def delete(self, match_id: str) -> None:
        """Move the match into the bin; `restore` brings it back until the store closes."""
        with self._writing("delete the match"):
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
        with self._writing("bring the match back"):
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
