"""The data folder held by one process at a time: its lock file, and noticing the folder deleted (or
replaced) while the app runs, because the lock file at its path is no longer the one held."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..service.ports import DiskFault, StoreLocked
from .folder import LOCK_NAME

if TYPE_CHECKING:
    from filelock import FileLock


def _identity(path: Path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_dev, st.st_ino


class FolderLock:
    """The lock of one data folder: `StoreLocked` when another app holds it."""

    def __init__(self, folder: Path):
        self.folder = folder
        self._lock, self._identity = self._take()

    def _take(self) -> tuple[FileLock, tuple[int, int]]:
        """Hold the folder's lock, noting which file it is: a folder deleted and made again has another."""
        from filelock import FileLock, Timeout   # imported by the stores that hold a lock (not a browser's)

        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            # thread_local=False: the store may be closed from another thread than the one that opened it.
            lock = FileLock(self.folder / LOCK_NAME, thread_local=False)
            lock.acquire(blocking=False)
        except Timeout:
            raise StoreLocked(self.folder) from None
        except OSError as exc:
            raise DiskFault("open the data folder", self.folder, exc) from None
        try:
            return lock, _identity(self.folder / LOCK_NAME)
        except OSError as exc:
            lock.release()
            raise DiskFault("open the data folder", self.folder, exc) from None

    def lost(self) -> bool:
        """True when the lock file at the folder's path is not the one held: the folder went away."""
        try:
            return _identity(self.folder / LOCK_NAME) != self._identity
        except OSError:
            return True

    def take_again(self) -> None:
        """Hold the lock of the folder now at the path (made again), then let the old one go."""
        old = self._lock
        self._lock, self._identity = self._take()
        old.release()

    def release(self) -> None:
        self._lock.release()
