"""Durable storage on TinyDB: matches, known players and settings in one data folder (see docs/storage.md).

`Store` is the service's `MatchStorage` backend on a file system: documents in and out, the index,
players and settings; it never decides what a match becomes. The errors it raises are the port's.
"""

from ..engine.names import PlayerError
from ..service.ports import (DamagedMatch, DiskFault, Fault, NoSuchMatch, NoSuchPlayer, StorageError,
                             StoreClosed, StoreLocked)
from ..records import DamagedFile, MatchSummary, Player
from .documents import DEFAULT_SETTINGS
from .files import AtomicJSONStorage, CorruptFile
from .schema import SCHEMA, SchemaError, TooNew
from .store import Store, data_dir, utc_now

__all__ = [
    "DEFAULT_SETTINGS", "DamagedFile", "MatchSummary", "Player", "AtomicJSONStorage", "CorruptFile",
    "SCHEMA", "SchemaError", "TooNew", "DamagedMatch", "DiskFault", "Fault", "NoSuchMatch", "NoSuchPlayer",
    "PlayerError",
    "StorageError", "Store", "StoreClosed", "StoreLocked", "data_dir", "utc_now",
]
