"""The match store: matches, known players and settings in a data folder of small TinyDB files.

Layout (see docs/storage.md)::

    <data folder>/
      .lock               held by the one app process using the folder (filelock)
      settings.json       TinyDB, table "settings": one document
      players.json        TinyDB, table "players": one document per known player
      index/<xx>.json     TinyDB, table "matches": the summaries of the matches whose id starts with xx
      matches/<id>.json   TinyDB, table "match": one document, the whole match record
      bin/<id>.json       deleted matches, restorable until the store closes
      damaged/            files that could not be read, moved aside with a timestamp, never deleted

Saving a hand rewrites the match's own file and its index bucket (a 256th of the index): neither
grows with the number of stored matches. The index is a cache of the match files and is rebuilt
from them when it is missing, damaged or out of date.
"""

from __future__ import annotations

import json
import os
import threading
import unicodedata
import uuid
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

import platformdirs
from filelock import FileLock, Timeout
from tinydb import Query, TinyDB
from tinydb.table import Document, Table

from ..engine.entry import HandEntry
from ..engine.live import LiveHand
from ..engine.match import Match, MatchError, MatchOver, Standing, edit_hand, record_hand, standing, undo_hand
from ..matchfile import dumps, loads
from ..records import MatchRecord, TrailEntry
from .csvsheet import sheet_csv
from .documents import (
    DEFAULT_SETTINGS, DamagedFile, DocumentError, MatchSummary, Player, check_setting, check_summary_doc,
    fingerprint, is_id, is_time, match_name, new_record, player_doc, player_from_doc, record_from_doc, record_to_doc,
    settings_doc, settings_from_doc, summary_doc, summary_from_doc, with_names,
)
from .files import AtomicJSONStorage, CorruptFile, clean_temp_files, move_durably, read_json
from .schema import TooNew

APP_NAME = "xeri-companion"
"""The folder name under the platform's user data folder."""
LOCK_NAME = ".lock"
MATCHES, INDEX, BIN, DAMAGED = "matches", "index", "bin", "damaged"
MATCH_TABLE, INDEX_TABLE, PLAYERS_TABLE, SETTINGS_TABLE = "match", "matches", "players", "settings"
DOC_ID = 1
"""The document id of the single document in a match file and in the settings file."""

DAMAGE = (ValueError, TypeError, LookupError, AttributeError, RecursionError)
"""What reading a malformed document can raise. `CorruptFile`, `DocumentError`, `SchemaError`,
`MatchFileError` and the engine's errors are all `ValueError`s; the others guard against shapes no
check foresaw, so a damaged file is moved aside rather than stopping the app."""

_UNSTAMPED = ("updated", "stamp")
"""Index fields that alone do not justify rewriting the index (a live tap changes only these)."""


class StorageError(RuntimeError):
    """Something the store cannot do; the message says what, in words a player understands."""


class StoreLocked(StorageError):
    """Another app process holds the data folder."""

    def __init__(self, folder: Path):
        super().__init__(f"Xeri Companion is already open with this data folder ({folder}); close it there first.")
        self.folder = folder
        """The data folder that is in use."""


class StoreClosed(StorageError):
    """The store was used after `close()`."""


class NoSuchMatch(StorageError, LookupError):
    """No stored match has this id (or, for `restore`, no deleted one)."""


class NoSuchPlayer(StorageError, LookupError):
    """No known player has this id."""


class PlayerError(ValueError):
    """A player name that cannot be used: empty, or already another player's."""


class DamagedMatch(StorageError):
    """A match file found damaged when opened; it was moved aside (see `damaged`)."""

    def __init__(self, damaged: DamagedFile):
        name = f" ({damaged.match_name})" if damaged.match_name else ""
        super().__init__(f"the match{name} could not be opened: {damaged.reason}; "
                         f"the file was kept as {damaged.new_path}")
        self.damaged = damaged
        """What was moved aside, and why."""


