"""One place that builds the app for every front door: the storage backend it is given, the services over
it, the history cache every phone shares, the clock, and the work that runs beside the screens.

The front doors (`ui.served` for the laptop's web server and Flet's window, `ui.browser_build` for the
app in a browser tab, `ui.inplace` for a packaged phone app, and `cli` for the command line) each choose
only their backend and how a page is drawn; what the app is made of is read here.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING
from pathlib import Path

from .clock import Clock, IdMaker, new_id
from .history.cache import HistoryCache
from .service import MatchStorage, Services, StorageError
from .service.group import Group
from .service.sync import Report, Sync

if TYPE_CHECKING:
    from .sync.runner import SyncRunner

log = logging.getLogger(__name__)

FOLDER_CHECK_SECONDS = 2.0
"""How often the running app makes sure its data folder is still there (see `Store.check_folder`)."""


@dataclass
class Parts:
    """The app as built for one process: every phone's session uses these same parts."""

    storage: MatchStorage
    """The backend. Only the front door touches it: to close it, or (in a browser tab) to wait until what
    was saved is kept. The screens reach the data through `services` alone."""
    services: Services
    """Every use case: the matches in play, the library, backups."""
    history: HistoryCache
    """The scored history, shared by every phone, so a player page adds figures up instead of reading files."""
    clock: Clock
    """Where the services take the time from."""
    writer: ThreadPoolExecutor | None = None
    """Where every phone's writes run, one at a time in the order they were handed over, off the event loop
    that serves the phones (see `start_background`); None where everything runs on one loop (a browser tab)."""
    runner: SyncRunner | None = None
    """Keeps this device in step with its group (when it is in one): see `companion.sync.runner`."""
    _stop: threading.Event = field(default_factory=threading.Event, repr=False)
    _listeners: list[Callable[[str], None]] = field(default_factory=list, repr=False)

    # --- news of the group ----------------------------------------------------------------------------
    def listen(self, listener: Callable[[str], None]) -> None:
        """Call `listener(match_id)` when a match changed because another device of the group changed it."""
        self._listeners.append(listener)

    def unlisten(self, listener: Callable[[str], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def tell(self, report: Report) -> None:
        """A round stored these matches, or heard of them: every phone showing one of them shows it again."""
        for match_id in sorted(report.stored | report.heard):
            for listener in list(self._listeners):
                try:
                    listener(match_id)
                except Exception:  # one phone's page gone wrong must not keep the news from the others
                    log.exception("telling a phone that match %s changed", match_id)

    def start_background(self) -> None:
        """Beside the screens, in threads: the writer, scoring the history ahead of time and keeping the player
        pages' figures for the next run whenever it changed, and (a data folder on disk) noticing the folder
        deleted while the app runs. Where there are no threads (a browser tab) the front door does the history's
        part step by step instead (`HistoryCache.follow_stepwise`)."""
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="xeri-writes")
        threading.Thread(target=self.history.follow, args=(self.services.library, self._stop), name="history-warm-up",
                         daemon=True).start()
        threading.Thread(target=_watch_folder, args=(self.storage.check_folder, self._stop),
                         name="data-folder-watch", daemon=True).start()
        if self.runner is not None:
            self.runner.start_thread()

    def close(self) -> None:
        """Stop the work beside the screens, let the writes handed over finish, and close the storage."""
        self._stop.set()
        if self.runner is not None:
            self.runner.stop()
        if self.writer is not None:
            self.writer.shutdown(wait=True)
        self.storage.close()

    def __enter__(self) -> Parts:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_PORT = sorted({*(name for name in dir(MatchStorage) if not name.startswith("_")), *MatchStorage.__annotations__})
"""What a storage backend must have (`MatchStorage`'s methods, properties and attributes)."""


def build(storage: MatchStorage, *, clock: Clock | None = None, make_id: IdMaker = new_id) -> Parts:
    """The app over `storage`, on `clock` (else the storage's own). What sync knows is kept beside the
    matches, in the storage's `sync/` (on disk, or the browser's folder)."""
    if not isinstance(storage, MatchStorage):  # a backend lacking part of the port: said now, not found out later
        missing = [name for name in _PORT if not hasattr(storage, name)]
        raise TypeError(f"{type(storage).__name__} is not a MatchStorage: it has no {', '.join(missing)}")
    clock = clock or storage.clock
    services = Services.over(storage, clock, make_id)
    if storage.read_only:  # an export reads only: no group, no replica
        return Parts(storage, services, HistoryCache(), clock)
    folder = storage.path
    from .storage import files
    from .storage.replica import SYNC, FolderReplica, GroupFile
    from .sync.runner import CouchConnector, SyncRunner

    replica = FolderReplica(Path(folder) / SYNC)
    sync = Sync(storage, replica, services.table, clock)
    services.library.told = sync.told
    services.table.ledger = replica   # a change to a match the group knows is written with its documents
    runner_box: list[SyncRunner] = []
    group = Group(GroupFile(Path(folder) / SYNC), CouchConnector(), sync,
                  changed=lambda: runner_box[0].poke() if runner_box else None)
    services = replace(services, sync=sync, group=group)
    parts = Parts(storage, services, HistoryCache(), clock)
    runner = SyncRunner(sync, group, files.on_change, parts.tell)
    runner_box.append(runner)
    parts.runner = runner
    return parts


def open_folder(folder: Path | str | None = None, *, read_only: bool = False) -> MatchStorage:
    """The data folder on this device's disk (see `companion.storage.folder.data_dir` for where it is), held
    by this process: `StoreLocked` when another app has it, `DiskFault` when the disk refuses. `read_only`:
    only read (an export), with no lock, beside a running app or on a folder that cannot be written."""
    from .storage import Store  # tinydb loads only for the front doors that keep data on disk

    return Store(folder, read_only=read_only)


def _watch_folder(check: Callable[[], object], stop: threading.Event) -> None:
    """Notice a data folder deleted while the app runs, even when nobody saves: it is made again and
    locked at once, so a second app cannot start on the same path meanwhile."""
    while not stop.wait(FOLDER_CHECK_SECONDS):
        try:
            check()
        except StorageError as exc:
            log.warning("%s", exc)
