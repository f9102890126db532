"""Syncing with a CouchDB server: the address, the bounded HTTP client and its transports, the errors."""

from .address import CouchAddress
from .couch import Changes, Check, Conflict, CouchClient, Written
from .errors import SyncError, SyncSays
from .transport import Answer, Transport, default_transport

__all__ = ["Answer", "Changes", "Check", "Conflict", "CouchAddress", "CouchClient", "SyncError", "SyncSays",
           "Transport", "Written", "default_transport"]
