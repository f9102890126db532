"""What a CouchDB server's answers say, as values the client hands back (`couch.CouchClient`): checked
before they are made, so nothing past the client sees a raw answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .errors import SyncError


Seq = int | str
"""Where a `_changes` feed is: opaque, handed back to the server as it came (`since`)."""
Doc = dict[str, Any]
"""A document as CouchDB holds it: `_id`, `_rev`, and maybe `_deleted`."""


@dataclass(frozen=True)
class ServerInfo:
    """What `GET /` says about the server."""

    version: str
    """Its version (`3.3.3` for Apache CouchDB, `4.2.0` for PouchDB Server)."""
    vendor: str | None
    """Who made it, if it says."""


@dataclass(frozen=True)
class Session:
    """Who the server takes the client for (`GET /_session`)."""

    name: str | None
    """The signed-in user; None: no one (the server did not take the credentials, or none were given)."""
    roles: tuple[str, ...]
    """The user's roles; `_admin` for a server admin."""

    @property
    def is_admin(self) -> bool:
        """May this user create databases and set who may use them?"""
        return "_admin" in self.roles


@dataclass(frozen=True)
class DatabaseInfo:
    """What `GET /{db}` says about the database."""

    name: str
    """Its name."""
    doc_count: int
    """How many documents it holds (deleted ones left out)."""
    update_seq: Seq
    """Its latest update sequence."""


@dataclass(frozen=True)
class Written:
    """A revision the server stored."""

    id: str
    """The document's id."""
    rev: str
    """Its new revision: the `_rev` to give with the next change."""


@dataclass(frozen=True)
class Conflict:
    """Not written: the document is at another revision than the one given. Read it again and merge."""

    id: str
    """The document's id."""


@dataclass(frozen=True)
class Rejected:
    """A document of a bulk write the server refused for a reason other than a conflict."""

    id: str
    """The document's id."""
    error: str
    """CouchDB's word for why (`forbidden`, `unauthorized`, …), cut to 60 characters."""
    reason: str = ""
    """The server's own sentence (a validation's message), printable characters only, cut to 120."""


@dataclass(frozen=True)
class Change:
    """One document that changed, as a `_changes` feed lists it."""

    id: str
    """The document's id."""
    revs: tuple[str, ...]
    """Its winning revision (a server may list more leaves)."""
    seq: Seq
    """Where in the feed it changed."""
    deleted: bool
    """Its winning revision is a deletion."""
    doc: Doc | None
    """The winning revision, when asked for (`include_docs`)."""


@dataclass(frozen=True)
class Changes:
    """One batch of a `_changes` feed."""

    results: tuple[Change, ...]
    """What changed, in feed order; at most the `limit` asked for."""
    last_seq: Seq
    """Where the next batch starts (`since`): keep it as the checkpoint once the batch is stored."""
    pending: int | None = None
    """How many changes are left after this batch, if the server says."""
    quiet: bool = False
    """A longpoll that waited and saw no change (`results` is empty and `last_seq` is the `since` given)."""


@dataclass(frozen=True)
class Check:
    """What a *Test* of the sync settings found, step by step, and the first problem in words.

    Each step runs only when the one before it went well; a step not run is None."""

    reachable: bool
    """The server answered (even if it refused)."""
    signed_in: bool | None = None
    """The user name and password were accepted; None if the address gives none."""
    database: bool | None = None
    """The database exists (and the user may use it)."""
    may_create: bool = False
    """The user is a server admin: a missing database can be created (`create_database`)."""
    cors: bool | None = None
    """The server's CORS settings let this page in: a browser only, None elsewhere."""
    version: str | None = None
    """The server's version, once it answered."""
    problem: SyncError | None = None
    """The first thing wrong (`Translator.say(problem)` says it); None: syncing can start."""

    @property
    def ok(self) -> bool:
        """Everything needed to sync is in place."""
        return self.problem is None