def utc_now() -> str:
    """Now, as ISO 8601 in UTC with milliseconds: `2025-03-01T20:15:42.123Z`."""
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def data_dir() -> Path:
    """The data folder: `FLET_APP_STORAGE_DATA` (a packaged app), else `XERI_DATA_DIR`, else the user data folder."""
    for variable in ("FLET_APP_STORAGE_DATA", "XERI_DATA_DIR"):
        value = os.environ.get(variable, "").strip()
        if value:
            return Path(value).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def _db(path: Path) -> TinyDB:
    return TinyDB(path, storage=AtomicJSONStorage)


def _replace(doc: Mapping[str, Any]) -> Callable[[dict], None]:
    # `Table.update` merges fields; clearing first makes it a replacement, still one atomic write.
    def replace_all(current: dict) -> None:
        current.clear()
        current.update(doc)

    return replace_all


def _put_doc(table: Table, doc_id: int, doc: Mapping[str, Any]) -> None:
    """Replace document `doc_id` of the table with `doc`, or add it."""
    if not table.update(_replace(doc), doc_ids=[doc_id]):
        table.insert(Document(doc, doc_id=doc_id))


def _stamp(path: Path) -> list[int]:
    st = path.stat()
    return [st.st_size, st.st_mtime_ns]


def _bucket(match_id: str) -> str:
    return match_id[:2]


