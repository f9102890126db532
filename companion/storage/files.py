"""Durable files: a TinyDB storage that replaces its file atomically, and moving damaged files aside."""

from __future__ import annotations

import json
import logging
import os
import secrets
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any
from collections.abc import Callable, Iterator

from tinydb.storages import Storage

from ..service.ports import DiskFault

log = logging.getLogger(__name__)

TEMP_SUFFIX = ".tmp"
"""Temporary files are `.<name>.<random>.tmp` beside the file they will replace."""
changes = 0
"""How many files this process has replaced or moved: the browser build flushes to IndexedDB when it moved on
(`storage/browser.py`)."""
_listeners: list[Callable[[], None]] = []


class CorruptFile(ValueError):
    """A file that does not parse or does not have the shape its reader expects."""

    def __init__(self, path: Path, reason: str):
        super().__init__(f"{path.name}: {reason}")
        self.path = path
        """The file at fault."""
        self.reason = reason
        """What is wrong with it, in words."""


try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

_FULLFSYNC = getattr(fcntl, "F_FULLFSYNC", None)


def _fsync(fd: int) -> None:
    # On macOS and iOS fsync only reaches the drive's cache; F_FULLFSYNC reaches the medium.
    if _FULLFSYNC is not None:
        try:
            fcntl.fcntl(fd, _FULLFSYNC)
            return
        except OSError:
            pass
    os.fsync(fd)


def fsync_dir(folder: Path) -> None:
    """Make a rename or creation in `folder` durable (a no-op where folders cannot be opened)."""
    if os.name == "nt":  # Windows cannot open a directory; NTFS journals the rename itself.
        return
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


_pending: ContextVar[set[Path] | None] = ContextVar("xeri_folder_syncs", default=None)
"""The folders whose renames this thread or task makes durable at the end of `folder_syncs_at_end`. A context
variable, not a thread's: in the browser build every task runs in one thread, and a round that holds a batch
across awaits must not defer the fsync of a hand the page saves meanwhile."""


@contextmanager
def folder_syncs_at_end() -> Iterator[None]:
    """Within it, this thread's (or task's) `write_atomic` syncs each file as ever but each folder once, at the end.

    Many files written into one folder (an import) then cost one folder sync instead of one each. A
    crash before the end may lose renames (the new files, or the new versions), never a file's content:
    each file is synced before it is renamed, so what a rename shows is whole.
    """
    if _pending.get() is not None:
        yield  # already inside one: the outermost syncs
        return
    folders: set[Path] = set()
    token = _pending.set(folders)
    try:
        yield
    finally:
        _pending.reset(token)
        for folder in sorted(folders):
            fsync_dir(folder)


def _changed(tell: bool = True) -> None:
    global changes
    changes += 1
    if not tell:
        return
    for listener in tuple(_listeners):
        try:
            listener()
        except Exception:  # a listener's bug must not fail the write that already happened
            log.exception("a listener to this device's writes failed")


def on_change(listener: Callable[[], None]) -> Callable[[], None]:
    """Call `listener` after every file this process replaces or moves, in the writer's thread and context (it
    must be quick: the sync runner only wakes its loop). Returns what takes the listener away again."""
    _listeners.append(listener)

    def stop() -> None:
        if listener in _listeners:
            _listeners.remove(listener)
    return stop


def write_many(items: list[tuple[Path, bytes]], *, folders_now: bool = False) -> None:
    """`write_atomic` for many files at once: every temporary file is written, then each is synced, then each
    renamed over its file, then each folder synced once. The same promise per file (a crash leaves the old
    file or the new one, whole), for far less than a sync each: the first sync carries most of the data of
    the others with it (one journal commit instead of one a file). A failure removes the temporary files
    not renamed yet; the files renamed before it stay new. `folders_now`: the folders are synced before it
    returns even inside `folder_syncs_at_end` (a file whose rename must be durable before what follows)."""
    temps: list[tuple[Path, Path]] = []
    try:
        for path, data in items:
            tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
            temps.append((tmp, path))
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
        for tmp, _ in temps:
            fd = os.open(tmp, os.O_RDONLY | getattr(os, "O_BINARY", 0))
            try:
                _fsync(fd)
            finally:
                os.close(fd)
        while temps:
            tmp, path = temps[0]
            os.replace(tmp, path)
            temps.pop(0)
            _changed()
    except BaseException:
        for tmp, _ in temps:
            try:
                tmp.unlink()
            except OSError:
                pass
        raise
    folders = None if folders_now else _pending.get()
    for folder in sorted({path.parent for path, _ in items}):
        if folders is not None:
            folders.add(folder)
        else:
            fsync_dir(folder)


