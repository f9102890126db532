"""Syncing with a CouchDB server: the address, the bounded HTTP client and its transports, the errors."""

from .address import CouchAddress
from .errors import SyncError, SyncSays

__all__ = ["CouchAddress", "SyncError", "SyncSays"]
