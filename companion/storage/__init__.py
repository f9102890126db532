"""Durable match storage on TinyDB: matches, known players and settings in one data folder.

The engine never imports this package; the UI's view model alone calls it. See docs/storage.md.
"""

from .documents import DEFAULT_SETTINGS, DamagedFile, MatchSummary, Player
from .files import AtomicJSONStorage, CorruptFile
from .schema import SCHEMA, SchemaError, TooNew
from .store import (
    DamagedMatch, NoSuchMatch, NoSuchPlayer, PlayerError, StorageError, Store, StoreClosed, StoreLocked,
    data_dir, utc_now,
)

__all__ = [
    "DEFAULT_SETTINGS", "DamagedFile", "MatchSummary", "Player", "AtomicJSONStorage", "CorruptFile",
    "SCHEMA", "SchemaError", "TooNew", "DamagedMatch", "NoSuchMatch", "NoSuchPlayer", "PlayerError",
    "StorageError", "Store", "StoreClosed", "StoreLocked", "data_dir", "utc_now",
]