class Store:
    """Matches, known players and settings in one data folder, held by one process at a time.

    Every method is safe to call from several threads: one re-entrant lock serialises them. Every
    write replaces a small file atomically and durably before the method returns.
    """

    def __init__(self, folder: Path | str | None = None, *, clock: Callable[[], str] = utc_now):
        self.folder = Path(folder) if folder is not None else data_dir()
        """The data folder."""
        self.damaged: list[DamagedFile] = []
        """Files that could not be read, found at open or later; each was moved aside, never deleted."""
        self._clock = clock
        self._lock = threading.RLock()
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
        self._players: dict[str, Player] = {}
        self._settings: dict[str, Any] = dict(DEFAULT_SETTINGS)
        self._summaries: dict[str, tuple[dict[str, Any], int, MatchSummary]] = {}
        self._names_version = 0
        self._names_cache: dict[str, str] | None = None
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
        self._load_settings()
        self._load_index()
        self._reconcile()
        self._load_players()

    def close(self) -> None:
        """Empty the bin and let another process open the folder. Closing twice is harmless."""
        with self._lock:
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

    def _now(self) -> str:
        return self._clock()

    def _empty_bin(self) -> None:
        for path in (self.folder / BIN).glob("*.json"):
            path.unlink(missing_ok=True)

    # --- damaged files -------------------------------------------------------------------------
    def _set_aside(self, path: Path, reason: str, summary: Mapping[str, Any] | None = None,
                   match_id: str | None = None) -> DamagedFile:
        stamp = self._now().replace("-", "").replace(":", "").replace(".", "")
        relative = path.relative_to(self.folder)
        base = "-".join(relative.parts[:-1] + (path.stem,))
        target = self.folder / DAMAGED / f"{base}.{stamp}{path.suffix}"
        n = 1
        while target.exists():
            n += 1
            target = self.folder / DAMAGED / f"{base}.{stamp}-{n}{path.suffix}"
        name, created = None, None
        if summary is not None:
            name, created = match_name(summary_from_doc(summary, self._names()).sides), summary["created"]
        elif match_id is not None:
            name, created = _guess_name(path)
        move_durably(path, target)
        damaged = DamagedFile(path, target, reason, name, match_id, created)
        self.damaged.append(damaged)
        return damaged

    def _unreadable(self, path: Path, reason: str, match_id: str | None = None) -> DamagedFile:
        # A file of a newer schema is not damaged: it stays where it is, and is reported.
        name, created = _guess_name(path) if match_id is not None else (None, None)
        damaged = DamagedFile(path, None, reason, name, match_id, created)
        self.damaged.append(damaged)
        return damaged

    def _write(self, path: Path, table: str, change: Callable[[Table], Any],
               rebuild: Callable[[], Iterable[Mapping[str, Any]]], match_id: str | None = None) -> None:
        """Change a table of `path`; if the file was damaged since it was read, set it aside and write `rebuild()`.

        Memory holds all that the file should: the index, players, settings, or a match already read.
        """
        try:
            change(_db(path).table(table))
        except CorruptFile as exc:
            self._set_aside(path, exc.reason, self._index.get(match_id) if match_id else None, match_id)
            _db(path).table(table).insert_multiple(rebuild())

    # --- settings ------------------------------------------------------------------------------
    def _settings_path(self) -> Path:
        return self.folder / "settings.json"

    def _load_settings(self) -> None:
        path = self._settings_path()
        if not path.exists():
            return
        try:
            doc = _db(path).table(SETTINGS_TABLE).get(doc_id=DOC_ID)
            if doc is not None:
                self._settings = settings_from_doc(dict(doc))
        except DAMAGE as exc:
            self._set_aside(path, _reason(exc))

    def settings(self) -> dict[str, Any]:
        """The settings: language, theme, last rules, keep awake, and whatever else was stored."""
        with self._lock:
            self._check_open()
            return dict(self._settings)

    def update_settings(self, **changes: Any) -> dict[str, Any]:
        """Change some settings and store them; returns every setting."""
        with self._lock:
            self._check_open()
            for key, value in changes.items():
                check_setting(key, value)
            values = {**self._settings, **changes}
            if values != self._settings:
                doc = settings_doc(values)
                self._write(self._settings_path(), SETTINGS_TABLE, lambda t: _put_doc(t, DOC_ID, doc),
                            lambda: [Document(doc, doc_id=DOC_ID)])
                self._settings = values
            return dict(self._settings)

    # --- players -------------------------------------------------------------------------------
    def _players_path(self) -> Path:
        return self.folder / "players.json"

    def _player_docs(self) -> list[dict[str, Any]]:
        return [player_doc(p) for p in sorted(self._players.values(), key=lambda p: p.id)]

    def _load_players(self) -> None:
        path = self._players_path()
        if path.exists():
            try:
                players = [player_from_doc(dict(doc)) for doc in _db(path).table(PLAYERS_TABLE).all()]
                self._players = {p.id: p for p in players}
                self._players_changed()
            except DAMAGE as exc:
                self._set_aside(path, _reason(exc))
        # Every player a stored match refers to is known, even if players.json was lost.
        missing: dict[str, Player] = {}
        for summary in self._index.values():
            for ids, members in zip(summary["player_ids"], summary["members"]):
                for pid, name in zip(ids, members):
                    if pid not in self._players and pid not in missing:
                        missing[pid] = Player(pid, name)
        if missing:
            self._players.update(missing)
            self._players_changed()
            docs = [player_doc(p) for p in missing.values()]
            self._write(path, PLAYERS_TABLE, lambda t: t.insert_multiple(docs), self._player_docs)

    def _names(self) -> dict[str, str]:
        """Player id -> today's name (kept until a player is added or renamed)."""
        if self._names_cache is None:
            self._names_cache = {p.id: p.name for p in self._players.values()}
        return self._names_cache

    def _players_changed(self) -> None:
        self._names_cache = None

    def players(self) -> list[Player]:
        """Every known player, sorted by name."""
        with self._lock:
            self._check_open()
            return sorted(self._players.values(), key=lambda p: (_sort_key(p.name), p.name, p.id))

    def _find_player(self, name: str) -> Player | None:
        key = name.casefold()
        return min((p for p in self._players.values() if p.name.casefold() == key), key=lambda p: p.id, default=None)

    def player_id(self, name: str) -> str:
        """The id of the player called `name` (case does not matter); a new player if there is none."""
        with self._lock:
            self._check_open()
            clean = _clean_name(name)
            found = self._find_player(clean)
            if found is not None:
                return found.id
            player = Player(uuid.uuid4().hex, clean)
            self._players[player.id] = player
            self._players_changed()
            try:
                self._write(self._players_path(), PLAYERS_TABLE, lambda t: t.insert(player_doc(player)),
                            self._player_docs)
            except BaseException:
                del self._players[player.id]
                self._players_changed()
                raise
            return player.id

    def rename_player(self, player_id: str, name: str) -> None:
        """Give a player a new name; stored matches keep the id, and show the new name when loaded."""
        with self._lock:
            self._check_open()
            player = self._players.get(player_id)
            if player is None:
                raise NoSuchPlayer(f"there is no player with id {player_id!r}")
            clean = _clean_name(name)
            other = self._find_player(clean)
            if other is not None and other.id != player_id:
                raise PlayerError(f"there is already a player called {other.name!r}")
            if clean == player.name:
                return
            self._players[player_id] = Player(player_id, clean)
            self._players_changed()
            doc = player_doc(self._players[player_id])
            try:
                self._write(self._players_path(), PLAYERS_TABLE,
                            lambda t: t.update(_replace(doc), Query().id == player_id) or t.insert(doc),
                            self._player_docs)
            except BaseException:
                self._players[player_id] = player
                self._players_changed()
                raise
            self._records.clear()  # cached records and summaries carry the old name
            self._names_version += 1

    # --- the index -----------------------------------------------------------------------------
    def _bucket_path(self, prefix: str) -> Path:
        return self.folder / INDEX / f"{prefix}.json"

    def _match_path(self, match_id: str) -> Path:
        return self.folder / MATCHES / f"{match_id}.json"

    def _load_index(self) -> None:
        for path in sorted((self.folder / INDEX).glob("*.json")):
            prefix = path.stem
            if len(prefix) != 2 or not is_id(prefix * 16):
                continue
            try:
                entries = {}
                for doc in _db(path).table(INDEX_TABLE).all():
                    summary = check_summary_doc(dict(doc))
                    if _bucket(summary["id"]) != prefix:
                        raise DocumentError(f"the index entry of match {summary['id']} is in the wrong file")
                    entries[summary["id"]] = summary
            except TooNew as exc:
                # The index is only a cache of the match files: set it aside and rebuild it.
                self._set_aside(path, str(exc))
                continue
            except DAMAGE as exc:
                self._set_aside(path, _reason(exc))
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
                stamp = _stamp(path)
                if summary is not None and summary["stamp"] == stamp:
                    continue
                record, updated = self._read_match(path)
            except TooNew as exc:
                self._unreadable(path, str(exc), match_id)
            except DAMAGE as exc:
                self._set_aside(path, _reason(exc), summary, match_id)
            else:
                self._index[match_id] = summary_doc(record, updated, stamp)
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
        path = self._bucket_path(prefix)
        if not entries:
            path.unlink(missing_ok=True)
            return
        if path.exists():
            path.unlink()  # a fresh file, written once and atomically
        _db(path).table(INDEX_TABLE).insert_multiple(entries)

    def _put_summary(self, summary: dict[str, Any]) -> None:
        match_id = summary["id"]
        old = self._index.get(match_id)
        self._index[match_id] = summary
        if old is not None and _significant(old) == _significant(summary):
            return  # only the time and the file stamp changed: the next open learns them again
        prefix = _bucket(match_id)
        self._write(self._bucket_path(prefix), INDEX_TABLE,
                    lambda t: t.update(_replace(summary), Query().id == match_id) or t.insert(summary),
                    lambda: self._bucket_docs(prefix))

    def _drop_summary(self, match_id: str) -> None:
        if self._index.pop(match_id, None) is not None:
            prefix = _bucket(match_id)
            path = self._bucket_path(prefix)
            if path.exists():
                self._write(path, INDEX_TABLE, lambda t: t.remove(Query().id == match_id),
                            lambda: self._bucket_docs(prefix))

    # --- match files ---------------------------------------------------------------------------
    def _read_match(self, path: Path) -> tuple[MatchRecord, str]:
        doc = _db(path).table(MATCH_TABLE).get(doc_id=DOC_ID)
        if doc is None:
            raise DocumentError("the file holds no match")
        record, updated = record_from_doc(dict(doc))
        if record.id != path.stem:
            raise DocumentError(f"the file name does not match the match id {record.id}")
        return record, updated

    def _write_match(self, record: MatchRecord, new: bool = False, st: Standing | None = None,
                     same_match: bool = False) -> MatchRecord:
        """Write the record, with `finished` set when the match is over and cleared when it is not.

        Pass the standing of `record.match` when it is known, or `same_match=True` when only the
        live taps changed: the engine scores every hand to compute a standing.
        """
        if not same_match:
            st = st or standing(record.match)
            finished = (record.finished or self._now()) if st.is_over else None
            if finished != record.finished:
                record = replace(record, finished=finished)
        updated = self._now()
        path = self._match_path(record.id)
        doc = Document(record_to_doc(record, updated), doc_id=DOC_ID)
        if new or not path.exists():
            # Straight in: a file holding an empty table must never exist, even for an instant.
            _db(path).table(MATCH_TABLE).insert(doc)
        else:
            # What memory holds was read and checked, so it is what to write if the file went bad meanwhile.
            self._write(path, MATCH_TABLE, lambda t: _put_doc(t, DOC_ID, doc), lambda: [doc], record.id)
        self._records[record.id] = record
        if same_match:
            summary = {**self._index[record.id], "updated": updated, "stamp": _stamp(path)}
        else:
            summary = summary_doc(record, updated, _stamp(path), st)
        self._put_summary(summary)
        return record

    def _load(self, match_id: str) -> MatchRecord:
        """The stored record with today's player names; `NoSuchMatch`, or `DamagedMatch` after moving it aside."""
        record = self._records.get(match_id)
        if record is not None:
            return record
        if match_id not in self._index:
            raise NoSuchMatch(f"there is no match with id {match_id!r}")
        path = self._match_path(match_id)
        try:
            record, _ = self._read_match(path)
        except FileNotFoundError:
            self._drop_summary(match_id)
            raise NoSuchMatch(f"the match {match_id!r} is no longer stored") from None
        except TooNew as exc:
            self._drop_summary(match_id)
            raise DamagedMatch(self._unreadable(path, str(exc), match_id)) from None
        except DAMAGE as exc:
            summary = self._index[match_id]
            self._drop_summary(match_id)
            raise DamagedMatch(self._set_aside(path, _reason(exc), summary, match_id)) from None
        record = with_names(record, self._names())
        self._records[match_id] = record
        return record

    # --- matches -------------------------------------------------------------------------------
    def create_match(self, match: Match) -> MatchRecord:
        """Store a new match; its players get ids by name (new players are created)."""
        with self._lock:
            self._check_open()
            checked = replace(match, hands=())
            for entry in match.hands:
                checked = record_hand(checked, entry)  # every hand is checked, as when played
            player_ids = tuple(tuple(self.player_id(name) for name in side.members) for side in match.sides)
            record = new_record(uuid.uuid4().hex, checked, self._now(), player_ids)
            record = with_names(record, self._names())
            return self._write_match(record, new=True)

    def get(self, match_id: str) -> MatchRecord:
        """The stored match; `NoSuchMatch` if there is none, `DamagedMatch` if its file cannot be read."""
        with self._lock:
            self._check_open()
            return self._load(match_id)

    def list_matches(self) -> list[MatchSummary]:
        """Every stored match, newest first, from the index alone."""
        with self._lock:
            self._check_open()
            ordered = sorted(self._index.values(), key=lambda s: (s["created"], s["id"]), reverse=True)
            return [self._summary(s) for s in ordered]

    def _summary(self, doc: dict[str, Any]) -> MatchSummary:
        # History screens list often: build each summary again only when its entry or a name changed.
        cached = self._summaries.get(doc["id"])
        if cached is not None and cached[0] is doc and cached[1] == self._names_version:
            return cached[2]
        summary = summary_from_doc(doc, self._names())
        self._summaries[doc["id"]] = (doc, self._names_version, summary)
        return summary

    def unfinished(self) -> MatchRecord | None:
        """The match to resume: the one played most recently that is still playing and not abandoned."""
        with self._lock:
            self._check_open()
            playing = [s for s in self._index.values() if s["status"] == "playing" and not s["abandoned"]]
            for summary in sorted(playing, key=lambda s: (s["updated"], s["created"], s["id"]), reverse=True):
                try:
                    return self._load(summary["id"])
                except (DamagedMatch, NoSuchMatch):
                    continue
            return None

    def record_hand(self, match_id: str, entry: HandEntry) -> MatchRecord:
        """Add a hand; `InvalidHand` or `MatchOver` leave everything as it was.

        Clears the live taps, sets `finished` when this hand decides the match, and takes up an
        abandoned match again.
        """
        with self._lock:
            self._check_open()
            record = self._load(match_id)
            match = record_hand(record.match, entry)
            return self._write_match(replace(record, match=match, live=LiveHand(), abandoned=False))

    def undo_hand(self, match_id: str) -> MatchRecord:
        """Take back the last hand; the trail keeps it."""
        with self._lock:
            self._check_open()
            record = self._load(match_id)
            match = undo_hand(record.match)
            index = len(match.hands)
            trail = record.trail + (TrailEntry("undo", index, record.match.hands[index], None, self._now()),)
            return self._write_match(replace(record, match=match, trail=trail))

    def edit_hand(self, match_id: str, index: int, entry: HandEntry) -> MatchRecord:
        """Replace hand `index` (0-based); the trail keeps what it was and what it became."""
        with self._lock:
            self._check_open()
            record = self._load(match_id)
            match = edit_hand(record.match, index, entry)
            before = record.match.hands[index]
            if before == entry:
                return record
            trail = record.trail + (TrailEntry("edit", index, before, entry, self._now()),)
            return self._write_match(replace(record, match=match, trail=trail))

    def set_live(self, match_id: str, live: LiveHand) -> MatchRecord:
        """Keep the xeris tapped during the hand in progress, so a restart resumes mid-hand."""
        with self._lock:
            self._check_open()
            record = self._load(match_id)
            summary = self._index[match_id]
            if summary["status"] != "playing":  # the index knows, and a tap must not wait for a standing
                raise MatchOver("the match is over: there is no hand in progress", summary["hands"] - 1)
            seats = len(record.match.seats)
            for tap in live.taps:
                if not 0 <= tap.seat < seats:
                    raise MatchError(f"there is no seat {tap.seat} at this table; seats are 0 to {seats - 1}")
            if live == record.live:
                return record
            return self._write_match(replace(record, live=live), same_match=True)

    def abandon(self, match_id: str) -> MatchRecord:
        """Mark a match the table stopped unfinished (it can be resumed); a finished match is left as it is."""
        with self._lock:
            self._check_open()
            record = self._load(match_id)
            if record.abandoned or record.finished is not None:
                return record
            return self._write_match(replace(record, abandoned=True))

    def resume(self, match_id: str) -> MatchRecord:
        """Take an abandoned match up again."""
        with self._lock:
            self._check_open()
            record = self._load(match_id)
            if not record.abandoned:
                return record
            return self._write_match(replace(record, abandoned=False))

    def delete(self, match_id: str) -> None:
        """Move the match into the bin; `restore` brings it back until the store closes."""
        with self._lock:
            self._check_open()
            if match_id not in self._index:
                raise NoSuchMatch(f"there is no match with id {match_id!r}")
            try:
                move_durably(self._match_path(match_id), self.folder / BIN / f"{match_id}.json")
            except FileNotFoundError:
                pass  # a file already gone is as good as deleted
            self._records.pop(match_id, None)
            self._drop_summary(match_id)

    def restore(self, match_id: str) -> MatchRecord:
        """Bring a deleted match back from the bin."""
        with self._lock:
            self._check_open()
            binned = self.folder / BIN / f"{match_id}.json"
            if not is_id(match_id) or not binned.exists() or match_id in self._index:
                raise NoSuchMatch(f"there is no deleted match with id {match_id!r} to restore")
            path = self._match_path(match_id)
            move_durably(binned, path)
            try:
                record, updated = self._read_match(path)
            except DAMAGE as exc:
                raise DamagedMatch(self._set_aside(path, _reason(exc), None, match_id)) from None
            self._put_summary(summary_doc(record, updated, _stamp(path)))
            return self._load(match_id)

    # --- import and export ---------------------------------------------------------------------
    def export_match(self, match_id: str) -> str:
        """The match file (docs/match-file.md) of a stored match, with its id and times in `meta`."""
        with self._lock:
            record = self.get(match_id)
            return dumps(record.match, meta={"id": record.id, "created": record.created, "finished": record.finished,
                                             "abandoned": record.abandoned})

    def import_match(self, text: str) -> MatchRecord:
        """Store the match in a match file; `MatchFileError` if it cannot be read.

        A match already stored (the same `meta.id`, or the same content) is returned, not stored twice.
        """
        match = loads(text)
        meta = json.loads(text).get("meta")
        meta = meta if isinstance(meta, dict) else {}
        with self._lock:
            self._check_open()
            wanted = meta.get("id")
            if is_id(wanted) and wanted in self._index:
                try:
                    return self._load(wanted)
                except DamagedMatch:
                    pass  # the stored copy was damaged: this file brings the match back
            print_ = fingerprint(match)
            for summary in sorted(self._index.values(), key=lambda s: s["created"]):
                if summary["fingerprint"] == print_:
                    try:
                        return self._load(summary["id"])
                    except DamagedMatch:
                        continue
            taken = (not is_id(wanted) or wanted in self._index or self._match_path(wanted).exists()
                     or (self.folder / BIN / f"{wanted}.json").exists())
            match_id = uuid.uuid4().hex if taken else wanted
            created = meta.get("created") if is_time(meta.get("created")) else self._now()
            finished = meta.get("finished") if is_time(meta.get("finished")) else None
            player_ids = tuple(tuple(self.player_id(name) for name in side.members) for side in match.sides)
            record = new_record(match_id, match, created, player_ids, finished)
            if meta.get("abandoned") is True and not standing(match, strict=False).is_over:
                record = replace(record, abandoned=True)
            record = with_names(record, self._names())
            return self._write_match(record, new=True)

    def export_csv(self, match_id: str) -> str:
        """The score sheet as CSV: one row per hand, each side's points and running total."""
        with self._lock:
            return sheet_csv(self.get(match_id).match)


# --- helpers -----------------------------------------------------------------------------------

def _significant(summary: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in _UNSTAMPED}


def _reason(exc: BaseException) -> str:
    """Why a file could not be read, in words (the checks' messages already are)."""
    if isinstance(exc, CorruptFile):
        return exc.reason
    if isinstance(exc, ValueError):
        return str(exc)
    return f"the file does not have the expected shape ({type(exc).__name__}: {exc})"


def _sort_key(name: str) -> str:
    # Greek names are typed with and without accents (Άννα, Αννα): sort them together.
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _clean_name(name: str) -> str:
    clean = " ".join(str(name).split())
    if not clean:
        raise PlayerError("a player needs a name")
    return clean


def _guess_name(path: Path) -> tuple[str | None, str | None]:
    """The side names and start time in a match file that failed its checks, if they can be read at all."""
    try:
        doc = read_json(path)
        record = next(iter(doc[MATCH_TABLE].values()))
        sides = [s["name"] for s in record["match"]["sides"]]
        created = record.get("created")
        if all(isinstance(s, str) for s in sides):
            return match_name(sides), created if isinstance(created, str) else None
    except Exception:  # anything at all: this is only a better message for a file already known to be bad
        pass
    return None, None

