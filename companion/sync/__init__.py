"""Syncing with a CouchDB server: the address, the bounded HTTP client (the calls the app makes, nothing more),
what its answers say, its transports, the errors."""

from .address import CouchAddress
from .answers import Changes, Check, Conflict, Written
from .couch import CouchClient
from .errors import Answer, SyncError, SyncSays
from .transport import Transport, default_transport

__all__ = ["Answer", "Changes", "Check", "Conflict", "CouchAddress", "CouchClient", "SyncError", "SyncSays",
           "Transport", "Written", "default_transport"]
