"""The service step between storage and the engine: load a match, let the engine change it, save it.

`Table` owns the matches in play (every decision a write makes: finished, live taps cleared, taken up
again, the revision guard); `Library` the stored matches as a whole, players and settings; `Backups` all
history out as one zip and match files back in. They reach storage only through the `MatchStorage`
protocol of `ports`, and never import flet or tinydb. The screens reach the data only through them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..clock import Clock, IdMaker, new_id, utc_now
from ..engine.names import PlayerError
from ..records import DamagedFile, MatchRecord, MatchSummary, Player, Revision, TrailAction, TrailEntry
from .backups import Backups, ImportReport, history_file_name
from .library import Arrival, Imported, Library
from .ports import (DamagedMatch, DiskFault, Fault, MatchStorage, NoSuchMatch, NoSuchPlayer, StorageError,
                    StoreClosed, StoreLocked)
from .group import Group
from .sync import Sync
from .table import StaleWrite, Table


@dataclass(frozen=True)
class Services:
    """Every use case of the app, over one storage backend: the matches in play, the library, backups.

    Built once per process by `companion.bootstrap`; the view models and the command line use only these.
    """

    table: Table
    library: Library
    backups: Backups
    sync: Sync | None = None
    """Keeping this device's matches in step with its group's (None where there is no folder to keep the
    group's documents in)."""
    group: Group | None = None
    """The group this device syncs with: join, test, show, leave."""

    @classmethod
    def over(cls, storage: MatchStorage, clock: Clock | None = None, make_id: IdMaker = new_id) -> Services:
        """The services over one storage backend, on `clock` (else the backend's, else the system's)."""
        clock = clock or getattr(storage, "clock", None) or utc_now
        library = Library(storage, clock, make_id)
        return cls(Table(storage, clock, make_id), library, Backups(library))


__all__ = [
    "Arrival", "Backups", "DamagedFile", "DamagedMatch", "DiskFault", "Fault", "ImportReport", "Imported", "Library",
    "MatchRecord", "MatchStorage", "MatchSummary", "NoSuchMatch", "NoSuchPlayer", "Player", "PlayerError", "Revision",
    "Services", "StaleWrite", "StorageError", "StoreClosed", "StoreLocked", "Table", "TrailAction", "TrailEntry",
    "history_file_name", "new_id", "utc_now",
]
