"""The data folder: where each file lives, atomic TinyDB files, and setting damaged files aside.

Layout (see docs/storage.md)::

    <data folder>/
      .lock               held by the one app process using the folder (filelock)
      settings.json       TinyDB, table "settings": one document
      players.json        TinyDB, table "players": one document per known player
      index/<xx>.json     TinyDB, table "matches": the summaries of the matches whose id starts with xx
      matches/<id>.json   TinyDB, table "match": one document, the whole match record
      bin/<id>.json       deleted matches, restorable until the store closes
      damaged/            files that could not be read, moved aside with a timestamp, never deleted
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterable, Mapping, MutableMapping

from tinydb import TinyDB
from tinydb.table import Document, Table

from ..records import DamagedFile
from .documents import match_name
from . import files
from .files import AtomicJSONStorage, CorruptFile, move_durably, read_json

log = logging.getLogger(__name__)

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


def data_dir() -> Path:
    """The data folder: `FLET_APP_STORAGE_DATA` (a packaged app), else `XERI_DATA_DIR`, else the user data folder."""
    for variable in ("FLET_APP_STORAGE_DATA", "XERI_DATA_DIR"):
        value = os.environ.get(variable, "").strip()
        if value:
            return Path(value).expanduser()
    import platformdirs   # here, not at the top: the browser build's store is in IndexedDB and ships no platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def db(path: Path) -> TinyDB:
    """A TinyDB over `path` whose every write replaces the file atomically."""
    return TinyDB(path, storage=AtomicJSONStorage)


def table_bytes(table: str, docs: Iterable[Mapping[str, Any]]) -> bytes:
    """A TinyDB file whose table holds exactly `docs`, numbered from 1."""
    return files.dump_bytes({table: {str(n): dict(doc) for n, doc in enumerate(docs, start=1)}})


def write_table(path: Path, table: str, docs: Iterable[Mapping[str, Any]]) -> None:
    """Replace `path` at once (atomically) with a TinyDB file whose table holds exactly `docs`, numbered
    from 1: what memory holds, written without reading the file first."""
    files.write_atomic(path, table_bytes(table, docs))


def write_tables(items: Iterable[tuple[Path, str, Iterable[Mapping[str, Any]]]]) -> None:
    """`write_table` for many files (path, table, docs), synced together (`files.write_many`)."""
    files.write_many([(path, table_bytes(table, docs)) for path, table, docs in items])


def replace_all(doc: Mapping[str, Any]) -> Callable[[MutableMapping], None]:
    """An update that makes a document `doc` (`Table.update` merges fields; clearing first replaces them)."""
    def replace(current: MutableMapping) -> None:
        current.clear()
        current.update(doc)

    return replace


def put_doc(table: Table, doc_id: int, doc: Mapping[str, Any]) -> None:
    """Replace document `doc_id` of the table with `doc`, or add it."""
    if not table.update(replace_all(doc), doc_ids=[doc_id]):
        table.insert(Document(doc, doc_id=doc_id))


def stamp(path: Path) -> list[int]:
    """What tells a file changed since it was indexed: [size, mtime_ns]."""
    st = path.stat()
    return [st.st_size, st.st_mtime_ns]


def reason(exc: BaseException) -> str:
    """Why a file could not be read, in words (the checks' messages already are)."""
    if isinstance(exc, CorruptFile):
        return exc.reason
    if isinstance(exc, ValueError):
        return str(exc)
    return f"the file does not have the expected shape ({type(exc).__name__}: {exc})"


def guess_name(path: Path) -> tuple[str | None, str | None]:
    """The side names and start time in a match file that failed its checks, if they can be read at all."""
    try:
        doc = read_json(path)
        record = next(iter(doc[MATCH_TABLE].values()))
        sides = [s["name"] for s in record["match"]["sides"]]
        created = record.get("created")
        if all(isinstance(s, str) for s in sides):
            return match_name(sides), created if isinstance(created, str) else None
    except Exception as exc:  # noqa: BLE001 - anything at all: only a better message for a file known to be bad
        log.debug("no names could be read from %s (%r)", path, exc)
    return None, None


class DataFolder:
    """The files of one data folder, and the damaged ones found in it (moved aside, never deleted)."""

    def __init__(self, path: Path, clock: Callable[[], str], read_only: bool = False):
        self.path = path
        self.clock = clock
        self.read_only = read_only
        """Nothing is written or moved: a damaged file is reported where it is (`unreadable`)."""
        self.damaged: list[DamagedFile] = []
        """Files that could not be read, found at open or later."""

    def match_path(self, match_id: str) -> Path:
        return self.path / MATCHES / f"{match_id}.json"

    def bin_path(self, match_id: str) -> Path:
        return self.path / BIN / f"{match_id}.json"

    def bucket_path(self, prefix: str) -> Path:
        return self.path / INDEX / f"{prefix}.json"

    def make_folder(self, name: str) -> None:
        """Make the folder `name` in the data folder; a file in its place is set aside first (kept)."""
        path = self.path / name
        if path.exists() and not path.is_dir():
            if name == DAMAGED:  # nowhere to set it aside to: it keeps its place under another name
                when = self.clock().replace("-", "").replace(":", "").replace(".", "")
                target = path.with_name(f"{name}.{when}.not-a-folder")
                move_durably(path, target)
                self.damaged.append(DamagedFile(path, target, "a file is where a folder should be"))
            else:
                (self.path / DAMAGED).mkdir(exist_ok=True)
                self.set_aside(path, "a file is where a folder should be")
        path.mkdir(exist_ok=True)

    def set_aside(self, path: Path, why: str, match_id: str | None = None, name: str | None = None,
                  created: str | None = None) -> DamagedFile:
        """Move a damaged file into `damaged/` with a timestamp, and remember it for the app to report."""
        if self.read_only:
            return self.unreadable(path, why, match_id)
        when = self.clock().replace("-", "").replace(":", "").replace(".", "")
        relative = path.relative_to(self.path)
        base = "-".join(relative.parts[:-1] + (path.stem,))
        target = self.path / DAMAGED / f"{base}.{when}{path.suffix}"
        n = 1
        while target.exists():
            n += 1
            target = self.path / DAMAGED / f"{base}.{when}-{n}{path.suffix}"
        if name is None and match_id is not None:
            name, created = guess_name(path)
        move_durably(path, target)
        damaged = DamagedFile(path, target, why, name, match_id, created)
        self.damaged.append(damaged)
        return damaged

    def unreadable(self, path: Path, why: str, match_id: str | None = None) -> DamagedFile:
        """A file of a newer schema is not damaged: it stays where it is, and is reported."""
        name, created = guess_name(path) if match_id is not None else (None, None)
        damaged = DamagedFile(path, None, why, name, match_id, created)
        self.damaged.append(damaged)
        return damaged

    def write(self, path: Path, table: str, change: Callable[[Table], Any],
              rebuild: Callable[[], Iterable[Mapping[str, Any]]],
              on_damage: Callable[[Path, str], Any] | None = None) -> None:
        """Change a table of `path`; if the file was damaged since it was read, set it aside (through
        `on_damage`, which may name what it held) and write `rebuild()` instead: memory holds all that the
        file should (the index, players, settings, or a match already read)."""
        try:
            change(db(path).table(table))
        except CorruptFile as exc:
            (on_damage or self.set_aside)(path, exc.reason)
            db(path).table(table).insert_multiple(rebuild())