def write_atomic(path: Path, data: bytes, *, private: bool = False, tell: bool = True) -> None:
    """Replace `path` with `data`: write a temporary file beside it, fsync it, rename it over, fsync the folder.

    A crash at any moment leaves either the old file or the new one, never a mix; a stray temporary
    file may remain, and `clean_temp_files` removes it. `private`: only this device's user may read it
    (0600 from its first byte on: a file holding a password). `tell`: tell the listeners (`on_change`); a cache
    of figures worked out from the matches is no news to anyone (it still counts as a change in `changes`, so the
    browser build keeps it).
    """
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}{TEMP_SUFFIX}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600 if private else 0o644)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            _fsync(handle.fileno())
        os.replace(tmp, path)
        _changed(tell)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    folders = _pending.get()
    if folders is not None:
        folders.add(path.parent)
    else:
        fsync_dir(path.parent)


def move_durably(source: Path, target: Path) -> None:
    """Rename `source` to `target` (same file system) and make both folders remember it."""
    os.replace(source, target)
    _changed()
    fsync_dir(target.parent)
    if source.parent != target.parent:
        fsync_dir(source.parent)


def clean_temp_files(folder: Path) -> list[Path]:
    """Remove temporary files a crash left in `folder`; the files they were to replace are intact."""
    removed = []
    if folder.is_dir():
        for path in folder.glob(f".*{TEMP_SUFFIX}"):
            if not path.is_file():
                continue  # not one of ours: a folder named like a temporary file is left alone
            try:
                path.unlink()
                removed.append(path)
            except FileNotFoundError:
                pass
    return removed


def dump_bytes(data: Any) -> bytes:
    """The UTF-8 JSON of `data`, compact, names left readable."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def read_json(path: Path) -> Any:
    """The JSON in `path`; `CorruptFile` when it is not UTF-8 JSON, `FileNotFoundError` when it is gone."""
    try:
        raw = path.read_bytes()
    except IsADirectoryError:
        raise CorruptFile(path, "a folder is where this file should be") from None
    if not raw:
        raise CorruptFile(path, "the file is empty")
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise CorruptFile(path, "the file is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise CorruptFile(path, f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except RecursionError:
        raise CorruptFile(path, "JSON nested too deeply to be one of this app's files") from None


class AtomicJSONStorage(Storage):
    """A TinyDB storage like `JSONStorage`, but every write replaces the file atomically and durably.

    TinyDB's own `JSONStorage` truncates and rewrites its file in place, so a crash mid-write leaves a
    broken file. This one never holds the file open: each `read` parses it afresh, each `write` goes
    through `write_atomic`. Reading a file that is not a TinyDB document set raises `CorruptFile`.
    """

    def __init__(self, path: str | os.PathLike[str]):
        super().__init__()
        self.path = Path(path)
        """The file this storage keeps."""

    def read(self) -> dict[str, dict[str, Any]] | None:
        try:
            data = read_json(self.path)
        except FileNotFoundError:
            return None
        if not isinstance(data, dict) or not all(
                isinstance(table, dict) and all(isinstance(doc, dict) and key.isdigit() for key, doc in table.items())
                for table in data.values()):
            raise CorruptFile(self.path, "valid JSON, but not tables of documents")
        return data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        write_atomic(self.path, dump_bytes(data))


@contextmanager
def disk_faults(doing: str, folder: Path | None) -> Iterator[None]:
    """Turn what the disk refuses (an `OSError`) into a `DiskFault` saying what could not be done (`doing`)
    in the data folder `folder`."""
    try:
        yield
    except OSError as exc:
        raise DiskFault(doing, folder, exc) from exc
