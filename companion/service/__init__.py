"""The service step between storage and the engine: load a match, let the engine change it, save it.

`Table` owns the matches in play (every decision a write makes: finished, live taps cleared, taken up
again, the revision guard); `Library` the stored matches as a whole, players and settings. Both reach
storage only through the `MatchStorage` protocol of `ports`, and never import flet or tinydb.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.names import PlayerError
from .library import Arrival, Imported, Library
from .ports import (DamagedMatch, DiskFault, Fault, MatchStorage, NoSuchMatch, NoSuchPlayer,
                    StorageError, StoreClosed, StoreLocked)
from .records import DamagedFile, MatchRecord, MatchSummary, Player, Revision, TrailAction, TrailEntry
from .table import StaleWrite, Table, new_id, utc_now


@dataclass(frozen=True)
class Services:
    """What the app's screens reach storage through: the matches in play and the library."""

    table: Table
    library: Library
    storage: MatchStorage

    @classmethod
    def over(cls, storage: MatchStorage) -> Services:
        """The services over one storage backend, on the backend's clock when it has one."""
        clock = getattr(storage, "clock", utc_now)
        return cls(Table(storage, clock), Library(storage, clock), storage)


__all__ = [
    "Arrival", "Imported", "Library", "DamagedMatch", "DiskFault", "Fault", "MatchStorage", "NoSuchMatch", "NoSuchPlayer", "PlayerError",
    "StorageError", "StoreClosed", "StoreLocked", "DamagedFile", "MatchRecord", "MatchSummary", "Player",
    "Revision", "TrailAction", "TrailEntry", "StaleWrite", "Table", "Services", "new_id", "utc_now",
]
